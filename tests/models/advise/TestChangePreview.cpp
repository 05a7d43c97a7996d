// What an Apply button would change (models/advise/ChangePreview.h): the answers it sets and the ZeRO page's chosen
// plan before and after, for the out-of-memory plan's steps and for import suggestions.
#include "PlanFor.h"
#include "TestAnswers.h"
#include "advise/BatchKeys.h"
#include "advise/ChangePreview.h"

#include <QFile>
#include <QTest>

using namespace dsw;
using dsw::test::answersFrom;
using oj = nlohmann::ordered_json;

namespace {

// 7B on 8 × A100-80GB, micro-batch 4, with the backward-pass message of tests/data/oom and the setup it ran.
Answers oomAnswers(const QStringList& extra)
{
    QFile f(QStringLiteral(DSW_TEST_DATA_DIR "/oom/new_format_a100_rank3_backward.txt"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    Answers a = answersFrom(QStringList{"model.params=7B", "model.layers=32", "model.hidden_size=4096",
                                        "model.attention_heads=32", "model.vocab_size=32000", "model.seq_len=2048",
                                        "hardware.gpu=A100-80GB", "hardware.gpus_per_node=8", "hardware.nodes=1",
                                        "training.micro_batch_size=4", "memory.phase=backward"}
                            + extra);
    a.set("memory.oom_message", f.readAll().toStdString());
    return a;
}

using Steps = std::vector<memory::Remedy>;

std::size_t indexOf(const Steps& steps, const std::string& id)
{
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].id == id)
            return i;
    qFatal("no step %s", id.c_str());
}

QStringList ids(const Steps& steps)
{
    QStringList out;
    for (const auto& s : steps)
        out << QString::fromStdString(s.id);
    return out;
}

nlohmann::json editOf(const ChangePreview& p, const std::string& id)
{
    for (const auto& e : p.edits)
        if (e.id == id)
            return e.value;
    return "(not edited)";
}

// The failed run at ZeRO-1 without offload or checkpointing, micro-batch 4; the ZeRO page left to the wizard.
const QStringList kRanAtStage1 = {"memory.ran_stage=1", "memory.ran_offload_optimizer=none",
                                  "memory.ran_offload_param=none", "memory.ran_checkpointing=off"};

} // namespace

class TestChangePreview : public QObject {
    Q_OBJECT
private slots:
    void stepsComeCheapestFirstAndNeverRaiseMemory();
    void aStepAppliesAloneToTheFailedRun();
    void previewIsAgainstTheFailedRunAndApplyKeepsThePlan();
    void pastingAMessageFreezesTheFailedRunFromTheConfig();
    void stepNoAnswerHoldsCannotBeApplied();
    void configChangeMapsToItsAnswer_data();
    void configChangeMapsToItsAnswer();
    void configChangeNoAnswerHoldsChangesNothing();
    void editsEqualToTheAnswersAreDropped();
};

void TestChangePreview::stepsComeCheapestFirstAndNeverRaiseMemory()
{
    // Issue 23: kernels, buckets, the batch and checkpointing before ZeRO stages and offload; no step raises the
    // per-GPU prediction of the failed run, and only a step that names a stage change changes the stage.
    for (const QStringList& extra : {kRanAtStage1, QStringList{"memory.ran_stage=2"}, QStringList{}}) {
        const Plan plan = makePlan(oomAnswers(extra));
        QVERIFY(plan.failedRun);
        const Steps& steps = plan.remedies;
        QVERIFY(indexOf(steps, "micro-batch") < indexOf(steps, "offload-optimizer")); // both kinds are there
        bool stateSteps = false; // once a ZeRO stage or offload step is listed, no cheap one follows
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const memory::Remedy& s = steps[i];
            const bool stateStep = s.id.starts_with("zero-stage-") || s.id.starts_with("offload-");
            QVERIFY2(stateStep || !stateSteps, qPrintable(ids(steps).join(", ")));
            stateSteps = stateSteps || stateStep;
            QVERIFY2(!s.after || s.after->gpu.total <= plan.failedRun->predicted.gpu.total, s.change.c_str());
            if (s.setupAfter && s.setupAfter->stage != plan.failedRun->ran.setup.stage)
                QVERIFY2(s.change.find("ZeRO stage") != std::string::npos, s.change.c_str());
        }
    }
}

