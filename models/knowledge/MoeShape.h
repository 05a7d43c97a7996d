#pragma once
// A mixture-of-experts model's parameters from its shape: which layers route, how many experts each holds and how
// many a token uses. Counts the whole model (every expert, what memory holds) and one token's share (the routed
// experts it uses, what compute costs), and the block ZeRO-3 gathers whole when the MoE layer is a leaf module.
// An MoE layer replaces the dense MLP with `experts` routed experts and `sharedExperts` always-used ones, each a
// gated MLP of `expertIntermediate` (SwiGLU: 3·h·f; GELU: 2·h·f), plus a router of h·experts.
// Sources (resources/knowledge/sources.tsv): mixtral-paper, qwen3-30b-a3b-counts, qwen15-moe-a27b-counts,
// gpt-oss-20b-card, gpt-oss-120b-card, olmoe-paper (the MoE presets of models.tsv count as these publish).
#include "knowledge/TransformerShape.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
    std::int64_t moeLayer = 0;  // one routing layer whole: its attention, norms and MoE block
};

// How DeepSpeed trains the experts (moe.mode; ../shared/knowledge/next-capabilities.md §3.1): native deepspeed.moe
// layers in the model's code (ZeRO 0-2, experts split over expert-parallel ranks), ZeRO-3 with the MoE block
// registered as a leaf module (gathered whole, no expert parallelism), or AutoEP (expert_parallel: DeepSpeed swaps
// Hugging Face's MoE blocks for expert-parallel ones). Auto: leaf at stage 3, AutoEP below it when expert parallelism
// pays, else the experts whole on every GPU.
enum class MoeMode { Auto, Native, Leaf, AutoEp };
std::optional<MoeMode> moeModeFrom(std::string_view text); // auto | native | leaf | autoep
std::string_view toString(MoeMode mode);

// The path a plan at ZeRO `stage` with expert-parallel degree `ep` runs under `mode`, or nullopt when that mode cannot
// run it: native below stage 3 only (engine.py refuses native MoE at stage 3), leaf at stage 3 with ep 1 only, AutoEP
// with ep > 1 at any stage (autoep_size 1 only warns and routes locally; at stage 3 DeepSpeed runs it without AutoTP,
// sequence parallelism, MiCS, hpZ or quantized gradients, none of which the wizard plans). Auto picks AutoEp with
// ep > 1, Leaf at stage 3 with ep 1, and Auto below it with ep 1: every expert on every GPU.
std::optional<MoeMode> moePathFor(MoeMode mode, int stage, std::int64_t ep);

// How a plan names its path: "MoE blocks as leaf modules", "AutoEP expert parallel 8", "native MoE expert parallel 8",
// "every expert on every GPU" (Auto).
std::string moePathLabel(MoeMode path, std::int64_t expertParallel);

// The expert-parallel degrees a search tries: 1, the powers of two that divide both the experts and the data-parallel
// ranks, and their greatest common divisor; `asked` > 0 (moe.expert_parallel_size) keeps that one alone when it divides
// both, else none above 1.
std::vector<std::int64_t> expertParallelDegrees(std::int64_t experts, std::int64_t dataParallel, std::int64_t asked);

// The Transformers from which a mixture of experts runs fused (one weight per projection; measured,
// tests/data/moe-activation-reference.tsv) and AutoEP's presets apply (ds-autoep: qwen3_5_moe needs 5.2.0).
inline constexpr const char* kFusedExpertsTransformers = "5.0.0";

// The AutoEP preset (expert_parallel.preset_model) for a Hugging Face model_type, "none" for one AutoEP has no preset
// of: mixtral; qwen2_moe and qwen3_moe → qwen3_moe (its docs: it "also covers Qwen2-MoE"); qwen3_5_moe_text →
// qwen3_5_moe; deepseek_v2; deepseek_v3 (ds-autoep).
std::string_view autoEpPresetFor(std::string_view modelType);
// The Transformers an AutoEP preset needs (ds-autoep's table): 5.2.0 for qwen3_5_moe, else kFusedExpertsTransformers.
std::string_view autoEpTransformersFor(std::string_view preset);

// The counts for `shape` (its intermediate size is the dense layers' MLP) with `spec`; a dense spec gives the dense
// count for both totals. Saturates rather than overflowing, as countParameters does.
MoeCounts moeCounts(const TransformerShape& shape, const MoeSpec& spec);

} // namespace dsw
