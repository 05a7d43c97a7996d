// What DeepSpeed's engine refuses at initialisation although the config loads: the optimizer and scheduler it
// builds from the config (names, constructor parameters, ZeRO's tested optimizers, warmup steps), param_dtype
// against the enabled precision, and managed_gradient_accumulation false. The facts are data in
// resources/knowledge/deepspeed.json (knowledge/EngineFacts).
#include "lint/EngineRules.h"

#include "knowledge/DeepSpeedSchema.h"
#include "knowledge/EngineFacts.h"
#include "knowledge/SourceCatalog.h"
#include "lint/LintReport.h"
#include "util/Utf8.h"
#include "util/Version.h"

#include <algorithm>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

std::string textAt(const LintReport& r, const std::string& pointer)
{
    const oj* v = r.at(pointer);
    return v && v->is_string() ? v->get<std::string>() : std::string();
}

// Python's truth of a value DeepSpeed reads with .get(): false, 0, "", null, {} and [] are false.
bool truthy(const oj* v)
{
    if (!v || v->is_null())
        return false;
    if (v->is_boolean())
        return v->get<bool>();
    if (v->is_number())
        return v->get<double>() != 0.0;
    if (v->is_string() || v->is_object() || v->is_array())
        return !v->empty() && !(v->is_string() && v->get<std::string>().empty());
    return true;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

// The closest name (same letters ignoring case first, else at most a third of the letters changed). Edit
// distances are quadratic: a hostile file with long or very many unknown keys gets findings without suggestions.
std::optional<std::string> nearest(const std::string& written, const std::vector<std::string>& names,
                                   int* budget = nullptr)
{
    if (written.size() > 64 || (budget && (*budget)-- <= 0))
        return std::nullopt;
    for (const std::string& n : names)
        if (asciiLower(n) == asciiLower(written))
            return n;
    std::optional<std::string> best;
    std::size_t bestDistance = std::max<std::size_t>(2, written.size() / 3) + 1;
    for (const std::string& n : names)
        if (const std::size_t d = editDistance(asciiLower(n), asciiLower(written)); d < bestDistance) {
            bestDistance = d;
            best = n;
        }
    return best;
}

bool offloadsOptimizer(const LintReport& r)
{
    const std::string d = textAt(r, "/zero_optimization/offload_optimizer/device");
    return d == "cpu" || d == "nvme";
}

// Which class DeepSpeed builds for this optimizer in this config.
std::string buildKind(const LintReport& r, const OptimizerSpec& spec)
{
    if (spec.builds.count("torch_adam") && truthy(r.at("/optimizer/params/torch_adam")))
        return "torch_adam";
    if (spec.builds.count("offload") && offloadsOptimizer(r))
        return "offload";
    return "default";
}

void optimizerName(LintReport& r, const std::string& type)
{
    const std::string torch =
        r.context().has("software.torch_version") ? r.context().text("software.torch_version") : std::string();
    std::optional<std::string> near = nearest(type, optimizerNames());
    r.add(LintLevel::Error, "optimizer-unknown", "/optimizer/type",
          "optimizer.type \"" + type
              + "\" is neither a DeepSpeed optimizer (adam, adamw, adagrad, lamb, lion, onebitadam, zerooneadam, "
                "onebitlamb, muadam, muadamw, musgd, muon: any case) nor a torch.optim class (spelled exactly, as "
                "SGD)"
              + (torch.empty() ? std::string() : " in PyTorch " + torch)
              + ": DeepSpeed stops at engine init with an AssertionError (\"" + type
              + " is not a supported DeepSpeed Optimizer\").",
          near ? std::optional<std::string>("write \"" + *near + "\"") : std::nullopt, "ds-optimizer-names");
}

void optimizerParams(LintReport& r, const OptimizerSpec& spec, const std::string& type)
{
    const oj* params = r.at("/optimizer/params");
    if (!params || !params->is_object())
        return;
    const OptimizerClass& built = spec.builds.at(buildKind(r, spec));
    if (!built.params)
        return;
    int suggestions = 200;
    for (auto it = params->begin(); it != params->end(); ++it) {
        const std::string& key = it.key();
        if (key == "max_grad_norm" || std::find(spec.popped.begin(), spec.popped.end(), key) != spec.popped.end()
            || std::find(built.params->begin(), built.params->end(), key) != built.params->end())
            continue;
        std::optional<std::string> near = nearest(key, *built.params, &suggestions);
        r.add(LintLevel::Error, "optimizer-param-unknown", "/optimizer/params/" + pointerToken(key),
              "optimizer.params." + key + " is not a parameter of " + built.name + ", the class \"" + type
                  + "\" builds here: its constructor raises TypeError (unexpected keyword argument '" + key
                  + "'), so DeepSpeed stops at engine init. It takes: " + joined(*built.params) + ".",
              near ? "did you mean \"" + *near + "\"?" : std::string("remove it"), "ds-optimizer-constructors");
    }
}

void untestedWithZero(LintReport& r, const OptimizerSpec& spec, const std::string& type, int stage)
{
    static const std::vector<std::string> oneBit = {"onebitadam", "zerooneadam", "onebitlamb"};
    if (spec.zeroSupported || stage == 0 || std::find(oneBit.begin(), oneBit.end(), spec.name) != oneBit.end())
        return; // the 1-bit optimizers have their own assertion (ConfigRules: onebit-requires-zero-0)
    const std::string cls = spec.builds.at(buildKind(r, spec)).name;
    if (truthy(r.at("/zero_allow_untested_optimizer")))
        r.add(LintLevel::Warning, "untested-optimizer-with-zero", "/zero_allow_untested_optimizer",
              "\"" + type + "\" builds " + cls + ", which ZeRO has not been tested with (it is not in "
                  + "ZERO_SUPPORTED_OPTIMIZERS); zero_allow_untested_optimizer lets DeepSpeed run it at stage "
                  + std::to_string(stage)
                  + " with a warning: the partitioned optimizer step may be wrong or slow, so check the loss "
                    "against a run without ZeRO.",
              "use Adam, AdamW, Adagrad or Lion, which ZeRO supports", "ds-zero-untested-optimizer");
    else
        r.add(LintLevel::Error, "untested-optimizer-with-zero", "/optimizer/type",
              "\"" + type + "\" builds " + cls + ", which is not among the optimizers ZeRO supports; at stage "
                  + std::to_string(stage) + " DeepSpeed stops at engine init: " + quoteOf("ds-zero-untested-optimizer"),
              "use Adam, AdamW, Adagrad or Lion, or add \"zero_allow_untested_optimizer\": true (untested: compare "
              "the loss with a run without ZeRO)",
              "ds-zero-untested-optimizer");
}

// DeepSpeed's ValueError for a warmup_num_steps value, as its f-string prints it.
std::string warmupRefusal(const oj& v)
{
    const std::string shown = v.is_string() ? v.get<std::string>()
        : v.is_boolean()                    ? std::string(v.get<bool>() ? "True" : "False")
                                            : v.dump();
    return "ValueError(\"warmup_num_steps must be a positive integer, got " + shown + "\")";
}

// warmup_num_steps must be a positive Python int from 0.19.3 (a float, a string or "auto" left unfilled is refused).
void warmupSteps(LintReport& r, const SchedulerSpec& spec)
{
    const std::string pointer = "/scheduler/params/warmup_num_steps";
    const oj* v = r.at(pointer);
    if (!spec.warmup || !v)
        return;
    const VersionFact fact = versionFact("warmup_num_steps_positive");
    const Answers& a = r.context();
    const std::string ds = a.has("software.deepspeed_version") ? a.text("software.deepspeed_version") : std::string();
    const bool enforced = ds.empty() || versionAtLeast(ds, fact.deepspeedFrom);
    const std::string which = ds.empty() ? "DeepSpeed " + fact.deepspeedFrom + " and later" : "DeepSpeed " + ds;
    if (v->is_string() && v->get<std::string>() == "auto") {
        if (!r.launcherFillsAuto())
            return; // the schema pass reports an "auto" nobody fills
        r.add(
            enforced ? LintLevel::Warning : LintLevel::Info, "hf-warmup-auto", pointer,
            "scheduler.params.warmup_num_steps is \"auto\": "
                + (r.launcher() == "accelerate"
                       ? std::string("Accelerate fills it from DummyScheduler(warmup_num_steps=...), or under the HF "
                                     "Trainer from --warmup_steps; ")
                       : std::string("the HF Trainer fills it from --warmup_steps (from Transformers 5 a value "
                                     "below 1 is a fraction of the training steps); "))
                + "that is 0 when none is set, and "
                + (enforced ? which + " stops at engine init with " + warmupRefusal(oj(0))
                            : which + " accepts 0 (" + fact.before + ")")
                + ".",
            "pass --warmup_steps N to the Trainer (Transformers 5 deprecates --warmup_ratio: --warmup_steps 0.1 is its "
            "replacement), or write the number of warmup steps here",
            "hf-warmup-steps");
        return;
    }
    const bool integer = v->is_number_integer() || v->is_number_unsigned() || v->is_boolean();
    const bool positive = integer && (v->is_boolean() ? v->get<bool>() : v->get<double>() > 0);
    if (integer && positive)
        return;
    if (!integer && !v->is_number()) // a string or other type: DeepSpeed's check refuses it in every version
        r.add(LintLevel::Error, "warmup-steps-invalid", pointer,
              "scheduler.params.warmup_num_steps is " + shortJson(*v) + ", not an integer: " + which
                  + " stops at engine init with " + warmupRefusal(*v) + ".",
              "write a positive integer", fact.source);
    else if (enforced)
        r.add(LintLevel::Error, "warmup-steps-invalid", pointer,
              "scheduler.params.warmup_num_steps is " + shortJson(*v) + (integer ? "" : ", not a Python int") + ": "
                  + which + " stops at engine init with " + warmupRefusal(*v) + ".",
              "write a positive integer such as 1000", fact.source);
    else
        r.add(LintLevel::Warning, "warmup-steps-invalid", pointer,
              "scheduler.params.warmup_num_steps is " + shortJson(*v) + ": " + which + " accepts it (" + fact.before
                  + "); from " + fact.deepspeedFrom + " DeepSpeed refuses it at engine init.",
              "write a positive integer such as 1000", fact.source);
}

void scheduler(LintReport& r)
{
    const oj* typeValue = r.at("/scheduler/type");
    if (!typeValue || !typeValue->is_string())
        return;
    const std::string type = typeValue->get<std::string>();
    const SchedulerSpec* spec = findScheduler(type);
    if (!spec) {
        std::optional<std::string> near = nearest(type, schedulerNames());
        r.add(LintLevel::Error, "scheduler-unknown", "/scheduler/type",
              "scheduler.type \"" + type
                  + "\" is neither a DeepSpeed scheduler (LRRangeTest, OneCycle, WarmupLR, WarmupDecayLR, "
                    "WarmupCosineLR) nor a torch.optim.lr_scheduler class, spelled exactly: DeepSpeed stops at "
                    "engine init with an AssertionError (it does not recognize the LR scheduler).",
              near ? std::optional<std::string>("write \"" + *near + "\"") : std::nullopt, "ds-scheduler-names");
        return;
    }
    const oj* params = r.at("/scheduler/params");
    const bool object = params && params->is_object();
    for (const std::string& key : spec->required)
        if (!object || !params->contains(key))
            r.add(LintLevel::Error, "scheduler-param-missing", object ? "/scheduler/params" : "/scheduler/type",
                  type + " needs scheduler.params." + key + ": DeepSpeed builds it as " + type
                      + "(optimizer, **params), which raises TypeError (missing required argument '" + key
                      + "') at engine init.",
                  "add \"" + key + "\"", "ds-lr-schedules");
    int suggestions = 200;
    if (object)
        for (auto it = params->begin(); it != params->end(); ++it)
            if (std::find(spec->params.begin(), spec->params.end(), it.key()) == spec->params.end()) {
                std::optional<std::string> near = nearest(it.key(), spec->params, &suggestions);
                r.add(LintLevel::Error, "scheduler-param-unknown", "/scheduler/params/" + pointerToken(it.key()),
                      "scheduler.params." + it.key() + " is not a parameter of " + type
                          + ": its constructor raises TypeError (unexpected keyword argument) at engine init. It "
                            "takes: "
                          + joined(spec->params) + ".",
                      near ? "did you mean \"" + *near + "\"?" : std::string("remove it"), "ds-lr-schedules");
            }
    warmupSteps(r, *spec);
}

// DtypeEnum's spellings (runtime/config.py): the dtype each names.
std::optional<std::string> dtypeOf(const std::string& written)
{
    static const std::vector<std::pair<std::string, std::vector<std::string>>> spellings = {
        {"fp16", {"torch.float16", "fp16", "float16", "half"}},
        {"fp32", {"torch.float32", "fp32", "float32", "float"}},
        {"int8", {"torch.int8", "int8"}},
        {"bf16", {"torch.bfloat16", "bf16", "bfloat16"}}};
    for (const auto& [dtype, names] : spellings)
        if (std::find(names.begin(), names.end(), written) != names.end())
            return dtype;
    return std::nullopt;
}

void paramDtype(LintReport& r)
{
    const oj* v = r.at("/data_types/param_dtype");
    if (!v || v->is_null() || !v->is_string())
        return;
    const std::string written = v->get<std::string>();
    const std::string model = r.enabled("fp16").value_or(false) ? "fp16"
        : r.enabled("bf16").value_or(false)                     ? "bf16"
                                                                : "fp32";
    const std::optional<std::string> dtype = dtypeOf(written);
    if (!dtype)
        r.add(LintLevel::Error, "param-dtype-conflict", "/data_types/param_dtype",
              "data_types.param_dtype \"" + written
                  + "\" is no dtype DeepSpeed knows (fp16, bf16, fp32 or their torch names): DtypeEnum raises "
                    "ValueError at engine init.",
              "write \"" + model + "\", or remove it", "ds-param-dtype");
    else if (*dtype != model)
        r.add(LintLevel::Error, "param-dtype-conflict", "/data_types/param_dtype",
              "data_types.param_dtype \"" + written + "\"" + (written == *dtype ? "" : " (" + *dtype + ")")
                  + " differs from the model dtype, " + model
                  + " from the enabled precision: DeepSpeed stops at engine init with an AssertionError ("
                  + quoteOf("ds-param-dtype") + ").",
              "write \"" + model + "\", enable the matching fp16/bf16 block, or remove param_dtype", "ds-param-dtype");
}

void managedAccumulation(LintReport& r, std::optional<int> stage)
{
    const oj* v = r.at("/managed_gradient_accumulation");
    if (!v || truthy(v) || v->is_null()) // null is read as written; only an explicit false-like value matters
        return;
    const oj* overlap = r.at("/zero_optimization/overlap_comm");
    const bool overlapOn = overlap
        && ((overlap->is_boolean() && overlap->get<bool>())
            || (overlap->is_string() && asciiLower(overlap->get<std::string>()) == "true"));
    const long long stages = r.context().has("pipeline.stages") ? r.context().integer("pipeline.stages") : 1;
    if (stage && *stage < 2 && overlapOn)
        r.add(LintLevel::Error, "managed-grad-accum-unsupported", "/managed_gradient_accumulation",
              "managed_gradient_accumulation false with overlap_comm at ZeRO stage " + std::to_string(*stage)
                  + ": DeepSpeed stops at engine init with " + quoteOf("ds-managed-grad-accum") + ".",
              "use ZeRO stage 2 or 3, set \"overlap_comm\": false, or remove managed_gradient_accumulation",
              "ds-managed-grad-accum");
    else if (stages > 1)
        r.add(LintLevel::Error, "managed-grad-accum-unsupported", "/managed_gradient_accumulation",
              "managed_gradient_accumulation false with " + std::to_string(stages)
                  + " pipeline stages: DeepSpeed asserts it is not supported with pipeline parallelism.",
              "remove managed_gradient_accumulation", "ds-managed-grad-accum");
    else if (truthy(r.at("/amp/enabled")))
        r.add(LintLevel::Error, "managed-grad-accum-unsupported", "/managed_gradient_accumulation",
              "managed_gradient_accumulation false with Apex AMP: DeepSpeed asserts it is not supported.",
              "remove managed_gradient_accumulation", "ds-managed-grad-accum");
}

} // namespace

void applyEngineRules(LintReport& r)
{
    const std::optional<int> stage = r.zeroStage();
    if (const oj* type = r.at("/optimizer/type"); type && type->is_string()) {
        const std::string torch =
            r.context().has("software.torch_version") ? r.context().text("software.torch_version") : std::string();
        const std::string name = type->get<std::string>();
        if (const OptimizerSpec* spec = findOptimizer(name, torch)) {
            optimizerParams(r, *spec, name);
            if (stage)
                untestedWithZero(r, *spec, name, *stage);
        } else {
            optimizerName(r, name);
        }
    }
    scheduler(r);
    paramDtype(r);
    managedAccumulation(r, stage);
}

} // namespace dsw