void TestChangePreview::aStepAppliesAloneToTheFailedRun()
{
    // Issue 23: applying "micro-batch 4 → 2" applied ZeRO-3 and full offload listed above it. Now it sets the micro-
    // batch (the accumulation keeping the global batch) and keeps the rest of the failed run as it was.
    const Answers a = oomAnswers(kRanAtStage1);
    const Plan plan = makePlan(a);
    const ChangePreview p = previewRemedy(a, *plan.failedRun, plan.remedies, indexOf(plan.remedies, "micro-batch"));
    QVERIFY2(p.cannotApply.empty(), p.cannotApply.c_str());
    JSON_COMPARE(editOf(p, "training.micro_batch_size"), nlohmann::json(2));
    JSON_COMPARE(editOf(p, "training.gradient_accumulation_steps"), nlohmann::json(2));
    JSON_COMPARE(editOf(p, "zero.stage"), nlohmann::json("1")); // the run's, pinned: not what ZeRO-3 would set
    JSON_COMPARE(editOf(p, "training.activation_checkpointing"), nlohmann::json("off"));
    JSON_COMPARE(editOf(p, "zero.offload_optimizer"), nlohmann::json("none"));
    // The run's standard loss, pinned (model.loss_impl auto would let the ZeRO page choose the fused one, another step).
    JSON_COMPARE(editOf(p, "model.loss_impl"), nlohmann::json("standard"));
    QCOMPARE(QString::fromStdString(p.title),
             QStringLiteral("Step %1: ").arg(indexOf(plan.remedies, "micro-batch") + 1)
                 + QString::fromStdString(plan.remedies[indexOf(plan.remedies, "micro-batch")].change));
    // The config after Apply is the failed run with the smaller micro-batch, and its step model figures are the
    // preview's "after".
    const Answers applied = withEdits(a, p.edits);
    const Plan after = makePlan(applied);
    const StepPrediction& chosen = after.zero->plan();
    QCOMPARE(chosen.candidate.placement.stage, 1);
    QCOMPARE(chosen.candidate.microBatch, std::int64_t(2));
    QCOMPARE(chosen.candidate.checkpointing, false);
    QCOMPARE(batchKeys(applied).trainBatchSize, batchKeys(a).trainBatchSize);
    QCOMPARE(p.after.gpuBytes, chosen.gpu.total);
    QCOMPARE(p.after.stepSeconds, chosen.time.total);
}

void TestChangePreview::previewIsAgainstTheFailedRunAndApplyKeepsThePlan()
{
    // Issue 23: previews compared the ZeRO page's re-planned config before and after (a step saving 17 GiB showed
    // "+23.7 GiB" and moved ZeRO-2 to 3), and after Apply the page re-described the failed run from the new answers.
    // The run is the config's (nothing given): each preview is the failed run without and with the step.
    const Answers a = oomAnswers({});
    const Plan plan = makePlan(a);
    const memory::FailedRun& failed = *plan.failedRun;
    QCOMPARE(failed.ran.setup.stage, plan.config["zero_optimization"]["stage"].get<int>());
    for (std::size_t i = 0; i < plan.remedies.size(); ++i) {
        const memory::Remedy& step = plan.remedies[i];
        const ChangePreview p = previewRemedy(a, failed, plan.remedies, i);
        QVERIFY(p.againstFailedRun);
        QCOMPARE(p.before.gpuBytes, failed.predicted.gpu.total);
        if (!step.after)
            continue;
        QCOMPARE(p.after.gpuBytes, step.after->gpu.total);
        QVERIFY2(p.after.gpuBytes <= p.before.gpuBytes, step.change.c_str());
        if (!p.cannotApply.empty())
            continue;
        const nlohmann::json stage = editOf(p, "zero.stage");
        QVERIFY2(stage == "(not edited)" || stage == std::to_string(step.setupAfter->stage), step.change.c_str());
        // Applied: the same failed run, the same steps for the same message.
        const Plan applied = makePlan(withEdits(a, p.edits));
        JSON_COMPARE(applied.find("memory")->details["ran_setup"], plan.find("memory")->details["ran_setup"]);
        QCOMPARE(ids(applied.remedies), ids(plan.remedies));
        QCOMPARE(applied.zero->plan().candidate.placement.stage, step.setupAfter->stage);
    }
}

void TestChangePreview::pastingAMessageFreezesTheFailedRunFromTheConfig()
{
    Answers a = oomAnswers({});
    const std::string message = a.text("memory.oom_message");
    a.unset("memory.oom_message");
    const Plan plan = makePlan(a);
    const std::vector<AnswerEdit> edits = pasteMessageEdits(a, message);
    QCOMPARE(QString::fromStdString(edits.front().id), QStringLiteral("memory.oom_message"));
    // Every part of the run is set from the config as it is now.
    JSON_COMPARE(withEdits(a, edits).value("memory.ran_stage"),
                 nlohmann::json(std::to_string(plan.config["zero_optimization"]["stage"].get<int>())));
    JSON_COMPARE(withEdits(a, edits).value("memory.ran_micro_batch"), plan.config["train_micro_batch_size_per_gpu"]);
    JSON_COMPARE(withEdits(a, edits).value("memory.ran_accumulation"), plan.config["gradient_accumulation_steps"]);
    const Answers frozen = withEdits(a, edits);
    QVERIFY(makePlan(frozen).failedRun->ran.fromConfig.empty());
    // A later change of the config does not move it; a message pasted over one sets only the message.
    const Answers restaged = withEdits(frozen, {{"zero.stage", "3"}, {"training.micro_batch_size", 1}});
    JSON_COMPARE(makePlan(restaged).find("memory")->details["ran_setup"],
                 makePlan(frozen).find("memory")->details["ran_setup"]);
    QCOMPARE(pasteMessageEdits(frozen, "Killed").size(), std::size_t(1));
}

