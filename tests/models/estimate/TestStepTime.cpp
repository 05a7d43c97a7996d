// The step-time model (models/estimate/StepTime.h): the two scenarios of issue 10 where a fixed "fastest"
// order and a communication text that ignored gradient accumulation chose the slower plan, calibration
// against published measurements (ground-truth.md D1, D3, D4, D6, D7), each with its tolerance and why,
// the properties any step-time model must keep, and the rejection of bad inputs.
#include "estimate/StepTime.h"

#include "knowledge/GpuCatalog.h"
#include "knowledge/NetworkCatalog.h"

#include <QTest>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>

using namespace dsw;

namespace {

const GpuSpec& gpu(const char* id)
{
    const GpuSpec* spec = GpuCatalog::instance().find(id);
    if (!spec)
        qFatal("gpus.tsv has no %s", id);
    return *spec;
}

// A transformer on A100-80GB GPUs, hardware figures from the catalogs, the wizard's default assumptions.
StepTimeInputs onA100(double params, std::int64_t layers, std::int64_t hidden, std::int64_t heads, int stage,
                      std::int64_t gpusPerNode, std::int64_t nodes)
{
    StepTimeInputs in;
    in.parameters = params;
    in.layers = layers;
    in.hidden = hidden;
    in.heads = heads;
    in.seqLen = 2048;
    in.placement.stage = stage;
    in.gpusPerNode = gpusPerNode;
    in.nodes = nodes;
    in.dataParallel = gpusPerNode * nodes;
    in.denseTflops = denseTflopsOf(gpu("A100-80GB"), true).value();
    in.intraNodeGBps = intraNodeGBpsOf(gpu("A100-80GB")).value();
    in.pcieGBps = assumedPcieGBps(pcieGenerationOf(gpu("A100-80GB")).value());
    in.nicGbps = NetworkCatalog::instance().find("ethernet-100g")->gbps;
    in.architecture = gpu("A100-80GB").architecture;
    in.overlap = assumedOverlap(stage, std::nullopt, false);
    return in;
}

StepTimeInputs thirteenB(int stage, bool checkpointing)
{
    StepTimeInputs in = onA100(13e9, 40, 5120, 40, stage, 8, 2);
    in.microBatch = 1;
    in.gradientAccumulation = 16;
    in.activationCheckpointing = checkpointing;
    return in;
}

StepTimeInputs sevenB(int stage) { return onA100(6.74e9, 32, 4096, 32, stage, 8, 1); }

bool within(double value, double expected, double tolerance)
{
    return std::abs(value - expected) <= tolerance * std::abs(expected);
}

QString show(double v) { return QString::number(v, 'g', 4); }

} // namespace

class TestStepTime : public QObject {
    Q_OBJECT

private slots:
    void catalogFiguresForTheTimeModel()
    {
        QCOMPARE(denseTflopsOf(gpu("A100-80GB"), true).value(), 312.0);
        QCOMPARE(denseTflopsOf(gpu("H100-80GB"), true).value(), 989.5);
        QCOMPARE(denseTflopsOf(gpu("V100-16GB"), true).value(), 125.0); // no bf16 column: the fp16 one
        QVERIFY(!denseTflopsOf(gpu("A10G"), true));                     // "UNCONFIRMED"
        // Datasheets state both directions together: NVLink 3 "600GB/s" is 300 each way.
        QCOMPARE(intraNodeGBpsOf(gpu("A100-80GB")).value(), 300.0);
        QCOMPARE(intraNodeGBpsOf(gpu("H100-80GB")).value(), 450.0);
        QCOMPARE(intraNodeGBpsOf(gpu("B200")).value(), 900.0);
        QCOMPARE(intraNodeGBpsOf(gpu("V100-16GB")).value(), 150.0);
        QVERIFY(!intraNodeGBpsOf(gpu("GAUDI2")));
        QCOMPARE(pcieGenerationOf(gpu("A100-80GB")).value(), 4);
        QCOMPARE(pcieGenerationOf(gpu("H200")).value(), 5);
        QVERIFY(!pcieGenerationOf(gpu("GAUDI3")));
        QVERIFY(assumedPcieGBps(5) > assumedPcieGBps(4));
    }

