// Refuse what is not modelled (issue 22 item 5): a mixture of experts, recognised from its config.json or a preset,
// keeps its expert count (model.experts) in the answers, the saved project and the job, and no page says it fits or
// gives it a memory or a step time: each page that sizes says that mixture of experts is not modelled yet and what
// the user can do. The config is still written where it does not depend on the sizing.
#include "Pages.h"
#include "Plan.h"
#include "TestAnswers.h"
#include "config/HfModelConfig.h"
#include "project/ModelChecks.h"
#include "project/ProjectFile.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

// Mixtral-8x7B's config.json (tests/data/hf-configs/SOURCES.tsv) on one node of 8 H100s: bf16 weights alone, 93 GB,
// exceed one GPU, yet read as a dense 7.2B model it "fitted" at ZeRO-1.
Answers importedMixtral(const QStringList& more = {})
{
    QFile f(QStringLiteral(DSW_TEST_DATA_DIR "/hf-configs/mixtral-8x7b-v0.1.json"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read the Mixtral config.json");
    const auto read = readHfModelConfig(oj::parse(f.readAll().toStdString()));
    if (!read)
        qFatal("%s", read.error().c_str());
    Answers a = answersFrom({"hardware.gpu=H100-80GB", "hardware.gpus_per_node=8"});
    for (const auto& [id, value] : read.value().answers)
        a.set(id, value);
    const Answers typed = answersFrom(more); // after the import, over it
    for (const auto& [id, value] : typed.given())
        a.set(id, value);
    return a;
}

// A fit claimed ("fits", "would fit"), in any case, and the figures a sized page prints: GiB, a step time.
const QRegularExpression kFitClaim(QStringLiteral("\\bfits\\b|\\bwould fit\\b"),
                                   QRegularExpression::CaseInsensitiveOption);
const QRegularExpression kFitOrFigure(QStringLiteral("\\bfits\\b|\\bwould fit\\b|GiB|\\d s per step"),
                                      QRegularExpression::CaseInsensitiveOption);
// The one figure a mixture of experts gets: its 16-bit weights, counted from its shape (knowledge/MoeShape.h), against
// one GPU; a fact of the model, not a fit.
const QRegularExpression
    kWeightsFact(QStringLiteral("its 16-bit weights alone are [\\d.]+ GiB(, more than one GPU's [\\d.]+ GiB)?"));

// Every word a page shows: headline, checks, trade-offs, estimates; and its state and status lines.
QString pageWords(const Plan& plan, const Project& project, const Advice& advice)
{
    QString words = q(advice.headline) + "\n" + q(pageStatus(plan, project, advice.workflow)) + "\n"
        + q(reviewText(plan, project, advice.workflow)) + "\n";
    for (const Check& c : advice.checks)
        words += q(c.code + ": " + c.message) + "\n";
    for (const Tradeoff& t : advice.tradeoffs)
        words += q(t.title + ": " + t.text) + "\n";
    for (const Estimate& e : advice.estimates)
        words += q(e.name + " " + e.unit) + "\n";
    return words;
}

// A key that says a fit is true, or a text that claims a fit, anywhere in `j` (snippets may say "1 GiB").
bool claimsAFit(const oj& j, std::string& where, const std::string& path = "")
{
    if (j.is_object()) {
        for (const auto& [key, value] : j.items()) {
            if (key.find("fits") != std::string::npos && value.is_boolean() && value.get<bool>()) {
                where = path + "/" + key;
                return true;
            }
            if (claimsAFit(value, where, path + "/" + key))
                return true;
        }
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i)
            if (claimsAFit(j[i], where, path + "/" + std::to_string(i)))
                return true;
    } else if (j.is_string() && QString::fromStdString(j.get<std::string>()).contains(kFitClaim)) {
        where = path + ": " + j.get<std::string>();
        return true;
    }
    return false;
}

const Check* findCheck(const Advice& advice, const std::string& code)
{
    for (const Check& c : advice.checks)
        if (c.code == code)
            return &c;
    return nullptr;
}

} // namespace

class TestNotModelled : public QObject {
    Q_OBJECT
private slots:
    void theImportKeepsTheExpertCount()
    {
        const Answers a = importedMixtral();
        QCOMPARE(a.integer("model.experts"), 8LL);
        const Job job = resolveJob(a);
        QCOMPARE(job.experts, 8LL);
        QVERIFY(!job.sized());
        QVERIFY(job.shapeError.empty()); // the shape is fine: it is the experts that are not modelled
        QVERIFY(q(job.notModelled).contains("not modelled yet"));
        const oj json = toJson(job);
        QCOMPARE(json.at("experts").get<std::int64_t>(), 8LL);
        QVERIFY(json.at("not_modelled").is_string());
        // Its whole count (46.7B) is not reported as disagreeing with the shape, which counts one MLP per layer.
        QVERIFY(!paramsShapeMismatch(importedMixtral({"model.params=46.7B"})));
        QVERIFY(paramsShapeMismatch(importedMixtral({"model.params=46.7B", "model.experts=1"})));
    }

