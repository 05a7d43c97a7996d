#pragma once
#include "config/ConfigText.h"
#include "knowledge/DeepSpeedSchema.h"
#include "lint/ConfigLinter.h"
#include "project/Answers.h"
#include "util/JsonAccess.h"

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace dsw {

// What every lint rule needs: the config, the answers the user gave, the schema, and a place to
// put findings (each gets the line of its pointer). Also the readings of the config that several
// rules share, each done the way DeepSpeed does it.
class LintReport {
public:
    LintReport(const ParsedConfig& config, const Answers& context, const DeepSpeedSchema& schema);

    const ParsedConfig& config() const { return m_config; }
    const nlohmann::ordered_json& json() const { return m_config.json; }
    const Answers& context() const { return m_context; }
    const DeepSpeedSchema& schema() const { return m_schema; }

    void add(LintLevel level, std::string code, std::string path, std::string message,
             std::optional<std::string> suggestion = std::nullopt, std::optional<std::string> source = std::nullopt);
    std::vector<LintFinding> take();

    // The value at a JSON pointer, or nullptr.
    const nlohmann::ordered_json* at(const std::string& pointer) const;
    bool isQuoteless(const std::string& pointer) const;

    // "hf-trainer", "accelerate", "deepspeed", or "" when the user did not say.
    std::string launcher() const;
    bool launcherFillsAuto() const;

    // The ZeRO stage DeepSpeed ends up with: absent -> 0, the legacy `true` -> 1, "auto" -> the
    // default 0 (pydantic drops it), a numeric string -> its number; nullopt when DeepSpeed would
    // reject the value.
    std::optional<int> zeroStage() const;
    // `enabled` of the fp16 block, or of bf16 (falling back to the legacy "bfloat16" as DeepSpeed
    // does): true or false when written as a boolean or absent; nullopt for "auto" or anything else.
    std::optional<bool> enabled(const std::string& block) const;
    // The bf16 block DeepSpeed reads: "/bf16", else "/bfloat16", else "".
    std::string bf16Pointer() const;

private:
    const ParsedConfig& m_config;
    const Answers& m_context;
    const DeepSpeedSchema& m_schema;
    std::vector<LintFinding> m_findings;
    std::unordered_set<std::string> m_quoteless;
};

// "zero_optimization.offload_param.device" for "/zero_optimization/offload_param/device".
std::string dottedPath(const std::string& pointer);
// A number, also an integral or fractional float; nullopt for anything else (strings included).
std::optional<double> numberValue(const nlohmann::ordered_json& value);
// Short rendering of a value for messages: 5e8 as 500000000, strings quoted.
std::string shortJson(const nlohmann::ordered_json& value);

} // namespace dsw
