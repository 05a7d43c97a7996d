// Pipeline parallelism: DeepSpeed's own layer partitioning (deepspeed-facts §2.9), the 1F1B bubble
// (Narayanan et al. 2021), per-stage memory from the step model (estimate/StepModel.h: the same components
// the ZeRO page shows, for the placement it recommends) and the ZeRO stages the pipeline engine accepts.
#include "advise/PipelineAdvisor.h"
#include "knowledge/LauncherRules.h"

#include "advise/BatchKeys.h"
#include "estimate/PartitionMemo.h"
#include "estimate/PipelinePartition.h"
#include "estimate/StepModel.h"
#include "knowledge/DeepSpeedFacts.h"
#include "knowledge/ParameterCount.h"
#include "knowledge/SourceCatalog.h"
#include "util/CheckedMath.h"
#include "util/Count.h"
#include "util/RegexLimits.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;
constexpr double kGiB = 1073741824.0;
constexpr double kLargeBubble = 0.25;         // the wizard's own threshold for a "large" bubble
constexpr double kLayerTotalTolerance = 0.10; // the wizard's own tolerance between layer sum and model.params
constexpr double kUnevenShare = 0.01;         // the wizard's own: stages whose parameters differ by more are uneven
constexpr std::int64_t kMaxLayerParams = 100'000'000'000'000; // model.params' maximum: no layer is larger

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string trimmed(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    return std::string(s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1));
}

template <typename T>
std::string list(const std::vector<T>& values)
{
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i ? ", " : "") + std::to_string(values[i]);
    return out + "]";
}

std::string percent(double fraction)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", fraction * 100);
    return buf;
}

// The weights DeepSpeed's PipelineModule._partition_layers passes to partition_balanced for this method, or
// the failed check that quotes the exception it would raise. "uniform" passes none (`uniform` set).
struct PartitionWeights {
    bool uniform = false;
    std::vector<double> weights;
    std::optional<Check> failure;
};

PartitionWeights partitionWeights(const std::vector<PipelineLayer>& layers, const std::string& requested)
{
    auto fail = [](const char* code, std::string message) {
        return PartitionWeights{false, {}, Check{CheckLevel::Fail, code, std::move(message), "ds-pipeline-module"}};
    };
    const std::string method = lower(requested); // DeepSpeed lower-cases the method before matching it
    if (method == "uniform")
        return {true, {}, std::nullopt};
    std::vector<double> weights;
    if (method == "parameters") {
        for (const auto& l : layers)
            weights.push_back(static_cast<double>(l.params));
    } else if (method.rfind("type:", 0) == 0) {
        const std::string pattern = method.substr(5, method.find(':', 5) - 5); // method.split(':')[1]
        if (const auto why = regexTooComplex(pattern))
            return fail("pipeline-partition-regex-too-complex",
                        "partition_method \"" + requested + "\": '" + pattern + "' is refused because " + *why
                            + "; such patterns can take unbounded time to match. A plain name or alternatives "
                              "(type:transformer, type:embedding|head) match the same layers.");
        std::regex regex;
        try {
            regex = std::regex(pattern, std::regex::ECMAScript | std::regex::icase);
        } catch (const std::regex_error&) {
            return fail("pipeline-partition-bad-regex",
                        "partition_method \"" + requested + "\": '" + pattern
                            + "' is not a valid regular expression "
                              "(checked with ECMAScript syntax, which agrees with Python's re for simple patterns).");
        }
        std::map<std::string, bool> matches; // a few class names over up to 10 002 layers: match each once
        for (const auto& l : layers) {       // binary weights: 1 where the class name matches (search, any case)
            auto [it, added] = matches.try_emplace(l.typeName, false);
            if (added)
                it->second = std::regex_search(l.typeName, regex);
            weights.push_back(it->second ? 1.0 : 0.0);
        }
        if (std::count(weights.begin(), weights.end(), 1.0) == 0)
            return fail(
                "pipeline-partition-no-match",
                "DeepSpeed would raise RuntimeError: Partitioning '" + pattern
                    + "' found no valid layers to "
                      "partition. The layers here are named Embedding, TransformerBlock and LMHead when derived, "
                      "Layer when given in pipeline.layer_params.");
    } else {
        return fail("pipeline-partition-method-unknown",
                    "DeepSpeed would raise NotImplementedError: Partitioning method " + method
                        + " not implemented. Use uniform, parameters or type:REGEX.");
    }
    return {false, std::move(weights), std::nullopt};
}

} // namespace

const char* toString(PartitionState state)
{
    switch (state) {
    case PartitionState::Uniform: return "uniform";
    case PartitionState::Computed: return "computed";
    case PartitionState::Computing: return "computing";
    case PartitionState::NotComputed: return "not_computed";
    case PartitionState::Failed: return "failed";
    }
    return "failed";
}

