#pragma once
// What DeepSpeed's engine builds from optimizer.type and scheduler.type, and facts that hold from a DeepSpeed or
// PyTorch version on (resources/knowledge/deepspeed.json: "optimizers", "lr_schedulers", "version_facts").
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dsw {

struct OptimizerClass {
    std::string name;                               // "FusedAdam", "torch.optim.SGD"
    std::optional<std::vector<std::string>> params; // keyword parameters of its constructor; nullopt: not checked
};

struct OptimizerSpec {
    std::string name;          // "adam" for DeepSpeed's names, "SGD" for torch.optim's
    bool deepspeedName = false; // matched without case; a torch.optim name is matched exactly
    bool zeroSupported = false; // in ZERO_SUPPORTED_OPTIMIZERS (false for every torch.optim class but Adam/AdamW/Adagrad)
    std::vector<std::string> popped;             // params DeepSpeed removes before the constructor
    std::map<std::string, OptimizerClass> builds; // "default", "offload", "torch_adam"
    std::string torchFrom;                        // first PyTorch with the class; "" = every 2.x
};

// The optimizer DeepSpeed builds for `type`, matched as DeepSpeed matches it; nullptr when it would refuse the
// name. A class newer than `torchVersion` (when given) counts as missing.
const OptimizerSpec* findOptimizer(const std::string& type, const std::string& torchVersion = "");
// Every name DeepSpeed accepts, in the spelling it matches (for suggestions).
std::vector<std::string> optimizerNames();

struct SchedulerSpec {
    std::string name;
    bool deepspeed = false; // from deepspeed.runtime.lr_schedules (else torch.optim.lr_scheduler)
    bool warmup = false;    // takes warmup_num_steps
    std::vector<std::string> required, params;
};

// The scheduler class for `type`, matched exactly as hasattr() does; nullptr when DeepSpeed does not know it.
const SchedulerSpec* findScheduler(const std::string& type);
std::vector<std::string> schedulerNames();

// A fact that holds from a version on ("version_facts"): exactly one of deepspeedFrom / torchFrom is set.
struct VersionFact {
    std::string deepspeedFrom, torchFrom, source, before;
};
// Throws std::out_of_range for a key deepspeed.json does not list.
VersionFact versionFact(const std::string& key);

} // namespace dsw
