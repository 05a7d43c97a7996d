// The memo of balanced partitions (models/estimate/PartitionMemo.h): one computation per distinct input, the
// same object on every hit, results identical to partitionBalanced's, bounded, safe between threads.
#include "estimate/PartitionMemo.h"
#include "estimate/PipelinePartition.h"

#include <QTest>

#include <random>
#include <stdexcept>
#include <thread>

using namespace dsw;

namespace {

BalancedPartitionInput randomInput(std::mt19937_64& random)
{
    BalancedPartitionInput in;
    in.weights.resize(1 + random() % 60);
    in.parts = 1 + static_cast<int>(random() % 16);
    for (auto& w : in.weights)
        w = random() % 2 ? static_cast<double>(random() % 3) : static_cast<double>(random() % 200'000'000'000ULL);
    return in;
}

} // namespace

class TestPartitionMemo : public QObject {
    Q_OBJECT
private slots:
    void aHitComputesNothingAndReturnsTheSameObject()
    {
        PartitionMemo memo;
        const BalancedPartitionInput in{{100, 10, 10, 10, 10, 10, 10, 10, 10, 100}, 4};
        QVERIFY(!memo.find(in));
        const auto first = memo.compute(in);
        QCOMPARE(memo.computations(), std::uint64_t{1});
        QCOMPARE(*first, (std::vector<int>{0, 1, 5, 9, 10})); // deepspeed-facts §2.9 [verified]
        const auto second = memo.compute(in);
        QCOMPARE(memo.computations(), std::uint64_t{1}); // no recompute
        QCOMPARE(second.get(), first.get());             // the same object
        QCOMPARE(memo.find(in).get(), first.get());
        QCOMPARE(memo.size(), std::size_t{1});
    }

    // Another stage count, or one weight differing in its last bit, is another input.
    void distinctInputsAreDistinctEntries()
    {
        PartitionMemo memo;
        const BalancedPartitionInput in{{5, 1, 1, 1, 1, 1, 1, 5}, 3};
        BalancedPartitionInput moreParts = in, nudged = in;
        moreParts.parts = 4;
        nudged.weights[3] = std::nextafter(1.0, 2.0);
        memo.compute(in);
        memo.compute(moreParts);
        memo.compute(nudged);
        QCOMPARE(memo.computations(), std::uint64_t{3});
        QCOMPARE(*memo.find(in), (std::vector<int>{0, 2, 7, 8}));
        QCOMPARE(*memo.find(moreParts), partitionBalanced(moreParts.weights, 4));
        QCOMPARE(*memo.find(nudged), partitionBalanced(nudged.weights, 3));
    }

    // Through the memo, hit or miss, every result is the uncached implementation's, byte for byte.
    void resultsAreTheUncachedOnes()
    {
        PartitionMemo memo(4);
        std::mt19937_64 random(20261202);
        std::vector<BalancedPartitionInput> inputs;
        for (int i = 0; i < 300; ++i)
            inputs.push_back(randomInput(random));
        for (int round = 0; round < 3; ++round) // later rounds mix hits (recent inputs) and evicted ones
            for (std::size_t i = 0; i < inputs.size(); ++i) {
                const auto& in = inputs[(i * 7 + static_cast<std::size_t>(round)) % inputs.size()];
                QCOMPARE(*memo.compute(in), partitionBalanced(in.weights, in.parts));
            }
    }

    void boundedLeastRecentlyUsedFirst()
    {
        PartitionMemo memo(2);
        const BalancedPartitionInput a{{1, 2, 3}, 2}, b{{3, 2, 1}, 2}, c{{2, 2, 2}, 2};
        memo.compute(a);
        memo.compute(b);
        memo.find(a); // a is now the more recent
        memo.compute(c);
        QCOMPARE(memo.size(), std::size_t{2});
        QVERIFY(memo.find(a));
        QVERIFY(!memo.find(b));
        QVERIFY(memo.find(c));
    }

    // A result stored by a worker is what the plan then finds; a second store keeps the first object.
    void storeKeepsTheFirstResult()
    {
        PartitionMemo memo;
        const BalancedPartitionInput in{{1, 1, 1}, 2};
        const auto stored = memo.store(in, partitionBalanced(in.weights, in.parts));
        QCOMPARE(memo.store(in, partitionBalanced(in.weights, in.parts)).get(), stored.get());
        QCOMPARE(memo.compute(in).get(), stored.get());
        QCOMPARE(memo.computations(), std::uint64_t{0});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, memo.store(in, {0, 3}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, memo.compute({{1, 2}, 0}));
        QCOMPARE(memo.size(), std::size_t{1});
    }

    // Threads computing the same inputs at once all get the uncached result and, per input, one object.
    void threadsShareOneObjectPerInput()
    {
        PartitionMemo memo(16);
        std::mt19937_64 random(7);
        std::vector<BalancedPartitionInput> inputs;
        for (int i = 0; i < 8; ++i)
            inputs.push_back(randomInput(random));
        std::vector<std::vector<std::shared_ptr<const std::vector<int>>>> seen(4);
        std::vector<std::thread> threads;
        for (std::size_t t = 0; t < seen.size(); ++t)
            threads.emplace_back([&, t] {
                for (int r = 0; r < 50; ++r)
                    for (const auto& in : inputs)
                        seen[t].push_back(memo.compute(in));
            });
        for (auto& t : threads)
            t.join();
        for (const auto& perThread : seen)
            for (std::size_t k = 0; k < perThread.size(); ++k) {
                const auto& in = inputs[k % inputs.size()];
                QCOMPARE(*perThread[k], partitionBalanced(in.weights, in.parts));
                QCOMPARE(perThread[k].get(), memo.find(in).get());
            }
        QVERIFY(memo.computations() >= inputs.size());
        QVERIFY(memo.computations() <= inputs.size() * seen.size()); // at most one per thread that missed
    }

    // A cancelled computation stops and returns nothing; one that is not cancelled is the usual result.
    void cancelledPartitionReturnsNothing()
    {
        const std::vector<double> weights(400, 1.0);
        std::atomic<bool> cancelled{true};
        QVERIFY(partitionBalanced(weights, 8, cancelled).empty());
        cancelled = false;
        QCOMPARE(partitionBalanced(weights, 8, cancelled), partitionBalanced(weights, 8));
    }
};

QTEST_APPLESS_MAIN(TestPartitionMemo)
#include "TestPartitionMemo.moc"