namespace {

// What DeepSpeed's PipelineModule._partition_layers would do with these layers: the boundaries, or the
// failed check that quotes the exception it would raise.
struct Partition {
    std::vector<int> parts; // empty when DeepSpeed would raise
    std::optional<Check> failure;
    PartitionState state = PartitionState::Failed;
    std::int64_t splits = 0;              // candidate splits partitionBalanced tries (the wizard's cost)
    std::int64_t deepSpeedIterations = 0; // iterations of DeepSpeed's own loop (its cost, in Python)
};

Partition partitionLayers(const std::vector<PipelineLayer>& layers, int stages, const std::string& requested,
                          const PartitionPolicy& policy)
{
    PartitionWeights w = partitionWeights(layers, requested);
    if (w.failure)
        return {{}, std::move(w.failure), PartitionState::Failed};
    const int n = static_cast<int>(layers.size());
    if (w.uniform)
        return {partitionUniform(n, stages), std::nullopt, PartitionState::Uniform};
    Partition p;
    p.splits = balancedPartitionWork(n, stages);
    p.deepSpeedIterations = deepSpeedPartitionIterations(n, stages);
    const BalancedPartitionInput input{std::move(w.weights), stages};
    PartitionMemo& memo = PartitionMemo::shared();
    if (auto known = memo.find(input)) {
        p.parts = *known;
        p.state = PartitionState::Computed;
    } else if (p.splits <= policy.computeNow) {
        p.parts = *memo.compute(input);
        p.state = PartitionState::Computed;
    } else {
        p.parts = partitionUniform(n, stages); // shown, labelled, until (or instead of) the balanced one
        p.state = p.splits <= policy.computeLater ? PartitionState::Computing : PartitionState::NotComputed;
    }
    return p;
}

std::string secondsText(double seconds)
{
    char buf[64];
    if (seconds < 120)
        std::snprintf(buf, sizeof buf, "%.0f s", seconds);
    else if (seconds < 2 * 3600)
        std::snprintf(buf, sizeof buf, "%.0f minutes", seconds / 60);
    else if (seconds < 2 * 86400)
        std::snprintf(buf, sizeof buf, "%.1f hours", seconds / 3600);
    else
        std::snprintf(buf, sizeof buf, "%.1f days", seconds / 86400);
    return buf;
}

// The wizard's state of the partition, and DeepSpeed's own cost of it where that is long enough to matter.
void addPartitionChecks(Advice& adv, const Partition& p, std::size_t layerCount, int stages,
                        const std::string& requested, const PartitionPolicy& policy)
{
    const double deepSpeedSeconds = static_cast<double>(p.deepSpeedIterations) / kDeepSpeedPartitionIterationsPerSecond;
    adv.details["partition"] = oj{{"state", toString(p.state)},
                                  {"shown", p.state == PartitionState::Computed ? "balanced" : "uniform"},
                                  {"splits", p.splits},
                                  {"deepspeed_iterations", p.deepSpeedIterations},
                                  {"deepspeed_seconds", deepSpeedSeconds}};
    const std::string what = "DeepSpeed's balanced partition (partition_method \"" + requested + "\") of "
        + std::to_string(layerCount) + " layers into " + std::to_string(stages) + " stages";
    if (p.state == PartitionState::Computing)
        adv.checks.push_back({CheckLevel::Warn, "pipeline-partition-computing",
                              "computing… " + what + " (" + std::to_string(p.splits)
                                  + " candidate splits, in the background). Until it arrives the stages shown are "
                                    "the uniform partition's (layers per stage), not the balanced one.",
                              "ds-partition"});
    if (p.state == PartitionState::NotComputed)
        adv.checks.push_back(
            {CheckLevel::Warn, "pipeline-partition-not-computed",
             what + " tries " + std::to_string(p.splits) + " candidate splits (layers² × stages), more than the "
                 + std::to_string(std::max(policy.computeNow, policy.computeLater))
                 + " the wizard computes here; the stages shown are the uniform partition's "
                   "(layers per stage)."
                 + (p.splits <= kMaxBackgroundPartitionWork ? " The window computes it in the background." : ""),
             "ds-partition"});
    if (deepSpeedSeconds > kSlowDeepSpeedPartitionSeconds) {
        char rate[32];
        std::snprintf(rate, sizeof rate, "%.1f", kDeepSpeedPartitionIterationsPerSecond / 1e6);
        adv.checks.push_back(
            {CheckLevel::Warn, "pipeline-partition-slow-in-deepspeed",
             "DeepSpeed computes this partition itself, in Python, when each process builds the PipelineModule: "
             "its partition_balanced loops over every split of every (layers, stages) cell, "
                 + std::to_string(p.deepSpeedIterations) + " iterations here, about " + secondsText(deepSpeedSeconds)
                 + " at the wizard's assumed " + rate + " million iterations per second (measured with DeepSpeed "
                 + knowledgeVersion()
                 + " under Python 3.11). partition_method \"uniform\" is instant (layers per stage; with equal "
                   "blocks it differs from the balanced one only around the embedding and head). \"type:REGEX\" "
                   "runs the same search over 0/1 weights, so it is no faster; fewer, larger layers are (g blocks "
                   "per layer divide the time by about g²).",
             "ds-partition-balanced-loop"});
        adv.sources.push_back("ds-partition-balanced-loop");
    }
}

void addZeroChecks(Advice& adv, int stages, int zeroStage)
{
    if (const auto rule = pipelineZeroBreak(stages, zeroStage)) {
        adv.checks.push_back({CheckLevel::Fail, rule->code,
                              rule->message + " The ZeRO page's plan is stage " + std::to_string(zeroStage)
                                  + ": set zero.stage to 0 or 1, or use no pipeline. The memory figures here assume "
                                    "stage 1.",
                              rule->source});
        return;
    }
    adv.checks.push_back({CheckLevel::Pass, kPipelineZeroRule,
                          "ZeRO stage " + std::to_string(zeroStage)
                              + " works with pipeline parallelism (the engine rejects stages 2 and 3).",
                          "ds-pipe-zero"});
    if (zeroStage == 1)
        adv.checks.push_back({CheckLevel::Warn, "pipeline-zero1-no-overlap-comm",
                              "With ZeRO-1 and a pipeline DeepSpeed logs " + quoteOf("ds-pipe-zero1-overlap")
                                  + ": gradient reduction does not overlap the backward pass.",
                              "ds-pipe-zero1-overlap"});
}

// What the rest of the advice is computed from.
struct PipelineSetup {
    int stages = 0;
    std::int64_t gpus = 0;
    std::int64_t dataParallel = 0;
    BatchKeys batch; // micro-batch and accumulation: the ZeRO page's recommended plan, else the answers'
    int zeroStage = 0;
    bool checkpointing = false;
    std::optional<StepJob> job; // the answers' step job; empty (with jobError) when the shape contradicts itself
    std::string jobError;
    bool notModelled = false;      // the job is not sized because the model is not modelled (a mixture of experts)
    StepCandidate candidate;       // the ZeRO page's placement as the pipeline engine runs it
    std::int64_t largestLayer = 0; // model.largest_layer_params, before it is held to a stage's parameters
    std::optional<StepPrediction> heaviest; // the step model's prediction for the stage needing the most memory
    double usable = 0;
    double bubble = 0;
};

// The ZeRO page's plan as the pipeline runs it: ZeRO 0 or 1 (a higher stage fails a check; the memory then assumes
// stage 1), no parameter offload (stage 3 only), CPU optimizer offload at stage 1 only.
StepCandidate candidateOf(const StepCandidate& zeroPlan, const PipelineSetup& s)
{
    StepCandidate c;
    c.placement.stage = std::min(s.zeroStage, 1);
    if (c.placement.stage == 1 && zeroPlan.placement.offloadOptimizer == "cpu")
        c.placement.offloadOptimizer = "cpu";
    c.checkpointing = s.checkpointing;
    c.loss = zeroPlan.loss;
    c.microBatch = std::max<std::int64_t>(1, s.batch.microBatch);
    c.accumulation = std::max<std::int64_t>(1, s.batch.gradientAccumulation);
    return c;
}

// One stage as the step model sees it: its parameters and transformer blocks (the embedding and head add
// parameters, not blocks; layers given in pipeline.layer_params count as blocks). A stage without a block is
// still sized for one (the step model's activations need a layer), an upper bound.
StepJob stageJob(const PipelineSetup& s, std::size_t stage, std::int64_t params, std::int64_t blocks)
{
    StepJob j = *s.job;
    j.pipelineStage = static_cast<std::int64_t>(stage); // 1F1B: min(stages − stage, micro-batches) in flight
    j.largestLayer = s.largestLayer;
    sizeStage(j, params); // an empty stage (a failed check) is sized for one parameter
    j.layersPerStage = std::max<std::int64_t>(1, blocks);
    j.time.layers = j.layersPerStage;
    return j;
}

std::string snippet(const Answers& a, const std::vector<PipelineLayer>& layers, bool derived, const PipelineSetup& s)
{
    std::string code = "import deepspeed\nfrom deepspeed.pipe import PipelineModule, LayerSpec\n\n";
    if (derived) {
        const auto h = std::to_string(a.integer("model.hidden_size"));
        const auto v = std::to_string(a.integer("model.vocab_size"));
        code += "# Your own layer classes; the plan assumes these parameter counts:\n#   Embedding "
            + std::to_string(layers.front().params) + ", TransformerBlock " + std::to_string(layers[1].params)
            + " each, LMHead " + std::to_string(layers.back().params) + "\n"
            + "layers = [LayerSpec(Embedding, vocab_size=" + v + ", hidden_size=" + h + ")]\n"
            + "layers += [LayerSpec(TransformerBlock, hidden_size=" + h + ") for _ in range("
            + std::to_string(layers.size() - 2) + ")]\n" + "layers += [LayerSpec(LMHead, hidden_size=" + h
            + ", vocab_size=" + v + ")]\n\n";
    } else {
        code += "layers = [...]  # your " + std::to_string(layers.size())
            + " layers (LayerSpec or nn.Module), in the order of pipeline.layer_params\n\n";
    }
    code += "# The stage count and the partitioning are set here: DeepSpeed never reads\n"
            "# \"stages\" or \"partition\" from ds_config.json.\n"
            "model = PipelineModule(layers=layers, num_stages="
        + std::to_string(s.stages) + ", partition_method=\"" + a.text("pipeline.partition_method") + "\",\n"
        + "                       loss_fn=loss_fn,  # loss = loss_fn(outputs, labels)\n"
        + "                       activation_checkpoint_interval=" + (s.checkpointing ? "1" : "0") + ")\n"
        + "engine, _, _, _ = deepspeed.initialize(model=model,\n"
          "                                       model_parameters=[p for p in model.parameters() if "
          "p.requires_grad],\n"
          "                                       config=\"ds_config.json\")\n\n"
        + "# Each train_batch() pulls gradient_accumulation_steps (" + std::to_string(s.batch.gradientAccumulation)
        + ") micro-batches of\n# train_micro_batch_size_per_gpu (" + std::to_string(s.batch.microBatch)
        + ") samples from the iterator, pushes them through the stages, then\n# reduces gradients over the "
        + std::to_string(s.dataParallel) + " data-parallel replicas and steps the optimizer.\n"
        + "train_iter = iter(deepspeed.utils.RepeatingLoader(train_loader))\n"
          "for step in range(total_steps):\n    loss = engine.train_batch(data_iter=train_iter)\n";
    return code;
}

void addTopologyChecks(Advice& adv, const PipelineSetup& s, int layerCount)
{
    const std::string p = std::to_string(s.stages), gpus = std::to_string(s.gpus);
    if (s.gpus % s.stages != 0)
        adv.checks.push_back({CheckLevel::Fail, "pipeline-stages-divide-gpus",
                              p + " stages do not divide the " + gpus
                                  + " GPUs; PipelineModule would raise RuntimeError: "
                                    "num_stages ("
                                  + p + ") must divide distributed world size (" + gpus + ").",
                              "ds-pipeline-module"});
    else
        adv.checks.push_back({CheckLevel::Pass, "pipeline-stages-divide-gpus",
                              p + " stages divide the " + gpus + " GPUs: " + std::to_string(s.dataParallel)
                                  + " data-parallel replicas of the pipeline.",
                              "ds-pipeline-module"});
    if (s.stages > layerCount)
        adv.checks.push_back({CheckLevel::Fail, "pipeline-stages-exceed-layers",
                              p + " stages for " + std::to_string(layerCount) + " layers: DeepSpeed's partition leaves "
                                  + std::to_string(s.stages - layerCount) + " stage(s) without a layer. Use at most "
                                  + std::to_string(layerCount) + " stages.",
                              "ds-partition"});
}

std::string gibText(std::int64_t bytes) { return formatGiB(static_cast<double>(bytes)); }

// The heaviest stage's fit check: its bytes by component, as the ZeRO page counts them.
void addFitCheck(Advice& adv, PipelineSetup& s, std::size_t stage, const std::vector<int>& layersPerStage,
                 const std::vector<std::int64_t>& paramsPerStage, const std::vector<std::int64_t>& blocksPerStage)
{
    const StepPrediction& p = *s.heaviest;
    const GpuBytes& g = p.gpu;
    const std::int64_t inFlight =
        microBatchesInFlight(s.stages, static_cast<std::int64_t>(stage), s.candidate.accumulation);
    std::string text = "Stage " + std::to_string(stage) + " (" + std::to_string(layersPerStage[stage]) + " layers, "
        + std::to_string(paramsPerStage[stage]) + " parameters) needs " + gibText(g.total) + " of "
        + formatGiB(s.usable) + " per GPU"
        + (p.tight ? " (tight: within the step model's ±" + std::to_string(std::lround(kTightBand * 100)) + "% band)"
                   : "")
        + " at " + p.label() + ": parameters " + gibText(g.params) + " + gradients " + gibText(g.grads)
        + " + optimizer states " + gibText(g.optimizer) + " + buffers " + gibText(g.buffers) + " + activations "
        + gibText(g.activations) + " + CUDA context, NCCL and the allocator's reserve " + gibText(g.other)
        + ", as DeepSpeed " + knowledgeVersion()
        + " allocates them (the step model, the same figures as the ZeRO page's); activations of the stage's "
        + std::to_string(std::max<std::int64_t>(1, blocksPerStage[stage])) + " transformer blocks for "
        + std::to_string(inFlight) + (inFlight == 1 ? " micro-batch" : " micro-batches") + " of "
        + std::to_string(s.candidate.microBatch)
        + " in flight (DeepSpeed's 1F1B schedule keeps min(stages − stage, micro-batches) = min("
        + std::to_string(s.stages) + " − " + std::to_string(stage) + ", " + std::to_string(s.candidate.accumulation)
        + ") forward passes' activations on a stage"
        + (stage + 1 == paramsPerStage.size() ? "; this one runs the loss" : "") + "; checkpointing "
        + (s.checkpointing ? "on" : "off") + ").";
    if (!p.fitsGpu) {
        text += " Try more stages";
        StepCandidate withCheckpointing = s.candidate;
        withCheckpointing.checkpointing = true;
        if (!s.checkpointing
            && predictStep(stageJob(s, stage, paramsPerStage[stage], blocksPerStage[stage]), withCheckpointing).fitsGpu)
            text += ", activation checkpointing (it would then fit)";
        text += s.candidate.microBatch > 1 ? ", or a smaller micro-batch." : ".";
    }
    adv.checks.push_back({!p.fitsGpu    ? CheckLevel::Fail
                              : p.tight ? CheckLevel::Warn
                                        : CheckLevel::Pass,
                          "pipeline-micro-batch-fits", text, "ds-memory-docs"});
    adv.estimates.push_back({"Largest stage memory per GPU", static_cast<double>(g.total), "bytes",
                             "the step model for the stage's parameters and blocks at the ZeRO page's placement: "
                             "DeepSpeed's allocations by component + activations per operation",
                             "ds-memory-docs"});
}

// Gradient accumulation over the micro-batches of a bf16 pipeline: DeepSpeed's warning where it fires, and
// data_types.grad_accum_dtype fp32 (pipeline.grad_accum_dtype) with what it costs the heaviest stage.
void addGradAccumulation(Advice& adv, const Answers& a, const PipelineSetup& s, const StepJob& stage)
{
    const bool asked = a.text("pipeline.grad_accum_dtype") == "fp32";
    const std::string allowed = " Allowed: pipeline.grad_accum_dtype model, or fp32 with bf16 training, ZeRO stage 1 "
                                "(zero.stage), no optimizer offload and fp32 master weights and optimizer states.";
    if (stage.precision != TrainingPrecision::Bf16) {
        if (asked)
            adv.checks.push_back({CheckLevel::Fail, "pipeline-grad-accum-fp32-unsupported",
                                  "pipeline.grad_accum_dtype = fp32 applies to bf16 training; this config does not "
                                  "train in bf16, so it is not written."
                                      + allowed,
                                  "ds-bf16-optimizer-select"});
        return;
    }
    const Placement& placement = s.candidate.placement;
    StepJob without = stage, with = stage;
    without.fp32GradAccumulation = false;
    with.fp32GradAccumulation = true;
    with.states = StatePrecision::Fp32;
    StepCandidate zero1 = s.candidate;
    zero1.placement = {1, "none", "none"};
    const StepPrediction before = predictStep(without, s.candidate), after = predictStep(with, zero1);
    const MemoryComponent* buffer = after.memory.find("grads32_accum", MemoryPlace::Gpu);
    // Sized at ZeRO-1 without offload, the only placement that runs it; "now" is the plan as it is.
    const bool samePlacement = before.label() == after.label();
    const std::string cost = "the heaviest stage needs " + gibText(after.gpu.total) + " per GPU at " + after.label()
        + " with fp32 accumulation, against " + gibText(before.gpu.total)
        + (samePlacement ? " without it" : " now at " + before.label())
        + " (the step model: BF16_Optimizer's fp32 gradient buffer, 4 bytes per parameter of the stage, whole, "
        + gibText(buffer ? buffer->bytes : 0) + ")";
    adv.details["grad_accum_fp32_bytes"] = {{"without", before.gpu.total}, {"with", after.gpu.total}};

    std::string refusal;
    if (asked && stage.states == StatePrecision::Bf16)
        refusal = "with training.precision_states = bf16: ZeRO-1 with fp32 accumulation runs BF16_Optimizer, which "
                  "keeps fp32 master weights and ignores the bf16 states. Choose one.";
    else if (asked && placement.stage == 0)
        refusal = "at ZeRO stage 0: without ZeRO DeepSpeed refuses a gradient dtype other than the model's with "
                  "NotImplementedError: "
            + quoteOf("ds-grad-accum-dtype-mix") + ". Set zero.stage 1.";
    else if (asked && (placement.stage != 1 || placement.offloadOptimizer != "none"))
        refusal = "at " + planLabel(s.candidate)
            + ": DeepSpeed runs BF16_Optimizer's fp32 accumulation only for ZeRO stage 1 without CPU offload "
              "(engine.py's optimizer sanity check); other placements are not sized for it.";
    if (!refusal.empty()) {
        adv.checks.push_back({CheckLevel::Fail, "pipeline-grad-accum-fp32-unsupported",
                              "pipeline.grad_accum_dtype = fp32 " + refusal + " It is not written." + allowed,
                              "ds-bf16-optimizer-select"});
        return;
    }
    if (asked) {
        adv.fragment["data_types"] = {{"grad_accum_dtype", "fp32"}};
        adv.checks.push_back(
            {CheckLevel::Pass, "pipeline-grad-accum-fp32",
             "data_types.grad_accum_dtype fp32 is written (pipeline.grad_accum_dtype): at ZeRO-1 without offload "
             "DeepSpeed runs BF16_Optimizer and sums the gradients of the "
                 + std::to_string(s.candidate.accumulation)
                 + " micro-batches in fp32 (24 significant bits instead of bf16's 8), so small contributions are not "
                   "rounded away. You pay memory: "
                 + cost + ".",
             "ds-bf16-optimizer-grads"});
        adv.sources.push_back("ds-bf16-optimizer-grads");
        return;
    }
    const std::string where = placement.stage == 0
        ? "Without ZeRO, DeepSpeed's pipeline engine wraps the optimizer in BF16_Optimizer and logs "
            + quoteOf("ds-pipe-bf16-accum-warning") + ": it sums the gradients of the "
        : "ZeRO-1 sums the gradients of the ";
    adv.checks.push_back(
        {CheckLevel::Warn, "pipeline-bf16-grad-accumulation",
         where + std::to_string(s.candidate.accumulation)
             + " micro-batches in bf16 (8 significant bits), where small contributions round away. DeepSpeed's "
               "remedy, data_types.grad_accum_dtype fp32 (pipeline.grad_accum_dtype = fp32), keeps the sum in fp32; "
               "it is written only at ZeRO-1 without optimizer offload, with fp32 master weights and optimizer "
               "states. "
             + (placement.stage == 1 && placement.offloadOptimizer == "none"
                    ? std::string("This plan is ") + planLabel(s.candidate) + ", so asking for it is enough. "
                    : "This plan is " + planLabel(s.candidate)
                        + ", so it is not written; it needs ZeRO stage 1 (zero.stage) as well. ")
             + "It costs memory: " + cost + ".",
         placement.stage == 0 ? "ds-pipe-bf16-accum-warning" : "ds-bf16-optimizer-select"});
    adv.sources.push_back(placement.stage == 0 ? "ds-pipe-bf16-accum-warning" : "ds-bf16-optimizer-select");
}

// The plan from DeepSpeed's boundaries: per-stage counts and memory, the balance and memory checks.
void addPlan(Advice& adv, PipelineStages& view, const Answers& a, PipelineSetup& s,
             const std::vector<PipelineLayer>& layers, const std::vector<int>& parts)
{
    std::vector<int> layersPerStage;
    std::vector<std::int64_t> paramsPerStage, blocksPerStage, memoryPerStage;
    // The stage with the most GPU memory; none when the stages' memory is not estimated. (An index with a flag,
    // not std::optional: GCC's -Wmaybe-uninitialized misreads the optional here in Release builds.)
    std::size_t worstStage = 0;
    bool haveWorst = false;
    for (int st = 0; st < s.stages; ++st) {
        std::int64_t params = 0, blocks = 0;
        for (int i = parts[st]; i < parts[st + 1]; ++i) {
            params += layers[i].params;
            blocks += layers[i].typeName != "Embedding" && layers[i].typeName != "LMHead";
        }
        layersPerStage.push_back(parts[st + 1] - parts[st]);
        paramsPerStage.push_back(params);
        blocksPerStage.push_back(blocks);
    }
    try {
        for (std::size_t st = 0; s.job && st < paramsPerStage.size(); ++st) {
            StepPrediction p = predictStep(stageJob(s, st, paramsPerStage[st], blocksPerStage[st]), s.candidate);
            memoryPerStage.push_back(p.gpu.total);
            if (!s.heaviest || p.gpu.total > s.heaviest->gpu.total) {
                worstStage = st;
                haveWorst = true;
                s.heaviest = std::move(p);
            }
        }
    } catch (const std::invalid_argument& e) { // the answers contradict the step model's inputs: no memory
        s.jobError = e.what();
        s.job.reset();
        s.heaviest.reset();
        haveWorst = false;
    }
    if (s.heaviest && s.heaviest->time.total > 0)
        s.bubble = s.heaviest->time.bubbleFraction; // (p − 1)/(m + p − 1), the step model's
    adv.details["plan"] = oj{{"stages", s.stages},
                             {"parts", parts},
                             {"layers_per_stage", layersPerStage},
                             {"params_per_stage", paramsPerStage},
                             {"bubble_fraction", s.bubble}};
    if (s.job)
        adv.details["memory_per_stage_bytes"] = memoryPerStage;
    view.parts = parts;
    view.paramsPerStage = paramsPerStage;
    view.memoryPerStage = s.job ? memoryPerStage : std::vector<std::int64_t>{};

    auto allEqual = [](const auto& v) {
        return std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) == v.end();
    };
    // A final norm or position table makes one stage a few thousand parameters larger: not worth a warning.
    const auto [least, most] = std::minmax_element(paramsPerStage.begin(), paramsPerStage.end());
    if (!allEqual(layersPerStage) || *most - *least > kUnevenShare * static_cast<double>(*most))
        adv.checks.push_back({CheckLevel::Warn, "pipeline-uneven-partition",
                              "The stages differ: layers per stage " + list(layersPerStage) + ", parameters per stage "
                                  + list(paramsPerStage)
                                  + ". The stage with the most work sets the pace of all of "
                                    "them, and the one with the most parameters needs the most memory.",
                              "ds-partition"});

