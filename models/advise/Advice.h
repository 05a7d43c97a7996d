#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

enum class CheckLevel { Pass, Warn, Fail };
enum class AdviceStatus { Complete, NeedsInput, NotApplicable };

// One explicit check the advisor made; `code` is a stable kebab-case id listed in the README.
struct Check {
    CheckLevel level = CheckLevel::Pass;
    std::string code;
    std::string message;
    std::string source; // source id from resources/knowledge/sources.tsv, or empty
};

// A number shown to the user, with how it was computed and which convention it follows.
struct Estimate {
    std::string name;
    double value = 0;
    std::string unit;
    std::string formula;
    std::string source;
};

struct Tradeoff {
    std::string title;
    std::string text;
    std::string source;
};

struct Snippet {
    std::string language; // python | bash | json
    std::string title;
    std::string code;
};

// What one workflow's advisor says about the answers.
struct Advice {
    std::string workflow;
    AdviceStatus status = AdviceStatus::NotApplicable;
    std::vector<std::string> missing;                                   // input ids the workflow still needs
    std::string headline;                                               // one line: the recommendation
    nlohmann::ordered_json fragment = nlohmann::ordered_json::object(); // its part of the ds_config
    std::vector<Check> checks;
    std::vector<Tradeoff> tradeoffs;
    std::vector<Estimate> estimates;
    std::vector<Snippet> snippets;
    std::vector<std::string> sources;
    bool recommendsAgainst = false; // the page advises against what it describes (1-bit Adam without a case for it)
    // Workflow-specific figures for `recommend --format json`: output only. Nothing reads them back
    // (tests/layering/check-details-reads.sh); pages read the typed decisions in the Plan.
    nlohmann::ordered_json details = nlohmann::ordered_json::object();

    bool hasFailedCheck() const;
    // `sources`, then every other source a check, trade-off or estimate cites, each once: what the page cites.
    std::vector<std::string> citedSources() const;
};

std::string toString(CheckLevel level);
std::string mark(CheckLevel level); // ✓ ⚠ ✗, as every view shows a check
std::string toString(AdviceStatus status);
nlohmann::ordered_json toJson(const Check& check);
nlohmann::ordered_json toJson(const Advice& advice);

} // namespace dsw
