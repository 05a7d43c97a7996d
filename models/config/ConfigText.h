#pragma once
#include "config/ConfigLines.h"
#include "util/JsonLimits.h"
#include "util/Result.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

// A ds_config read from untrusted text: the JSON (keys in file order, numbers exact), where each key
// sits (for highlighting a finding's line), keys written twice, and whether the text was strict JSON.
struct ParsedConfig {
    nlohmann::ordered_json json;
    ConfigLines lines; // the 1-based line of each key and array element ("/zero_optimization/stage")
    struct Duplicate {
        std::string pointer;
        int line = 0;
    };
    std::vector<Duplicate> duplicates;    // later occurrences of a key already seen in the same object
    bool strictJson = true;               // false when comments or other hjson-only syntax were needed
    std::vector<std::string> hjsonSyntax; // what was not strict JSON: "comments", "trailing commas", "quoteless values"
    std::vector<std::string>
        quotelessValues; // pointers of hjson quoteless values, read as strings to the end of the line

    // The line of `pointer`, or of its nearest ancestor that has one; 0 when unknown.
    int lineOf(const std::string& pointer) const;
    // The line of `pointer` itself; 0 when it names no value or its line is unknown.
    int lineAt(const std::string& pointer) const;
    // Every value with a known line, as (JSON pointer, line), in document order.
    std::vector<std::pair<std::string, int>> pointerLines() const { return lines.all(json); }
};

// Fails (never throws, never crashes) with a message for: more than kMaxConfigBytes, invalid UTF-8
// (with the byte offset), nesting deeper than kMaxConfigDepth, a JSON syntax error (with line and
// column), or a top level that is not an object.
Result<ParsedConfig> parseConfigText(const std::string& bytes);

} // namespace dsw
