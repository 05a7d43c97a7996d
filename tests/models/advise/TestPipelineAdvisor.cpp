// Pipeline-parallelism advice (models/advise/PipelineAdvisor.h). The partition and bubble numbers are computed
// by hand; per-stage memory is the step model's (estimate/StepModel.h) for each stage's parameters and blocks,
// so it is derived from predictStep here rather than repeated (it changed from the ZeRO paper's 16 B/param plus
// Korthikanti activations when the pipeline page began reading the step model, issue 10 item 5).
//
// Model "small" (derived layers): h = 1024, v = 1000, model.layers = 8, a = 16, s = 1024.
//   GELU MLP of I = 4h, LayerNorm, no biases, untied (the registry's defaults): embedding E = v·h = 1,024,000;
//   block B = attention 4h² + MLP 2·h·4h + two LayerNorms 4h = 4,194,304 + 8,388,608 + 4,096 = 12,587,008;
//   head H = v·h + final LayerNorm 2h = 1,026,048. 10 layers: [E, B×8, H]; total = 102,746,112 (= model.params).
// Usable memory: the capacity; a stage fits up to capacity × (1 + kTightBand), as the ZeRO page's plans.
// Bubble (p − 1)/(m + p − 1), m = gradient_accumulation_steps.
#include "PlanFor.h"
#include "TestAnswers.h"
#include "advise/PipelineAdvisor.h"
#include "estimate/PartitionMemo.h"
#include "estimate/PipelinePartition.h"
#include "estimate/StepModel.h"
#include "project/Answers.h"
#include "project/InputRegistry.h"
#include "util/Count.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>
#include <stdexcept>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

QStringList small(int gpusPerNode, int nodes, int stages, const QString& method, int gas)
{
    return {"model.params=102746112",
            "model.layers=8",
            "model.hidden_size=1024",
            "model.attention_heads=16",
            "model.vocab_size=1000",
            "model.seq_len=1024",
            "training.micro_batch_size=1",
            QStringLiteral("training.gradient_accumulation_steps=%1").arg(gas),
            "hardware.gpu_memory_gib=10",
            QStringLiteral("hardware.gpus_per_node=%1").arg(gpusPerNode),
            QStringLiteral("hardware.nodes=%1").arg(nodes),
            QStringLiteral("pipeline.stages=%1").arg(stages),
            "pipeline.partition_method=" + method};
}

// The ZeRO page's plan as the pipeline page reads it: a stage and checkpointing, the answers' batch, no offload.
struct ZeroPlan {
    int stage = 0;
    bool checkpointing = false;
};
ZeroPlan zeroAdvice(int stage, bool checkpointing) { return {stage, checkpointing}; }

// The pipeline page at that ZeRO plan, for the job the answers describe.
Advice advisePipeline(const Answers& a, const ZeroPlan& z, const PartitionPolicy& policy = {})
{
    const Job job = resolveJob(a);
    if (!job.sized())
        return dsw::advisePipeline(job, nullptr, a, policy).advice;
    const ZeroDecision d = decisionWith(job,
                                        {{z.stage, "none", "none"},
                                         z.checkpointing,
                                         std::max<std::int64_t>(1, job.batch.microBatch),
                                         std::max<std::int64_t>(1, job.batch.gradientAccumulation)});
    return dsw::advisePipeline(job, &d, a, policy).advice;
}

// The step model's per-GPU bytes for one stage at the plan advisePipeline reads from zeroAdvice(): the stage's
// index (the micro-batches 1F1B keeps in flight on it), parameters and transformer blocks, ZeRO stage at most 1 (the pipeline engine's limit), no offload, the answers'
// micro-batch and accumulation.
std::int64_t stageBytes(const Answers& a, std::size_t stage, int zeroStage, bool checkpointing, std::int64_t params,
                        std::int64_t blocks)
{
    StepJob job = stepJobFrom(a);
    job.pipelineStage = static_cast<std::int64_t>(stage); // 1F1B: earlier stages hold more micro-batches
    job.largestLayer = a.integer("model.largest_layer_params");
    sizeStage(job, params);                                 // an empty stage is sized for one parameter
    job.layersPerStage = std::max<std::int64_t>(1, blocks); // a stage without a block is sized for one
    job.time.layers = job.layersPerStage;
    const StepCandidate c{{std::min(zeroStage, 1), "none", "none"},
                          checkpointing,
                          a.integer("training.micro_batch_size"),
                          a.integer("training.gradient_accumulation_steps")};
    return predictStep(job, c).gpu.total;
}

const Check* findCheck(const Advice& adv, const std::string& code)
{
    auto it = std::find_if(adv.checks.begin(), adv.checks.end(), [&](const Check& c) { return c.code == code; });
    return it == adv.checks.end() ? nullptr : &*it;
}

QString levelName(CheckLevel l) { return QString::fromStdString(toString(l)); }

} // namespace

class TestPipelineAdvisor : public QObject {
    Q_OBJECT
private slots:
    void scenarios_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<int>("zeroStage");
        QTest::addColumn<bool>("checkpointing");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("plan"); // details.plan as JSON, or "" for none
        // Transformer blocks per stage (given layers count as blocks), or "" for no plan: each stage's
        // details.memory_per_stage_bytes is the step model's for its parameters and blocks (stageBytes), the
        // same figure the ZeRO page gives that placement; the step model's numbers are not repeated here.
        QTest::addColumn<QString>("blocks");
        QTest::addColumn<QStringList>("checks"); // code=level that must be present
        QTest::addColumn<QStringList>("absent"); // codes that must not be present

        // 8 GPUs, 2 stages, parameters: (10,2) cost |2·S_k − S10|, least at k = 5: E + 4B = 51,372,032 and
        // 4B + H = 51,374,080 → [0,5,10], within 1% (not uneven). dp = 4; 4 blocks per stage.
        // Bubble 1/(8+1) = 1/9.
        QTest::newRow("8 GPUs, 2 stages, parameters, ZeRO-0")
            << small(8, 1, 2, "parameters", 8) << 0 << false << "complete"
            << R"({"stages":2,"parts":[0,5,10],"layers_per_stage":[5,5],"params_per_stage":[51372032,51374080],"bubble_fraction":0.1111111111111111})"
            << "[4,4]"
            << QStringList{"pipeline-stages-divide-gpus=pass", "pipeline-micro-batch-fits=pass",
                           "pipeline-requires-zero-0-or-1=pass"}
            << QStringList{"pipeline-uneven-partition", "pipeline-large-bubble", "pipeline-zero1-no-overlap-comm",
                           "pipeline-stages-exceed-layers", "pipeline-layer-total-differs"};

