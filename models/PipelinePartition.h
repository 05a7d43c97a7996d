#pragma once
#include <vector>

namespace dsw {

// DeepSpeed's own layer partitioning (runtime/utils.py, v0.19.5), reproduced exactly, ties included.
// Both return num_parts + 1 boundaries; stage s owns layers [parts[s], parts[s+1]).
std::vector<int> partitionUniform(int numItems, int numParts);
std::vector<int> partitionBalanced(const std::vector<double>& weights, int numParts);

} // namespace dsw
