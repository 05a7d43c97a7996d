// DeepSpeed's layer partitioning (models/estimate/PipelinePartition.h), against the worked examples of
// deepspeed-facts §2.9 (run there on the unmodified v0.19.5 runtime/utils.py) and against small cases
// derived by hand below. Notation for the hand runs of partition_balanced: S = prefix sums,
// (i,j) = best split of the first i items into j parts, kept as {largest, smallest} part sums;
// cost = largest − smallest; a candidate replaces the state when the state's cost >= its cost, so the
// later split point k wins a tie; states never reached stay at +∞ and are overwritten by anything.
#include "estimate/PipelinePartition.h"

#include <QTest>

#include <limits>
#include <random>
#include <stdexcept>

using namespace dsw;

namespace {

// runtime/utils.py partition_balanced as DeepSpeed writes it — the full (n+1) × (m+1) table and every split
// k < i for every cell — against which the faster partitionBalanced must agree exactly.
std::vector<int> literalPartitionBalanced(const std::vector<double>& weights, int m)
{
    const int n = static_cast<int>(weights.size());
    if (n <= m)
        return partitionUniform(n, m);
    constexpr double inf = std::numeric_limits<double>::infinity();
    const auto cells = static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(m + 1);
    std::vector<double> dpMax(cells, inf), dpMin(cells, inf), dpCost(cells, inf);
    std::vector<int> position(cells, 0);
    auto at = [&](int i, int j) {
        return static_cast<std::size_t>(i) * static_cast<std::size_t>(m + 1) + static_cast<std::size_t>(j);
    };
    std::vector<double> prefix(static_cast<std::size_t>(n) + 1, 0.0);
    for (int i = 0; i < n; ++i)
        prefix[static_cast<std::size_t>(i) + 1] =
            prefix[static_cast<std::size_t>(i)] + weights[static_cast<std::size_t>(i)];
    dpMax[at(0, 0)] = 0;
    dpCost[at(0, 0)] = 0;
    for (int i = 1; i <= n; ++i)
        for (int j = 1; j <= std::min(i, m); ++j)
            for (int k = 0; k < i; ++k) {
                const double part = prefix[static_cast<std::size_t>(i)] - prefix[static_cast<std::size_t>(k)];
                const double maxSum = std::max(dpMax[at(k, j - 1)], part);
                const double minSum = std::min(dpMin[at(k, j - 1)], part);
                const double cost = maxSum - minSum;
                if (dpCost[at(i, j)] >= cost) {
                    dpCost[at(i, j)] = cost;
                    dpMax[at(i, j)] = maxSum;
                    dpMin[at(i, j)] = minSum;
                    position[at(i, j)] = k;
                }
            }
    std::vector<int> parts{n};
    for (int j = m; j >= 1; --j)
        parts.push_back(position[at(parts.back(), j)]);
    std::reverse(parts.begin(), parts.end());
    return parts;
}

} // namespace

class TestPipelinePartition : public QObject {
    Q_OBJECT
private slots:
    void uniform_data()
    {
        QTest::addColumn<int>("items");
        QTest::addColumn<int>("parts");
        QTest::addColumn<std::vector<int>>("expected");
        // deepspeed-facts §2.9 [verified]
        QTest::newRow("10 into 4") << 10 << 4 << std::vector<int>{0, 3, 6, 8, 10};
        QTest::newRow("26 into 4") << 26 << 4 << std::vector<int>{0, 7, 14, 20, 26};
        QTest::newRow("3 into 4: last stage empty") << 3 << 4 << std::vector<int>{0, 1, 2, 3, 3};
        // By hand: chunk = ⌊n/p⌋, residual = n − chunk·p, the first `residual` parts get one more.
        //   7/3: chunk 2, residual 1 → sizes 3,2,2
        QTest::newRow("7 into 3") << 7 << 3 << std::vector<int>{0, 3, 5, 7};
        //   34/4 (embedding, 32 blocks, head): chunk 8, residual 2 → sizes 9,9,8,8
        QTest::newRow("34 into 4") << 34 << 4 << std::vector<int>{0, 9, 18, 26, 34};
        //   8/4: no residual → sizes 2,2,2,2
        QTest::newRow("8 into 4") << 8 << 4 << std::vector<int>{0, 2, 4, 6, 8};
        //   n = p: one item each; n = 0: every boundary min(i, 0) = 0
        QTest::newRow("4 into 4") << 4 << 4 << std::vector<int>{0, 1, 2, 3, 4};
        QTest::newRow("0 into 3") << 0 << 3 << std::vector<int>{0, 0, 0, 0};
        QTest::newRow("5 into 1") << 5 << 1 << std::vector<int>{0, 5};
    }
    void uniform()
    {
        QFETCH(int, items);
        QFETCH(int, parts);
        QFETCH(std::vector<int>, expected);
        QCOMPARE(partitionUniform(items, parts), expected);
    }