    // Issue 10: 13B on 2 nodes × 8 A100 over one 100 GbE NIC, 16 accumulation steps. ZeRO-3 moves 3Ψ every
    // micro-step (48Ψ per step), ZeRO-1 moves 2Ψ once per step: 24× the bytes over the same ring.
    void thirteenBZero3CommunicatesTwentyFourTimesZero1()
    {
        const StepTime z1 = estimateStepTime(thirteenB(1, true));
        const StepTime z3 = estimateStepTime(thirteenB(3, false));
        const double ratio = z3.communicationLinkSeconds / z1.communicationLinkSeconds;
        // ±10%: the ratio is the byte count's (3 × 16) / 2, the same link and ring factor on both sides;
        // the tolerance admits a different rounding of the issue's "≈ 24×", not a different volume.
        QVERIFY2(within(ratio, 24, 0.10), qPrintable(show(ratio)));
        // The issue's figure "by the bytes", ≈ 100 s of ZeRO-3 communication at the NIC's nominal rate: the model
        // charges the bytes at the share of the rate collectives reach (kCollectiveEfficiency over 2 nodes) and adds
        // the per-collective latency. ±25%: the issue rounded it and did not state its sequence length.
        const double reached = kCollectiveEfficiency / (1 + 2 / kCollectiveNodeScale);
        const double latency = 3 * 40 * 16 * kStage3CollectiveLatency; // 3 collectives per layer per micro-step
        QVERIFY2(within((z3.communicationLinkSeconds - latency) * reached, 100, 0.25),
                 qPrintable(show(z3.communicationLinkSeconds)));
        // The bottleneck is the node's one NIC, not NVLink.
        QCOMPARE(z1.linkGBps, 12.5);
    }

    void thirteenBZero1WithCheckpointingBeatsZero3()
    {
        const StepTime z1 = estimateStepTime(thirteenB(1, true));
        const StepTime z3 = estimateStepTime(thirteenB(3, false));
        QVERIFY2(z1.total < z3.total, qPrintable(show(z1.total) + " vs " + show(z3.total)));
        // Checkpointing's extra forward costs ZeRO-1 compute, but far less than ZeRO-3's re-gathers.
        QVERIFY(z1.compute > z3.compute);
        QVERIFY(z3.communication - z1.communication > z1.compute - z3.compute);
        QVERIFY(z3.tokensPerSecondPerGpu < z1.tokensPerSecondPerGpu);
    }

    // Issue 10: 7B on 8 × A100 in one node, 4 sequences per GPU per step. Without checkpointing ZeRO-2 runs 6Ψ per
    // token, ZeRO-1 with checkpointing 8Ψ: at the same micro-batch the one without checkpointing is about a quarter
    // faster. Split into micro-batch 1 × 4 steps, it loses that lead: a 2,048-token micro-batch keeps an A100 far
    // from its peak (C43, DeepSpeed ZeRO-1 on 8 GPUs: 148 TFLOP/s per GPU at 1 × 2,048 tokens, 273 at 4 × 2,048).
    void sevenBZero2WithoutCheckpointingIsAQuarterFaster()
    {
        StepTimeInputs zero2 = sevenB(2);
        zero2.microBatch = 4;
        StepTimeInputs zero1 = sevenB(1);
        zero1.microBatch = 4;
        zero1.activationCheckpointing = true;
        const StepTime a = estimateStepTime(zero2);
        const StepTime b = estimateStepTime(zero1);
        const double speedup = b.total / a.total;
        // Compute alone gives 8/6 = 1.33; the reduce-scatter over NVLink takes a little back. [1.15, 1.35].
        QVERIFY2(speedup >= 1.15 && speedup <= 1.35, qPrintable(show(speedup)));
        QVERIFY(within(a.tokensPerSecondPerGpu / b.tokensPerSecondPerGpu, speedup, 1e-9));

        StepTimeInputs small = zero2;
        small.microBatch = 1;
        small.gradientAccumulation = 4;
        const StepTime c = estimateStepTime(small);
        QVERIFY(c.communication > a.communication); // a reduce-scatter every micro-step
        // C43's ratio at 2,048 tokens, 273 / 148 = 1.84; the model's efficiency curve, ±20%.
        const double smallBatchCost = c.compute / a.compute;
        QVERIFY2(within(smallBatchCost, 273.0 / 148, 0.20), qPrintable(show(smallBatchCost)));
    }

