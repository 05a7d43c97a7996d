// Every config the wizard writes starts under DeepSpeed, or its plan says why not (issue 11, item 1).
//
// Over a deterministic grid of answer sets the registry accepts (every choice that changes the config: optimizer,
// precision and its states, ZeRO stage and offload forcing, NVMe with and without a path, pipeline stages, GPUs,
// nodes, micro and global batch, 1-bit optimizers, sparse attention, GPU, model, checkpointing, launcher), the
// plan's config either comes with a failed check, or the linter finds no error in it. Three rejections are checked
// directly, from DeepSpeed 0.19.5's code rather than from the linter:
//  - "nvme_path": "" is read by pydantic as Path('.'), so the swap files go to the working directory;
//  - an optimizer outside ZERO_SUPPORTED_OPTIMIZERS (zero/utils.py: torch Adam/AdamW/Adagrad, FusedAdam,
//    DeepSpeedCPUAdam, DeepSpeedCPUAdagrad, FusedLion, DeepSpeedCPULion) under ZeRO stops at engine init unless
//    zero_allow_untested_optimizer is true (engine.py _do_optimizer_sanity_check); Lamb builds FusedLamb;
//  - "auto" in the strict form is read by DeepSpeed as a value.
// tests/reference/wizard_output_verdicts.py runs the same kind of grid through DeepSpeed itself.
#include "AnswerGrid.h"
#include "Plan.h"
#include "TestAnswers.h"

#include <QTest>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <set>
#include <vector>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

bool planFails(const Plan& plan)
{
    for (const auto& advice : plan.workflows)
        if (advice.hasFailedCheck())
            return true;
    for (const auto& f : plan.findings)
        if (f.level == CheckLevel::Fail)
            return true;
    return false;
}

void collect(const oj& v, const std::string& at, const std::string& key, std::vector<std::string>& autos,
             std::vector<std::string>& emptyNvme)
{
    if (v.is_string() && v.get<std::string>() == "auto")
        autos.push_back(at);
    if (key == "nvme_path" && v.is_string() && v.get<std::string>().empty())
        emptyNvme.push_back(at);
    if (v.is_object())
        for (const auto& [k, child] : v.items())
            collect(child, at + "/" + k, k, autos, emptyNvme);
    if (v.is_array())
        for (std::size_t i = 0; i < v.size(); ++i)
            collect(v[i], at + "/" + std::to_string(i), "", autos, emptyNvme);
}

