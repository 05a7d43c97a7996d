#pragma once
#include "knowledge/MoeShape.h"
#include "knowledge/TransformerShape.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

// One model of resources/knowledge/models.tsv: its shape as its config.json (or paper) states it.
// Sources (resources/knowledge/sources.tsv): model-catalog.
struct ModelSpec {
    std::string id;   // e.g. "llama-3.1-8b", what model.preset takes
    std::string name; // e.g. "Llama 3.1 8B"
    TransformerShape shape;
    std::int64_t maxPosition = 0;                // the context the config allows (max_position_embeddings)
    double dropout = 0;                          // the dropout probability it trains with (0: none), 0 ≤ p < 1
    std::string architecture;                    // decoder | encoder | encoder-decoder (model.architecture)
    std::optional<std::int64_t> publishedParams; // the count its card or paper states, when it states one
    std::optional<std::int64_t> publishedActive; // a mixture of experts' per-token count, as published
    MoeSpec moe;           // experts, top-k, their width, shared experts, dense layers (a dense model: the defaults)
    std::string modelType; // config.json's model_type where it picks something (AutoEP's preset); may be empty
    std::string sourceUrl;
    std::string verification; // how the values were checked
};

class ModelCatalog {
public:
    static const ModelCatalog& instance();
    // Rows that do not parse or whose shape contradicts itself are left out and described in problems().
    explicit ModelCatalog(std::string_view tsv);

    const std::vector<ModelSpec>& all() const { return m_models; }
    // Case-insensitive lookup by id.
    const ModelSpec* find(const std::string& id) const;
    std::vector<std::string> ids() const;
    // Up to `count` ids closest to `text` (ids it is a prefix or part of first, then by edit distance),
    // for "not a known model; nearest: ..." messages.
    std::vector<std::string> nearest(const std::string& text, std::size_t count = 5) const;
    // One line per row that was left out (duplicate id, a value that does not parse, a shape error).
    const std::vector<std::string>& problems() const { return m_problems; }

private:
    std::vector<ModelSpec> m_models;
    std::vector<std::string> m_problems;
};

} // namespace dsw
