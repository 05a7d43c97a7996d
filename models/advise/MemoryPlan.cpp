// The plan's estimates and steps; see MemoryPlan.h.
#include "advise/MemoryPlan.h"

#include "advise/LongContextAdvice.h"
#include "advise/ZeroDecision.h"

#include "util/Count.h"
#include <stdexcept>

#include <algorithm>

namespace dsw::memory {

namespace {

using oj = nlohmann::ordered_json;
constexpr double kGiB = 1073741824.0;

std::string gib(double bytes) { return formatGiB(bytes); }
std::string num(std::int64_t v) { return std::to_string(v); }

std::int64_t smallestFactor(std::int64_t n)
{
    for (std::int64_t d = 2; d * d <= n; ++d)
        if (n % d == 0)
            return d;
    return n;
}

} // namespace

FailedJob failedJobFrom(const Job& job, const Answers& a, std::optional<std::int64_t> messageGpuBytes)
{
    if (!job.step)
        throw std::invalid_argument(job.unsizedCheck().message);
    FailedJob j;
    j.step = *job.step;
    j.params = j.step.params;
    j.largest = j.step.largestLayer;
    j.dataParallel = std::max<std::int64_t>(1, j.step.dataParallel);
    j.gpusPerNode = j.step.gpusPerNode;
    j.nodes = j.step.nodes;
    j.cpuBytes = job.hostBytesPerNode;
    j.gpuCapacity = messageGpuBytes ? static_cast<double>(*messageGpuBytes) : job.gpuCapacityBytes;
    j.step.gpuCapacityBytes = j.gpuCapacity;
    j.nvmePath = a.text("hardware.nvme_path");
    j.nvmeReady = j.step.nvmeReady;
    j.phase = a.text("memory.phase");
    j.limit = job.zeroLimit;
    j.bestAttention = defaultAttentionImpl(job.gpu, a.text("software.torch_version"));
    return j;
}

Setup configSetup(const Job& job, const ZeroDecision* zero)
{
    Setup s;
    if (job.step) {
        s.attention = job.step->attention;
        s.loss = job.step->loss;
    }
    if (!zero) {
        s.micro = std::max<std::int64_t>(1, job.batch.microBatch);
        s.accumulation = std::max<std::int64_t>(1, job.batch.gradientAccumulation);
        return s;
    }
    const StepCandidate& c = zero->plan().candidate;
    s.stage = c.placement.stage;
    s.offloadOptimizer = c.placement.offloadOptimizer;
    s.offloadParam = c.placement.offloadParam;
    s.checkpointing = c.checkpointing;
    s.micro = c.microBatch;
    s.accumulation = c.accumulation;
    s.loss = lossOf(*job.step, c);
    s.sequenceParallel = c.sequenceParallel;
    s.tiledMlp = c.tiledMlp;
    s.checkpointOffload = c.checkpointOffload;
    return s;
}

RanSetup ranSetupFrom(const Answers& a, const Setup& config)
{
    RanSetup r;
    r.setup = config;
    Setup& s = r.setup;
    // The answer's text where it is given (not auto), else nothing: the config's value stands.
    auto given = [&](const char* id) -> std::optional<std::string> {
        if (a.has(id) && a.text(id) != "auto")
            return a.text(id);
        r.fromConfig.push_back(id);
        return std::nullopt;
    };
    if (const auto v = given("memory.ran_stage"); v && v->size() == 1 && (*v)[0] >= '0' && (*v)[0] <= '3')
        s.stage = (*v)[0] - '0';
    if (const auto v = given("memory.ran_offload_optimizer"))
        s.offloadOptimizer = *v;
    if (const auto v = given("memory.ran_offload_param"))
        s.offloadParam = *v;
    if (const auto v = given("memory.ran_checkpointing"))
        s.checkpointing = *v == "on";
    if (given("memory.ran_micro_batch"))
        s.micro = std::max<std::int64_t>(1, a.integer("memory.ran_micro_batch"));
    if (given("memory.ran_accumulation"))
        s.accumulation = std::max<std::int64_t>(1, a.integer("memory.ran_accumulation"));
    if (const auto v = given("memory.ran_attention_impl"))
        s.attention = attentionImplFrom(*v).value_or(s.attention);
    if (const auto v = given("memory.ran_loss_impl"))
        s.loss = lossImplFrom(*v).value_or(s.loss);
    if (given("memory.ran_sequence_parallel"))
        s.sequenceParallel = std::max<std::int64_t>(1, a.integer("memory.ran_sequence_parallel"));
    if (const auto v = given("memory.ran_tiled_mlp"))
        s.tiledMlp = *v == "on";
    if (const auto v = given("memory.ran_checkpoint_offload"))
        s.checkpointOffload = *v == "on";
    // At a stage where DeepSpeed does not read an offload, the run had none, whatever was answered.
    auto notAsked = [&](const char* id, std::string& device) {
        device = "none";
        r.notAsked.push_back(id);
        std::erase(r.fromConfig, id);
    };
    if (s.stage == 0)
        notAsked("memory.ran_offload_optimizer", s.offloadOptimizer);
    if (s.stage < 3)
        notAsked("memory.ran_offload_param", s.offloadParam);
    return r;
}

std::vector<std::pair<std::string, nlohmann::json>> ranAnswers(const Setup& s)
{
    return {{"memory.ran_stage", std::to_string(s.stage)},
            {"memory.ran_offload_optimizer", s.offloadOptimizer},
            {"memory.ran_offload_param", s.offloadParam},
            {"memory.ran_checkpointing", s.checkpointing ? "on" : "off"},
            {"memory.ran_micro_batch", s.micro},
            {"memory.ran_accumulation", s.accumulation},
            {"memory.ran_attention_impl", std::string(toString(s.attention))},
            {"memory.ran_loss_impl", std::string(toString(s.loss))},
            {"memory.ran_sequence_parallel", std::to_string(s.sequenceParallel)},
            {"memory.ran_tiled_mlp", s.tiledMlp ? "on" : "off"},
            {"memory.ran_checkpoint_offload", s.checkpointOffload ? "on" : "off"}};
}

StepPrediction predict(const FailedJob& j, const Setup& s)
{
    // As DeepSpeed runs the placement (knowledge/CombinationRules.h): no offload at stage 0, NVMe optimizer offload
    // at stages 1-2 as CPU offload, no parameter offload below stage 3.
    const PlacementAsRun run = placementAsRun(s.stage, s.offloadOptimizer, s.offloadParam);
    StepJob step = j.step;
    step.attention = s.attention;
    step.loss = s.loss;
    StepCandidate c{{run.stage, run.offloadOptimizer, run.offloadParam}, s.checkpointing, s.micro, s.accumulation};
    c.sequenceParallel = s.sequenceParallel;
    c.tiledMlp = s.tiledMlp;
    c.checkpointOffload = s.checkpointing && s.checkpointOffload;
    return predictStep(step, c);
}

std::int64_t gpuModelStates(const FailedJob& j, const Setup& s)
{
    const GpuBytes g = predict(j, s).gpu;
    return addSat(g.params, g.grads, g.optimizer);
}

std::int64_t activations(const FailedJob& j, const Setup& s) { return predict(j, s).gpu.activations; }

std::int64_t offloadHostBytes(const FailedJob& j, const Setup& s)
{
    Setup offloaded = s;
    if (offloaded.offloadOptimizer == "none") // what offloading the optimizer states to the CPU would need
        offloaded.offloadOptimizer = "cpu";
    offloaded.stage = std::max(offloaded.stage, 1); // offload needs ZeRO

    return predict(j, offloaded).cpuPerNode;
}

std::int64_t loadHostBytes(const FailedJob& j, std::int64_t count, int bytes)
{
    return truncSat(static_cast<double>(count) * bytes * j.gpusPerNode * kBufferFactor);
}

std::string stageChange(int from, int to)
{
    return from == to ? "" : " (ZeRO stage " + num(from) + " → " + num(to) + ")";
}

std::string deviceName(const std::string& device)
{
    return device == "cpu" ? "CPU" : device == "nvme" ? "NVMe" : device;
}

Remedy makeRemedy(std::string id, std::string change, oj config, std::string env, std::string code,
                  std::string tradeoff, std::string source, std::optional<std::int64_t> saving)
{
    Remedy step;
    step.id = std::move(id);
    step.change = std::move(change);
    step.config = std::move(config);
    step.env = std::move(env);
    step.code = std::move(code);
    step.tradeoff = std::move(tradeoff);
    step.source = std::move(source);
    step.saving = saving;
    return step;
}

RemedyPlanner::RemedyPlanner(FailedJob failedJob, const Setup& ranSetup, Advice& advice)
    : job(std::move(failedJob))
    , ran(ranSetup)
    , ranPrediction(predict(job, ran))
    , adv(advice)
{
}

void RemedyPlanner::warn(const std::string& code, const std::string& message, const std::string& source)
{
    adv.checks.push_back({CheckLevel::Warn, code, message, source});
}

bool RemedyPlanner::add(Remedy step)
{
    if (step.saving && *step.saving <= 0)
        return false; // e.g. answers where the largest layer is as big as the model
    if (step.saving && inUse && *step.saving > *inUse) {
        // A step cannot free more than was in use: the prediction is above what the message reports.
        step.saving = *inUse;
        step.tradeoff += " The saving shown is at most what was in use (" + inUseBasis
            + "): the step model predicts more than that for this setup.";
    }
    remedies.push_back(std::move(step));
    return true;
}

bool RemedyPlanner::sized(Remedy step, StepPrediction after)
{
    const std::int64_t before = ranPrediction.gpu.total;
    // A saturated estimate (CheckedMath.h) is a lower bound: what a step saves from it is unknown.
    step.saving = before == kSaturated ? std::nullopt : std::optional<std::int64_t>(subSat(before, after.gpu.total));
    if (after.gpu.total > before)
        return false; // never a step that raises the per-GPU peak
    step.after = std::move(after);
    return add(std::move(step));
}

bool RemedyPlanner::gpuRemedy(Remedy step, const Setup& next)
{
    if (std::any_of(remedies.begin(), remedies.end(), [&](const Remedy& r) { return r.setupAfter == next; }))
        return false; // the same change already listed (zero.Init's stage 3 before "ZeRO stage 2 → 3")
    step.setupAfter = next;
    return sized(std::move(step), predict(job, next));
}

bool RemedyPlanner::jobRemedy(Remedy step, const FailedJob& next) { return sized(std::move(step), predict(next, ran)); }

void RemedyPlanner::kernelRemedies(bool buckets)
{
    const AttentionImpl best = job.bestAttention.impl;
    if (ran.attention == AttentionImpl::Eager && best != AttentionImpl::Eager) {
        Setup next = ran;
        next.attention = best;
        const bool flash = best == AttentionImpl::Flash;
        const std::string name(toString(best));
        gpuRemedy(
            makeRemedy("attention-" + name,
                       std::string("Use the ") + (flash ? "FlashAttention-2" : "scaled_dot_product_attention")
                           + " attention kernel instead of eager attention",
                       nullptr, "",
                       "# Hugging Face Transformers\nmodel = AutoModelForCausalLM.from_pretrained(name, "
                       "attn_implementation=\""
                           + name + "\")\n",
                       "Eager attention keeps the s×s attention probabilities of every head for backward; "
                           + std::string(flash ? "FlashAttention-2 recomputes them in the backward pass and keeps "
                                                 "only q, k, v, the output and a log-sum-exp. "
                                               : "torch's fused kernel does not keep them. ")
                           + job.bestAttention.reason + (job.bestAttention.reason.ends_with('.') ? " " : ". ")
                           + "Exact attention: the results are the same up to rounding.",
                       flash ? "flashattention" : "torch-sdpa"),
            next);
    }
    if (ran.loss == LossImpl::Standard) {
        Setup next = ran;
        next.loss = LossImpl::Fused;
        gpuRemedy(makeRemedy("fused-loss",
                             "Use a fused linear cross-entropy (Liger-Kernel) instead of the standard loss", nullptr,
                             "",
                             "# Hugging Face Transformers with Liger-Kernel (pip install liger-kernel)\n"
                             "from liger_kernel.transformers import AutoLigerKernelForCausalLM\n"
                             "model = AutoLigerKernelForCausalLM.from_pretrained(name)\n",
                             "The standard loss materialises the logits in fp32 (micro-batch × sequence × vocabulary); "
                             "the fused kernel makes them chunk by chunk and never holds them whole. A little extra "
                             "compute for the chunking; the model must be one Liger-Kernel patches.",
                             "liger-flce"),
                  next);
    }
    // DeepSpeedExamples' bf16_master_weight configs run ZeRO-3 with reduce_bucket_size 5e7, a tenth of the default.
    constexpr std::int64_t kSmallerBucket = 50'000'000;
    if (buckets && ran.stage >= 1 && job.step.buffers.reduceBucketSize > kSmallerBucket) {
        FailedJob next = job;
        next.step.buffers.reduceBucketSize = kSmallerBucket;
        jobRemedy(
            makeRemedy("reduce-bucket",
                       "Smaller reduce buckets: reduce_bucket_size " + formatCount(job.step.buffers.reduceBucketSize)
                           + " → " + formatCount(kSmallerBucket) + " elements",
                       oj{{"zero_optimization", {{"reduce_bucket_size", kSmallerBucket}}}}, "", "",
                       "Gradients are reduced in more, smaller collectives: slightly less overlap of communication "
                       "with the backward pass. DeepSpeedExamples' ZeRO-3 configs use 5e7.",
                       ran.stage == 3 ? "ds-mem-z3-ipg-bucket" : "ds-mem-z12-ipg-buckets"),
            next);
    }
}

oj RemedyPlanner::offloadBlock(const std::string& device) const
{
    oj block{{"device", device}};
    if (device == "nvme" && !job.nvmePath.empty()) // never "": DeepSpeed reads it as the working directory
        block["nvme_path"] = job.nvmePath;
    block["pin_memory"] = true; // written explicitly: the default changed to true in 0.19.5
    return block;
}

void RemedyPlanner::activationRemedies()
{
    const std::size_t before = remedies.size();
    if (ran.micro > 1) {
        Setup next = ran;
        const std::int64_t d = smallestFactor(ran.micro);
        next.micro /= d;
        next.accumulation *= d;
        gpuRemedy(
            makeRemedy(
                "micro-batch",
                "Micro-batch " + num(ran.micro) + " → " + num(next.micro) + ", gradient accumulation "
                    + num(ran.accumulation) + " → " + num(next.accumulation) + " (same global batch)",
                oj{{"train_micro_batch_size_per_gpu", next.micro}, {"gradient_accumulation_steps", next.accumulation}},
                "", "",
                "Activations scale with the micro-batch. The samples per optimizer step stay the same; each step runs "
                    + num(d)
                    + "× as many smaller forward/backward passes, which usually lowers GPU throughput (the "
                      "wizard's expectation, not a measured number).",
                "korthikanti"),
            next);
    }
    if (!ran.checkpointing) {
        Setup next = ran;
        next.checkpointing = true;
        gpuRemedy(
            makeRemedy(
                "activation-checkpointing", "Turn on activation checkpointing", nullptr, "",
                "# Hugging Face Transformers\nmodel.gradient_checkpointing_enable()\n\n"
                "# Plain PyTorch / DeepSpeed: wrap each transformer block\n"
                "import deepspeed\nhidden = deepspeed.checkpointing.checkpoint(block, hidden)\n",
                "Keeps only each layer's input and recomputes the rest in the backward pass: about one extra forward "
                "pass, quoted as 33% re-computation overhead.",
                "zero-paper-ckpt"),
            next);
    }
    longContextRemedies();
    if (remedies.size() == before && (ran.micro > 1 || !ran.checkpointing))
        warn("oom-activations-not-the-peak",
             "A smaller micro-batch or activation checkpointing would not lower the predicted peak: for this setup the "
             "step model puts it in the optimizer step, when the activations are already freed.",
             "ds-mem-engine-wrapper");
    else if (remedies.size() == before)
        warn("oom-activations-at-minimum",
             "The micro-batch is already 1 and activation checkpointing is on: the activations left ("
                 + gib(ranPrediction.gpu.activations)
                 + ") shrink only with a shorter sequence, tensor parallelism or ALST's pieces where the rules allow "
                   "them (knowledge/UlyssesRules.h).",
             "korthikanti");
}

void RemedyPlanner::longContextRemedies()
{
    const StepJob& step = job.step;
    // For a sequence too long for one GPU: one sample per micro-step, its activations a large share of the GPU (the
    // ZeRO page's kLongContextLeverShare).
    if (ran.micro > 1 || static_cast<double>(ranPrediction.gpu.activations) < kLongContextLeverShare * job.gpuCapacity)
        return;
    if (ran.sequenceParallel == 1) {
        // The global batch stays: each group of sp GPUs takes one sample, so the accumulation grows by sp.
        std::optional<Setup> best;
        for (const std::int64_t sp : sequenceParallelDegrees(ulyssesCaseOf(step), 0)) {
            if (sp == 1)
                continue;
            Setup next = ran;
            next.sequenceParallel = sp;
            next.accumulation = ran.accumulation * sp;
            best = next;
            if (predict(job, next).fitsGpu)
                break;
        }
        if (best) {
            StepCandidate c;
            c.sequenceParallel = best->sequenceParallel;
            c.microBatch = best->micro;
            const std::string sp = num(best->sequenceParallel);
            oj config{{"sequence_parallel_size", best->sequenceParallel}};
            if (step.precision != TrainingPrecision::Fp32)
                config["seq_parallel_communication_data_type"] =
                    step.precision == TrainingPrecision::Bf16 ? "bf16" : "fp16";
            gpuRemedy(makeRemedy("ulysses",
                                 "Split each sequence over " + sp
                                     + " GPUs with DeepSpeed-Ulysses (ALST), "
                                       "gradient accumulation "
                                     + num(ran.accumulation) + " → " + num(best->accumulation) + " (same global batch)",
                                 config, "", ulyssesCode(step, c, "deepspeed"),
                                 "Each GPU holds " + num(tokensPerGpu(step, c)) + " of the " + num(step.seqLen)
                                     + " tokens; every layer adds all-to-alls of q, k, v and the attention output, "
                                       "and each group of "
                                     + sp + " GPUs trains one sequence, so the data-parallel size is the GPUs ÷ " + sp
                                     + ". Needs the training script's registration (the snippet).",
                                 "ulysses-rules"),
                      *best);
        }
    }
    if (ran.checkpointing && !ran.tiledMlp && !step.moe.moe()) {
        Setup next = ran;
        next.tiledMlp = true;
        gpuRemedy(
            makeRemedy("tiled-mlp", "Run the MLPs through DeepSpeed's TiledMLP", nullptr, "", tiledMlpCode(),
                       "Each MLP runs shard by shard along the sequence and is recomputed in backward: one shard's "
                       "intermediates instead of the sequence's, for one more MLP forward per step.",
                       "alst-tiled-mlp"),
            next);
    }
    if (ran.checkpointing && !ran.checkpointOffload) {
        Setup next = ran;
        next.checkpointOffload = true;
        const StepPrediction after = predict(job, next);
        if (after.fitsCpu)
            gpuRemedy(makeRemedy("checkpoint-offload", "Offload the checkpointed layer inputs to host memory (ALST)",
                                 nullptr, "", checkpointOffloadCode(),
                                 "The GPU keeps one layer's input; the host holds the rest, "
                                     + gib(static_cast<double>(after.offloadedCheckpointsPerNode))
                                     + " of pinned memory per node. The copies block: each step waits for them.",
                                 "alst-checkpoint-offload"),
                      next);
    }
}

void RemedyPlanner::modelStateRemedies()
{
    if (job.limit.maxStage == 0) {
        warn(job.limit.rule->code,
             "No ZeRO stage or offload is suggested: " + job.limitReason() + " Offload needs ZeRO as well.",
             job.limit.rule->source);
        return;
    }
    const int top = std::min(3, job.limit.maxStage);
    for (int target = ran.stage + 1; target <= top; ++target) {
        Setup next = ran;
        next.stage = target;
        if (gpuTotal(job, next) >= ranPrediction.gpu.total)
            continue; // e.g. one data-parallel GPU: partitioning saves nothing
        const bool third = target == 3;
        // With adapters, stages 1 and 2 partition only what requires gradients; the frozen base moves only at 3.
        const bool frozen = job.step.frozenParams > 0;
        const std::string cost = !third
            ? "No extra communication: stages 1 and 2 move the same 2Ψ elements per step as "
              "plain data parallelism."
            : frozen ? "Stage 3 partitions the frozen base too (stages 1 and 2 split only the trainable parameters, "
                       "leaving its "
                + gib(static_cast<double>(job.step.frozenBytes))
                + " whole on every GPU) and gathers it for every micro-step's forward and backward pass."
                     : "Stage 3 moves 3Ψ elements per step instead of 2Ψ: 1.5× the communication of stages 0–2.";
        gpuRemedy(makeRemedy("zero-stage-" + num(target), "ZeRO stage " + num(ran.stage) + " → " + num(target),
                             oj{{"zero_optimization", {{"stage", target}}}}, "", "", cost,
                             third ? (frozen ? "ds-frozen-stage3" : "zero-paper-comm") : "zero-paper-comm-nocost"),
                  next);
    }
    if (top < 3)
        warn(job.limit.rule->code, "ZeRO stages above " + num(top) + " are not suggested: " + job.limitReason(),
             job.limit.rule->source);
    offloadRemedies();
}

void RemedyPlanner::offloadRemedies()
{
    const double perGpuTraffic = 4.0 * static_cast<double>(job.params) / static_cast<double>(job.dataParallel);
    // Host RAM decides between CPU and NVMe: NVMe only at stage 3 with a configured drive (deepspeed-facts §2.6).
    auto placeOn = [&](Setup& next) {
        if (offloadHostBytes(job, next) <= job.cpuBytes)
            return;
        if (job.nvmeReady && next.stage == 3) {
            next.offloadOptimizer = "nvme";
            if (offloadHostBytes(job, next) > job.cpuBytes && next.offloadParam != "none")
                next.offloadParam = "nvme";
            return;
        }
        if (std::none_of(adv.checks.begin(), adv.checks.end(),
                         [](const Check& c) { return c.code == "oom-offload-exceeds-host-ram"; }))
            warn("oom-offload-exceeds-host-ram",
                 "CPU offload needs about " + gib(offloadHostBytes(job, next)) + " of host RAM per node, more than the "
                     + gib(job.cpuBytes)
                     + " of hardware.cpu_memory_gib. NVMe offload would avoid it, but needs stage 3 "
                       "and hardware.nvme = nvme with hardware.nvme_path.",
                 "ds-offload-stages");
    };
    if (ran.offloadOptimizer == "none") {
        Setup next = ran;
        if (ran.stage == 0) // offload needs ZeRO: stage 2, ZeRO-Offload's, which adds no communication
            next.stage = std::min(2, job.limit.maxStage);
        next.offloadOptimizer = "cpu";
        placeOn(next);
        oj zero{{"stage", next.stage}, {"offload_optimizer", offloadBlock(next.offloadOptimizer)}};
        gpuRemedy(
            makeRemedy("offload-optimizer",
                       "Offload the optimizer states to " + deviceName(next.offloadOptimizer)
                           + stageChange(ran.stage, next.stage),
                       oj{{"zero_optimization", zero}}, "", "",
                       "Moves about " + gib(perGpuTraffic)
                           + " per GPU per step over the host link (16-bit gradients out, updated "
                             "parameters back) and runs the optimizer step on the CPU (DeepSpeedCPUAdam); needs about "
                           + gib(offloadHostBytes(job, next)) + " of host RAM per node."
                           + (next.offloadOptimizer == "nvme"
                                  ? " NVMe offload also wears the SSD with heavy write traffic."
                                  : ""),
                       "zero-offload-paper"),
            next);
    }
    if (ran.offloadParam != "none")
        return;
    if (job.limit.maxStage < 3) {
        adv.checks.push_back(
            {CheckLevel::Warn, "oom-suggestion-needs-stage-3",
             "Parameter offload is not suggested: offload_param is valid only with stage 3, which these "
             "answers do not allow ("
                 + job.limitReason() + ")",
             "ds-offload-param-stage3"});
        return;
    }
    Setup next = ran; // everything offloaded: the parameters and, where they are not already, the optimizer states
    next.stage = 3;
    next.offloadParam = "cpu";
    if (next.offloadOptimizer == "none")
        next.offloadOptimizer = "cpu";
    placeOn(next);
    const std::string movedOptimizer = next.offloadOptimizer != ran.offloadOptimizer
        ? ", the optimizer states to " + deviceName(next.offloadOptimizer)
        : "";
    gpuRemedy(makeRemedy("offload-param",
                         "Offload the parameters to " + deviceName(next.offloadParam) + movedOptimizer
                             + stageChange(ran.stage, 3),
                         oj{{"zero_optimization",
                             {{"stage", 3},
                              {"offload_optimizer", offloadBlock(next.offloadOptimizer)},
                              {"offload_param", offloadBlock(next.offloadParam)}}}},
                         "", "",
                         "Fetches about " + gib(perGpuTraffic)
                             + " per GPU per step over the host link (parameters for the forward and the "
                               "backward pass); offload_param is valid only with stage 3.",
                         "ds-offload-param-stage3"),
              next);
}

} // namespace dsw::memory