void TestChangePreview::stepNoAnswerHoldsCannotBeApplied()
{
    const Answers a = oomAnswers(kRanAtStage1);
    const Plan plan = makePlan(a);
    // The smaller reduce bucket is a config key no answer holds: nothing is applied, and its saving is still shown.
    const ChangePreview p = previewRemedy(a, *plan.failedRun, plan.remedies, indexOf(plan.remedies, "reduce-bucket"));
    QVERIFY(p.edits.empty());
    QVERIFY(!p.cannotApply.empty());
    QVERIFY(p.after.gpuBytes < p.before.gpuBytes);
    QVERIFY(!previewRemedy(a, *plan.failedRun, plan.remedies, plan.remedies.size()).cannotApply.empty());
}

void TestChangePreview::configChangeMapsToItsAnswer_data()
{
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("value");
    QTest::newRow("stage") << "/zero_optimization/stage"
                           << "3"
                           << "zero.stage"
                           << "\"3\"";
    QTest::newRow("offload block") << "/zero_optimization/offload_optimizer"
                                   << R"({"device":"cpu"})"
                                   << "zero.offload_optimizer"
                                   << "\"cpu\"";
    QTest::newRow("offload removed") << "/zero_optimization/offload_param"
                                     << "null"
                                     << "zero.offload_param"
                                     << "\"none\"";
    QTest::newRow("micro-batch") << "/train_micro_batch_size_per_gpu"
                                 << "2"
                                 << "training.micro_batch_size"
                                 << "2";
    QTest::newRow("bf16") << "/bf16"
                          << R"({"enabled":true})"
                          << "training.precision"
                          << "\"bf16\"";
}

void TestChangePreview::configChangeMapsToItsAnswer()
{
    QFETCH(QString, pointer);
    QFETCH(QString, to);
    QFETCH(QString, id);
    QFETCH(QString, value);
    const Answers a = answersFrom({"model.params=7B", "hardware.gpu=A100-80GB", "hardware.gpus_per_node=8",
                                   "zero.stage=2", "zero.offload_optimizer=none", "zero.offload_param=cpu"});
    const ChangePreview p = previewConfigChange(a, pointer.toStdString(), oj::parse(to.toStdString()));
    QCOMPARE(p.edits.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(p.edits.front().id), id);
    JSON_COMPARE(p.edits.front().value, nlohmann::json::parse(value.toStdString()));
    QCOMPARE(p.after.gpuBytes, planFigures(withEdits(a, p.edits)).gpuBytes);
}

void TestChangePreview::configChangeNoAnswerHoldsChangesNothing()
{
    const Answers a = answersFrom({"model.params=7B", "hardware.gpu=A100-80GB", "hardware.gpus_per_node=8"});
    const ChangePreview p = previewConfigChange(a, "/steps_per_print", oj(100));
    QVERIFY(p.edits.empty());
    QVERIFY(p.cannotApply.empty()); // accepting the suggestion is still possible
    QCOMPARE(p.after.gpuBytes, p.before.gpuBytes);
    QCOMPARE(p.after.stepSeconds, p.before.stepSeconds);
    QVERIFY(!p.notes.empty());
    // "auto" is no value of the micro-batch answer: nothing is set from it.
    QVERIFY(previewConfigChange(a, "/train_micro_batch_size_per_gpu", oj("auto")).edits.empty());
}

void TestChangePreview::editsEqualToTheAnswersAreDropped()
{
    const Answers a = answersFrom({"model.params=7B", "zero.stage=2"});
    const ChangePreview p =
        previewEdits(a, "t", {{"zero.stage", "2"}, {"training.activation_checkpointing", "on"}, {"zero.stage_x", 1}});
    QCOMPARE(p.edits.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(p.edits.front().id), QStringLiteral("training.activation_checkpointing"));
    QCOMPARE(p.notes.size(), std::size_t(1)); // the unknown input is refused by name
}

QTEST_GUILESS_MAIN(TestChangePreview)
#include "TestChangePreview.moc"
