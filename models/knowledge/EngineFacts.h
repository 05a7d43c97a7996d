#pragma once
// What DeepSpeed's engine builds from optimizer.type and scheduler.type, and facts that hold from a DeepSpeed or
// PyTorch version on (resources/knowledge/deepspeed.json: "optimizers", "lr_schedulers", "version_facts"), each
// read and checked on first use. A member that fails its check throws std::logic_error with the check's message
// (TestEngineFacts holds the shipped file to the checks).
#include "util/Result.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

struct OptimizerClass {
    std::string name;                               // "FusedAdam", "torch.optim.SGD"
    std::optional<std::vector<std::string>> params; // keyword parameters of its constructor; nullopt: not checked
};

struct OptimizerSpec {
    std::string name;           // "adam" for DeepSpeed's names, "SGD" for torch.optim's
    bool deepspeedName = false; // matched without case; a torch.optim name is matched exactly
    bool zeroSupported =
        false; // in ZERO_SUPPORTED_OPTIMIZERS (false for every torch.optim class but Adam/AdamW/Adagrad)
    std::vector<std::string> popped;              // params DeepSpeed removes before the constructor
    std::map<std::string, OptimizerClass> builds; // "default" (always), "offload", "torch_adam"
    std::string torchFrom;                        // first PyTorch with the class; "" = every 2.x
};

// deepspeed.json's "optimizers" (`optimizers`, that member's value): DeepSpeed's names first, in the file's order;
// or the error naming the file and the entry ("deepspeed.json: optimizers.deepspeed[2] (adagrad).builds: ..."):
// "deepspeed" and "torch" arrays of entries with exactly their members, non-empty names written as they are matched
// (DeepSpeed's in lower case), none listed twice or shadowed by a DeepSpeed name, a "default" class among the
// builds, torch_from a version.
Result<std::vector<OptimizerSpec>> readOptimizers(const nlohmann::ordered_json& optimizers);
// The optimizer DeepSpeed builds for `type`, matched as DeepSpeed matches it; nullptr when it would refuse the
// name. A class newer than `torchVersion` (when given) counts as missing.
const OptimizerSpec* findOptimizer(std::string_view type, const std::string& torchVersion = "");
// Every name DeepSpeed accepts, in the spelling it matches (for suggestions).
std::vector<std::string> optimizerNames();

struct SchedulerSpec {
    std::string name;
    bool deepspeed = false; // from deepspeed.runtime.lr_schedules (else torch.optim.lr_scheduler)
    bool warmup = false;    // takes warmup_num_steps
    std::vector<std::string> required, params;
};

// deepspeed.json's "lr_schedulers", DeepSpeed's first, in the file's order; or the error naming the file and the
// entry: no name twice, every required parameter among the params.
Result<std::vector<SchedulerSpec>> readSchedulers(const nlohmann::ordered_json& schedulers);
// The scheduler class for `type`, matched exactly as hasattr() does; nullptr when DeepSpeed does not know it.
const SchedulerSpec* findScheduler(std::string_view type);
std::vector<std::string> schedulerNames();

// A fact that holds from a version on ("version_facts"): exactly one of deepspeedFrom / torchFrom is set.
struct VersionFact {
    std::string deepspeedFrom, torchFrom, source, before;
};
// deepspeed.json's "version_facts" by key ("about" left out); or the error naming the file and the fact: each names
// exactly one of deepspeed_from / torch_from, as a version, and a source.
Result<std::map<std::string, VersionFact>> readVersionFacts(const nlohmann::ordered_json& facts);
// Throws std::out_of_range for a key deepspeed.json does not list.
VersionFact versionFact(const std::string& key);

} // namespace dsw
