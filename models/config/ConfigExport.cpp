// Sources (resources/knowledge/sources.tsv): accelerate-ds-config-file, accelerate-deepspeed-plugin,
// accelerate-zero3-init, accelerate-default-port.
#include "config/ConfigExport.h"

#include "config/HfAutoValues.h"
#include "config/LaunchScript.h"
#include "config/YamlWriter.h"
#include "knowledge/LauncherRules.h"

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

std::optional<std::int64_t> positiveInteger(const oj& config, const char* key)
{
    const auto it = config.find(key);
    if (it == config.end() || !it->is_number_integer() || it->get<std::int64_t>() < 1)
        return std::nullopt;
    return it->get<std::int64_t>();
}

// The data-parallel size the batch keys imply (DeepSpeed's identity, runtime/config.py _batch_assertion:
// train_batch_size = micro-batch x accumulation x data-parallel): the quotient when all three are given, else, when
// only train_batch_size and one of the others are, the largest size up to 8 (a usual node) that divides it.
std::optional<std::int64_t> dataParallelOf(const oj& config)
{
    const auto global = positiveInteger(config, "train_batch_size");
    const auto micro = positiveInteger(config, "train_micro_batch_size_per_gpu");
    const auto accumulation = positiveInteger(config, "gradient_accumulation_steps");
    const bool other = config.contains("train_micro_batch_size_per_gpu") != bool(micro)
        || config.contains("gradient_accumulation_steps") != bool(accumulation); // "auto", a placeholder
    if (!global || other || *global % (micro.value_or(1) * accumulation.value_or(1)) != 0)
        return std::nullopt;
    const std::int64_t rest = *global / (micro.value_or(1) * accumulation.value_or(1));
    if (micro && accumulation)
        return rest;
    std::int64_t dp = std::min<std::int64_t>(8, rest);
    while (rest % dp != 0)
        --dp;
    return dp;
}

