// The PEFT part of the exports; see PeftSetup.h.
#include "config/PeftSetup.h"

#include <cstdio>
#include <stdexcept>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;
using Lines = std::vector<std::vector<std::string>>;

std::string trimmed(const std::string& s)
{
    const auto first = s.find_first_not_of(" \t");
    return first == std::string::npos ? std::string() : s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// A number as Python and the shell read it: 16, 0.05.
std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

std::vector<std::string> targetsOf(const std::string& text)
{
    if (text == "all-linear")
        return {"all-linear"};
    if (text == "attention")
        return {"q_proj", "k_proj", "v_proj", "o_proj"};
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        if (const std::string name = trimmed(text.substr(start, comma - start)); !name.empty())
            out.push_back(name);
        start = comma + 1;
    }
    return out;
}

bool enabled(const oj& config, const char* block)
{
    const auto it = config.find(block);
    return it != config.end() && it->is_object() && it->value("enabled", oj()) == true;
}

std::string pythonList(const std::vector<std::string>& words)
{
    std::string out = "[";
    for (std::size_t i = 0; i < words.size(); ++i)
        out += (i ? ", \"" : "\"") + words[i] + "\"";
    return out + "]";
}

std::string attentionName(const std::string& attention)
{
    return attention == "flash" ? "flash_attention_2" : attention;
}

std::string loadModel(const PeftSetup& s)
{
    const bool qlora = s.method == TrainingMethod::Qlora;
    std::string out = "def load_model(name_or_path):\n"
                      "    \"\"\"The base model as the plan sized it, with the adapters added: only they";
    out += s.modulesToSave.empty() ? "" : " and the\n    modules_to_save copies";
    out += " train.\"\"\"\n    model = AutoModelForCausalLM.from_pretrained(\n        name_or_path,\n"
           "        dtype=DTYPE,  # torch_dtype= in older Transformers\n";
    if (!s.attention.empty())
        out += "        attn_implementation=\"" + attentionName(s.attention) + "\",  # the kernel the plan assumes\n";
    else
        out += "        # FILL IN: attn_implementation=... (the kernel the plan was sized for)\n";
    if (qlora)
        out += "        quantization_config=quantization_config,\n";
    if (qlora && !s.zero3)
        out +=
            "        # bitsandbytes quantizes on the GPU it loads to: this rank's (ZeRO-3 would partition it instead)\n"
            "        device_map={\"\": int(os.environ.get(\"LOCAL_RANK\", \"0\"))},\n";
    out += "    )\n    return get_peft_model(model, peft_config)\n";
    return out;
}

std::string launcherPart(const PeftSetup& s)
{
    if (s.launcher == "hf-trainer")
        return std::string("\n\n# With the Trainer: build TrainingArguments(deepspeed=\"ds_config.json\", ...) first")
            + (s.zero3 ? ": from_pretrained builds\n# the model under zero.Init (each GPU loads its slice) only "
                         "when the DeepSpeed config is already known.\n"
                       : ".\n")
            + "#   args = TrainingArguments(..., deepspeed=\"ds_config.json\")\n"
              "#   trainer = Trainer(model=load_model(\"<your model>\"), args=args, ...)\n"
              "# TRL's SFTTrainer builds the same from launch.sh's --use_peft flags; this file is then not needed.\n";
    if (s.launcher == "accelerate")
        return std::string("\n\n# With Accelerate: create the Accelerator first")
            + (s.zero3 ? " (zero3_init_flag: true in accelerate_config.yaml), so that\n# from_pretrained builds the "
                         "model under zero.Init (each GPU loads its slice).\n"
                       : ".\n")
            + "#   accelerator = Accelerator()\n"
              "#   model = load_model(\"<your model>\")\n"
              "#   # ds_config.json names the optimizer: hand Accelerate a placeholder over the trainable parameters\n"
              "#   optimizer = accelerate.utils.DummyOptim([p for p in model.parameters() if p.requires_grad])\n"
              "#   model, optimizer, loader = accelerator.prepare(model, optimizer, loader)\n";
    std::string out =
        "\n\ndef initialize(name_or_path, config=\"ds_config.json\"):\n"
        "    \"\"\"The DeepSpeed engine over the model; the optimizer gets the trainable parameters only.\"\"\"\n";
    if (s.zero3)
        out += "    # Keep this alive while loading: from_pretrained then builds the model under zero.Init.\n"
               "    initialize.hf_ds_config = HfDeepSpeedConfig(config)\n";
    out += "    model = load_model(name_or_path)\n"
           "    engine, optimizer, _, scheduler = deepspeed.initialize(\n"
           "        model=model, model_parameters=[p for p in model.parameters() if p.requires_grad], "
           "config=config)\n"
           "    return engine, model, optimizer, scheduler\n\n\n"
           "def save_adapter(engine, model, out_dir):\n"
           "    \"\"\"The adapter as PEFT loads it (adapter_config.json, adapter_model.safetensors).\"\"\"\n";
    if (s.zero3)
        out += "    # At ZeRO-3 each GPU holds a slice of every adapter: gather them, or the file is empty.\n"
               "    trainable = [p for p in model.parameters() if p.requires_grad]\n"
               "    with deepspeed.zero.GatheredParameters(trainable):\n"
               "        if engine.global_rank == 0:\n"
               "            model.save_pretrained(out_dir)\n";
    else
        out += "    if engine.global_rank == 0:\n        model.save_pretrained(out_dir)\n";
    return out;
}

} // namespace

