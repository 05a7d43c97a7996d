#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dsw {

// Ports of DeepSpeed v0.19.5's model-state memory estimators (stage_1_and_2.py, stage3.py).
// They reproduce Python's double arithmetic and int() truncation so results match byte for byte,
// including the ZeRO-2 quirk that the offloaded CPU term scales with *total* GPUs.
// "cpu" is bytes per node, "gpu" is bytes per GPU. Throws std::invalid_argument if
// gpusPerNode < 1 or nodes < 1 (Python would divide by zero).

struct Zero2Estimate {
    std::int64_t cpuBytes;
    std::int64_t gpuBytes;
};
Zero2Estimate estimateZero2ModelStatesMemNeeds(std::int64_t totalParams, int gpusPerNode, int nodes, bool cpuOffload,
                                               double bufferFactor = 1.5);

struct Zero3Estimate {
    std::int64_t cpuBytes;
    std::int64_t gpuBytes;
    std::int64_t largestLayerMemory; // 4 bytes per param of the largest layer
};
Zero3Estimate estimateZero3ModelStatesMemNeeds(std::int64_t totalParams, std::int64_t largestLayerParams,
                                               int gpusPerNode, int nodes, bool cpuOffload, bool cpuOffloadParams,
                                               bool zeroInit, double bufferFactor = 1.5);

// One row as printed by the *_all_cold functions.
struct EstimatorRow {
    int stage;                    // 2 or 3
    std::string offloadOptimizer; // "cpu" | "none"
    std::string offloadParam;     // "cpu" | "none"
    std::optional<bool> zeroInit; // nullopt on stage-2 rows
    std::int64_t gpuBytes;
    std::int64_t cpuBytes;
};

// The rows the *_all_cold functions print, in their order: 2 for stage 2 (offload True, then False),
// then 6 for stage 3 (cpu_offload=False with cpu_offload_params=True skipped, as DeepSpeed does).
std::vector<EstimatorRow> deepSpeedEstimatorRows(std::int64_t totalParams, std::int64_t largestLayerParams,
                                                 int gpusPerNode, int nodes, double bufferFactor = 1.5);

} // namespace dsw
