#include "estimate/PlacementMemory.h"

#include <algorithm>

namespace dsw {

std::int64_t paramsPerPipelineStage(const Answers& a)
{
    const std::int64_t stages = std::max<std::int64_t>(1, a.integer("pipeline.stages"));
    return (a.integer("model.params") + stages - 1) / stages;
}

ModelShape modelShapeFrom(const Answers& a)
{
    ModelShape s;
    s.params = paramsPerPipelineStage(a);
    s.largestLayer = a.integer("model.largest_layer_params");
    s.gpusPerNode = static_cast<int>(a.integer("hardware.gpus_per_node"));
    s.nodes = static_cast<int>(a.integer("hardware.nodes"));
    s.dataParallel = std::max<std::int64_t>(1, a.dataParallelSize());
    return s;
}

} // namespace dsw
