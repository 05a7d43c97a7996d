#pragma once
// The rules of training PEFT adapters (LoRA, QLoRA) under DeepSpeed, each written once with its source and the
// versions it applies to: the ZeRO and pipeline pages show them as checks, the linter reports the save rule under the
// same code, and the exports write what they ask for (the 16-bit gather at ZeRO-3, quant storage = model dtype).
#include "knowledge/AdapterShape.h"
#include "knowledge/CombinationRules.h"

#include <string>
#include <vector>

namespace dsw {

inline constexpr const char* kAdapterSaveGatherRule = "adapter-zero3-save-gather";
inline constexpr const char* kQloraQuantStorageRule = "qlora-zero3-quant-storage";
inline constexpr const char* kAdapterMergeRule = "adapter-merge-needs-gather";
inline constexpr const char* kModulesToSaveZero3Rule = "adapter-modules-to-save-zero3";
inline constexpr const char* kAdapterOffloadRule = "adapter-offload-gain-on-host";
inline constexpr const char* kQloraOffloadRule = "qlora-zero3-offload-more-gpu";
inline constexpr const char* kAdapterPipelineRule = "adapter-pipeline";

// What the rules look at: the method and the plan's placement.
struct AdapterSetup {
    TrainingMethod method = TrainingMethod::Full;
    int stage = 0;
    bool offloadsOptimizer = false; // offload_optimizer to cpu or nvme, as DeepSpeed runs it
    bool offloadsParams = false;    // offload_param (stage 3 only)
    long long pipelineStages = 1;
    bool modulesToSave = false;     // lora.modules_to_save is not empty
    std::string dtype = "bfloat16"; // the torch dtype the model trains in (bfloat16 | float16 | float32)
    std::string deepspeedVersion;   // software.deepspeed_version
};

// The rules that apply, in the order a user meets them (load, train, save, merge); empty for a full fine-tune.
std::vector<RuleBreak> adapterRules(const AdapterSetup& setup);

// The torch dtype name for the block the config enables (bf16 | fp16 | fp32).
std::string torchDtypeOf(const std::string& precisionRuns);

} // namespace dsw
