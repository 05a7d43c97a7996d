// The step-time model (models/estimate/StepTime.h): the two scenarios of issue 10 where a fixed "fastest"
// order and a communication text that ignored gradient accumulation chose the slower plan, calibration
// against published measurements (ground-truth.md D1, D3, D4, D6, D7; calibration.md C65–C80), each with its
// tolerance and why, the properties any step-time model must keep, and the rejection of bad inputs.
#include "estimate/StepTime.h"

#include "estimate/StepModel.h"
#include "knowledge/GpuCatalog.h"
#include "knowledge/NetworkCatalog.h"
#include "project/Answers.h"
#include "project/InputRegistry.h"

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
    const HostLinkRate host = hostLinkRate(gpu("A100-80GB").hostLink);
    in.hostToDeviceGBps = host.hostToDeviceGBps;
    in.deviceToHostGBps = host.deviceToHostGBps;
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
    in.recomputedShare = checkpointing ? 1 : 0;
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
    }

    // Every catalog row: the host link its host_link cell names, that link's measured peaks and effective rates, and
    // the peer rate parsed from its intra_node_link cell (quoted beside each row). Datasheets state both directions
    // together, so a peer figure is halved; AMD states one link's figure, and the GPU reaches its peers over all.
    void everyGpusRates_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("link");
        QTest::addColumn<double>("peer"); // GB/s one direction; 0: the cell states none
        const QString gen3 = "PCIe Gen3 x16", gen4 = "PCIe Gen4 x16", gen5 = "PCIe Gen5 x16", c2c = "NVLink-C2C";
        QTest::newRow("V100-16GB: 'Interconnect Bandwidth 300 GB/sec'") << "V100-16GB" << gen3 << 150.0;
        QTest::newRow("V100-32GB") << "V100-32GB" << gen3 << 150.0;
        QTest::newRow("V100-PCIE-16GB: PCIe Gen3 'Interconnect Bandwidth 32 GB/sec'")
            << "V100-PCIE-16GB" << gen3 << 16.0;
        QTest::newRow("V100-PCIE-32GB") << "V100-PCIE-32GB" << gen3 << 16.0;
        QTest::newRow("T4: PCIe Gen3 x16 ('Interconnect Bandwidth 32 GB/sec')") << "T4" << gen3 << 16.0;
        QTest::newRow("A10: PCIe Gen4 64 GB/s") << "A10" << gen4 << 32.0;
        QTest::newRow("A10G: PCIe Gen4; no NVLink") << "A10G" << gen4 << 0.0;
        QTest::newRow("A40: '112.5 GB/s (bidirectional)'") << "A40" << gen4 << 56.25;
        QTest::newRow("RTX-A6000: 112.5 GB/s (bidirectional)") << "RTX-A6000" << gen4 << 56.25;
        QTest::newRow("RTX-3090: 112.5 GB/s total") << "RTX-3090" << gen4 << 56.25;
        QTest::newRow("RTX-4090: PCIe Gen4 x16 (64 GB/s bidirectional)") << "RTX-4090" << gen4 << 32.0;
        QTest::newRow("RTX-6000-ADA: No NVLink; PCIe Gen4 x16") << "RTX-6000-ADA" << gen4 << 0.0;
        QTest::newRow("L4: PCIe Gen4 x16 64GB/s") << "L4" << gen4 << 32.0;
        QTest::newRow("L40S: 64GB/s bidirectional") << "L40S" << gen4 << 32.0;
        QTest::newRow("A100-40GB: 'NVLink: 600GB/s'") << "A100-40GB" << gen4 << 300.0;
        QTest::newRow("A100-80GB") << "A100-80GB" << gen4 << 300.0;
        QTest::newRow("A100-PCIE-40GB: NVLink Bridge 600GB/s") << "A100-PCIE-40GB" << gen4 << 300.0;
        QTest::newRow("A100-PCIE-80GB") << "A100-PCIE-80GB" << gen4 << 300.0;
        QTest::newRow("H100-80GB: 'NVIDIA NVLink: 900GB/s'") << "H100-80GB" << gen5 << 450.0;
        QTest::newRow("H100-PCIE-80GB: 'NVLink: 600GB/s'") << "H100-PCIE-80GB" << gen5 << 300.0;
        QTest::newRow("H100-NVL: 600GB/s") << "H100-NVL" << gen5 << 300.0;
        QTest::newRow("H200: 900GB/s") << "H200" << gen5 << 450.0;
        QTest::newRow("H200-NVL: '2- or 4-way … 900GB/s per GPU'") << "H200-NVL" << gen5 << 450.0;
        QTest::newRow("GH200: NVLink-C2C to its Grace CPU, 900GB/s") << "GH200" << c2c << 450.0;
        QTest::newRow("B200: 'NVSwitch GPU-to-GPU bandwidth 1.8TB/s'") << "B200" << gen5 << 900.0;
        QTest::newRow("GB200: 1.8 TB/s per GPU; NVLink-C2C") << "GB200" << c2c << 900.0;
        QTest::newRow("MI250X: '8' links, 100 GB/s (per link)") << "MI250X" << gen4 << 400.0;
        QTest::newRow("MI300X: 7 links x 128 GB/s peak (896 GB/s aggregate)") << "MI300X" << gen5 << 448.0;
        QTest::newRow("MI325X: 7 links x 128 GB/s") << "MI325X" << gen5 << 448.0;
        QTest::newRow("GAUDI2: 24 x 100 Gigabit Ethernet") << "GAUDI2" << gen4 << 0.0;
        QTest::newRow("GAUDI3: 24 x 200 Gb Ethernet") << "GAUDI3" << gen5 << 0.0;
    }
    void everyGpusRates()
    {
        QFETCH(QString, id);
        QFETCH(QString, link);
        QFETCH(double, peer);
        const GpuSpec& g = gpu(qPrintable(id));
        QCOMPARE(QString::fromStdString(g.hostLink), link);
        // The two cells agree: a PCIe generation the peer cell names is the host link's.
        for (const char* gen : {"Gen3", "Gen4", "Gen5"})
            if (g.intraNodeLink.find(std::string("PCIe ") + gen) != std::string::npos)
                QVERIFY2(g.hostLink == std::string("PCIe ") + gen + " x16", qPrintable(id));
        const std::optional<double> parsed = intraNodeGBpsOf(g);
        QCOMPARE(parsed.value_or(0), peer);
        // Peaks as measured (calibration.md C73, C77–C80); effective = peak × kHostLinkEfficiency.
        const std::map<QString, std::pair<double, double>> peaks = {{"PCIe Gen3 x16", {12.15, 12.89}},
                                                                    {"PCIe Gen4 x16", {25.13, 25.0}},
                                                                    {"PCIe Gen5 x16", {35.2, 52.77}},
                                                                    {"NVLink-C2C", {346.0, 346.0 / 1.15}}};
        const HostLinkRate r = hostLinkRate(g.hostLink);
        QCOMPARE(r.peakHostToDevice, peaks.at(link).first);
        QCOMPARE(r.peakDeviceToHost, peaks.at(link).second);
        QCOMPARE(r.hostToDeviceGBps, r.peakHostToDevice * kHostLinkEfficiency);
        QCOMPARE(r.deviceToHostGBps, r.peakDeviceToHost * kHostLinkEfficiency);
    }

    void unknownHostLinksAreRefused()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, hostLinkRate("PCIe Gen6 x16"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, hostLinkRate(""));
        QCOMPARE(hostLinkRate(kAssumedHostLink).link, std::string("PCIe Gen4 x16"));
    }

    // The host link's measured rows against the rates the model uses. e = 0.44 is fitted on D6 and is C78's measured
    // loss; the one-direction peaks are the model's inputs, so those rows pin the table, not the fit.
    void calibrationHostLinkRows_data()
    {
        QTest::addColumn<double>("predicted");
        QTest::addColumn<double>("measured");
        QTest::addColumn<double>("tolerance");
        const HostLinkRate gen4 = hostLinkRate("PCIe Gen4 x16"), gen5 = hostLinkRate("PCIe Gen5 x16");
        // D6 (PR #8255): 8 × H200, 0.108 s for each GB sent to the host and back, fitted: ±2%.
        QTest::newRow("D6 H200 round trip, s/GB")
            << 1 / gen5.deviceToHostGBps + 1 / gen5.hostToDeviceGBps << 0.108 << 0.02;
        // C78: A100 H2D while D2H runs, ≈11 GB/s; the model's H2D on Gen4. ±5%: "≈11" is read off a title.
        QTest::newRow("C78 A100 H2D, both directions busy") << gen4.hostToDeviceGBps << 11.0 << 0.05;
        // C80: GH200's C2C one direction ≈340 GB/s (CE 346, SM 342); the model's peak. ±2%.
        QTest::newRow("C80 GH200 H2D peak") << hostLinkRate("NVLink-C2C").peakHostToDevice << 342.0 << 0.02;
        // C76: an A10's single-stream pinned copies 18.3–19.7 GB/s, C77's A100 25.13: Gen4's peak sits at the top
        // of what one GPU measured, within 30% of the lower A10.
        QTest::newRow("C76 A10 one stream") << gen4.peakHostToDevice << 19.7 << 0.3;
    }
    void calibrationHostLinkRows()
    {
        QFETCH(double, predicted);
        QFETCH(double, measured);
        QFETCH(double, tolerance);
        QVERIFY2(within(predicted, measured, tolerance), qPrintable(show(predicted) + " vs " + show(measured)));
    }

    // CPU Adam's rate from cores (StepTime.h): the rows it was fitted on and those it was checked against, each with
    // the model's time for the node's share of parameters, the measured time and the band it must keep.
    void calibrationCpuAdamRows_data()
    {
        QTest::addColumn<double>("cores");
        QTest::addColumn<double>("parameters");
        QTest::addColumn<double>("measured"); // seconds
        QTest::addColumn<double>("low");      // predicted ÷ measured, at least
        QTest::addColumn<double>("high");     // and at most
        // Fitted: ±3%.
        QTest::newRow("C65 10.3B on a 48-core DGX-2 host, 6.22–6.48 s") << 48.0 << 10.3e9 << 6.35 << 0.97 << 1.03;
        QTest::newRow("C70 one thread, 536.9M elements, 1.93 s") << 1.0 << 0.5369e9 << 1.93 << 0.97 << 1.03;
        // Checked: C66's host is not stated (48 cores assumed, the same team's DGX-2 era): −13%, band ±25%.
        QTest::newRow("C66 11.6B in 8.2 s, host not stated") << 48.0 << 11.6e9 << 8.2 << 0.75 << 1.25;
        // C70's two threads on one rank: the torch loop barely uses the second (1.93 → 1.81 s); the model, −38%,
        // expects what a vectorised kernel gets from it. Below the measurement, above half of it.
        QTest::newRow("C70 one rank, two threads, 1.81 s") << 2.0 << 0.5369e9 << 1.81 << 0.5 << 1.0;
        // C70's eight ranks time-sliced on 2 CPUs: −48%, the cost of time-slicing the model leaves out.
        QTest::newRow("C70 eight ranks on 2 CPUs, 17.2 s") << 2.0 << 8 * 0.5369e9 << 17.2 << 0.4 << 1.0;
        // D7: Llama-2-7B on one node of 4 A100, "the CPU optimizer path > 4 s"; 4.15 s at the default 48 cores.
        QTest::newRow("D7 6.74B, CPU path over 4 s") << 48.0 << 6.74e9 << 4.0 << 1.0 << 1.25;
    }
    void calibrationCpuAdamRows()
    {
        QFETCH(double, cores);
        QFETCH(double, parameters);
        QFETCH(double, measured);
        QFETCH(double, low);
        QFETCH(double, high);
        const double ratio = parameters / cpuAdamRate(cores) / measured;
        QVERIFY2(ratio >= low && ratio <= high, qPrintable(show(ratio)));
    }

    // The rate grows with cores but saturates at the node's memory-bandwidth ceiling, never beyond it.
    void cpuAdamSaturatesWithCores()
    {
        double previous = 0;
        for (double cores = 1; cores <= 1024; cores *= 2) {
            const double rate = cpuAdamRate(cores);
            QVERIFY(rate > previous && rate < kCpuAdamNodeParamsPerSecond);
            QVERIFY(rate <= cores * kCpuAdamParamsPerCoreSecond);
            if (previous > 0)
                QVERIFY(rate < 2 * previous); // doubling the cores less than doubles the rate
            previous = rate;
        }
        QVERIFY(cpuAdamRate(1024) > 0.99 * kCpuAdamNodeParamsPerSecond);
        // The assumed host: 90% of the ceiling; 128 cores, 96%.
        QVERIFY(within(cpuAdamRate(kAssumedCpuCoresPerNode) / kCpuAdamNodeParamsPerSecond, 0.90, 0.01));
        QVERIFY(within(cpuAdamRate(128) / kCpuAdamNodeParamsPerSecond, 0.96, 0.01));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, cpuAdamRate(0));
    }

    // The answers reach the step model: the GPU's host link and the node's cores.
    void hostLinkAndCoresReachTheStepModel()
    {
        const InputSpec* cores = InputRegistry::instance().find("hardware.cpu_cores_per_node");
        QVERIFY(cores);
        QCOMPARE(cores->defaultValue.get<int>(), kAssumedCpuCoresPerNode);
        QCOMPARE(cores->min, 1.0);
        QCOMPARE(cores->max, 1024.0);
        Answers a;
        a.set("hardware.gpu", "GH200");
        StepJob job = stepJobFrom(a);
        QCOMPARE(job.time.hostLink, std::string("NVLink-C2C"));
        QCOMPARE(job.time.hostToDeviceGBps, hostLinkRate("NVLink-C2C").hostToDeviceGBps);
        QCOMPARE(job.time.cpuAdamParamsPerSecond, cpuAdamRate(kAssumedCpuCoresPerNode));
        a.set("hardware.cpu_cores_per_node", 10);
        a.set("hardware.gpu", "no-such-gpu");
        job = stepJobFrom(a);
        QCOMPARE(job.time.cpuAdamParamsPerSecond, cpuAdamRate(10));
        QCOMPARE(job.time.cpuCoresPerNode, 10.0);
        QCOMPARE(job.time.hostLink, std::string(kAssumedHostLink)); // a GPU the catalog does not know
        a.set("hardware.gpu", "A10G");                              // no peer figure: peers through the host link
        QCOMPARE(stepJobFrom(a).time.intraNodeGBps, hostLinkRate("PCIe Gen4 x16").deviceToHostGBps);
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
        zero1.recomputedShare = 1;
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
    // offload (14×), "the CPU optimizer path > 4 s vs backward ≈ 2 s". The wizard adds its offload component to the
    // measured 0.5 s.
    void calibrationZeroOffloadPenaltyD7()
    {
        StepTimeInputs in = onA100(6.74e9, 32, 4096, 32, 2, 4, 1);
        in.placement.offloadOptimizer = "cpu";
        const StepTime t = estimateStepTime(in);
        // The CPU path: 4.15 s at the default 48 cores (StepTime.h); [4, 6]: D7's "> 4 s", and its host's cores are
        // not stated (10 cores would give 5.8 s).
        QVERIFY2(t.cpuAdamSeconds >= 4 && t.cpuAdamSeconds <= 6, qPrintable(show(t.cpuAdamSeconds)));
        QVERIFY(t.cpuAdamSeconds > t.hostLinkSeconds); // D7: the CPU path dominates
        // The step: (0.5 + 5.1) / 0.5 = 11×, below D7's "over 14×" because D7's backward grows from ≈0.5 to ≈2 s
        // with offload, which the model does not charge. [10, 28] = 14 × [0.7, 2].
        const double predicted = (0.5 + t.offload) / 0.5;
        QVERIFY2(predicted >= 10 && predicted <= 28, qPrintable(show(predicted)));
    }

    // D6 (PR #8255): 0.108 s per GB sent to the host and back, 8 × H200 (PCIe Gen5). kHostLinkEfficiency is fitted on
    // this row, so this pins the derivation (catalog link → measured peaks → rate), ±5%.
    void calibrationHostCopyCostD6()
    {
        const HostLinkRate h200 = hostLinkRate(gpu("H200").hostLink);
        const double secondsPerGbRoundTrip = 1 / h200.deviceToHostGBps + 1 / h200.hostToDeviceGBps;
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
        d4.recomputedShare = 1;
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

    // LoRA's frozen base (issue 24): forward and the input-gradient half of backward, 4Ψ_f FLOPs per token against a
    // trained parameter's 6Ψ; no gradient to reduce below stage 3; ZeRO-3 still gathers it every micro-step; QLoRA's
    // dequantization slows its GEMMs by the measured ratio (raschka-qlora-time).
    void frozenBaseCostsForwardAndInputGradient()
    {
        StepTimeInputs full = sevenB(2);
        full.gradientAccumulation = 4;
        StepTimeInputs lora = full;
        lora.parameters = 4e6;
        lora.frozenParameters = 6.74e9;
        const StepTime f = estimateStepTime(full), l = estimateStepTime(lora);
        const double tokens = 1.0 * 4 * 2048; // micro-batch × accumulation × sequence, per replica
        QCOMPARE(f.flops - l.flops, (6 * 6.74e9 - (4 * 6.74e9 + 6 * 4e6)) * tokens);
        QVERIFY(l.communicationBytes < f.communicationBytes / 1000); // stage 2: adapters' gradients only
        StepTimeInputs full3 = full, lora3 = lora;
        full3.placement.stage = lora3.placement.stage = 3;
        const StepTime f3 = estimateStepTime(full3), l3 = estimateStepTime(lora3);
        // Two gathers of the base per micro-step (the backward share aside) remain; the reduce-scatter goes.
        QVERIFY(l3.communicationBytes > f3.communicationBytes * 0.6);
        QVERIFY(l3.communicationBytes < f3.communicationBytes * 0.7);
        StepTimeInputs qlora = lora;
        qlora.frozenGemmSlowdown = kQloraFrozenGemmSlowdown;
        qlora.frozenElementBytes = 0.5;
        QVERIFY(estimateStepTime(qlora).compute > l.compute * 1.3);
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
        ckpt.recomputedShare = 1;
        const double a = estimateStepTime(plain).compute, b = estimateStepTime(ckpt).compute;
        QVERIFY(b > a);
        QVERIFY(within(b / a, 8.0 / 6.0, 0.01)); // dense 8/6 and attention 4/3: the same ratio
        // A quarter of the layers checkpointed recomputes a quarter of the forward: 6.5Ψ (hf-gc-per-layer).
        StepTimeInputs quarter = plain;
        quarter.recomputedShare = 0.25;
        QVERIFY(within(estimateStepTime(quarter).compute / a, 6.5 / 6.0, 0.01));
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
        QVERIFY(c.hostLinkSeconds > 0 && c.cpuAdamSeconds > 0 && c.nvmeSeconds == 0);
        QVERIFY(n.nvmeSeconds > 0 && n.offload > c.offload);
        QVERIFY(b.nvmeBytes > n.nvmeBytes);
        // Accumulating offloaded gradients copies them through the GPU every micro-step.
        StepTimeInputs accumulating = cpu;
        accumulating.gradientAccumulation = 8;
        QVERIFY(estimateStepTime(accumulating).hostLinkBytes > c.hostLinkBytes);
        // Each direction at its own rate: the gradients go out (D2H), the parameters come back (H2D).
        StepTimeInputs slowUp = cpu;
        slowUp.hostToDeviceGBps /= 2;
        StepTimeInputs slowDown = cpu;
        slowDown.deviceToHostGBps /= 2;
        QVERIFY(estimateStepTime(slowUp).hostLinkSeconds > c.hostLinkSeconds);
        QVERIFY(estimateStepTime(slowDown).hostLinkSeconds > c.hostLinkSeconds);
        QVERIFY(within(estimateStepTime(slowUp).hostLinkSeconds + estimateStepTime(slowDown).hostLinkSeconds,
                       3 * c.hostLinkSeconds, 1e-12));
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
        QCOMPARE(j.at("step_seconds").size(), std::size_t(7));
        QCOMPARE(j.at("step_seconds").at("all_to_all").get<double>(), t.allToAll);
        QCOMPARE(j.at("step_seconds").at("sequence_all_to_all").get<double>(), t.sequenceAllToAll);
        QCOMPARE(j.at("tokens_per_second_per_gpu").get<double>(), t.tokensPerSecondPerGpu);
    }

    // A mixture of experts' all-to-all: dispatch and combine per MoE layer in forward and backward, tokens·k·h·2 B ×
    // (ep−1)/ep per GPU, on the node's link while ep fits in a node and on the GPU's share of the NICs beyond; none
    // without expert parallelism. Compute counts the active share of Ψ.
    void expertParallelismPaysAnAllToAll()
    {
        StepTimeInputs in = onA100(46.7e9, 32, 4096, 32, 2, 8, 2);
        in.microBatch = 1;
        in.gradientAccumulation = 4;
        in.moe = {12.9 / 46.7, 0.7, 45e9, 8, 2, 32, 1};
        const StepTime none = estimateStepTime(in);
        QCOMPARE(none.allToAll, 0.0);
        in.moe.expertParallel = 8;
        const StepTime inNode = estimateStepTime(in);
        const double bytes = 4.0 * 32 * (1 * 4 * 2048) * 2 * 4096 * 2 * 7 / 8;
        QVERIFY(within(inNode.allToAllBytes, bytes, 1e-9));
        QVERIFY(within(inNode.allToAll, bytes / (in.intraNodeGBps * 1e9 * kCollectiveEfficiency), 1e-9));
        in.moe.expertParallel = 16; // across the two nodes: each GPU's eighth of one 100 Gb/s NIC
        const StepTime across = estimateStepTime(in);
        QVERIFY(across.allToAll > 10 * inNode.allToAll);
        // Compute: a 46.7B model with 12.9B active computes like the active share, plus the experts' smaller GEMMs.
        StepTimeInputs dense = onA100(12.9e9, 32, 4096, 32, 2, 8, 2);
        dense.microBatch = 1;
        dense.gradientAccumulation = 4;
        QVERIFY(within(none.flops, estimateStepTime(dense).flops, 1e-9));
        QVERIFY(none.compute > estimateStepTime(dense).compute);
        in.moe.expertParallel = 3; // does not divide the 16 data-parallel ranks
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimateStepTime(in));
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
        QTest::newRow("host to device") << "hostToDeviceGBps";
        QTest::newRow("device to host") << "deviceToHostGBps";
        QTest::newRow("cpu adam") << "cpuAdamParamsPerSecond";
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
            {"host to device",
             [](StepTimeInputs& i) {
                 i.placement.offloadOptimizer = "cpu";
                 i.hostToDeviceGBps = 0;
             }},
            {"device to host",
             [](StepTimeInputs& i) {
                 i.placement.offloadOptimizer = "cpu";
                 i.deviceToHostGBps = std::nan("");
             }},
            {"cpu adam",
             [](StepTimeInputs& i) {
                 i.placement.offloadOptimizer = "cpu";
                 i.cpuAdamParamsPerSecond = 0;
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
