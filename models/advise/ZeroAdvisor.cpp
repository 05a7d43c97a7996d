#include "advise/ZeroAdvisor.h"

#include "advise/BatchKeys.h"
#include "advise/LongContextAdvice.h"
#include "advise/MoeAdvice.h"
#include "estimate/DeepSpeedEstimator.h"
#include "knowledge/DeepSpeedFacts.h"
#include "knowledge/SourceCatalog.h"
#include "util/Count.h"
#include "util/Version.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;
constexpr double kGiB = 1073741824.0;

// The share of a node's host RAM its offload may pin, the wizard's assumption: pinned (page-locked) pages cannot be
// paged out or reclaimed, so the OS, the page cache, the data loaders, each rank's own process memory and, while the
// model loads, its fp32 copies (zero-load-host-ram) must fit in the rest; half leaves the other half to them, as much
// as the offload itself takes. Sources (resources/knowledge/sources.tsv): cuda-pinned-not-pageable, ds-pin-memory
constexpr double kPinnedHostShare = 0.5;

std::string gib(double bytes) { return formatGiB(bytes); }

oj offloadBlock(const std::string& device, const Answers& a)
{
    oj block{{"device", device}};
    // Never "": pydantic reads it as Path('.') and the swap files land in the working directory. Without a path the
    // key stays out and the nvme-path-missing check fails, naming hardware.nvme_path.
    if (device == "nvme" && !a.text("hardware.nvme_path").empty())
        block["nvme_path"] = a.text("hardware.nvme_path");
    block["pin_memory"] = true; // written explicitly: the default changed to true in 0.19.5
    return block;
}

oj zeroFragment(const Placement& o, const Answers& a, TrainingMethod method)
{
    oj zero{{"stage", o.stage}};
    if (o.stage >= 1) {
        zero["overlap_comm"] = o.stage >= 2; // explicit: DeepSpeed's default depends on the stage
        zero["contiguous_gradients"] = true;
    }
    // Adapters at ZeRO-3 save empty without the gather (knowledge/AdapterRules.h: kAdapterSaveGatherRule).
    if (o.stage == 3 && method != TrainingMethod::Full)
        zero["stage3_gather_16bit_weights_on_model_save"] = true;
    if (o.offloadOptimizer != "none")
        zero["offload_optimizer"] = offloadBlock(o.offloadOptimizer, a);
    if (o.offloadParam != "none")
        zero["offload_param"] = offloadBlock(o.offloadParam, a);
    oj fragment{{"zero_optimization", zero}};
    if (o.offloadOptimizer == "nvme" || o.offloadParam == "nvme") {
        const auto& defaults = deepspeedKnowledge().at("aio_defaults");
        oj aio;
        aio["block_size"] = defaults.at("block_size");
        aio["queue_depth"] = defaults.at("queue_depth");
        // Renamed in 0.16.4; the old key is silently ignored by newer versions.
        const bool renamed = versionAtLeast(a.text("software.deepspeed_version"), "0.16.4");
        aio[renamed ? "intra_op_parallelism" : "thread_count"] = defaults.at("intra_op_parallelism");
        aio["single_submit"] = defaults.at("single_submit");
        aio["overlap_events"] = defaults.at("overlap_events");
        fragment["aio"] = aio;
    }
    return fragment;
}

// DeepSpeed's class for the optimizer is not in ZERO_SUPPORTED_OPTIMIZERS (zero/utils.py): Lamb builds FusedLamb; the
// others the registry offers build FusedAdam, DeepSpeedCPUAdam, torch Adagrad / DeepSpeedCPUAdagrad or FusedLion /
// DeepSpeedCPULion, all tested; the 1-bit optimizers run at stage 0 only.
bool untestedUnderZero(const std::string& optimizer) { return optimizer == "lamb"; }

// Lamb under ZeRO: DeepSpeed refuses it unless zero_allow_untested_optimizer is set, so the wizard sets it and says
// what that means (the user chose Lamb; swapping in Adam would change the training). FusedLamb is a CUDA kernel
// only, so optimizer offload (which steps on the CPU) cannot run it: a failed check.
void addOptimizerChecks(Advice& adv, const Placement& o, const std::string& optimizer)
{
    if (o.stage < 1 || !untestedUnderZero(optimizer))
        return;
    adv.fragment["zero_allow_untested_optimizer"] = true;
    adv.checks.push_back(
        {CheckLevel::Warn, "zero-untested-optimizer",
         "training.optimizer = " + optimizer
             + " builds FusedLamb, which DeepSpeed has not tested with "
               "ZeRO (not in ZERO_SUPPORTED_OPTIMIZERS): without \"zero_allow_untested_optimizer\": "
               "true it stops at start-up ("
             + quoteOf("ds-zero-untested-optimizer")
             + "), so the config sets it. It only lifts that check: DeepSpeed logs \"You are using "
               "ZeRO with an untested optimizer, proceed with caution\" and nobody has verified Lamb's "
               "convergence under ZeRO stage "
             + std::to_string(o.stage) + ". Choose adam or adamw for a tested combination.",
         "ds-zero-untested-optimizer"});
    if (o.offloadOptimizer != "none")
        adv.checks.push_back({CheckLevel::Fail, "zero-offload-needs-cpu-optimizer",
                              "training.optimizer = " + optimizer + " with offload_optimizer " + o.offloadOptimizer
                                  + ": DeepSpeed builds FusedLamb, a CUDA-only kernel, for Lamb at every placement, "
                                    "but offloaded optimizer states are stepped on the CPU, so the first step fails "
                                    "(the kernel asserts each tensor \"must be a CUDA tensor\"). Choose adam, adamw, "
                                    "adagrad or lion (they have CPU versions), or set "
                                    "zero.offload_optimizer = none.",
                              "ds-fused-lamb-cuda"});
}

