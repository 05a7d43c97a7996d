#pragma once
// Where the model states live (a ZeRO stage and its offloads) and the model shape they are sized for: the step model
// (estimate/StepModel.h) and the plan search read them.
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

// Parameters one GPU's pipeline stage holds: all of them without a pipeline, else an even share.
std::int64_t paramsPerPipelineStage(const Answers& answers);
// The shape the answers describe (model.*, hardware.*, pipeline.stages, the data-parallel size).
ModelShape modelShapeFrom(const Answers& answers);

} // namespace dsw
