#pragma once
// What a launcher's reader can run, written once: the export refuses it, the linter and the pipeline page say it
// under the same code.
#include "knowledge/CombinationRules.h"

#include <optional>
#include <string>

namespace dsw {

// A pipeline (pipelineStages > 1) runs under DeepSpeed's own launcher only: the HF Trainer and Accelerate hand
// deepspeed.initialize a plain model and fill train_batch_size as GPUs x micro-batch x accumulation.
std::optional<RuleBreak> pipelineLauncherBreak(const std::string& launcher, long long pipelineStages);

} // namespace dsw