std::string seconds(double s)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, s < 10 ? "%.2f s" : "%.1f s", s);
    return buf;
}

// When the chosen plan does not fit. With nothing fixed that rules plans out: how many GPUs ZeRO-3 without
// offload, at micro-batch 1 with checkpointing, would need. The step model's parameters, gradients and optimizer
// states are partitioned over the data-parallel ranks; the rest (buffers, activations, context, fragmentation) is
// per GPU, so GPUs = states over all ranks ÷ (usable − the rest). When that count is not more than the GPUs present,
// GPU memory is not what stops that plan (host RAM is, or what the user fixed rules it out): that is said instead.
void addSuggestions(Advice& adv, const Answers& a, const Job& job, const ZeroDecision& decision)
{
    const StepPrediction& closest = decision.plan();
    std::string what;
    std::string opening = "No ZeRO stage or offload fits this model on this hardware. ";
    if (decision.wizardPick) // what the user fixed rules out every plan that fits
        opening = "No plan with your " + decision.fixed.text() + " fits: the closest, " + closest.label() + ", "
            + closest.whyNot() + ". The wizard's pick, " + decision.candidates.at(*decision.wizardPick).label()
            + ", fits; change or clear those answers to use it. ";
    // Only where ZeRO-3 is allowed: a pipeline limits the stages to 0–1, the 1-bit optimizers to 0.
    if (job.zeroLimit.maxStage >= 3) {
        const std::int64_t perRank = std::max<std::int64_t>(1, job.batch.microBatch * job.batch.gradientAccumulation);
        // At the highest Ulysses degree the search tried (1 unless the job is a long-context one).
        StepCandidate probe{{3, "none", "none"}, true, 1, perRank};
        for (const StepPrediction& c : decision.candidates)
            probe.sequenceParallel = std::max(probe.sequenceParallel, c.candidate.sequenceParallel);
        const StepPrediction p = predictStep(*job.step, probe);
        const std::int64_t states = p.gpu.params + p.gpu.grads + p.gpu.optimizer;
        const double partitioned = static_cast<double>(states) * static_cast<double>(job.layout.data);
        const double room = p.usableGpuBytes - static_cast<double>(p.gpu.total - states);
        const std::string plan = "ZeRO-3 without offload, micro-batch 1 and activation checkpointing";
        const std::int64_t present = job.layout.world;
        if (room <= 0 && !decision.wizardPick) {
            what += "Even one sample's activations"
                + (probe.sequenceParallel > 1
                       ? " (over " + std::to_string(probe.sequenceParallel) + " GPUs with Ulysses)"
                       : std::string())
                + ", the buffers and the largest layer exceed a GPU: use a GPU with more memory, a shorter sequence, "
                  "more GPUs per sequence (parallel.sequence_parallel_size) or tensor parallelism. ";
        } else if (const auto gpus = static_cast<std::int64_t>(std::ceil(partitioned / room)); gpus > present) {
            const std::int64_t G = job.layout.gpusPerNode;
            const std::int64_t nodes = (gpus + G - 1) / G;
            what += plan + " would fit on about " + std::to_string(gpus) + " GPUs (" + std::to_string(nodes)
                + (nodes == 1 ? " node" : " nodes") + " of " + std::to_string(G)
                + "; the step model's states over all ranks ÷ what one GPU has left). ";
        } else if (!decision.wizardPick && !p.fits()) {
            // GPU memory is not what stops it: the host (or NVMe) is.
            what += plan + " fits the " + std::to_string(present) + " GPUs present ("
                + gib(static_cast<double>(p.gpu.total)) + " of " + gib(p.usableGpuBytes) + " usable per GPU), but it "
                + p.whyNot() + (p.fitsCpu ? ". " : " of " + gib(job.hostBytesPerNode) + " (hardware.cpu_memory_gib). ");
        }
    }
    if (a.text("hardware.nvme") != "nvme" || a.text("hardware.nvme_path").empty())
        what += "A local NVMe SSD (hardware.nvme = nvme with hardware.nvme_path) allows ZeRO-Infinity offload. ";
    if (a.integer("training.micro_batch_size") > 1)
        what += "A smaller micro-batch with more gradient accumulation cuts activation memory. ";
    adv.checks.push_back({CheckLevel::Fail, "zero-nothing-fits", opening + what, "ds-mem-z3-fp16-partitions"});
}