        // uniform(10,4) = [0,3,6,8,10]: stage 0 = E+2B = 26,198,016; 1 = 3B = 37,761,024; 2 = 2B = 25,174,016;
        // 3 = B+H = 13,613,056; blocks 2, 3, 2, 1.
        // Bubble 3/(8+3) = 3/11 = 0.2727… > 0.25.
        QTest::newRow("8 GPUs, 4 stages, uniform")
            << small(8, 1, 4, "uniform", 8) << 0 << false << "complete"
            << R"({"stages":4,"parts":[0,3,6,8,10],"layers_per_stage":[3,3,2,2],"params_per_stage":[26198016,37761024,25174016,13613056],"bubble_fraction":0.2727272727272727})"
            << "[2,3,2,1]"
            << QStringList{"pipeline-stages-divide-gpus=pass", "pipeline-uneven-partition=warn",
                           "pipeline-large-bubble=warn", "pipeline-micro-batch-fits=pass"}
            << QStringList{"pipeline-stages-exceed-layers"};
        // DeepSpeed lower-cases the method: "Uniform" is "uniform".
        QTest::newRow("Uniform in capitals")
            << small(8, 1, 4, "Uniform", 8) << 0 << false << "complete"
            << R"({"stages":4,"parts":[0,3,6,8,10],"layers_per_stage":[3,3,2,2],"params_per_stage":[26198016,37761024,25174016,13613056],"bubble_fraction":0.2727272727272727})"
            << "[2,3,2,1]" << QStringList{"pipeline-uneven-partition=warn"}
            << QStringList{"pipeline-partition-method-unknown"};

        // Given layers [100M, 10M×8, 100M] (the verified [100,10×8,100] example ×10⁶) → [0,1,5,9,10];
        // stages 100M, 40M, 40M, 100M. 16 GPUs / 4 stages → dp 4; ZeRO-1, checkpointing. Bubble 3/(16+3) = 3/19.
        QStringList given = small(8, 2, 4, "parameters", 16);
        given << "pipeline.layer_params=100M,10M,10M,10M,10M,10M,10M,10M,10M,100M"
              << "model.params=280M";
        QTest::newRow("16 GPUs, 4 stages, given layers, ZeRO-1")
            << given << 1 << true << "complete"
            << R"({"stages":4,"parts":[0,1,5,9,10],"layers_per_stage":[1,4,4,1],"params_per_stage":[100000000,40000000,40000000,100000000],"bubble_fraction":0.15789473684210525})"
            << "[1,4,4,1]"
            << QStringList{"pipeline-requires-zero-0-or-1=pass", "pipeline-zero1-no-overlap-comm=warn",
                           "pipeline-uneven-partition=warn", "pipeline-micro-batch-fits=pass"}
            << QStringList{"pipeline-large-bubble", "pipeline-layer-total-differs"};
        // The same with ZeRO-2: the engine's assert fails; memory is shown for stage 1.
        QTest::newRow("ZeRO-2 is refused")
            << given << 2 << true << "complete"
            << R"({"stages":4,"parts":[0,1,5,9,10],"layers_per_stage":[1,4,4,1],"params_per_stage":[100000000,40000000,40000000,100000000],"bubble_fraction":0.15789473684210525})"
            << "[1,4,4,1]" << QStringList{"pipeline-requires-zero-0-or-1=fail"}
            << QStringList{"pipeline-zero1-no-overlap-comm"};
        QTest::newRow("ZeRO-3 is refused")
            << given << 3 << true << "complete"
            << R"({"stages":4,"parts":[0,1,5,9,10],"layers_per_stage":[1,4,4,1],"params_per_stage":[100000000,40000000,40000000,100000000],"bubble_fraction":0.15789473684210525})"
            << "[1,4,4,1]" << QStringList{"pipeline-requires-zero-0-or-1=fail"} << QStringList{};

        // 3 stages on 8 GPUs: 8 % 3 = 2. uniform(10,3) = [0,4,7,10]: E+3B = 38,785,024; 3B = 37,761,024;
        // 2B+H = 26,200,064; blocks 3, 3, 2. Bubble 2/10.
        QTest::newRow("3 stages do not divide 8 GPUs")
            << small(8, 1, 3, "uniform", 8) << 0 << false << "complete"
            << R"({"stages":3,"parts":[0,4,7,10],"layers_per_stage":[4,3,3],"params_per_stage":[38785024,37761024,26200064],"bubble_fraction":0.2})"
            << "[3,3,2]" << QStringList{"pipeline-stages-divide-gpus=fail", "pipeline-uneven-partition=warn"}
            << QStringList{"pipeline-large-bubble"};

        // type:transformer: binary weights [0,1×8,0] into 3 → [0,4,7,10] (hand run in TestPipelinePartition).
        // 6 GPUs → dp 2. Same stage sums as above.
        QTest::newRow("type:transformer on 6 GPUs")
            << small(6, 1, 3, "type:transformer", 8) << 0 << false << "complete"
            << R"({"stages":3,"parts":[0,4,7,10],"layers_per_stage":[4,3,3],"params_per_stage":[38785024,37761024,26200064],"bubble_fraction":0.2})"
            << "[3,3,2]" << QStringList{"pipeline-stages-divide-gpus=pass", "pipeline-uneven-partition=warn"}
            << QStringList{"pipeline-partition-no-match"};
        // Binary weights into 2 → [0,5,10], even.
        QTest::newRow("type:TRANSFORMER, 2 stages")
            << small(8, 1, 2, "type:TRANSFORMER", 8) << 0 << false << "complete"
            << R"({"stages":2,"parts":[0,5,10],"layers_per_stage":[5,5],"params_per_stage":[51372032,51374080],"bubble_fraction":0.1111111111111111})"
            << "[4,4]" << QStringList{} << QStringList{"pipeline-uneven-partition"};
        QTest::newRow("type: no match") << small(8, 1, 2, "type:attention", 8) << 0 << false << "complete"
                                        << ""
                                        << "" << QStringList{"pipeline-partition-no-match=fail"}
                                        << QStringList{"pipeline-micro-batch-fits"};
        QTest::newRow("type: bad regex") << small(8, 1, 2, "type:(block", 8) << 0 << false << "complete"
                                         << ""
                                         << "" << QStringList{"pipeline-partition-bad-regex=fail"}
                                         << QStringList{"pipeline-partition-no-match"};
        QTest::newRow("profile is not implemented")
            << small(8, 1, 2, "profile", 8) << 0 << false << "complete"
            << ""
            << "" << QStringList{"pipeline-partition-method-unknown=fail"} << QStringList{};

