#include "PrecisionAdvisor.h"

#include "GpuCatalog.h"

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

oj fp16Block()
{
    // loss_scale 0 selects dynamic loss scaling; the rest are DeepSpeed's defaults, written out to be explicit.
    return oj{{"fp16", {{"enabled", true}, {"loss_scale", 0}, {"initial_scale_power", 16}, {"loss_scale_window", 1000},
                        {"hysteresis", 2}, {"min_loss_scale", 1}}}};
}

} // namespace

Advice advisePrecision(const Answers& a)
{
    Advice adv;
    adv.workflow = "precision";
    adv.status = AdviceStatus::Complete;
    const GpuSpec* gpu = GpuCatalog::instance().find(a.text("hardware.gpu"));
    const bool bf16 = gpu && gpu->bf16;
    const std::string wanted = a.text("training.precision");
    const std::string gpuName = gpu ? gpu->id : a.text("hardware.gpu");
    adv.sources = {"gpu-catalog", "ds-bf16-config", "ds-fp16-config"};

    std::string use = wanted;
    if (wanted == "auto" || wanted == "fp8")
        use = bf16 ? "bf16" : "fp16";
    if (wanted == "bf16" && !bf16) {
        adv.checks.push_back({CheckLevel::Fail, "bf16-unsupported-gpu",
                              gpuName + " has no bf16 support (compute capability " + (gpu ? gpu->computeCapability : "?")
                                  + "; bf16 needs 8.0 or higher), so DeepSpeed would fail with \"Type bf16 is not supported "
                                    "on your device.\" fp16 with dynamic loss scaling is used instead.",
                              "gpu-catalog"});
        use = "fp16";
    }
    if (wanted == "fp8") {
        const auto cc = gpu ? gpu->computeCapabilityNumber() : std::nullopt;
        const bool nvidiaFp8 = cc && *cc >= 8.9;
        adv.checks.push_back({nvidiaFp8 ? CheckLevel::Warn : CheckLevel::Fail, "fp8-needs-transformer-engine",
                              std::string("DeepSpeed has no fp8 config key: FP8 comes from NVIDIA Transformer Engine layers "
                                          "in the model code (compute capability 8.9 or higher), while DeepSpeed runs ")
                                  + use + "." + (nvidiaFp8 ? "" : " " + gpuName + " does not meet that requirement."),
                              "ds-fp8"});
        adv.snippets.push_back({"python", "FP8 with Transformer Engine (model code, not ds_config)",
                                "import transformer_engine.pytorch as te\nfrom transformer_engine.common import recipe\n\n"
                                "fp8_recipe = recipe.DelayedScaling(fp8_format=recipe.Format.HYBRID,\n"
                                "                                   amax_history_len=16, amax_compute_algo=\"max\")\n"
                                "with te.fp8_autocast(enabled=True, fp8_recipe=fp8_recipe):\n    out = model(batch)\n"});
    }

    if (use == "bf16") {
        adv.fragment = oj{{"bf16", {{"enabled", true}}}};
        adv.headline = "bf16: " + gpuName + " supports it, and it needs no loss scaling";
    } else if (use == "fp16") {
        adv.fragment = fp16Block();
        adv.headline = "fp16 with dynamic loss scaling";
        adv.tradeoffs.push_back({"Loss scaling",
                                 "fp16 has a narrow range: small gradients underflow. Dynamic loss scaling multiplies "
                                 "the loss by 2^16 at first, halves the scale when gradients overflow (the step is "
                                 "skipped) and doubles it after 1000 clean steps.",
                                 "ds-fp16-config"});
    } else {
        adv.headline = "fp32: no mixed precision";
        adv.checks.push_back({CheckLevel::Warn, "fp32-memory",
                              "fp32 training keeps 4-byte parameters and gradients; the memory estimates assume 16-bit.",
                              ""});
    }
    if (use != "fp32")
        adv.checks.push_back({CheckLevel::Pass, "precision-single-mode", "Only " + use + " is enabled (never fp16 and bf16 together).",
                              "ds-fp16-config"});
    return adv;
}

} // namespace dsw
