#include "knowledge/ParameterCount.h"

#include "util/CheckedMath.h"

namespace dsw {

namespace {

// Wide enough for any shape the registry accepts (h ≤ 1e6, L ≤ 1e4, v ≤ 1e7): the products stay below 2^127.
using Wide = __int128;

std::int64_t clamp(Wide v)
{
    return v > Wide(kSaturated) ? kSaturated : static_cast<std::int64_t>(v);
}

} // namespace

ParameterBreakdown countParameters(const TransformerShape& s)
{
    const Wide h = s.hidden, d = s.headWidth(), a = s.heads, kv = s.kvHeads, v = s.vocab, I = s.intermediate;
    const Wide q = a * d, kvWidth = kv * d;
    const bool allBias = s.bias == LinearBias::All;
    const Wide normSize = s.norm == NormKind::LayerNorm ? 2 * h : h; // LayerNorm: weight and bias

    Wide attention = h * q + 2 * h * kvWidth + q * h;
    if (s.bias == LinearBias::Qkv || allBias)
        attention += q + 2 * kvWidth;
    if (allBias)
        attention += h; // the output projection's bias
    Wide mlp = (s.mlp == MlpKind::Gelu ? 2 : 3) * h * I;
    if (allBias)
        mlp += (s.mlp == MlpKind::Gelu ? 1 : 2) * I + h;

    ParameterBreakdown b;
    b.embedding = clamp(v * h);
    b.outputHead = s.tiedEmbeddings ? 0 : clamp(v * h);
    b.positions = clamp(Wide(s.learnedPositions) * h);
    b.attentionPerLayer = clamp(attention);
    b.mlpPerLayer = clamp(mlp);
    b.normsPerLayer = clamp(2 * normSize);
    b.crossAttention = clamp(Wide(s.crossAttentionLayers) * (attention + normSize));
    b.finalNorm = clamp(normSize);
    const Wide total = Wide(b.embedding) + b.outputHead + b.positions
        + Wide(s.layers) * (Wide(b.attentionPerLayer) + b.mlpPerLayer + b.normsPerLayer) + b.crossAttention
        + b.finalNorm;
    b.total = clamp(total);
    return b;
}

} // namespace dsw