        // 2 given layers, 4 stages: n <= p → uniform(2,4) = [0,1,2,2,2]; empty stages sized for one block. Bubble 3/11.
        QStringList tiny = small(8, 1, 4, "parameters", 8);
        tiny << "pipeline.layer_params=1M, 2M"
             << "model.params=3M";
        QTest::newRow("more stages than layers")
            << tiny << 0 << false << "complete"
            << R"({"stages":4,"parts":[0,1,2,2,2],"layers_per_stage":[1,1,0,0],"params_per_stage":[1000000,2000000,0,0],"bubble_fraction":0.2727272727272727})"
            << "[1,1,0,0]"
            << QStringList{"pipeline-stages-exceed-layers=fail", "pipeline-uneven-partition=warn",
                           "pipeline-large-bubble=warn"}
            << QStringList{};

        // 1 GiB: the step model's stage (4 blocks, 51,372,032 parameters at ZeRO-0) does not fit; see messagesQuoteDeepSpeed.
        QStringList oneGiB = small(8, 1, 2, "parameters", 8);
        oneGiB << "hardware.gpu_memory_gib=1";
        QTest::newRow("first stage does not fit")
            << oneGiB << 0 << false << "complete"
            << R"({"stages":2,"parts":[0,5,10],"layers_per_stage":[5,5],"params_per_stage":[51372032,51374080],"bubble_fraction":0.1111111111111111})"
            << "[4,4]" << QStringList{"pipeline-micro-batch-fits=fail"} << QStringList{};

        // One micro-batch per batch: 1/(1+1) = 0.5.
        QTest::newRow("no accumulation, large bubble")
            << small(8, 1, 2, "parameters", 1) << 0 << false << "complete"
            << R"({"stages":2,"parts":[0,5,10],"layers_per_stage":[5,5],"params_per_stage":[51372032,51374080],"bubble_fraction":0.5})"
            << "[4,4]" << QStringList{"pipeline-large-bubble=warn"} << QStringList{};

        // Layers sum to 102,746,112 but model.params is 7B: more than 10% apart.
        QStringList mismatch = small(8, 1, 2, "parameters", 8);
        mismatch << "model.params=7B";
        QTest::newRow("layers disagree with model.params")
            << mismatch << 0 << false << "complete"
            << R"({"stages":2,"parts":[0,5,10],"layers_per_stage":[5,5],"params_per_stage":[51372032,51374080],"bubble_fraction":0.1111111111111111})"
            << "[4,4]" << QStringList{"pipeline-layer-total-differs=warn"} << QStringList{};

