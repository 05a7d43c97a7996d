// 1-bit Adam / 0/1 Adam / 1-bit LAMB advice (models/advise/OnebitAdvisor.h) and the networks table.
//
// The page's times are ds-wizard's step-time model's (estimate/StepModel.h) for the ZeRO page's chosen plan, at
// ZeRO stage 0 (the only stage the 1-bit optimizers run at); 1-bit compression (estimate/OnebitCost.h) applies to
// the step model's gradient reduction only. The tests compare the page with the step model and with itself under
// changed answers; no expected time is computed by hand.
#include "Plan.h"
#include "PlanFor.h"
#include "TestAnswers.h"
#include "advise/OnebitAdvisor.h"
#include "estimate/OnebitCost.h"
#include "estimate/StepModel.h"
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

// The parts of the ZeRO page's decision the checks read. stage < 0: no decision; fits0 < 0: stage 0's fit unknown
// (no stage-0 row in the stage table).
struct ZeroPlan {
    int stage = -1;
    int fits0 = -1;
};
ZeroPlan zeroAdvice(int stage, int fits0) { return {stage, fits0}; }

// The 1-bit page at that ZeRO plan (the answers' batch, no offload), for the job the answers describe.
Advice adviseOnebit(const Answers& a, const ZeroPlan& z)
{
    const Job job = resolveJob(a);
    if (z.stage < 0 || !job.sized())
        return dsw::adviseOnebit(job, nullptr, a);
    const auto micro = std::max<std::int64_t>(1, job.batch.microBatch);
    const auto accumulation = std::max<std::int64_t>(1, job.batch.gradientAccumulation);
    ZeroDecision d = decisionWith(job, {{z.stage, "none", "none"}, false, micro, accumulation});
    d.stageTable.clear();
    if (z.fits0 >= 0) { // a stage-0 row that fits or not, as the stage table would show it
        StepPrediction row = decisionWith(job, {{0, "none", "none"}, false, micro, accumulation}).plan();
        row.fitsGpu = z.fits0 == 1;
        d.candidates.push_back(row);
        d.stageTable.push_back(1);
    }
    d.stageTable.push_back(0);
    return dsw::adviseOnebit(job, &d, a);
}

QStringList checkList(const Advice& adv)
{
    QStringList out;
    for (const auto& c : adv.checks)
        out << q(c.code + "=" + toString(c.level));
    out.sort();
    return out;
}

const Check* findCheck(const Advice& adv, const std::string& code)
{
    const auto it = std::find_if(adv.checks.begin(), adv.checks.end(), [&](const Check& c) { return c.code == code; });
    return it == adv.checks.end() ? nullptr : &*it;
}

const Estimate* findEstimate(const Advice& adv, const std::string& name)
{
    const auto it =
        std::find_if(adv.estimates.begin(), adv.estimates.end(), [&](const Estimate& e) { return e.name == name; });
    return it == adv.estimates.end() ? nullptr : &*it;
}

bool near(double actual, double expected)
{
    return std::fabs(actual - expected) <= 1e-9 * std::max(1.0, std::fabs(expected));
}

// Both pages as the plan builds them (models/Plan.cpp): the ZeRO page's details and the 1-bit page's advice.
struct Pages {
    Answers answers;
    oj zero;
    Advice onebit;
    const oj& chosen() const { return zero.at("candidates").at(zero.at("chosen").get<std::size_t>()); }
};

Pages pagesFor(const QStringList& settings)
{
    Pages p;
    p.answers = answersFrom(settings);
    const Plan plan = makePlan(p.answers);
    p.zero = toJson(plan).at("workflows").at("zero"); // its details, with the candidates `recommend` prints
    p.onebit = *plan.find("onebit");
    return p;
}

