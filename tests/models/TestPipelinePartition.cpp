// DeepSpeed's layer partitioning (models/PipelinePartition.h), against the worked examples of
// deepspeed-facts §2.9 (run there on the unmodified v0.19.5 runtime/utils.py) and against small cases
// derived by hand below. Notation for the hand runs of partition_balanced: S = prefix sums,
// (i,j) = best split of the first i items into j parts, kept as {largest, smallest} part sums;
// cost = largest − smallest; a candidate replaces the state when the state's cost >= its cost, so the
// later split point k wins a tie; states never reached stay at +∞ and are overwritten by anything.
#include "PipelinePartition.h"

#include <QTest>

#include <stdexcept>

using namespace dsw;

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
        QTest::newRow("[5,1,1,1,1,1,1,5] into 3") << std::vector<double>{5, 1, 1, 1, 1, 1, 1, 5} << 3
                                                  << std::vector<int>{0, 2, 7, 8};
        QTest::newRow("[1..9] into 3") << std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9} << 3 << std::vector<int>{0, 5, 7, 9};
        QTest::newRow("[100,10x8,100] into 4") << std::vector<double>{100, 10, 10, 10, 10, 10, 10, 10, 10, 100} << 4
                                               << std::vector<int>{0, 1, 5, 9, 10};

        // n <= p falls back to partition_uniform(n, p).
        QTest::newRow("[3,3] into 2: uniform") << std::vector<double>{3, 3} << 2 << std::vector<int>{0, 1, 2};
        QTest::newRow("[1,1] into 3: uniform, last empty") << std::vector<double>{1, 1} << 3 << std::vector<int>{0, 1, 2, 2};
        QTest::newRow("[] into 2: uniform") << std::vector<double>{} << 2 << std::vector<int>{0, 0, 0};

        // [3,1,2] into 1: (3,1) k=0 from (0,0) costs 0; k=1,2 come from unreached (k,0) at +∞ and lose.
        QTest::newRow("[3,1,2] into 1") << std::vector<double>{3, 1, 2} << 1 << std::vector<int>{0, 3};

        // [1,1,1] into 2: S = 0,1,2,3. (3,2): k=0 +∞; k=1 {2,1} cost 1; k=2 {2,1} cost 1, tie → k=2.
        //   (2,1) split 0 → [0,2,3]
        QTest::newRow("[1,1,1] into 2: tie to the later split") << std::vector<double>{1, 1, 1} << 2
                                                                 << std::vector<int>{0, 2, 3};
        // [1,2,1] into 2: S = 0,1,3,4. (3,2): k=1 {3,1} cost 2; k=2 {3,1} cost 2, tie → k=2 → [0,2,3]
        //   (with ">" instead of ">=" it would be [0,1,3]).
        QTest::newRow("[1,2,1] into 2: tie to the later split") << std::vector<double>{1, 2, 1} << 2
                                                                 << std::vector<int>{0, 2, 3};
        // [0,0,0,0] into 2: every (i,1) = {0,0} split 0; (4,2): k=1,2,3 all cost 0 → k=3 → [0,3,4].
        QTest::newRow("all zero weights") << std::vector<double>{0, 0, 0, 0} << 2 << std::vector<int>{0, 3, 4};
        // [2,1,1,2] into 2: S = 0,2,3,4,6. (4,2): k=1 {4,2} 2; k=2 {3,3} 0; k=3 {4,2} 2 → k=2 → [0,2,4].
        QTest::newRow("[2,1,1,2] into 2") << std::vector<double>{2, 1, 1, 2} << 2 << std::vector<int>{0, 2, 4};
        // [1]*5 into 3: S = 0..5. (2,2) {1,1} k1; (3,2): k1 {2,1} 1, k2 {2,1} 1 → k2; (4,2): k2 {2,2} 0 → k2.
        //   (5,3): k=1 from unreached (1,2): +∞; k=2 (2,2)+3 → {3,1} 2; k=3 (3,2)+2 → {2,1} 1;
        //   k=4 (4,2)+1 → {2,1} 1, tie → k=4. Back: (5,3)→4, (4,2)→2, (2,1)→0 → [0,2,4,5]
        //   (">" would give k=3, then (3,2)→1: [0,1,3,5]).
        QTest::newRow("[1]*5 into 3: tie in the last part") << std::vector<double>(5, 1.0) << 3
                                                             << std::vector<int>{0, 2, 4, 5};
        // [100,10,10,10,10,100] into 3 (embedding, 4 blocks, head): S = 0,100,110,120,130,140,240.
        //   (i,2): (2,2) {100,10} k1; (3,2) {100,20} k1; (4,2) {100,30} k1; (5,2) {100,40} k1.
        //   (6,3): k=2 {130,10} 120; k=3 {120,20} 100; k=4 {110,30} 80; k=5 {100,40} 60 → k=5 → [0,1,5,6]
        QTest::newRow("embedding, 4 blocks, head into 3") << std::vector<double>{100, 10, 10, 10, 10, 100} << 3
                                                           << std::vector<int>{0, 1, 5, 6};
        // type:transformer weights over embedding, 8 blocks, head: [0,1×8,0] into 3, S_i = max(0, min(i−1, 8)).
        //   (i,2) best: (2,2) {1,0} k1; (3,2) {1,1} k2; (4,2) {2,1} k3 (tie k2/k3); (5,2) {2,2} k3;
        //   (6,2) {3,2} k4 (tie k3/k4); (7,2) {3,3} k4; (8,2) {4,3} k5; (9,2) {4,4} k5.
        //   (10,3): k=5 {4,2} 2; k=6 {3,2} 1; k=7 {3,2} 1 → k=7; k=8 {4,1} 3; k=9 {4,0} 4.
        //   Back: (10,3)→7, (7,2)→4, (4,1)→0 → [0,4,7,10]
        QTest::newRow("binary weights into 3") << std::vector<double>{0, 1, 1, 1, 1, 1, 1, 1, 1, 0} << 3
                                                << std::vector<int>{0, 4, 7, 10};
        // The same binary weights into 2: S10 = 8, (10,2) cost |2·S_k − 8| is 0 only at k=5 → [0,5,10].
        QTest::newRow("binary weights into 2") << std::vector<double>{0, 1, 1, 1, 1, 1, 1, 1, 1, 0} << 2
                                                << std::vector<int>{0, 5, 10};
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

    void rejectsNoParts()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, partitionUniform(4, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, partitionBalanced({1, 2}, 0));
    }
};

QTEST_APPLESS_MAIN(TestPipelinePartition)
#include "TestPipelinePartition.moc"
