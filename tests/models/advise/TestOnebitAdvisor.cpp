// 1-bit Adam / 0/1 Adam / 1-bit LAMB advice (models/advise/OnebitAdvisor.h) and the networks table.
//
// Every expected number is computed by hand from these conventions (never copied from the program):
//   bandwidth   B = Gbit/s × 1e9 / 8 bytes/s (networks.tsv: NDR 400, HDR 200, 100g 100, 25g 25, 10g 10, efa 400)
//   all-reduce  = 2 × Ψ × min(1, G/p) × b / B, b = 2 bytes (fp16/bf16) or 4 (fp32); 0 on one node or one replica
//   compute     = 6 × Ψ × tokens / p / (peak TFLOPS × 1e12 × 0.4), tokens = micro 4 × accumulation 1 × seq 2048 = 8192
//                 peaks from gpus.tsv: A100 312 (bf16 and fp16), V100 125 (fp16; no bf16), H100 989.5, A10G none
//   freeze_step = round(0.2 × total steps), at least 1; w = freeze_step / total steps
//   compressed  = all-reduce × (w + (1 − w) / (8·b))       (16 for 16-bit, 32 for fp32)
//   suitable    = all-reduce ≥ compute, more than one node and replica, and ZeRO-0 not known not to fit
//
// Worked numbers (Ψ·6·8192 / (312e12·0.4 = 1.248e14) for A100):
//   7B   A100: compute 3.44064e14 / 1.248e14 = 2.756923; p = 16: 0.172308
//   1.3B A100: compute 6.38976e13 / 1.248e14 = 0.512
//   70B  A100: compute 3.44064e15 / 1.248e14 = 27.569231
//   70B  H100: compute 3.44064e15 / (989.5e12·0.4 = 3.958e14) = 8.692875;  7B H100: 0.869288
//   13B  V100, p = 2: 6 × 13e9 × 8192 / 2 / (125e12·0.4 = 5e13) = 6.38976
//   7B over 25g: 2.8e10 / 3.125e9 = 8.96 (p = 16 on 8-GPU nodes: half of it, 4.48); over NDR/EFA: 2.8e10 / 5e10 = 0.56
//   70B over HDR: 2.8e11 / 2.5e10 = 11.2; over 25g: 2.8e11 / 3.125e9 = 89.6
//   13B over 10g: 5.2e10 / 1.25e9 = 41.6;  1.3B over 10g: 5.2e9 / 1.25e9 = 4.16 (fp32: 1.04e10 / 1.25e9 = 8.32)
//   7B over 3200 Gbit/s: 2.8e10 / 4e11 = 0.07
//   compressed at w = 0.2: × 0.25 (fp32: × 0.225); total 12348: freeze 2470 (2469.6), w = 0.2000324,
//   41.6 × (w + (1 − w)/16) = 10.401263
//   onebit-network-assumed compares the verdict at G = 8 times the bandwidth: all-reduce / 8 against compute.
#include "TestAnswers.h"
#include "advise/OnebitAdvisor.h"
#include "advise/ZeroAdvisor.h"
#include "knowledge/NetworkCatalog.h"
#include "knowledge/SourceCatalog.h"
#include "project/Answers.h"
#include "project/InputRegistry.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace dsw;
using namespace dsw::test;
using oj = nlohmann::ordered_json;

namespace {

// The parts of the ZeRO workflow's advice the 1-bit advisor reads. stage < 0: no recommendation;
// fits0 < 0: stage 0's fit unknown.
Advice zeroAdvice(int stage, int fits0)
{
    Advice zero;
    zero.workflow = "zero";
    if (stage >= 0)
        zero.details["recommended"] = oj{{"stage", stage}};
    if (fits0 >= 0)
        zero.details["stage_table"] =
            oj::array({oj{{"stage", 0}, {"fits", fits0 == 1}}, oj{{"stage", 1}, {"fits", true}}});
    return zero;
}

QStringList checkList(const Advice& adv)
{
    QStringList out;
    for (const auto& c : adv.checks)
        out << q(c.code + "=" + toString(c.level));
    out.sort();
    return out;
}

bool near(double actual, double expected)
{
    return std::fabs(actual - expected) <= 1e-6 * std::max(1.0, std::fabs(expected));
}

} // namespace