StepCandidate candidateOf(const oj& c)
{
    return {{c.at("stage").get<int>(), c.at("offload_optimizer").get<std::string>(),
             c.at("offload_param").get<std::string>()},
            c.at("activation_checkpointing").get<bool>(),
            c.at("micro_batch_size").get<std::int64_t>(),
            c.at("gradient_accumulation_steps").get<std::int64_t>(),
            c.at("checkpoint_layers").get<std::int64_t>(),
            // These jobs keep the default (standard) loss: a candidate that runs it is the job's, unchanged.
            c.at("loss_impl") == "standard" ? std::nullopt : lossImplFrom(c.at("loss_impl").get<std::string>())};
}

double seconds(const Advice& adv, const char* key) { return adv.details.at(key).get<double>(); }

// Llama-3.2-1B on 8 A100-80GB per node: ZeRO stage 0 fits, so every verdict is reachable.
const QStringList kSmall = {"model.preset=llama-3.2-1b", "hardware.gpu=A100-80GB", "hardware.gpus_per_node=8",
                            "training.precision=fp16"};

} // namespace

class TestOnebitAdvisor : public QObject {
    Q_OBJECT

private slots:
    void timesAreTheZeroPagesChosenPlan_data();
    void timesAreTheZeroPagesChosenPlan();
    void aPlanAboveStage0IsTimedAtStage0();
    void slowerNetworksRaiseTheCommunicationShare();
    void slowNetworkFlipsTheVerdictToCommunicationBound();
    void oneNodeIsSingleNode();
    void oneReplicaHasNothingToCompress();
    void compressionLeavesLessThanTheReduction();
    void mfuScalesTheComputeSeconds();
    void noTflopsNoTimes();
    void networkCheckSaysWhetherMoreNicsFlipTheVerdict();
    void textSaysWhoseNumbersTheyAre();
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

void TestOnebitAdvisor::timesAreTheZeroPagesChosenPlan_data()
{
    QTest::addColumn<QStringList>("settings");
    // The 1-bit optimizers limit the ZeRO search to stage 0, so the ZeRO page's plan is the one 1-bit runs.
    QTest::newRow("1-bit Adam, 2 nodes, 10 GbE") << (kSmall
                                                     + QStringList{"training.optimizer=onebit-adam", "hardware.nodes=2",
                                                                   "hardware.inter_node_network=ethernet-10g"});
    QTest::newRow("0/1 Adam, 4 nodes, NDR × 8 NICs")
        << (kSmall
            + QStringList{"training.optimizer=zero-one-adam", "hardware.nodes=4",
                          "hardware.inter_node_network=infiniband-ndr", "hardware.nics_per_node=8"});
    QTest::newRow("1-bit LAMB, 2 pipeline stages, 2 nodes, HDR")
        << (kSmall
            + QStringList{"training.optimizer=onebit-lamb", "hardware.nodes=2", "pipeline.stages=2",
                          "hardware.inter_node_network=infiniband-hdr"});
    QTest::newRow("1-bit Adam, fp32, global batch 256")
        << QStringList{"model.preset=llama-3.2-1b",       "hardware.gpu=H100-80GB",
                       "hardware.gpus_per_node=8",        "hardware.nodes=2",
                       "hardware.inter_node_network=efa", "training.precision=fp32",
                       "training.optimizer=onebit-adam",  "training.global_batch_size=256"};
}

void TestOnebitAdvisor::timesAreTheZeroPagesChosenPlan()
{
    QFETCH(QStringList, settings);
    const Pages p = pagesFor(settings);
    const oj& chosen = p.chosen();
    QCOMPARE(chosen.at("stage").get<int>(), 0);
    const oj& step = chosen.at("step_seconds");
    QVERIFY(step.at("total").get<double>() > 0);
    const Advice& adv = p.onebit;
    QVERIFY(adv.details.at("plan_is_zero_plan").get<bool>());
    JSON_COMPARE(adv.details.at("plan"), adv.details.at("zero_plan"));
    QCOMPARE(q(adv.details.at("plan").get<std::string>()), q(chosen.at("label").get<std::string>()));
    QCOMPARE(seconds(adv, "compute_seconds"), step.at("compute").get<double>());
    QCOMPARE(seconds(adv, "communication_seconds"), step.at("communication").get<double>());
    for (const char* part : {"total", "compute", "communication", "offload", "bubble"})
        QCOMPARE(adv.details.at("step_seconds").at(part).get<double>(), step.at(part).get<double>());
    QCOMPARE(seconds(adv, "zero_plan_step_seconds"), step.at("total").get<double>());
    // At stage 0 all communication is the gradient all-reduce, the part 1-bit compression replaces.
    QCOMPARE(seconds(adv, "gradient_reduction_seconds"), seconds(adv, "communication_seconds"));
    // The estimates the page shows are the same numbers.
    QCOMPARE(findEstimate(adv, "Compute per step")->value, step.at("compute").get<double>());
    QCOMPARE(findEstimate(adv, "Communication per step (gradient all-reduce)")->value,
             step.at("communication").get<double>());
    QCOMPARE(findEstimate(adv, "Step time")->value, step.at("total").get<double>());
}

void TestOnebitAdvisor::aPlanAboveStage0IsTimedAtStage0()
{
    // With AdamW the ZeRO page picks a higher stage (ZeRO-2 overlaps its reductions); switching to a 1-bit optimizer
    // means stage 0, so the page times the ZeRO page's batch and checkpointing at stage 0.
    const Pages p = pagesFor(kSmall + QStringList{"hardware.nodes=2", "hardware.inter_node_network=ethernet-10g"});
    const StepCandidate zeroPlan = candidateOf(p.chosen());
    QVERIFY2(zeroPlan.placement.stage > 0, qPrintable(q(planLabel(zeroPlan))));
    StepCandidate atStage0 = zeroPlan;
    atStage0.placement = Placement{0, "none", "none"};
    const StepTime expected = predictStep(stepJobFrom(p.answers), atStage0).time;
    const Advice& adv = p.onebit;
    QVERIFY(!adv.details.at("plan_is_zero_plan").get<bool>());
    QCOMPARE(q(adv.details.at("zero_plan").get<std::string>()), q(planLabel(zeroPlan)));
    QCOMPARE(q(adv.details.at("plan").get<std::string>()), q(planLabel(atStage0)));
    QCOMPARE(seconds(adv, "compute_seconds"), expected.compute);
    QCOMPARE(seconds(adv, "communication_seconds"), expected.communication);
    QCOMPARE(seconds(adv, "gradient_reduction_seconds"), expected.gradientReduction);
    QCOMPARE(seconds(adv, "zero_plan_step_seconds"), p.chosen().at("step_seconds").at("total").get<double>());
    // Compute does not depend on the placement: it is the ZeRO page's.
    QCOMPARE(seconds(adv, "compute_seconds"), p.chosen().at("step_seconds").at("compute").get<double>());
    const auto said = std::find_if(adv.tradeoffs.begin(), adv.tradeoffs.end(),
                                   [](const Tradeoff& t) { return t.title == "The step timed here"; });
    QVERIFY(said != adv.tradeoffs.end());
    QVERIFY(q(said->text).contains(q(planLabel(zeroPlan))) && q(said->text).contains(q(planLabel(atStage0))));
}

void TestOnebitAdvisor::slowerNetworksRaiseTheCommunicationShare()
{
    // Every network of the registry, slowest first, one NIC each: the gradient all-reduce's share of the step never
    // falls.
    std::vector<const NetworkSpec*> networks;
    for (const NetworkSpec& n : NetworkCatalog::instance().all())
        networks.push_back(&n);
    std::stable_sort(networks.begin(), networks.end(),
                     [](const NetworkSpec* x, const NetworkSpec* y) { return x->gbps < y->gbps; });
    double previous = 2;
    for (const NetworkSpec* n : networks) {
        const Pages p = pagesFor(kSmall
                                 + QStringList{"training.optimizer=onebit-adam", "hardware.nodes=4",
                                               "hardware.nics_per_node=1", q("hardware.inter_node_network=" + n->id)});
        const oj& step = p.onebit.details.at("step_seconds");
        const double share = seconds(p.onebit, "gradient_reduction_seconds") / step.at("total").get<double>();
        QVERIFY2(share > 0 && share <= previous, n->id.c_str());
        previous = share;
    }
}

void TestOnebitAdvisor::slowNetworkFlipsTheVerdictToCommunicationBound()
{
    const QStringList base = kSmall + QStringList{"training.optimizer=onebit-adam", "hardware.nodes=4"};
    const Pages fast =
        pagesFor(base + QStringList{"hardware.inter_node_network=infiniband-ndr", "hardware.nics_per_node=8"});
    const Pages slow = pagesFor(base + QStringList{"hardware.inter_node_network=ethernet-10g"});
    QCOMPARE(q(fast.onebit.details.at("verdict").get<std::string>()), QString("compute-bound"));
    QCOMPARE(q(slow.onebit.details.at("verdict").get<std::string>()), QString("communication-bound"));
    // The same compute, more communication: the verdict follows the step model's components.
    QCOMPARE(seconds(slow.onebit, "compute_seconds"), seconds(fast.onebit, "compute_seconds"));
    QVERIFY(seconds(fast.onebit, "gradient_reduction_seconds") < seconds(fast.onebit, "compute_seconds"));
    QVERIFY(seconds(slow.onebit, "gradient_reduction_seconds") >= seconds(slow.onebit, "compute_seconds"));
    // Stage 0 fits, so the communication-bound cluster is the one where 1-bit Adam pays off.
    QVERIFY(slow.onebit.details.at("suitable").get<bool>());
    QVERIFY(!fast.onebit.details.at("suitable").get<bool>());
    QVERIFY2(q(slow.onebit.headline).contains("1-bit Adam fits"), qPrintable(q(slow.onebit.headline)));
    QVERIFY(seconds(slow.onebit, "step_time_saving_fraction") > seconds(fast.onebit, "step_time_saving_fraction"));
}

void TestOnebitAdvisor::oneNodeIsSingleNode()
{
    const QStringList base =
        kSmall + QStringList{"training.optimizer=onebit-adam", "hardware.inter_node_network=ethernet-10g"};
    const Pages one = pagesFor(base + QStringList{"hardware.nodes=1"});
    const Pages two = pagesFor(base + QStringList{"hardware.nodes=2"});
    QCOMPARE(q(one.onebit.details.at("verdict").get<std::string>()), QString("single-node"));
    QVERIFY(!one.onebit.details.at("suitable").get<bool>());
    QVERIFY2(q(one.onebit.headline).contains("single node gains little"), qPrintable(q(one.onebit.headline)));
    // Inside the node the ring runs over NVLink: a smaller all-reduce than over the 10 GbE of two nodes.
    QVERIFY(seconds(one.onebit, "gradient_reduction_seconds") < seconds(two.onebit, "gradient_reduction_seconds"));
    QVERIFY(q(two.onebit.details.at("verdict").get<std::string>()) != "single-node");
}

void TestOnebitAdvisor::oneReplicaHasNothingToCompress()
{
    const Pages p =
        pagesFor(kSmall + QStringList{"training.optimizer=onebit-adam", "hardware.nodes=2", "pipeline.stages=16"});
    QCOMPARE(q(p.onebit.details.at("verdict").get<std::string>()), QString("no-data-parallelism"));
    QCOMPARE(seconds(p.onebit, "gradient_reduction_seconds"), 0.0);
    QCOMPARE(seconds(p.onebit, "compressed_gradient_reduction_seconds"), 0.0);
    QVERIFY(q(p.onebit.headline).contains("no data parallelism"));
}

void TestOnebitAdvisor::compressionLeavesLessThanTheReduction()
{
    const QStringList base = kSmall.mid(0, 3)
        + QStringList{"training.optimizer=onebit-adam", "hardware.nodes=2", "hardware.inter_node_network=ethernet-25g"};
    const Pages half = pagesFor(base + QStringList{"training.precision=fp16"});
    const Pages full = pagesFor(base + QStringList{"training.precision=fp32"});
    for (const Pages* p : {&half, &full}) {
        const Advice& adv = p->onebit;
        const double reduction = seconds(adv, "gradient_reduction_seconds");
        const double stage = seconds(adv, "compression_stage_gradient_reduction_seconds");
        const double average = seconds(adv, "compressed_gradient_reduction_seconds");
        QVERIFY(reduction > 0);
        QVERIFY(stage < average && average < reduction); // the warm-up runs uncompressed
        QVERIFY(near(stage * adv.details.at("compression_ratio").get<double>(), reduction));
        // Only the gradient reduction shrinks: what it saves comes off the communication and the step alike.
        const double saved = reduction - average;
        QVERIFY(near(seconds(adv, "communication_left_seconds"), seconds(adv, "communication_seconds") - saved));
        const double total = adv.details.at("step_seconds").at("total").get<double>();
        QVERIFY(near(seconds(adv, "step_seconds_left"), total - saved));
        QVERIFY(near(seconds(adv, "step_time_saving_fraction"), saved / total));
        QCOMPARE(findEstimate(adv, "Step time with 1-bit compression")->value, seconds(adv, "step_seconds_left"));
    }
    // fp32 gradients are 32 bits: twice the 16-bit compression ratio.
    QCOMPARE(full.onebit.details.at("compression_ratio").get<double>(),
             2 * half.onebit.details.at("compression_ratio").get<double>());
}

void TestOnebitAdvisor::mfuScalesTheComputeSeconds()
{
    // One candidate (stage 0, a typed micro-batch, checkpointing off), so the efficiency changes nothing but the time.
    const QStringList base = kSmall
        + QStringList{"training.optimizer=onebit-adam", "hardware.nodes=2", "hardware.inter_node_network=ethernet-25g",
                      "training.micro_batch_size=2", "training.activation_checkpointing=off"};
    const Pages at40 = pagesFor(base + QStringList{"hardware.mfu=0.4"});
    const Pages at20 = pagesFor(base + QStringList{"hardware.mfu=0.2"});
    QCOMPARE(q(at20.onebit.details.at("plan").get<std::string>()),
             q(at40.onebit.details.at("plan").get<std::string>()));
    QVERIFY(near(seconds(at20.onebit, "compute_seconds"), 2 * seconds(at40.onebit, "compute_seconds")));
    QCOMPARE(seconds(at20.onebit, "communication_seconds"), seconds(at40.onebit, "communication_seconds"));
    QCOMPARE(at20.onebit.details.at("mfu").get<double>(), 0.2);
}

void TestOnebitAdvisor::noTflopsNoTimes()
{
    // gpus.tsv has no confirmed TFLOPS for the A10G: the step model gives no time, and the page says so.
    const Pages p = pagesFor({"model.preset=llama-3.2-1b", "hardware.gpu=A10G", "hardware.gpus_per_node=8",
                              "hardware.nodes=2", "training.optimizer=onebit-adam"});
    const Advice& adv = p.onebit;
    QCOMPARE(q(adv.details.at("verdict").get<std::string>()), QString("compute-unknown"));
    QVERIFY(!adv.details.at("suitable").get<bool>());
    for (const char* key : {"compute_seconds", "communication_seconds", "gradient_reduction_seconds", "step_seconds",
                            "compressed_gradient_reduction_seconds", "step_time_saving_fraction"})
        QVERIFY2(adv.details.at(key).is_null(), key);
    QVERIFY2(q(adv.headline).contains("step time unknown") && q(adv.headline).contains("A10G"),
             qPrintable(q(adv.headline)));
    QVERIFY(!findEstimate(adv, "Compute per step"));
    QVERIFY(!findCheck(adv, "onebit-network-assumed"));
}

void TestOnebitAdvisor::networkCheckSaysWhetherMoreNicsFlipTheVerdict()
{
    // The check warns exactly when one NIC per GPU would change the verdict.
    int warned = 0, passed = 0;
    for (const NetworkSpec& n : NetworkCatalog::instance().all()) {
        const QStringList base = kSmall
            + QStringList{"training.optimizer=onebit-adam", "hardware.nodes=4", "hardware.nics_per_node=1",
                          q("hardware.inter_node_network=" + n.id)};
        const Pages one = pagesFor(base);
        const Pages eight = pagesFor(base + QStringList{"hardware.nics_per_node=8"});
        const Check* check = findCheck(one.onebit, "onebit-network-assumed");
        QVERIFY2(check, n.id.c_str());
        QCOMPARE(q(check->source), q(n.source));
        const bool flips = one.onebit.details.at("verdict") != eight.onebit.details.at("verdict");
        QCOMPARE(check->level == CheckLevel::Warn, flips);
        (flips ? warned : passed)++;
        // With one NIC per GPU already there is nothing more to assume.
        QVERIFY(findCheck(eight.onebit, "onebit-network-assumed")->level == CheckLevel::Pass);
    }
    QVERIFY(warned > 0 && passed > 0); // both branches reached
    // The node's rate given directly: no table figure to doubt.
    const Pages given = pagesFor(
        kSmall + QStringList{"training.optimizer=onebit-adam", "hardware.nodes=4", "hardware.inter_node_gbps=800"});
    QVERIFY(!findCheck(given.onebit, "onebit-network-assumed"));
    QCOMPARE(given.onebit.details.at("network_gbps").get<double>(), 800.0);
}

void TestOnebitAdvisor::textSaysWhoseNumbersTheyAre()
{
    const Pages p = pagesFor(kSmall
                             + QStringList{"training.optimizer=onebit-adam", "hardware.nodes=2",
                                           "hardware.inter_node_network=ethernet-10g"});
    const Advice& adv = p.onebit;
    QVERIFY2(q(adv.headline).contains("by ds-wizard's step-time model"), qPrintable(q(adv.headline)));
    for (const char* name : {"Compute per step", "Communication per step (gradient all-reduce)", "Step time"}) {
        const Estimate* e = findEstimate(adv, name);
        QVERIFY2(e, name);
        QVERIFY2(q(e->formula).contains(q("by ds-wizard's step-time model for " + planLabel(candidateOf(p.chosen())))),
                 qPrintable(q(e->formula)));
    }
    QVERIFY(q(adv.details.at("basis").get<std::string>()).contains("step-time model"));
    for (const char* key : {"assumed_mfu", "allreduce_seconds"}) // the page's own formulas are gone
        QVERIFY2(!adv.details.contains(key), key);
}

void TestOnebitAdvisor::scenarios_data()
{
    // The checks each setup gets (facts from the tutorials and DeepSpeed's code), the optimizer block and the
    // headline's wording; the ZeRO advice is reduced to its stage and stage 0's fit.
    QTest::addColumn<QStringList>("settings");
    QTest::addColumn<int>("zeroStage");
    QTest::addColumn<int>("stage0Fits");
    QTest::addColumn<QString>("fragment"); // "" : none
    QTest::addColumn<QStringList>("checks");
    QTest::addColumn<QString>("headline"); // a phrase the headline must contain

    const QStringList base = {"hardware.gpus_per_node=8", "hardware.gpu=A100-80GB", "hardware.nics_per_node=8"};
    const QString adam20k =
        R"({"optimizer":{"type":"OneBitAdam","params":{"lr":0.0001,"freeze_step":20000,"cuda_aware":false,"comm_backend_name":"nccl"}}})";

    QTest::newRow("one node, precision auto on A100 (bf16), 0/1 Adam")
        << (base
            + QStringList{"model.params=7B", "hardware.nodes=1", "training.precision=auto",
                          "training.optimizer=zero-one-adam"})
        << 0 << 1
        << R"({"optimizer":{"type":"ZeroOneAdam","params":{"lr":0.0001,"var_freeze_step":100000,"var_update_scaler":16,"local_step_scaler":32678,"local_step_clipper":16,"cuda_aware":false,"comm_backend_name":"nccl"}}})"
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=warn", "onebit-nccl-torch=pass",
                       "onebit-requires-zero-0=pass"}
        << "single node gains little";

