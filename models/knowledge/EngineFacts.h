#pragma once
// What DeepSpeed's engine builds from optimizer.type and scheduler.type, and facts that hold from a DeepSpeed or
// PyTorch version on (resources/knowledge/deepspeed.json: "optimizers", "lr_schedulers", "version_facts").
// All three are compiled from deepspeed.json at build time (tools/engine-facts-compiler,
// models/CompileEngineFacts.cmake): constant arrays of views, so a lookup parses nothing and allocates nothing.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

struct OptimizerClass {
    std::string_view name; // "FusedAdam", "torch.optim.SGD"
    std::optional<std::span<const std::string_view>>
        params; // keyword parameters of its constructor; nullopt: not checked
};

// The class an optimizer builds in one case: "default", "offload" (offload_optimizer device cpu or nvme) or
// "torch_adam" (params.torch_adam true).
struct OptimizerBuild {
    std::string_view kind;
    OptimizerClass built;
};

struct OptimizerSpec {
    std::string_view name;      // "adam" for DeepSpeed's names, "SGD" for torch.optim's
    bool deepspeedName = false; // matched without case; a torch.optim name is matched exactly
    bool zeroSupported =
        false; // in ZERO_SUPPORTED_OPTIMIZERS (false for every torch.optim class but Adam/AdamW/Adagrad)
    std::span<const std::string_view> popped; // params DeepSpeed removes before the constructor
    std::span<const OptimizerBuild> builds;   // "default" always among them
    std::string_view torchFrom;               // first PyTorch with the class; "" = every 2.x

    // The class built in case `kind`; nullptr when this optimizer has no such case ("default" is always there).
    const OptimizerClass* build(std::string_view kind) const;
};

// Every optimizer deepspeed.json lists, DeepSpeed's names first, in the file's order.
std::span<const OptimizerSpec> optimizerSpecs();
// The optimizer DeepSpeed builds for `type`, matched as DeepSpeed matches it; nullptr when it would refuse the
// name. A class newer than `torchVersion` (when given) counts as missing.
const OptimizerSpec* findOptimizer(std::string_view type, const std::string& torchVersion = "");
// Every name DeepSpeed accepts, in the spelling it matches (for suggestions).
std::vector<std::string_view> optimizerNames();

struct SchedulerSpec {
    std::string_view name;
    bool deepspeed = false; // from deepspeed.runtime.lr_schedules (else torch.optim.lr_scheduler)
    bool warmup = false;    // takes warmup_num_steps
    std::span<const std::string_view> required, params;
};

// Every scheduler deepspeed.json lists, DeepSpeed's first, in the file's order.
std::span<const SchedulerSpec> schedulerSpecs();
// The scheduler class for `type`, matched exactly as hasattr() does; nullptr when DeepSpeed does not know it.
const SchedulerSpec* findScheduler(std::string_view type);
std::vector<std::string_view> schedulerNames();

// A fact that holds from a version on ("version_facts"): exactly one of deepspeedFrom / torchFrom is set.
struct VersionFact {
    std::string deepspeedFrom, torchFrom, source, before;
};
// Throws std::out_of_range for a key deepspeed.json does not list.
VersionFact versionFact(const std::string& key);

// One "version_facts" member as compiled, named by its key; every fact, in the file's order.
struct VersionFactEntry {
    std::string_view key, deepspeedFrom, torchFrom, source, before;
};
std::span<const VersionFactEntry> versionFactEntries();

} // namespace dsw