void addTradeoffs(Advice& adv, const ZeroDecision& decision, const Job& job)
{
    const StepPrediction& best = decision.plan();
    const StepCandidate& c = best.candidate;
    const Placement& chosen = c.placement;
    // The same batch at each stage without offload: what moving up or down a stage costs per optimizer step.
    std::string byStage;
    for (int stage = 0; stage <= 3; ++stage)
        for (const StepPrediction& p : decision.candidates)
            if (p.candidate.placement.stage == stage && p.candidate.placement.offloadOptimizer == "none"
                && p.candidate.microBatch == c.microBatch && p.candidate.checkpointing == c.checkpointing) {
                byStage += (byStage.empty() ? "" : "; ") + std::string("ZeRO-") + std::to_string(stage) + " "
                    + gib(p.time.communicationBytes) + " (" + seconds(p.time.communication) + " exposed)";
                break;
            }
    if (!byStage.empty())
        adv.tradeoffs.push_back(
            {"Memory against communication",
             "Bytes each GPU sends per optimizer step at micro-batch " + std::to_string(c.microBatch) + " × "
                 + std::to_string(c.accumulation) + " steps, by ds-wizard's step-time model: " + byStage
                 + ". Stages 0–1 reduce the gradients once per step; stage 2 reduce-scatters every micro-step; "
                   "stage 3 also gathers the parameters in every forward and backward, so accumulation multiplies "
                   "its traffic.",
             "zero-paper-comm"});
    if (chosen.offloadOptimizer != "none")
        adv.tradeoffs.push_back(
            {"Offload traffic",
             "Per optimizer step: " + gib(best.time.hostLinkBytes) + " per GPU over the host link ("
                 + job.step->time.hostLink + ", " + seconds(best.time.hostLinkSeconds)
                 + "), the optimizer step on the CPU (DeepSpeedCPUAdam on "
                 + std::to_string(std::lround(job.step->time.cpuCoresPerNode)) + " cores per node, "
                 + seconds(best.time.cpuAdamSeconds) + ")"
                 + (best.time.nvmeBytes > 0 ? ", and " + gib(best.time.nvmeBytes)
                            + " of NVMe reads and writes per node (" + seconds(best.time.nvmeSeconds) + ")"
                                            : std::string())
                 + ": " + seconds(best.time.offload) + " of the " + seconds(best.time.total) + " step.",
             "zero-offload-paper"});
    if (!decision.alternatives.empty()) {
        std::string text;
        for (const ZeroAlternative& alt : decision.alternatives) {
            const StepPrediction& p = decision.candidates.at(alt.index);
            text += (text.empty() ? "" : " ") + p.label() + ": " + seconds(p.time.total) + ", "
                + gib(static_cast<double>(p.gpu.total)) + " per GPU (" + alt.reason + ").";
        }
        adv.tradeoffs.push_back({"The next plans that fit (ds-wizard's step-time model)", text, "kaplan-6n"});
    }
    if (c.checkpointing)
        adv.tradeoffs.push_back({"Activation checkpointing",
                                 "Keeps only each layer's input and recomputes the rest in the backward pass: "
                                 "about one extra forward pass, quoted as 33% re-computation overhead.",
                                 "zero-paper-ckpt"});
    if (chosen.offloadOptimizer == "nvme" || chosen.offloadParam == "nvme")
        adv.tradeoffs.push_back({"SSD wear", "DeepSpeed warns: " + quoteOf("ds-nvme-endurance"), "ds-nvme-endurance"});
}

// A choice of offload the user fixed that the chosen plan does not follow: DeepSpeed's rule at the plan's stage (it
// ignores or changes the key), as a warning.
void addOffloadChoiceChecks(Advice& adv, const ZeroDecision& decision)
{
    const Placement& got = decision.plan().candidate.placement;
    const ZeroChoices& f = decision.fixed;
    const bool optimizerDiffers = f.offloadOptimizer && *f.offloadOptimizer != got.offloadOptimizer;
    const bool paramDiffers = f.offloadParam && *f.offloadParam != got.offloadParam;
    if (!optimizerDiffers && !paramDiffers)
        return;
    const PlacementAsRun run = placementAsRun(got.stage, f.offloadOptimizer.value_or(got.offloadOptimizer),
                                              f.offloadParam.value_or(got.offloadParam));
    for (const RuleBreak& rule : run.ignored)
        adv.checks.push_back({CheckLevel::Warn, rule.code,
                              "As asked (zero.offload_optimizer / zero.offload_param): " + rule.message
                                  + " The plan is sized and written as DeepSpeed runs it: " + decision.plan().label()
                                  + ".",
                              rule.source});
}