    if (haveWorst) {
        addFitCheck(adv, s, worstStage, layersPerStage, paramsPerStage, blocksPerStage);
        addGradAccumulation(adv, a, s, stageJob(s, worstStage, paramsPerStage[worstStage], blocksPerStage[worstStage]));
    } else if (s.notModelled) // a mixture of experts: said under its own code, never as a fit
        adv.checks.push_back({CheckLevel::Fail, "moe-not-modelled",
                              "The stages' memory and time are not estimated, and the parameters per stage count one "
                              "dense MLP per layer: "
                                  + s.jobError,
                              "ds-moe-tutorial"});
    else
        adv.checks.push_back(
            {CheckLevel::Fail, "pipeline-micro-batch-fits", "The stages' memory is not estimated: " + s.jobError, ""});
    adv.headline = std::to_string(s.stages) + " pipeline stages × " + std::to_string(s.dataParallel)
        + " data-parallel: layers per stage " + list(layersPerStage) + ", bubble " + percent(s.bubble);
    if (s.checkpointing)
        adv.fragment["pipeline"] = {{"activation_checkpoint_interval", 1}};
}

void addBubbleAndBatch(Advice& adv, const PipelineSetup& s)
{
    const std::int64_t m = s.batch.gradientAccumulation;
    const bool timed = s.heaviest && s.heaviest->time.total > 0;
    char seconds[96] = "";
    if (timed)
        std::snprintf(seconds, sizeof seconds, "; the step model's %.3g s of a %.3g s step", s.heaviest->time.bubble,
                      s.heaviest->time.total);
    if (s.bubble > kLargeBubble)
        adv.checks.push_back({CheckLevel::Warn, "pipeline-large-bubble",
                              "The pipeline idles " + percent(s.bubble)
                                  + " of each batch ((p − 1)/(m + p − 1) with p = " + std::to_string(s.stages)
                                  + ", m = " + std::to_string(m) + " micro-batches" + seconds
                                  + "), above the "
                                    "wizard's own 25% threshold. Raise gradient_accumulation_steps to at least 4p = "
                                  + std::to_string(4 * s.stages) + " to bring it under 20%.",
                              "narayanan-bubble"});
    adv.estimates.push_back(
        {"Pipeline bubble", s.bubble, "fraction",
         "(p − 1)/(m + p − 1): idle share of an iteration of (m + p − 1)(t_f + t_b) (Narayanan et al. "
         "Eq. 1), m = gradient_accumulation_steps; the paper's (p − 1)/m is relative to the ideal time",
         "narayanan-bubble"});
    if (timed)
        adv.estimates.push_back({"Pipeline bubble time", s.heaviest->time.bubble, "s",
                                 "the stage's compute per step × (p − 1)/m (the step model, estimate/StepTime)",
                                 "narayanan-bubble"});
    if (s.heaviest)
        adv.estimates.push_back({"Activations of the largest stage", static_cast<double>(s.heaviest->gpu.activations),
                                 "bytes",
                                 "activations per operation of the stage's transformer blocks "
                                 "(estimate/ActivationModel) for the min(stages − stage, micro-batches) micro-batches "
                                 "1F1B keeps in flight on it; logits and loss on the last stage",
                                 "ds-pipe-1f1b-buffers"});
    adv.estimates.push_back(
        {"Data-parallel size", static_cast<double>(s.dataParallel), "GPUs", "GPUs / stages", "ds-pipeline-module"});
    const std::int64_t train = s.batch.microBatch * m * s.dataParallel;
    adv.estimates.push_back({"train_batch_size", static_cast<double>(train), "samples",
                             "micro-batch × gradient_accumulation_steps × data-parallel size", "ds-pipe-batch"});
    adv.details["batch"] = oj{{"data_parallel_size", s.dataParallel},
                              {"micro_batch_size", s.batch.microBatch},
                              {"micro_batches", m},
                              {"train_batch_size", train}};
}

