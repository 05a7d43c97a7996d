// Saturating arithmetic on counts and bytes (models/util/CheckedMath.h): exact below the limits, pinned to
// them beyond, never wrapped to the other sign.
#include "util/CheckedMath.h"

#include <QTest>

using namespace dsw;

namespace {
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
}

class TestCheckedMath : public QObject {
    Q_OBJECT
private slots:
    void multiply()
    {
        QCOMPARE(mulSat(3, 4), std::int64_t{12});
        QCOMPARE(mulSat(-3, 4), std::int64_t{-12});
        QCOMPARE(mulSat(std::int64_t{1} << 31, std::int64_t{1} << 31), std::int64_t{1} << 62);
        QCOMPARE(mulSat(std::int64_t{1} << 32, std::int64_t{1} << 31), kSaturated);
        QCOMPARE(mulSat(-(std::int64_t{1} << 32), std::int64_t{1} << 31), kMin); // exactly -2^63: fits
        QCOMPARE(mulSat(-(std::int64_t{1} << 32), std::int64_t{1} << 32), kMin);
        QCOMPARE(mulSat(kSaturated, 0), std::int64_t{0});
        // Korthikanti's 5·a·s²·b at the registry's maxima: 5 × 4096 × 10^14 × 65536 ≈ 1.3 × 10^23.
        QCOMPARE(mulSat(5, 4096, 10'000'000, 10'000'000, 65536), kSaturated);
        QCOMPARE(mulSat(2, 3, 7), std::int64_t{42});
    }
    void add()
    {
        QCOMPARE(addSat(kSaturated - 1, 1), kSaturated);
        QCOMPARE(addSat(kSaturated, 1), kSaturated);
        QCOMPARE(addSat(kMin, -1), kMin);
        QCOMPARE(addSat(1, 2, 3), std::int64_t{6});
        QCOMPARE(addSat(kSaturated, kSaturated, kSaturated), kSaturated);
    }
    void subtract()
    {
        QCOMPARE(subSat(5, 7), std::int64_t{-2});
        QCOMPARE(subSat(kMin, 1), kMin);
        QCOMPARE(subSat(kSaturated, -1), kSaturated);
    }
    void truncate()
    {
        QCOMPARE(truncSat(2.9), std::int64_t{2}); // Python's int(): toward zero
        QCOMPARE(truncSat(-2.9), std::int64_t{-2});
        QCOMPARE(truncSat(0x1p62), std::int64_t{1} << 62);
        QCOMPARE(truncSat(0x1p63), kSaturated);  // 2^63 itself does not fit
        QCOMPARE(truncSat(3.84e21), kSaturated); // DeepSpeed's ZeRO-2 offload CPU term at 10^14 × 6.4M GPUs
        QCOMPARE(truncSat(-0x1p63), kMin);
        QCOMPARE(truncSat(-1e300), kMin);
        QCOMPARE(truncSat(std::numeric_limits<double>::infinity()), kSaturated);
        QCOMPARE(truncSat(std::numeric_limits<double>::quiet_NaN()), std::int64_t{0});
    }
};

QTEST_APPLESS_MAIN(TestCheckedMath)
#include "TestCheckedMath.moc"