        QTest::newRow("1 stage: no pipeline")
            << small(8, 1, 1, "parameters", 8) << 0 << false << "not_applicable"
            << ""
            << "" << QStringList{} << QStringList{"pipeline-stages-divide-gpus", "pipeline-micro-batch-fits"};
        QStringList bad = small(8, 1, 2, "parameters", 8);
        bad << "pipeline.layer_params=10M, abc, 5M";
        QTest::newRow("bad layer list") << bad << 0 << false << "needs_input"
                                        << ""
                                        << "" << QStringList{"pipeline-layer-params-invalid=fail"}
                                        << QStringList{"pipeline-micro-batch-fits"};
    }
    void scenarios()
    {
        QFETCH(QStringList, settings);
        QFETCH(int, zeroStage);
        QFETCH(bool, checkpointing);
        QFETCH(QString, status);
        QFETCH(QString, plan);
        QFETCH(QString, blocks);
        QFETCH(QStringList, checks);
        QFETCH(QStringList, absent);

        const Advice adv = advisePipeline(answersFrom(settings), zeroAdvice(zeroStage, checkpointing));
        QCOMPARE(adv.workflow, std::string("pipeline"));
        QCOMPARE(QString::fromStdString(toString(adv.status)), status);
        if (plan.isEmpty()) {
            QVERIFY(!adv.details.contains("plan"));
        } else {
            QVERIFY2(adv.details.contains("plan"), adv.details.dump().c_str());
            const oj expected = oj::parse(plan.toStdString());
            const oj& got = adv.details["plan"];
            QVERIFY2(got["parts"] == expected["parts"] && got["layers_per_stage"] == expected["layers_per_stage"]
                         && got["params_per_stage"] == expected["params_per_stage"]
                         && got["stages"] == expected["stages"],
                     got.dump().c_str());
            QVERIFY(qFuzzyCompare(got["bubble_fraction"].get<double>(), expected["bubble_fraction"].get<double>()));
            const Answers a = answersFrom(settings);
            const oj blockCounts = oj::parse(blocks.toStdString());
            oj memory = oj::array();
            for (std::size_t st = 0; st < blockCounts.size(); ++st)
                memory.push_back(stageBytes(a, st, zeroStage, checkpointing,
                                            got["params_per_stage"][st].get<std::int64_t>(),
                                            blockCounts[st].get<std::int64_t>()));
            JSON_COMPARE(adv.details["memory_per_stage_bytes"], memory);
            // The fit check compares the largest stage with the GPU's capacity, as the step model does.
            const auto worst = *std::max_element(memory.begin(), memory.end());
            const double usable = a.number("hardware.gpu_memory_gib") * 1073741824.0;
            QCOMPARE(adv.details["gpu_usable_bytes"].get<double>(), usable);
            const Check* fit = findCheck(adv, "pipeline-micro-batch-fits");
            QVERIFY(fit);
            QCOMPARE(fit->level != CheckLevel::Fail, worst.get<double>() <= usable * (1 + kTightBand));
        }
        for (const QString& c : checks) {
            const auto parts = c.split('=');
            const Check* found = findCheck(adv, parts[0].toStdString());
            QVERIFY2(found, qPrintable("missing check " + c));
            QCOMPARE(levelName(found->level), parts[1]);
        }
        for (const QString& code : absent)
            QVERIFY2(!findCheck(adv, code.toStdString()), qPrintable("unexpected check " + code));
        for (const Check& c : adv.checks)
            QVERIFY2(c.level == CheckLevel::Pass || !c.message.empty(), c.code.c_str());
    }

    // DeepSpeed's 1F1B TrainSchedule keeps min(stages − stage, micro-batches) forward passes in flight on a stage
    // (schedule.py num_pipe_buffers; a replay of its steps() agrees for 2-8 stages and 1-16 micro-batches): with
    // P stages and M ≥ P micro-batches the first stage holds P micro-batches' activations, the last one 1 (and
    // runs the loss); with M < P the early stages hold M.
    // LoRA with pipeline parallelism: the pipeline page carries the adapter rule (knowledge/AdapterRules.h); a full
    // fine-tune does not.
    void adaptersOnAPipelineAreWarned()
    {
        const QStringList base = small(8, 1, 2, "parameters", 8);
        const Advice full = advisePipeline(answersFrom(base), zeroAdvice(0, false));
        QVERIFY(!findCheck(full, "adapter-pipeline"));
        const Advice lora =
            advisePipeline(answersFrom(base + QStringList{"training.method=lora"}), zeroAdvice(0, false));
        const Check* rule = findCheck(lora, "adapter-pipeline");
        QVERIFY(rule);
        QVERIFY(rule->level == CheckLevel::Warn);
        QVERIFY(rule->message.find("every stage") != std::string::npos);
    }

    void oneFOneBKeepsMicroBatchesInFlight()
    {
        for (const int micro : {8, 2}) {
            const int P = 4;
            const Answers a = answersFrom(small(8, 1, P, "uniform", micro));
            StepJob job = stepJobFrom(a);
            const StepCandidate c{{0, "none", "none"}, false, 1, micro};
            ActivationCase one;
            one.shape = job.shape;
            one.shape.layers = job.layersPerStage;
            one.seqLen = job.seqLen;
            one.microBatch = 1;
            one.attention = job.attention;
            const ModelActivations m = modelActivations(one, job.loss, false);
            const std::int64_t blocks = job.layersPerStage * m.perLayerBytes; // one micro-batch, no loss
            for (int stage = 0; stage < P; ++stage) {
                job.pipelineStage = stage;
                const std::int64_t got = predictStep(job, c).activations.peakBytes;
                const std::int64_t inFlight = std::min(P - stage, micro);
                QCOMPARE(microBatchesInFlight(P, stage, micro), inFlight);
                if (stage == P - 1)
                    QCOMPARE(got, m.peakBytes); // one micro-batch, with the loss
                else
                    QCOMPARE(got, inFlight * blocks);
            }
            QCOMPARE(microBatchesInFlight(P, 0, micro), std::int64_t(std::min(P, micro)));
            // The ZeRO page's job (no stage given) sizes the heavier of the first and the last stage.
            job.pipelineStage = -1;
            QCOMPARE(predictStep(job, c).activations.peakBytes, std::max(std::min(P, micro) * blocks, m.peakBytes));
        }
        // With checkpointing every other micro-batch in flight keeps only its blocks' inputs.
        const Answers a = answersFrom(small(8, 1, 4, "uniform", 8));
        StepJob job = stepJobFrom(a);
        job.pipelineStage = 0;
        ActivationCase one;
        one.shape = job.shape;
        one.shape.layers = job.layersPerStage;
        one.seqLen = job.seqLen;
        one.microBatch = 1;
        one.attention = job.attention;
        const ModelActivations m = modelActivations(one, job.loss, true);
        const std::int64_t L = job.layersPerStage;
        QCOMPARE(predictStep(job, {{0, "none", "none"}, true, 1, 8}).activations.peakBytes,
                 3 * L * m.perLayerCheckpointedBytes + L * m.perLayerCheckpointedBytes + m.perLayerBytes);
        // No pipeline: one micro-batch, as before.
        const Answers flat = answersFrom(small(8, 1, 1, "uniform", 8));
        ActivationCase whole = one;
        whole.shape.layers = 8;
        QCOMPARE(predictStep(stepJobFrom(flat), {{0, "none", "none"}, false, 1, 8}).activations.peakBytes,
                 modelActivations(whole, job.loss, false).peakBytes);
    }

    void fitCheckSaysHowManyMicroBatchesAreInFlight()
    {
        // Eight equal layers, two per stage: the stages differ only in the micro-batches they hold.
        QStringList even = small(8, 1, 4, "uniform", 8);
        even << "pipeline.layer_params=" + QStringList(8, "12596224").join(',') << "model.params=100769792";
        const Advice adv = advisePipeline(answersFrom(even), zeroAdvice(0, false));
        const Check* fit = findCheck(adv, "pipeline-micro-batch-fits");
        QVERIFY(fit);
        QVERIFY2(fit->message.find("Stage 0") != std::string::npos, fit->message.c_str()); // the heaviest: 4 in flight
        QVERIFY2(fit->message.find("4 micro-batches of 1 in flight") != std::string::npos, fit->message.c_str());
        const auto& memory = adv.details["memory_per_stage_bytes"];
        QVERIFY(memory[0].get<std::int64_t>() > memory[1].get<std::int64_t>());
        QVERIFY(memory[1].get<std::int64_t>() > memory[2].get<std::int64_t>());
    }

    // A bf16 pipeline accumulates the micro-batches' gradients in bf16. Without ZeRO DeepSpeed then logs its
    // warning (engine.py, _do_optimizer_sanity_check); the page quotes it and offers data_types.grad_accum_dtype
    // fp32 with the step model's cost, and writes it only when pipeline.grad_accum_dtype asks for it.
    void bf16PipelineOffersFp32Accumulation()
    {
        const Advice warned = advisePipeline(answersFrom(small(8, 1, 2, "parameters", 8)), zeroAdvice(0, false));
        const Check* warn = findCheck(warned, "pipeline-bf16-grad-accumulation");
        QVERIFY(warn);
        QCOMPARE(levelName(warn->level), QString("warn"));
        QVERIFY2(warn->message.find("**** BF16 gradient accumulation is not safe numerically with large number of "
                                    "accumulation steps, proceed with caution *****")
                     != std::string::npos,
                 warn->message.c_str());
        QVERIFY2(warn->message.find("pipeline.grad_accum_dtype = fp32") != std::string::npos, warn->message.c_str());
        QVERIFY(!warned.fragment.contains("data_types"));
        // The cost it names is the step model's: the heaviest stage at ZeRO-1 with BF16_Optimizer's fp32 buffer.
        const auto& cost = warned.details["grad_accum_fp32_bytes"];
        const auto& perStage = warned.details["memory_per_stage_bytes"];
        QCOMPARE(cost["without"].get<std::int64_t>(), *std::max_element(perStage.begin(), perStage.end()));
        QVERIFY(cost["with"].get<std::int64_t>() > cost["without"].get<std::int64_t>());
        QVERIFY2(warn->message.find(formatGiB(cost["with"].get<double>())) != std::string::npos, warn->message.c_str());
        // At ZeRO-0 the note says plainly that fp32 accumulation is written only at ZeRO-1 without optimizer offload,
        // that this plan is ZeRO-0 so it is not written, and which placement each memory figure is at.
        for (const char* said : {"written only at ZeRO-1 without optimizer offload", "This plan is ZeRO-0",
                                 "so it is not written", "now at ZeRO-0"})
            QVERIFY2(warn->message.find(said) != std::string::npos,
                     (std::string(said) + " | " + warn->message).c_str());
        QVERIFY2(warn->message.find("with zero.stage 1") == std::string::npos, warn->message.c_str());

        // Asked for: the ZeRO page moves to stage 1 without offload, the key is written, and every stage carries a
        // gradient buffer of 4 bytes per parameter of the stage.
        QStringList fp32 = small(8, 1, 2, "parameters", 8);
        fp32 << "pipeline.grad_accum_dtype=fp32";
        const Answers a = answersFrom(fp32);
        const Plan plan = makePlan(a);
        QCOMPARE(plan.zero->plan().candidate.placement.stage, 1);
        QCOMPARE(plan.zero->plan().candidate.placement.offloadOptimizer, std::string("none"));
        const Advice& written = *plan.find("pipeline");
        JSON_COMPARE(written.fragment["data_types"], oj({{"grad_accum_dtype", "fp32"}}));
        const Check* pass = findCheck(written, "pipeline-grad-accum-fp32");
        QVERIFY(pass);
        QCOMPARE(levelName(pass->level), QString("pass"));
        QVERIFY(!findCheck(written, "pipeline-bf16-grad-accumulation"));
        StepJob job = stepJobFrom(a);
        QVERIFY(job.fp32GradAccumulation);
        job.pipelineStage = 0;
        sizeStage(job, 51372032);
        job.layersPerStage = 4;
        const StepPrediction p = predictStep(job, {{1, "none", "none"}, false, 1, 8});
        const MemoryComponent* buffer = p.memory.find("grads32_accum", MemoryPlace::Gpu);
        QVERIFY(buffer);
        QCOMPARE(buffer->bytes, std::int64_t{4} * 51372032);
        // No ZeRO-1 reduce buckets: BF16_Optimizer all-reduces the fp32 gradients in flattened buckets of 5e8.
        QCOMPARE(p.memory.find("buckets", MemoryPlace::Gpu)->bytes, std::int64_t{4} * 51372032);
        QCOMPARE(p.memory.find("buckets", MemoryPlace::Gpu)->source, std::string("ds-mem-stage0-allreduce"));
        QCOMPARE(written.details["memory_per_stage_bytes"][0].get<std::int64_t>(), p.gpu.total);
        // At stage 0 the same pipeline runs BF16_Optimizer with a bf16 buffer, its master weights partitioned.
        job.fp32GradAccumulation = false;
        const StepPrediction zero0 = predictStep(job, {{0, "none", "none"}, false, 1, 8});
        QCOMPARE(zero0.memory.find("grads16_accum", MemoryPlace::Gpu)->bytes, std::int64_t{2} * 51372032);
        QCOMPARE(zero0.memory.find("master32", MemoryPlace::Gpu)->bytes, std::int64_t{4} * ((51372032 + 3) / 4));
        // fp32 accumulation is sized only where DeepSpeed runs BF16_Optimizer for it; elsewhere the input is named.
        StateMemoryInputs zero2;
        zero2.stage = 2;
        zero2.params = 51372032;
        zero2.fp32GradAccumulation = true;
        try {
            sizeStateMemory(zero2);
            QFAIL("fp32 gradient accumulation at ZeRO-2 was sized");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("data_types.grad_accum_dtype") != std::string::npos, e.what());
        }
    }

    void fp32AccumulationRefusedWhereDeepSpeedCannotRunIt_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QString>("why");
        QTest::newRow("ZeRO stage 0") << QStringList{"zero.stage=0"} << "unsupported mix";
        QTest::newRow("bf16 states") << QStringList{"training.precision_states=bf16"} << "precision_states";
        QTest::newRow("fp16 training") << QStringList{"training.precision=fp16"} << "bf16 training";
        QTest::newRow("optimizer offload")
            << QStringList{"zero.stage=1", "zero.offload_optimizer=cpu"} << "CPU offload";
    }
    void fp32AccumulationRefusedWhereDeepSpeedCannotRunIt()
    {
        QFETCH(QStringList, extra);
        QFETCH(QString, why);
        const Answers a =
            answersFrom(small(8, 1, 2, "parameters", 8) + extra + QStringList{"pipeline.grad_accum_dtype=fp32"});
        const Advice adv = adviceFor("pipeline", a);
        const Check* fail = findCheck(adv, "pipeline-grad-accum-fp32-unsupported");
        QVERIFY(fail);
        QCOMPARE(levelName(fail->level), QString("fail"));
        QVERIFY2(q(fail->message).contains("pipeline.grad_accum_dtype") && q(fail->message).contains("Allowed:")
                     && q(fail->message).contains(why),
                 fail->message.c_str());
        QVERIFY(!adv.fragment.contains("data_types"));
    }

    void batchNumbers()
    {
        // 16 GPUs / 4 stages = dp 4; micro 2, m = 16 → train_batch_size = 2·16·4 = 128.
        QStringList s = small(8, 2, 4, "parameters", 16);
        s << "training.micro_batch_size=2";
        const Advice adv = advisePipeline(answersFrom(s), zeroAdvice(0, false));
        QVERIFY(adv.details["batch"]
                == oj({{"data_parallel_size", 4},
                       {"micro_batch_size", 2},
                       {"micro_batches", 16},
                       {"train_batch_size", 128}}));
        // Nothing DeepSpeed ignores: without checkpointing the fragment is empty.
        QVERIFY(adv.fragment.empty());
    }

    void fragmentCarriesOnlyTheCheckpointInterval()
    {
        const Advice adv = advisePipeline(answersFrom(small(8, 1, 2, "parameters", 8)), zeroAdvice(1, true));
        QVERIFY2(adv.fragment == oj({{"pipeline", {{"activation_checkpoint_interval", 1}}}}),
                 adv.fragment.dump().c_str());
    }

    void layersDerivedFromTheModel()
    {
        const auto layers = pipelineLayers(answersFrom(small(8, 1, 2, "parameters", 8)));
        QCOMPARE(layers.size(), std::size_t(10));
        QCOMPARE(layers.front().typeName, std::string("Embedding"));
        QCOMPARE(layers.front().params, std::int64_t(1024000));
        QCOMPARE(layers[1].typeName, std::string("TransformerBlock"));
        QCOMPARE(layers[1].params, std::int64_t(12587008));
        QCOMPARE(layers.back().typeName, std::string("LMHead"));
        QCOMPARE(layers.back().params, std::int64_t(1026048));
    }

    // Issue 23: the layers a pipeline splits add up to the count the wizard shows for the same shape (model.params
    // derived), for Qwen2.5-7B (SwiGLU, GQA, q/k/v biases, untied) and Llama 2 7B. Qwen2.5-7B by hand: attention
    // 2·3584² + 2·3584·512 + biases 3584 + 2·512 = 29,364,736; MLP 3·3584·18944 = 203,685,888; norms 7,168 →
    // 233,057,792 a block; embedding = head 152064·3584 = 544,997,376 (+ final norm 3,584): 7,615,616,512, the
    // model card's 7.62B (the issue's 7,615,487,488 is the same shape without the q/k/v biases).
    void layersAddUpToTheShapesCount_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("block");
        QTest::newRow("qwen2.5-7b") << "qwen2.5-7b" << qint64(233057792);
        QTest::newRow("llama-2-7b") << "llama-2-7b" << qint64(202383360); // 4·4096² + 3·4096·11008 + 2·4096
    }
    void layersAddUpToTheShapesCount()
    {
        QFETCH(QString, preset);
        QFETCH(qint64, block);
        QStringList settings = small(8, 1, 4, "parameters", 8);
        settings.removeIf([](const QString& s) { return s.startsWith("model."); });
        settings << "model.preset=" + preset << "model.seq_len=1024";
        const Answers a = answersFrom(settings);
        const auto layers = pipelineLayers(a);
        QCOMPARE(std::int64_t(layers.size()), a.integer("model.layers") + 2);
        QCOMPARE(layers[1].params, std::int64_t(block));
        std::int64_t sum = 0;
        for (const auto& l : layers)
            sum += l.params;
        QCOMPARE(sum, a.integer("model.params"));
        if (preset == "qwen2.5-7b")
            QCOMPARE(sum, std::int64_t(7615616512));
        const Advice adv = advisePipeline(a, zeroAdvice(1, true));
        std::int64_t perStage = 0;
        for (const auto& p : adv.details["plan"]["params_per_stage"])
            perStage += p.get<std::int64_t>();
        QCOMPARE(perStage, sum);
        QVERIFY(!findCheck(adv, "pipeline-layer-total-differs")); // nothing the user typed disagrees
        // model.params typed far from the shape: that answer is named, not pipeline.layer_params.
        settings << "model.params=5B";
        const Advice typed = advisePipeline(answersFrom(settings), zeroAdvice(1, true));
        const Check* differs = findCheck(typed, "pipeline-layer-total-differs");
        QVERIFY(differs);
        QVERIFY2(differs->message.find("The model's shape counts " + std::to_string(sum)) != std::string::npos,
                 differs->message.c_str());
    }

    // A tied head is the embedding again on the last stage (TiedLayerSpec): one copy more than the model's count.
    void tiedHeadIsACopyOfTheEmbedding()
    {
        QStringList settings = small(8, 1, 2, "parameters", 8);
        settings.removeIf([](const QString& s) { return s.startsWith("model."); });
        settings << "model.preset=qwen2.5-0.5b"
                 << "model.seq_len=1024";
        const Answers a = answersFrom(settings);
        const auto layers = pipelineLayers(a);
        std::int64_t sum = 0;
        for (const auto& l : layers)
            sum += l.params;
        QCOMPARE(layers.back().params, layers.front().params + 896); // the embedding and the final RMSNorm
        QCOMPARE(sum, a.integer("model.params") + layers.front().params);
        QVERIFY(!findCheck(advisePipeline(a, zeroAdvice(1, true)), "pipeline-layer-total-differs"));
    }

    void layerRowsNameTheirStage()
    {
        const Advice adv = advisePipeline(answersFrom(small(8, 1, 2, "parameters", 8)), zeroAdvice(0, false));
        const oj& rows = adv.details["layers"];
        QCOMPARE(rows.size(), std::size_t(10));
        QVERIFY(rows[0] == oj({{"name", "embedding"}, {"params", 1024000}, {"stage", 0}}));
        QVERIFY(rows[4]["stage"] == 0); // block 3, the last of [0,5)
        QVERIFY(rows[5]["stage"] == 1);
        QVERIFY(rows[9] == oj({{"name", "head"}, {"params", 1026048}, {"stage", 1}}));
    }

    void parseLayerParams_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<qint64>>("counts");
        QTest::addColumn<QString>("badItem"); // "" when it parses
        QTest::newRow("empty") << "" << std::vector<qint64>{} << "";
        QTest::newRow("blank") << "  " << std::vector<qint64>{} << "";
        QTest::newRow("suffixes") << "7B, 350M,1.3e9 ,12" << std::vector<qint64>{7000000000, 350000000, 1300000000, 12}
                                  << "";
        QTest::newRow("word") << "10M, abc, 5M" << std::vector<qint64>{} << "abc";
        QTest::newRow("empty item") << "1,,2" << std::vector<qint64>{} << "item 2";
        QTest::newRow("trailing comma") << "1,2," << std::vector<qint64>{} << "item 3";
        QTest::newRow("negative") << "5,-3" << std::vector<qint64>{} << "-3";
    }
    void parseLayerParams()
    {
        QFETCH(QString, text);
        QFETCH(std::vector<qint64>, counts);
        QFETCH(QString, badItem);
        const auto r = dsw::parseLayerParams(text.toStdString());
        if (badItem.isEmpty()) {
            QVERIFY(r.ok());
            QCOMPARE(std::vector<qint64>(r.value().begin(), r.value().end()), counts);
        } else {
            QVERIFY(!r.ok());
            QVERIFY2(r.error().find("pipeline.layer_params") != std::string::npos, r.error().c_str());
            QVERIFY2(QString::fromStdString(r.error()).contains(badItem), r.error().c_str());
        }
    }

    void messagesQuoteDeepSpeed()
    {
        // Each Advice is kept in a variable: findCheck points into it.
        const Advice typeAdvice =
            advisePipeline(answersFrom(small(8, 1, 2, "type:attention", 8)), zeroAdvice(0, false));
        const Check* noMatch = findCheck(typeAdvice, "pipeline-partition-no-match");
        QVERIFY(noMatch);
        QVERIFY(noMatch->message.find("Partitioning 'attention' found no valid layers to partition.")
                != std::string::npos);

        const Advice profile = advisePipeline(answersFrom(small(8, 1, 2, "Profile", 8)), zeroAdvice(0, false));
        const Check* unknown = findCheck(profile, "pipeline-partition-method-unknown");
        QVERIFY(unknown);
        QVERIFY(unknown->message.find("Partitioning method profile not implemented.") != std::string::npos);

        const Advice threeStages = advisePipeline(answersFrom(small(8, 1, 3, "uniform", 8)), zeroAdvice(0, false));
        const Check* divide = findCheck(threeStages, "pipeline-stages-divide-gpus");
        QVERIFY(divide);
        QVERIFY(divide->message.find("num_stages (3) must divide distributed world size (8)") != std::string::npos);

        const Advice zero2 = advisePipeline(answersFrom(small(8, 1, 2, "uniform", 8)), zeroAdvice(2, false));
        QVERIFY(findCheck(zero2, "pipeline-requires-zero-0-or-1")
                    ->message.find("ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism")
                != std::string::npos);
        const Advice zero1 = advisePipeline(answersFrom(small(8, 1, 2, "uniform", 8)), zeroAdvice(1, false));
        QVERIFY(findCheck(zero1, "pipeline-zero1-no-overlap-comm")
                    ->message.find("Pipeline parallelism does not support overlapped communication, will be disabled.")
                != std::string::npos);

        // A GPU between the step model's stage without and with checkpointing (micro-batch 16, where activations
        // set the peak): the check fails and says checkpointing would fit. (Micro-batch 1 on 1 GiB, the case
        // before the step model, peaks at the optimizer step, where checkpointing does not help.)
        QStringList between = small(8, 1, 2, "parameters", 1);
        between << "training.micro_batch_size=16";
        const Answers sized = answersFrom(between);
        // One micro-batch in flight everywhere (accumulation 1): the last stage, which runs the loss, is the heaviest.
        const std::int64_t off = stageBytes(sized, 1, 0, false, 51374080, 4),
                           on = stageBytes(sized, 1, 0, true, 51374080, 4);
        QVERIFY2(on < off, qPrintable(QString::number(on) + " " + QString::number(off)));
        between << QStringLiteral("hardware.gpu_memory_gib=%1")
                       .arg(static_cast<double>(on + off) / 2 / (1 + kTightBand) / 1073741824.0, 0, 'f', 6);
        const Advice betweenAdvice = advisePipeline(answersFrom(between), zeroAdvice(0, false));
        const Check* fits = findCheck(betweenAdvice, "pipeline-micro-batch-fits");
        QVERIFY(fits);
        QCOMPARE(levelName(fits->level), QString("fail"));
        QVERIFY2(fits->message.find("it would then fit") != std::string::npos, fits->message.c_str());
        QVERIFY2(fits->message.find("or a smaller micro-batch") != std::string::npos, fits->message.c_str());
    }

    void snippetSetsStagesInTheModel()
    {
        const Advice adv = advisePipeline(answersFrom(small(8, 1, 4, "uniform", 8)), zeroAdvice(0, true));
        QCOMPARE(adv.snippets.size(), std::size_t(1));
        const std::string& code = adv.snippets[0].code;
        QCOMPARE(adv.snippets[0].language, std::string("python"));
        for (const char* part : {"PipelineModule(layers=layers, num_stages=4, partition_method=\"uniform\"",
                                 "activation_checkpoint_interval=1", "never reads",
                                 "engine.train_batch(data_iter=", "gradient_accumulation_steps (8)", "range(8)"})
            QVERIFY2(code.find(part) != std::string::npos, part);
    }

    void notApplicableWithOneStage()
    {
        const Advice adv = advisePipeline(answersFrom(small(8, 1, 1, "parameters", 8)), zeroAdvice(2, false));
        QVERIFY(adv.status == AdviceStatus::NotApplicable);
        QVERIFY(adv.fragment.empty());
        QVERIFY(adv.checks.empty());
        QVERIFY(adv.headline.find("No pipeline") != std::string::npos);
    }

    void readsTheZeroWorkflow()
    {
        // The real ZeRO advice: whatever stage it picks, the pipeline reads that stage and its checkpointing.
        const Answers a = answersFrom(small(8, 1, 2, "parameters", 8));
        const Plan plan = makePlan(a);
        const Advice& adv = *plan.find("pipeline");
        QCOMPARE(adv.details["zero_stage"].get<int>(), plan.zero->plan().candidate.placement.stage);
        QCOMPARE(adv.details["activation_checkpointing"].get<bool>(), plan.zero->plan().candidate.checkpointing);
    }

    // A balanced partition too large for a frame is not computed on the caller's thread under the window's
    // policy: the plan shows the uniform partition, labelled "computing…", and says which input to compute.
    // Once a worker stores the result the same answers plan with it, and the memo is not recomputed.
    void largePartitionIsDeferredUntilStored()
    {
        QStringList settings = small(8, 1, 8, "parameters", 8);
        settings << "model.layers=2000"; // 2 002 layers into 8 stages: 7·1995·1996/2 = 13 937 070 splits
        const Answers a = answersFrom(settings);
        PartitionMemo::shared().clear();
        const std::uint64_t computedBefore = PartitionMemo::shared().computations();

        const Advice pending = advisePipeline(a, zeroAdvice(0, false), kWindowPartitionPolicy);
        QCOMPARE(pending.details["partition"]["state"].get<std::string>(), std::string("computing"));
        QCOMPARE(pending.details["partition"]["shown"].get<std::string>(), std::string("uniform"));
        QCOMPARE(pending.details["partition"]["splits"].get<std::int64_t>(), std::int64_t{7} * 1995 * 1996 / 2);
        QCOMPARE(pending.details["plan"]["parts"].get<std::vector<int>>(), partitionUniform(2002, 8));
        QVERIFY2(pending.headline.rfind("computing…", 0) == 0, pending.headline.c_str());
        const Check* computing = findCheck(pending, "pipeline-partition-computing");
        QVERIFY(computing && computing->level == CheckLevel::Warn);
        QVERIFY2(computing->message.find("uniform partition") != std::string::npos, computing->message.c_str());
        QCOMPARE(PartitionMemo::shared().computations(), computedBefore); // nothing computed

        const auto input = balancedPartitionInput(a);
        QVERIFY(input);
        QCOMPARE(input->parts, 8);
        QCOMPARE(input->weights.size(), std::size_t{2002});
        QCOMPARE(input->weights[1], 12587008.0); // B of the small model
        const std::vector<int> balanced = partitionBalanced(input->weights, input->parts);
        PartitionMemo::shared().store(*input, balanced);

        const Advice done = advisePipeline(a, zeroAdvice(0, false), kWindowPartitionPolicy);
        QCOMPARE(done.details["partition"]["state"].get<std::string>(), std::string("computed"));
        QCOMPARE(done.details["partition"]["shown"].get<std::string>(), std::string("balanced"));
        QCOMPARE(done.details["plan"]["parts"].get<std::vector<int>>(), balanced);
        QVERIFY(!findCheck(done, "pipeline-partition-computing"));
        QVERIFY2(done.headline.find("computing") == std::string::npos, done.headline.c_str());
        QCOMPARE(PartitionMemo::shared().computations(), computedBefore);

        // The command line's policy computes this size itself, and the second plan is a memo hit.
        PartitionMemo::shared().clear();
        const Advice now = advisePipeline(a, zeroAdvice(0, false));
        QCOMPARE(now.details["plan"]["parts"].get<std::vector<int>>(), balanced);
        QCOMPARE(PartitionMemo::shared().computations(), computedBefore + 1);
        advisePipeline(a, zeroAdvice(0, false));
        QCOMPARE(PartitionMemo::shared().computations(), computedBefore + 1);
    }

    // 10 002 layers into 1 024 stages (4.1e10 splits; DeepSpeed's own loop 5.1e10 iterations) returns at once
    // under either policy, because nothing computes it here; it says how long DeepSpeed would take and what to
    // use instead.
    void hugePartitionIsNeverComputedSynchronously()
    {
        QStringList settings = small(64, 16, 1024, "parameters", 8);
        settings << "model.layers=10000";
        const Answers a = answersFrom(settings);
        const std::uint64_t computedBefore = PartitionMemo::shared().computations();
        QElapsedTimer clock;
        clock.start();
        const Advice window = advisePipeline(a, zeroAdvice(0, false), kWindowPartitionPolicy);
        const Advice commandLine = advisePipeline(a, zeroAdvice(0, false));
        QVERIFY2(clock.elapsed() < 60'000, "a generous budget: computing it would take about a minute or more");
        QCOMPARE(PartitionMemo::shared().computations(), computedBefore);

        QCOMPARE(window.details["partition"]["state"].get<std::string>(), std::string("computing"));
        QCOMPARE(commandLine.details["partition"]["state"].get<std::string>(), std::string("not_computed"));
        for (const Advice* adv : {&window, &commandLine}) {
            QCOMPARE(adv->details["plan"]["parts"].get<std::vector<int>>(), partitionUniform(10002, 1024));
            QCOMPARE(adv->details["partition"]["deepspeed_iterations"].get<std::int64_t>(),
                     deepSpeedPartitionIterations(10002, 1024));
            const Check* slow = findCheck(*adv, "pipeline-partition-slow-in-deepspeed");
            QVERIFY(slow && slow->level == CheckLevel::Warn);
            QCOMPARE(slow->source, std::string("ds-partition-balanced-loop"));
            // 51 046 646 272 iterations at 0.7 million per second: 72 924 s, 20.3 hours.
            QVERIFY2(slow->message.find("51046646272 iterations here, about 20.3 hours") != std::string::npos,
                     slow->message.c_str());
            QVERIFY2(slow->message.find("\"uniform\" is instant") != std::string::npos, slow->message.c_str());
            QVERIFY2(slow->message.find("\"type:REGEX\" runs the same search") != std::string::npos,
                     slow->message.c_str());
        }
        const Check* notComputed = findCheck(commandLine, "pipeline-partition-not-computed");
        QVERIFY(notComputed);
        QVERIFY2(notComputed->message.find("The window computes it in the background.") != std::string::npos,
                 notComputed->message.c_str());
        QVERIFY2(commandLine.headline.rfind("uniform partition shown", 0) == 0, commandLine.headline.c_str());
    }

    // DeepSpeed's own time is said only where it is long: 32 blocks into 4 stages is instant there too.
    void smallPartitionsSayNothingAboutDeepSpeedsTime()
    {
        const Advice adv = advisePipeline(answersFrom(small(8, 1, 2, "parameters", 8)), zeroAdvice(0, false));
        QVERIFY(!findCheck(adv, "pipeline-partition-slow-in-deepspeed"));
        QCOMPARE(adv.details["partition"]["state"].get<std::string>(), std::string("computed"));
        const Advice uniform = advisePipeline(answersFrom(small(8, 1, 2, "uniform", 8)), zeroAdvice(0, false));
        QCOMPARE(uniform.details["partition"]["state"].get<std::string>(), std::string("uniform"));
        QVERIFY(!balancedPartitionInput(answersFrom(small(8, 1, 2, "uniform", 8))));
        QVERIFY(!balancedPartitionInput(answersFrom(small(8, 1, 2, "type:nothing", 8))));
    }
};

QTEST_APPLESS_MAIN(TestPipelineAdvisor)
#include "TestPipelineAdvisor.moc"
