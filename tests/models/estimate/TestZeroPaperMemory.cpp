// The ZeRO paper's model-state numbers (arXiv:1910.02054, Figure 1, §5 and Table 1).
#include "estimate/ZeroPaperMemory.h"

#include <QTest>

#include <cmath>

using namespace dsw;

namespace {
// Decimal GB rounded half up to one decimal, as the paper prints (41.25 -> 41.3).
double gb1(std::int64_t bytes) { return std::round(static_cast<double>(bytes) / 1e8) / 10.0; }
} // namespace

class TestZeroPaperMemory : public QObject {
    Q_OBJECT
private slots:
    void paperValues_data()
    {
        QTest::addColumn<qint64>("params");
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("nd");
        QTest::addColumn<double>("gb");
        const qint64 p7 = 7500000000LL;
        // Figure 1 worked example: 7.5B params, Nd = 64.
        QTest::newRow("fig1 baseline") << p7 << 0 << 64 << 120.0;
        QTest::newRow("fig1 P_os") << p7 << 1 << 64 << 31.4;    // 30 + 90/64 = 31.40625
        QTest::newRow("fig1 P_os+g") << p7 << 2 << 64 << 16.6;  // 15 + 105/64 = 16.640625
        QTest::newRow("fig1 P_os+g+p") << p7 << 3 << 64 << 1.9; // 120/64 = 1.875
        // Table 1 cells.
        QTest::newRow("7.5B Nd=1 P_os") << p7 << 1 << 1 << 120.0;
        QTest::newRow("7.5B Nd=4 P_os") << p7 << 1 << 4 << 52.5;
        QTest::newRow("7.5B Nd=4 P_os+g") << p7 << 2 << 4 << 41.3; // 41.25 rounds up
        QTest::newRow("7.5B Nd=4 P_os+g+p") << p7 << 3 << 4 << 30.0;
        QTest::newRow("7.5B Nd=16 P_os") << p7 << 1 << 16 << 35.6;
        QTest::newRow("7.5B Nd=16 P_os+g") << p7 << 2 << 16 << 21.6;
        QTest::newRow("7.5B Nd=16 P_os+g+p") << p7 << 3 << 16 << 7.5;
        QTest::newRow("7.5B Nd=256 P_os") << p7 << 1 << 256 << 30.4;
        QTest::newRow("7.5B Nd=1024 P_os+g") << p7 << 2 << 1024 << 15.1;
        QTest::newRow("128B Nd=4 P_os") << 128000000000LL << 1 << 4 << 896.0;
        QTest::newRow("128B Nd=64 P_os+g+p") << 128000000000LL << 3 << 64 << 32.0;
        QTest::newRow("1T Nd=1024 P_os+g+p") << 1000000000000LL << 3 << 1024 << 15.6;
    }

    void paperValues()
    {
        QFETCH(qint64, params);
        QFETCH(int, stage);
        QFETCH(int, nd);
        QFETCH(double, gb);
        const auto m = zeroPaperModelStates(params, stage, nd);
        QCOMPARE(m.stage, stage);
        QCOMPARE(gb1(m.total), gb);
    }

    void components()
    {
        // Stage 0: 2 + 2 + 12 = 16 bytes per parameter, whatever Nd is.
        auto m = zeroPaperModelStates(1000, 0, 8);
        QCOMPARE(m.params, qint64(2000));
        QCOMPARE(m.grads, qint64(2000));
        QCOMPARE(m.optimizer, qint64(12000));
        QCOMPARE(m.total, qint64(16000));
        // Partitioned terms truncate: 12*1000/7 = 1714.28 -> 1714; 2000/7 = 285.7 -> 285.
        m = zeroPaperModelStates(1000, 3, 7);
        QCOMPARE(m.optimizer, qint64(1714));
        QCOMPARE(m.grads, qint64(285));
        QCOMPARE(m.params, qint64(285));
        QCOMPARE(m.total, qint64(1714 + 285 + 285));
        m = zeroPaperModelStates(1000, 2, 7);
        QCOMPARE(m.params, qint64(2000));
        QCOMPARE(m.grads, qint64(285));
        // Other optimizers: K = 4 (e.g. an fp32 master copy only).
        m = zeroPaperModelStates(1000, 1, 2, 4);
        QCOMPARE(m.optimizer, qint64(2000));
        QCOMPARE(m.total, qint64(6000));
    }

    void rejectsBadInput()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, zeroPaperModelStates(1000, 4, 8));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, zeroPaperModelStates(1000, -1, 8));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, zeroPaperModelStates(1000, 1, 0));
    }
};

QTEST_APPLESS_MAIN(TestZeroPaperMemory)
#include "TestZeroPaperMemory.moc"
