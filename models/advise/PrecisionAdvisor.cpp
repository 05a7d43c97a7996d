#include "advise/PrecisionAdvisor.h"

#include "estimate/StepModel.h"
#include "knowledge/GpuCatalog.h"
#include "knowledge/SourceCatalog.h"
#include "util/Count.h"
#include "util/Version.h"

#include <stdexcept>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

oj fp16Block()
{
    // loss_scale 0 selects dynamic loss scaling; the rest are DeepSpeed's defaults, written out to be explicit.
    return oj{{"fp16",
               {{"enabled", true},
                {"loss_scale", 0},
                {"initial_scale_power", 16},
                {"loss_scale_window", 1000},
                {"hysteresis", 2},
                {"min_loss_scale", 1}}}};
}

void addFp8(Advice& adv, const GpuSpec* gpu, const std::string& base)
{
    const auto cc = gpu ? gpu->computeCapabilityNumber() : std::nullopt;
    const bool nvidiaFp8 = cc && *cc >= 8.9;
    adv.checks.push_back(
        {nvidiaFp8 ? CheckLevel::Warn : CheckLevel::Fail, "fp8-needs-transformer-engine",
         "DeepSpeed has no fp8 config key: FP8 comes from NVIDIA Transformer Engine layers in the model "
         "code ("
             + quoteExcerpt("te-support-matrix", "It requires compute capability 8.9", "or higher")
             + "), while DeepSpeed runs " + base + ". "
             + (nvidiaFp8 ? gpuCapabilityText(gpu) + " meets that requirement."
                          : gpuCapabilityText(gpu) + " does not meet it; no fp8 is configured."),
         "te-support-matrix"});
    adv.snippets.push_back(
        {"python", "FP8 with Transformer Engine (model code, not ds_config)",
         "import transformer_engine.pytorch as te\nfrom transformer_engine.common import recipe\n\n"
         "# Build the model from te.Linear / te.LayerNormMLP ... layers, then:\n"
         "fp8_recipe = recipe.DelayedScaling(fp8_format=recipe.Format.HYBRID,\n"
         "                                   amax_history_len=16, amax_compute_algo=\"max\")\n"
         "with te.fp8_autocast(enabled=True, fp8_recipe=fp8_recipe):\n    loss = model_engine(batch)\n"});
    adv.sources.push_back("ds-fp8");
}

// The ZeRO page's plan, else what the answers force (auto: stage 0, no offload).
StepCandidate zeroPlanOf(const Answers& a, const ZeroDecision* zero)
{
    if (zero && !zero->candidates.empty())
        return zero->plan().candidate;
    StepCandidate c;
    c.placement.stage = a.text("zero.stage") == "auto" ? 0 : static_cast<int>(a.integer("zero.stage"));
    const std::string offload = a.text("zero.offload_optimizer");
    c.placement.offloadOptimizer = offload == "auto" ? "none" : offload;
    c.microBatch = std::max<std::int64_t>(1, a.integer("training.micro_batch_size"));
    c.accumulation = std::max<std::int64_t>(1, a.integer("training.gradient_accumulation_steps"));
    return c;
}

// Why training.precision_states = bf16 cannot be written for this plan (DeepSpeed 0.19.5's rules), or empty.
std::string bf16StatesRefusal(const Job& job, const Answers& a, const StepCandidate& plan, std::string& source)
{
    const std::string allowed = " Allowed: training.precision_states fp32, or bf16 with bf16 training at ZeRO stage "
                                "1, 2 or 3 (Adam or AdamW when the optimizer is offloaded).";
    const std::string& use = job.precision.runs;
    if (use != "bf16") {
        source = "ds-bf16-master-weights";
        return "training.precision_states = bf16 needs bf16 training, but this config trains in " + use
            + ": the bf16 block's " + quoteExcerpt("ds-bf16-master-weights", "Maintain master", "ZeRO optimizer.")
            + allowed;
    }
    const std::string deepspeed = a.text("software.deepspeed_version");
    if (!versionAtLeast(deepspeed, "0.18.3")) {
        source = "ds-bf16-master-versions";
        return "training.precision_states = bf16: DeepSpeed " + deepspeed
            + " has no bf16.bf16_master_weights_and_grads or bf16_optimizer_states (they arrived in 0.18.3; older "
              "releases reject unknown bf16 keys)."
            + allowed;
    }
    if (plan.placement.stage == 0) {
        source = "ds-bf16-master-stage";
        return "training.precision_states = bf16 at ZeRO stage 0 (the ZeRO page's plan, or zero.stage): DeepSpeed "
               "asserts "
            + quoteOf("ds-bf16-master-stage") + allowed;
    }
    const std::string& optimizer = job.optimizer;
    if (plan.placement.offloadOptimizer != "none" && optimizer != "adam" && optimizer != "adamw") {
        source = "ds-bf16-master-offload";
        return "training.precision_states = bf16 with the optimizer offloaded to " + plan.placement.offloadOptimizer
            + " and training.optimizer " + optimizer + ": DeepSpeed asserts " + quoteOf("ds-bf16-master-offload")
            + " (at ZeRO-1/2 the same for their stage); only Adam and AdamW become DeepSpeedCPUAdam." + allowed;
    }
    return {};
}

