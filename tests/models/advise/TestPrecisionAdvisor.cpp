// The precision workflow: bf16 where the GPU has it, fp16 with dynamic loss scaling otherwise,
// fp8 only as Transformer Engine code, never fp16 and bf16 together.
#include "PlanFor.h"
#include "TestAnswers.h"
#include "advise/PrecisionAdvisor.h"
#include "estimate/StepModel.h"

#include <QTest>
#include <algorithm>

using namespace dsw;
using namespace dsw::test;

namespace {
const Check* findCheck(const Advice& a, const std::string& code)
{
    auto it = std::find_if(a.checks.begin(), a.checks.end(), [&](const Check& c) { return c.code == code; });
    return it == a.checks.end() ? nullptr : &*it;
}
} // namespace

class TestPrecisionAdvisor : public QObject {
    Q_OBJECT
private slots:
    void choosesFromTheGpu_data()
    {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("wanted");
        QTest::addColumn<QString>("deepspeed");
        QTest::addColumn<QString>("key");         // the one precision key written, or "" for none
        QTest::addColumn<QString>("failedCheck"); // expected failed check code, or ""
        // Ampere and newer have bf16 (compute capability >= 8.0); Volta and Turing do not.
        QTest::newRow("A100 auto") << "A100-80GB"
                                   << "auto"
                                   << "0.19.5"
                                   << "bf16"
                                   << "";
        QTest::newRow("H100 auto") << "H100-80GB"
                                   << "auto"
                                   << "0.19.5"
                                   << "bf16"
                                   << "";
        QTest::newRow("MI300X auto") << "MI300X"
                                     << "auto"
                                     << "0.19.5"
                                     << "bf16"
                                     << "";
        QTest::newRow("V100 auto") << "V100-32GB"
                                   << "auto"
                                   << "0.19.5"
                                   << "fp16"
                                   << "";
        QTest::newRow("T4 auto") << "T4"
                                 << "auto"
                                 << "0.19.5"
                                 << "fp16"
                                 << "";
        QTest::newRow("V100 bf16 refused") << "V100-16GB"
                                           << "bf16"
                                           << "0.19.5"
                                           << "fp16"
                                           << "bf16-unsupported-gpu";
        QTest::newRow("T4 bf16 refused") << "T4"
                                         << "bf16"
                                         << "0.19.5"
                                         << "fp16"
                                         << "bf16-unsupported-gpu";
        QTest::newRow("A100 fp16 asked") << "A100-40GB"
                                         << "fp16"
                                         << "0.19.5"
                                         << "fp16"
                                         << "";
        QTest::newRow("A100 fp32") << "A100-40GB"
                                   << "fp32"
                                   << "0.19.5"
                                   << ""
                                   << "";
        QTest::newRow("old DeepSpeed bf16 key") << "A100-80GB"
                                                << "bf16"
                                                << "0.5.9"
                                                << "bfloat16"
                                                << "";
        QTest::newRow("DeepSpeed without bf16") << "A100-80GB"
                                                << "bf16"
                                                << "0.5.4"
                                                << "fp16"
                                                << "bf16-needs-newer-deepspeed";
        QTest::newRow("fp8 on H100 is bf16 + TE") << "H100-80GB"
                                                  << "fp8"
                                                  << "0.19.5"
                                                  << "bf16"
                                                  << "";
        QTest::newRow("fp8 on A100 fails") << "A100-80GB"
                                           << "fp8"
                                           << "0.19.5"
                                           << "bf16"
                                           << "fp8-needs-transformer-engine";
        QTest::newRow("fp8 on V100 fails, fp16") << "V100-32GB"
                                                 << "fp8"
                                                 << "0.19.5"
                                                 << "fp16"
                                                 << "fp8-needs-transformer-engine";
    }
    void choosesFromTheGpu()
    {
        QFETCH(QString, gpu);
        QFETCH(QString, wanted);
        QFETCH(QString, deepspeed);
        QFETCH(QString, key);
        QFETCH(QString, failedCheck);
        Answers answers;
        answers.set("hardware.gpu", gpu.toStdString());
        answers.set("training.precision", wanted.toStdString());
        answers.set("software.deepspeed_version", deepspeed.toStdString());
        const Advice advice = adviceFor("precision", answers);

        int enabledBlocks = 0;
        for (const char* k : {"fp16", "bf16", "bfloat16"})
            if (advice.fragment.contains(k)) {
                ++enabledBlocks;
                QCOMPARE(QString(k), key);
                QVERIFY(advice.fragment[k]["enabled"].get<bool>());
            }
        QCOMPARE(enabledBlocks, key.isEmpty() ? 0 : 1); // never both fp16 and bf16
        QVERIFY2(!advice.fragment.contains("fp8"), "DeepSpeed has no fp8 key");
        if (key == "fp16")
            QCOMPARE(advice.fragment["fp16"]["loss_scale"].get<int>(), 0); // dynamic loss scaling
        if (failedCheck.isEmpty()) {
            QVERIFY(!advice.hasFailedCheck());
        } else {
            const Check* c = findCheck(advice, failedCheck.toStdString());
            QVERIFY(c);
            QVERIFY(c->level == CheckLevel::Fail);
        }
        if (wanted == "fp8") {
            QVERIFY(findCheck(advice, "fp8-needs-transformer-engine"));
            QVERIFY(std::any_of(advice.snippets.begin(), advice.snippets.end(),
                                [](const Snippet& s) { return s.code.find("fp8_autocast") != std::string::npos; }));
        }
    }