class TestOnebitAdvisor : public QObject {
    Q_OBJECT

private slots:
    void scenarios_data();
    void scenarios();
    void freezeStep_data();
    void freezeStep();
    void neverMaxGradNorm();
    void readsTheZeroAdvice_data();
    void readsTheZeroAdvice();
    void networksCoverTheRegistry();
    void sourcesAreKnown();
};

void TestOnebitAdvisor::scenarios_data()
{
    QTest::addColumn<QStringList>("settings");
    QTest::addColumn<int>("zeroStage");
    QTest::addColumn<int>("stage0Fits");
    QTest::addColumn<bool>("suitable");
    QTest::addColumn<QString>("verdict");
    QTest::addColumn<double>("allreduce");
    QTest::addColumn<double>("compute"); // < 0: unknown (null)
    QTest::addColumn<double>("compressed");
    QTest::addColumn<double>("gbps");
    QTest::addColumn<QString>("fragment"); // "" : none
    QTest::addColumn<QStringList>("checks");
    QTest::addColumn<QString>("headline"); // a phrase the headline must contain

    const QStringList base = {"hardware.gpus_per_node=8", "hardware.gpu=A100-80GB"};
    const QString adam20k =
        R"({"optimizer":{"type":"OneBitAdam","params":{"lr":0.0001,"freeze_step":20000,"cuda_aware":false,"comm_backend_name":"nccl"}}})";

    QTest::newRow("7B, 4 nodes, 25 GbE, fp16, 1-bit Adam: communication-bound")
        << (base
            + QStringList{"model.params=7B", "hardware.nodes=4", "hardware.inter_node_network=ethernet-25g",
                          "training.precision=fp16", "training.optimizer=onebit-adam"})
        << 0 << 1 << true << "communication-bound" << 8.96 << 2.756923077 << 2.24 << 25.0 << adam20k
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-nccl-torch=pass",
                       "onebit-network-assumed=warn", "onebit-requires-zero-0=pass"}
        << "1-bit Adam fits";

    QTest::newRow("7B, 4 nodes, NDR, fp16, 1-bit Adam: compute-bound, small gain")
        << (base
            + QStringList{"model.params=7B", "hardware.nodes=4", "hardware.inter_node_network=infiniband-ndr",
                          "training.precision=fp16", "training.optimizer=onebit-adam"})
        << 0 << 1 << false << "compute-bound" << 0.56 << 2.756923077 << 0.14 << 400.0 << adam20k
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-nccl-torch=pass",
                       "onebit-network-assumed=pass", "onebit-requires-zero-0=pass"}
        << "the gain is small";

    QTest::newRow("one node, precision auto on A100 (bf16), 0/1 Adam")
        << (base
            + QStringList{"model.params=7B", "hardware.nodes=1", "hardware.inter_node_network=infiniband-ndr",
                          "training.precision=auto", "training.optimizer=zero-one-adam"})
        << 0 << 1 << false << "single-node" << 0.0 << 2.756923077 << 0.0 << 400.0
        << R"({"optimizer":{"type":"ZeroOneAdam","params":{"lr":0.0001,"var_freeze_step":100000,"var_update_scaler":16,"local_step_scaler":32678,"local_step_clipper":16,"cuda_aware":false,"comm_backend_name":"nccl"}}})"
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=warn", "onebit-nccl-torch=pass",
                       "onebit-requires-zero-0=pass"}
        << "single node gains little";

    QTest::newRow("13B on V100 (auto → fp16), 10 GbE, 1-bit LAMB, MPI with 2 pipeline stages")
        << QStringList{"model.params=13B",
                       "hardware.gpus_per_node=8",
                       "hardware.nodes=8",
                       "hardware.gpu=V100-32GB",
                       "hardware.inter_node_network=ethernet-10g",
                       "training.precision=auto",
                       "training.optimizer=onebit-lamb",
                       "onebit.comm_backend=mpi",
                       "pipeline.stages=2",
                       "training.total_steps=12348"}
        << 0 << 1 << true << "communication-bound" << 41.6 << 6.38976 << 10.401263362 << 10.0
        << R"({"optimizer":{"type":"OneBitLamb","params":{"lr":0.0001,"freeze_step":2470,"cuda_aware":false,"comm_backend_name":"mpi"}}})"
        << QStringList{"onebit-comm-backend=pass",       "onebit-cuda-aware=pass",
                       "onebit-fp16-only-verified=pass", "onebit-lamb-dynamic-loss-scale=pass",
                       "onebit-mpi-no-pipeline=fail",    "onebit-network-assumed=warn",
                       "onebit-requires-zero-0=pass"}
        << "1-bit LAMB fits — communication-bound";

    QTest::newRow("70B on 128 H100, HDR, old PyTorch: NCCL checks")
        << QStringList{"model.params=70B",
                       "hardware.gpus_per_node=8",
                       "hardware.nodes=16",
                       "hardware.gpu=H100-80GB",
                       "hardware.inter_node_network=infiniband-hdr",
                       "training.precision=fp16",
                       "training.optimizer=onebit-adam",
                       "software.torch_version=1.7.1"}
        << 0 << 1 << true << "communication-bound" << 11.2 << 8.692875189 << 2.8 << 200.0 << adam20k
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-nccl-64-gpus=warn",
                       "onebit-nccl-torch=fail",   "onebit-network-assumed=warn",    "onebit-requires-zero-0=pass"}
        << "fix the failed checks first";

    QTest::newRow("AdamW, 70B over 25 GbE: communication-bound but ZeRO-0 does not fit")
        << (base
            + QStringList{"model.params=70B", "hardware.nodes=4", "hardware.inter_node_network=ethernet-25g",
                          "training.precision=bf16", "training.optimizer=adamw"})
        << 2 << 0 << false << "communication-bound" << 89.6 << 27.569230769 << 22.4 << 25.0 << ""
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=warn", "onebit-nccl-torch=pass",
                       "onebit-network-assumed=warn", "onebit-requires-zero-0=warn"}
        << "does not fit";

    QTest::newRow("AdamW, 1.3B over 10 GbE: switching pays off")
        << (base
            + QStringList{"model.params=1.3B", "hardware.nodes=2", "hardware.inter_node_network=ethernet-10g",
                          "training.precision=fp16", "training.optimizer=adamw"})
        << 0 << 1 << true << "communication-bound" << 4.16 << 0.512 << 1.04 << 10.0 << ""
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-nccl-torch=pass",
                       "onebit-network-assumed=pass", "onebit-requires-zero-0=pass"}
        << "Switching to 0/1 Adam would likely pay off";

    QTest::newRow("LAMB, 7B on H100 with 3200 Gbit/s given: no case")
        << QStringList{"model.params=7B",
                       "hardware.gpus_per_node=8",
                       "hardware.nodes=2",
                       "hardware.gpu=H100-80GB",
                       "hardware.inter_node_network=infiniband-ndr",
                       "hardware.inter_node_gbps=3200",
                       "training.precision=fp16",
                       "training.optimizer=lamb"}
        << 0 << 1 << false << "compute-bound" << 0.07 << 0.869287519 << 0.0175 << 3200.0 << ""
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass",
                       "onebit-lamb-dynamic-loss-scale=pass", "onebit-nccl-torch=pass", "onebit-requires-zero-0=pass"}
        << "No strong case";

    QTest::newRow("hccl backend on A100 over EFA")
        << (base
            + QStringList{"model.params=7B", "hardware.nodes=2", "hardware.inter_node_network=efa",
                          "training.precision=fp16", "training.optimizer=onebit-adam", "onebit.comm_backend=hccl"})
        << 0 << 1 << false << "compute-bound" << 0.56 << 2.756923077 << 0.14 << 400.0
        << R"({"optimizer":{"type":"OneBitAdam","params":{"lr":0.0001,"freeze_step":20000,"cuda_aware":false,"comm_backend_name":"hccl"}}})"
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-hccl-needs-torch-npu=warn",
                       "onebit-network-assumed=pass", "onebit-requires-zero-0=pass"}
        << "1-bit Adam — compute-bound";

    QTest::newRow("16 pipeline stages on 16 GPUs: one replica, nothing to compress")
        << (base
            + QStringList{"model.params=7B", "hardware.nodes=2", "hardware.inter_node_network=infiniband-ndr",
                          "training.precision=fp16", "training.optimizer=onebit-adam", "onebit.comm_backend=compressed",
                          "pipeline.stages=16"})
        << 0 << 1 << false << "no-data-parallelism" << 0.0 << 0.172307692 << 0.0 << 400.0
        << R"({"optimizer":{"type":"OneBitAdam","params":{"lr":0.0001,"freeze_step":20000,"cuda_aware":false,"comm_backend_name":"compressed"}}})"
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-mpi-no-pipeline=pass",
                       "onebit-requires-zero-0=pass"}
        << "no data parallelism";

    QTest::newRow("16 pipeline stages over 4 nodes: half the model leaves each node")
        << (base
            + QStringList{"model.params=7B", "hardware.nodes=4", "hardware.inter_node_network=ethernet-25g",
                          "training.precision=fp16", "training.optimizer=onebit-adam", "pipeline.stages=16"})
        << 0 << 1 << true << "communication-bound" << 4.48 << 0.172307692 << 1.12 << 25.0 << adam20k
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-mpi-no-pipeline=pass",
                       "onebit-nccl-torch=pass",   "onebit-network-assumed=pass",    "onebit-requires-zero-0=pass"}
        << "1-bit Adam fits";

    QTest::newRow("A10G has no TFLOPS figure; ZeRO has no advice yet")
        << QStringList{"model.params=7B",
                       "hardware.gpus_per_node=8",
                       "hardware.nodes=2",
                       "hardware.gpu=A10G",
                       "hardware.inter_node_network=ethernet-25g",
                       "training.precision=fp16",
                       "training.optimizer=onebit-adam"}
        << -1 << -1 << false << "compute-unknown" << 8.96 << -1.0 << 2.24 << 25.0 << adam20k
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-nccl-torch=pass",
                       "onebit-requires-zero-0=warn"}
        << "compute time unknown";

    QTest::newRow("1-bit Adam while ZeRO recommends stage 1")
        << (base
            + QStringList{"model.params=7B", "hardware.nodes=4", "hardware.inter_node_network=infiniband-ndr",
                          "training.precision=fp16", "training.optimizer=onebit-adam"})
        << 1 << -1 << false << "compute-bound" << 0.56 << 2.756923077 << 0.14 << 400.0 << adam20k
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-nccl-torch=pass",
                       "onebit-network-assumed=pass", "onebit-requires-zero-0=fail"}
        << "1-bit Adam — compute-bound";

    QTest::newRow("fp32: 4-byte gradients, 32x compression")
        << (base
            + QStringList{"model.params=1.3B", "hardware.nodes=2", "hardware.inter_node_network=ethernet-10g",
                          "training.precision=fp32", "training.optimizer=onebit-adam"})
        << 0 << 1 << true << "communication-bound" << 8.32 << 0.512 << 1.872 << 10.0 << adam20k
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=warn", "onebit-nccl-torch=pass",
                       "onebit-network-assumed=pass", "onebit-requires-zero-0=pass"}
        << "1-bit Adam fits";
}

