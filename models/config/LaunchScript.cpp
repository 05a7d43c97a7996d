// Sources (resources/knowledge/sources.tsv): ds-launcher-args, ds-launcher-hostfile, hf-trainer-launch,
// ds-warmup-positive.
#include "config/LaunchScript.h"

#include "config/ConfigExport.h"
#include "config/HfAutoValues.h"
#include "knowledge/SourceCatalog.h"

#include <algorithm>
#include <vector>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;
using Words = std::vector<std::string>;

// The user's script name never goes into a comment: a newline in it would end the comment.
constexpr const char* kFillInScript =
    "# FILL IN: the script on the line after the launcher is a placeholder: name your training script\n"
    "# and add its own arguments after it.\n";

bool isTrainer(const LaunchSetup& s) { return s.launcher == "hf-trainer"; }
bool isAccelerate(const LaunchSetup& s) { return s.launcher == "accelerate"; }

std::string joinQuoted(const Words& words)
{
    std::string out;
    for (const std::string& w : words)
        out += (out.empty() ? "" : " ") + shellQuote(w);
    return out;
}

// One command, one group of words per line, joined with backslash continuations.
std::string commandLines(const std::vector<std::string>& lines)
{
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i)
        out += (i == 0 ? "" : "  ") + lines[i] + (i + 1 < lines.size() ? " \\\n" : "\n");
    return out;
}

std::string header(const LaunchSetup& s)
{
    const std::string who = isAccelerate(s) ? "Accelerate (accelerate launch)"
        : isTrainer(s)                      ? "the Hugging Face Trainer, started by the DeepSpeed launcher"
                                            : "the DeepSpeed launcher";
    std::string out = "#!/usr/bin/env bash\n";
    out += "# Starts training with " + who + ": " + std::to_string(s.nodes) + (s.nodes == 1 ? " node" : " nodes")
        + " x " + std::to_string(s.gpusPerNode) + " GPUs.\n";
    out += "# Written by ds-wizard from the DeepSpeed, Transformers and Accelerate documentation; not run.\n";
    out += "set -euo pipefail\n";
    out += "# The files named below lie next to this script; give your script's path relative to this folder.\n";
    if (!s.layoutNote.empty())
        out += "# FILL IN: " + std::to_string(s.nodes) + " x " + std::to_string(s.gpusPerNode)
            + " GPUs: " + s.layoutNote + ".\n# Change the counts below if your cluster differs.\n";
    if (s.nodes > 1)
        out += "# Every node needs these files and your script at the same path (a shared file system, or copies).\n";
    out += "cd -- \"$(dirname -- \"${BASH_SOURCE[0]}\")\"\n\n";
    return out;
}

// Why ds_config.json holds a number for the warmup, and where it must be changed.
std::string warmupComment(const oj& config, const LaunchSetup& s)
{
    const auto warmup = exportedWarmupSteps(config);
    if (!warmup)
        return {};
    const std::string n = std::to_string(warmup->steps);
    std::string out = "# /scheduler/params/warmup_num_steps is " + n + " in ds_config.json, not \"auto\": "
        + (isAccelerate(s) ? "DummyScheduler fills 0 by default" : "the Trainer fills 0 without --warmup_steps")
        + ",\n# which DeepSpeed 0.19.3 and newer refuse at start-up (WarmupLR's check: " + quoteOf("ds-warmup-positive")
        + ").\n";
    if (warmup->wasAuto)
        out += "# FILL IN: your config said \"auto\"; " + n + " is DeepSpeed's default. Change it there"
            + (isAccelerate(s) ? "" : " and in --warmup_steps below") + ".\n";
    else if (!isAccelerate(s))
        out += "# --warmup_steps below passes the same number: the Trainer refuses a config value that differs.\n";
    return out;
}

// At ZeRO-3 with the gather switched off, save_model() writes no loadable weights: say how to get them.
std::string saveComment(const oj& config, const LaunchSetup& s)
{
    const auto zero = config.is_object() ? config.find("zero_optimization") : config.end();
    if (zero == config.end() || !zero->is_object() || zero->value("stage", oj()) != 3)
        return {};
    for (const char* key : {"stage3_gather_16bit_weights_on_model_save", "gather_16bit_weights_on_model_save"})
        if (zero->value(key, oj()) == false)
            return std::string("# ") + key + " is false in ds_config.json: "
                + (isAccelerate(s) ? "accelerator.get_state_dict() raises" : "trainer.save_model() writes no weights")
                + " at ZeRO-3.\n# Save a checkpoint and run zero_to_fp32.py on it (it needs the fp32 weights in host "
                  "RAM), or set it true.\n";
    return {};
}