    // D7 (ZenFlow blog): Llama-2-7B on 4 × A100, 0.5 s per step without offload, over 7 s with CPU optimizer
    // offload (14×). The wizard adds its offload component to the measured 0.5 s.
    void calibrationZeroOffloadPenaltyD7()
    {
        StepTimeInputs in = onA100(6.74e9, 32, 4096, 32, 2, 4, 1);
        in.placement.offloadOptimizer = "cpu";
        const StepTime t = estimateStepTime(in);
        const double predicted = (0.5 + t.offload) / 0.5;
        // [11, 28] = 14 × [0.8, 2]: "over 7 s" is a lower bound, the host's CPU is not stated, and CPU Adam's
        // speed varies two-fold between hosts (the default is #6695's 0.8e9 parameters/s; D7's own "CPU path
        // > 4 s" implies about 1.7e9/s). The model is expected above 14×, not below.
        QVERIFY2(predicted >= 11 && predicted <= 28, qPrintable(show(predicted)));
        QVERIFY(t.cpuAdamSeconds > t.pcieSeconds); // D7: the CPU path dominates
    }

    // D6 (PR #8255): 0.108 s per GB sent to the host and back, 8 × H200 (PCIe Gen5). The wizard's host-link
    // efficiency is derived from this row, so this pins the derivation (catalog generation → rate), ±5%.
    void calibrationHostCopyCostD6()
    {
        const double perDirection = assumedPcieGBps(pcieGenerationOf(gpu("H200")).value());
        const double secondsPerGbRoundTrip = 2 / perDirection;
        QVERIFY2(within(secondsPerGbRoundTrip, 0.108, 0.05), qPrintable(show(secondsPerGbRoundTrip)));
    }

    // D1, D3, D4 (DeepSpeed's bf16 master-weights runs, ZeRO-3, GPU not stated; assumed A100-80GB since D3's
    // 41 GB peak needs more than 40 GB). Not calibration rows: the GPU is not stated (an H100 would run them about
    // twice as fast). Band: 0.5–2.0 × measured, what the GPU's uncertainty alone allows — except D1a, a 254M model
    // whose 12 small layers take longer to launch than to compute: kernel launches are not modelled, so the model
    // is a lower bound there (0.2–1.0 ×).
    void calibrationSmallBatchStepTimesD1D3D4()
    {
        StepTimeInputs d1 = onA100(254e6, 12, 1024, 16, 3, 1, 1);
        d1.seqLen = 512;
        d1.microBatch = 4;
        StepTimeInputs d3 = onA100(6.86e9, 32, 4096, 32, 3, 4, 1);
        d3.seqLen = 512;
        StepTimeInputs d4 = d3;
        d4.activationCheckpointing = true;
        const struct {
            const char* id;
            StepTimeInputs in;
            double measured, low, high;
        } rows[] = {{"D1a", d1, 0.1042, 0.2, 1.0}, {"D3a", d3, 0.5078, 0.5, 2.0}, {"D4a", d4, 0.6016, 0.5, 2.0}};
        for (const auto& row : rows) {
            const double predicted = estimateStepTime(row.in).total;
            const double ratio = predicted / row.measured;
            QVERIFY2(ratio >= row.low && ratio <= row.high, qPrintable(QString(row.id) + ": " + show(ratio)));
        }
        // What checkpointing costs is the model's own claim: D4/D3 measured 1.185. ±15%: the extra forward
        // is 2Ψ of 6Ψ, but ZeRO-3's re-gather for the recompute is not modelled.
        const double ratio = estimateStepTime(d4).total / estimateStepTime(d3).total;
        QVERIFY2(within(ratio, 0.6016 / 0.5078, 0.15), qPrintable(show(ratio)));
    }

    void moreAccumulationNeverReducesStage3Communication()
    {
        double previous = 0;
        for (std::int64_t ga = 1; ga <= 64; ga *= 2) {
            StepTimeInputs in = thirteenB(3, false);
            in.gradientAccumulation = ga;
            const StepTime t = estimateStepTime(in);
            QVERIFY(t.communicationBytes > previous);
            previous = t.communicationBytes;
        }
        // Stage 1 communicates once per step, whatever the accumulation.
        StepTimeInputs one = thirteenB(1, false), many = thirteenB(1, false);
        one.gradientAccumulation = 1;
        many.gradientAccumulation = 64;
        QCOMPARE(estimateStepTime(one).communicationBytes, estimateStepTime(many).communicationBytes);
    }

