#include "project/ModelChecks.h"

#include "knowledge/ParameterCount.h"
#include "util/Count.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace dsw {

namespace {
constexpr const char* kDetailIds[] = {"model.mlp",      "model.kv_heads",        "model.intermediate_size",
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
    // A mixture of experts' count is the experts' too; the shape counts one MLP per layer (model.experts).
    if (!answers.has("model.params") || !described || answers.integer("model.experts") > 1)
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

std::optional<std::string> seqLenBeyondMaxPosition(const Answers& answers)
{
    // Sources (resources/knowledge/sources.tsv): hf-bert-config, position-interpolation.
    const std::int64_t maxPosition = answers.integer("model.max_position");
    const std::int64_t seqLen = answers.integer("model.seq_len");
    if (maxPosition <= 0 || seqLen <= maxPosition)
        return std::nullopt;
    const std::string most = std::to_string(maxPosition);
    // A preset says whether its positions are a learned table (GPT-2, BERT); a shape of the user's own does not.
    const std::int64_t learned = answers.preset() ? answers.preset()->shape.learnedPositions : 0;
    const std::string means = learned > 0
        ? "this model's learned position embeddings have " + std::to_string(learned)
            + " rows, so a position past them has no embedding and the forward pass fails (an index error)"
        : "positions past it were never trained: with rotary positions (RoPE: Llama, Qwen, Mistral, Gemma) train at "
          "this length only with RoPE scaling or position interpolation (rope_scaling in the config.json, then "
          "fine-tuning at the new length); with learned position embeddings (GPT-2, BERT) a position past it has no "
          "embedding and the forward pass fails";
    return "model.seq_len " + std::to_string(seqLen) + " exceeds the model's maximum position " + most
        + " (model.max_position, max_position_embeddings in its config.json): " + means + ". Train at most " + most
        + " tokens per sequence, or extend the model's context first; the estimates use model.seq_len.";
}

} // namespace dsw