LaunchSetup launchSetup(const oj& config, const Answers& answers, const ExportOptions& options)
{
    LaunchSetup s;
    s.launcher = answers.text("software.launcher");
    s.nodes = std::max<std::int64_t>(1, answers.integer("hardware.nodes"));
    s.gpusPerNode = std::max<std::int64_t>(1, answers.integer("hardware.gpus_per_node"));
    if (!answers.has("hardware.nodes") && !answers.has("hardware.gpus_per_node")) {
        // Not given: the GPUs the batch keys imply (x pipeline stages), else the registry's default, said as such.
        const std::int64_t stages = std::max<std::int64_t>(1, answers.integer("pipeline.stages"));
        if (const auto dp = dataParallelOf(config)) {
            // Each sequence-parallel group is one data-parallel rank of the batch (ds-batch-world-size).
            const std::int64_t sp = positiveInteger(config, "sequence_parallel_size").value_or(1);
            const std::int64_t world = *dp * stages * sp;
            s.nodes = world > 8 && world % 8 == 0 ? world / 8 : 1; // 8 GPUs a node, the usual server, when it divides
            s.gpusPerNode = world / s.nodes;
            s.layoutNote = "ds_config.json's batch keys allow " + std::to_string(world)
                + " GPUs (train_batch_size = " + "micro-batch x accumulation x " + std::to_string(*dp)
                + " data-parallel" + (stages > 1 ? " x " + std::to_string(stages) + " pipeline stages" : std::string())
                + (sp > 1 ? " x sequence_parallel_size " + std::to_string(sp) : std::string()) + ")";
        } else {
            s.layoutNote = "the cluster is not given (hardware.nodes, hardware.gpus_per_node): the wizard's default";
        }
    }
    s.trainingScript = options.trainingScript;
    s.gradientCheckpointing = options.gradientCheckpointing;
    s.attention = options.attention;
    s.checkpointLayers = options.checkpointLayers;
    s.fusedLoss = options.fusedLoss;
    s.planNote = options.planNote;
    s.sequenceParallel = options.sequenceParallel;
    s.peft = peftSetupFrom(config, answers);
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
    // DeepSpeed-Ulysses through Accelerate's ParallelismConfig (accelerate >= 1.12; the HF blog's ulysses-sp YAML):
    // dp_shard × sp = the processes, ZeRO shards over all of them.
    if (s.sequenceParallel > 1) {
        const std::int64_t world = s.nodes * s.gpusPerNode;
        y.beginMap("parallelism_config");
        y.integer("parallelism_config_sp_size", s.sequenceParallel, "GPUs that share each sequence (Ulysses)");
        y.text("parallelism_config_sp_backend", "deepspeed");
        y.integer("parallelism_config_dp_shard_size", std::max<std::int64_t>(1, world / s.sequenceParallel),
                  "processes / sp_size");
        y.boolean("parallelism_config_sp_seq_length_is_variable", true);
        y.text("parallelism_config_sp_attn_implementation", s.attention == "sdpa" ? "sdpa" : "flash_attention_2",
               "the kernel the plan was sized for");
        y.endMap();
    }
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

// The batch keys DeepSpeed would infer for `dataParallel` GPUs, written out: the Trainer and Accelerate fill a missing
// micro-batch or accumulation from their own defaults (8 and 1), not from train_batch_size.
oj withBatchKeys(oj config, std::int64_t dataParallel)
{
    const auto global = positiveInteger(config, "train_batch_size");
    auto micro = positiveInteger(config, "train_micro_batch_size_per_gpu");
    auto accumulation = positiveInteger(config, "gradient_accumulation_steps");
    if (!global || (micro && accumulation) || config.contains("train_micro_batch_size_per_gpu") != bool(micro)
        || config.contains("gradient_accumulation_steps") != bool(accumulation))
        return config; // nothing to infer, or a key written as something else ("auto", a placeholder): left as is
    if (micro && *global % (*micro * dataParallel) == 0)
        config["gradient_accumulation_steps"] = *global / (*micro * dataParallel);
    else if (!micro && *global % (accumulation.value_or(1) * dataParallel) == 0) {
        config["train_micro_batch_size_per_gpu"] = *global / (accumulation.value_or(1) * dataParallel);
        config["gradient_accumulation_steps"] = accumulation.value_or(1);
    }
    return config;
}

// What the Hugging Face readers need beyond "auto": a zero_optimization block (DeepSpeedPlugin raises "Please specify
// the ZeRO optimization config in the DeepSpeed config." without one; stage 0 is DeepSpeed's default, so the run is
// the same), and at ZeRO-3 weights that save_model() can write (both fill an absent or "auto"
// stage3_gather_16bit_weights_on_model_save with false: accelerator.py _prepare_deepspeed config_kwargs).
oj withHfRequirements(oj config)
{
    if (!config.is_object())
        return config;
    if (!config.contains("zero_optimization"))
        config["zero_optimization"] = oj{{"stage", 0}};
    if (!isZero3(config))
        return config;
    oj& zero = config["zero_optimization"];
    const char* written = zero.contains("gather_16bit_weights_on_model_save")
        ? "gather_16bit_weights_on_model_save"
        : "stage3_gather_16bit_weights_on_model_save";
    if (!zero.contains(written) || zero[written] == "auto")
        zero[written] = true;
    return config;
}

oj hfForm(const oj& config, const LaunchSetup& s)
{
    // No pipeline here (exportRefusal): every GPU is data-parallel.
    const oj complete = withHfRequirements(withBatchKeys(config, s.nodes * s.gpusPerNode));
    return withExportedWarmup(withAutoValues(complete, autoFillerForLauncher(s.launcher)));
}

ExportFile hfJsonFile(const oj& config, const LaunchSetup& s)
{
    return {kDeepSpeedConfigFileName, jsonText(hfForm(config, s))};
}

void appendLaunch(std::vector<ExportFile>& out, const oj& config, const LaunchSetup& s)
{
    // launch.sh passes the values of the form ds_config.json is written in (the batch keys completed, HfAuto only).
    const oj& form = s.launcher == "deepspeed" ? config : withBatchKeys(config, s.nodes * s.gpusPerNode);
    out.push_back({kLaunchScriptFileName, launchScript(form, s), true});
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
    return form == ConfigForm::Strict ? config : hfForm(config, launchSetup(config, answers, {}));
}

std::string exportRefusal(const Answers& answers, ExportTarget target)
{
    const std::string launcher = answers.text("software.launcher");
    if (target == ExportTarget::AccelerateYaml && launcher != "accelerate")
        return "An Accelerate config is for software.launcher = accelerate; the " + launcher
            + " bundle starts the script with the deepspeed launcher and reads no accelerate_config.yaml.";
    const auto rule = pipelineLauncherBreak(launcher, answers.integer("pipeline.stages"));
    if (!rule || target == ExportTarget::DeepSpeedJson)
        return {};
    return rule->message + " The strict ds_config.json can still be exported.";
}

std::string configText(const nlohmann::ordered_json& config, const Answers& answers, ConfigForm form)
{
    return jsonText(configInForm(config, answers, form));
}

std::vector<ExportFile> exportFiles(const nlohmann::ordered_json& config, const Answers& answers, ExportTarget target,
                                    const ExportOptions& options)
{
    const LaunchSetup s = launchSetup(config, answers, options);
    std::vector<ExportFile> out;
    if (!exportRefusal(answers, target).empty())
        return out;
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
        if (s.peft)
            out.push_back({kPeftSetupFileName, peftSetupScript(*s.peft)});
        break;
    }
    return out;
}

} // namespace dsw
