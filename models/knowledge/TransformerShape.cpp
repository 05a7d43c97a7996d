#include "knowledge/TransformerShape.h"

namespace dsw {

std::string_view toString(MlpKind kind) { return kind == MlpKind::Gelu ? "gelu" : "swiglu"; }
std::string_view toString(NormKind kind) { return kind == NormKind::LayerNorm ? "layernorm" : "rmsnorm"; }
std::string_view toString(AttentionImpl kind)
{
    switch (kind) {
    case AttentionImpl::Eager: return "eager";
    case AttentionImpl::Sdpa: return "sdpa";
    case AttentionImpl::Flash: return "flash";
    }
    return "flash";
}
std::string_view toString(LossImpl kind)
{
    switch (kind) {
    case LossImpl::Standard: return "standard";
    case LossImpl::Fused: return "fused";
    case LossImpl::Tiled: return "tiled";
    }
    return "standard";
}

std::optional<MlpKind> mlpKindFrom(std::string_view text)
{
    if (text == "gelu")
        return MlpKind::Gelu;
    if (text == "swiglu")
        return MlpKind::SwiGlu;
    return std::nullopt;
}
std::optional<NormKind> normKindFrom(std::string_view text)
{
    if (text == "layernorm")
        return NormKind::LayerNorm;
    if (text == "rmsnorm")
        return NormKind::RmsNorm;
    return std::nullopt;
}
std::optional<AttentionImpl> attentionImplFrom(std::string_view text)
{
    if (text == "eager")
        return AttentionImpl::Eager;
    if (text == "sdpa")
        return AttentionImpl::Sdpa;
    if (text == "flash")
        return AttentionImpl::Flash;
    return std::nullopt;
}
std::optional<LossImpl> lossImplFrom(std::string_view text)
{
    if (text == "standard")
        return LossImpl::Standard;
    if (text == "fused")
        return LossImpl::Fused;
    if (text == "tiled")
        return LossImpl::Tiled;
    return std::nullopt;
}

std::string_view toString(LinearBias kind)
{
    switch (kind) {
    case LinearBias::None: return "none";
    case LinearBias::Qkv: return "qkv";
    case LinearBias::All: return "all";
    }
    return "none";
}
std::optional<LinearBias> linearBiasFrom(std::string_view text)
{
    if (text == "none")
        return LinearBias::None;
    if (text == "qkv")
        return LinearBias::Qkv;
    if (text == "all")
        return LinearBias::All;
    return std::nullopt;
}

std::int64_t defaultIntermediate(std::int64_t hidden, MlpKind mlp)
{
    if (mlp == MlpKind::Gelu)
        return 4 * hidden;
    const std::int64_t raw = (8 * hidden + 2) / 3; // ceil(8h/3)
    return (raw + 255) / 256 * 256;
}

std::optional<std::string> shapeError(const TransformerShape& s)
{
    if (s.hidden < 1)
        return "model.hidden_size must be at least 1";
    if (s.layers < 1)
        return "model.layers must be at least 1";
    if (s.heads < 1)
        return "model.attention_heads must be at least 1";
    if (s.hidden % s.heads != 0)
        return "model.hidden_size (" + std::to_string(s.hidden) + ") must be divisible by model.attention_heads ("
            + std::to_string(s.heads) + ")";
    if (s.kvHeads < 1)
        return "model.kv_heads must be at least 1";
    if (s.heads % s.kvHeads != 0)
        return "model.kv_heads (" + std::to_string(s.kvHeads) + ") must divide model.attention_heads ("
            + std::to_string(s.heads) + ")";
    if (s.intermediate < 1)
        return "model.intermediate_size must be at least 1";
    if (s.vocab < 1)
        return "model.vocab_size must be at least 1";
    if (s.headDim < 0)
        return "model.head_dim must be at least 1";
    if (s.learnedPositions < 0)
        return "learned positions must not be negative";
    if (s.crossAttentionLayers < 0 || s.crossAttentionLayers > s.layers)
        return "cross-attention layers must be between 0 and model.layers";
    return std::nullopt;
}

} // namespace dsw