    QTest::newRow("13B on V100 (auto → fp16), 1-bit LAMB, MPI with 2 pipeline stages")
        << QStringList{"model.params=13B",
                       "hardware.gpus_per_node=8",
                       "hardware.nodes=8",
                       "hardware.gpu=V100-32GB",
                       "hardware.inter_node_network=ethernet-10g",
                       "hardware.nics_per_node=8",
                       "training.precision=auto",
                       "training.optimizer=onebit-lamb",
                       "onebit.comm_backend=mpi",
                       "pipeline.stages=2",
                       "training.total_steps=12348"}
        << 0 << 1
        << R"({"optimizer":{"type":"OneBitLamb","params":{"lr":0.0001,"freeze_step":2470,"cuda_aware":false,"comm_backend_name":"mpi"}}})"
        << QStringList{"onebit-comm-backend=pass",       "onebit-cuda-aware=pass",
                       "onebit-fp16-only-verified=pass", "onebit-lamb-dynamic-loss-scale=pass",
                       "onebit-mpi-no-pipeline=fail",    "onebit-network-assumed=pass",
                       "onebit-requires-zero-0=pass"}
        << "fix the failed checks first";

    QTest::newRow("70B on 128 H100, old PyTorch: NCCL checks")
        << QStringList{"model.params=70B",
                       "hardware.gpus_per_node=8",
                       "hardware.nodes=16",
                       "hardware.gpu=H100-80GB",
                       "hardware.inter_node_network=infiniband-hdr",
                       "hardware.nics_per_node=8",
                       "training.precision=fp16",
                       "training.optimizer=onebit-adam",
                       "software.torch_version=1.7.1"}
        << 0 << 1 << adam20k
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-nccl-64-gpus=warn",
                       "onebit-nccl-torch=fail",   "onebit-network-assumed=pass",    "onebit-requires-zero-0=pass"}
        << "fix the failed checks first";

    QTest::newRow("AdamW, 70B over 10 Gbit/s per node: ZeRO-0 does not fit")
        << (base
            + QStringList{"model.params=70B", "hardware.nodes=4", "hardware.inter_node_gbps=10",
                          "training.precision=bf16", "training.optimizer=adamw"})
        << 2 << 0 << ""
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=warn", "onebit-nccl-torch=pass",
                       "onebit-requires-zero-0=warn"}
        << "does not fit";

    QTest::newRow("LAMB with 3200 Gbit/s given: no case, 1-bit LAMB suggested")
        << QStringList{"model.params=7B",        "hardware.gpus_per_node=8",      "hardware.nodes=2",
                       "hardware.gpu=H100-80GB", "hardware.inter_node_gbps=3200", "training.precision=fp16",
                       "training.optimizer=lamb"}
        << 0 << 1 << ""
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass",
                       "onebit-lamb-dynamic-loss-scale=pass", "onebit-nccl-torch=pass", "onebit-requires-zero-0=pass"}
        << "No strong case";

    QTest::newRow("hccl backend on A100 over EFA")
        << (base
            + QStringList{"model.params=7B", "hardware.nodes=2", "hardware.inter_node_network=efa",
                          "training.precision=fp16", "training.optimizer=onebit-adam", "onebit.comm_backend=hccl"})
        << 0 << 1
        << R"({"optimizer":{"type":"OneBitAdam","params":{"lr":0.0001,"freeze_step":20000,"cuda_aware":false,"comm_backend_name":"hccl"}}})"
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-hccl-needs-torch-npu=warn",
                       "onebit-network-assumed=pass", "onebit-requires-zero-0=pass"}
        << "1-bit Adam — compute-bound";

    QTest::newRow("16 pipeline stages on 16 GPUs: one replica, nothing to compress")
        << (base
            + QStringList{"model.params=7B", "hardware.nodes=2", "training.precision=fp16",
                          "training.optimizer=onebit-adam", "onebit.comm_backend=compressed", "pipeline.stages=16"})
        << 0 << 1
        << R"({"optimizer":{"type":"OneBitAdam","params":{"lr":0.0001,"freeze_step":20000,"cuda_aware":false,"comm_backend_name":"compressed"}}})"
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-mpi-no-pipeline=pass",
                       "onebit-requires-zero-0=pass"}
        << "no data parallelism";

    QTest::newRow("A10G has no TFLOPS figure; ZeRO has no advice yet")
        << QStringList{"model.params=7B",
                       "hardware.gpus_per_node=8",
                       "hardware.nodes=2",
                       "hardware.gpu=A10G",
                       "hardware.inter_node_network=ethernet-25g",
                       "training.precision=fp16",
                       "training.optimizer=onebit-adam"}
        << -1 << -1 << adam20k
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-nccl-torch=pass",
                       "onebit-requires-zero-0=warn"}
        << "step time unknown";

    QTest::newRow("1-bit Adam while ZeRO recommends stage 1")
        << (base
            + QStringList{"model.params=7B", "hardware.nodes=4", "hardware.inter_node_network=infiniband-ndr",
                          "training.precision=fp16", "training.optimizer=onebit-adam"})
        << 1 << -1 << adam20k
        << QStringList{"onebit-comm-backend=pass", "onebit-fp16-only-verified=pass", "onebit-nccl-torch=pass",
                       "onebit-network-assumed=pass", "onebit-requires-zero-0=fail"}
        << "fix the failed checks first";
}

