// Sources (resources/knowledge/sources.tsv): accelerate-ds-config-file, accelerate-deepspeed-plugin,
// accelerate-zero3-init, accelerate-default-port.
#include "config/ConfigExport.h"

#include "config/HfAutoValues.h"
#include "config/LaunchScript.h"
#include "config/YamlWriter.h"

#include <algorithm>
#include <array>
#include <utility>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

constexpr std::array<std::pair<const char*, ExportTarget>, 5> kTargetNames = {{
    {"deepspeed-json", ExportTarget::DeepSpeedJson},
    {"hf-json", ExportTarget::HfJson},
    {"accelerate-yaml", ExportTarget::AccelerateYaml},
    {"launch", ExportTarget::Launch},
    {"bundle", ExportTarget::Bundle},
}};

std::string jsonText(const oj& config)
{
    // replace: an invalid UTF-8 byte becomes U+FFFD instead of throwing (imported configs are checked earlier).
    return config.dump(2, ' ', false, oj::error_handler_t::replace) + "\n";
}

bool isZero3(const oj& config)
{
    if (!config.is_object())
        return false;
    const auto zero = config.find("zero_optimization");
    if (zero == config.end() || !zero->is_object())
        return false;
    const auto stage = zero->find("stage");
    return stage != zero->end() && stage->is_number() && stage->get<double>() == 3.0;
}

LaunchSetup launchSetup(const Answers& answers, const ExportOptions& options)
{
    LaunchSetup s;
    s.launcher = answers.text("software.launcher");
    s.nodes = std::max<std::int64_t>(1, answers.integer("hardware.nodes"));
    s.gpusPerNode = std::max<std::int64_t>(1, answers.integer("hardware.gpus_per_node"));
    s.trainingScript = options.trainingScript;
    s.gradientCheckpointing = options.gradientCheckpointing;
    s.attention = options.attention;
    return s;
}

// accelerate_config.yaml for `accelerate launch --config_file`. It holds only what the JSON cannot: where the JSON
// is, zero.Init, and the processes. Accelerate raises "When using `deepspeed_config_file`, the following accelerate
// config variables will be ignored: [...]" for gradient_accumulation_steps, gradient_clipping, zero_stage,
// offload_optimizer_device, offload_param_device, offload_param_nvme_path, offload_optimizer_nvme_path,
// zero3_save_16bit_model and mixed_precision (utils/dataclasses.py DeepSpeedPlugin._deepspeed_config_checks;
// commands/launch.py adds mixed_precision whenever the YAML sets it), so none of those is ever written here.
std::string accelerateYaml(const oj& config, const LaunchSetup& s)
{
    YamlWriter y;
    y.comment("Accelerate config written by ds-wizard from the Accelerate documentation; not run.");
    y.comment("Training settings (precision, batch sizes, gradient accumulation and clipping, ZeRO stage, offload)");
    y.comment(std::string("are in ") + kDeepSpeedConfigFileName
              + " only: Accelerate refuses them here when deepspeed_config_file is set.");
    y.text("compute_environment", "LOCAL_MACHINE");
    y.text("distributed_type", "DEEPSPEED");
    y.beginMap("deepspeed_config");
    y.text("deepspeed_config_file", kDeepSpeedConfigFileName, "relative to the folder accelerate launch runs in");
    // Accelerate resets the flag to false below stage 3 with a warning; write what it would end with.
    y.boolean("zero3_init_flag", isZero3(config),
              isZero3(config) ? "build the model partitioned (deepspeed.zero.Init); needs transformers installed"
                              : "zero.Init applies to ZeRO stage 3 only");
    if (s.nodes > 1)
        y.text("deepspeed_multinode_launcher", "standard",
               "torchrun on every node (no SSH); uses main_process_ip/port below");
    y.endMap();
    y.integer("num_machines", s.nodes);
    y.integer("num_processes", s.nodes * s.gpusPerNode,
              "all GPUs: " + std::to_string(s.nodes) + " x " + std::to_string(s.gpusPerNode));
    y.integer("machine_rank", 0, s.nodes > 1 ? "launch.sh passes --machine_rank from MACHINE_RANK on each node" : "");
    if (s.nodes > 1) {
        y.text("main_process_ip", "FILL_IN_MAIN_NODE_IP", "FILL IN: address of the machine_rank 0 node");
        y.text("main_process_port", "FILL_IN_MAIN_NODE_PORT",
               "FILL IN: a free TCP port on that node (Accelerate uses 29500 when this key is absent)");
        y.text("rdzv_backend", "static");
        y.boolean("same_network", true);
    }
    return y.str();
}

ExportFile deepspeedJsonFile(const oj& config) { return {kDeepSpeedConfigFileName, jsonText(config)}; }

oj hfForm(const oj& config, const std::string& launcher)
{
    return withExportedWarmup(withAutoValues(config, autoFillerForLauncher(launcher)));
}

ExportFile hfJsonFile(const oj& config, const LaunchSetup& s) { return {kDeepSpeedConfigFileName, jsonText(hfForm(config, s.launcher))}; }

void appendLaunch(std::vector<ExportFile>& out, const oj& config, const LaunchSetup& s)
{
    out.push_back({kLaunchScriptFileName, launchScript(config, s), true});
    if (launchUsesHostfile(s))
        out.push_back({kHostfileName, hostfileTemplate(s.nodes, s.gpusPerNode)});
}

} // namespace

std::optional<ExportTarget> exportTargetFromName(const std::string& name)
{
    for (const auto& [text, target] : kTargetNames)
        if (name == text)
            return target;
    return std::nullopt;
}

std::string exportTargetName(ExportTarget target)
{
    for (const auto& [text, t] : kTargetNames)
        if (t == target)
            return text;
    return {};
}

ConfigForm launcherConfigForm(const Answers& answers)
{
    return answers.text("software.launcher") == "deepspeed" ? ConfigForm::Strict : ConfigForm::HfAuto;
}

nlohmann::ordered_json configInForm(const nlohmann::ordered_json& config, const Answers& answers, ConfigForm form)
{
    return form == ConfigForm::Strict ? config : hfForm(config, answers.text("software.launcher"));
}

std::string configText(const nlohmann::ordered_json& config, const Answers& answers, ConfigForm form)
{
    return jsonText(configInForm(config, answers, form));
}

std::vector<ExportFile> exportFiles(const nlohmann::ordered_json& config, const Answers& answers, ExportTarget target,
                                    const ExportOptions& options)
{
    const LaunchSetup s = launchSetup(answers, options);
    std::vector<ExportFile> out;
    switch (target) {
    case ExportTarget::DeepSpeedJson: out.push_back(deepspeedJsonFile(config)); break;
    case ExportTarget::HfJson: out.push_back(hfJsonFile(config, s)); break;
    case ExportTarget::AccelerateYaml: out.push_back({kAccelerateConfigFileName, accelerateYaml(config, s)}); break;
    case ExportTarget::Launch: appendLaunch(out, config, s); break;
    case ExportTarget::Bundle:
        // Plain DeepSpeed reads "auto" as a value (it fails on it), so its JSON stays strict.
        out.push_back(s.launcher == "deepspeed" ? deepspeedJsonFile(config) : hfJsonFile(config, s));
        if (s.launcher == "accelerate")
            out.push_back({kAccelerateConfigFileName, accelerateYaml(config, s)});
        appendLaunch(out, config, s);
        break;
    }
    return out;
}

} // namespace dsw