void TestOnebitAdvisor::scenarios()
{
    QFETCH(QStringList, settings);
    QFETCH(int, zeroStage);
    QFETCH(int, stage0Fits);
    QFETCH(bool, suitable);
    QFETCH(QString, verdict);
    QFETCH(double, allreduce);
    QFETCH(double, compute);
    QFETCH(double, compressed);
    QFETCH(double, gbps);
    QFETCH(QString, fragment);
    QFETCH(QStringList, checks);
    QFETCH(QString, headline);

    const Advice adv = adviseOnebit(answersFrom(settings), zeroAdvice(zeroStage, stage0Fits));
    QCOMPARE(q(adv.workflow), QString("onebit"));
    QVERIFY(adv.status == AdviceStatus::Complete);
    const auto& d = adv.details;
    QCOMPARE(d.at("suitable").get<bool>(), suitable);
    QCOMPARE(q(d.at("verdict").get<std::string>()), verdict);
    QVERIFY2(near(d.at("allreduce_seconds").get<double>(), allreduce), qPrintable(q(d.dump())));
    if (compute < 0)
        QVERIFY(d.at("compute_seconds").is_null());
    else
        QVERIFY2(near(d.at("compute_seconds").get<double>(), compute), qPrintable(q(d.dump())));
    QVERIFY2(near(d.at("compressed_allreduce_seconds").get<double>(), compressed), qPrintable(q(d.dump())));
    QVERIFY(near(d.at("network_gbps").get<double>(), gbps));

    if (fragment.isEmpty()) {
        QVERIFY(adv.fragment.empty());
        QVERIFY(d.at("optimizer_type").is_null());
    } else {
        const oj expected = oj::parse(fragment.toStdString());
        QVERIFY2(adv.fragment == expected, qPrintable(q(adv.fragment.dump() + " != " + expected.dump())));
        QVERIFY(d.at("optimizer_type") == expected["optimizer"]["type"]);
    }
    QCOMPARE(checkList(adv), [&] {
        auto c = checks;
        c.sort();
        return c;
    }());
    QVERIFY2(q(adv.headline).contains(headline), qPrintable(q(adv.headline)));
    QCOMPARE(q(adv.headline).contains("fix the failed checks first"), !fragment.isEmpty() && adv.hasFailedCheck());
    for (const auto& c : adv.checks)
        QVERIFY2(!c.message.empty() && !c.source.empty(), c.code.c_str());
}