void TestOnebitAdvisor::scenarios()
{
    QFETCH(QStringList, settings);
    QFETCH(int, zeroStage);
    QFETCH(int, stage0Fits);
    QFETCH(QString, fragment);
    QFETCH(QStringList, checks);
    QFETCH(QString, headline);

    const Advice adv = adviseOnebit(answersFrom(settings), zeroAdvice(zeroStage, stage0Fits));
    QCOMPARE(q(adv.workflow), QString("onebit"));
    QVERIFY(adv.status == AdviceStatus::Complete);
    if (fragment.isEmpty()) {
        QVERIFY(adv.fragment.empty());
        QVERIFY(adv.details.at("optimizer_type").is_null());
    } else {
        const oj expected = oj::parse(fragment.toStdString());
        JSON_COMPARE(adv.fragment, expected);
        QVERIFY(adv.details.at("optimizer_type") == expected["optimizer"]["type"]);
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
    // Suitable only when communication-bound with stage 0 not known not to fit.
    QCOMPARE(adv.details.at("suitable").get<bool>(),
             adv.details.at("verdict") == "communication-bound" && stage0Fits != 0);
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
    QCOMPARE(adv.details["warmup_fraction"].get<double>(), std::min(1.0, double(freezeStep) / totalSteps));
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
    const Advice adv = adviceFor("onebit", a);
    QVERIFY(adv.details.at("zero_stage0_fits") == stage0Fits);
    const Check* check = findCheck(adv, "onebit-requires-zero-0");
    QVERIFY(check);
    QCOMPARE(q(toString(check->level)), zeroCheck);
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
        const Pages p = pagesFor(settings);
        const Advice& adv = p.onebit;
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
