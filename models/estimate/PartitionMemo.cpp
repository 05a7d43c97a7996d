// A few entries (one per pipeline the user tried recently), each up to 10 002 weights: a linear scan over
// hashes is cheaper than the comparison it avoids.
#include "estimate/PartitionMemo.h"

#include "estimate/PipelinePartition.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace dsw {

namespace {

std::size_t hashOf(const BalancedPartitionInput& input)
{
    std::uint64_t h = 1469598103934665603ULL ^ static_cast<std::uint64_t>(input.parts); // FNV-1a over the bits
    for (const double w : input.weights) {
        h ^= std::bit_cast<std::uint64_t>(w);
        h *= 1099511628211ULL;
    }
    return static_cast<std::size_t>(h);
}

} // namespace

PartitionMemo::PartitionMemo(std::size_t capacity)
    : m_capacity(std::max<std::size_t>(1, capacity))
{
}

PartitionMemo& PartitionMemo::shared()
{
    static PartitionMemo memo;
    return memo;
}

std::shared_ptr<const std::vector<int>> PartitionMemo::findLocked(std::size_t hash, const BalancedPartitionInput& input)
{
    for (auto& e : m_entries)
        if (e.hash == hash && e.input == input) {
            e.lastUse = ++m_clock;
            return e.parts;
        }
    return nullptr;
}

std::shared_ptr<const std::vector<int>> PartitionMemo::find(const BalancedPartitionInput& input)
{
    const std::size_t hash = hashOf(input);
    const std::lock_guard lock(m_mutex);
    return findLocked(hash, input);
}

std::shared_ptr<const std::vector<int>> PartitionMemo::compute(const BalancedPartitionInput& input)
{
    if (auto hit = find(input))
        return hit;
    std::vector<int> parts = partitionBalanced(input.weights, input.parts); // may throw: nothing is stored
    {
        const std::lock_guard lock(m_mutex);
        ++m_computations;
    }
    return store(input, std::move(parts));
}

std::shared_ptr<const std::vector<int>> PartitionMemo::store(const BalancedPartitionInput& input,
                                                             std::vector<int> parts)
{
    if (parts.size() != static_cast<std::size_t>(input.parts) + 1)
        throw std::invalid_argument("PartitionMemo::store: a partition into p parts has p + 1 boundaries");
    const std::size_t hash = hashOf(input);
    const std::lock_guard lock(m_mutex);
    if (auto kept = findLocked(hash, input)) // another thread stored it first: every caller sees one object
        return kept;
    if (m_entries.size() >= m_capacity)
        m_entries.erase(std::min_element(m_entries.begin(), m_entries.end(),
                                         [](const Entry& a, const Entry& b) { return a.lastUse < b.lastUse; }));
    auto shared = std::make_shared<const std::vector<int>>(std::move(parts));
    m_entries.push_back({hash, input, shared, ++m_clock});
    return shared;
}

std::uint64_t PartitionMemo::computations() const
{
    const std::lock_guard lock(m_mutex);
    return m_computations;
}

std::size_t PartitionMemo::size() const
{
    const std::lock_guard lock(m_mutex);
    return m_entries.size();
}

void PartitionMemo::clear()
{
    const std::lock_guard lock(m_mutex);
    m_entries.clear();
}

} // namespace dsw
