#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

namespace dsw {

// DeepSpeed's own layer partitioning (runtime/utils.py, v0.19.5), reproduced exactly, ties included.
// Both return num_parts + 1 boundaries; stage s owns layers [parts[s], parts[s+1]).
std::vector<int> partitionUniform(int numItems, int numParts);
std::vector<int> partitionBalanced(const std::vector<double>& weights, int numParts);
// The same, stopping early when `cancelled` becomes true (checked before each table cell past the first stage):
// then it returns an empty vector. For a worker whose input went stale.
std::vector<int> partitionBalanced(const std::vector<double>& weights, int numParts,
                                   const std::atomic<bool>& cancelled);

// The candidate splits partitionBalanced evaluates for `numItems` items into `numParts` parts:
// (m − 1)(n − m + 1)(n − m + 2)/2, 0 when n <= m (the uniform fallback). Its work grows as n²·m.
std::int64_t balancedPartitionWork(std::int64_t numItems, std::int64_t numParts);

// Measured cost of partitionBalanced (CPU time, RelWithDebInfo, the 2-core AMD EPYC development machine shared
// with other builds): 0.65–1.9 ns per candidate split, from 1 000 × 8 to 3 002 × 1 024 layers × stages.
// The most splits computed where the answer is wanted now (the window's thread): 3–10 ms, under a frame.
inline constexpr std::int64_t kFramePartitionWork = 5'000'000;
// The most a caller that waits computes itself (the command line; 1.3–3.8 s: 10 002 layers into up to 16
// stages, 3 000 into 1 024). Above it the plan shows the uniform partition and DeepSpeed's own cost instead.
inline constexpr std::int64_t kMaxBalancedPartitionWork = 2'000'000'000;
// The most a background worker computes (1–3 minutes; 10 002 layers into 1 024 stages is 4.1e10 splits).
inline constexpr std::int64_t kMaxBackgroundPartitionWork = 100'000'000'000;

// The iterations of DeepSpeed's own partition_balanced, which loops over every split k < i for every cell
// (i, j ≤ min(i, m)) of its table: Σ_i i·min(i, m); 0 when n <= m (it returns partition_uniform).
std::int64_t deepSpeedPartitionIterations(std::int64_t numItems, std::int64_t numParts);
// The wizard's assumption for how fast DeepSpeed runs that loop (Python over numpy scalars): measured with
// DeepSpeed 0.19.5's partition_balanced under /usr/bin/python3 3.11.2, numpy 1.24.2, on the development machine
// at 0.69–0.75 million iterations per second (n = 200…600, m = 8…32). Its seconds are iterations / rate.
inline constexpr double kDeepSpeedPartitionIterationsPerSecond = 700'000.0;
// Above this many seconds of DeepSpeed's own partitioning (at engine start, in every process) the pipeline page
// says so and suggests "uniform" or "type:" (the wizard's own threshold).
inline constexpr double kSlowDeepSpeedPartitionSeconds = 60.0;

} // namespace dsw
