// Mixture-of-experts counts; see MoeShape.h.
#include "knowledge/MoeShape.h"

#include "knowledge/ParameterCount.h"
#include "util/CheckedMath.h"

#include <algorithm>
#include <numeric>

namespace dsw {

MoeCounts moeCounts(const TransformerShape& shape, const MoeSpec& spec)
{
    const ParameterBreakdown dense = countParameters(shape);
    MoeCounts out;
    out.total = out.active = dense.total;
    if (!spec.moe())
        return out;
    TransformerShape expertShape = shape;
    expertShape.intermediate = spec.expertIntermediate > 0 ? spec.expertIntermediate : shape.intermediate;
    out.expert = countParameters(expertShape).mlpPerLayer;
    const std::int64_t routing = std::max<std::int64_t>(0, shape.layers - spec.denseLayers);
    out.moeLayers = routing / std::max<std::int64_t>(1, spec.layerInterval);
    const std::int64_t router = mulSat(shape.hidden, spec.experts);
    out.leafBlock = addSat(mulSat(spec.experts + spec.sharedExperts, out.expert), router);
    out.routed = mulSat(out.moeLayers, spec.experts, out.expert);
    out.moeLayer = addSat(dense.attentionPerLayer, dense.normsPerLayer, out.leafBlock);
    // Each routing layer trades its dense MLP for the block; a token uses k routed experts of it.
    const std::int64_t perLayer = subSat(out.leafBlock, dense.mlpPerLayer);
    out.total = addSat(dense.total, mulSat(out.moeLayers, perLayer));
    const std::int64_t unused = std::max<std::int64_t>(0, spec.experts - spec.expertsPerToken);
    out.active = subSat(out.total, mulSat(out.moeLayers, unused, out.expert));
    return out;
}

std::string_view autoEpPresetFor(std::string_view type)
{
    if (type == "mixtral" || type == "deepseek_v2" || type == "deepseek_v3")
        return type;
    if (type == "qwen2_moe" || type == "qwen3_moe")
        return "qwen3_moe";
    if (type == "qwen3_5_moe_text" || type == "qwen3_5_moe")
        return "qwen3_5_moe";
    return "none";
}

std::string_view autoEpTransformersFor(std::string_view preset)
{
    return preset == "qwen3_5_moe" ? "5.2.0" : kFusedExpertsTransformers;
}

std::optional<MoeMode> moeModeFrom(std::string_view text)
{
    if (text == "auto")
        return MoeMode::Auto;
    if (text == "native")
        return MoeMode::Native;
    if (text == "leaf")
        return MoeMode::Leaf;
    if (text == "autoep")
        return MoeMode::AutoEp;
    return std::nullopt;
}

std::string_view toString(MoeMode mode)
{
    switch (mode) {
    case MoeMode::Native: return "native";
    case MoeMode::Leaf: return "leaf";
    case MoeMode::AutoEp: return "autoep";
    case MoeMode::Auto: break;
    }
    return "auto";
}

std::optional<MoeMode> moePathFor(MoeMode mode, int stage, std::int64_t ep)
{
    switch (mode) {
    case MoeMode::Native: return stage < 3 ? std::optional(MoeMode::Native) : std::nullopt;
    case MoeMode::Leaf: return stage == 3 && ep == 1 ? std::optional(MoeMode::Leaf) : std::nullopt;
    case MoeMode::AutoEp: return ep > 1 ? std::optional(MoeMode::AutoEp) : std::nullopt;
    case MoeMode::Auto: break;
    }
    if (ep > 1)
        return MoeMode::AutoEp;
    return stage == 3 ? MoeMode::Leaf : MoeMode::Auto;
}

std::string moePathLabel(MoeMode path, std::int64_t ep)
{
    switch (path) {
    case MoeMode::Leaf: return "MoE blocks as leaf modules";
    case MoeMode::AutoEp: return "AutoEP expert parallel " + std::to_string(ep);
    case MoeMode::Native: return "native MoE expert parallel " + std::to_string(ep);
    case MoeMode::Auto: break;
    }
    return "every expert on every GPU";
}

std::vector<std::int64_t> expertParallelDegrees(std::int64_t experts, std::int64_t dataParallel, std::int64_t asked)
{
    const std::int64_t g = std::gcd(std::max<std::int64_t>(1, experts), std::max<std::int64_t>(1, dataParallel));
    if (asked > 0)
        return {asked > 1 && g % asked == 0 ? asked : 1};
    std::vector<std::int64_t> out{1};
    for (std::int64_t p = 2; p <= g; p *= 2)
        if (g % p == 0)
            out.push_back(p);
    if (out.back() != g)
        out.push_back(g);
    return out;
}

} // namespace dsw