// training.precision_states = bf16: the two bf16 keys when DeepSpeed runs them for this plan, a failed check
// naming the input when it does not. Returns whether the keys are written.
bool addPrecisionStates(Advice& adv, const Job& job, const ZeroDecision* zero, const Answers& a)
{
    if (a.text("training.precision_states") != "bf16")
        return false;
    const StepCandidate plan = zeroPlanOf(a, zero);
    std::string source;
    if (const std::string why = bf16StatesRefusal(job, a, plan, source); !why.empty()) {
        adv.checks.push_back({CheckLevel::Fail, "precision-states-bf16-unsupported",
                              why + " The master weights and optimizer states stay fp32.", source});
        return false;
    }
    std::string saving;
    if (job.step) { // the step model's optimizer states for the ZeRO page's plan, with and without bf16 states
        StepJob fp32States = *job.step;
        fp32States.states = StatePrecision::Fp32;
        const StepPrediction bf16 = predictStep(*job.step, plan);
        const StepPrediction fp32 = predictStep(fp32States, plan);
        const bool onHost = plan.placement.offloadOptimizer != "none";
        const auto bytes = [&](const StepPrediction& p) {
            return static_cast<double>(onHost ? p.cpuPerNode : p.gpu.optimizer);
        };
        saving = std::string(" By the step model, at ") + planLabel(plan) + ", "
            + (onHost ? "host RAM per node is " : "the optimizer states per GPU are ") + formatGiB(bytes(bf16))
            + " instead of " + formatGiB(bytes(fp32)) + "; the GPU total "
            + formatGiB(static_cast<double>(bf16.gpu.total))
            + (bf16.gpu.total == fp32.gpu.total
                   ? " either way."
                   : " instead of " + formatGiB(static_cast<double>(fp32.gpu.total)) + ".");
        adv.details["precision_states_bytes"] = {{"bf16", bytes(bf16)}, {"fp32", bytes(fp32)}, {"on_host", onHost}};
    }
    adv.checks.push_back(
        {CheckLevel::Pass, "precision-states-bf16",
         "training.precision_states = bf16 at ZeRO stage " + std::to_string(plan.placement.stage)
             + ": bf16.bf16_master_weights_and_grads and bf16.bf16_optimizer_states are written, so the master "
               "weights, the optimizer's gradients and Adam's m and v take 2 bytes per parameter each instead of 4."
             + (plan.placement.offloadOptimizer != "none"
                    ? " With the optimizer offloaded DeepSpeed builds DeepSpeedCPUAdam with "
                      "fp32_optimizer_states=False, so the moments on the host are bf16 too."
                    : std::string())
             + saving,
         "ds-bf16-master-weights"});
    adv.tradeoffs.push_back(
        {"bf16 master weights and optimizer states",
         "You gain half the optimizer's memory; you pay precision: bf16 has a 7-bit mantissa (8 significant "
         "bits), so an update smaller than about 1/256 of a weight's magnitude rounds away in a bf16 master "
         "weight, where fp32's 24 bits keep it. Small learning rates late in a run are where that shows.",
         "fp16-range"});
    adv.sources.push_back("ds-bf16-master-weights");
    if (plan.placement.offloadOptimizer != "none")
        adv.sources.push_back("ds-bf16-master-cpu-adam");
    return true;
}

} // namespace

