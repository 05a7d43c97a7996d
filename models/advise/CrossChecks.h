#pragma once
#include "advise/ConfigComposer.h"
#include "project/Answers.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace dsw {

// Combinations DeepSpeed rejects, found in a composed config: pipeline with ZeRO ≥ 2, a 1-bit optimizer
// with ZeRO or offload, fp16 with bf16. The advisors avoid them; this is the net that reports any left.
std::vector<Finding> crossWorkflowFindings(const nlohmann::ordered_json& config, const Answers& answers);

} // namespace dsw
