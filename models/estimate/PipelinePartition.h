#pragma once
#include <cstdint>
#include <vector>

namespace dsw {

// DeepSpeed's own layer partitioning (runtime/utils.py, v0.19.5), reproduced exactly, ties included.
// Both return num_parts + 1 boundaries; stage s owns layers [parts[s], parts[s+1]).
std::vector<int> partitionUniform(int numItems, int numParts);
std::vector<int> partitionBalanced(const std::vector<double>& weights, int numParts);

// The candidate splits partitionBalanced evaluates for `numItems` items into `numParts` parts:
// (m − 1)(n − m + 1)(n − m + 2)/2, 0 when n <= m (the uniform fallback). Its work grows as n²·m.
std::int64_t balancedPartitionWork(std::int64_t numItems, std::int64_t numParts);
// The most candidate splits the wizard computes (about 0.2 s on one core; e.g. 1 000 layers into 256
// stages, 2 500 into 64, 7 500 into 8). Above it the balanced partition is refused with a message.
inline constexpr std::int64_t kMaxBalancedPartitionWork = 200'000'000;

} // namespace dsw