Advice advisePrecision(const Job& job, const ZeroDecision* zero, const Answers& a)
{
    Advice adv;
    adv.workflow = "precision";
    adv.status = AdviceStatus::Complete;
    adv.sources = {"gpu-catalog", "te-support-matrix", "ds-bf16-docs", "ds-fp16-docs"};
    const GpuSpec* gpu = job.gpu;
    const bool gpuBf16 = job.precision.gpuHasBf16;
    const std::string deepspeed = a.text("software.deepspeed_version");
    const std::string& wanted = job.precision.asked;
    const std::string& use = job.precision.runs; // resolved once for every page (advise/Job.h)
    if (const auto& refused = job.precision.refused)
        adv.checks.push_back({CheckLevel::Fail, refused->code, refused->message, refused->source});
    else if (gpuBf16 && use != "fp32")
        adv.checks.push_back({CheckLevel::Pass, "bf16-supported-gpu",
                              gpuCapabilityText(gpu) + " supports bf16 (per the catalog's vendor data).",
                              "gpu-catalog"});
    if (wanted == "fp8")
        addFp8(adv, gpu, use);

    const std::string checkpoint = a.text("precision.checkpoint_dtype");
    if (use == "bf16") {
        // The key was "bfloat16" in 0.5.5–0.5.x and "bf16" from 0.6.0 (the old key is still read).
        const std::string key = versionAtLeast(deepspeed, "0.6.0") ? "bf16" : "bfloat16";
        adv.fragment = oj{{key, {{"enabled", true}}}};
        if (addPrecisionStates(adv, job, zero, a)) {
            adv.fragment[key]["bf16_master_weights_and_grads"] = true;
            adv.fragment[key]["bf16_optimizer_states"] = true;
        }
        adv.headline =
            "bf16: " + (gpu ? gpu->id : a.text("hardware.gpu")) + " supports it, and it needs no loss scaling";
        adv.tradeoffs.push_back({"Why bf16",
                                 "bf16 keeps fp32's 8-bit exponent (fp16 has 5), so gradients neither "
                                 "overflow nor underflow the way they do in fp16: "
                                     + quoteExcerpt("ds-bf16-docs", "Training with bfloat16"),
                                 "ds-bf16-docs"});
    } else if (use == "fp16") {
        adv.fragment = fp16Block();
        adv.headline = "fp16 with dynamic loss scaling" + std::string(gpuBf16 ? "" : " (the GPU has no bf16)");
        adv.tradeoffs.push_back(
            {"Overflow and loss scaling",
             "fp16's largest value is 65504 and small gradients underflow: "
                 + quoteExcerpt("pytorch-amp", "Gradient values", "flush to zero")
                 + ". Dynamic loss scaling (loss_scale 0) multiplies the loss by 2^16 at first, skips "
                   "a step and lowers the scale when gradients overflow, and raises it again after 1000 "
                   "clean steps.",
             "pytorch-amp"});
        if (checkpoint == "bf16")
            adv.checks.push_back({CheckLevel::Warn, "fp16-bf16-checkpoint-overflow",
                                  "The checkpoint was trained in bf16; its activations may exceed fp16's largest value "
                                  "(65504), which shows as overflow, skipped steps or NaN loss in fp16.",
                                  "fp16-range"});
    } else {
        adv.headline = "fp32: no mixed precision";
        adv.checks.push_back({CheckLevel::Warn, "fp32-memory",
                              "fp32 keeps 4-byte parameters and gradients; the memory estimates assume 16-bit.", ""});
    }
    if (use != "bf16")
        addPrecisionStates(adv, job, zero, a); // fails its check: bf16 states need bf16 training
    if (use != "fp32")
        adv.checks.push_back({CheckLevel::Pass, "precision-single-mode",
                              "Only " + use + " is enabled: \"this mode cannot be combined with the fp16 mode\".",
                              "ds-bf16-docs"});
    if (!job.notModelled.empty()) { // the precision stands; what it saves in memory is not sized
        Check why = job.unsizedCheck();
        why.level = CheckLevel::Warn;
        why.message = "The precision does not depend on the model's size and is written; the memory it takes or "
                      "saves is not sized. "
            + why.message;
        adv.checks.push_back(why);
    }
    adv.details["precision"] = use;
    return adv;
}

} // namespace dsw