void TestOnebitAdvisor::freezeStep_data()
{
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<int>("totalSteps");
    QTest::addColumn<int>("freezeStep");
    // round(0.2 × total), at least one warm-up step
    QTest::newRow("1-bit Adam, 100000 → 20000") << "onebit-adam" << 100000 << 20000;
    QTest::newRow("1-bit Adam, 12347 → 2469 (2469.4)") << "onebit-adam" << 12347 << 2469;
    QTest::newRow("1-bit Adam, 12348 → 2470 (2469.6)") << "onebit-adam" << 12348 << 2470;
    QTest::newRow("1-bit LAMB, 3 → 1 (0.6)") << "onebit-lamb" << 3 << 1;
    QTest::newRow("1-bit LAMB, 1 → 1 (0.2, kept at one step)") << "onebit-lamb" << 1 << 1;
}

void TestOnebitAdvisor::freezeStep()
{
    QFETCH(QString, optimizer);
    QFETCH(int, totalSteps);
    QFETCH(int, freezeStep);
    const Advice adv = adviseOnebit(
        answersFrom({"training.optimizer=" + optimizer, "training.total_steps=" + QString::number(totalSteps)}),
        zeroAdvice(0, 1));
    QCOMPARE(adv.fragment["optimizer"]["params"]["freeze_step"].get<int>(), freezeStep);
    QCOMPARE(adv.details["freeze_step"].get<int>(), freezeStep);
}

