#pragma once
// The one sizer of the model states for a placement, shared by the ZeRO workflow's candidates
// (advise/ZeroOptions.cpp) and the out-of-memory plan (advise/MemoryPlan.cpp). Conventions (shown to the
// user with each number):
//  - GPU without offload: the ZeRO paper, mixed-precision Adam, K = 12 (16 bytes/parameter), plus DeepSpeed's
//    largest-layer working memory (4 bytes/parameter of the largest module) at stage 3;
//  - GPU and CPU with offload: DeepSpeed's estimators (18 bytes/parameter with fp16 params,
//    additional_buffer_factor 1.5), except the ZeRO-2 offload CPU term, where the docs' per-node formula
//    is used because the code multiplies by the GPUs of all nodes (deepspeed-facts §1.1).
#include "project/Answers.h"

#include <cstdint>
#include <string>

namespace dsw {

inline constexpr double kBufferFactor = 1.5; // DeepSpeed's additional_buffer_factor default

// Where the model states live: a ZeRO stage, and where optimizer states and parameters are offloaded.
struct Placement {
    int stage = 0;
    std::string offloadOptimizer = "none"; // none | cpu | nvme
    std::string offloadParam = "none";
};

// What the sizes depend on besides the placement.
struct ModelShape {
    std::int64_t params = 0;       // of one pipeline stage
    std::int64_t largestLayer = 0; // parameters of the largest module
    int gpusPerNode = 1;
    int nodes = 1;
    std::int64_t dataParallel = 1;
};

struct ModelStatesMemory {
    std::int64_t gpuBytes = 0;    // per GPU
    std::int64_t cpuPerNode = 0;  // host RAM per node: the offloaded states, else what loading the model takes
    std::int64_t nvmePerNode = 0; // with NVMe offload
    std::string gpuFormula;
    std::string cpuFormula;
};

ModelStatesMemory sizeModelStates(const Placement& placement, const ModelShape& shape);

// Parameters one GPU's pipeline stage holds: all of them without a pipeline, else an even share.
std::int64_t paramsPerPipelineStage(const Answers& answers);
// The shape the answers describe (model.*, hardware.*, pipeline.stages, the data-parallel size).
ModelShape modelShapeFrom(const Answers& answers);

} // namespace dsw
