// Sources (resources/knowledge/sources.tsv): hf-trainer-auto, hf-zero3-auto, accelerate-ds-auto, hf-warmup-steps,
// ds-warmup-positive, ds-lr-schedules, ds-fused-adam-defaults.
#include "config/HfAutoValues.h"

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// When a present key may become "auto" (beyond being present and not null).
enum class When {
    Always,
    MicroBatchPresent, // train_batch_size: the filler computes it from the micro-batch, so that must be given too
    IsZero,            // warmup_min_lr: both fillers put 0 there, whatever the config said
    EqualsLrOrNoLr,    // warmup_max_lr: both fillers put the optimizer's learning rate there
    TwoNumbers,        // betas: the Trainer fills [adam_beta1, adam_beta2]
    Stage3,            // the hidden-size-derived sizes: "auto" replaces the wizard's numbers only under ZeRO-3
};

struct Rule {
    std::vector<std::string> path;
    When when;
    const char* trainer;    // TrainingArguments source; nullptr = the Trainer does not fill it
    const char* accelerate; // Accelerate source; nullptr = a plain Accelerate script does not fill it (kept concrete)
    const char* flag;       // TrainingArguments flag that carries the value; nullptr = none
};

// Sources:
//  Trainer: huggingface/transformers src/transformers/integrations/deepspeed.py @02348331,
//    HfTrainerDeepSpeedConfig.trainer_config_process() (batch keys, clipping, optimizer and scheduler params,
//    fp16/bf16.enabled) and trainer_config_finalize() (hidden-size keys, total_num_steps, warmup_num_steps).
//    Non-"auto" values must match TrainingArguments or it raises "Please correct the following DeepSpeed config
//    values that mismatch TrainingArguments values" — so a concrete value is never changed silently.
//  Accelerate: huggingface/accelerate src/accelerate/accelerator.py @16cb6eb8, Accelerator._prepare_deepspeed();
//    docs/source/usage_guides/deepspeed.md: "Only the `auto` fields specified in above examples are handled by
//    `prepare` method and the rest have to be explicitly specified by the user."
//    Kept concrete for Accelerate, because "auto" there would change the value silently or fail:
//    gradient_accumulation_steps ("auto" takes Accelerator(gradient_accumulation_steps=k), 1 by default),
//    gradient_clipping ("auto" becomes a fixed 1.0 in _prepare_deepspeed), optimizer betas/eps (not among its
//    kwargs: "`optimizer.params.betas` not found in kwargs"), fp16/bf16.enabled (filled from the Accelerator's
//    mixed_precision, which the YAML may not set next to a deepspeed_config_file, so "no" unless the script says).
//  scheduler.params.warmup_num_steps is not in the table: both fill "auto" there with 0 unless told otherwise
//  (--warmup_steps defaults to 0; DummyScheduler(warmup_num_steps=0)), which DeepSpeed refuses
//  since 0.19.3, so the export keeps a number (exportedWarmupSteps below) and launch.sh passes it to the Trainer,
//  whose fill_match compares a number there with --warmup_steps; Accelerate keeps it (must_match=False).
//  reduce_bucket_size is filled by both at any stage; the wizard writes "auto" there only under ZeRO-3, where the
//  Transformers and Accelerate docs' ZeRO-3 templates do, and keeps its own number at stages 1-2.
const std::vector<Rule>& rules()
{
    static const std::vector<Rule> table = {
        {{"train_micro_batch_size_per_gpu"},
         When::Always,
         "per_device_train_batch_size",
         "the batch_size of the DataLoader given to accelerator.prepare()",
         "--per_device_train_batch_size"},
        {{"gradient_accumulation_steps"},
         When::Always,
         "gradient_accumulation_steps",
         nullptr,
         "--gradient_accumulation_steps"},
        {{"train_batch_size"},
         When::MicroBatchPresent,
         "world_size x per_device_train_batch_size x gradient_accumulation_steps",
         "micro-batch x gradient_accumulation_steps x num_processes",
         nullptr},
        {{"gradient_clipping"}, When::Always, "max_grad_norm", nullptr, "--max_grad_norm"},
        {{"optimizer", "params", "lr"}, When::Always, "learning_rate", "DummyOptim(lr=...)", "--learning_rate"},
        {{"optimizer", "params", "betas"}, When::TwoNumbers, "[adam_beta1, adam_beta2]", nullptr, nullptr},
        {{"optimizer", "params", "eps"}, When::Always, "adam_epsilon", nullptr, "--adam_epsilon"},
        {{"optimizer", "params", "weight_decay"},
         When::Always,
         "weight_decay",
         "DummyOptim(weight_decay=...)",
         "--weight_decay"},
        {{"scheduler", "params", "warmup_min_lr"}, When::IsZero, "0 (not a Trainer argument)", "0 (fixed)", nullptr},
        {{"scheduler", "params", "warmup_max_lr"},
         When::EqualsLrOrNoLr,
         "learning_rate",
         "the learning rate of the DummyOptim",
         "--learning_rate"},
        {{"scheduler", "params", "total_num_steps"},
         When::Always,
         "the number of training steps (max_steps)",
         "DummyScheduler(total_num_steps=...)",
         "--max_steps"},
        {{"fp16", "enabled"}, When::Always, "fp16 / fp16_full_eval", nullptr, "--fp16"},
        {{"bf16", "enabled"}, When::Always, "bf16 / bf16_full_eval", nullptr, "--bf16"},
        {{"zero_optimization", "reduce_bucket_size"},
         When::Stage3,
         "hidden_size x hidden_size of model.config",
         "hidden_size x hidden_size of model.config",
         nullptr},
        {{"zero_optimization", "stage3_prefetch_bucket_size"},
         When::Stage3,
         "0.9 x hidden_size x hidden_size of model.config",
         "0.9 x hidden_size x hidden_size of model.config",
         nullptr},
        {{"zero_optimization", "stage3_param_persistence_threshold"},
         When::Stage3,
         "10 x hidden_size of model.config",
         "10 x hidden_size of model.config",
         nullptr},
    };
    return table;
}