void TestOnebitAdvisor::neverMaxGradNorm()
{
    // DeepSpeed raises ValueError for optimizer.params.max_grad_norm (deepspeed-facts §2.2).
    for (const char* optimizer : {"onebit-adam", "zero-one-adam", "onebit-lamb"}) {
        const Advice adv = adviseOnebit(answersFrom({QString("training.optimizer=") + optimizer}), zeroAdvice(0, 1));
        const auto& params = adv.fragment.at("optimizer").at("params");
        QVERIFY(!params.contains("max_grad_norm"));
        QVERIFY(params.contains("lr") && params.contains("comm_backend_name") && params.contains("cuda_aware"));
        QCOMPARE(params.contains("freeze_step"), std::string(optimizer) != "zero-one-adam");
    }
}

void TestOnebitAdvisor::readsTheZeroAdvice_data()
{
    QTest::addColumn<QStringList>("settings");
    QTest::addColumn<bool>("stage0Fits");
    QTest::addColumn<QString>("zeroCheck");
    const QStringList small = {"model.params=125M",        "model.layers=12",        "model.hidden_size=768",
                               "model.attention_heads=12", "model.vocab_size=50257", "hardware.nodes=2"};
    const QStringList large = {"model.params=70B", "model.layers=80", "model.hidden_size=8192",
                               "model.attention_heads=64", "hardware.nodes=2"};
    // 125M: ZeRO-0 needs 16 × 125e6 = 2 GB of model states on an 80 GB GPU, so stage 0 fits; with AdamW the
    // ZeRO step picks a faster stage (ZeRO-2 overlaps its reductions with the backward), so switching to 1-bit
    // Adam means going back to stage 0: a warning, not a failure.
    QTest::newRow("125M, AdamW: stage 0") << (small + QStringList{"training.optimizer=adamw"}) << true << "warn";
    QTest::newRow("125M, 1-bit Adam: stage 0")
        << (small + QStringList{"training.optimizer=onebit-adam"}) << true << "pass";
    // 70B: ZeRO-0 needs 16 × 70e9 = 1.12 TB per GPU: it cannot fit. AdamW gets a higher stage (a warning about
    // switching); 1-bit Adam keeps ZeRO limited to stage 0, which does not fit (a failure).
    QTest::newRow("70B, AdamW: stage > 0") << (large + QStringList{"training.optimizer=adamw"}) << false << "warn";
    QTest::newRow("70B, 1-bit Adam: stage 0 does not fit")
        << (large + QStringList{"training.optimizer=onebit-adam"}) << false << "fail";
}

