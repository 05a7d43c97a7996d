#pragma once
#include "knowledge/NetworkCatalog.h"
#include "project/Answers.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dsw {

// The wizard's own assumptions, stated wherever they are shown: 40% model FLOPs utilisation (below the
// 41–48% Megatron-LM reports for tuned H100 runs, source megatron-mfu), and freeze_step at 20% of the
// total steps (the middle of the 1-bit Adam tutorial's "15-25%").
inline constexpr double kOnebitAssumedMfu = 0.40;
inline constexpr double kOnebitWarmupShare = 0.20;

// One optimizer step of data-parallel training: the gradient all-reduce over the inter-node network
// against the compute, and what 1-bit compression would leave of the all-reduce.
//   all-reduce = 2 × Ψ × min(1, G/p) × b / (Gbit/s × 1e9 / 8)    (ZeRO paper §7.1: standard DP moves 2Ψ)
//   compute    = 6 × Ψ × tokens / p / (peak TFLOPS × 1e12 × MFU)   (Kaplan et al.: C ≈ 6N per token)
//   compressed = all-reduce × (w + (1 − w) / (8·b)), w = freeze_step / total steps (1-bit Adam blog)
struct OnebitCost {
    std::int64_t nodes = 1, gpusPerNode = 1, stages = 1, dataParallel = 1;
    double gbps = 0;
    const NetworkSpec* network = nullptr; // set when the bandwidth came from networks.tsv
    std::string precision;                // what DeepSpeed runs: fp16, bf16 or fp32
    double bytesPerElement = 2;
    double nodeShare = 1;             // share of Ψ whose gradients leave each node: min(1, G/p)
    double allreduce = 0;             // seconds per step; 0 on one node or with one replica
    double tokens = 0;                // per GPU per optimizer step: micro-batch × accumulation × sequence
    std::optional<double> peakTflops; // dense 16-bit figure from the GPU catalog, when it has one
    std::optional<double> compute;    // seconds per step
    std::int64_t freezeStep = 1;
    double warmup = kOnebitWarmupShare; // freeze_step / total steps
    double compression = 16;            // compression-stage volume ratio: bits per element → 1 bit
    double compressedStage = 0;         // all-reduce / compression
    double compressedAverage = 0;       // run average over warm-up and compression stages
    std::optional<double> saving;       // share of step time saved, no overlap of communication and compute
    // no-data-parallelism | single-node | compute-unknown | communication-bound | compute-bound
    std::string verdict;
};

OnebitCost estimateOnebitCost(const Answers& answers);

} // namespace dsw