// Offload pins its host buffers (pin_memory, true from DeepSpeed 0.19.5 and written so): more than kPinnedHostShare of
// the node's RAM is a warning; either way each rank must be allowed to lock its share (ulimit -l).
Check pinnedHostCheck(double pinnedPerNode, const Job& job)
{
    const double host = job.hostBytesPerNode;
    const int ranks = std::max(1, job.layout.gpusPerNode);
    const bool tooMuch = pinnedPerNode > kPinnedHostShare * host;
    const std::string share = std::to_string(std::lround(kPinnedHostShare * 100)) + "%";
    const std::string perRank = gib(pinnedPerNode / ranks);
    std::string text = "Pinned host memory: " + gib(pinnedPerNode) + " per node of " + gib(host) + " ("
        + std::to_string(std::lround(host > 0 ? 100 * pinnedPerNode / host : 100)) + "%; offload pins its buffers, "
        + "pin_memory true). ";
    if (tooMuch)
        text += "That is more than the " + share
            + " the wizard assumes safe: pinned pages cannot be paged out, and the OS, the data loaders, each rank's "
              "own memory and the model while it loads need the rest. Set pin_memory false in offload_optimizer / "
              "offload_param (slower copies) or use a host with more RAM. ";
    text += "Each of the node's " + std::to_string(ranks) + " ranks locks " + perRank
        + ": its locked-memory limit (ulimit -l) must allow that, or DeepSpeed's docs warn of out-of-memory errors.";
    return {tooMuch ? CheckLevel::Warn : CheckLevel::Pass, "offload-pinned-host-memory", text, "ds-pin-memory"};
}

} // namespace

Advice adviseZeroShapeInvalid(const std::string& error)
{
    Advice adv;
    adv.workflow = "zero";
    adv.status = AdviceStatus::NeedsInput;
    adv.headline = "The model's shape contradicts itself";
    adv.checks.push_back({CheckLevel::Fail, "model-shape-invalid", error, ""});
    return adv;
}

Advice adviseZeroNotModelled(const Job& job, const Answers& a)
{
    Advice adv;
    adv.workflow = "zero";
    adv.status = AdviceStatus::NeedsInput;
    adv.headline = "Mixture of experts is not modelled yet: no ZeRO stage is sized or recommended for this model";
    Check why = job.unsizedCheck();
    // A stage the user set does not depend on the sizing: it is written as set. Choosing one is what needs the
    // sizing, so with zero.stage auto the config has no ZeRO block (DeepSpeed then runs without ZeRO).
    if (const std::string stage = a.text("zero.stage"); !stage.empty() && stage != "auto") {
        auto offload = [&](const char* id) {
            const std::string v = a.text(id);
            return v.empty() || v == "auto" ? std::string("none") : v;
        };
        const Placement asked{static_cast<int>(a.integer("zero.stage")), offload("zero.offload_optimizer"),
                              offload("zero.offload_param")};
        adv.fragment = zeroFragment(asked, a, job.method);
        why.message += " The config writes zero_optimization as you set it (zero.stage " + stage
            + ", zero.offload_optimizer and zero.offload_param), unsized.";
    } else {
        why.message += " The config has no zero_optimization block, so DeepSpeed would run without ZeRO: set "
                       "zero.stage (and the offloads) once you have sized the model, and the config writes them.";
    }
    adv.checks.push_back(why);
    adv.sources = {why.source, "ds-estimators"};
    return adv;
}

namespace {

// How the wizard's pick stands against the fastest plan that fits (ZeroDecision.h: the simplest within kTimeTie, and a
// comfortable plan over a tight one within kTightTradeoff).
std::string standing(const ZeroDecision& d)
{
    const StepPrediction& fastest = d.candidates.front();
    if (d.chosen == 0 || fastest.time.total >= d.plan().time.total)
        return "the fastest that fits";
    if (d.plan().time.total <= fastest.time.total * kTimeTie)
        return "the simplest plan within the step model's 2% of the fastest";
    if (offloads(fastest.candidate) && !offloads(d.plan().candidate)
        && d.plan().time.total <= fastest.time.total * kLeverTie)
        return "the fastest that fits without offload; the plans that offload gain less than 5%, which the step model "
               "may not see";
    if (scriptChanges(d.plan().candidate) < scriptChanges(fastest.candidate)
        && d.plan().time.total <= fastest.time.total * kLeverTie)
        return "the fastest that fits without another change to the training script; the plans that need one gain "
               "less than 5%";
    const auto roomy = std::find_if(d.candidates.begin(), d.candidates.end(),
                                    [](const StepPrediction& p) { return p.fits() && !p.tight; });
    if (roomy != d.candidates.end() && offloads(roomy->candidate) && !offloads(d.plan().candidate))
        return "the fastest that fits with room without offload; faster plans are tight, or offload and gain less "
               "than 5%, which the step model may not see";
    return "the fastest that fits with room; faster plans are tight";
}

} // namespace