    // stage3_max_reuse_distance keeps the last layers gathered from their forward to their backward.
    void stage3ReuseDistanceSavesBackwardGathers()
    {
        StepTimeInputs in = thirteenB(3, false);
        in.stage3MaxReuseDistance = 0;
        const StepTime none = estimateStepTime(in);
        QCOMPARE(none.stage3KeptForBackward, 0.0);
        in.stage3MaxReuseDistance = 1e9; // 13B: 325M per layer, the last two layers wait under 1e9
        const StepTime two = estimateStepTime(in);
        QVERIFY(within(two.stage3KeptForBackward, 2 * 13e9 / 40, 1e-12));
        QVERIFY(within(two.communicationBytes / none.communicationBytes, (3 - 2.0 / 40) / 3, 1e-12));
        // A model smaller than half the distance is never gathered again in backward: 2Ψ per micro-step.
        StepTimeInputs small = onA100(254e6, 12, 1024, 16, 3, 8, 1);
        const StepTime s = estimateStepTime(small);
        QCOMPARE(s.stage3KeptForBackward, 254e6);
        small.placement.stage = 1;
        QVERIFY(within(s.communicationBytes, estimateStepTime(small).communicationBytes, 1e-12)); // 2Ψ, as stage 1
    }

    void checkpointingAddsComputeAndCausalMaskHalvesAttention()
    {
        StepTimeInputs plain = sevenB(1);
        StepTimeInputs ckpt = plain;
        ckpt.activationCheckpointing = true;
        const double a = estimateStepTime(plain).compute, b = estimateStepTime(ckpt).compute;
        QVERIFY(b > a);
        QVERIFY(within(b / a, 8.0 / 6.0, 0.01)); // dense 8/6 and attention 4/3: the same ratio
        StepTimeInputs full = plain;
        full.causalMask = false;
        full.seqLen = plain.seqLen = 32768; // where attention matters
        QVERIFY(estimateStepTime(full).flops > estimateStepTime(plain).flops);
    }

    void overlapHidesCommunicationButNotBelowZero()
    {
        StepTimeInputs in = thirteenB(3, false);
        in.overlap = 0;
        const StepTime none = estimateStepTime(in);
        in.overlap = 1;
        const StepTime all = estimateStepTime(in);
        QVERIFY(all.communication < none.communication);
        QVERIFY(all.communication >= 0);
        QCOMPARE(all.communicationLinkSeconds, none.communicationLinkSeconds);
        QVERIFY(all.total >= all.compute);
    }

    // The gradient reduction (what 1-bit Adam compresses) is all of stage 0's communication, half of stage 1's
    // (reduce-scatter + all-gather of the same Ψ) and GA of the GA + 1 transfers at stage 2; nothing without data
    // parallelism. It never exceeds the communication, with or without overlap.
    void gradientReductionIsTheGradientsShareOfCommunication()
    {
        const StepTime z0 = estimateStepTime(thirteenB(0, true));
        QVERIFY(z0.communication > 0);
        QCOMPARE(z0.gradientReduction, z0.communication);
        const StepTime z1 = estimateStepTime(thirteenB(1, true));
        QVERIFY(within(z1.gradientReduction, z1.communication / 2, 1e-12));
        StepTimeInputs two = thirteenB(2, false);
        two.overlap = assumedOverlap(2, true, false); // overlap_comm on, as the ZeRO page writes it at stage 2
        const StepTime z2 = estimateStepTime(two);
        const double ga = static_cast<double>(two.gradientAccumulation);
        QVERIFY(z2.communication > 0 && z2.communication < z2.communicationLinkSeconds);
        QVERIFY(within(z2.gradientReduction, z2.communication * ga / (ga + 1), 1e-12));
        const StepTime z3 = estimateStepTime(thirteenB(3, false));
        QVERIFY(z3.gradientReduction > 0 && z3.gradientReduction < z3.communication);
        StepTimeInputs alone = sevenB(0);
        alone.gpusPerNode = 1;
        alone.dataParallel = 1;
        QCOMPARE(estimateStepTime(alone).gradientReduction, 0.0);
    }

    void moreNicsHelpUntilNvlinkBounds()
    {
        StepTimeInputs in = thirteenB(1, false);
        in.nicsPerNode = 1;
        const double one = estimateStepTime(in).communicationLinkSeconds;
        in.nicsPerNode = 8;
        const double eight = estimateStepTime(in).communicationLinkSeconds;
        QVERIFY(within(one / eight, 8, 1e-9));
        in.nicGbps = 1e6; // faster than NVLink: the intra-node link bounds the ring
        QCOMPARE(estimateStepTime(in).linkGBps, in.intraNodeGBps);
        // One node: no NIC enters.
        StepTimeInputs single = sevenB(1);
        single.nicGbps = 0;
        QCOMPARE(estimateStepTime(single).linkGBps, single.intraNodeGBps);
    }

