#pragma once
#include "config/PeftSetup.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace dsw {

// What launch.sh starts, decided by software.launcher and the cluster size.
struct LaunchSetup {
    std::string launcher = "deepspeed"; // deepspeed | hf-trainer | accelerate
    std::int64_t nodes = 1;
    std::int64_t gpusPerNode = 1;
    std::string trainingScript = "train.py";
    // What the plan relies on that lives in the training script, not in ds_config.json: activation checkpointing
    // (nullopt: not known, marked FILL IN) and the attention kernel (model.attention_impl: eager | sdpa | flash;
    // empty: not known). The Trainer takes --gradient_checkpointing; the rest is the script's, said as FILL IN.
    std::optional<bool> gradientCheckpointing;
    std::string attention;
    std::int64_t checkpointLayers = 0; // with checkpointing, only the first N decoder layers (0: all of them)
    bool fusedLoss = false;            // the plan counts on a fused linear cross-entropy (Liger-Kernel's)
    // Where the GPU count comes from when the answers do not give it (the config's batch keys, or the default):
    // said in launch.sh as a FILL IN. Empty when the answers give the cluster.
    std::string layoutNote;
    // LoRA / QLoRA: the Trainer's launch.sh passes TRL's PEFT arguments; the others point to peft_setup.py.
    std::optional<PeftSetup> peft;
    // What the plan's path asks of the script and the libraries, as FILL IN lines: a mixture of experts'
    // (advise/MoeAdvice.h, moeLaunchNote) and long context's (advise/LongContextAdvice.h); empty otherwise.
    std::string planNote;
    // DeepSpeed-Ulysses's degree (1: none): accelerate_config.yaml's parallelism_config, with the attention kernel.
    std::int64_t sequenceParallel = 1;
};

// One POSIX shell word: as is when it holds only characters no shell treats specially, otherwise in single
// quotes (a ' inside becomes '\''), so spaces, $, quotes and globs reach the program unchanged.
std::string shellQuote(const std::string& word);

// True when launch.sh names a hostfile: the deepspeed launcher (also under the HF Trainer) on several nodes.
bool launchUsesHostfile(const LaunchSetup& setup);

// launch.sh: bash, run from its own folder, naming ds_config.json / accelerate_config.yaml / hostfile.
// `config` is the strict ds_config: for the Trainer, the values that the exported JSON leaves to "auto" are passed
// as TrainingArguments flags; for Accelerate they are listed as what the script must supply.
std::string launchScript(const nlohmann::ordered_json& config, const LaunchSetup& setup);

// A DeepSpeed hostfile template: "node-1 slots=G" ... one line per node, host names to be replaced.
std::string hostfileTemplate(std::int64_t nodes, std::int64_t gpusPerNode);

} // namespace dsw
