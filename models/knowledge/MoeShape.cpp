// Mixture-of-experts counts; see MoeShape.h.
#include "knowledge/MoeShape.h"

#include "knowledge/ParameterCount.h"
#include "util/CheckedMath.h"

#include <algorithm>

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
    // Each routing layer trades its dense MLP for the block; a token uses k routed experts of it.
    const std::int64_t perLayer = subSat(out.leafBlock, dense.mlpPerLayer);
    out.total = addSat(dense.total, mulSat(out.moeLayers, perLayer));
    const std::int64_t unused = std::max<std::int64_t>(0, spec.experts - spec.expertsPerToken);
    out.active = subSat(out.total, mulSat(out.moeLayers, unused, out.expert));
    return out;
}

} // namespace dsw
