#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dsw {

// Who replaces "auto" in a ds_config at run time. Plain DeepSpeed never does: it reads "auto" as a value.
enum class AutoFiller {
    TransformersTrainer, // transformers.Trainer, from its TrainingArguments (also when started by `accelerate launch`)
    Accelerate,          // Accelerator.prepare() in a script that uses Accelerate without the Trainer
};

// software.launcher -> filler: "accelerate" -> Accelerate; "hf-trainer" (and "deepspeed", for an HF export) -> Trainer.
AutoFiller autoFillerForLauncher(const std::string& launcher);

// One value that the filler supplies at run time when the config says "auto" there.
struct AutoValue {
    std::string pointer;          // JSON pointer, e.g. "/optimizer/params/lr"
    nlohmann::ordered_json value; // what the config held: what the filler must be given to keep it
    std::string suppliedBy;       // where the filler takes it from, e.g. "--learning_rate", "DummyOptim(lr=...)"
    std::vector<std::string> trainerArguments; // TrainingArguments flags carrying `value` (Trainer only; often empty)
};

// The keys of `config` that `filler` fills from its own arguments, and only those: present, not null, and where
// "auto" cannot change what the config meant (e.g. warmup_min_lr only when 0, since both fill in 0). In the
// order of the table in HfAutoValues.cpp, which names the source of each.
std::vector<AutoValue> autoValues(const nlohmann::ordered_json& config, AutoFiller filler);

// `config` with "auto" at exactly the pointers of autoValues(); every other key and the key order unchanged.
nlohmann::ordered_json withAutoValues(const nlohmann::ordered_json& config, AutoFiller filler);

// DeepSpeed's WarmupLR / WarmupDecayLR default for warmup_num_steps (runtime/lr_schedules.py, ds-lr-schedules).
inline constexpr std::int64_t kDeepSpeedDefaultWarmupSteps = 1000;

struct ExportedWarmup {
    std::int64_t steps = 0;
    bool wasAuto = false; // the config said "auto": `steps` is DeepSpeed's default, for the user to change
};

// The number the Hugging Face export writes at scheduler.params.warmup_num_steps. "auto" there is filled with 0 by
// the Trainer without --warmup_steps and by Accelerate's DummyScheduler by default, and DeepSpeed
// refuses 0 since 0.19.3 ("warmup_num_steps must be a positive integer"), so the export never leaves it to them:
// the config's own positive number, or DeepSpeed's default when the config said "auto". nullopt when the config has
// no warmup_num_steps, or one the export leaves as written (0, negative, not a whole number: the linter reports it).
std::optional<ExportedWarmup> exportedWarmupSteps(const nlohmann::ordered_json& config);

// `config` with exportedWarmupSteps() written at scheduler.params.warmup_num_steps (in place); otherwise unchanged.
nlohmann::ordered_json withExportedWarmup(const nlohmann::ordered_json& config);

} // namespace dsw