void addTradeoffs(Advice& adv, const PipelineSetup& s, bool derived)
{
    adv.tradeoffs.push_back(
        {"Stages: memory against idle time",
         "More stages put fewer layers on each GPU, but leave fewer data-parallel replicas and a larger "
         "bubble, (p − 1)/(m + p − 1); more micro-batches per batch shrink it.",
         "narayanan-bubble"});
    adv.tradeoffs.push_back(
        {"Partition method",
         "\"parameters\" (DeepSpeed's default) balances trainable parameters per stage; \"uniform\" "
         "balances the number of layers; \"type:REGEX\" balances the layers whose class name matches. "
         "DeepSpeed's balanced partition minimises the spread (largest − smallest stage).",
         "ds-pipeline-tutorial"});
    adv.tradeoffs.push_back(
        {"Where the stage count lives",
         std::string("num_stages and partition_method are PipelineModule arguments. ds_config's "
                     "pipeline.stages and pipeline.partition are never read, so the wizard does not "
                     "write them")
             + (s.checkpointing ? "; it writes only pipeline.activation_checkpoint_interval, which "
                                  "overrides the module's value when above 0."
                                : "."),
         "ds-pipeline-config"});
    if (derived)
        adv.tradeoffs.push_back(
            {"Layer sizes (derived)",
             "Each layer is counted from the model's shape, as model.params is: a block's "
             "attention (q and o of the query heads, k and v of the key/value heads), MLP (two "
             "hidden × intermediate matrices for GELU, three for a gated MLP), norms and biases; the "
             "embedding vocab × hidden; the head vocab × hidden and the final norm (a tied head is "
             "a copy of the embedding, which DeepSpeed's TiedLayerSpec keeps on its stage). Give "
             "pipeline.layer_params for other layers.",
             ""});
}

} // namespace

