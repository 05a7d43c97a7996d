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

// The out-of-memory page's steps, as the plan holds them.
Steps stepsFor(const Answers& a) { return makePlan(a).remedies; }

nlohmann::json editOf(const ChangePreview& p, const std::string& id)
{
    for (const auto& e : p.edits)
        if (e.id == id)
            return e.value;
    return "(not edited)";
}

} // namespace

class TestChangePreview : public QObject {
    Q_OBJECT
private slots:
    void memoryStepSetsTheAnswersOfEveryStepUpToIt();
    void afterIsThePlanOfTheChangedAnswers();
    void appliedStepKeepsTheDiagnosisOfTheFailedRun();
    void stepNoAnswerHoldsCannotBeApplied();
    void configChangeMapsToItsAnswer_data();
    void configChangeMapsToItsAnswer();
    void configChangeNoAnswerHoldsChangesNothing();
    void editsEqualToTheAnswersAreDropped();
};

void TestChangePreview::memoryStepSetsTheAnswersOfEveryStepUpToIt()
{
    const Answers a = oomAnswers({"memory.ran_stage=1", "memory.ran_offload_optimizer=none",
                                  "memory.ran_offload_param=none", "memory.ran_checkpointing=off"});
    const Steps steps = stepsFor(a);
    const std::size_t stage3 = indexOf(steps, "zero-stage-3");
    QVERIFY(indexOf(steps, "micro-batch") < stage3);
    QVERIFY(indexOf(steps, "activation-checkpointing") < stage3);
    const ChangePreview p = previewRemedy(a, steps, stage3);
    QVERIFY2(p.cannotApply.empty(), p.cannotApply.c_str());
    JSON_COMPARE(editOf(p, "zero.stage"), nlohmann::json("3"));
    JSON_COMPARE(editOf(p, "training.activation_checkpointing"), nlohmann::json("on"));
    // The micro-batch step halves the micro-batch; the global batch stays 4 × 1 × 8, so the config's accumulation
    // becomes 2 while the failed run's (the unset accumulation answer) stays 1.
    JSON_COMPARE(editOf(p, "training.micro_batch_size"), nlohmann::json(2));
    JSON_COMPARE(editOf(p, "training.global_batch_size"), nlohmann::json(32));
    JSON_COMPARE(editOf(p, "training.gradient_accumulation_steps"), nlohmann::json("(not edited)"));
    const Answers applied = withEdits(a, p.edits);
    QCOMPARE(batchKeys(applied).gradientAccumulation, std::int64_t(2));
    QVERIFY(batchKeys(applied).check.level == CheckLevel::Pass);
    JSON_COMPARE(editOf(p, "model.loss_impl"), nlohmann::json("fused")); // the first step, before it
    // The env-only and bucket steps before it are said, not silently skipped.
    QVERIFY(!p.notes.empty());
    QVERIFY(p.title.starts_with("Steps 1–"));

    // Step 1 alone sets only its own answer.
    const ChangePreview first = previewRemedy(a, steps, 0);
    QCOMPARE(first.edits.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(first.edits.front().id), QStringLiteral("model.loss_impl"));
}

void TestChangePreview::afterIsThePlanOfTheChangedAnswers()
{
    const Answers a = oomAnswers({"memory.ran_stage=1", "memory.ran_offload_optimizer=none",
                                  "memory.ran_offload_param=none", "memory.ran_checkpointing=off"});
    const Steps steps = stepsFor(a);
    const ChangePreview p = previewRemedy(a, steps, indexOf(steps, "offload-param"));
    QVERIFY(p.before.sized && p.after.sized);
    const Answers after = withEdits(a, p.edits);
    const StepPrediction rec = makePlan(after).zero->plan();
    QCOMPARE(p.after.gpuBytes, rec.gpu.total);
    QCOMPARE(p.after.stepSeconds, rec.time.total);
    QCOMPARE(rec.candidate.placement.stage, 3);
    QCOMPARE(QString::fromStdString(rec.candidate.placement.offloadParam), QStringLiteral("cpu"));
    QVERIFY2(p.after.label.find("ZeRO-3") != std::string::npos, p.after.label.c_str());
    // Offloading everything costs time and saves GPU memory against the plan before.
    QCOMPARE(p.before.gpuBytes, makePlan(a).zero->plan().gpu.total);
    QVERIFY(p.after.gpuBytes < p.before.gpuBytes);
    QVERIFY(p.after.stepSeconds > p.before.stepSeconds);
}

void TestChangePreview::appliedStepKeepsTheDiagnosisOfTheFailedRun()
{
    // memory.ran_* say auto and follow the forced ZeRO answers (as after an import): applying ZeRO-3 must not make
    // the diagnosis believe the failed run was at stage 3.
    const Answers a = oomAnswers({"zero.stage=1", "zero.offload_optimizer=none", "zero.offload_param=none",
                                  "training.activation_checkpointing=off"});
    const Advice before = adviceFor("memory", a);
    const Steps steps = stepsFor(a);
    const ChangePreview p = previewRemedy(a, steps, indexOf(steps, "zero-stage-3"));
    JSON_COMPARE(editOf(p, "memory.ran_stage"), nlohmann::json("1"));
    JSON_COMPARE(editOf(p, "memory.ran_checkpointing"), nlohmann::json("off"));
    JSON_COMPARE(editOf(p, "memory.ran_micro_batch"), nlohmann::json(4));
    const Advice after = adviceFor("memory", withEdits(a, p.edits));
    const oj& ranAfter = after.details["ran_setup"];
    const oj& ranBefore = before.details["ran_setup"];
    for (const char* key : {"stage", "offload_optimizer", "offload_param", "activation_checkpointing",
                            "micro_batch_size", "gradient_accumulation_steps"})
        JSON_COMPARE(ranAfter[key], ranBefore[key]);
    JSON_COMPARE(after.details["ran_setup_not_given"], before.details["ran_setup_not_given"]);
    // The loss kernel is the job's, read from the same answer for the failed run: the preview says so.
    QVERIFY(std::any_of(p.notes.begin(), p.notes.end(),
                        [](const std::string& n) { return n.find("kernel") != std::string::npos; }));
}

void TestChangePreview::stepNoAnswerHoldsCannotBeApplied()
{
    const Answers a = oomAnswers({"memory.ran_stage=1", "memory.ran_offload_optimizer=none",
                                  "memory.ran_offload_param=none", "memory.ran_checkpointing=off"});
    const Steps steps = stepsFor(a);
    // The smaller reduce bucket is a config key no answer holds; its steps before it (the fused loss) are answers.
    const Steps only = {steps[indexOf(steps, "reduce-bucket")]};
    const ChangePreview p = previewRemedy(a, only, 0);
    QVERIFY(p.edits.empty());
    QVERIFY(!p.cannotApply.empty());
    QCOMPARE(p.after.gpuBytes, p.before.gpuBytes);
    QVERIFY(!previewRemedy(a, steps, steps.size()).cannotApply.empty()); // no such step
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
