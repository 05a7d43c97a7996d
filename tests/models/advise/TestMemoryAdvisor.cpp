// The out-of-memory diagnosis (models/advise/MemoryAdvisor.h): cause, step order, savings and compatibility checks.
//
// Every saving below is computed by hand from the conventions in models/advise/MemoryPlan.h (those of the ZeRO workflow):
//   GPU model states, no offload: ZeRO paper, K = 12: stage 0 16Ψ, 1 4Ψ + 12Ψ/Nd, 2 2Ψ + 14Ψ/Nd, 3 16Ψ/Nd + 4·largest
//   with optimizer offload (DeepSpeed's estimators): stages 1–2 2Ψ; stage 3 4·largest + 2Ψ/T; + param offload 4·largest
//   activations (Korthikanti et al.): per layer 34·s·b·h + 5·a·s²·b, logits 4·s·b·v;
//               off: L·perLayer + logits; on: 2·s·b·h·L + perLayer + logits
//   host RAM: load Ψ·4·G·1.5 (zero.Init: largest·4·G·1.5, 16-bit: 2 bytes instead of 4); offload ZeRO-2 Ψ·max(4G,16)·1.5,
//             ZeRO-3 Ψ·16/N·1.5 (+ params Ψ·18/N·1.5), optimizer on NVMe with params on CPU Ψ·2/N·1.5,
//             everything on NVMe largest·4·G·1.5
// Models (s = 2048):
//   7B:   Ψ = 7e9, L 32, h 4096, a 32, v 32000, largest 32000·4096 = 131072000
//         activations b=4 off: sbh = 33554432, perLayer = 34·33554432 + 5·32·2048²·4 = 3825205248,
//               32·3825205248 + 4·2048·4·32000 = 122406567936 + 1048576000 = 123455143936
//         b=2 off: half of that = 61727571968;  b=2 on: 2·16777216·32 + 1912602624 + 524288000 = 3510632448
//         b=1 on: 2·8388608·32 + 956301312 + 262144000 = 1755316224
//   1.3B: Ψ = 1.3e9, L 24, h 2048, a 16, v 50257, largest 50257·2048 = 102926336
//         b=2 off: sbh = 8388608, perLayer = 285212672 + 671088640 = 956301312, 24·956301312 + 823410688 = 23774642176
//         b=1 off: 11887321088;  b=1 on: 2·4194304·24 + 478150656 + 411705344 = 1091182592
#include "TestAnswers.h"
#include "advise/MemoryAdvisor.h"
#include "advise/ZeroAdvisor.h"
#include "knowledge/SourceCatalog.h"
#include "project/Answers.h"
#include "project/InputRegistry.h"

#include <QFile>
#include <QTest>

#include <algorithm>

using namespace dsw;
using oj = nlohmann::ordered_json;

