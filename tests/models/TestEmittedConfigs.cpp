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

const QStringList kOptimizers = {"adamw", "adam",        "lamb",          "adagrad",
                                 "lion",  "onebit-adam", "zero-one-adam", "onebit-lamb"};
const QStringList kPrecisions = {"auto", "fp16", "bf16", "fp8", "fp32"};
const QStringList kStages = {"auto", "0", "1", "2", "3"};
const QStringList kOffloads = {"auto", "none", "cpu", "nvme"};
const QStringList kSparse = {"none", "auto", "fixed", "variable", "bigbird", "bslongformer"};
const QStringList kLaunchers = {"deepspeed", "hf-trainer", "accelerate"};
const QStringList kGpus = {"A100-80GB", "H100-80GB", "V100-32GB", "T4", "A10G", "MI300X"};
const QStringList kModels = {"none", "llama-3.2-1b", "qwen2.5-0.5b", "llama-3.1-8b", "gpt2-xl", "bert-large"};

// A fixed linear congruential sequence (the same numbers on every platform, unlike std distributions).
struct Draw {
    std::uint64_t state = 11;
    int below(int n)
    {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<int>((state >> 33) % static_cast<std::uint64_t>(n));
    }
    QString pick(const QStringList& from) { return from.at(below(static_cast<int>(from.size()))); }
};

std::vector<QStringList> grid()
{
    std::vector<QStringList> out;
    const std::vector<QStringList> bases = {{"model.preset=qwen2.5-0.5b", "hardware.gpus_per_node=4"},
                                            {},
                                            {"model.preset=llama-3.1-8b", "hardware.nodes=2"}};
    for (const QStringList& base : bases) { // every choice alone, on each base
        auto with = [&](QStringList more) { out.push_back(base + more); };
        for (const auto& v : kOptimizers)
            with({"training.optimizer=" + v});
        for (const auto& v : kPrecisions)
            with({"training.precision=" + v});
        with({"training.precision=bf16", "training.precision_states=bf16"});
        for (const auto& v : kStages)
            with({"zero.stage=" + v});
        for (const auto& o : kOffloads)
            for (const auto& p : kOffloads)
                with({"zero.offload_optimizer=" + o, "zero.offload_param=" + p});
        with({"hardware.nvme=nvme"});
        with({"hardware.nvme=nvme", "hardware.nvme_path=/local_nvme", "zero.offload_optimizer=nvme"});
        for (const auto& v : kSparse)
            with({"sparse.pattern=" + v});
        for (const auto& v : kLaunchers)
            with({"software.launcher=" + v});
        with({"pipeline.stages=2"});
        with({"pipeline.stages=4"});
        with({"training.optimizer=lamb", "zero.offload_optimizer=cpu"});
        with({"training.optimizer=lamb", "zero.stage=3"});
        with({"training.optimizer=onebit-adam", "zero.stage=2"});
        with({"training.micro_batch_size=2", "training.gradient_accumulation_steps=8"});
        with({"training.global_batch_size=256"});
    }
    Draw d;
    for (int i = 0; i < 420; ++i) { // every axis at once
        QStringList s = {"model.preset=" + d.pick(kModels),
                         "hardware.gpu=" + d.pick(kGpus),
                         "hardware.gpus_per_node=" + d.pick({"1", "2", "4", "8"}),
                         "hardware.nodes=" + d.pick({"1", "1", "2", "4"}),
                         "training.optimizer=" + d.pick(kOptimizers),
                         "training.precision=" + d.pick(kPrecisions),
                         "zero.stage=" + d.pick(kStages),
                         "zero.offload_optimizer=" + d.pick(kOffloads),
                         "zero.offload_param=" + d.pick(kOffloads),
                         "sparse.pattern=" + d.pick(kSparse),
                         "training.activation_checkpointing=" + d.pick({"auto", "on", "off"}),
                         "software.launcher=" + d.pick(kLaunchers)};
        if (d.below(5) == 0)
            s << "training.precision_states=bf16";
        const int nvme = d.below(3);
        if (nvme > 0)
            s << "hardware.nvme=nvme";
        if (nvme == 2)
            s << "hardware.nvme_path=/local_nvme";
        const int gpus = s.at(2).section('=', 1).toInt() * s.at(3).section('=', 1).toInt();
        const int stages = QList<int>{1, 1, 2, 4}.at(d.below(4));
        if (stages > 1 && gpus % stages == 0)
            s << QStringLiteral("pipeline.stages=%1").arg(stages);
        if (const int micro = d.below(4))
            s << QStringLiteral("training.micro_batch_size=%1").arg(1 << (micro - 1) * 2);
        if (d.below(3) == 0)
            s << "training.global_batch_size=" + d.pick({"64", "256", "1024"});
        if (s.at(4).contains("onebit") || s.at(4).contains("zero-one"))
            s << "onebit.comm_backend=" + d.pick({"nccl", "mpi", "compressed"});
        out.push_back(s);
    }
    return out;
}

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
        const auto sets = grid();
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
        for (const QStringList& s : grid()) {
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