const oj* find(const oj& root, const std::vector<std::string>& path)
{
    const oj* node = &root;
    for (const std::string& key : path) {
        if (!node->is_object())
            return nullptr;
        const auto it = node->find(key);
        if (it == node->end())
            return nullptr;
        node = &*it;
    }
    return node;
}

std::string pointerOf(const std::vector<std::string>& path)
{
    std::string out;
    for (const std::string& key : path)
        out += "/" + key; // the table's keys hold neither '/' nor '~', so no escaping is needed
    return out;
}

bool isAuto(const oj& v) { return v.is_string() && v.get<std::string>() == "auto"; }

bool sameNumber(const oj& a, const oj& b)
{
    return a.is_number() && b.is_number() && a.get<double>() == b.get<double>();
}

bool applies(const Rule& rule, const oj& config, const oj& value)
{
    if (isAuto(value))
        return true; // already left to the filler
    if (!value.is_number() && !value.is_boolean() && rule.when != When::TwoNumbers)
        return false; // a placeholder ("<lr>", "{{lr}}") or another type: left as written, for the linter to report
    switch (rule.when) {
    case When::Always: return true;
    case When::MicroBatchPresent: {
        const oj* micro = find(config, {"train_micro_batch_size_per_gpu"});
        return micro && (micro->is_number() || isAuto(*micro)); // not a placeholder: the filler multiplies it
    }
    case When::IsZero: return value.is_number() && value.get<double>() == 0.0;
    case When::EqualsLrOrNoLr: {
        const oj* lr = find(config, {"optimizer", "params", "lr"});
        return !lr || lr->is_null() || isAuto(*lr) || sameNumber(*lr, value);
    }
    case When::TwoNumbers: return value.is_array() && value.size() == 2 && value[0].is_number() && value[1].is_number();
    case When::Stage3: {
        const oj* stage = find(config, {"zero_optimization", "stage"});
        return stage && stage->is_number() && stage->get<double>() == 3.0;
    }
    }
    return false;
}

std::string argumentText(const oj& v)
{
    if (v.is_string())
        return v.get<std::string>();
    return v.dump(); // 4, 0.0001, 1e-08: what Python's float() and int() read back
}

