// The ZeRO page's mixture-of-experts advice; see MoeAdvice.h.
#include "advise/MoeAdvice.h"

#include "knowledge/DeepSpeedFacts.h"
#include "knowledge/EngineFacts.h"
#include "knowledge/SourceCatalog.h"
#include "util/CheckedMath.h"
#include "util/Count.h"
#include "util/Version.h"

#include <cstdio>

namespace dsw {

namespace {

// The classes DeepSpeed 0.19.5 registers as ZeRO-3 leaf modules when the config names none (ds-leaf-module).
const char* const kDefaultLeafClasses[] = {
    "transformers.models.mixtral.modeling_mixtral.MixtralSparseMoeBlock",
    "transformers.models.qwen2_moe.modeling_qwen2_moe.Qwen2MoeSparseMoeBlock",
    "transformers.models.qwen3_moe.modeling_qwen3_moe.Qwen3MoeSparseMoeBlock",
};

std::string secs(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, s < 10 ? "%.2f s" : "%.1f s", s);
    return buf;
}

// The fastest fitting candidate `pick` admits, or null.
template <typename Pick>
const StepPrediction* fastestFitting(const ZeroDecision& d, Pick pick)
{
    const StepPrediction* best = nullptr;
    for (const StepPrediction& p : d.candidates)
        if (p.fits() && pick(p) && (!best || p.time.total < best->time.total))
            best = &p;
    return best;
}

// With full fine-tuning, the plan the wizard would pick for LoRA adapters on the attention alone (the experts frozen:
// their 16-bit weights only, split by expert parallelism), said when it fits without offload; else empty.
std::string adaptersInstead(const Answers& a)
{
    if (a.text("training.method") != "full")
        return {};
    Answers lora = a;
    lora.set("training.method", "lora");
    lora.set("lora.targets", "attention");
    try {
        const Job job = resolveJob(lora);
        if (!job.sized())
            return {};
        const ZeroDecision d = decideZero(job, lora);
        const StepPrediction& p = d.wizardPick ? d.candidates.at(*d.wizardPick) : d.plan();
        if (!p.fits() || offloads(p.candidate))
            return {};
        return " Training LoRA adapters on the attention alone (training.method lora, lora.targets attention) would "
               "keep it there: "
            + p.label() + ", " + formatGiB(static_cast<double>(p.gpu.total)) + " per GPU, " + secs(p.time.total)
            + " per step by ds-wizard's step-time model.";
    } catch (const std::exception&) { // answers the step model cannot size: nothing to offer
        return {};
    }
}

} // namespace

std::string moeLaunchNote(const StepJob& job, const StepCandidate& c, const Answers& a)
{
    const std::string ep = std::to_string(c.expertParallel);
    if (c.moePath == MoeMode::Leaf)
        return versionAtLeast(a.text("software.deepspeed_version"),
                              versionFact("zero3_default_leaf_modules").deepspeedFrom)
            ? "# FILL IN: the plan runs ZeRO-3 with each MoE block as a leaf module: ds_config.json names the block\n"
              "# classes DeepSpeed registers by default (Mixtral, Qwen2-MoE, Qwen3-MoE); for another model add its\n"
              "# block's class to zero_optimization.leaf_module.classes.\n"
            : "# FILL IN: the plan runs ZeRO-3 with each MoE block as a leaf module: before deepspeed.initialize (or\n"
              "# the Trainer), call deepspeed.utils.set_z3_leaf_modules(model, [YourSparseMoeBlock]).\n";
    if (c.moePath == MoeMode::AutoEp) {
        const std::string preset = a.text("moe.autoep_preset");
        return "# FILL IN: the plan runs the experts with DeepSpeed's AutoEP (expert_parallel, autoep_size " + ep
            + "): it needs transformers >= " + std::string(autoEpTransformersFor(preset))
            + " and DeepSpeed >= " + knowledgeVersion() + "."
            + (preset.empty() || preset == "none"
                   ? "\n# No AutoEP preset is known for this model: write expert_parallel's moe_layer_pattern,\n"
                     "# router_pattern and expert_pattern in ds_config.json.\n"
                   : "\n");
    }
    if (c.moePath == MoeMode::Native)
        return "# FILL IN: the plan counts on native DeepSpeed MoE layers in your model, deepspeed.moe.layer.MoE(..., "
               "num_experts="
            + std::to_string(job.moe.spec.experts) + ", ep_size=" + ep
            + ", k=" + std::to_string(job.moe.spec.expertsPerToken)
            + "),\n# with the optimizer built on split_params_into_different_moe_groups_for_optimizer(...).\n";
    return {};
}