Advice adviseZero(const Job& job, const ZeroDecision& decision, const Answers& a)
{
    Advice adv;
    adv.workflow = "zero";
    adv.status = AdviceStatus::Complete;
    if (const auto& rule = job.zeroLimit.rule) {
        const bool overridden = decision.fixed.stage && *decision.fixed.stage > job.zeroLimit.maxStage;
        adv.checks.push_back({overridden ? CheckLevel::Fail : CheckLevel::Pass, rule->code,
                              (overridden ? "zero.stage " + std::to_string(*decision.fixed.stage)
                                       + " was asked, but it cannot be combined: "
                                          : std::string())
                                  + rule->message,
                              rule->source});
    }
    // The search ranks what fits by predicted time; when nothing fits, the one closest to fitting comes first.
    const StepPrediction& chosen = decision.plan();
    const Placement& placement = chosen.candidate.placement;
    const bool fits = chosen.fits();
    addOffloadChoiceChecks(adv, decision);
    const double capacity = job.gpuCapacityBytes;
    const double usable = job.usableGpuBytes;
    const StepPrediction* pick = decision.wizardPick && *decision.wizardPick != decision.chosen
        ? &decision.candidates.at(*decision.wizardPick)
        : nullptr;
    const std::string fixed = decision.fixed.text();
    const std::string tightNote = chosen.tight
        ? " — tight: " + gib(static_cast<double>(chosen.gpu.total)) + " of " + gib(job.gpuCapacityBytes) + " per GPU"
        : std::string();
    if (!fits)
        adv.headline = "Nothing fits; closest: " + chosen.label();
    else if (decision.userForced && pick)
        adv.headline = "With your " + fixed + ": " + chosen.label() + " (" + seconds(chosen.time.total)
            + " per step); the wizard's pick, " + pick->label() + ", is "
            + percentFaster(chosen.time.total, pick->time.total) + " by ds-wizard's step-time model";
    else
        adv.headline = (decision.userForced ? "With your " + fixed + ": " : "Recommended: ") + chosen.label()
            + (decision.userForced ? " (also the wizard's pick" : " (" + standing(decision))
            + (chosen.time.total > 0 ? ", " + seconds(chosen.time.total) + " per step" : std::string())
            + " by ds-wizard's step-time model)";
    if (const std::string lever = decision.levers.effect(decision); !lever.empty())
        adv.headline += "; " + lever;
    adv.headline += tightNote;
    adv.fragment = zeroFragment(placement, a, job.method);
    addOptimizerChecks(adv, placement, job.optimizer);

    const std::string cpuFormula = "offloaded states and pinned buffers per node, as DeepSpeed's code allocates them";
    const std::string counted =
        " per GPU (" + job.capacityNote + "; the CUDA context, NCCL buffers and the allocator's reserve are counted)";
    const double share = static_cast<double>(chosen.gpu.total) / capacity;
    if (fits && !chosen.tight)
        adv.checks.push_back(
            {CheckLevel::Pass, "zero-fits-gpu",
             "Fits: " + gib(static_cast<double>(chosen.gpu.total)) + " of " + gib(capacity) + counted + ".",
             "cuda-context-size"});
    else if (fits)
        adv.checks.push_back(
            {CheckLevel::Warn, "zero-tight-fit",
             "Tight: " + gib(static_cast<double>(chosen.gpu.total)) + " of " + gib(capacity) + counted + ", "
                 + std::to_string(static_cast<int>(std::lround(share * 100)))
                 + "% of the GPU: within the step model's ±" + std::to_string(static_cast<int>(kTightBand * 100))
                 + "% of published peaks, so it may run out of memory. Runs near the limit do train (DeepSpeed's own "
                   "tutorials ran at 97–99% of the card); what gives room: "
                   "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (training.expandable_segments), a smaller "
                   "micro-batch, activation checkpointing or a higher ZeRO stage.",
             "oom-reserve-v100"});
    else
        addSuggestions(adv, a, job, decision);
    if (fits && chosen.cpuPerNode > 0)
        adv.checks.push_back({CheckLevel::Pass, "zero-fits-cpu",
                              "Host memory: " + gib(static_cast<double>(chosen.cpuPerNode)) + " needed per node of "
                                  + gib(job.hostBytesPerNode) + " (" + cpuFormula + ").",
                              "ds-mem-cpu-adam-states"});
    if (const std::int64_t pinned = chosen.memory.hostPinnedPerNode(); pinned > 0)
        adv.checks.push_back(pinnedHostCheck(static_cast<double>(pinned), job));
    {
        // Loading the model: a warning with remedies, never a gate on the stage.
        // Built under zero.Init at stage 3, each rank holds the largest layer, not the whole model (estimator rule).
        const LoadTimeHostRam load = loadTimeHostRam(job.step->params, job.step->largestLayer, job.step->gpusPerNode,
                                                     placement.stage, job.step->zeroInit);
        const bool enough = static_cast<double>(load.bytesPerNode) <= job.hostBytesPerNode;
        adv.checks.push_back({enough ? CheckLevel::Pass : CheckLevel::Warn, "zero-load-host-ram",
                              "Loading the model: " + gib(static_cast<double>(load.bytesPerNode))
                                  + " of host RAM per node of " + gib(job.hostBytesPerNode) + ": " + load.basis + "."
                                  + (enough ? "" : " " + load.warning),
                              load.source});
    }
    if (const MemoryComponent* held = chosen.memory.find("zero3_linear_held", MemoryPlace::Gpu);
        held && held->bytes > 0)
        adv.checks.push_back({CheckLevel::Warn, "zero-init-missing",
                              "Model built without zero.Init: torch's linear keeps every gathered weight from forward "
                              "until backward, "
                                  + gib(static_cast<double>(held->bytes))
                                  + " of this plan. Build or load the model inside deepspeed.zero.Init (Hugging Face's "
                                    "from_pretrained does so under ZeRO-3) and set \"Model built under zero.Init\" "
                                    "(training.zero_init); activation checkpointing also avoids it.",
                              "ds-zero3-linear"});
    if (chosen.nvmePerNode > 0) {
        const double nvmeCap = job.step->nvmeBytesPerNode;
        adv.checks.push_back(nvmeCap > 0
                                 ? Check{chosen.fitsNvme ? CheckLevel::Pass : CheckLevel::Fail, "zero-fits-nvme",
                                         "NVMe: " + gib(static_cast<double>(chosen.nvmePerNode))
                                             + " needed per node of " + gib(nvmeCap) + ".",
                                         ""}
                                 : Check{CheckLevel::Warn, "zero-nvme-capacity-unknown",
                                         "NVMe: " + gib(static_cast<double>(chosen.nvmePerNode))
                                             + " needed per node; set hardware.nvme_capacity_gib to check it.",
                                         ""});
    }
    const bool nvmeChosen = placement.offloadOptimizer == "nvme" || placement.offloadParam == "nvme";
    if ((a.text("hardware.nvme") == "nvme" || nvmeChosen) && a.text("hardware.nvme_path").empty())
        adv.checks.push_back(
            {CheckLevel::Fail, "nvme-path-missing",
             nvmeChosen ? "NVMe offload was asked for but hardware.nvme_path is empty: DeepSpeed needs nvme_path for "
                          "NVMe offload, so the config leaves it out (an empty one would put the swap files in the "
                          "working directory). Set hardware.nvme_path to the NVMe mount point, e.g. /local_nvme."
                        : "hardware.nvme is nvme but hardware.nvme_path is empty; DeepSpeed needs nvme_path for NVMe "
                          "offload, so NVMe options were not considered. Set hardware.nvme_path to the NVMe mount "
                          "point, e.g. /local_nvme.",
             "ds-nvme-path"});
    // The written placement against DeepSpeed's offload × stage rules (knowledge/CombinationRules.h).
    const PlacementAsRun run = placementAsRun(placement.stage, placement.offloadOptimizer, placement.offloadParam);
    std::string broken;
    for (const RuleBreak& rule : run.ignored)
        broken += " " + rule.message;
    adv.checks.push_back({run.ignored.empty() ? CheckLevel::Pass : CheckLevel::Fail, "zero-documented-capabilities",
                          run.ignored.empty()
                              ? "The recommendation aligns with documented stage capabilities and the "
                                "hardware: offload_param only at stage 3, NVMe offload only at stage 3 and "
                                "always with nvme_path, CPU offload at stages 1–3."
                              : "The ZeRO block breaks documented stage capabilities:" + broken,
                          "ds-offload-stages"});
    AdapterSetup adapters = job.adapters;
    adapters.stage = run.stage;
    adapters.offloadsOptimizer = run.offloadOptimizer != "none";
    adapters.offloadsParams = run.offloadParam != "none";
    for (const RuleBreak& rule : adapterRules(adapters))
        if (rule.code != kAdapterPipelineRule) // the pipeline page's
            adv.checks.push_back(
                rule.code == kAdapterSaveGatherRule // the fragment writes the gather
                    ? Check{CheckLevel::Pass, rule.code,
                            "The config writes stage3_gather_16bit_weights_on_model_save: true. " + rule.message,
                            rule.source}
                    : Check{CheckLevel::Warn, rule.code, rule.message, rule.source});
    if (placement.offloadOptimizer != "none")
        adv.checks.push_back({CheckLevel::Warn, "offload-pin-memory",
                              "pin_memory is written as true (the default from "
                                  + changedDefault("zero_optimization.offload_optimizer.pin_memory").from
                                  + ", false before). On hosts with a low memlock limit (ulimit -l) set it to false if "
                                    "offload runs out of memory.",
                              "ds-pin-memory"});
    if (chosen.candidate.checkpointing && !decision.fixed.checkpointing) {
        const StepJob& s = *job.step;
        StepCandidate without = chosen.candidate;
        without.checkpointing = false;
        without.checkpointOffload = false;
        const std::int64_t layers = checkpointedLayers(s, chosen.candidate);
        adv.checks.push_back(
            {CheckLevel::Warn, "activation-checkpointing-needed",
             "No plan without activation checkpointing fits as fast (activations of "
                 + gib(static_cast<double>(stepActivations(s, without).peakBytes)) + " at micro-batch "
                 + std::to_string(chosen.candidate.microBatch) + " without it), so "
                 + (layers < s.layersPerStage
                        ? "the first " + std::to_string(layers) + " of " + std::to_string(s.layersPerStage)
                            + " layers are checkpointed (the fewest that fit with room; each recomputes its forward "
                              "in backward, the others do not)"
                        : std::string("every layer is checkpointed"))
                 + ": enable it in the model code (see the snippet).",
             layers < s.layersPerStage ? "hf-gc-per-layer" : "korthikanti"});
    }
    if (chosen.candidate.loss == LossImpl::Fused)
        adv.checks.push_back({CheckLevel::Warn, "fused-loss-needed",
                              "The plan counts on a fused linear cross-entropy (Liger-Kernel's): it never holds the "
                              "logits whole ("
                                  + gib(static_cast<double>(chosen.activations.logitsBytes))
                                  + " at its peak instead of the standard loss's fp32 logits). Turn it on in the "
                                    "training script (see the snippet); set model.loss_impl to standard to plan "
                                    "without it.",
                              "liger-flce"});
    if (placement.stage >= 3 || placement.offloadOptimizer != "none")
        adv.sources.push_back("ds-estimators");
    // The batch keys of the config written for the chosen plan (the plan applies its micro-batch when none was typed).
    const Answers written = withChosenBatch(a, decision);
    const BatchKeys batch = batchKeys(written);
    adv.checks.push_back(batch.check);
    if (written.integer("training.micro_batch_size") != a.integer("training.micro_batch_size"))
        adv.checks.push_back({CheckLevel::Pass, "zero-micro-batch-chosen",
                              "Micro-batch " + std::to_string(chosen.candidate.microBatch) + " × "
                                  + std::to_string(chosen.candidate.accumulation)
                                  + " accumulation steps keeps the global batch of "
                                  + std::to_string(batch.trainBatchSize)
                                  + (decision.userForced ? " and is the step model's best micro-batch for your choices"
                                                         : " and is the fastest that fits")
                                  + "; type training.micro_batch_size to keep your own.",
                              "ds-batch"});

    adv.estimates = {
        {"GPU memory per GPU", static_cast<double>(chosen.gpu.total), "bytes",
         "at the step's peak: the rows below added up (step model)", "ds-mem-engine-wrapper"},
        {"Parameters per GPU", static_cast<double>(chosen.gpu.params), "bytes", "16-bit parameters (and fp32 copies)",
         "ds-mem-z12-params16"},
        {"Gradients per GPU", static_cast<double>(chosen.gpu.grads), "bytes",
         "16-bit gradients and the fp32 gradient partition alive at the peak", "ds-mem-z12-fp32-grad-partition"},
        {"Optimizer states per GPU", static_cast<double>(chosen.gpu.optimizer), "bytes",
         "fp32 master weights, Adam m and v of the partition", "ds-mem-z12-master"},
        {"Buffers per GPU", static_cast<double>(chosen.gpu.buffers), "bytes",
         "reduce/all-gather buckets, the ZeRO-3 working set, offload staging", "ds-mem-z12-ipg-buckets"},
        {"Activations per GPU", static_cast<double>(chosen.gpu.activations), "bytes",
         std::string("per operation, ") + std::string(toString(job.step->attention)) + " attention"
             + (!chosen.candidate.checkpointing ? std::string()
                    : checkpointedLayers(*job.step, chosen.candidate) < job.step->layersPerStage
                    ? ", the first " + std::to_string(checkpointedLayers(*job.step, chosen.candidate))
                        + " layers checkpointed"
                    : std::string(", full checkpointing"))
             + ", plus logits and "
             + (lossOf(*job.step, chosen.candidate) == LossImpl::Fused       ? "the fused loss"
                    : lossOf(*job.step, chosen.candidate) == LossImpl::Tiled ? "the tiled loss"
                                                                             : "loss")
             + (chosen.candidate.sequenceParallel > 1
                    ? ", at " + std::to_string(tokensPerGpu(*job.step, chosen.candidate)) + " tokens per GPU (Ulysses)"
                    : std::string()),
         "korthikanti"},
        {"CUDA context, NCCL and the allocator's reserve per GPU", static_cast<double>(chosen.gpu.other), "bytes",
         "the CUDA context and NCCL buffers (wizard allowances) and the caching allocator's reserve, "
             + std::to_string(static_cast<int>(
                 std::lround((job.step->expandableSegments ? kAllocatorReserveExpandable : kAllocatorReserve) * 100)))
             + "% of the peak allocated (calibrated on published out-of-memory messages)",
         "oom-reserve-v100"},
        {"CPU memory per node", static_cast<double>(chosen.cpuPerNode), "bytes", cpuFormula, "ds-mem-cpu-adam-states"},
    };
    if (chosen.nvmePerNode > 0)
        adv.estimates.push_back({"NVMe per node", static_cast<double>(chosen.nvmePerNode), "bytes",
                                 "optimizer states (and parameters) swapped to NVMe, per rank × ranks per node",
                                 "ds-mem-z3-nvme-swap-buffers"});
    if (chosen.time.total > 0) {
        const bool moe = job.step->moe.moe();
        const double low = moe ? std::min(kStepTimeLikelyLow, kMoeStepTimeMeasuredLow) : kStepTimeLikelyLow;
        const double high = moe ? std::max(kStepTimeLikelyHigh, kMoeStepTimeMeasuredHigh) : kStepTimeLikelyHigh;
        adv.estimates.push_back(
            {"Step time", chosen.time.total, "s",
             "compute + exposed communication + offload + bubble, per optimizer step (ds-wizard's step-time model, "
             "not a measurement); likely "
                 + seconds(chosen.time.total * low) + " to " + seconds(chosen.time.total * high)
                 + (moe ? ": for a mixture of experts the dense runs' spread is widened to two H200 measurements of "
                          "MoE steps, at "
                            + formatFigure(kMoeStepTimeMeasuredLow) + " and " + formatFigure(kMoeStepTimeMeasuredHigh)
                            + " of the model (many narrow experts run slower than it prices them); no published "
                              "MoE run of a plan like this one gives its full conditions"
                        : ": 8 in 10 published runs fell within that spread of the model (README's calibration table)")
                 + "; timing a few steps of your own job would narrow it",
             "kaplan-6n"});
        adv.estimates.push_back({"Tokens per second per GPU", chosen.time.tokensPerSecondPerGpu, "tokens/s",
                                 "micro-batch × accumulation × sequence length ÷ step time", "kaplan-6n"});
    }

    adv.snippets.push_back({"json", "zero_optimization", adv.fragment.dump(2)});
    if (const std::int64_t layers = checkpointedLayers(*job.step, chosen.candidate);
        layers > 0 && layers < job.step->layersPerStage)
        adv.snippets.push_back(
            {"python", "Checkpoint only the first " + std::to_string(layers) + " layers",
             "# Hugging Face Transformers whose decoder layers are GradientCheckpointingLayer (modeling_layers.py):\n"
             "# turn it on everywhere, then off after the first "
                 + std::to_string(layers)
                 + " layers.\n"
                   "model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={\"use_reentrant\": False})\n"
                   "for layer in model.model.layers["
                 + std::to_string(layers)
                 + ":]:  # Llama-like models\n"
                   "    layer.gradient_checkpointing = False\n"});
    else if (chosen.candidate.checkpointing)
        adv.snippets.push_back({"python", "Turn on activation checkpointing in the model",
                                "# Hugging Face Transformers\nmodel.gradient_checkpointing_enable()\n\n"
                                "# Plain PyTorch / DeepSpeed: wrap each transformer block\n"
                                "import deepspeed\nhidden = deepspeed.checkpointing.checkpoint(block, hidden)\n"});
    if (chosen.candidate.loss == LossImpl::Fused)
        adv.snippets.push_back({"python", "Use Liger-Kernel's fused linear cross-entropy",
                                "# pip install liger-kernel; with the Hugging Face Trainer: --use_liger_kernel True\n"
                                "from liger_kernel.transformers import AutoLigerKernelForCausalLM\n"
                                "model = AutoLigerKernelForCausalLM.from_pretrained(name)\n"});
    if (placement.stage == 3)
        adv.snippets.push_back({"python", "Build the model partitioned (zero.Init) so no process holds it whole",
                                "import deepspeed\nwith deepspeed.zero.Init(config_dict_or_path=\"ds_config.json\"):\n"
                                "    model = MyModel(...)\n"});

    // ds-memory-docs: the estimator rows shown beside the step model's (details.deepspeed_estimator).
    adv.sources.insert(adv.sources.end(),
                       {"zero-paper", "korthikanti", "ds-offload-stages", "ds-batch", "ds-memory-docs",
                        "oom-reserve-v100", "oom-reserve-a100"});

    oj estimatorRows = oj::array();
    for (const auto& r : deepSpeedEstimatorRows(job.step->params, a.integer("model.largest_layer_params"),
                                                job.layout.gpusPerNode, job.layout.nodes))
        estimatorRows.push_back(oj{{"stage", r.stage},
                                   {"offload_optimizer", r.offloadOptimizer},
                                   {"offload_param", r.offloadParam},
                                   {"zero_init", r.zeroInit ? oj(*r.zeroInit) : oj(nullptr)},
                                   {"gpu_bytes", r.gpuBytes},
                                   {"cpu_bytes", r.cpuBytes}});
    // Output only (`recommend --format json`): the views read the decision. The plan's candidates, the stage table
    // and the alternatives are printed from the decision beside these (Plan.cpp).
    adv.details["recommended"] = candidateJson(chosen);
    adv.details["fits"] = fits;
    adv.details["gpu_capacity_bytes"] = capacity;
    adv.details["gpu_usable_bytes"] = usable;
    adv.details["deepspeed_estimator"] = std::move(estimatorRows);
    adv.details["memory_convention"] = "per GPU at the step's peak, by component as DeepSpeed " + knowledgeVersion()
        + " allocates them (estimate/StateMemory), activations per operation (estimate/ActivationModel); time by "
          "estimate/StepTime";
    if (job.step->moe.moe()) // after the memory and time rows: the gathered block and the all-to-all follow them
        addMoeAdvice(adv, job, decision, a);
    addLongContextAdvice(adv, job, decision, a);
    addTradeoffs(adv, decision, job);
    return adv;
}

} // namespace dsw