    void pipelineBubbleFollowsNarayanan()
    {
        StepTimeInputs in = sevenB(1);
        in.pipelineStages = 4;
        in.dataParallel = 2;
        in.parameters /= 4;
        in.layers /= 4;
        in.gradientAccumulation = 8;
        const StepTime t = estimateStepTime(in);
        QVERIFY(within(t.bubbleFraction, 3.0 / 11.0, 1e-12));
        QVERIFY(within(t.bubble, t.compute * 3 / 8, 1e-12));
        QVERIFY(within(t.bubble / (t.bubble + t.compute), 3.0 / 11.0, 1e-12));
        in.pipelineMicroBatches = 32;
        QVERIFY(estimateStepTime(in).bubble < t.bubble);
        QCOMPARE(estimateStepTime(sevenB(1)).bubble, 0.0);
    }

    void offloadComponentsAppearWhereTheyBelong()
    {
        const StepTime gpuOnly = estimateStepTime(sevenB(3));
        QCOMPARE(gpuOnly.offload, 0.0);
        StepTimeInputs cpu = sevenB(3);
        cpu.placement.offloadOptimizer = "cpu";
        StepTimeInputs nvme = cpu;
        nvme.placement.offloadOptimizer = "nvme";
        StepTimeInputs both = nvme;
        both.placement.offloadParam = "nvme";
        const StepTime c = estimateStepTime(cpu), n = estimateStepTime(nvme), b = estimateStepTime(both);
        QVERIFY(c.pcieSeconds > 0 && c.cpuAdamSeconds > 0 && c.nvmeSeconds == 0);
        QVERIFY(n.nvmeSeconds > 0 && n.offload > c.offload);
        QVERIFY(b.nvmeBytes > n.nvmeBytes);
        // Accumulating offloaded gradients copies them through the GPU every micro-step.
        StepTimeInputs accumulating = cpu;
        accumulating.gradientAccumulation = 8;
        QVERIFY(estimateStepTime(accumulating).pcieBytes > c.pcieBytes);
        for (const StepTimePart& part : b.parts)
            QVERIFY(!part.formula.empty() && !part.sources.empty());
    }

    void tokensPerSecondAccountForEveryGpu()
    {
        const StepTimeInputs in = thirteenB(1, true);
        const StepTime t = estimateStepTime(in);
        const double tokens = 1.0 * 16 * 2048 * 16; // micro × accumulation × sequence × replicas
        QVERIFY(within(t.tokensPerSecondPerGpu * t.total * 16, tokens, 1e-12));
        QVERIFY(within(t.total, t.compute + t.communication + t.offload + t.bubble, 1e-12));
    }

    void hugeInputsGiveFiniteTimes()
    {
        StepTimeInputs in = thirteenB(3, false);
        in.parameters = 1e18;
        in.layers = std::numeric_limits<std::int64_t>::max() / 2;
        in.hidden = std::numeric_limits<std::int64_t>::max() / 2;
        in.heads = 1;
        in.seqLen = 10'000'000;
        in.microBatch = 65536;
        in.gradientAccumulation = std::numeric_limits<std::int64_t>::max();
        in.placement.offloadOptimizer = "nvme";
        in.placement.offloadParam = "nvme";
        const StepTime t = estimateStepTime(in);
        for (double v : {t.compute, t.communication, t.offload, t.bubble, t.total})
            QVERIFY(std::isfinite(v) && v >= 0);
        // The communication hides behind that much compute (stage 3 overlaps it), but it is counted.
        QVERIFY(t.total > 0 && t.offload > 0 && t.communicationLinkSeconds > 0);
        QVERIFY(std::isfinite(t.tokensPerSecondPerGpu));
    }

    void overlapFollowsDeepSpeedsOverlapComm()
    {
        QCOMPARE(assumedOverlap(3, std::nullopt, false), kOverlapHidden); // overlap_comm defaults on at stage 3
        QCOMPARE(assumedOverlap(2, std::nullopt, false), 0.0);            // and off below
        QCOMPARE(assumedOverlap(2, true, false), kOverlapHidden);
        QCOMPARE(assumedOverlap(3, false, false), 0.0);
        QCOMPARE(assumedOverlap(1, true, false), 0.0); // stage 1 reduces after the backward
        QCOMPARE(assumedOverlap(1, true, true), 0.0);  // a pipeline turns overlap_comm off
    }