std::string lowercase(std::string s)
{
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

class TestEmittedConfigs : public QObject {
    Q_OBJECT

private slots:
    void gridIsLargeAndAccepted()
    {
        const auto sets = answerGrid();
        QVERIFY2(sets.size() >= 500, qPrintable(QString::number(sets.size())));
        std::set<QStringList> distinct(sets.begin(), sets.end());
        QVERIFY(distinct.size() >= 500);
        for (const QStringList& s : sets) {
            Project project;
            project.answers = answersFrom(s); // qFatal on an answer the registry refuses
            QVERIFY2(makePlan(project).inputErrors.empty(), qPrintable(s.join(' ')));
        }
    }

    void everyConfigStartsOrThePlanSaysWhy()
    {
        int failed = 0, clean = 0, lamb = 0, nvmeWithoutPath = 0;
        for (const QStringList& s : answerGrid()) {
            Project project;
            project.answers = answersFrom(s);
            const Plan plan = makePlan(project);
            const std::string what = s.join(' ').toStdString();
            const bool fails = planFails(plan);
            fails ? ++failed : ++clean;

            std::vector<std::string> autos, emptyNvme;
            collect(plan.config, "", "", autos, emptyNvme);
            if (!emptyNvme.empty())
                QFAIL(("nvme_path \"\" at " + emptyNvme.front() + ": " + what).c_str());
            if (!autos.empty())
                QFAIL(("\"auto\" in the strict config at " + autos.front() + ": " + what).c_str());

            const int stage = plan.config.value("/zero_optimization/stage"_json_pointer, 0);
            const std::string type = lowercase(plan.config.value("/optimizer/type"_json_pointer, std::string()));
            const bool tested = type == "adam" || type == "adamw" || type == "adagrad" || type == "lion";
            if (stage >= 1 && !tested) {
                if (type == "lamb") {
                    ++lamb;
                    QVERIFY2(plan.config.value("zero_allow_untested_optimizer", false), what.c_str());
                } else {
                    // 1-bit optimizers: "... is not compatible with ZeRO" at engine init.
                    QVERIFY2(fails, ("1-bit optimizer under ZeRO without a failed check: " + what).c_str());
                }
            }
            for (const char* block : {"offload_optimizer", "offload_param"}) {
                const auto ptr = oj::json_pointer("/zero_optimization/" + std::string(block));
                if (plan.config.contains(ptr) && plan.config.at(ptr).value("device", "") == "nvme"
                    && !plan.config.at(ptr).contains("nvme_path")) {
                    ++nvmeWithoutPath;
                    QVERIFY2(fails, ("NVMe offload without a path and no failed check: " + what).c_str());
                }
            }
            if (fails)
                continue;
            for (const auto& f : plan.lint)
                if (f.level == LintLevel::Error)
                    QFAIL(("lint error [" + f.code + "] " + f.path + ": " + f.message + "\n  for " + what).c_str());
        }
        // The grid reaches both outcomes and both repaired cases (so the assertions above were exercised).
        QVERIFY2(clean >= 100 && failed >= 20,
                 qPrintable(QStringLiteral("%1 clean, %2 failed").arg(clean).arg(failed)));
        QVERIFY(lamb >= 10);
        QVERIFY(nvmeWithoutPath >= 5);
    }

    void lambUnderZeroSaysWhatTheFlagMeans()
    {
        Project project;
        project.answers = answersFrom({"training.optimizer=lamb", "zero.stage=2"});
        const Plan plan = makePlan(project);
        QCOMPARE(plan.config.value("zero_allow_untested_optimizer", false), true);
        const Advice* zero = plan.find("zero");
        QVERIFY(zero);
        const auto it = std::find_if(zero->checks.begin(), zero->checks.end(),
                                     [](const Check& c) { return c.code == "zero-untested-optimizer"; });
        QVERIFY(it != zero->checks.end());
        QVERIFY(it->level == CheckLevel::Warn);
        QVERIFY(it->message.find("has not tested") != std::string::npos);
        QVERIFY(it->message.find("adam") != std::string::npos);
        // At stage 0 there is nothing to allow.
        project.answers = answersFrom({"training.optimizer=lamb", "zero.stage=0"});
        QVERIFY(!makePlan(project).config.contains("zero_allow_untested_optimizer"));
    }

    void nvmeWithoutPathNamesTheInput()
    {
        Project project;
        project.answers = answersFrom({"zero.stage=3", "zero.offload_optimizer=nvme", "zero.offload_param=nvme"});
        const Plan plan = makePlan(project);
        QVERIFY(!plan.config.contains("/zero_optimization/offload_optimizer/nvme_path"_json_pointer));
        QVERIFY(!plan.config.contains("/zero_optimization/offload_param/nvme_path"_json_pointer));
        const Advice* zero = plan.find("zero");
        const auto it = std::find_if(zero->checks.begin(), zero->checks.end(),
                                     [](const Check& c) { return c.code == "nvme-path-missing"; });
        QVERIFY(it != zero->checks.end());
        QVERIFY(it->level == CheckLevel::Fail);
        QVERIFY(it->message.find("hardware.nvme_path") != std::string::npos);
        // With the path given it is written.
        project.answers = answersFrom({"zero.stage=3", "zero.offload_optimizer=nvme", "zero.offload_param=nvme",
                                       "hardware.nvme=nvme", "hardware.nvme_path=/local_nvme"});
        QCOMPARE(makePlan(project).config.value("/zero_optimization/offload_optimizer/nvme_path"_json_pointer,
                                                std::string()),
                 std::string("/local_nvme"));
    }
};

QTEST_GUILESS_MAIN(TestEmittedConfigs)
#include "TestEmittedConfigs.moc"
