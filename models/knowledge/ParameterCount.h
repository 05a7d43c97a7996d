#pragma once
#include "knowledge/TransformerShape.h"

#include <cstdint>

namespace dsw {

// The parameters of a transformer of this shape (all of them, trained or frozen), by part. Counted: the token embedding
// v·h, an untied output head v·h, learned position embeddings, per block the attention projections q = h·(a·d), k and v
// = h·(kv·d) each, o = (a·d)·h (d the head width), the MLP (2·h·I for GELU, 3·h·I for a gated MLP such as SwiGLU), two
// norms (weight, and bias for LayerNorm), the biases of `shape.bias`, cross-attention blocks (as many weights as
// self-attention, and one norm), and the final norm. Not counted: poolers, token-type embeddings, per-head q/k norms,
// extra norms some families add (Gemma 2's post-norms): each under 0.5% of the models in the catalog.
struct ParameterBreakdown {
    std::int64_t embedding = 0;  // v·h
    std::int64_t outputHead = 0; // v·h when untied, else 0
    std::int64_t positions = 0;  // learned positions · h
    std::int64_t attentionPerLayer = 0;
    std::int64_t mlpPerLayer = 0;
    std::int64_t normsPerLayer = 0;
    std::int64_t crossAttention = 0; // all cross-attention blocks together
    std::int64_t finalNorm = 0;
    std::int64_t total = 0;
};

// Saturates at INT64_MAX rather than overflowing for absurd shapes; the shape should pass shapeError first.
ParameterBreakdown countParameters(const TransformerShape& shape);
inline std::int64_t parameterCount(const TransformerShape& shape) { return countParameters(shape).total; }

} // namespace dsw
