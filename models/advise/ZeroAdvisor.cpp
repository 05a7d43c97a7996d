#include "advise/ZeroAdvisor.h"
#include "util/JsonAccess.h"

#include "advise/BatchKeys.h"
#include "advise/PlanSearch.h"
#include "estimate/ActivationMemory.h"
#include "estimate/DeepSpeedEstimator.h"
#include "estimate/ZeroPaperMemory.h"
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

oj zeroFragment(const ZeroOption& o, const Answers& a)
{
    oj zero{{"stage", o.stage}};
    if (o.stage >= 1) {
        zero["overlap_comm"] = o.stage >= 2; // explicit: DeepSpeed's default depends on the stage
        zero["contiguous_gradients"] = true;
    }
    if (o.offloadOptimizer != "none")
        zero["offload_optimizer"] = offloadBlock(o.offloadOptimizer, a);
    if (o.offloadParam != "none")
        zero["offload_param"] = offloadBlock(o.offloadParam, a);
    oj fragment{{"zero_optimization", zero}};
    if (o.offloadOptimizer == "nvme" || o.offloadParam == "nvme") {
        const auto& defaults = deepspeedKnowledgeMember("aio_defaults");
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

// The documented rules for a zero_optimization block (deepspeed-facts §2.6), as messages for each one broken.
std::vector<std::string> capabilityViolations(const oj& zero)
{
    std::vector<std::string> out;
    const int stage = valueOr(zero, "stage", 0);
    for (const char* key : {"offload_optimizer", "offload_param"}) {
        if (!zero.contains(key))
            continue;
        const auto& block = zero.at(key);
        const std::string device = valueOr(block, "device", std::string("none"));
        if (device != "none" && stage == 0)
            out.push_back(std::string(key) + " needs ZeRO stage 1 or higher.");
        if (std::string(key) == "offload_param" && device != "none" && stage != 3)
            out.push_back("offload_param is valid only with stage 3.");
        if (device == "nvme" && stage != 3)
            out.push_back(std::string(key) + ": " + quoteExcerpt("ds-offload-stages", "NVMe offloading"));
        if (device == "nvme" && valueOr(block, "nvme_path", std::string()).empty())
            out.push_back(std::string(key) + ": NVMe offload needs nvme_path (set hardware.nvme_path).");
    }
    return out;
}

// DeepSpeed's class for the optimizer is not in ZERO_SUPPORTED_OPTIMIZERS (zero/utils.py): Lamb builds FusedLamb; the
// others the registry offers build FusedAdam, DeepSpeedCPUAdam, torch Adagrad / DeepSpeedCPUAdagrad or FusedLion /
// DeepSpeedCPULion, all tested; the 1-bit optimizers run at stage 0 only.
bool untestedUnderZero(const std::string& optimizer) { return optimizer == "lamb"; }

// Lamb under ZeRO: DeepSpeed refuses it unless zero_allow_untested_optimizer is set, so the wizard sets it and says
// what that means (the user chose Lamb; swapping in Adam would change the training). FusedLamb is a CUDA kernel
// only, so optimizer offload (which steps on the CPU) cannot run it: a failed check.
void addOptimizerChecks(Advice& adv, const ZeroOption& o, const Answers& a)
{
    const std::string optimizer = a.text("training.optimizer");
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

// "12% faster" from the slower plan's time to the faster one's.
std::string percentFaster(double slower, double faster)
{
    if (faster <= 0 || slower <= faster)
        return "as fast";
    return std::to_string(static_cast<int>(std::lround((slower / faster - 1) * 100))) + "% faster";
}

// What the user fixed that the chosen plan follows, in words ("micro-batch 4 × accumulation 2"): the headline and
// the table's mark say "with your …" of these, never "your choice" of a stage the wizard picked. Empty when nothing
// was fixed.
std::string fixedChoices(const Answers& a, const PlanSearch& s)
{
    std::vector<std::string> parts;
    if (const std::string stage = a.text("zero.stage"); stage != "auto")
        parts.push_back("ZeRO stage " + stage);
    if (const std::string o = a.text("zero.offload_optimizer"); o != "auto")
        parts.push_back("optimizer offload " + o);
    if (const std::string o = a.text("zero.offload_param"); o != "auto")
        parts.push_back("parameter offload " + o);
    if (const std::string c = a.text("training.activation_checkpointing"); c != "auto")
        parts.push_back("activation checkpointing " + c);
    const BatchKeys batch = batchKeys(a);
    if (batch.check.level == CheckLevel::Fail)
        parts.push_back("batch settings (as typed)");
    else if (a.has("training.micro_batch_size"))
        parts.push_back("micro-batch " + std::to_string(batch.microBatch)
                        + (a.has("training.gradient_accumulation_steps")
                               ? " × accumulation " + std::to_string(batch.gradientAccumulation)
                               : std::string()));
    if (s.job.states == StatePrecision::Bf16)
        parts.push_back("bf16 optimizer states (ZeRO 1-3 only)");
    if (s.job.fp32GradAccumulation)
        parts.push_back("fp32 gradient accumulation (ZeRO-1 without optimizer offload only)");
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
    return out;
}

// The five fastest plans after the chosen one, each with the one reason it is slower: the component of the step
// time that grew most.
void addAlternatives(Advice& adv, const Answers& a, const PlanSearch& s)
{
    const StepPrediction& chosen = s.candidates.at(s.chosen);
    oj rows = oj::array();
    for (std::size_t i = 0; i < s.candidates.size() && rows.size() < 5; ++i) {
        const StepPrediction& p = s.candidates[i];
        if (i == s.chosen || !p.fits())
            continue;
        const std::pair<double, const char*> deltas[] = {
            {p.time.compute - chosen.time.compute,
             p.candidate.checkpointing && !chosen.candidate.checkpointing
                 ? "recomputes every layer's forward (activation checkpointing)"
                 : "more compute per step"},
            {p.time.communication - chosen.time.communication, "more communication per step"},
            {p.time.offload - chosen.time.offload, "host transfers and the CPU optimizer step (offload)"},
            {p.time.bubble - chosen.time.bubble, "a larger pipeline bubble"}};
        const auto worst = std::max_element(std::begin(deltas), std::end(deltas));
        std::string reason;
        if (p.time.total > chosen.time.total * 1.02)
            reason =
                std::string(worst->second) + ": the chosen plan is " + percentFaster(p.time.total, chosen.time.total);
        else if (s.userForced && !s.asked[i])
            reason = std::string(p.time.total < chosen.time.total ? "faster" : "as fast") + ", but not with your "
                + fixedChoices(a, s);
        else
            reason = "within 2% of it, the step model's margin; the wizard takes the simplest of those";
        rows.push_back(oj{{"index", i},
                          {"label", p.label()},
                          {"gpu_bytes", p.gpu.total},
                          {"step_seconds", p.time.total},
                          {"reason", reason}});
    }
    adv.details["alternatives"] = rows;
}

oj optionJson(const ZeroOption& o)
{
    return oj{{"stage", o.stage},
              {"offload_optimizer", o.offloadOptimizer},
              {"offload_param", o.offloadParam},
              {"activation_checkpointing", o.checkpointing},
              {"micro_batch_size", o.microBatch},
              {"gradient_accumulation_steps", o.accumulation},
              {"step_seconds", o.stepSeconds},
              {"tokens_per_second_per_gpu", o.tokensPerSecondPerGpu},
              {"params_bytes", o.gpu.params},
              {"grads_bytes", o.gpu.grads},
              {"optimizer_bytes", o.gpu.optimizer},
              {"buffers_bytes", o.gpu.buffers},
              {"other_bytes", o.gpu.other},
              {"gpu_model_states_bytes", o.gpuModelStates},
              {"activations_bytes", o.activations},
              {"gpu_total_bytes", o.gpuTotal},
              {"cpu_per_node_bytes", o.cpuPerNode},
              {"nvme_per_node_bytes", o.nvmePerNode},
              {"gpu_formula", o.gpuFormula},
              {"cpu_formula", o.cpuFormula},
              {"fits", o.fits()}};
}

// The stage table: per stage without offload, the fastest plan that fits (else the closest), by component as the
// step model sizes it, whatever the user forced; the chosen plan and the wizard's pick stand in their stage's row
// (or in a row of their own when they offload), marked. Every row is sized: nothing forced hides a stage's numbers.
oj stageTable(const std::vector<StepPrediction>& candidates, std::size_t chosen, std::optional<std::size_t> pick,
              bool userForced)
{
    auto row = [&](std::size_t i) { // the fields zeroOptionOf gives, read from the prediction directly
        const StepPrediction& p = candidates[i];
        const StepCandidate& c = p.candidate;
        return oj{{"stage", c.placement.stage},
                  {"label", p.label()},
                  {"offload_optimizer", c.placement.offloadOptimizer},
                  {"offload_param", c.placement.offloadParam},
                  {"micro_batch_size", c.microBatch},
                  {"gradient_accumulation_steps", c.accumulation},
                  {"activation_checkpointing", c.checkpointing},
                  {"params_bytes", p.gpu.params},
                  {"grads_bytes", p.gpu.grads},
                  {"optimizer_bytes", p.gpu.optimizer},
                  {"buffers_bytes", p.gpu.buffers},
                  {"activations_bytes", p.gpu.activations},
                  {"other_bytes", p.gpu.other},
                  {"model_states_bytes", p.gpu.total - p.gpu.activations},
                  {"gpu_total_bytes", p.gpu.total},
                  {"cpu_per_node_bytes", p.cpuPerNode},
                  {"step_seconds", p.time.total},
                  {"fits", p.fits()},
                  {"your_choice", userForced && i == chosen},
                  {"wizard_pick", pick && i == *pick}};
    };
    auto offloads = [&](std::size_t i) {
        const Placement& p = candidates[i].candidate.placement;
        return p.offloadOptimizer != "none" || p.offloadParam != "none";
    };
    auto stageOf = [&](std::size_t i) { return candidates[i].candidate.placement.stage; };
    oj rows = oj::array();
    for (int stage = 0; stage <= 3; ++stage) {
        std::optional<std::size_t> best;
        for (const std::size_t marked : {chosen, pick.value_or(candidates.size())})
            if (!best && marked < candidates.size() && stageOf(marked) == stage && !offloads(marked))
                best = marked;
        for (std::size_t i = 0; i < candidates.size() && !best; ++i) // ranked: the first is the best of its stage
            if (stageOf(i) == stage && !offloads(i))
                best = i;
        if (best)
            rows.push_back(row(*best));
    }
    if (offloads(chosen))
        rows.push_back(row(chosen));
    if (pick && *pick != chosen && offloads(*pick))
        rows.push_back(row(*pick));
    return rows;
}

// When nothing fits: how many GPUs ZeRO-3 without offload, at micro-batch 1 with checkpointing, would need. The step
// model's parameters, gradients and optimizer states are partitioned over the data-parallel ranks; the rest
// (buffers, activations, context, fragmentation) is per GPU, so GPUs = states over all ranks ÷ (usable − the rest).
void addSuggestions(Advice& adv, const Answers& a, const PlanSearch& search)
{
    std::string what;
    // Only where ZeRO-3 is allowed: a pipeline limits the stages to 0–1, the 1-bit optimizers to 0.
    if (zeroStageLimit(a).maxStage >= 3) {
        const BatchKeys batch = batchKeys(a);
        const std::int64_t perRank = std::max<std::int64_t>(1, batch.microBatch * batch.gradientAccumulation);
        const StepPrediction p = predictStep(search.job, {{3, "none", "none"}, true, 1, perRank});
        const std::int64_t states = p.gpu.params + p.gpu.grads + p.gpu.optimizer;
        const double partitioned = static_cast<double>(states) * static_cast<double>(search.job.dataParallel);
        const double room = p.usableGpuBytes - static_cast<double>(p.gpu.total - states);
        if (room > 0) {
            const auto gpus = static_cast<std::int64_t>(std::ceil(partitioned / room));
            const std::int64_t G = a.integer("hardware.gpus_per_node");
            what += "ZeRO-3 without offload, micro-batch 1 and activation checkpointing would fit on about "
                + std::to_string(gpus) + " GPUs (" + std::to_string((gpus + G - 1) / G) + " nodes of "
                + std::to_string(G) + "; the step model's states over all ranks ÷ what one GPU has left). ";
        } else {
            what += "Even one sample's activations, the buffers and the largest layer exceed a GPU: use a GPU with "
                    "more memory, a shorter sequence, or tensor/sequence parallelism. ";
        }
    }
    if (a.text("hardware.nvme") != "nvme" || a.text("hardware.nvme_path").empty())
        what += "A local NVMe SSD (hardware.nvme = nvme with hardware.nvme_path) allows ZeRO-Infinity offload. ";
    if (a.integer("training.micro_batch_size") > 1)
        what += "A smaller micro-batch with more gradient accumulation cuts activation memory. ";
    adv.checks.push_back({CheckLevel::Fail, "zero-nothing-fits",
                          "No ZeRO stage or offload fits this model on this hardware. " + what,
                          "ds-mem-z3-fp16-partitions"});
}

void addTradeoffs(Advice& adv, const ZeroOption& chosen, const PlanSearch& search)
{
    const StepPrediction& best = search.candidates.at(search.chosen);
    const StepCandidate& c = best.candidate;
    // The same batch at each stage without offload: what moving up or down a stage costs per optimizer step.
    std::string byStage;
    for (int stage = 0; stage <= 3; ++stage)
        for (const StepPrediction& p : search.candidates)
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
             "Per optimizer step: " + gib(best.time.pcieBytes) + " per GPU over PCIe (" + seconds(best.time.pcieSeconds)
                 + "), the optimizer step on the CPU (DeepSpeedCPUAdam, " + seconds(best.time.cpuAdamSeconds) + ")"
                 + (best.time.nvmeBytes > 0 ? ", and " + gib(best.time.nvmeBytes)
                            + " of NVMe reads and writes per node (" + seconds(best.time.nvmeSeconds) + ")"
                                            : std::string())
                 + ": " + seconds(best.time.offload) + " of the " + seconds(best.time.total) + " step.",
             "zero-offload-paper"});
    if (const auto& alternatives = adv.details.at("alternatives"); !alternatives.empty()) {
        std::string text;
        for (const auto& row : alternatives)
            text += (text.empty() ? "" : " ") + row.at("label").get<std::string>() + ": "
                + seconds(row.at("step_seconds").get<double>()) + ", " + gib(row.at("gpu_bytes").get<double>())
                + " per GPU (" + row.at("reason").get<std::string>() + ").";
        adv.tradeoffs.push_back({"The next plans that fit (ds-wizard's step-time model)", text, "kaplan-6n"});
    }
    if (chosen.checkpointing)
        adv.tradeoffs.push_back({"Activation checkpointing",
                                 "Keeps only each layer's input and recomputes the rest in the backward pass: "
                                 "about one extra forward pass, quoted as 33% re-computation overhead.",
                                 "zero-paper-ckpt"});
    if (chosen.offloadOptimizer == "nvme" || chosen.offloadParam == "nvme")
        adv.tradeoffs.push_back({"SSD wear", "DeepSpeed warns: " + quoteOf("ds-nvme-endurance"), "ds-nvme-endurance"});
}

} // namespace

