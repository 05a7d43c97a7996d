#pragma once
#include "advise/Advice.h"
#include "estimate/PlacementMemory.h" // paramsPerPipelineStage
#include "project/Answers.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dsw {

// One way to place the model states (a ZeRO stage, where optimizer states and parameters live,
// activation checkpointing on or off) with what it needs per GPU, per node's RAM and per node's NVMe.
struct ZeroOption {
    int stage = 0;
    std::string offloadOptimizer = "none"; // none | cpu | nvme
    std::string offloadParam = "none";
    bool checkpointing = false;

    std::int64_t gpuModelStates = 0;
    std::int64_t activations = 0;
    std::int64_t gpuTotal = 0;
    std::int64_t cpuPerNode = 0;
    std::int64_t nvmePerNode = 0;
    std::string gpuFormula;
    std::string cpuFormula;

    bool fitsGpu = false;
    bool fitsCpu = false;
    bool nvmeReady = true; // NVMe present with a path, when the option uses it
    bool fitsNvme = true;
    bool fits() const { return fitsGpu && fitsCpu && nvmeReady && fitsNvme; }
    std::string label() const;
};

// Share of GPU memory the wizard keeps free for the CUDA context, NCCL buffers and fragmentation.
inline constexpr double kGpuReserveFraction = 0.10;

// The highest ZeRO stage the other answers allow, and why: pipeline parallelism allows stages 0–1,
// the 1-bit optimizers stage 0 only (deepspeed-facts §2.9, §2.10).
struct ZeroStageLimit {
    int maxStage = 3;
    std::string code; // stable id of the rule, empty when nothing limits the stage
    std::string reason;
    std::string source;
};
ZeroStageLimit zeroStageLimit(const Answers& answers);

// Every candidate, in the order the advisor prefers them: fastest first.
std::vector<ZeroOption> zeroOptions(const Answers& answers);

Advice adviseZero(const Answers& answers);

} // namespace dsw
