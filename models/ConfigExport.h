#pragma once
#include "Answers.h"

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

struct ExportFile {
    std::string name;    // file name, no directory: "ds_config.json", "accelerate_config.yaml", "launch.sh", "hostfile"
    std::string content;
};

// Parses "deepspeed-json", "hf-json", "accelerate-yaml", "launch", "bundle".
std::optional<ExportTarget> exportTargetFromName(const std::string& name);

// The files for `target`, from a composed or imported ds_config and the answers (launcher, nodes,
// GPUs per node). Each setting is written in the one file its reader consumes, never in two.
std::vector<ExportFile> exportFiles(const nlohmann::ordered_json& config, const Answers& answers, ExportTarget target);

} // namespace dsw