// The sizing is checked against published boundaries (tests/models/TestMoePlans.cpp, publishedBoundaries).
// Sources (resources/knowledge/sources.tsv): xtuner-mixtral-full, qwen3vl-moe-zero2-oom, msswift-qwen3-moe-zero2-oom.
void addMoeAdvice(Advice& adv, const Job& job, const ZeroDecision& d, const Answers& a)
{
    const StepJob& step = *job.step;
    const MoeJob& moe = step.moe;
    const MoeCounts& n = moe.counts;
    const StepPrediction& chosen = d.plan();
    const StepCandidate& c = chosen.candidate;
    const std::int64_t lp = step.precision == TrainingPrecision::Fp32 ? 4 : 2;

    adv.checks.push_back(
        {CheckLevel::Pass, "moe-sized",
         "Mixture of experts: " + formatCount(n.total) + " parameters, " + formatCount(n.active) + " used per token ("
             + std::to_string(moe.spec.experts) + " experts in each of " + std::to_string(n.moeLayers) + " MoE layers, "
             + std::to_string(moe.spec.expertsPerToken)
             + " per token), counted from the shape. Memory holds every expert's weights and states; compute counts "
               "the experts a token uses; routing is taken as balanced (each rank gets its share of the tokens), a "
               "stated assumption.",
         "ds-moe-tutorial"});

    // The search gives a mode up for auto only when no stage it may use runs it (advise/ZeroDecision.cpp).
    if (moe.mode != MoeMode::Auto && c.moePath != moe.mode)
        adv.checks.push_back(
            {CheckLevel::Warn, "moe-mode-set-aside",
             "moe.mode " + std::string(toString(moe.mode))
                 + " cannot run at the ZeRO stages this plan may use (native: 0-2, DeepSpeed refuses it "
                   "at 3; leaf: 3 only; autoep: with expert parallelism), so the plan uses "
                 + moePathLabel(c.moePath.value_or(MoeMode::Auto), c.expertParallel)
                 + " instead. Set zero.stage to auto, or "
                   "another moe.mode.",
             "ds-moe-zero3-refused"});
    if (moe.expertParallelAsked > 0 && c.expertParallel != moe.expertParallelAsked)
        adv.checks.push_back({CheckLevel::Warn, "moe-expert-parallel-not-divisor",
                              "moe.expert_parallel_size " + std::to_string(moe.expertParallelAsked)
                                  + " divides not both " + "the " + std::to_string(moe.spec.experts)
                                  + " experts and the " + std::to_string(step.dataParallel)
                                  + " data-parallel ranks, which DeepSpeed requires (" + quoteOf("ds-autoep-divides")
                                  + "); the plans use 1 instead.",
                              "ds-autoep-divides"});
    const std::string ds = a.text("software.deepspeed_version");
    // The first version that knows leaf_module and registers its default classes unasked (ds-leaf-module-config):
    // below it DeepSpeed's config model, which forbids extra keys, refuses the key, so the script registers the block.
    // Sources (resources/knowledge/sources.tsv): ds-leaf-module, ds-leaf-module-config, msswift-qwen3-moe-zero3.
    const VersionFact defaultLeaves = versionFact("zero3_default_leaf_modules");
    const std::string leafModuleConfigVersion = defaultLeaves.deepspeedFrom;
    // The block ZeRO-3 gathers whole is a fact of the model, shown whichever plan is chosen; a ZeRO-3 plan with
    // AutoEP gathers only its group's experts, and then that is what is shown.
    const double block = static_cast<double>(mulSat(lp, n.leafBlock));
    const bool ownExperts = c.placement.stage == 3 && c.moePath == MoeMode::AutoEp;
    const std::int64_t gatheredExperts =
        (ownExperts ? moe.spec.experts / c.expertParallel : moe.spec.experts) + moe.spec.sharedExperts;
    adv.estimates.push_back(
        {"Gathered MoE block per layer at ZeRO-3", ownExperts ? static_cast<double>(chosen.gatheredBlockBytes) : block,
         "bytes",
         "router + " + std::to_string(gatheredExperts) + " experts × " + formatCount(n.expert) + " parameters × "
             + std::to_string(lp) + " bytes: "
             + (ownExperts ? "with AutoEP " + std::to_string(c.expertParallel)
                        + " each rank gathers its own experts of the block (and any shared ones)"
                           : std::string("with the block as a leaf module ZeRO-3 gathers it whole"))
             + ", every micro-step, in forward and backward"
             + (ownExperts ? "; as a leaf module without expert parallelism it would be " + formatGiB(block)
                           : std::string()),
         ownExperts ? "ds-autoep" : "ds-leaf-module"});
    if (c.moePath == MoeMode::Leaf) {
        const bool keyKnown = versionAtLeast(ds, leafModuleConfigVersion);
        if (keyKnown) {
            nlohmann::ordered_json classes = nlohmann::ordered_json::array();
            for (const char* k : kDefaultLeafClasses)
                classes.push_back(k);
            adv.fragment["zero_optimization"]["leaf_module"] = {{"classes", classes}};
        }
        adv.checks.push_back(
            {CheckLevel::Pass, "moe-leaf-module",
             "ZeRO-3 with each MoE block as a leaf module: DeepSpeed gathers the block whole (" + formatGiB(block)
                 + " per layer) instead of hooking every expert, which is what keeps ZeRO-3 from stalling on experts "
                   "a batch did not route to. "
                 + (keyKnown ? "The config names the block classes DeepSpeed " + leafModuleConfigVersion
                            + " and later register by default (Mixtral, Qwen2-MoE, Qwen3-MoE); add your model's class "
                              "to zero_optimization.leaf_module.classes if it is another."
                             : "DeepSpeed " + ds + " is older than " + leafModuleConfigVersion
                            + ", the first that knows zero_optimization.leaf_module, so the key is not written: "
                              "register the block in code (the snippet).")
                 + " Quoted: " + quoteOf(keyKnown ? "ds-leaf-module" : defaultLeaves.source),
             keyKnown ? "ds-leaf-module" : defaultLeaves.source});
        // Before that version nothing registers the block unless the script does, and ZeRO-3 then hooks every expert:
        // the one published run of that path, with its conditions, says what it costs.
        if (!keyKnown)
            adv.checks.push_back(
                {CheckLevel::Warn, "moe-leaf-module-in-code",
                 "With DeepSpeed " + ds
                     + " the plan's speed depends on your script registering the MoE block (the "
                       "snippet): "
                     + defaultLeaves.before
                     + ". That path was measured at 91.2 s per step for Qwen3-30B-A3B on 16 × A800-80GiB (batch 16 "
                       "× 8,192 packed tokens, full recomputation), against 9.6 s for Megatron-LM with expert "
                       "parallelism on the same GPUs (ms-swift's published comparison, whose ZeRO-3 run registered "
                       "no leaf modules). Quoted: "
                     + quoteOf("msswift-qwen3-moe-zero3"),
                 "msswift-qwen3-moe-zero3"});
        adv.snippets.push_back({"python",
                                "Register the MoE block as a ZeRO-3 leaf module (before deepspeed.initialize)",
                                "from deepspeed.utils import set_z3_leaf_modules\n"
                                "from transformers.models.mixtral.modeling_mixtral import MixtralSparseMoeBlock  # "
                                "your model's MoE block\n"
                                "set_z3_leaf_modules(model, [MixtralSparseMoeBlock])\n"});
    } else if (c.moePath == MoeMode::AutoEp) {
        const std::string preset = a.text("moe.autoep_preset");
        nlohmann::ordered_json ep{{"enabled", true}, {"autoep_size", c.expertParallel}};
        if (!preset.empty() && preset != "none")
            ep["preset_model"] = preset;
        adv.fragment["expert_parallel"] = ep;
        const std::string transformers(autoEpTransformersFor(preset));
        const std::string installed = a.text("software.transformers_version");
        const bool tooOld = !versionAtLeast(installed, transformers);
        adv.checks.push_back(
            {preset.empty() || preset == "none" || tooOld ? CheckLevel::Warn : CheckLevel::Pass, "moe-autoep",
             "AutoEP, expert parallel " + std::to_string(c.expertParallel) + ": each GPU keeps "
                 + std::to_string(moe.spec.experts / c.expertParallel) + " of the " + std::to_string(moe.spec.experts)
                 + " experts of each layer, "
                 + (step.dataParallel == c.expertParallel
                        ? std::string("no other GPU holds them, so their optimizer states stay whole there")
                        : "their optimizer states partitioned over the "
                            + std::to_string(step.dataParallel / c.expertParallel)
                            + " ranks that hold the same experts")
                 + " (dense parameters over all " + std::to_string(step.dataParallel)
                 + ", as DeepSpeed's MoE parameter groups are: " + quoteOf("ds-moe-param-groups")
                 + "). autoep_size must divide the experts and the data-parallel ranks (" + quoteOf("ds-autoep-divides")
                 + "). Its presets need Transformers " + transformers + " or newer (DeepSpeed's AutoEP docs"
                 + (tooOld ? "; software.transformers_version is " + installed + ": upgrade, or choose another moe.mode"
                           : std::string())
                 + "), and at ZeRO-3 it runs without AutoTP, sequence parallelism, "
                   "MiCS, hpZ or quantized gradients. "
                 + (c.placement.stage == 3 ? "At ZeRO-3 each rank gathers only its own experts of a block, "
                            + formatGiB(static_cast<double>(chosen.gatheredBlockBytes))
                            + " per layer, within its group. "
                                           : std::string())
                 + (preset.empty() || preset == "none"
                        ? "No preset is known for this model (moe.autoep_preset none): write expert_parallel's "
                          "moe_layer_pattern, router_pattern and expert_pattern by hand, or choose another plan."
                        : "preset_model " + preset + " is written."),
             "ds-autoep"});
    } else if (c.moePath == MoeMode::Native) {
        // Sources (resources/knowledge/sources.tsv): ds-moe-zero3-refused, ds-moe-layer-defaults.
        adv.checks.push_back(
            {CheckLevel::Pass, "moe-native",
             "Native deepspeed.moe layers, expert parallel " + std::to_string(c.expertParallel)
                 + ": your model's code builds each MoE layer with deepspeed.moe.layer.MoE (ep_size "
                 + std::to_string(c.expertParallel)
                 + ") and passes its parameters through split_params_into_different_moe_groups_for_optimizer, so the "
                   "experts' states are partitioned over their own group. ZeRO-3 refuses it: "
                 + quoteOf("ds-moe-zero3-refused"),
             "ds-moe-zero3-refused"});
        adv.snippets.push_back(
            {"python", "A native DeepSpeed MoE layer in the model",
             "from deepspeed.moe.layer import MoE\n"
             "from deepspeed.moe.utils import split_params_into_different_moe_groups_for_optimizer\n"
             "moe = MoE(hidden_size="
                 + std::to_string(step.shape.hidden)
                 + ", expert=expert_mlp, num_experts=" + std::to_string(moe.spec.experts)
                 + ", ep_size=" + std::to_string(c.expertParallel) + ", k=" + std::to_string(moe.spec.expertsPerToken)
                 + ",\n"
                   "          # DeepSpeed's defaults, written out: each expert takes at most capacity_factor × its\n"
                   "          # share of the tokens (the plan sizes it at that share) and drops the rest\n"
                   "          capacity_factor=1.0, drop_tokens=True)\n"
                   "optimizer = torch.optim.AdamW(split_params_into_different_moe_groups_for_optimizer("
                   "{'params': model.parameters()}))\n"});
    } else {
        adv.checks.push_back({CheckLevel::Pass, "moe-replicated",
                              "Every expert on every GPU (ZeRO-" + std::to_string(c.placement.stage)
                                  + " without expert parallelism): no all-to-all, and the experts' weights are "
                                    "whole on every GPU.",
                              "ds-moe-tutorial"});
    }
    // The all-to-all of the chosen plan, or of the fastest expert-parallel plan that fits when the chosen has none.
    const StepPrediction* leaf =
        fastestFitting(d, [](const StepPrediction& p) { return p.candidate.moePath == MoeMode::Leaf; });
    const StepPrediction* expert =
        fastestFitting(d, [](const StepPrediction& p) { return p.candidate.expertParallel > 1; });
    if (const StepPrediction* shown = chosen.time.allToAll > 0 ? &chosen : expert) {
        const std::int64_t ep = shown->candidate.expertParallel;
        adv.estimates.push_back({"All-to-all per step" + (shown == &chosen ? std::string() : " of " + shown->label()),
                                 shown->time.allToAll, "s",
                                 "dispatch and combine per MoE layer, in forward and backward: tokens·k·h·"
                                     + std::to_string(lp) + " B × (ep−1)/ep per GPU, ep " + std::to_string(ep)
                                     + ", on the " + (ep > step.gpusPerNode ? "network" : "node's link")
                                     + " (ds-wizard's step-time model, not a measurement)",
                                 "ds-moe-all-to-all"});
    }

    // ZeRO-3 without expert parallelism against the best expert-parallel plan: say so when it is several times slower.
    if (leaf && expert && leaf->time.total >= 2 * expert->time.total)
        adv.checks.push_back(
            {c.moePath == MoeMode::Leaf ? CheckLevel::Warn : CheckLevel::Pass, "moe-zero3-slow",
             "ZeRO-3 without expert parallelism (" + leaf->label() + ") takes " + secs(leaf->time.total)
                 + " per step against " + secs(expert->time.total) + " for " + expert->label()
                 + " by ds-wizard's step-time model: it gathers every expert every micro-step. DeepSpeed's AutoEP "
                   "prototype claims about 5× over ZeRO-3 on 8 × H100 (a claim, not a measurement here).",
             "ds-autoep"});

    // Where no plan keeps the states on the GPUs, ZeRO trains this model only through the host or the disk, or not at
    // all: DeepSpeed has no tensor or pipeline parallelism to combine with the experts here (moe-not-modelled), which
    // frameworks built for mixtures of experts at this size use instead (moe-megatron-speed).
    if (!fastestFitting(d, [](const StepPrediction& p) { return !offloads(p.candidate); })) {
        std::int64_t states = 0; // ZeRO-3 without offload: every GPU's share of the weights, gradients and states
        for (const StepPrediction& p : d.candidates)
            if (p.candidate.placement.stage == 3 && !offloads(p.candidate))
                states = mulSat(addSat(p.gpu.params, p.gpu.grads, p.gpu.optimizer), step.dataParallel);
        // The plan the headline names as the wizard's pick (ties go to the simpler plan), else the fastest that fits.
        const StepPrediction* fits = d.wizardPick && d.candidates.at(*d.wizardPick).fits()
            ? &d.candidates.at(*d.wizardPick)
            : fastestFitting(d, [](const StepPrediction&) { return true; });
        adv.checks.push_back(
            {CheckLevel::Warn, "moe-beyond-zero",
             "No plan keeps this mixture of experts on the " + std::to_string(step.dataParallel)
                 + " GPUs: its weights, gradients and optimizer states take " + formatGiB(static_cast<double>(states))
                 + " over them all, and each GPU has " + formatGiB(chosen.usableGpuBytes) + ". "
                 + (fits ? "The wizard's pick, " + fits->label() + ", offloads and takes " + secs(fits->time.total)
                            + " per step by ds-wizard's step-time model. "
                         : std::string("Nothing fits. "))
                 + "More GPUs would keep it there; so would a framework that splits the experts, the layers and the "
                   "tensors over the GPUs (Megatron-Core's expert, pipeline and tensor parallelism), which DeepSpeed "
                   "does not combine with a Hugging Face mixture of experts. One user measured DeepSpeed at about a "
                   "tenth of Megatron's speed for a Qwen3 MoE on 128 GPUs (a report, not a controlled comparison)."
                 + adaptersInstead(a),
             "moe-megatron-speed"});
    }
}

} // namespace dsw
