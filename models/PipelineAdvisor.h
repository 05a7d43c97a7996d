#pragma once
#include "Advice.h"
#include "Answers.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dsw {

// One pipeline layer as DeepSpeed partitions it: the embedding, each transformer block, the head.
struct PipelineLayer {
    std::string name;       // e.g. "embedding", "block 3", "head"
    std::string typeName;   // class-like name for type:REGEX ("Embedding", "TransformerBlock", "LMHead")
    std::int64_t params = 0;
};

// Layers from pipeline.layer_params, or derived from the model's dimensions when it is empty.
std::vector<PipelineLayer> pipelineLayers(const Answers& answers);

// The layer→stage plan, bubble, batch keys, PipelineModule snippet and checks. `zero` is the ZeRO
// workflow's advice (pipeline parallelism allows ZeRO stage 0 or 1 only).
Advice advisePipeline(const Answers& answers, const Advice& zero);

} // namespace dsw