void TestOnebitAdvisor::readsTheZeroAdvice()
{
    QFETCH(QStringList, settings);
    QFETCH(bool, stage0Fits);
    QFETCH(QString, zeroCheck);
    const Answers a = answersFrom(settings);
    const Advice adv = adviseOnebit(a, adviseZero(a));
    QVERIFY(adv.details.at("zero_stage0_fits") == stage0Fits);
    const auto it = std::find_if(adv.checks.begin(), adv.checks.end(),
                                 [](const Check& c) { return c.code == "onebit-requires-zero-0"; });
    QVERIFY(it != adv.checks.end());
    QCOMPARE(q(toString(it->level)), zeroCheck);
    if (!stage0Fits)
        QVERIFY(!adv.details.at("suitable").get<bool>());
}

void TestOnebitAdvisor::networksCoverTheRegistry()
{
    const InputSpec* spec = InputRegistry::instance().find("hardware.inter_node_network");
    QVERIFY(spec);
    for (const auto& id : spec->values) {
        const NetworkSpec* n = NetworkCatalog::instance().find(id);
        QVERIFY2(n, id.c_str());
        QVERIFY2(n->gbps > 0 && !n->source.empty() && !n->note.empty(), id.c_str());
    }
    QCOMPARE(NetworkCatalog::instance().all().size(), spec->values.size());
    // The figures literature.md §j gives: NDR 400, HDR 200, 200 GbE, 100 GbE, 25 GbE, 10 GbE line rates; EFA p4d 400.
    QCOMPARE(NetworkCatalog::instance().find("infiniband-ndr")->gbps, 400.0);
    QCOMPARE(NetworkCatalog::instance().find("infiniband-hdr")->gbps, 200.0);
    QCOMPARE(NetworkCatalog::instance().find("ethernet-10g")->gbps, 10.0);
}

void TestOnebitAdvisor::sourcesAreKnown()
{
    // Every source the advice cites, in every branch exercised here, is a row of sources.tsv.
    const QList<QStringList> cases = {
        {"training.optimizer=onebit-adam", "hardware.nodes=4", "hardware.inter_node_network=ethernet-25g"},
        {"training.optimizer=zero-one-adam", "onebit.comm_backend=hccl", "hardware.nodes=2"},
        {"training.optimizer=onebit-lamb", "onebit.comm_backend=mpi", "pipeline.stages=2", "hardware.nodes=2"},
        {"training.optimizer=adamw", "hardware.nodes=16", "hardware.inter_node_network=efa"},
    };
    for (const auto& settings : cases) {
        const Advice adv = adviseOnebit(answersFrom(settings), zeroAdvice(0, 1));
        std::vector<std::string> ids = adv.sources;
        for (const auto& c : adv.checks)
            ids.push_back(c.source);
        for (const auto& e : adv.estimates)
            ids.push_back(e.source);
        for (const auto& t : adv.tradeoffs)
            ids.push_back(t.source);
        for (const auto& id : ids)
            if (!id.empty())
                QVERIFY2(SourceCatalog::instance().find(id), id.c_str());
    }
    for (const auto& n : NetworkCatalog::instance().all())
        QVERIFY2(SourceCatalog::instance().find(n.source), n.source.c_str());
}

QTEST_APPLESS_MAIN(TestOnebitAdvisor)
#include "TestOnebitAdvisor.moc"