Result<std::vector<std::int64_t>> parseLayerParams(std::string_view text)
{
    std::vector<std::int64_t> counts;
    if (trimmed(text).empty())
        return counts;
    std::size_t start = 0;
    for (int index = 0;; ++index) {
        const std::size_t comma = text.find(',', start);
        const std::string item =
            trimmed(text.substr(start, comma == std::string_view::npos ? text.npos : comma - start));
        const auto count = parseCount(item);
        if (!count || *count > kMaxLayerParams)
            return Result<std::vector<std::int64_t>>::failure(
                "pipeline.layer_params: item " + std::to_string(index + 1) + " \"" + item
                + "\" is not a parameter count from 0 to " + formatCount(kMaxLayerParams)
                + " (comma-separated counts such as 131M, 201379840, 1.3e9).");
        counts.push_back(*count);
        if (comma == std::string_view::npos)
            return counts;
        start = comma + 1;
    }
}

std::vector<PipelineLayer> pipelineLayers(const Answers& a)
{
    std::vector<PipelineLayer> layers;
    const auto given = parseLayerParams(a.text("pipeline.layer_params"));
    if (!given)
        return layers;
    if (!given.value().empty()) {
        for (std::size_t i = 0; i < given.value().size(); ++i)
            layers.push_back({"layer " + std::to_string(i), "Layer", given.value()[i]});
        return layers;
    }
    // The one count of the model's shape (knowledge/ParameterCount.h), split as a PipelineModule holds it: the blocks
    // and the embedding add up to model.params's derived count. A tied head is a second copy of the embedding:
    // DeepSpeed's TiedLayerSpec builds the module on each stage that uses it and all-reduces its gradients.
    const TransformerShape shape = a.modelShape();
    const ParameterBreakdown b = countParameters(shape);
    const std::int64_t block = b.attentionPerLayer + b.mlpPerLayer + b.normsPerLayer;
    const std::int64_t cross = shape.crossAttentionLayers > 0 ? b.crossAttention / shape.crossAttentionLayers : 0;
    layers.push_back({"embedding", "Embedding", b.embedding + b.positions});
    for (std::int64_t i = 0; i < shape.layers; ++i) // cross-attention in the last blocks (an encoder-decoder's decoder)
        layers.push_back({"block " + std::to_string(i), "TransformerBlock",
                          block + (i >= shape.layers - shape.crossAttentionLayers ? cross : 0)});
    layers.push_back({"head", "LMHead", (shape.tiedEmbeddings ? b.embedding : b.outputHead) + b.finalNorm});
    return layers;
}

