// DeepSpeed's combination rules; see CombinationRules.h.
#include "knowledge/CombinationRules.h"

#include "knowledge/SourceCatalog.h"
#include "util/Version.h"

#include <algorithm>
#include <cctype>

namespace dsw {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// The engine's assertion for each 1-bit optimizer (sources.tsv ids), by ds_config type in lower case.
std::string onebitSource(const std::string& optimizer)
{
    const std::string type = lower(optimizer);
    if (type == "zerooneadam" || type == "zero-one-adam")
        return "ds-zoadam-zero";
    if (type == "onebitlamb" || type == "onebit-lamb")
        return "ds-onebit-lamb-zero";
    return "ds-onebit-zero";
}

} // namespace

bool isOnebitOptimizer(const std::string& optimizer)
{
    const std::string type = lower(optimizer);
    return type == "onebitadam" || type == "zerooneadam" || type == "onebitlamb" || type == "onebit-adam"
        || type == "zero-one-adam" || type == "onebit-lamb";
}

std::optional<RuleBreak> pipelineZeroBreak(long long pipelineStages, int zeroStage)
{
    if (pipelineStages <= 1 || zeroStage < 2)
        return std::nullopt;
    return RuleBreak{kPipelineZeroRule,
                     "ZeRO stage " + std::to_string(zeroStage) + " stops DeepSpeed's pipeline engine, which asserts "
                         + quoteOf("ds-pipe-zero") + ": use ZeRO stage 0 or 1 with pipeline parallelism.",
                     "ds-pipe-zero"};
}

std::optional<RuleBreak> onebitZeroBreak(const std::string& optimizer, int zeroStage)
{
    if (!isOnebitOptimizer(optimizer) || zeroStage == 0)
        return std::nullopt;
    const std::string source = onebitSource(optimizer);
    return RuleBreak{kOnebitZeroRule,
                     optimizer + " at ZeRO stage " + std::to_string(zeroStage) + ": DeepSpeed asserts "
                         + quoteOf(source)
                         + " (1-bit Adam, 0/1 Adam and 1-bit LAMB run at stage 0 only, hence without offload).",
                     source};
}

std::optional<RuleBreak> fp16Bf16Break(bool fp16, bool bf16)
{
    if (!fp16 || !bf16)
        return std::nullopt;
    return RuleBreak{kFp16Bf16Rule,
                     "fp16 and bf16 are both enabled: DeepSpeed stops with "
                         + quoteExcerpt("ds-fp16-config", "bfloat16 and fp16", "enabled")
                         + ". Enable only one: bf16 where the GPU has it, fp16 otherwise.",
                     "ds-fp16-config"};
}

ZeroStageCap zeroStageCap(const std::string& optimizer, long long pipelineStages)
{
    if (isOnebitOptimizer(optimizer)) {
        const std::string source = onebitSource(optimizer);
        return {0,
                RuleBreak{kOnebitZeroRule,
                          "The 1-bit optimizers are not compatible with ZeRO (" + quoteOf(source)
                              + "): only stage 0 is allowed.",
                          source}};
    }
    if (pipelineStages > 1)
        return {1,
                RuleBreak{kPipelineZeroRule,
                          "Pipeline parallelism (pipeline.stages " + std::to_string(pipelineStages)
                              + "): " + quoteOf("ds-pipe-zero") + ", so only stages 0 and 1 are allowed.",
                          "ds-pipe-zero"}};
    return {};
}

PlacementAsRun placementAsRun(int stage, const std::string& offloadOptimizer, const std::string& offloadParam)
{
    PlacementAsRun run{stage, offloadOptimizer, offloadParam, {}};
    const std::string at = " at ZeRO stage " + std::to_string(stage);
    if (offloadParam != "none" && stage < 3) {
        run.ignored.push_back({kOffloadParamStageRule,
                               "offload_param (device " + offloadParam + ")" + at
                                   + " does nothing: it is read only on the ZeRO-3 path ("
                                   + quoteOf("ds-offload-param-stage3") + ") and ignored without an error.",
                               "ds-offload-param-stage3"});
        run.offloadParam = "none";
    }
    if (offloadOptimizer != "none" && stage == 0) {
        run.ignored.push_back({kOffloadStage0Rule,
                               "offload_optimizer (device " + offloadOptimizer + ")" + at
                                   + " does nothing: offloading works with ZeRO stage 1, 2 or 3 ("
                                   + quoteExcerpt("ds-offload-stages", "CPU offloading") + ").",
                               "ds-offload-stages"});
        run.offloadOptimizer = "none";
    } else if (offloadOptimizer == "nvme" && stage < 3) {
        run.ignored.push_back({kNvmeStageRule,
                               "offload_optimizer device nvme" + at + " silently acts as CPU offload ("
                                   + quoteExcerpt("ds-offload-stages", "NVMe offloading")
                                   + "): nothing is written to NVMe.",
                               "ds-offload-stages"});
        run.offloadOptimizer = "cpu";
    }
    return run;
}

std::string gpuCapabilityText(const GpuSpec* gpu)
{
    if (!gpu)
        return "unknown GPU";
    return gpu->id + " (" + gpu->architecture + ", compute capability " + gpu->computeCapability + ")";
}

PrecisionChoice resolvePrecision(const std::string& asked, const GpuSpec* gpu, const std::string& deepspeedVersion)
{
    PrecisionChoice p;
    p.asked = asked;
    p.gpuHasBf16 = gpu && gpu->bf16;
    const bool deepspeedBf16 = versionAtLeast(deepspeedVersion, "0.5.5"); // bf16 arrived in DeepSpeed 0.5.5
    const std::string gpuName = gpu ? gpu->id : "the GPU";
    if (asked == "fp16" || asked == "fp32") {
        p.runs = asked;
        p.reason = asked + " as asked (training.precision).";
        return p;
    }
    if (asked == "bf16" && !p.gpuHasBf16)
        p.refused = RuleBreak{"bf16-unsupported-gpu",
                              gpuCapabilityText(gpu) + " has no bf16 support ("
                                  + quoteExcerpt("te-support-matrix", "BF16 requires", "or higher")
                                  + "); DeepSpeed would stop with " + quoteOf("ds-bf16-config")
                                  + " fp16 with dynamic loss scaling is used instead.",
                              "te-support-matrix"};
    else if (asked == "bf16" && !deepspeedBf16)
        p.refused =
            RuleBreak{"bf16-needs-newer-deepspeed",
                      "DeepSpeed " + deepspeedVersion + " has no bf16; it arrived in 0.5.5. fp16 is used instead.",
                      "ds-bf16-versions"};
    if (p.gpuHasBf16 && deepspeedBf16) {
        p.runs = "bf16";
        p.reason = asked == "bf16" ? "bf16 as asked (training.precision): " + gpuName + " supports it."
                                   : "bf16: " + gpuName + " supports it and DeepSpeed " + deepspeedVersion
                + " has it; it needs no loss scaling.";
    } else {
        p.runs = "fp16";
        p.reason = !p.gpuHasBf16
            ? "fp16 with dynamic loss scaling: " + gpuName + " has no bf16."
            : "fp16 with dynamic loss scaling: DeepSpeed " + deepspeedVersion + " has no bf16 (it arrived in 0.5.5).";
    }
    return p;
}

} // namespace dsw
