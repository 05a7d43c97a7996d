#pragma once
#include "estimate/PipelinePartition.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace dsw {

// What partitionBalanced is asked: the layer weights and the number of stages.
struct BalancedPartitionInput {
    std::vector<double> weights;
    int parts = 1;
    bool operator==(const BalancedPartitionInput&) const = default;
};

// How much partitioning a caller does when the memo does not hold the partition: the splits it computes on its
// own thread, and those a worker of its own computes later (0: it has none). The default is the command line's.
struct PartitionPolicy {
    std::int64_t computeNow = kMaxBalancedPartitionWork;
    std::int64_t computeLater = 0;
};
// The window's: nothing longer than a frame on its thread, the rest on a worker.
inline constexpr PartitionPolicy kWindowPartitionPolicy{kFramePartitionWork, kMaxBackgroundPartitionWork};

// The balanced partitions already computed, one per distinct input (weights compared exactly, bit for bit as
// doubles compare), so that recomputing the same plan costs a lookup. Bounded: the least recently used entry
// goes first. Thread-safe: the window's thread reads it while a worker stores a result.
class PartitionMemo {
public:
    explicit PartitionMemo(std::size_t capacity = 8);
    PartitionMemo(const PartitionMemo&) = delete;
    PartitionMemo& operator=(const PartitionMemo&) = delete;

    // The one every plan uses.
    static PartitionMemo& shared();

    // The stored partition for `input`, or null; the same object on every hit.
    std::shared_ptr<const std::vector<int>> find(const BalancedPartitionInput& input);
    // find, else partitionBalanced (outside the lock) stored and returned.
    std::shared_ptr<const std::vector<int>> compute(const BalancedPartitionInput& input);
    // Stores a partition computed elsewhere (a worker); keeps an entry already there.
    std::shared_ptr<const std::vector<int>> store(const BalancedPartitionInput& input, std::vector<int> parts);

    // How many partitions compute() has run (a test hook: a hit runs none).
    std::uint64_t computations() const;
    std::size_t size() const;
    void clear();

private:
    struct Entry {
        std::size_t hash = 0;
        BalancedPartitionInput input;
        std::shared_ptr<const std::vector<int>> parts;
        std::uint64_t lastUse = 0;
    };
    std::shared_ptr<const std::vector<int>> findLocked(std::size_t hash, const BalancedPartitionInput& input);

    mutable std::mutex m_mutex;
    std::size_t m_capacity;
    std::vector<Entry> m_entries;
    std::uint64_t m_clock = 0;
    std::uint64_t m_computations = 0;
};

} // namespace dsw