// The values the exported JSON leaves to "auto", and who supplies each.
std::string autoValuesComment(const oj& config, const LaunchSetup& s)
{
    const std::vector<AutoValue> autos = autoValues(config, autoFillerForLauncher(s.launcher));
    if (autos.empty())
        return saveComment(config, s) + warmupComment(config, s);
    std::string out = isAccelerate(s)
        ? "# ds_config.json says \"auto\" where Accelerate fills the value in accelerator.prepare(), from\n"
          "# what follows \"<-\"; give your script the wizard's values (in brackets) to train its plan:\n"
        : "# ds_config.json says \"auto\" where the Trainer fills the value from what follows \"<-\".\n"
          "# The flags below carry the wizard's values (in brackets); if your script builds\n"
          "# TrainingArguments in code instead of parsing the command line, set them there.\n";
    for (const AutoValue& av : autos)
        out += "#   " + av.pointer + " <- " + av.suppliedBy
            + (av.value == "auto" ? " [FILL IN: your config said \"auto\"; the wizard does not know the value]\n"
                                  : " [" + av.value.dump() + "]\n");
    if (std::any_of(autos.begin(), autos.end(), [](const AutoValue& av) { return av.value == "auto"; }))
        out += isAccelerate(s)
            ? "# FILL IN: give your script the values marked FILL IN.\n"
            : "# FILL IN: add the flags for the values marked FILL IN; without them the Trainer uses its "
              "defaults\n# (per_device_train_batch_size 8, learning_rate 5e-05, neither --bf16 nor "
              "--fp16).\n";
    return out + saveComment(config, s) + warmupComment(config, s);
}

// The attention implementation the plan's memory and time assume, as Transformers' from_pretrained names it.
std::string hfAttentionName(const std::string& attention)
{
    return attention == "flash" ? "flash_attention_2" : attention; // "sdpa", "eager"
}

// What the plan relies on that launch.sh cannot pass: the script does it, so it is a marked FILL IN.
std::string scriptSettingsComment(const LaunchSetup& s)
{
    std::string out;
    if (!s.gradientCheckpointing)
        out += isTrainer(s) ? "# FILL IN: the wizard does not know whether this plan checkpoints activations; add\n"
                              "# --gradient_checkpointing below if it does (the Memory tab says).\n"
                            : "# FILL IN: the wizard does not know whether this plan checkpoints activations; if it "
                              "does,\n# enable it in your script (model.gradient_checkpointing_enable()).\n";
    else if (*s.gradientCheckpointing && s.checkpointLayers > 0)
        // Not --gradient_checkpointing: the Trainer would turn every layer on again when training starts.
        out += "# FILL IN: the plan checkpoints only the first " + std::to_string(s.checkpointLayers)
            + " layers: in your script, before training,\n# model.gradient_checkpointing_enable(); then for layer in "
              "model.model.layers["
            + std::to_string(s.checkpointLayers) + ":]: layer.gradient_checkpointing = False\n";
    else if (*s.gradientCheckpointing && !isTrainer(s))
        out += "# FILL IN: the plan only fits with activation checkpointing: enable it in your script\n"
               "# (model.gradient_checkpointing_enable() for a Transformers model, or deepspeed.checkpointing).\n";
    if (s.fusedLoss && !isTrainer(s))
        out += "# FILL IN: the plan counts on Liger-Kernel's fused linear cross-entropy: load the model with\n"
               "# liger_kernel.transformers.AutoLigerKernelForCausalLM.from_pretrained(...).\n";
    out += s.planNote;
    if (!s.attention.empty())
        out += "# FILL IN: the plan assumes the " + s.attention + " attention kernel: load the model with\n"
            + "# from_pretrained(..., attn_implementation=\"" + hfAttentionName(s.attention) + "\")"
            + (isTrainer(s) ? " (TrainingArguments has no flag for it).\n" : ".\n");
    else
        out += "# FILL IN: the wizard does not know the attention kernel; load the model with the one the plan\n"
               "# was sized for (from_pretrained(..., attn_implementation=...)).\n";
    return out;
}

// Where the adapters come from: TRL's arguments for the Trainer, peft_setup.py for the others.
std::string peftComment(const LaunchSetup& s)
{
    if (!s.peft)
        return {};
    const std::string what = s.peft->method == TrainingMethod::Qlora ? "QLoRA" : "LoRA";
    if (isTrainer(s))
        return "# " + what + ": --use_peft and the lines after it are TRL's ModelConfig arguments (trl sft, TRL's\n"
            + "# examples/scripts/sft.py). A script that parses only TrainingArguments refuses them: drop them and\n"
              "# add the adapters with load_model() from peft_setup.py (in the bundle).\n";
    return "# " + what + ": your script adds the adapters: load_model() in peft_setup.py (in the bundle) loads the\n"
        + "# base model as the plan sized it and wraps it with get_peft_model"
        + (s.launcher == "deepspeed" ? "; initialize() and save_adapter() do the rest.\n" : ".\n");
}

