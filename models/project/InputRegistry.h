#pragma once
#include "util/Result.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

enum class InputType {
    Count,   // whole number that accepts 7B, 350M, 1.3e9
    Integer, // whole number
    Number,  // real number
    Choice,  // one of `values`
    Gpu,     // an id of the GPU catalog
    Text,    // free text; `max` is its longest length (0: 4096)
    Boolean, // true | false
};

// One input, declared once: drives the pages, the project file, --set, validation and help.
struct InputSpec {
    std::string id; // dotted, e.g. "hardware.gpus_per_node"
    InputType type = InputType::Integer;
    std::string label; // short, for forms
    std::string unit;  // e.g. "GiB", "parameters"
    double min = 0;    // for numbers
    double max = 0;
    std::vector<std::string> values; // for choices
    nlohmann::json defaultValue;     // null: required, or derived (see `derivedDefault`)
    std::string derivedDefault;      // how the default is derived from other answers, if it is
    std::string help;
    std::string page;                   // the one step that asks it: "setup" or a workflow id
    std::vector<std::string> workflows; // the workflows that use it
    bool required = false;              // no default: a workflow that uses it needs it
};

class InputRegistry {
public:
    static const InputRegistry& instance();

    const std::vector<InputSpec>& all() const;
    const InputSpec* find(const std::string& id) const;
    std::vector<const InputSpec*> onPage(const std::string& page) const;

    // Parses text typed by a user (a form field, --set). The error names the id and what is allowed.
    Result<nlohmann::json> parse(const std::string& id, const std::string& text) const;
    // Validates a value read from a project file (already JSON); numbers as strings are parsed too.
    Result<nlohmann::json> validate(const std::string& id, const nlohmann::json& value) const;
    // "1 to 1024", "one of: none, nvme", ...
    static std::string allowed(const InputSpec& spec);
    // The longest text `parse` accepts, in characters (Unicode code points): a text input's `max`
    // (0: 4096); 64 for every other type, more than any value they accept is written with.
    static std::size_t maxCharacters(const InputSpec& spec);

private:
    InputRegistry();
    // model.preset, the first spec, with its values filled in (there is one registry: instance()).
    const InputSpec& presetSpec() const;
    mutable std::vector<InputSpec> m_specs;
};

} // namespace dsw
