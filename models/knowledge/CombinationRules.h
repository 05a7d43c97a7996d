#pragma once
// DeepSpeed's rules on combining features, each written once: the code every page, the linter and the job report it
// under, and the sentence quoting DeepSpeed 0.19.5's code. Callers add their context ("The ZeRO page recommends …",
// "With 4 pipeline stages (pipeline.stages)") in front of `message`; the rule's words and code stay the same.
#include "knowledge/GpuCatalog.h"

#include <optional>
#include <string>
#include <vector>

namespace dsw {

// A rule broken, or the rule that limits a choice: its stable code, what DeepSpeed does, and the source id.
struct RuleBreak {
    std::string code;
    std::string message;
    std::string source;
};

// The codes, for callers that test which rule applies.
inline constexpr const char* kPipelineZeroRule = "pipeline-requires-zero-0-or-1";
inline constexpr const char* kOnebitZeroRule = "onebit-requires-zero-0";
inline constexpr const char* kFp16Bf16Rule = "fp16-and-bf16";
inline constexpr const char* kOffloadParamStageRule = "offload-param-below-stage-3";
inline constexpr const char* kOffloadStage0Rule = "zero-option-at-stage-0";
inline constexpr const char* kNvmeStageRule = "nvme-below-stage-3";

// The 1-bit optimizers by their ds_config type, case-insensitive ("OneBitAdam", "onebitadam"); the wizard's own
// training.optimizer ids ("onebit-adam", "zero-one-adam", "onebit-lamb") are accepted too.
bool isOnebitOptimizer(const std::string& optimizer);

// Pipeline parallelism allows ZeRO stages 0 and 1: the pipeline engine asserts on 2 and 3.
std::optional<RuleBreak> pipelineZeroBreak(long long pipelineStages, int zeroStage);
// The 1-bit optimizers (1-bit Adam, 0/1 Adam, 1-bit LAMB) run at ZeRO stage 0 only, hence without offload. The
// message names `optimizer` as given.
std::optional<RuleBreak> onebitZeroBreak(const std::string& optimizer, int zeroStage);
// fp16 and bf16 are never enabled together.
std::optional<RuleBreak> fp16Bf16Break(bool fp16, bool bf16);

// The highest ZeRO stage the other features allow (3 when nothing limits it), and the rule that sets it.
struct ZeroStageCap {
    int maxStage = 3;
    std::optional<RuleBreak> rule; // its message says what is allowed
};
ZeroStageCap zeroStageCap(const std::string& optimizer, long long pipelineStages);

// Offload × stage: the placement DeepSpeed runs for the one asked, and a rule for each part it ignores. Offload needs
// ZeRO (none at stage 0); offload_param is read on the ZeRO-3 path only; NVMe optimizer offload at stages 1–2 runs
// as CPU offload. Devices: none | cpu | nvme.
struct PlacementAsRun {
    int stage = 0;
    std::string offloadOptimizer = "none";
    std::string offloadParam = "none";
    std::vector<RuleBreak> ignored; // empty when DeepSpeed runs what was asked
};
PlacementAsRun placementAsRun(int stage, const std::string& offloadOptimizer, const std::string& offloadParam);

// What DeepSpeed trains in for training.precision on this GPU and DeepSpeed version: bf16 where both have it (fp8 and
// auto included: fp8 is Transformer Engine code running under a bf16 or fp16 config), fp16 with dynamic loss scaling
// otherwise; fp16 and bf16 are never both enabled. Resolved once for every page (advise/Job.h).
struct PrecisionChoice {
    std::string asked;                // training.precision: auto | fp16 | bf16 | fp8 | fp32
    std::string runs = "bf16";        // the block the config enables: bf16 | fp16 | fp32
    std::string reason;               // why, in one sentence
    std::optional<RuleBreak> refused; // the asked precision cannot run here (it runs `runs` instead)
    bool gpuHasBf16 = false;          // per the GPU catalog
};
PrecisionChoice resolvePrecision(const std::string& asked, const GpuSpec* gpu, const std::string& deepspeedVersion);
// "A100-80GB (Ampere, compute capability 8.0)", or "unknown GPU".
std::string gpuCapabilityText(const GpuSpec* gpu);

} // namespace dsw
