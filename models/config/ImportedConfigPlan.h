#pragma once
#include "project/Answers.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

// A change the wizard would make to an imported config; applied only when the user accepts it.
struct Suggestion {
    std::string pointer;         // JSON pointer in the config
    nlohmann::ordered_json from; // the imported value (null: absent)
    nlohmann::ordered_json to;   // the wizard's value (null: remove the key)
    std::string workflow;        // which workflow's advice it comes from ("base" for batch/clipping/optimizer)
    std::string reason;
    bool accepted = false;
};

// The wizard's differences from an imported config, key by key (a whole block when the imported
// config lacks it). Keys the wizard does not model are never touched.
std::vector<Suggestion> suggestionsFor(const nlohmann::ordered_json& imported, const nlohmann::ordered_json& wizard);

// The answers the suggestions for an imported config wait for, as the ids of those not given: the model
// ("model.params": neither it, a preset nor a shape) and the cluster ("hardware.gpu", "hardware.gpus_per_node",
// "hardware.nodes"). While one is missing there are no suggestions: they would come from defaults, not the user.
std::vector<std::string> suggestionInputsMissing(const Answers& answers);

// Whether `suggestion` may be offered: never one that replaces "auto" for a Hugging Face launcher (the Trainer or
// Accelerate fills it, and a number there must match its own arguments), and never a batch, clipping or optimizer
// value taken from answers the user did not give (the wizard's defaults).
bool suggestionAllowed(const Suggestion& suggestion, const Answers& answers);

// suggestionsFor(imported, wizard), keeping only those allowed, and none that adds a key as DeepSpeed runs it without
// (its default at software.deepspeed_version, a batch key it infers). train_batch_size is removed where it contradicts
// the micro-batch (DeepSpeed infers it), never added. While suggestionInputsMissing() is not empty only the changes
// without which DeepSpeed refuses the file (fp16 and bf16 both on, that train_batch_size) are offered.
std::vector<Suggestion> suggestionsFor(const nlohmann::ordered_json& imported, const nlohmann::ordered_json& wizard,
                                       const Answers& answers);

// Why `suggestion` is offered, for the keys whose purpose is known: a deprecated key's replacement (cpu_offload →
// offload_optimizer), or what the key does. Empty for other keys (the caller names the page's plan instead).
std::string suggestionReason(const Suggestion& suggestion, const nlohmann::ordered_json& imported);

// The imported config with the accepted suggestions applied, keys in their original order.
nlohmann::ordered_json applySuggestions(nlohmann::ordered_json imported, const std::vector<Suggestion>& suggestions);

} // namespace dsw
