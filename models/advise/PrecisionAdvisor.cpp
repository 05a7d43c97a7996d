#include "advise/PrecisionAdvisor.h"

#include "knowledge/GpuCatalog.h"
#include "knowledge/SourceCatalog.h"
#include "util/Version.h"

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

std::string capabilityText(const GpuSpec* gpu)
{
    if (!gpu)
        return "unknown GPU";
    return gpu->id + " (" + gpu->architecture + ", compute capability " + gpu->computeCapability + ")";
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
             + (nvidiaFp8 ? capabilityText(gpu) + " meets that requirement."
                          : capabilityText(gpu) + " does not meet it; no fp8 is configured."),
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

} // namespace

Advice advisePrecision(const Answers& a)
{
    Advice adv;
    adv.workflow = "precision";
    adv.status = AdviceStatus::Complete;
    adv.sources = {"gpu-catalog", "te-support-matrix", "ds-bf16-docs", "ds-fp16-docs"};
    const GpuSpec* gpu = GpuCatalog::instance().find(a.text("hardware.gpu"));
    const bool gpuBf16 = gpu && gpu->bf16;
    const std::string deepspeed = a.text("software.deepspeed_version");
    const bool dsBf16 = versionAtLeast(deepspeed, "0.5.5");
    const std::string wanted = a.text("training.precision");

    std::string use = wanted;
    if (wanted == "auto" || wanted == "fp8")
        use = gpuBf16 && dsBf16 ? "bf16" : "fp16";
    if (wanted == "bf16" && !gpuBf16) {
        adv.checks.push_back({CheckLevel::Fail, "bf16-unsupported-gpu",
                              capabilityText(gpu) + " has no bf16 support ("
                                  + quoteExcerpt("te-support-matrix", "BF16 requires", "or higher")
                                  + "); DeepSpeed would stop with " + quoteOf("ds-bf16-config")
                                  + " fp16 with dynamic loss scaling is used instead.",
                              "te-support-matrix"});
        use = "fp16";
    } else if (wanted == "bf16" && !dsBf16) {
        adv.checks.push_back({CheckLevel::Fail, "bf16-needs-newer-deepspeed",
                              "DeepSpeed " + deepspeed + " has no bf16; it arrived in 0.5.5. fp16 is used instead.",
                              "ds-bf16-versions"});
        use = "fp16";
    } else if (gpuBf16 && use != "fp32") {
        adv.checks.push_back({CheckLevel::Pass, "bf16-supported-gpu",
                              capabilityText(gpu) + " supports bf16 (per the catalog's vendor data).", "gpu-catalog"});
    }
    if (wanted == "fp8")
        addFp8(adv, gpu, use);

    const std::string checkpoint = a.text("precision.checkpoint_dtype");
    if (use == "bf16") {
        // The key was "bfloat16" in 0.5.5–0.5.x and "bf16" from 0.6.0 (the old key is still read).
        const std::string key = versionAtLeast(deepspeed, "0.6.0") ? "bf16" : "bfloat16";
        adv.fragment = oj{{key, {{"enabled", true}}}};
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
    if (use != "fp32")
        adv.checks.push_back({CheckLevel::Pass, "precision-single-mode",
                              "Only " + use + " is enabled: \"this mode cannot be combined with the fp16 mode\".",
                              "ds-bf16-docs"});
    adv.details["precision"] = use;
    return adv;
}

} // namespace dsw
