#include "advise/CrossChecks.h"
#include "knowledge/SourceCatalog.h"
#include "util/JsonAccess.h"

#include <algorithm>
#include <cctype>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

int zeroStage(const oj& config)
{
    const auto zero = config.find("zero_optimization");
    if (zero == config.end() || !zero->is_object())
        return 0;
    return valueOr(*zero, "stage", 0);
}

bool enabled(const oj& config, const char* block) { return isEnabled(config, block); }

bool offloads(const oj& config)
{
    const auto zero = config.find("zero_optimization");
    if (zero == config.end() || !zero->is_object())
        return false;
    for (const char* key : {"offload_optimizer", "offload_param"}) {
        const auto block = zero->find(key);
        if (block != zero->end() && valueOr(*block, "device", std::string("none")) != "none")
            return true;
    }
    return false;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

} // namespace

std::vector<Finding> crossWorkflowFindings(const oj& config, const Answers& answers)
{
    std::vector<Finding> findings;
    const int stage = zeroStage(config);
    if (answers.integer("pipeline.stages") > 1 && stage >= 2)
        findings.push_back(
            {CheckLevel::Fail,
             "pipeline-requires-zero-0-or-1",
             "Pipeline parallelism with ZeRO stage " + std::to_string(stage) + ": " + quoteOf("ds-pipe-zero") + ".",
             {"pipeline", "zero"}});
    std::string optimizer;
    if (const auto opt = config.find("optimizer"); opt != config.end() && opt->is_object())
        optimizer = lower(valueOr(*opt, "type", std::string()));
    const bool onebit = optimizer == "onebitadam" || optimizer == "zerooneadam" || optimizer == "onebitlamb";
    if (onebit && stage != 0)
        findings.push_back({CheckLevel::Fail,
                            "onebit-requires-zero-0",
                            "A 1-bit optimizer with ZeRO stage " + std::to_string(stage) + ": "
                                + quoteOf("ds-onebit-zero") + " (likewise 0/1 Adam and 1-bit LAMB).",
                            {"onebit", "zero"}});
    if (onebit && offloads(config))
        findings.push_back(
            {CheckLevel::Fail,
             "onebit-with-offload",
             "A 1-bit optimizer with ZeRO offload: offload needs ZeRO, which the 1-bit optimizers reject.",
             {"onebit", "zero"}});
    if (enabled(config, "fp16") && enabled(config, "bf16"))
        findings.push_back(
            {CheckLevel::Fail,
             "fp16-and-bf16",
             "fp16 and bf16 are both enabled: " + quoteExcerpt("ds-fp16-config", "bfloat16 and fp16", "enabled") + ".",
             {"precision"}});
    return findings;
}

} // namespace dsw
