// Activation memory after Korthikanti et al. 2022 (arXiv:2205.05198), t = 1, 16-bit activations.
#include "estimate/ActivationMemory.h"

#include <QTest>

using namespace dsw;

Q_DECLARE_METATYPE(dsw::ActivationInputs)

class TestActivationMemory : public QObject {
    Q_OBJECT
private slots:
    void handComputed_data()
    {
        QTest::addColumn<ActivationInputs>("in");
        QTest::addColumn<bool>("checkpointing");
        QTest::addColumn<qint64>("bytes");
        // GPT-2 small: s=1024, b=1, h=768, a=12, L=12, v=50257.
        //   sbh = 786432; 5as/h = 5*12*1024/768 = 80; per layer = 786432*(34+80) = 89653248
        //   logits = 4*1024*50257 = 205852672
        //   no ckpt: 12*89653248 + 205852672 = 1281691648
        //   ckpt:    2*786432*12 + 89653248 + 205852672 = 314380288
        const ActivationInputs gpt2{1024, 1, 768, 12, 12, 50257};
        QTest::newRow("gpt2-small") << gpt2 << false << qint64(1281691648);
        QTest::newRow("gpt2-small ckpt") << gpt2 << true << qint64(314380288);
        // 5as/h fractional: s=1000, h=768, a=12 -> 78.125; per layer 768000*112.125 = 86112000.
        //   L=2, b=1, v=0: 172224000; ckpt: 2*768000*2 + 86112000 = 89184000.
        const ActivationInputs frac{1000, 1, 768, 12, 2, 0};
        QTest::newRow("fractional 5as/h") << frac << false << qint64(172224000);
        QTest::newRow("fractional 5as/h ckpt") << frac << true << qint64(89184000);
        // s=333, h=1000, a=40: 34*333000 + 5*40*333^2 = 11322000 + 22177800 = 33499800 exactly;
        // evaluating 5as/h in double and truncating gives 33499799.
        QTest::newRow("no off-by-one") << ActivationInputs{333, 1, 1000, 40, 1, 0} << false << qint64(33499800);
    }

    void handComputed()
    {
        QFETCH(ActivationInputs, in);
        QFETCH(bool, checkpointing);
        QFETCH(qint64, bytes);
        QCOMPARE(activationBytes(in, checkpointing), bytes);
    }

    void checkpointingReduces_data()
    {
        QTest::addColumn<ActivationInputs>("in");
        QTest::newRow("gpt2-small") << ActivationInputs{1024, 8, 768, 12, 12, 50257};
        QTest::newRow("llama-7b") << ActivationInputs{4096, 1, 4096, 32, 32, 32000};
        QTest::newRow("llama3-70b") << ActivationInputs{8192, 1, 8192, 64, 80, 128256};
    }

    void checkpointingReduces()
    {
        QFETCH(ActivationInputs, in);
        QVERIFY(activationBytes(in, true) < activationBytes(in, false));
    }

    void linearInMicroBatch_data()
    {
        QTest::addColumn<bool>("checkpointing");
        QTest::newRow("no ckpt") << false;
        QTest::newRow("ckpt") << true;
    }

    void linearInMicroBatch()
    {
        QFETCH(bool, checkpointing);
        ActivationInputs in{2048, 1, 5120, 40, 40, 32000};
        const qint64 one = activationBytes(in, checkpointing);
        for (std::int64_t b : {2, 4, 16}) {
            in.microBatch = b;
            QCOMPARE(activationBytes(in, checkpointing), b * one);
        }
    }

    void formulaText()
    {
        QVERIFY(activationFormula(false).find("34 + 5·a·s/h") != std::string::npos);
        QVERIFY(activationFormula(true).find("2·s·b·h·L") != std::string::npos);
        QVERIFY(activationFormula(true) != activationFormula(false));
    }

    void rejectsBadInput()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, activationBytes({0, 1, 768, 12, 12, 0}, false));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, activationBytes({1024, 1, 768, 12, 12, -1}, true));
    }
};

QTEST_APPLESS_MAIN(TestActivationMemory)
#include "TestActivationMemory.moc"