Words trainerFlags(const oj& config, const LaunchSetup& s)
{
    Words out;
    if (s.gradientCheckpointing.value_or(false) && s.checkpointLayers == 0)
        out.push_back("--gradient_checkpointing"); // the plan's memory counts on it (TrainingArguments' field)
    if (s.fusedLoss)
        out.insert(out.end(), {"--use_liger_kernel", "True"}); // TrainingArguments' field: Liger's kernels, its loss

    for (const AutoValue& av : autoValues(config, AutoFiller::TransformersTrainer))
        out.insert(out.end(), av.trainerArguments.begin(), av.trainerArguments.end());
    // The Trainer's fill_match compares a number at warmup_num_steps with --warmup_steps: pass the same one.
    if (const auto warmup = exportedWarmupSteps(config))
        out.insert(out.end(), {"--warmup_steps", std::to_string(warmup->steps)});
    return out;
}

std::string deepspeedCommand(const oj& config, const LaunchSetup& s)
{
    Words launcher = {"deepspeed"};
    if (s.nodes > 1)
        launcher.insert(launcher.end(), {"--hostfile", kHostfileName, "--num_nodes", std::to_string(s.nodes)});
    launcher.insert(launcher.end(), {"--num_gpus", std::to_string(s.gpusPerNode)});

    std::string out;
    if (s.nodes > 1)
        out += "# Run on one node: the launcher starts all nodes listed in hostfile over passwordless SSH (pdsh).\n";
    out += kFillInScript + scriptSettingsComment(s) + peftComment(s);

    std::vector<std::string> lines = {joinQuoted(launcher), shellQuote(s.trainingScript)};
    if (isTrainer(s)) {
        const Words flags = trainerFlags(config, s);
        // One flag per line: "--name value" or a lone "--bf16".
        for (std::size_t i = 0; i < flags.size(); ++i) {
            const bool hasValue = i + 1 < flags.size() && flags[i + 1].rfind("--", 0) != 0;
            lines.push_back(hasValue ? joinQuoted({flags[i], flags[i + 1]}) : shellQuote(flags[i]));
            if (hasValue)
                ++i;
        }
        if (s.peft)
            for (const Words& line : trlModelArguments(*s.peft))
                lines.push_back(joinQuoted(line));
        // The Trainer's TrainingArguments(deepspeed=...) takes the config path.
        lines.push_back(joinQuoted({"--deepspeed", kDeepSpeedConfigFileName}));
    } else {
        // deepspeed.add_config_arguments(): --deepspeed is a flag, --deepspeed_config the path.
        lines.push_back(joinQuoted({"--deepspeed", "--deepspeed_config", kDeepSpeedConfigFileName}));
    }
    return out + commandLines(lines);
}

std::string accelerateCommand(const LaunchSetup& s)
{
    std::string out;
    Words launcher = {"accelerate", "launch", "--config_file", kAccelerateConfigFileName};
    std::string first = joinQuoted(launcher);
    if (s.nodes > 1) {
        const std::string others = s.nodes == 2
            ? "MACHINE_RANK=1 on the other"
            : "MACHINE_RANK=1 ... " + std::to_string(s.nodes - 1) + " on the others";
        out += "# Run this script on every node: MACHINE_RANK=0 on the main node (main_process_ip in "
               "accelerate_config.yaml),\n# "
            + others + " (it overrides machine_rank: 0 there).\n";
        first += " --machine_rank \"${MACHINE_RANK:-0}\"";
    }
    out += kFillInScript + scriptSettingsComment(s) + peftComment(s);
    return out + commandLines({first, shellQuote(s.trainingScript)});
}

} // namespace

std::string shellQuote(const std::string& word)
{
    const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
            || c == '.' || c == '/' || c == ',' || c == ':' || c == '=' || c == '+' || c == '@' || c == '%';
    });
    if (plain)
        return word;
    std::string out = "'";
    for (const char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

bool launchUsesHostfile(const LaunchSetup& setup) { return !isAccelerate(setup) && setup.nodes > 1; }

std::string launchScript(const nlohmann::ordered_json& config, const LaunchSetup& setup)
{
    LaunchSetup s = setup;
    if (s.trainingScript.empty())
        s.trainingScript = "train.py";
    std::string out = header(s);
    if (s.launcher != "deepspeed")
        out += autoValuesComment(config, s);
    out += isAccelerate(s) ? accelerateCommand(s) : deepspeedCommand(config, s);
    return out;
}

std::string hostfileTemplate(std::int64_t nodes, std::int64_t gpusPerNode)
{
    // Lines starting with '#' are comments to DeepSpeed's hostfile parser (launcher/runner.py _parse_hostfile).
    std::string out = "# DeepSpeed hostfile: one line per node, \"<host name or SSH alias> slots=<GPUs>\".\n"
                      "# FILL IN: replace node-1 ... with your hosts' names; the first node runs launch.sh and\n"
                      "# reaches the others over passwordless SSH.\n";
    for (std::int64_t i = 1; i <= nodes; ++i)
        out += "node-" + std::to_string(i) + " slots=" + std::to_string(gpusPerNode) + "\n";
    return out;
}

} // namespace dsw