    void balanced_data()
    {
        QTest::addColumn<std::vector<double>>("weights");
        QTest::addColumn<int>("parts");
        QTest::addColumn<std::vector<int>>("expected");
        // deepspeed-facts §2.9 [verified]
        QTest::newRow("[1]*10 into 4") << std::vector<double>(10, 1.0) << 4 << std::vector<int>{0, 3, 6, 8, 10};
        QTest::newRow("[5,1,1,1,1,1,1,5] into 3")
            << std::vector<double>{5, 1, 1, 1, 1, 1, 1, 5} << 3 << std::vector<int>{0, 2, 7, 8};
        QTest::newRow("[1..9] into 3") << std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9} << 3
                                       << std::vector<int>{0, 5, 7, 9};
        QTest::newRow("[100,10x8,100] into 4")
            << std::vector<double>{100, 10, 10, 10, 10, 10, 10, 10, 10, 100} << 4 << std::vector<int>{0, 1, 5, 9, 10};

        // n <= p falls back to partition_uniform(n, p).
        QTest::newRow("[3,3] into 2: uniform") << std::vector<double>{3, 3} << 2 << std::vector<int>{0, 1, 2};
        QTest::newRow("[1,1] into 3: uniform, last empty")
            << std::vector<double>{1, 1} << 3 << std::vector<int>{0, 1, 2, 2};
        QTest::newRow("[] into 2: uniform") << std::vector<double>{} << 2 << std::vector<int>{0, 0, 0};

        // [3,1,2] into 1: (3,1) k=0 from (0,0) costs 0; k=1,2 come from unreached (k,0) at +∞ and lose.
        QTest::newRow("[3,1,2] into 1") << std::vector<double>{3, 1, 2} << 1 << std::vector<int>{0, 3};

