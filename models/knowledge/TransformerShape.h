#pragma once
// The shape of a decoder-style transformer as today's model cards and Hugging Face config.json files
// describe it: what the step model (estimate/) sizes memory and time from, and what the model catalog
// (knowledge/ModelCatalog) and a Hugging Face config.json import (config/HfModelConfig) produce.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dsw {

enum class MlpKind { Gelu, SwiGlu };             // GPT-2/BERT 2-matrix GELU MLP; Llama-style 3-matrix gated MLP
enum class NormKind { LayerNorm, RmsNorm };      // LayerNorm has a bias, RMSNorm has not
enum class AttentionImpl { Eager, Sdpa, Flash }; // materialised softmax; torch SDPA; FlashAttention-2
// fp32 logits materialised; Liger's fused linear cross-entropy; DeepSpeed's TiledFusedLogitsLoss (ALST), logits and
// loss computed shard by shard along the sequence
enum class LossImpl { Standard, Fused, Tiled };
enum class LinearBias { None, Qkv, All }; // Llama: none; Qwen2: q, k, v only; GPT-2/BERT: every linear and norm

struct TransformerShape {
    std::int64_t hidden = 0;       // h
    std::int64_t layers = 0;       // L
    std::int64_t heads = 0;        // a (query heads)
    std::int64_t kvHeads = 0;      // key/value heads (GQA/MQA); = heads for multi-head attention
    std::int64_t intermediate = 0; // MLP inner size I
    std::int64_t vocab = 0;        // v
    MlpKind mlp = MlpKind::Gelu;
    NormKind norm = NormKind::LayerNorm;
    bool tiedEmbeddings = false; // the output projection shares the input embedding's weights
    std::int64_t headDim = 0;    // per-head width when a config sets it apart from h/a (Gemma 2, Qwen3); 0: h/a
    LinearBias bias = LinearBias::None;
    std::int64_t learnedPositions = 0;     // rows of a learned position embedding (GPT-2, BERT); 0 for RoPE
    std::int64_t crossAttentionLayers = 0; // blocks that also attend to an encoder (T5's decoder); 0 for decoders

    std::int64_t headWidth() const { return headDim > 0 ? headDim : (heads > 0 ? hidden / heads : 0); }
};

// Spelled as the input registry and project files spell them ("gelu", "swiglu", "layernorm", ...).
std::string_view toString(MlpKind kind);
std::string_view toString(NormKind kind);
std::string_view toString(AttentionImpl kind);
std::string_view toString(LossImpl kind);
std::optional<MlpKind> mlpKindFrom(std::string_view text);
std::optional<NormKind> normKindFrom(std::string_view text);
std::optional<AttentionImpl> attentionImplFrom(std::string_view text);
std::optional<LossImpl> lossImplFrom(std::string_view text);
std::string_view toString(LinearBias kind);
std::optional<LinearBias> linearBiasFrom(std::string_view text);

// The MLP inner size a model of this hidden size usually has when none is given: 4h for GELU;
// for SwiGLU, 8h/3 rounded up to a multiple of 256 (the rounding of Meta's Llama reference code,
// multiple_of = 256, which gives Llama-2-7B's 11008 for h = 4096).
std::int64_t defaultIntermediate(std::int64_t hidden, MlpKind mlp);

// Why the shape contradicts itself (a dimension < 1, hidden not divisible by heads, KV heads not dividing
// heads, ...), naming the input (model.hidden_size, model.kv_heads, ...); nullopt when it is consistent.
std::optional<std::string> shapeError(const TransformerShape& shape);

} // namespace dsw
