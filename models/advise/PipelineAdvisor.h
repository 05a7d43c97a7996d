#pragma once
#include "advise/Advice.h"
#include "advise/Job.h"
#include "advise/ZeroDecision.h"
#include "estimate/PartitionMemo.h"
#include "project/Answers.h"
#include "util/Result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

// One pipeline layer as DeepSpeed partitions it: the embedding, each transformer block, the head.
struct PipelineLayer {
    std::string name;     // e.g. "embedding", "block 3", "head"
    std::string typeName; // class-like name for type:REGEX ("Embedding", "TransformerBlock", "LMHead")
    std::int64_t params = 0;
};

// pipeline.layer_params parsed: comma-separated counts, each as models/util/Count.h parseCount reads it ("7B",
// "350M", "1.3e9"). An empty list gives an empty vector; the error names pipeline.layer_params and the bad item.
Result<std::vector<std::int64_t>> parseLayerParams(std::string_view list);

// Layers from pipeline.layer_params (named "layer i", type "Layer"), or derived from the model's shape when it is
// empty (knowledge/ParameterCount.h, the count model.params derives): the embedding, model.layers blocks and the head
// with the final norm add up to that count (a tied head adds a copy of the embedding, as TiedLayerSpec holds it).
// Empty when pipeline.layer_params is not a valid list.
std::vector<PipelineLayer> pipelineLayers(const Answers& answers);

// How the layer→stage plan was obtained.
enum class PartitionState {
    Uniform,     // partition_method "uniform": nothing to compute
    Computed,    // DeepSpeed's balanced partition, from the memo or computed now
    Computing,   // too large to compute now; the caller's worker computes it, the uniform partition shown meanwhile
    NotComputed, // too large for this caller; the uniform partition shown instead
    Failed       // DeepSpeed would raise: no plan
};
const char* toString(PartitionState state); // uniform | computed | computing | not_computed | failed

// The pipeline page's stages, as the chart shows them.
struct PipelineStages {
    PartitionState state = PartitionState::Failed;
    std::vector<PipelineLayer> layers;
    std::vector<int> parts; // stage s holds layers parts[s] … parts[s + 1] − 1; empty: no plan
    std::vector<std::int64_t> paramsPerStage;
    std::vector<std::int64_t> memoryPerStage; // per GPU by the step model; empty when the stages are not sized
    double usableBytes = 0;                   // per GPU, what a stage may use
};

struct PipelineAdvice {
    Advice advice;
    PipelineStages stages;
};

// The layer→stage plan, bubble, batch keys, PipelineModule snippet and checks, at the ZeRO page's plan (`zero`, null
// when the job cannot be sized; pipeline parallelism allows ZeRO stage 0 or 1 only). A balanced partition comes from
// PartitionMemo::shared() or is computed now within `policy.computeNow`; above it the plan shows the uniform
// partition, labelled, with state Computing (within policy.computeLater: the caller's worker computes
// balancedPartitionInput(answers) into the memo and plans again) or NotComputed.
PipelineAdvice advisePipeline(const Job& job, const ZeroDecision* zero, const Answers& answers,
                              const PartitionPolicy& policy = {});

// The input of the balanced partition advisePipeline needs for these answers (the weights DeepSpeed derives
// for "parameters" or "type:REGEX", and the stages); empty when there is none (no pipeline, "uniform", a
// method or layer list DeepSpeed would refuse).
std::optional<BalancedPartitionInput> balancedPartitionInput(const Answers& answers);

} // namespace dsw
