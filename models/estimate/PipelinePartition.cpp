// DeepSpeed v0.19.5's layer partitioning (runtime/utils.py#L606-L665, deepspeed-facts §2.9), written from
// the transcribed algorithm. The details that decide ties are kept on purpose: prefix sums in doubles,
// states that start at +∞, and a candidate that replaces the state when the current cost is >= its own.
#include "estimate/PipelinePartition.h"

#include "util/CheckedMath.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace dsw {

std::vector<int> partitionUniform(int numItems, int numParts)
{
    if (numParts < 1 || numItems < 0)
        throw std::invalid_argument("partitionUniform: numParts must be >= 1 and numItems >= 0");
    std::vector<int> parts(static_cast<std::size_t>(numParts) + 1);
    if (numItems <= numParts) { // trailing parts stay empty
        for (int i = 0; i <= numParts; ++i)
            parts[static_cast<std::size_t>(i)] = std::min(i, numItems);
        return parts;
    }
    const int chunk = numItems / numParts;
    const int residual = numItems - chunk * numParts;
    // The first `residual` parts get one extra item: boundary i is raised once per extra part before it.
    for (int i = 0; i <= numParts; ++i)
        parts[static_cast<std::size_t>(i)] = i * chunk + std::min(i, residual);
    return parts;
}

std::int64_t balancedPartitionWork(std::int64_t numItems, std::int64_t numParts)
{
    if (numParts < 1 || numItems <= numParts)
        return 0;
    const std::int64_t spare = numItems - numParts;
    const std::int64_t pairs = spare % 2 == 0 ? mulSat(spare + 1, spare / 2 + 1) : mulSat((spare + 1) / 2, spare + 2);
    return mulSat(numParts - 1, pairs); // (spare + 1)(spare + 2)/2 splits per level after the first
}

std::int64_t deepSpeedPartitionIterations(std::int64_t n, std::int64_t m)
{
    if (m < 1 || n <= m)
        return 0;
    // Rows i <= m loop i·i times, rows i > m loop i·m times: m(m+1)(2m+1)/6 + m(n − m)(n + m + 1)/2.
    const std::int64_t firstRows = mulSat(m, m + 1, 2 * m + 1) / 6;
    const std::int64_t a = n - m, b = n + m + 1; // one of them is even: their sum is odd
    const std::int64_t laterRows = mulSat(m, a % 2 == 0 ? mulSat(a / 2, b) : mulSat(a, b / 2));
    return addSat(firstRows, laterRows);
}

// DeepSpeed fills an (n+1) × (m+1) table with a loop over every split k < i for every cell (i, j).
// This computes the same states and picks the same splits, with less work:
//  - cells (k, j−1) with k < j−1 (and (k, 0) with k > 0) are never reached and stay at +∞; a candidate
//    from them costs +∞, so it is replaced by the first candidate from a reached cell, which is finite:
//    they are skipped;
//  - cells (i, j) with i > n − (m − j) cannot be on the path back from (n, m): they are not computed;
//  - "replace when state.cost >= cost", in k order, ends at the last k of least cost: that is what
//    is kept, without writing the intermediate states.
// Costs are computed from the same doubles in the same order, so every comparison is DeepSpeed's.
namespace {

std::vector<int> balanced(const std::vector<double>& weights, int numParts, const std::atomic<bool>* cancelled)
{
    if (numParts < 1)
        throw std::invalid_argument("partitionBalanced: numParts must be >= 1");
    const int n = static_cast<int>(weights.size());
    const int m = numParts;
    if (n <= m)
        return partitionUniform(n, m);

    // Sequential accumulation in doubles, as numpy's cumsum stored into a float64 array.
    std::vector<double> prefix(static_cast<std::size_t>(n) + 1, 0.0);
    for (int i = 0; i < n; ++i)
        prefix[static_cast<std::size_t>(i) + 1] =
            prefix[static_cast<std::size_t>(i)] + weights[static_cast<std::size_t>(i)];

    const int spare = n - m; // level j needs the cells i = j .. j + spare
    const auto rowSize = static_cast<std::size_t>(spare) + 1;
    // largest/smallest of the cells of the previous level, indexed by items; split[j][i − j] of every level.
    std::vector<double> largest(static_cast<std::size_t>(n) + 1), smallest(static_cast<std::size_t>(n) + 1);
    std::vector<double> nextLargest(largest.size()), nextSmallest(smallest.size());
    std::vector<int> split((static_cast<std::size_t>(m) + 1) * rowSize, 0);
    auto splitAt = [&](int items, int partsUsed) -> int& {
        return split[static_cast<std::size_t>(partsUsed) * rowSize + static_cast<std::size_t>(items - partsUsed)];
    };

    // Level 1: of the cells (k, 0) only (0, 0) is reached, with largest 0, smallest +∞ and cost 0.
    for (int i = 1; i <= 1 + spare; ++i) {
        const double part = prefix[static_cast<std::size_t>(i)];
        largest[static_cast<std::size_t>(i)] = std::max(0.0, part);
        smallest[static_cast<std::size_t>(i)] = std::min(std::numeric_limits<double>::infinity(), part);
        splitAt(i, 1) = 0;
    }
    for (int j = 2; j <= m; ++j) {
        for (int i = j; i <= j + spare; ++i) {
            if (cancelled && cancelled->load(std::memory_order_relaxed)) // once per cell: a row of splits at most
                return {};
            const double total = prefix[static_cast<std::size_t>(i)];
            double bestCost = std::numeric_limits<double>::infinity();
            int bestSplit = j - 1;
            for (int k = j - 1; k < i; ++k) { // the hot loop: kept free of branches
                const auto kk = static_cast<std::size_t>(k);
                const double part = total - prefix[kk];
                const double cost = std::max(largest[kk], part) - std::min(smallest[kk], part);
                const bool better = bestCost >= cost; // >=: an equal cost from a later split point wins
                bestCost = better ? cost : bestCost;
                bestSplit = better ? k : bestSplit;
            }
            const auto best = static_cast<std::size_t>(bestSplit);
            const double part = total - prefix[best];
            nextLargest[static_cast<std::size_t>(i)] = std::max(largest[best], part);
            nextSmallest[static_cast<std::size_t>(i)] = std::min(smallest[best], part);
            splitAt(i, j) = bestSplit;
        }
        largest.swap(nextLargest);
        smallest.swap(nextSmallest);
    }

    std::vector<int> parts{n};
    for (int j = m; j >= 1; --j)
        parts.push_back(splitAt(parts.back(), j));
    std::reverse(parts.begin(), parts.end());
    return parts;
}

} // namespace

std::vector<int> partitionBalanced(const std::vector<double>& weights, int numParts)
{
    return balanced(weights, numParts, nullptr);
}

std::vector<int> partitionBalanced(const std::vector<double>& weights, int numParts, const std::atomic<bool>& cancelled)
{
    return balanced(weights, numParts, &cancelled);
}

} // namespace dsw