    // training.precision_states = bf16 writes DeepSpeed's two bf16 keys exactly when DeepSpeed 0.19.5 runs them
    // for the ZeRO page's plan; otherwise a failed check names the input and the config keeps fp32 states.
    void writesBf16StatesOnlyWhereDeepSpeedRunsThem_data()
    {
        QTest::addColumn<QStringList>("settings");
        QTest::addColumn<bool>("written");
        QTest::addColumn<QString>("refusedBecause"); // a word the failed check must contain, or ""
        const QStringList base{"model.preset=llama-2-7b", "hardware.gpu=A100-80GB", "hardware.gpus_per_node=8"};
        QTest::newRow("fp32 states (default): nothing") << base << false << "";
        QTest::newRow("bf16 states, stage left to the wizard")
            << base + QStringList{"training.precision_states=bf16"} << true << "";
        QTest::newRow("bf16 states at ZeRO-3")
            << base + QStringList{"training.precision_states=bf16", "zero.stage=3"} << true << "";
        QTest::newRow("bf16 states, ZeRO-2 offloaded AdamW") << base
                + QStringList{"training.precision_states=bf16", "zero.stage=2", "zero.offload_optimizer=cpu",
                              "training.optimizer=adamw"} << true
                                                             << "";
        QTest::newRow("stage 0 forced") << base + QStringList{"training.precision_states=bf16", "zero.stage=0"} << false
                                        << "stage 0";
        QTest::newRow("fp16 training") << base
                + QStringList{"training.precision_states=bf16", "training.precision=fp16"}
                                       << false << "fp16";
        QTest::newRow("offloaded Lion") << base
                + QStringList{"training.precision_states=bf16", "zero.stage=2", "zero.offload_optimizer=cpu",
                              "training.optimizer=lion"}
                                        << false << "DeepSpeedCPUAdam";
        QTest::newRow("DeepSpeed 0.18.2")
            << base + QStringList{"training.precision_states=bf16", "software.deepspeed_version=0.18.2"} << false
            << "0.18.3";
    }
    void writesBf16StatesOnlyWhereDeepSpeedRunsThem()
    {
        QFETCH(QStringList, settings);
        QFETCH(bool, written);
        QFETCH(QString, refusedBecause);
        const Answers a = answersFrom(settings);
        const Plan plan = makePlan(a);
        const Advice& advice = *plan.find("precision");
        const int stage = plan.zero->plan().candidate.placement.stage;
        const nlohmann::ordered_json bf16 = advice.fragment.value("bf16", nlohmann::ordered_json::object());
        QCOMPARE(bf16.contains("bf16_master_weights_and_grads"), written);
        QCOMPARE(bf16.contains("bf16_optimizer_states"), written);
        if (written) {
            QVERIFY(bf16["bf16_master_weights_and_grads"].get<bool>() && bf16["bf16_optimizer_states"].get<bool>());
            QVERIFY2(stage >= 1, "bf16 states run at ZeRO 1-3 only"); // the ZeRO page left stage 0 out
            QVERIFY(findCheck(advice, "precision-states-bf16"));
            QVERIFY(!advice.hasFailedCheck());
        }
        const Check* refused = findCheck(advice, "precision-states-bf16-unsupported");
        QCOMPARE(refused != nullptr, !refusedBecause.isEmpty());
        if (refused) {
            QVERIFY(refused->level == CheckLevel::Fail);
            QVERIFY2(q(refused->message).contains("training.precision_states"), refused->message.c_str());
            QVERIFY2(q(refused->message).contains("Allowed:"), refused->message.c_str());
            QVERIFY2(q(refused->message).contains(refusedBecause), refused->message.c_str());
        }
    }

