#pragma once
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
    std::int64_t experts = 1;            // routed experts per mixture-of-experts layer (model.experts); 1: dense
    std::int64_t expertsPerToken = 0;    // a mixture of experts' top-k (model.experts_per_token); 0 when dense
    std::int64_t expertIntermediate = 0; // one expert's MLP width when not the intermediate size; 0: it is
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
