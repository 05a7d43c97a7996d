// DeepSpeed v0.19.5's layer partitioning (runtime/utils.py#L606-L665, deepspeed-facts §2.9), written from
// the transcribed algorithm. The details that decide ties are kept on purpose: prefix sums in doubles,
// states that start at +∞, and a candidate that replaces the state when the current cost is >= its own.
#include "PipelinePartition.h"

#include <algorithm>
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

std::vector<int> partitionBalanced(const std::vector<double>& weights, int numParts)
{
    if (numParts < 1)
        throw std::invalid_argument("partitionBalanced: numParts must be >= 1");
    const int n = static_cast<int>(weights.size());
    const int m = numParts;
    if (n <= m)
        return partitionUniform(n, m);

    constexpr double inf = std::numeric_limits<double>::infinity();
    struct State {
        double largest = inf;
        double smallest = inf;
        double cost = inf;
        int split = 0;
    };
    const auto width = static_cast<std::size_t>(m) + 1;
    std::vector<State> table((static_cast<std::size_t>(n) + 1) * width);
    auto at = [&](int items, int partsUsed) -> State& {
        return table[static_cast<std::size_t>(items) * width + static_cast<std::size_t>(partsUsed)];
    };

    // Sequential accumulation in doubles, as numpy's cumsum stored into a float64 array.
    std::vector<double> prefix(static_cast<std::size_t>(n) + 1, 0.0);
    for (int i = 0; i < n; ++i)
        prefix[static_cast<std::size_t>(i) + 1] = prefix[static_cast<std::size_t>(i)] + weights[static_cast<std::size_t>(i)];

    at(0, 0).largest = 0;
    at(0, 0).cost = 0;
    for (int i = 1; i <= n; ++i) {
        for (int j = 1; j <= std::min(i, m); ++j) {
            State& state = at(i, j);
            for (int k = 0; k < i; ++k) {
                const State& before = at(k, j - 1);
                const double part = prefix[static_cast<std::size_t>(i)] - prefix[static_cast<std::size_t>(k)];
                const double largest = std::max(before.largest, part);
                const double smallest = std::min(before.smallest, part);
                const double cost = largest - smallest;
                if (state.cost >= cost) { // >=: an equal cost from a later split point wins
                    state = {largest, smallest, cost, k};
                }
            }
        }
    }

    std::vector<int> parts{n};
    for (int j = m; j >= 1; --j)
        parts.push_back(at(parts.back(), j).split);
    std::reverse(parts.begin(), parts.end());
    return parts;
}

} // namespace dsw
