#pragma once
// A mixture-of-experts model's parameters from its shape: which layers route, how many experts each holds and how
// many a token uses. Counts the whole model (every expert, what memory holds) and one token's share (the routed
// experts it uses, what compute costs), and the block ZeRO-3 gathers whole when the MoE layer is a leaf module.
// An MoE layer replaces the dense MLP with `experts` routed experts and `sharedExperts` always-used ones, each a
// gated MLP of `expertIntermediate` (SwiGLU: 3·h·f; GELU: 2·h·f), plus a router of h·experts.
// Sources (resources/knowledge/sources.tsv): mixtral-paper, qwen3-30b-a3b-counts.
#include "knowledge/TransformerShape.h"

#include <cstdint>

namespace dsw {

struct MoeSpec {
    std::int64_t experts = 1;            // routed experts per MoE layer (model.experts); 1: a dense model
    std::int64_t expertsPerToken = 1;    // top-k (model.experts_per_token)
    std::int64_t expertIntermediate = 0; // one expert's MLP width (model.expert_intermediate_size); 0: the shape's
    std::int64_t sharedExperts = 0;      // experts every token uses, of the same width (model.shared_experts)
    std::int64_t denseLayers = 0;        // leading layers with the dense MLP (model.dense_layers)
    std::int64_t layerInterval = 1;      // after them, every k-th layer routes (model.moe_layer_interval)

    bool moe() const { return experts > 1; }
};

struct MoeCounts {
    std::int64_t total = 0;     // every parameter (all experts): what the weights and states hold
    std::int64_t active = 0;    // what one token uses: the rest, with k of the routed experts
    std::int64_t moeLayers = 0; // layers that route
    std::int64_t expert = 0;    // one expert's MLP
    std::int64_t routed = 0;    // every routed expert of the model
    std::int64_t leafBlock = 0; // one MoE block, gathered whole at ZeRO-3: router, routed and shared experts
};

// The counts for `shape` (its intermediate size is the dense layers' MLP) with `spec`; a dense spec gives the dense
// count for both totals. Saturates rather than overflowing, as countParameters does.
MoeCounts moeCounts(const TransformerShape& shape, const MoeSpec& spec);

} // namespace dsw
