// The precision workflow: bf16 where the GPU has it, fp16 with dynamic loss scaling otherwise,
// fp8 only as Transformer Engine code, never fp16 and bf16 together.
#include "advise/PrecisionAdvisor.h"

#include <QTest>
#include <algorithm>

using namespace dsw;

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
        const Advice advice = advisePrecision(answers);

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

    void warnsWhenABf16CheckpointRunsInFp16()
    {
        Answers answers;
        answers.set("hardware.gpu", "V100-32GB");
        answers.set("precision.checkpoint_dtype", "bf16");
        const Advice fp16 = advisePrecision(answers);
        const Check* c = findCheck(fp16, "fp16-bf16-checkpoint-overflow");
        QVERIFY(c);
        QVERIFY(c->level == CheckLevel::Warn);
        answers.set("hardware.gpu", "A100-80GB"); // bf16 is used: nothing to warn about
        const Advice bf16 = advisePrecision(answers);
        QVERIFY(!findCheck(bf16, "fp16-bf16-checkpoint-overflow"));
    }
};

QTEST_APPLESS_MAIN(TestPrecisionAdvisor)
#include "TestPrecisionAdvisor.moc"
