#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

// A change the wizard would make to an imported config; applied only when the user accepts it.
struct Suggestion {
    std::string pointer;         // JSON pointer in the config
    nlohmann::ordered_json from; // the imported value (null: absent)
    nlohmann::ordered_json to;   // the wizard's value (null: remove the key)
    std::string workflow;        // which workflow's advice it comes from ("base" for batch/clipping/optimizer)
    std::string reason;
    bool accepted = false;
};

// The wizard's differences from an imported config, key by key (a whole block when the imported
// config lacks it). Keys the wizard does not model are never touched.
std::vector<Suggestion> suggestionsFor(const nlohmann::ordered_json& imported, const nlohmann::ordered_json& wizard);

// The imported config with the accepted suggestions applied, keys in their original order.
nlohmann::ordered_json applySuggestions(nlohmann::ordered_json imported, const std::vector<Suggestion>& suggestions);

} // namespace dsw
