#pragma once
// What a LoRA or QLoRA plan asks of the training script, for the exports: TRL's command-line arguments for launch.sh
// (the Trainer) and peft_setup.py, the few lines that load the base model and add the adapters as the plan sized
// them, for each launcher (knowledge/AdapterRules.h says why each line is there).
// Sources (resources/knowledge/sources.tsv): trl-model-config, peft-qlora-quant-storage, trl-zero3-empty-adapter,
// hf-zero-init.
#include "knowledge/AdapterShape.h"
#include "project/Answers.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dsw {

inline constexpr const char* kPeftSetupFileName = "peft_setup.py";

struct PeftSetup {
    TrainingMethod method = TrainingMethod::Lora;
    std::int64_t rank = 8;
    double alpha = 16;
    double dropout = 0.1;
    std::vector<std::string> targets; // PEFT's target_modules: module names, or the one word "all-linear"
    std::vector<std::string> modulesToSave;
    bool doubleQuant = true;
    std::string dtype = "bfloat16"; // the torch dtype ds_config.json trains in
    bool zero3 = false;
    std::string launcher = "deepspeed";
    std::string attention; // model.attention_impl: eager | sdpa | flash; empty: not known
};

// The adapters of `answers` (training.method, lora.*) for `config` (its precision block and ZeRO stage); none for a
// full fine-tune.
std::optional<PeftSetup> peftSetupFrom(const nlohmann::ordered_json& config, const Answers& answers);

// TRL's ModelConfig arguments (trl sft, TRL's examples/scripts/sft.py): one line of words each.
std::vector<std::vector<std::string>> trlModelArguments(const PeftSetup& setup);

// peft_setup.py: load_model() and, for plain DeepSpeed, the engine and the adapter's save.
std::string peftSetupScript(const PeftSetup& setup);

} // namespace dsw
