#pragma once
#include "project/Answers.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dsw {

// What the user's launcher reads.
enum class ExportTarget {
    DeepSpeedJson,  // strict JSON: what DeepSpeed, Transformers and Accelerate all read
    HfJson,         // the same with "auto" where the HF Trainer / Accelerate fill the value in, and only there
    AccelerateYaml, // an Accelerate config that points at the JSON
    Launch,         // the deepspeed launcher command, with a hostfile template for several nodes
    Bundle,         // every file the chosen launcher needs
};

// The fixed file names; each file refers to the others by these names.
inline constexpr const char* kDeepSpeedConfigFileName = "ds_config.json";
inline constexpr const char* kAccelerateConfigFileName = "accelerate_config.yaml";
inline constexpr const char* kLaunchScriptFileName = "launch.sh";
inline constexpr const char* kHostfileName = "hostfile";

struct ExportFile {
    std::string name; // file name, no directory: "ds_config.json", "accelerate_config.yaml", "launch.sh", "hostfile"
    std::string content;
    bool executable = false; // launch.sh: the app sets the file's execute permission
};

struct ExportOptions {
    // The user's training script as launch.sh names it (relative to the export folder, or absolute). The default
    // is a placeholder, marked in the script as one to replace. Written shell-quoted, so any path is safe.
    std::string trainingScript = "train.py";
    // From the plan (Plan.h: exportOptionsFor): what launch.sh passes or marks FILL IN (LaunchScript.h: LaunchSetup).
    std::optional<bool> gradientCheckpointing;
    std::string attention;
    std::int64_t checkpointLayers = 0; // LaunchSetup's
    bool fusedLoss = false;
    std::string planNote; // LaunchSetup's
    std::int64_t sequenceParallel = 1;
};

// The two forms of ds_config.json: strict, what plain DeepSpeed needs ("auto" is an error there), and the Hugging
// Face form, with "auto" where the Trainer or Accelerate fills the value (and the exported warmup, HfAutoValues.h).
enum class ConfigForm { Strict, HfAuto };

// The form the launcher reads: HfAuto for software.launcher hf-trainer and accelerate, Strict for deepspeed.
ConfigForm launcherConfigForm(const Answers& answers);
// `config` (strict) in `form`, for the launcher of `answers`: exactly what the DeepSpeedJson / HfJson export writes.
nlohmann::ordered_json configInForm(const nlohmann::ordered_json& config, const Answers& answers, ConfigForm form);
// The file text of configInForm (2-space indent, trailing newline): the preview, Copy JSON and the export.
std::string configText(const nlohmann::ordered_json& config, const Answers& answers, ConfigForm form);

// Parses "deepspeed-json", "hf-json", "accelerate-yaml", "launch", "bundle".
std::optional<ExportTarget> exportTargetFromName(const std::string& name);
// The inverse of exportTargetFromName.
std::string exportTargetName(ExportTarget target);

// Why `target` cannot be exported for the launcher of `answers` (empty when it can): a pipeline plan
// (pipeline.stages > 1) for hf-trainer or accelerate, whose readers have no pipeline engine and fill train_batch_size
// as world x micro x accumulation (stages x the plan); an Accelerate YAML for a launcher other than accelerate.
std::string exportRefusal(const Answers& answers, ExportTarget target);

// The files for `target`, from a composed or imported ds_config and the answers (launcher, nodes,
// GPUs per node). Each setting is written in the one file its reader consumes, never in two.
//   DeepSpeedJson  -> ds_config.json, the config exactly as given (2-space indent, trailing newline)
//   HfJson         -> ds_config.json with "auto" where the launcher's filler (HfAutoValues.h) fills the value:
//                     Accelerate for software.launcher = accelerate, the Transformers Trainer otherwise
//   AccelerateYaml -> accelerate_config.yaml (distributed_type DEEPSPEED, deepspeed_config_file ds_config.json)
//   Launch         -> launch.sh for software.launcher (+ hostfile when it uses one: deepspeed or hf-trainer, nodes > 1)
//   Bundle         -> deepspeed: ds_config.json (strict) + launch.sh (+ hostfile);
//                     hf-trainer: ds_config.json ("auto") + launch.sh (+ hostfile);
//                     accelerate: ds_config.json ("auto") + accelerate_config.yaml + launch.sh
std::vector<ExportFile> exportFiles(const nlohmann::ordered_json& config, const Answers& answers, ExportTarget target,
                                    const ExportOptions& options = {});

} // namespace dsw