Advice adviseZero(const Answers& a)
{
    PlanSearch search;
    try {
        search = searchPlans(a);
    } catch (const std::invalid_argument& e) {
        return adviseZeroShapeInvalid(e.what());
    }
    return adviseZero(a, search);
}

Advice adviseZeroShapeInvalid(const std::string& error)
{
    Advice adv;
    adv.workflow = "zero";
    adv.status = AdviceStatus::NeedsInput;
    adv.headline = "The model's shape contradicts itself";
    adv.checks.push_back({CheckLevel::Fail, "model-shape-invalid", error, ""});
    return adv;
}

nlohmann::ordered_json zeroCandidatesJson(const PlanSearch& search)
{
    oj candidates = oj::array();
    for (const StepPrediction& p : search.candidates)
        candidates.push_back(candidateJson(p));
    return candidates;
}

Advice adviseZero(const Answers& a, const PlanSearch& search)
{
    Advice adv;
    adv.workflow = "zero";
    adv.status = AdviceStatus::Complete;
    const ZeroStageLimit limit = zeroStageLimit(a);
    if (!limit.code.empty()) {
        const std::string forced = a.text("zero.stage");
        const bool overridden = forced != "auto" && std::stoi(forced) > limit.maxStage;
        adv.checks.push_back(
            {overridden ? CheckLevel::Fail : CheckLevel::Pass,
             overridden ? (limit.maxStage == 0 ? "onebit-requires-zero-0" : "pipeline-requires-zero-0-or-1")
                        : limit.code,
             (overridden ? "zero.stage " + forced + " was asked, but it cannot be combined: " : std::string())
                 + limit.reason,
             limit.source});
    }
    // The search ranks what fits by predicted time; when nothing fits, the one closest to fitting comes first.
    // Only the plans the page names become ZeroOptions (with their formulas); the table reads the candidates.
    const ZeroOption chosen = zeroOptionOf(search.candidates.at(search.chosen));
    const bool fits = chosen.fits();
    for (const char* id : {"zero.offload_optimizer", "zero.offload_param"}) {
        const std::string asked = a.text(id);
        const std::string got =
            std::string(id) == "zero.offload_optimizer" ? chosen.offloadOptimizer : chosen.offloadParam;
        if (asked != "auto" && asked != got)
            adv.checks.push_back({CheckLevel::Fail, "zero-offload-not-possible",
                                  std::string(id) + " = " + asked + " cannot be combined with the allowed stages: "
                                      + quoteOf("ds-offload-stages") + " and offload_param is valid only with stage 3.",
                                  "ds-offload-stages"});
    }
    const double capacity = a.number("hardware.gpu_memory_gib") * kGiB;
    const double usable = capacity * (1 - kPlanHeadroom);

    const std::optional<ZeroOption> pickOption = search.wizardPick && *search.wizardPick != search.chosen
        ? std::optional<ZeroOption>(zeroOptionOf(search.candidates.at(*search.wizardPick)))
        : std::nullopt;
    const ZeroOption* pick = pickOption ? &*pickOption : nullptr;
    if (!fits)
        adv.headline = "Nothing fits; closest: " + chosen.label();
    else if (search.userForced && pick)
        adv.headline = "With your " + fixedChoices(a, search) + ": " + chosen.label() + " ("
            + seconds(chosen.stepSeconds) + " per step); the wizard's pick, " + pick->label() + ", is "
            + percentFaster(chosen.stepSeconds, pick->stepSeconds) + " by ds-wizard's step-time model";
    else
        adv.headline = (search.userForced ? "With your " + fixedChoices(a, search) + ": " : "Recommended: ")
            + chosen.label() + (search.userForced ? " (also the wizard's pick" : " (the fastest that fits")
            + (chosen.stepSeconds > 0 ? ", " + seconds(chosen.stepSeconds) + " per step" : std::string())
            + " by ds-wizard's step-time model)";
    adv.fragment = zeroFragment(chosen, a);
    addOptimizerChecks(adv, chosen, a);

    if (fits)
        adv.checks.push_back({CheckLevel::Pass, "zero-fits-gpu",
                              "Fits: " + gib(chosen.gpuTotal) + " of " + gib(usable) + " usable per GPU ("
                                  + gib(capacity) + " less " + std::to_string(int(kPlanHeadroom * 100))
                                  + "% headroom; the CUDA context, NCCL buffers and "
                                  + std::to_string(kFragmentationPercent) + "% fragmentation are counted).",
                              "cuda-context-size"});
    else
        addSuggestions(adv, a, search);
    if (fits && chosen.cpuPerNode > 0)
        adv.checks.push_back({CheckLevel::Pass, "zero-fits-cpu",
                              "Host memory: " + gib(chosen.cpuPerNode) + " needed per node of "
                                  + gib(a.number("hardware.cpu_memory_gib") * kGiB) + " (" + chosen.cpuFormula + ").",
                              "ds-mem-cpu-adam-states"});
    {
        // Loading the model: a warning with remedies, never a gate on the stage.
        const LoadTimeHostRam load = loadTimeHostRam(search.job.params, search.job.gpusPerNode);
        const bool enough = static_cast<double>(load.bytesPerNode) <= search.job.hostBytesPerNode;
        adv.checks.push_back({enough ? CheckLevel::Pass : CheckLevel::Warn, "zero-load-host-ram",
                              "Loading the model: " + gib(static_cast<double>(load.bytesPerNode))
                                  + " of host RAM per node of " + gib(search.job.hostBytesPerNode)
                                  + (enough ? "." : ". " + load.warning),
                              load.source});
    }
    if (const MemoryComponent* held =
            search.candidates.at(search.chosen).memory.find("zero3_linear_held", MemoryPlace::Gpu);
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
        const double nvmeCap = a.number("hardware.nvme_capacity_gib") * kGiB;
        adv.checks.push_back(
            nvmeCap > 0 ? Check{chosen.fitsNvme ? CheckLevel::Pass : CheckLevel::Fail, "zero-fits-nvme",
                                "NVMe: " + gib(chosen.nvmePerNode) + " needed per node of " + gib(nvmeCap) + ".", ""}
                        : Check{CheckLevel::Warn, "zero-nvme-capacity-unknown",
                                "NVMe: " + gib(chosen.nvmePerNode)
                                    + " needed per node; set hardware.nvme_capacity_gib to check it.",
                                ""});
    }
    const bool nvmeChosen = chosen.offloadOptimizer == "nvme" || chosen.offloadParam == "nvme";
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
    const auto violations = capabilityViolations(adv.fragment.at("zero_optimization"));
    std::string broken;
    for (const auto& v : violations)
        broken += " " + v;
    adv.checks.push_back({violations.empty() ? CheckLevel::Pass : CheckLevel::Fail, "zero-documented-capabilities",
                          violations.empty()
                              ? "The recommendation aligns with documented stage capabilities and the "
                                "hardware: offload_param only at stage 3, NVMe offload only at stage 3 and "
                                "always with nvme_path, CPU offload at stages 1–3."
                              : "The ZeRO block breaks documented stage capabilities:" + broken,
                          "ds-offload-stages"});
    if (chosen.offloadOptimizer != "none")
        adv.checks.push_back({CheckLevel::Warn, "offload-pin-memory",
                              "pin_memory is written as true (the default from "
                                  + changedDefault("zero_optimization.offload_optimizer.pin_memory").from
                                  + ", false before). On hosts with a low memlock limit (ulimit -l) set it to false if "
                                    "offload runs out of memory.",
                              "ds-pin-memory"});
    if (chosen.checkpointing && a.text("training.activation_checkpointing") == "auto")
        adv.checks.push_back(
            {CheckLevel::Warn, "activation-checkpointing-needed",
             "No plan without activation checkpointing fits (activations of "
                 + gib(static_cast<double>(
                     modelActivations(ActivationCase{search.job.shape, search.job.seqLen, chosen.microBatch,
                                                     search.job.attention, search.job.dropout, 2},
                                      search.job.loss, false)
                         .peakBytes))
                 + " at micro-batch " + std::to_string(chosen.microBatch)
                 + " without it), so activation checkpointing is turned on: enable it in the model code (see the "
                   "snippet).",
             "korthikanti"});
    if (chosen.stage >= 3 || chosen.offloadOptimizer != "none")
        adv.sources.push_back("ds-estimators");
    // The batch keys of the config written for the chosen plan (Plan.cpp applies its micro-batch when none was typed).
    const Answers written = withChosenBatch(a, chosen.microBatch, chosen.accumulation);
    const BatchKeys batch = batchKeys(written);
    adv.checks.push_back(batch.check);
    if (written.integer("training.micro_batch_size") != a.integer("training.micro_batch_size"))
        adv.checks.push_back(
            {CheckLevel::Pass, "zero-micro-batch-chosen",
             "Micro-batch " + std::to_string(chosen.microBatch) + " × " + std::to_string(chosen.accumulation)
                 + " accumulation steps keeps the global batch of " + std::to_string(batch.trainBatchSize)
                 + (search.userForced ? " and is the step model's best micro-batch for your choices"
                                      : " and is the fastest that fits")
                 + "; type training.micro_batch_size to keep your own.",
             "ds-batch"});

    const StepPrediction& best = search.candidates.at(search.chosen);
    adv.estimates = {
        {"GPU memory per GPU", static_cast<double>(best.gpu.total), "bytes",
         "at the step's peak: the rows below added up (step model)", "ds-mem-engine-wrapper"},
        {"Parameters per GPU", static_cast<double>(best.gpu.params), "bytes", "16-bit parameters (and fp32 copies)",
         "ds-mem-z12-params16"},
        {"Gradients per GPU", static_cast<double>(best.gpu.grads), "bytes",
         "16-bit gradients and the fp32 gradient partition alive at the peak", "ds-mem-z12-fp32-grad-partition"},
        {"Optimizer states per GPU", static_cast<double>(best.gpu.optimizer), "bytes",
         "fp32 master weights, Adam m and v of the partition", "ds-mem-z12-master"},
        {"Buffers per GPU", static_cast<double>(best.gpu.buffers), "bytes",
         "reduce/all-gather buckets, the ZeRO-3 working set, offload staging", "ds-mem-z12-ipg-buckets"},
        {"Activations per GPU", static_cast<double>(best.gpu.activations), "bytes",
         std::string("per operation, ") + std::string(toString(search.job.attention)) + " attention"
             + (chosen.checkpointing ? ", full checkpointing" : "") + ", plus logits and loss",
         "korthikanti"},
        {"CUDA context, NCCL and fragmentation per GPU", static_cast<double>(best.gpu.other), "bytes",
         std::to_string(kFragmentationPercent) + "% fragmentation and fixed allowances (wizard assumptions)",
         "cuda-context-size"},
        {"CPU memory per node", static_cast<double>(chosen.cpuPerNode), "bytes", chosen.cpuFormula,
         "ds-mem-cpu-adam-states"},
    };
    if (chosen.nvmePerNode > 0)
        adv.estimates.push_back({"NVMe per node", static_cast<double>(chosen.nvmePerNode), "bytes",
                                 "optimizer states (and parameters) swapped to NVMe, per rank × ranks per node",
                                 "ds-mem-z3-nvme-swap-buffers"});
    if (chosen.stepSeconds > 0) {
        adv.estimates.push_back({"Step time", chosen.stepSeconds, "s",
                                 "compute + exposed communication + offload + bubble, per optimizer step "
                                 "(ds-wizard's step-time model, not a measurement)",
                                 "kaplan-6n"});
        adv.estimates.push_back({"Tokens per second per GPU", chosen.tokensPerSecondPerGpu, "tokens/s",
                                 "micro-batch × accumulation × sequence length ÷ step time", "kaplan-6n"});
    }

    adv.snippets.push_back({"json", "zero_optimization", adv.fragment.dump(2)});
    if (chosen.checkpointing)
        adv.snippets.push_back({"python", "Turn on activation checkpointing in the model",
                                "# Hugging Face Transformers\nmodel.gradient_checkpointing_enable()\n\n"
                                "# Plain PyTorch / DeepSpeed: wrap each transformer block\n"
                                "import deepspeed\nhidden = deepspeed.checkpointing.checkpoint(block, hidden)\n"});
    if (chosen.stage == 3)
        adv.snippets.push_back({"python", "Build the model partitioned (zero.Init) so no process holds it whole",
                                "import deepspeed\nwith deepspeed.zero.Init(config_dict_or_path=\"ds_config.json\"):\n"
                                "    model = MyModel(...)\n"});

    // ds-memory-docs: the estimator rows shown beside the step model's (details.deepspeed_estimator).
    adv.sources.insert(adv.sources.end(),
                       {"zero-paper", "korthikanti", "ds-offload-stages", "ds-batch", "ds-memory-docs"});

    const int G = static_cast<int>(a.integer("hardware.gpus_per_node"));
    const int N = static_cast<int>(a.integer("hardware.nodes"));
    oj estimatorRows = oj::array();
    for (const auto& r :
         deepSpeedEstimatorRows(paramsPerPipelineStage(a), a.integer("model.largest_layer_params"), G, N))
        estimatorRows.push_back(oj{{"stage", r.stage},
                                   {"offload_optimizer", r.offloadOptimizer},
                                   {"offload_param", r.offloadParam},
                                   {"zero_init", r.zeroInit ? oj(*r.zeroInit) : oj(nullptr)},
                                   {"gpu_bytes", r.gpuBytes},
                                   {"cpu_bytes", r.cpuBytes}});
    adv.details["recommended"] = optionJson(chosen);
    adv.details["fits"] = fits;
    adv.details["gpu_capacity_bytes"] = capacity;
    adv.details["gpu_usable_bytes"] = usable;
    adv.details["stage_table"] = stageTable(search.candidates, search.chosen, search.wizardPick, search.userForced);
    adv.details["deepspeed_estimator"] = std::move(estimatorRows);
    // "candidates" (every plan the search sized) is only printed by `recommend --format json`: toJson(Plan) adds
    // zeroCandidatesJson here, so no view pays for ~160 JSON objects it does not read.
    adv.details["chosen"] = search.chosen;
    adv.details["user_forced"] = search.userForced;
    // What the user fixed, in words (empty when nothing): the chosen plan is the fastest with these, not a choice
    // of the stage unless zero.stage was set.
    adv.details["fixed_by_you"] = search.userForced ? fixedChoices(a, search) : std::string();
    if (search.wizardPick)
        adv.details["wizard_pick"] = *search.wizardPick;
    adv.details["memory_convention"] = "per GPU at the step's peak, by component as DeepSpeed " + knowledgeVersion()
        + " allocates them (estimate/StateMemory), activations per operation (estimate/ActivationModel); time by "
          "estimate/StepTime";
    addAlternatives(adv, a, search);
    addTradeoffs(adv, chosen, search);
    return adv;
}

} // namespace dsw