std::optional<PeftSetup> peftSetupFrom(const nlohmann::ordered_json& config, const Answers& a)
{
    const auto method = trainingMethodFrom(a.text("training.method"));
    if (!method || *method == TrainingMethod::Full)
        return std::nullopt;
    PeftSetup s;
    s.method = *method;
    s.rank = a.integer("lora.rank");
    s.alpha = a.number("lora.alpha");
    s.dropout = a.number("lora.dropout");
    s.targets = targetsOf(a.text("lora.targets"));
    try {
        s.modulesToSave = modulesToSaveFrom(a.text("lora.modules_to_save"));
    } catch (const std::invalid_argument&) { // the registry's check reports it; the export writes none
    }
    const nlohmann::json doubleQuant = a.value("lora.double_quant");
    s.doubleQuant = !doubleQuant.is_boolean() || doubleQuant.get<bool>();
    s.dtype = enabled(config, "bf16") ? "bfloat16" : enabled(config, "fp16") ? "float16" : "float32";
    const auto zero = config.find("zero_optimization");
    s.zero3 = zero != config.end() && zero->is_object() && zero->value("stage", oj()) == 3;
    s.launcher = a.text("software.launcher");
    s.attention = a.text("model.attention_impl");
    return s;
}

std::vector<std::vector<std::string>> trlModelArguments(const PeftSetup& s)
{
    Lines out = {{"--use_peft"},
                 {"--lora_r", std::to_string(s.rank)},
                 {"--lora_alpha", number(s.alpha)},
                 {"--lora_dropout", number(s.dropout)}};
    std::vector<std::string> targets = {"--lora_target_modules"};
    targets.insert(targets.end(), s.targets.begin(), s.targets.end());
    out.push_back(targets);
    if (!s.modulesToSave.empty()) {
        std::vector<std::string> saved = {"--lora_modules_to_save"};
        saved.insert(saved.end(), s.modulesToSave.begin(), s.modulesToSave.end());
        out.push_back(saved);
    }
    out.push_back({"--dtype", s.dtype});
    if (!s.attention.empty())
        out.push_back({"--attn_implementation", attentionName(s.attention)});
    if (s.method == TrainingMethod::Qlora) {
        out.push_back({"--load_in_4bit"});
        out.push_back({"--bnb_4bit_quant_type", "nf4"});
        if (s.doubleQuant)
            out.push_back({"--use_bnb_nested_quant"});
        out.push_back({"--bnb_4bit_quant_storage", s.dtype}); // = the model's dtype (peft-qlora-quant-storage)
    }
    return out;
}

std::string peftSetupScript(const PeftSetup& s)
{
    const bool qlora = s.method == TrainingMethod::Qlora;
    std::string out = "# " + std::string(qlora ? "QLoRA" : "LoRA") + " as ds-wizard sized it: rank "
        + std::to_string(s.rank) + ", alpha " + number(s.alpha) + ", dropout " + number(s.dropout) + ", targets "
        + pythonList(s.targets) + (qlora ? ", base weights in 4-bit NF4" : "") + ".\n"
        + "# Written by ds-wizard from the PEFT, Transformers and DeepSpeed documentation; not run.\n"
          "# Import it from your training script (it lies next to ds_config.json).\n"
        + (qlora && !s.zero3 ? "import os\n\n" : "") + "import torch\n";
    if (s.launcher == "deepspeed")
        out += "import deepspeed\n";
    out += "from peft import LoraConfig, get_peft_model\nfrom transformers import AutoModelForCausalLM";
    out += qlora ? ", BitsAndBytesConfig\n" : "\n";
    if (s.launcher == "deepspeed" && s.zero3)
        out += "from transformers.integrations import HfDeepSpeedConfig\n";
    out += "\nDTYPE = torch." + s.dtype + "  # what ds_config.json trains in\n\n";
    out += "peft_config = LoraConfig(\n    r=" + std::to_string(s.rank) + ",\n    lora_alpha=" + number(s.alpha)
        + ",\n    lora_dropout=" + number(s.dropout) + ",\n    target_modules="
        + (s.targets.size() == 1 && s.targets.front() == "all-linear" ? "\"all-linear\"" : pythonList(s.targets))
        + ",\n";
    if (!s.modulesToSave.empty())
        out += "    modules_to_save=" + pythonList(s.modulesToSave) + ",  # trained whole, as copies\n";
    out += "    task_type=\"CAUSAL_LM\",\n)\n\n";
    if (qlora)
        out += "quantization_config = BitsAndBytesConfig(\n    load_in_4bit=True,\n    bnb_4bit_quant_type=\"nf4\",\n"
               "    bnb_4bit_use_double_quant="
            + std::string(s.doubleQuant ? "True" : "False")
            + ",\n    bnb_4bit_compute_dtype=DTYPE,\n"
              "    # The model's dtype, as PEFT's DeepSpeed guide asks: ZeRO-3 then partitions the packed 4-bit "
              "weights.\n"
              "    bnb_4bit_quant_storage=DTYPE,\n)\n\n";
    out += "\n" + loadModel(s) + launcherPart(s);
    return out;
}

} // namespace dsw
