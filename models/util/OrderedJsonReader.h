#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace dsw {

// Strict JSON into ordered_json in time linear in the text. nlohmann's own parse finds each new key of
// an ordered object by a linear search of the keys before it, which is quadratic in the object's size
// (150,000 keys: tens of seconds). A repeated key keeps its first place and its last value, as there.
struct OrderedJsonRead {
    struct Error {
        std::size_t byte = 0; // nlohmann's offset: just past the offending token
        bool syntax = true;   // false for a valid token nlohmann cannot hold (a number too large)
        std::string what;     // nlohmann's message
    };
    nlohmann::ordered_json value;
    std::optional<Error> error;
};

// Never throws for bad text. Nesting is not limited here: check it first (JsonLimits.h), since
// copying, comparing and dumping the result recurse.
OrderedJsonRead readOrderedJson(const std::string& text);

} // namespace dsw
