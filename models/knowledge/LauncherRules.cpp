// Sources (resources/knowledge/sources.tsv): ds-pipeline-module.
#include "knowledge/LauncherRules.h"

namespace dsw {

std::optional<RuleBreak> pipelineLauncherBreak(const std::string& launcher, long long pipelineStages)
{
    if (pipelineStages <= 1 || (launcher != "hf-trainer" && launcher != "accelerate"))
        return std::nullopt;
    return RuleBreak{"pipeline-needs-deepspeed-launcher",
                     std::string(launcher == "accelerate" ? "Accelerate" : "The Transformers Trainer")
                         + " has no pipeline engine (it hands deepspeed.initialize a plain model, never a "
                           "PipelineModule) and fills train_batch_size as GPUs x micro-batch x accumulation, "
                         + std::to_string(pipelineStages)
                         + " times the plan's batch: a pipeline runs under DeepSpeed's own launcher "
                           "(software.launcher = deepspeed), with a script that builds a PipelineModule.",
                     "ds-pipeline-module"};
}

} // namespace dsw