    void jsonCarriesTheIssuesContract()
    {
        const StepTime t = estimateStepTime(thirteenB(3, false));
        const nlohmann::json j = stepTimeJson(t);
        QCOMPARE(j.at("step_seconds").at("total").get<double>(), t.total);
        QCOMPARE(j.at("step_seconds").at("communication").get<double>(), t.communication);
        QCOMPARE(j.at("step_seconds").size(), std::size_t(5));
        QCOMPARE(j.at("tokens_per_second_per_gpu").get<double>(), t.tokensPerSecondPerGpu);
    }

    void badInputsAreRejectedByName_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("parameters") << "parameters";
        QTest::newRow("nan parameters") << "parameters";
        QTest::newRow("hidden") << "hidden";
        QTest::newRow("heads") << "hidden";
        QTest::newRow("stage") << "ZeRO stage";
        QTest::newRow("device") << "offload_optimizer";
        QTest::newRow("stage 0 offload") << "offload_optimizer";
        QTest::newRow("nvme below 3") << "offload_optimizer";
        QTest::newRow("param below 3") << "offload_param";
        QTest::newRow("world") << "dataParallel";
        QTest::newRow("tensor") << "tensorParallel";
        QTest::newRow("pipeline zero2") << "ZeRO stage";
        QTest::newRow("mfu") << "mfu";
        QTest::newRow("overlap") << "overlap";
        QTest::newRow("nic") << "nicGbps";
        QTest::newRow("pcie") << "pcieGBps";
        QTest::newRow("bytes") << "elementBytes";
        QTest::newRow("accumulation") << "gradientAccumulation";
        QTest::newRow("reuse") << "stage3MaxReuseDistance";
    }

    void badInputsAreRejectedByName()
    {
        QFETCH(QString, name);
        const QString row = QTest::currentDataTag();
        StepTimeInputs in = thirteenB(1, false);
        const std::map<QString, std::function<void(StepTimeInputs&)>> breakIt = {
            {"parameters", [](StepTimeInputs& i) { i.parameters = 0; }},
            {"nan parameters", [](StepTimeInputs& i) { i.parameters = std::nan(""); }},
            {"hidden", [](StepTimeInputs& i) { i.hidden = 0; }},
            {"heads", [](StepTimeInputs& i) { i.heads = 3; }},
            {"stage", [](StepTimeInputs& i) { i.placement.stage = 4; }},
            {"device", [](StepTimeInputs& i) { i.placement.offloadOptimizer = "disk"; }},
            {"stage 0 offload",
             [](StepTimeInputs& i) {
                 i.placement = {0, "cpu", "none"};
             }},
            {"nvme below 3",
             [](StepTimeInputs& i) {
                 i.placement = {2, "nvme", "none"};
             }},
            {"param below 3",
             [](StepTimeInputs& i) {
                 i.placement = {2, "cpu", "cpu"};
             }},
            {"world", [](StepTimeInputs& i) { i.dataParallel = 15; }},
            {"tensor", [](StepTimeInputs& i) { i.tensorParallel = 2; }},
            {"pipeline zero2",
             [](StepTimeInputs& i) {
                 i.placement.stage = 2;
                 i.pipelineStages = 2;
                 i.dataParallel = 8;
             }},
            {"mfu", [](StepTimeInputs& i) { i.mfu = 1.5; }},
            {"overlap", [](StepTimeInputs& i) { i.overlap = -0.1; }},
            {"nic", [](StepTimeInputs& i) { i.nicGbps = 0; }},
            {"pcie",
             [](StepTimeInputs& i) {
                 i.placement.offloadOptimizer = "cpu";
                 i.pcieGBps = 0;
             }},
            {"bytes", [](StepTimeInputs& i) { i.elementBytes = 3; }},
            {"accumulation", [](StepTimeInputs& i) { i.gradientAccumulation = 0; }},
            {"reuse", [](StepTimeInputs& i) { i.stage3MaxReuseDistance = -1; }},
        };
        breakIt.at(row)(in);
        try {
            estimateStepTime(in);
            QFAIL("accepted");
        } catch (const std::invalid_argument& e) {
            const QString message = QString::fromUtf8(e.what());
            QVERIFY2(message.contains(name), qPrintable(message));
            QVERIFY2(!message.contains('\n'), qPrintable(message));
        }
    }
};

QTEST_APPLESS_MAIN(TestStepTime)
#include "TestStepTime.moc"