namespace {

constexpr qint64 kNull = -1;

std::string readSample(const QString& name)
{
    QFile f(QStringLiteral(DSW_TEST_DATA_DIR "/oom/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(f.fileName()));
    return f.readAll().toStdString();
}

// The test helper's answers, plus the pasted message (@name reads tests/data/oom/name).
Answers answersFrom(const QStringList& settings, const QString& message)
{
    Answers a = dsw::test::answersFrom(settings);
    if (!message.isEmpty())
        a.set("memory.oom_message", message.startsWith('@') ? readSample(message.mid(1)) : message.toStdString());
    return a;
}

// "stage,optimizer offload,param offload,checkpointing": the ZeRO workflow's recommendation, made by hand.
Advice zeroWith(const QString& setup)
{
    const QStringList f = setup.split(',');
    Advice z;
    z.workflow = "zero";
    z.details["recommended"] = oj{{"stage", f[0].toInt()},
                                  {"offload_optimizer", f[1].toStdString()},
                                  {"offload_param", f[2].toStdString()},
                                  {"activation_checkpointing", f[3] == "1"}};
    return z;
}

QStringList model7B()
{
    return {"model.params=7B",          "model.layers=32",        "model.hidden_size=4096",
            "model.attention_heads=32", "model.vocab_size=32000", "model.seq_len=2048"};
}
QStringList model1p3B()
{
    return {"model.params=1.3B",        "model.layers=24",        "model.hidden_size=2048",
            "model.attention_heads=16", "model.vocab_size=50257", "model.seq_len=2048"};
}
QStringList model70B()
{
    return {"model.params=70B",         "model.layers=80",        "model.hidden_size=8192",
            "model.attention_heads=64", "model.vocab_size=32000", "model.seq_len=2048"};
}
QStringList operator+(QStringList a, const char* b)
{
    a << QString::fromUtf8(b);
    return a;
}

bool hasCheck(const Advice& adv, const QString& levelAndCode)
{
    const QStringList p = levelAndCode.split(':');
    return std::any_of(adv.checks.begin(), adv.checks.end(), [&](const Check& c) {
        return toString(c.level) == p[0].toStdString() && c.code == p[1].toStdString();
    });
}

QString checkList(const Advice& adv)
{
    QStringList out;
    for (const auto& c : adv.checks)
        out << QString::fromStdString(toString(c.level) + ":" + c.code);
    return out.join(", ");
}

const char* kSingleAllocation =
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 30.29 GiB. GPU 0 has a total capacity of 10.74 GiB "
    "of "
    "which 3.69 GiB is free. Including non-PyTorch memory, this process has 6.68 GiB memory in use. Of the allocated "
    "memory 6.10 GiB is allocated by PyTorch, and 396.58 MiB is reserved by PyTorch but unallocated.";

} // namespace

class TestMemoryAdvisor : public QObject {
    Q_OBJECT

private slots:
    void needsMessage();
    void unrecognisedIsNotGuessed();
    void scenarios_data();
    void scenarios();
    void parsedDetailsAndMirrors();
    void withTheRealZeroAdvice();
    void sourcesAreKnown();
};

void TestMemoryAdvisor::needsMessage()
{
    const Advice adv = adviseMemory(answersFrom(model7B(), ""), zeroWith("2,none,none,0"));
    QCOMPARE(adv.workflow, std::string("memory"));
    QCOMPARE(QString::fromStdString(toString(adv.status)), QStringLiteral("needs_input"));
    QVERIFY(adv.missing == std::vector<std::string>{"memory.oom_message"});
}

void TestMemoryAdvisor::unrecognisedIsNotGuessed()
{
    const Advice adv = adviseMemory(answersFrom(model7B(), "@unrecognised_loss_scale.txt"), zeroWith("2,none,none,0"));
    QCOMPARE(QString::fromStdString(toString(adv.status)), QStringLiteral("needs_input"));
    QVERIFY2(hasCheck(adv, "warn:oom-message-unrecognised"), qPrintable(checkList(adv)));
    QVERIFY(adv.details["kind"] == "unrecognised");
    QVERIFY(!adv.details.contains("steps") && !adv.details.contains("cause"));
    for (const auto& [key, value] : adv.details["parsed"].items())
        QVERIFY2(value.is_null(), key.c_str());
}

void TestMemoryAdvisor::scenarios_data()
{
    QTest::addColumn<QStringList>("settings");
    QTest::addColumn<QString>("message"); // @file in tests/data/oom, or the text itself
    QTest::addColumn<QString>("setup");   // the ZeRO workflow's placement, see zeroWith()
    QTest::addColumn<QString>("cause");
    QTest::addColumn<QStringList>("steps");
    QTest::addColumn<QList<qint64>>("savings");
    QTest::addColumn<QStringList>("checks");

    const QStringList a100x8 = {"hardware.gpu=A100-80GB", "hardware.gpus_per_node=8", "hardware.nodes=1"};

    // Backward pass on 8 × A100 at ZeRO-1, micro-batch 4: activations first, then the model states.
    // 1.90 GiB unallocated < 2.00 GiB tried and < 20% of 79.15 GiB: no fragmentation step.
    //   micro 4 → 2: 123455143936 − 61727571968 = 61727571968
    //   checkpointing at b=2: 61727571968 − 3510632448 = 58216939520
    //   stage 1 → 2: (4Ψ + 12Ψ/8) − (2Ψ + 14Ψ/8) = 38.5e9 − 26.25e9 = 12250000000
    //   stage 2 → 3: 26.25e9 − (16Ψ/8 + 4·131072000 = 14524288000) = 11725712000
    //   optimizer → CPU (host Ψ·16·1.5 = 168e9 ≤ 1 TiB): 14524288000 − (524288000 + 2Ψ/8) = 12250000000
    //   parameters → CPU (host Ψ·18·1.5 = 189e9): 2274288000 − 524288000 = 1750000000
    QTest::newRow("backward: activations, then ZeRO and offload")
        << (model7B() + a100x8 + "training.micro_batch_size=4" + "memory.phase=backward")
        << "@new_format_a100_rank3_backward.txt"
        << "1,none,none,0"
        << "activations" << QStringList{"micro-batch",  "activation-checkpointing", "zero-stage-2",
                                        "zero-stage-3", "offload-optimizer",        "offload-param"}
        << QList<qint64>{61727571968, 58216939520, 12250000000, 11725712000, 12250000000, 1750000000}
        << QStringList{"warn:oom-other-processes"};

    // The CUDA runtime's error has no sizes: the phase and the estimates alone give the same plan as above.
    QTest::newRow("CUDA runtime error without sizes")
        << (model7B() + a100x8 + "training.micro_batch_size=4" + "memory.phase=backward")
        << "RuntimeError: CUDA error: out of memory"
        << "1,none,none,0"
        << "activations" << QStringList{"micro-batch",  "activation-checkpointing", "zero-stage-2",
                                        "zero-stage-3", "offload-optimizer",        "offload-param"}
        << QList<qint64>{61727571968, 58216939520, 12250000000, 11725712000, 12250000000, 1750000000} << QStringList{};

    // Old message, 1.3B on one V100, phase unknown: 14.80 − 14.56 GiB = 15891378995 − 15633680957 = 257698038 bytes
    // unallocated ≥ 20 MiB tried → fragmentation; activations (23774642176) ≥ states (16Ψ = 20.8e9) → activations next.
    // One GPU: stage raises save nothing and are skipped.
    //   micro 2 → 1: 23774642176 − 11887321088 = 11887321088;  checkpointing: 11887321088 − 1091182592 = 10796138496
    //   optimizer → CPU at stage 2 (host Ψ·max(4,16)·1.5 = 31.2e9 ≤ 64 GiB): 16Ψ − 2Ψ = 18200000000
    //   parameters → CPU at stage 3 (host Ψ·18·1.5 = 35.1e9): 2Ψ − 4·102926336 = 2600000000 − 411705344 = 2188294656
    QTest::newRow("old message: fragmentation, one GPU")
        << (model1p3B() + "hardware.gpu=V100-16GB" + "hardware.gpus_per_node=1" + "hardware.cpu_memory_gib=64"
            + "training.micro_batch_size=2")
        << "@old_format_v100_gpu1_runtimeerror.txt"
        << "0,none,none,0"
        << "fragmentation"
        << QStringList{"allocator-max-split", "micro-batch", "activation-checkpointing", "offload-optimizer",
                       "offload-param"}
        << QList<qint64>{257698038, 11887321088, 10796138496, 18200000000, 2188294656}
        << QStringList{"warn:oom-fragmentation"};

    // 9.35 GiB unallocated (10039486054) > 20% of 31.47 GiB (6758131040.2): fragmentation first. 7B on 4 × V100-32GB at
    // ZeRO-2 with micro-batch 1 and checkpointing: states 2Ψ + 14Ψ/4 = 38.5e9 > activations 1755316224.
    //   stage 2 → 3: 38.5e9 − (16Ψ/4 + 524288000 = 28524288000) = 9975712000
    //   optimizer: CPU would need Ψ·16·1.5 = 168e9 > 128 GiB (137438953472) → NVMe (host 131072000·4·4·1.5 = 3145728000):
    //              28524288000 − (524288000 + 2Ψ/4) = 24500000000
    //   parameters → CPU (host with the optimizer on NVMe: Ψ·2·1.5 = 21e9): 4024288000 − 524288000 = 3500000000
    QTest::newRow("fragmentation, then NVMe where host RAM is short")
        << (model7B() + "hardware.gpu=V100-32GB" + "hardware.gpus_per_node=4" + "hardware.cpu_memory_gib=128"
            + "hardware.nvme=nvme" + "hardware.nvme_path=/local_nvme" + "training.micro_batch_size=1")
        << "@new_format_fragmented_gpu1.txt"
        << "2,none,none,1"
        << "fragmentation"
        << QStringList{"allocator-expandable-segments", "zero-stage-3", "offload-optimizer", "offload-param"}
        << QList<qint64>{10039486054, 9975712000, 24500000000, 3500000000}
        << QStringList{"warn:oom-fragmentation", "warn:oom-activations-at-minimum"};

    // The same without NVMe: CPU offload is still listed (the GPU saving is the same) with a host-RAM warning.
    QTest::newRow("no NVMe: CPU offload with a host RAM warning")
        << (model7B() + "hardware.gpu=V100-32GB" + "hardware.gpus_per_node=4" + "hardware.cpu_memory_gib=128"
            + "training.micro_batch_size=1")
        << "@new_format_fragmented_gpu1.txt"
        << "2,none,none,1"
        << "fragmentation"
        << QStringList{"allocator-expandable-segments", "zero-stage-3", "offload-optimizer", "offload-param"}
        << QList<qint64>{10039486054, 9975712000, 24500000000, 3500000000}
        << QStringList{"warn:oom-fragmentation", "warn:oom-offload-exceeds-host-ram",
                       "warn:oom-activations-at-minimum"};

    // Pipeline of 2 stages on 8 GPUs: Ψ per stage 3.5e9, Nd = 4, ZeRO above 1 not allowed; optimizer step.
    //   stage 0 → 1: 16·3.5e9 − (4·3.5e9 + 12·3.5e9/4) = 56e9 − 24.5e9 = 31500000000
    //   optimizer → CPU at stage 1 (host 3.5e9·max(32,16)·1.5 = 168e9): 24.5e9 − 2·3.5e9 = 17500000000
    QTest::newRow("pipeline: ZeRO-1 only, no parameter offload")
        << (model7B() + a100x8 + "pipeline.stages=2" + "training.micro_batch_size=1" + "memory.phase=optimizer-step")
        << "@new_format_a100_rank3_backward.txt"
        << "0,none,none,1"
        << "optimizer-states" << QStringList{"zero-stage-1", "offload-optimizer"}
        << QList<qint64>{31500000000, 17500000000}
        << QStringList{"warn:oom-zero-limited-by-pipeline", "warn:oom-suggestion-needs-stage-3",
                       "warn:oom-activations-at-minimum", "warn:oom-other-processes"};

    // 1-bit Adam needs stage 0: only the activation steps, and a check that says why.
    QTest::newRow("1-bit Adam: no ZeRO suggestions")
        << (model7B() + a100x8 + "training.optimizer=onebit-adam" + "training.micro_batch_size=4"
            + "memory.phase=forward")
        << "@new_format_a100_rank3_backward.txt"
        << "0,none,none,0"
        << "activations" << QStringList{"micro-batch", "activation-checkpointing"}
        << QList<qint64>{61727571968, 58216939520}
        << QStringList{"warn:oom-zero-excluded-by-onebit", "warn:oom-other-processes"};

    // Saving at stage 3 gathers one module at a time on GPU 0: the largest, 2 bytes × 131072000 = 262144000.
    QTest::newRow("checkpoint save at stage 3")
        << (model7B() + a100x8 + "memory.phase=checkpoint-save") << "@new_format_a100_rank3_backward.txt"
        << "3,none,none,1"
        << "checkpoint-save-gather" << QStringList{"gather-off"} << QList<qint64>{262144000}
        << QStringList{"warn:oom-other-processes"};

    // Loading at ZeRO-2: zero.Init saves 2Ψ − 2Ψ/8 = 14e9 − 1.75e9 = 12250000000, then from stage 3 (14524288000):
    // optimizer → CPU 12250000000, parameters → CPU 1750000000 (as in the first row).
    QTest::newRow("model load on the GPU")
        << (model7B() + a100x8 + "memory.phase=model-load") << "@new_format_a100_rank3_backward.txt"
        << "2,none,none,0"
        << "model-load" << QStringList{"zero-init", "offload-optimizer", "offload-param"}
        << QList<qint64>{12250000000, 12250000000, 1750000000} << QStringList{"warn:oom-other-processes"};

    // 30.29 GiB asked of a 10.74 GiB GPU: only a smaller tensor helps, so only the activation steps; the answers'
    // 80 GiB A100 differs from the message's GPU.
    QTest::newRow("one allocation larger than the GPU")
        << (model7B() + a100x8 + "training.micro_batch_size=4") << QString::fromUtf8(kSingleAllocation)
        << "1,none,none,0"
        << "single-allocation" << QStringList{"micro-batch", "activation-checkpointing"}
        << QList<qint64>{61727571968, 58216939520}
        << QStringList{"fail:oom-single-allocation-exceeds-gpu", "warn:oom-gpu-memory-differs"};

    // Host kill at load, 70B on 8 GPUs (1 TiB RAM) at stage 3: Ψ·4·8·1.5 = 3.36e12 per node without zero.Init.
    //   zero.Init: 3.36e12 − 262144000·4·8·1.5 (12582912000) = 3347417088000
    //   16-bit: 12582912000 − 262144000·2·8·1.5 (6291456000) = 6291456000
    QTest::newRow("killed at load, stage 3")
        << (model70B() + a100x8 + "memory.phase=model-load") << "@host_killed_deepspeed_launcher.txt"
        << "3,none,none,1"
        << "host-ram-load" << QStringList{"zero-init", "load-16-bit"} << QList<qint64>{3347417088000, 6291456000}
        << QStringList{};

    // Answers where the largest layer (the 7B default 32000·4096 = 131072000) exceeds the 125M parameters: zero.Init would
    // "save" (125e6 − 131072000)·4·8·1.5 < 0 and is left out; 16-bit: 125e6·4·8·1.5 − 125e6·2·8·1.5 = 3000000000.
    QTest::newRow("no step with a negative saving")
        << (QStringList{"model.params=125M"} + a100x8 + "memory.phase=model-load") << "@host_killed_shell.txt"
        << "3,none,none,1"
        << "host-ram-load" << QStringList{"load-16-bit"} << QList<qint64>{3000000000} << QStringList{};

    // Killed, phase unknown, 7B at ZeRO-2 on 8 GPUs: 16-bit first (7e9·4·8·1.5 − 7e9·2·8·1.5 = 336e9 − 168e9),
    // then zero.Init at stage 3 (168e9 − 131072000·2·8·1.5 = 168e9 − 3145728000 = 164854272000).
    QTest::newRow("killed, stage 2: 16-bit first")
        << (model7B() + a100x8 + "hardware.cpu_memory_gib=128") << "@host_killed_shell.txt"
        << "2,none,none,0"
        << "host-ram-load" << QStringList{"load-16-bit", "zero-init"} << QList<qint64>{168000000000, 164854272000}
        << QStringList{};

    // With a pipeline zero.Init (stage 3) is not allowed: the 16-bit step only.
    QTest::newRow("killed, pipeline: no zero.Init")
        << (model7B() + a100x8 + "pipeline.stages=2") << "@host_killed_accelerate.txt"
        << "1,none,none,0"
        << "host-ram-load" << QStringList{"load-16-bit"} << QList<qint64>{84000000000}
        << QStringList{"warn:oom-suggestion-needs-stage-3"};

    // Killed in the optimizer step with everything offloaded to CPU (1 node): Ψ·18·1.5 = 189e9 of host RAM; with the
    // optimizer on NVMe and the parameters on CPU Ψ·2·1.5 = 21e9: 168000000000 saved.
    QTest::newRow("killed with offload: pinned memory, then NVMe")
        << (model7B() + a100x8 + "hardware.nvme=nvme" + "hardware.nvme_path=/local_nvme"
            + "memory.phase=optimizer-step")
        << "@host_killed_torchrun.txt"
        << "3,cpu,cpu,1"
        << "host-ram-offload" << QStringList{"pin-memory-off", "offload-optimizer-nvme"}
        << QList<qint64>{kNull, 168000000000} << QStringList{};

    QTest::newRow("killed with offload, no NVMe")
        << (model7B() + a100x8 + "memory.phase=backward") << "@host_killed_torchrun.txt"
        << "3,cpu,cpu,1"
        << "host-ram-offload" << QStringList{"pin-memory-off"} << QList<qint64>{kNull}
        << QStringList{"warn:oom-nvme-unavailable"};

    // Saving at stage 3 builds the whole 16-bit model on rank 0's host: 2Ψ = 14e9.
    QTest::newRow("killed while saving at stage 3")
        << (model7B() + a100x8 + "memory.phase=checkpoint-save") << "@host_killed_torchrun.txt"
        << "3,none,none,1"
        << "host-ram-save" << QStringList{"gather-off"} << QList<qint64>{14000000000} << QStringList{};

    QTest::newRow("killed in backward without offload: not explained")
        << (model7B() + a100x8 + "memory.phase=backward") << "@host_killed_shell.txt"
        << "2,none,none,0"
        << "host-ram-unexplained" << QStringList{} << QList<qint64>{} << QStringList{"warn:oom-host-kill-unexplained"};

    // 100 ≠ 3 × 4 × 8 = 96; 100 is not a multiple of 3 × 8, so no accumulation that keeps it.
    QTest::newRow("batch assertion") << (model7B() + a100x8) << "@batch_assertion.txt"
                                     << "2,none,none,0"
                                     << "batch-config" << QStringList{"batch-train-size", "batch-infer"}
                                     << QList<qint64>{kNull, kNull} << QStringList{"fail:oom-batch-identity"};

    // 8 ≠ 2 × 1 × 1 on a job the answers put on 8 GPUs; 8 = 2 × 1 × 4 keeps the batch with accumulation 4.
    QTest::newRow("batch assertion from another world size")
        << (model7B() + a100x8)
        << "AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * "
           "gradient_acc_step * world_size 8 != 2 * 1 * 1"
        << "2,none,none,0"
        << "batch-config" << QStringList{"batch-train-size", "batch-accumulation", "batch-infer"}
        << QList<qint64>{kNull, kNull, kNull}
        << QStringList{"fail:oom-batch-identity", "warn:oom-batch-world-size-differs"};
}

void TestMemoryAdvisor::scenarios()
{
    QFETCH(QStringList, settings);
    QFETCH(QString, message);
    QFETCH(QString, setup);
    QFETCH(QString, cause);
    QFETCH(QStringList, steps);
    QFETCH(QList<qint64>, savings);
    QFETCH(QStringList, checks);

    const Advice adv = adviseMemory(answersFrom(settings, message), zeroWith(setup));
    QCOMPARE(QString::fromStdString(toString(adv.status)), QStringLiteral("complete"));
    QCOMPARE(QString::fromStdString(adv.details["cause"]["id"].get<std::string>()), cause);
    QStringList ids;
    QList<qint64> saved;
    for (const auto& s : adv.details["steps"]) {
        ids << QString::fromStdString(s["id"].get<std::string>());
        saved << (s["saving_bytes"].is_null() ? kNull : s["saving_bytes"].get<qint64>());
    }
    QCOMPARE(ids, steps);
    QCOMPARE(saved, savings);
    for (const QString& c : checks)
        QVERIFY2(hasCheck(adv, c), qPrintable(c + " missing from: " + checkList(adv)));
    // A check that is not expected in the row must not fire: the compatibility checks are specific.
    for (const auto& c : adv.checks)
        if (c.level != CheckLevel::Pass)
            QVERIFY2(checks.contains(QString::fromStdString(toString(c.level) + ":" + c.code)), c.code.c_str());
}

void TestMemoryAdvisor::parsedDetailsAndMirrors()
{
    const Advice adv = adviseMemory(answersFrom(model7B() + "hardware.gpu=A100-80GB" + "memory.phase=backward",
                                                "@new_format_a100_rank3_backward.txt"),
                                    zeroWith("1,none,none,0"));
    // Bytes as in TestOomMessage; reserved = 81067507712 + 2040109466 (the new message prints no total).
    const oj parsed = {{"tried_to_allocate_bytes", 2147483648LL},
                       {"total_capacity_bytes", 84986665370LL},
                       {"free_bytes", 1095216660LL},
                       {"allocated_bytes", 81067507712LL},
                       {"reserved_bytes", 83107617178LL}};
    QVERIFY2(adv.details["parsed"] == parsed, adv.details["parsed"].dump().c_str());
    QVERIFY(adv.details["kind"] == "cuda-out-of-memory");
    QVERIFY(adv.details["message"]["gpu_index"] == 3);
    QVERIFY(adv.details["shortfall_bytes"] == 2147483648LL - 1095216660LL);
    const std::vector<std::string> keys = {
        "id", "change", "config", "env", "code", "saving_bytes", "tradeoff", "source", "estimated_gpu_bytes_after"};
    for (const auto& s : adv.details["steps"]) {
        std::vector<std::string> got;
        for (const auto& [k, v] : s.items())
            got.push_back(k);
        QCOMPARE(got, keys);
        QVERIFY(!s["source"].get<std::string>().empty());
    }
    QCOMPARE(adv.tradeoffs.size(), adv.details["steps"].size());
    // The last step leaves 4·131072000 of model states and 3510632448 of activations: 4034920448.
    QVERIFY(adv.details["steps"].back()["estimated_gpu_bytes_after"] == 4034920448LL);
    QVERIFY(adv.details["steps"][1]["code"].get<std::string>().find("gradient_checkpointing_enable")
            != std::string::npos);
    // The fragmentation step comes with its shell line.
    const Advice fragmented =
        adviseMemory(answersFrom(model7B() + "hardware.gpu=V100-32GB" + "hardware.gpus_per_node=4",
                                 "@new_format_fragmented_gpu1.txt"),
                     zeroWith("2,none,none,1"));
    QVERIFY(std::any_of(fragmented.snippets.begin(), fragmented.snippets.end(), [](const Snippet& s) {
        return s.language == "bash" && s.code == "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n";
    }));
    QVERIFY(fragmented.headline.find("fragmentation") != std::string::npos);
}

void TestMemoryAdvisor::withTheRealZeroAdvice()
{
    // The keys read from the ZeRO workflow's details exist: the plan starts from its recommendation.
    const Answers a =
        answersFrom(model7B() + "hardware.gpu=A100-80GB" + "training.micro_batch_size=8" + "memory.phase=forward",
                    "@new_format_a100_rank3_backward.txt");
    const Advice zero = adviseZero(a);
    const Advice adv = adviseMemory(a, zero);
    QCOMPARE(QString::fromStdString(toString(adv.status)), QStringLiteral("complete"));
    const auto& rec = zero.details["recommended"];
    QVERIFY(adv.details["assumed_setup"]["stage"] == rec["stage"]);
    QVERIFY(adv.details["assumed_setup"]["activation_checkpointing"] == rec["activation_checkpointing"]);
    QVERIFY(adv.details["assumed_setup"]["micro_batch"] == 8);
    QVERIFY(adv.details["cause"]["id"] == "activations");
    QVERIFY(adv.details["steps"].size() > 0);
    QVERIFY(adv.details["steps"][0]["id"] == "micro-batch");
    for (const auto& s : adv.details["steps"])
        QVERIFY2(s["saving_bytes"].get<qint64>() > 0, s.dump().c_str());
}

void TestMemoryAdvisor::sourcesAreKnown()
{
    // Every cited id is in resources/knowledge/sources.tsv.
    const QStringList messages = {"@new_format_a100_rank3_backward.txt",
                                  "@old_format_v100_gpu1_runtimeerror.txt",
                                  "@new_format_fragmented_gpu1.txt",
                                  "@host_killed_shell.txt",
                                  "@batch_assertion.txt",
                                  "@unrecognised_loss_scale.txt",
                                  QString::fromUtf8(kSingleAllocation)};
    const QStringList phases = {"unknown", "model-load", "forward", "optimizer-step", "checkpoint-save"};
    for (const QString& m : messages)
        for (const QString& phase : phases)
            for (const QString& setup : {QStringLiteral("3,cpu,cpu,1"), QStringLiteral("0,none,none,0")}) {
                const Advice adv =
                    adviseMemory(answersFrom(model7B() + "hardware.nvme=nvme" + "hardware.nvme_path=/nvme"
                                                 + qPrintable("memory.phase=" + phase),
                                             m),
                                 zeroWith(setup));
                std::vector<std::string> cited = adv.sources;
                for (const auto& c : adv.checks)
                    cited.push_back(c.source);
                for (const auto& t : adv.tradeoffs)
                    cited.push_back(t.source);
                for (const auto& id : cited)
                    QVERIFY2(id.empty() || SourceCatalog::instance().find(id), id.c_str());
            }
}

QTEST_APPLESS_MAIN(TestMemoryAdvisor)
#include "TestMemoryAdvisor.moc"