        // [1,1,1] into 2: S = 0,1,2,3. (3,2): k=0 +∞; k=1 {2,1} cost 1; k=2 {2,1} cost 1, tie → k=2.
        //   (2,1) split 0 → [0,2,3]
        QTest::newRow("[1,1,1] into 2: tie to the later split")
            << std::vector<double>{1, 1, 1} << 2 << std::vector<int>{0, 2, 3};
        // [1,2,1] into 2: S = 0,1,3,4. (3,2): k=1 {3,1} cost 2; k=2 {3,1} cost 2, tie → k=2 → [0,2,3]
        //   (with ">" instead of ">=" it would be [0,1,3]).
        QTest::newRow("[1,2,1] into 2: tie to the later split")
            << std::vector<double>{1, 2, 1} << 2 << std::vector<int>{0, 2, 3};
        // [0,0,0,0] into 2: every (i,1) = {0,0} split 0; (4,2): k=1,2,3 all cost 0 → k=3 → [0,3,4].
        QTest::newRow("all zero weights") << std::vector<double>{0, 0, 0, 0} << 2 << std::vector<int>{0, 3, 4};
        // [2,1,1,2] into 2: S = 0,2,3,4,6. (4,2): k=1 {4,2} 2; k=2 {3,3} 0; k=3 {4,2} 2 → k=2 → [0,2,4].
        QTest::newRow("[2,1,1,2] into 2") << std::vector<double>{2, 1, 1, 2} << 2 << std::vector<int>{0, 2, 4};
        // [1]*5 into 3: S = 0..5. (2,2) {1,1} k1; (3,2): k1 {2,1} 1, k2 {2,1} 1 → k2; (4,2): k2 {2,2} 0 → k2.
        //   (5,3): k=1 from unreached (1,2): +∞; k=2 (2,2)+3 → {3,1} 2; k=3 (3,2)+2 → {2,1} 1;
        //   k=4 (4,2)+1 → {2,1} 1, tie → k=4. Back: (5,3)→4, (4,2)→2, (2,1)→0 → [0,2,4,5]
        //   (">" would give k=3, then (3,2)→1: [0,1,3,5]).
        QTest::newRow("[1]*5 into 3: tie in the last part")
            << std::vector<double>(5, 1.0) << 3 << std::vector<int>{0, 2, 4, 5};
        // [100,10,10,10,10,100] into 3 (embedding, 4 blocks, head): S = 0,100,110,120,130,140,240.
        //   (i,2): (2,2) {100,10} k1; (3,2) {100,20} k1; (4,2) {100,30} k1; (5,2) {100,40} k1.
        //   (6,3): k=2 {130,10} 120; k=3 {120,20} 100; k=4 {110,30} 80; k=5 {100,40} 60 → k=5 → [0,1,5,6]
        QTest::newRow("embedding, 4 blocks, head into 3")
            << std::vector<double>{100, 10, 10, 10, 10, 100} << 3 << std::vector<int>{0, 1, 5, 6};
        // type:transformer weights over embedding, 8 blocks, head: [0,1×8,0] into 3, S_i = max(0, min(i−1, 8)).
        //   (i,2) best: (2,2) {1,0} k1; (3,2) {1,1} k2; (4,2) {2,1} k3 (tie k2/k3); (5,2) {2,2} k3;
        //   (6,2) {3,2} k4 (tie k3/k4); (7,2) {3,3} k4; (8,2) {4,3} k5; (9,2) {4,4} k5.
        //   (10,3): k=5 {4,2} 2; k=6 {3,2} 1; k=7 {3,2} 1 → k=7; k=8 {4,1} 3; k=9 {4,0} 4.
        //   Back: (10,3)→7, (7,2)→4, (4,1)→0 → [0,4,7,10]
        QTest::newRow("binary weights into 3")
            << std::vector<double>{0, 1, 1, 1, 1, 1, 1, 1, 1, 0} << 3 << std::vector<int>{0, 4, 7, 10};
        // The same binary weights into 2: S10 = 8, (10,2) cost |2·S_k − 8| is 0 only at k=5 → [0,5,10].
        QTest::newRow("binary weights into 2")
            << std::vector<double>{0, 1, 1, 1, 1, 1, 1, 1, 1, 0} << 2 << std::vector<int>{0, 5, 10};
        // Weights far above 2^31 (parameter counts): [100M,10M×8,100M] into 4 scales the verified example by
        //   10^6; every prefix sum and difference is an exact integer in a double, so the choice is the same.
        QTest::newRow("parameter counts") << std::vector<double>{1e8, 1e7, 1e7, 1e7, 1e7, 1e7, 1e7, 1e7, 1e7, 1e8} << 4
                                          << std::vector<int>{0, 1, 5, 9, 10};
    }
    void balanced()
    {
        QFETCH(std::vector<double>, weights);
        QFETCH(int, parts);
        QFETCH(std::vector<int>, expected);
        QCOMPARE(partitionBalanced(weights, parts), expected);
    }

    void boundariesCoverEveryItem()
    {
        // Whatever the weights, p+1 non-decreasing boundaries from 0 to n.
        const std::vector<double> weights{7, 3, 9, 1, 1, 4, 8, 2, 6, 5, 3};
        for (int p = 1; p <= 13; ++p) {
            const auto parts = partitionBalanced(weights, p);
            QCOMPARE(parts.size(), std::size_t(p + 1));
            QCOMPARE(parts.front(), 0);
            QCOMPARE(parts.back(), 11);
            QVERIFY(std::is_sorted(parts.begin(), parts.end()));
        }
    }

    // The skipped unreachable cells and the kept "last least cost" choice change nothing: random weights of
    // every kind the wizard passes (parameter counts with ties, binary type: weights, zeros), all sizes.
    void agreesWithTheLiteralAlgorithm()
    {
        std::mt19937_64 random(20261201);
        for (int round = 0; round < 400; ++round) {
            const int n = 1 + static_cast<int>(random() % 40);
            const int m = 1 + static_cast<int>(random() % 12);
            std::vector<double> weights(static_cast<std::size_t>(n));
            for (auto& w : weights) {
                switch (round % 4) {
                case 0: w = static_cast<double>(random() % 4); break;                  // many ties
                case 1: w = static_cast<double>(random() % 2); break;                  // type: weights
                case 2: w = static_cast<double>(random() % 200'000'000'000ULL); break; // parameter counts
                default: w = (random() % 3 == 0 ? 6.4e8 : 2.0e8); break;               // embedding / block sizes
                }
            }
            QCOMPARE(partitionBalanced(weights, m), literalPartitionBalanced(weights, m));
        }
    }

    void workCountsTheSplitsTried()
    {
        QCOMPARE(balancedPartitionWork(5, 5), std::int64_t{0});             // n <= m: uniform
        QCOMPARE(balancedPartitionWork(10, 1), std::int64_t{0});            // one part: level 1 only, linear
        QCOMPARE(balancedPartitionWork(5, 3), std::int64_t{2 * 3 * 4 / 2}); // (m − 1)(n − m + 1)(n − m + 2)/2
        QCOMPARE(balancedPartitionWork(6, 3), std::int64_t{2 * 4 * 5 / 2});
        QCOMPARE(balancedPartitionWork(10002, 8), std::int64_t{7} * 9995 * 9996 / 2);
        QCOMPARE(balancedPartitionWork(std::int64_t{1} << 40, std::int64_t{1} << 30),
                 std::numeric_limits<std::int64_t>::max());
        QVERIFY(balancedPartitionWork(10002, 8) <= kMaxBalancedPartitionWork); // the command line computes it
        QVERIFY(balancedPartitionWork(10002, 1024) > kMaxBalancedPartitionWork);
        QVERIFY(balancedPartitionWork(10002, 1024) <= kMaxBackgroundPartitionWork); // a worker does
        QVERIFY(balancedPartitionWork(1000, 8) <= kFramePartitionWork);
    }

    // DeepSpeed's loop runs k over range(i) for every j in 1..min(i, m), for every i in 1..n: counted by brute
    // force against the closed form.
    void deepSpeedIterationsCountItsLoop()
    {
        for (std::int64_t n = 0; n <= 40; ++n)
            for (std::int64_t m = 1; m <= 12; ++m) {
                std::int64_t loops = 0;
                if (n > m)
                    for (std::int64_t i = 1; i <= n; ++i)
                        loops += i * std::min(i, m);
                QCOMPARE(deepSpeedPartitionIterations(n, m), loops);
            }
        QCOMPARE(deepSpeedPartitionIterations(10002, 8), std::int64_t{8 * 9 * 17 / 6} + 8LL * 9994 * 10011 / 2);
        QCOMPARE(deepSpeedPartitionIterations(std::int64_t{1} << 40, std::int64_t{1} << 30),
                 std::numeric_limits<std::int64_t>::max());
        QCOMPARE(deepSpeedPartitionIterations(5, 0), std::int64_t{0});
    }

    void rejectsNoParts()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, partitionUniform(4, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, partitionBalanced({1, 2}, 0));
    }
};

QTEST_APPLESS_MAIN(TestPipelinePartition)
#include "TestPipelinePartition.moc"