std::vector<std::string> trainerArgumentsFor(const Rule& rule, const oj& value, const oj& config)
{
    if (isAuto(value))
        return {};
    const std::string pointer = pointerOf(rule.path);
    if (pointer == "/optimizer/params/betas")
        return {"--adam_beta1", argumentText(value[0]), "--adam_beta2", argumentText(value[1])};
    if (pointer == "/fp16/enabled" || pointer == "/bf16/enabled") {
        // TrainingArguments' fp16 and bf16 default to false, so only "true" needs a flag.
        if (value.is_boolean() && value.get<bool>())
            return {rule.flag};
        return {};
    }
    if (pointer == "/scheduler/params/warmup_max_lr") {
        const oj* lr = find(config, {"optimizer", "params", "lr"});
        if (lr && !lr->is_null())
            return {}; // --learning_rate already carries it (the two are equal, or this key stays concrete)
    }
    if (!rule.flag)
        return {};
    return {rule.flag, argumentText(value)};
}

// DeepSpeed's Adam and AdamW (FusedAdam, DeepSpeedCPUAdam: ops/adam, ds-fused-adam-defaults) default betas, eps and
// weight_decay to (0.9, 0.999), 1e-8 and 0, which are also TrainingArguments' defaults for adam_beta1/2, adam_epsilon
// and weight_decay (and DummyOptim's weight_decay). A config that leaves them out ignores the user's --weight_decay
// and --adam_* silently, so the filler's form writes them, as "auto", with DeepSpeed's default as the value to give.
oj withAdamDefaults(const oj& config, AutoFiller filler)
{
    const oj* type = find(config, {"optimizer", "type"});
    const oj* params = find(config, {"optimizer", "params"});
    if (!type || !type->is_string() || !params || !params->is_object())
        return config;
    std::string name = type->get<std::string>();
    for (char& c : name)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (name != "adam" && name != "adamw")
        return config;
    oj out = config;
    oj& p = out["optimizer"]["params"];
    if (filler == AutoFiller::TransformersTrainer) {
        if (!p.contains("betas"))
            p["betas"] = oj::array({0.9, 0.999});
        if (!p.contains("eps"))
            p["eps"] = 1e-8;
    }
    if (!p.contains("weight_decay"))
        p["weight_decay"] = 0.0;
    return out;
}

} // namespace

AutoFiller autoFillerForLauncher(const std::string& launcher)
{
    return launcher == "accelerate" ? AutoFiller::Accelerate : AutoFiller::TransformersTrainer;
}

std::vector<AutoValue> autoValues(const nlohmann::ordered_json& strict, AutoFiller filler)
{
    std::vector<AutoValue> out;
    if (!strict.is_object())
        return out;
    const oj config = withAdamDefaults(strict, filler);
    for (const Rule& rule : rules()) {
        const char* source = filler == AutoFiller::TransformersTrainer ? rule.trainer : rule.accelerate;
        if (!source)
            continue;
        const oj* value = find(config, rule.path);
        if (!value || value->is_null() || !applies(rule, config, *value))
            continue;
        AutoValue av;
        av.pointer = pointerOf(rule.path);
        av.value = *value;
        av.suppliedBy = source;
        if (filler == AutoFiller::TransformersTrainer)
            av.trainerArguments = trainerArgumentsFor(rule, *value, config);
        out.push_back(std::move(av));
    }
    return out;
}

nlohmann::ordered_json withAutoValues(const nlohmann::ordered_json& config, AutoFiller filler)
{
    if (!config.is_object())
        return config;
    oj out = withAdamDefaults(config, filler);
    for (const AutoValue& av : autoValues(config, filler))
        out.at(oj::json_pointer(av.pointer)) = "auto"; // at(): replaces in place, so the key keeps its position
    return out;
}

std::optional<ExportedWarmup> exportedWarmupSteps(const nlohmann::ordered_json& config)
{
    const oj* warmup = find(config, {"scheduler", "params", "warmup_num_steps"});
    if (!warmup)
        return std::nullopt;
    if (isAuto(*warmup))
        return ExportedWarmup{kDeepSpeedDefaultWarmupSteps, true};
    if (warmup->is_number_integer() && warmup->get<std::int64_t>() > 0)
        return ExportedWarmup{warmup->get<std::int64_t>(), false};
    return std::nullopt; // 0, negative or not a whole number: left as written, for the linter to report
}

nlohmann::ordered_json withExportedWarmup(const nlohmann::ordered_json& config)
{
    oj out = config;
    if (const auto warmup = exportedWarmupSteps(config))
        out.at(oj::json_pointer("/scheduler/params/warmup_num_steps")) = warmup->steps;
    return out;
}

} // namespace dsw