std::optional<BalancedPartitionInput> balancedPartitionInput(const Answers& a)
{
    const auto stages = a.integer("pipeline.stages");
    if (stages <= 1 || stages > std::numeric_limits<int>::max() || !parseLayerParams(a.text("pipeline.layer_params")))
        return std::nullopt;
    PartitionWeights w = partitionWeights(pipelineLayers(a), a.text("pipeline.partition_method"));
    if (w.uniform || w.failure)
        return std::nullopt;
    return BalancedPartitionInput{std::move(w.weights), static_cast<int>(stages)};
}

PipelineAdvice advisePipeline(const Job& job, const ZeroDecision* zero, const Answers& a, const PartitionPolicy& policy)
{
    PipelineAdvice out;
    Advice& adv = out.advice;
    adv.workflow = "pipeline";
    PipelineSetup s;
    s.stages = static_cast<int>(job.layout.pipeline);
    if (s.stages <= 1) {
        adv.status = AdviceStatus::NotApplicable;
        adv.headline = "No pipeline: pipeline.stages is 1, so every GPU holds all layers (data parallelism only).";
        return out;
    }
    adv.status = AdviceStatus::Complete;
    adv.sources = {"ds-pipeline-module",   "ds-partition",        "ds-pipeline-config", "ds-pipe-zero",
                   "narayanan-bubble",     "korthikanti",         "ds-memory-docs",     "ds-pipe-batch",
                   "ds-pipeline-tutorial", "ds-pipe-1f1b-buffers"};
    if (const auto rule = pipelineLauncherBreak(a.text("software.launcher"), s.stages)) // the export is refused
        adv.checks.push_back({CheckLevel::Fail, rule->code, rule->message, rule->source});
    for (const RuleBreak& rule : adapterRules(job.adapters)) // the ZeRO page shows the stage's rules
        if (rule.code == kAdapterPipelineRule)
            adv.checks.push_back({CheckLevel::Warn, rule.code, rule.message, rule.source});
    const auto parsed = parseLayerParams(a.text("pipeline.layer_params"));
    if (!parsed) {
        adv.status = AdviceStatus::NeedsInput;
        adv.missing = {"pipeline.layer_params"};
        adv.headline = "Pipeline of " + std::to_string(s.stages) + " stages: pipeline.layer_params needs fixing";
        adv.checks.push_back({CheckLevel::Fail, "pipeline-layer-params-invalid", parsed.error(), ""});
        return out;
    }
    const bool derived = parsed.value().empty();
    const auto layers = pipelineLayers(a);

    s.gpus = job.layout.world;
    s.dataParallel = job.layout.data;
    s.batch = job.batch; // the micro-batch and accumulation the composer writes; DeepSpeed's micro-batches = GAS
    // The ZeRO page's plan, when it has one; else the answers' stage and checkpointing.
    StepCandidate zeroPlan;
    if (zero && !zero->candidates.empty()) {
        zeroPlan = zero->plan().candidate;
        s.batch.microBatch = zeroPlan.microBatch;
        s.batch.gradientAccumulation = zeroPlan.accumulation;
        s.zeroStage = zeroPlan.placement.stage;
        s.checkpointing = zeroPlan.checkpointing;
    } else {
        s.zeroStage = a.text("zero.stage") == "auto" ? 0 : static_cast<int>(a.integer("zero.stage"));
        s.checkpointing = a.text("training.activation_checkpointing") == "on";
    }
    s.candidate = candidateOf(zeroPlan, s);
    s.largestLayer = a.integer("model.largest_layer_params");
    if (job.step) {
        s.job = job.step;
        if (!job.layout.divides()) // DeepSpeed refuses this topology (a failed check): memory only, no step time
            s.job->time.denseTflops = 0;
    } else {
        s.jobError = job.unsizedCheck().message;
        s.notModelled = !job.notModelled.empty();
    }
    s.usable = job.usableGpuBytes; // as predictStep's usableGpuBytes
    s.bubble = static_cast<double>(s.stages - 1) / static_cast<double>(s.batch.gradientAccumulation + s.stages - 1);

    addTopologyChecks(adv, s, static_cast<int>(layers.size()));
    const Partition partition = partitionLayers(layers, s.stages, a.text("pipeline.partition_method"), policy);
    out.stages.state = partition.state;
    out.stages.layers = layers;
    if (partition.failure)
        adv.checks.push_back(*partition.failure);
    else
        addPartitionChecks(adv, partition, layers.size(), s.stages, a.text("pipeline.partition_method"), policy);
    // Derived layers are the shape's own count, as model.params is unless typed (a tied head is that count's second
    // copy); only a count the user gave can disagree with them.
    std::int64_t layerTotal = 0;
    for (const auto& l : layers)
        layerTotal = addSat(layerTotal, l.params); // the registry's largest shapes overflow a plain sum
    if (derived && a.modelShape().tiedEmbeddings)
        layerTotal -= countParameters(a.modelShape()).embedding;
    const std::int64_t modelParams = a.integer("model.params");
    if ((!derived || a.has("model.params")) && modelParams > 0
        && std::abs(static_cast<double>(layerTotal - modelParams)) > kLayerTotalTolerance * modelParams)
        adv.checks.push_back({CheckLevel::Warn, "pipeline-layer-total-differs",
                              std::string(derived ? "The model's shape counts " : "The layers add up to ")
                                  + std::to_string(layerTotal) + " parameters but model.params is "
                                  + std::to_string(modelParams)
                                  + " (more than the wizard's own 10% tolerance); the plan uses the layer counts."
                                  + (derived ? " Check the shape, or leave model.params out to use its count." : ""),
                              ""});
    if (!partition.parts.empty()) {
        addPlan(adv, out.stages, a, s, layers, partition.parts);
        if (partition.state == PartitionState::Computing)
            adv.headline = "computing… the " + a.text("pipeline.partition_method")
                + " partition; meanwhile uniform: " + adv.headline;
        else if (partition.state == PartitionState::NotComputed)
            adv.headline = "uniform partition shown (the balanced one is too large to compute here): " + adv.headline;
    } else
        adv.headline = std::to_string(s.stages) + " pipeline stages: the partition method fails (see the checks)";
    addZeroChecks(adv, s.stages, s.zeroStage);
    addBubbleAndBatch(adv, s);
    addTradeoffs(adv, s, derived);
    adv.snippets.push_back({"python", "PipelineModule and the training loop", snippet(a, layers, derived, s)});
    if (s.zeroStage == 1)
        adv.sources.push_back("ds-pipe-zero1-overlap");

    oj rows = oj::array();
    const auto& parts = partition.parts;
    for (int i = 0; i < static_cast<int>(layers.size()); ++i) // the stage s with parts[s] <= i < parts[s + 1]
        rows.push_back(oj{
            {"name", layers[i].name},
            {"params", layers[i].params},
            {"stage",
             parts.empty() ? oj(nullptr) : oj(std::upper_bound(parts.begin(), parts.end(), i) - parts.begin() - 1)}});
    adv.details["layers"] = rows;
    adv.details["partition_method"] = lower(a.text("pipeline.partition_method"));
    adv.details["zero_stage"] = s.zeroStage;
    adv.details["activation_checkpointing"] = s.checkpointing;
    adv.details["activations_bytes"] = s.heaviest ? s.heaviest->gpu.activations : 0;
    adv.details["gpu_usable_bytes"] = s.heaviest ? s.heaviest->usableGpuBytes : s.usable;
    out.stages.usableBytes = s.heaviest ? s.heaviest->usableGpuBytes : s.usable;
    return out;
}

} // namespace dsw