    // No page, no status line and nothing in `recommend --format json` says "fits" or gives a memory or a step time;
    // the pages that size say why and what to do, under one code.
    void noPageSaysMixtralFits_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::newRow("the wizard's pick") << QStringList{};
        QTest::newRow("ZeRO-1 asked") << QStringList{"zero.stage=1"};
        QTest::newRow("4 nodes, pipeline of 2") << QStringList{"hardware.nodes=4", "pipeline.stages=2"};
        QTest::newRow("1-bit Adam, bf16 states")
            << QStringList{"hardware.nodes=2", "training.optimizer=onebit-adam", "training.precision_states=bf16"};
    }
    void noPageSaysMixtralFits()
    {
        QFETCH(QStringList, settings);
        Project project;
        project.answers = importedMixtral(settings);
        const Plan plan = makePlan(project);
        QVERIFY(!plan.zero);
        QVERIFY(plan.pipeline.memoryPerStage.empty());
        for (const Advice& advice : plan.workflows) {
            const QString words = pageWords(plan, project, advice);
            QVERIFY2(!QString(words).remove(kWeightsFact).contains(kFitOrFigure),
                     qPrintable(q(advice.workflow) + ":\n" + words));
            for (const Estimate& e : advice.estimates) // the bubble fraction and the batch stand; no bytes or seconds
                QVERIFY2(e.unit != "bytes" && e.unit != "s", qPrintable(q(advice.workflow + ": " + e.name)));
        }
        for (const char* page : {"zero", "precision", "memory", "onebit"}) {
            const Check* c = findCheck(*plan.find(page), "moe-not-modelled");
            QVERIFY2(c, page);
            for (const char* part : {"not modelled yet", "8 experts", "estimate_zero3_model_states_mem_needs_all_live",
                                     "ep_size", "model.experts"})
                QVERIFY2(c->message.find(part) != std::string::npos, c->message.c_str());
        }
        if (plan.job.layout.pipeline > 1)
            QVERIFY(findCheck(*plan.find("pipeline"), "moe-not-modelled"));
        // The pages that cannot answer without the sizing show a conflict; precision, which can, does not.
        QVERIFY(pageState(plan, project, "zero") == PageState::Conflict);
        QVERIFY(findCheck(*plan.find("precision"), "moe-not-modelled")->level == CheckLevel::Warn);
        std::string where;
        QVERIFY2(!claimsAFit(toJson(plan), where), where.c_str());
    }

    // What does not depend on the sizing is still written: the batch and the precision always, the ZeRO block only
    // as the user set it (choosing the stage is what needs the sizing).
    void theConfigKeepsWhatDoesNotDependOnTheSizing()
    {
        const Plan pick = makePlan(importedMixtral());
        QVERIFY(pick.config.contains("train_batch_size") && pick.config.contains("bf16"));
        QVERIFY(!pick.config.contains("zero_optimization"));
        QVERIFY(q(findCheck(*pick.find("zero"), "moe-not-modelled")->message).contains("no zero_optimization block"));
        // The micro-batch the config holds is not said to be the ZeRO page's choice.
        for (const DerivedInput& d : derivedInputs(pick, importedMixtral()))
            QVERIFY2(!q(d.why).contains("ZeRO page"), qPrintable(q(d.id + ": " + d.why)));

        const Plan asked = makePlan(importedMixtral({"zero.stage=3", "zero.offload_optimizer=cpu"}));
        QCOMPARE(asked.config.at("zero_optimization").at("stage").get<int>(), 3);
        QCOMPARE(asked.config.at("zero_optimization").at("offload_optimizer").at("device").get<std::string>(),
                 std::string("cpu"));
        QVERIFY(q(findCheck(*asked.find("zero"), "moe-not-modelled")->message).contains("as you set it"));
    }

    // A preset that is a mixture of experts supplies model.experts as it supplies the shape.
    void aMoePresetIsRefusedToo()
    {
        const Answers a = answersFrom({"model.preset=mixtral-8x7b-v0.1", "hardware.gpu=H100-80GB"});
        QVERIFY(a.presetSupplies("model.experts"));
        QCOMPARE(a.integer("model.experts"), 8LL);
        const Plan plan = makePlan(a);
        QVERIFY(!plan.zero);
        QVERIFY(findCheck(*plan.find("zero"), "moe-not-modelled"));
        // Typing 1 over the preset is the user's statement that the model is dense: it is sized.
        QVERIFY(makePlan(answersFrom({"model.preset=mixtral-8x7b-v0.1", "model.experts=1"})).zero);
    }

    void theExpertCountSurvivesSaveAndReopen()
    {
        Project project;
        project.answers = importedMixtral();
        const auto bytes = serializeProjectForFile(project);
        QVERIFY2(bytes, bytes ? "" : bytes.error().c_str());
        const auto reopened = parseProject(bytes.value());
        QVERIFY2(reopened, reopened ? "" : reopened.error().c_str());
        QCOMPARE(reopened.value().answers.integer("model.experts"), 8LL);
        QVERIFY(!makePlan(reopened.value()).zero);
    }

    // A dense model is as before: model.experts 1 (what a dense config.json writes) sizes it.
    void aDenseModelIsSized()
    {
        QCOMPARE(Answers{}.integer("model.experts"), 1LL);
        const Plan plan = makePlan(answersFrom({"model.preset=llama-3.1-8b", "model.experts=1"}));
        QVERIFY(plan.zero && plan.job.notModelled.empty());
        QVERIFY(!findCheck(*plan.find("zero"), "moe-not-modelled"));
        QVERIFY(!InputRegistry::instance().parse("model.experts", "0"));
    }
};

QTEST_APPLESS_MAIN(TestNotModelled)
#include "TestNotModelled.moc"
