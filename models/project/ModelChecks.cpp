#include "project/ModelChecks.h"

#include "knowledge/ParameterCount.h"
#include "util/Count.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace dsw {

namespace {
constexpr const char* kDetailIds[] = {"model.mlp",     "model.kv_heads",        "model.intermediate_size",
                                      "model.head_dim", "model.tied_embeddings", "model.norm"};
} // namespace

std::optional<std::string> modelShapeError(const Answers& answers)
{
    if (!answers.describesShape())
        return std::nullopt;
    return shapeError(answers.modelShape());
}

std::optional<std::string> paramsShapeMismatch(const Answers& answers)
{
    // Layers, hidden size, heads and vocabulary alone do not fix the count (the MLP kind, tying and KV heads are
    // then the registry's defaults, GELU, untied, MHA): only a preset or one of those answers makes the shape the
    // user's own, and a gap between it and model.params theirs to resolve.
    const bool described = answers.preset()
        || std::any_of(std::begin(kDetailIds), std::end(kDetailIds), [&](const char* id) { return answers.has(id); });
    if (!answers.has("model.params") || !described)
        return std::nullopt;
    const TransformerShape shape = answers.modelShape();
    if (shapeError(shape))
        return std::nullopt;
    const std::int64_t given = answers.integer("model.params");
    const std::int64_t counted = parameterCount(shape);
    if (given <= 0 || std::abs(static_cast<double>(counted - given)) <= 0.05 * static_cast<double>(given))
        return std::nullopt;
    return "model.params is " + formatCount(given) + " but the model's shape counts " + formatCount(counted)
        + " parameters (" + std::to_string(static_cast<long long>(std::lround(100.0 * (counted - given) / given)))
        + "%); the estimates use model.params: check the shape, or leave model.params out to use the count";
}

} // namespace dsw
