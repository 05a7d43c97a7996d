// What 1-bit compression leaves of a step the step-time model timed (models/estimate/OnebitCost.h): only the
// gradient reduction shrinks, by the compression-stage ratio after the warm-up, and compute, the parameter
// all-gathers, offload and the bubble stay. Checked against the step model's own components, never hand figures.
#include "estimate/OnebitCost.h"

#include "estimate/StepTime.h"
#include "knowledge/GpuCatalog.h"
#include "knowledge/NetworkCatalog.h"

#include <QTest>

#include <cmath>

using namespace dsw;

namespace {

// 13B over 2 nodes × 8 A100 with one 100 GbE NIC, 8 accumulation steps, at a ZeRO stage.
StepTime stepAt(int stage, double elementBytes = 2)
{
    const GpuSpec& gpu = *GpuCatalog::instance().find("A100-80GB");
    StepTimeInputs in;
    in.parameters = 13e9;
    in.layers = 40;
    in.hidden = 5120;
    in.heads = 40;
    in.seqLen = 2048;
    in.microBatch = 1;
    in.gradientAccumulation = 8;
    in.placement.stage = stage;
    in.gpusPerNode = 8;
    in.nodes = 2;
    in.dataParallel = 16;
    in.elementBytes = elementBytes;
    in.denseTflops = denseTflopsOf(gpu, true).value();
    in.intraNodeGBps = intraNodeGBpsOf(gpu).value();
    in.nicGbps = NetworkCatalog::instance().find("ethernet-100g")->gbps;
    in.overlap = assumedOverlap(stage, std::nullopt, false);
    return estimateStepTime(in);
}

bool near(double actual, double expected)
{
    return std::fabs(actual - expected) <= 1e-12 * std::max(1.0, std::fabs(expected));
}

} // namespace

class TestOnebitCost : public QObject {
    Q_OBJECT

private slots:
    void onlyTheGradientReductionShrinks()
    {
        // At stage 2 a share of the communication all-gathers parameters: compression leaves it alone.
        const StepTime t = stepAt(2);
        QVERIFY(t.gradientReduction > 0 && t.gradientReduction < t.communication);
        const OnebitCost c = onebitCost(t, 2, 100000);
        QCOMPARE(c.gradientReduction, t.gradientReduction);
        QVERIFY(c.compressedStage < c.compressedAverage && c.compressedAverage < c.gradientReduction);
        const double saved = c.gradientReduction - c.compressedAverage;
        QVERIFY(near(c.communicationLeft, t.communication - saved));
        QVERIFY(c.communicationLeft > t.communication - t.gradientReduction); // the all-gathers stay
        QVERIFY(near(c.stepLeft, t.total - saved));
        QVERIFY(c.stepLeft > t.compute);
        QVERIFY(near(*c.saving, saved / t.total));
    }

    void theCompressionStageDividesByTheBitsPerElement()
    {
        const StepTime half = stepAt(0, 2);
        const StepTime full = stepAt(0, 4);
        const OnebitCost h = onebitCost(half, 2, 100000);
        const OnebitCost f = onebitCost(full, 4, 100000);
        QCOMPARE(f.compression, 2 * h.compression);
        QVERIFY(near(h.compressedStage * h.compression, half.gradientReduction));
        QVERIFY(near(f.compressedStage * f.compression, full.gradientReduction));
    }

    void aLongerWarmUpLeavesMore()
    {
        // freeze_step is kOnebitWarmupShare of the run, at least one step: a one-step run is all warm-up.
        const StepTime t = stepAt(0);
        const OnebitCost run = onebitCost(t, 2, 100000);
        QCOMPARE(run.warmup, kOnebitWarmupShare);
        const OnebitCost shortRun = onebitCost(t, 2, 1);
        QCOMPARE(shortRun.freezeStep, std::int64_t{1});
        QCOMPARE(shortRun.warmup, 1.0);
        QVERIFY(near(shortRun.compressedAverage, t.gradientReduction)); // nothing compressed
        QVERIFY(run.compressedAverage < shortRun.compressedAverage);
    }

    void anUntimedStepSavesNothingKnown()
    {
        const OnebitCost c = onebitCost(StepTime{}, 2, 100000);
        QCOMPARE(c.gradientReduction, 0.0);
        QCOMPARE(c.compressedAverage, 0.0);
        QVERIFY(!c.saving);
    }
};

QTEST_APPLESS_MAIN(TestOnebitCost)
#include "TestOnebitCost.moc"