    // The step model counts what the keys change: the master weights and Adam's m and v in 2 bytes instead of
    // 4, so the optimizer-state bytes halve at ZeRO 1-3 (on the GPU, or on the host when offloaded), and the
    // figures the precision page quotes are those.
    void bf16StatesHalveTheOptimizerStates()
    {
        const QStringList base{"model.preset=llama-2-7b", "hardware.gpu=A100-80GB", "hardware.gpus_per_node=8"};
        const StepJob fp32 = stepJobFrom(answersFrom(base));
        const StepJob bf16 = stepJobFrom(answersFrom(base + QStringList{"training.precision_states=bf16"}));
        for (const int stage : {1, 2, 3}) {
            const StepCandidate c{{stage, "none", "none"}, false, 1, 1};
            const std::int64_t full = predictStep(fp32, c).gpu.optimizer, half = predictStep(bf16, c).gpu.optimizer;
            QVERIFY(full > 0);
            QCOMPARE(half * 2, full);
            const StepCandidate offloaded{{stage, "cpu", "none"}, false, 1, 1};
            QVERIFY(predictStep(bf16, offloaded).cpuPerNode < predictStep(fp32, offloaded).cpuPerNode);
        }
        const StepCandidate stage0{{0, "none", "none"}, false, 1, 1}; // no bf16 states without ZeRO
        QCOMPARE(predictStep(bf16, stage0).gpu.optimizer, predictStep(fp32, stage0).gpu.optimizer);

        const Answers a = answersFrom(base + QStringList{"training.precision_states=bf16", "zero.stage=2"});
        const Advice advice = adviceFor("precision", a);
        const auto& bytes = advice.details["precision_states_bytes"];
        QCOMPARE(bytes["bf16"].get<double>() * 2, bytes["fp32"].get<double>());
    }

    void warnsWhenABf16CheckpointRunsInFp16()
    {
        Answers answers;
        answers.set("hardware.gpu", "V100-32GB");
        answers.set("precision.checkpoint_dtype", "bf16");
        const Advice fp16 = adviceFor("precision", answers);
        const Check* c = findCheck(fp16, "fp16-bf16-checkpoint-overflow");
        QVERIFY(c);
        QVERIFY(c->level == CheckLevel::Warn);
        answers.set("hardware.gpu", "A100-80GB"); // bf16 is used: nothing to warn about
        const Advice bf16 = adviceFor("precision", answers);
        QVERIFY(!findCheck(bf16, "fp16-bf16-checkpoint-overflow"));
    }
};

QTEST_APPLESS_MAIN(TestPrecisionAdvisor)
#include "TestPrecisionAdvisor.moc"
