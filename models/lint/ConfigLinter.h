#pragma once
#include "config/ConfigText.h"
#include "project/Answers.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dsw {

enum class LintLevel { Error, Warning, Info };

// One thing DeepSpeed would reject, ignore or read differently from what the author meant.
struct LintFinding {
    LintLevel level = LintLevel::Warning;
    std::string code; // stable kebab-case id, listed in the README
    std::string path; // JSON pointer of the key or value concerned ("" = whole config)
    std::string message;
    std::optional<std::string> suggestion; // the concrete change, when there is one
    std::optional<std::string> source;     // source id from resources/knowledge/sources.tsv
    int line = 0;                          // 1-based line in the text, 0 when unknown
};

// Lints a config against what DeepSpeed actually does. `context` supplies what a config alone lacks:
// only answers the user gave (context.has(id)) are used — GPU, GPU counts, launcher, versions,
// pipeline stages — so nothing is assumed about an unknown cluster.
std::vector<LintFinding> lintConfig(const ParsedConfig& config, const Answers& context);

std::string toString(LintLevel level);
std::string mark(LintLevel level); // ✗ ⚠ ℹ
nlohmann::ordered_json toJson(const LintFinding& finding);

} // namespace dsw
