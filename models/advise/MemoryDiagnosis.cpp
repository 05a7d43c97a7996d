// Causes and steps per kind of message; see MemoryDiagnosis.h. The fragmentation threshold is the wizard's own
// (no source gives one), and the texts say so where it is shown.
#include "advise/MemoryDiagnosis.h"

#include "knowledge/SourceCatalog.h"
#include "util/Count.h"

namespace dsw::memory {

namespace {

using oj = nlohmann::ordered_json;
// Reserved-but-unallocated memory above this share of the GPU counts as fragmentation.
constexpr double kFragmentationShare = 0.20;

std::string gib(double bytes) { return formatGiB(bytes); }
std::string num(std::int64_t v) { return std::to_string(v); }

// The allocator setting the message itself names; messages without a hint get the one of their PyTorch generation.
Remedy allocatorStep(const OomReport& r, std::optional<std::int64_t> gap)
{
    const std::string own = r.allocatorHint.empty() ? "" : " (the message's own hint)";
    if (r.allocatorHint == "max_split_size_mb" || (r.allocatorHint.empty() && r.format == OomFormat::Old))
        return makeRemedy(
            "allocator-max-split", "Stop PyTorch's allocator from splitting large blocks" + own, nullptr,
            "PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:512", "",
            "PyTorch's docs: " + quoteExcerpt("pytorch-max-split", "Performance cost")
                + " 512 MB is the wizard's starting value, not from a source: tune it with "
                  "torch.cuda.memory_summary(). Newer PyTorch versions print expandable_segments:True as their "
                  "hint instead.",
            "pytorch-max-split", gap);
    return makeRemedy("allocator-expandable-segments",
                      "Let PyTorch's allocator grow segments instead of splitting them" + own, nullptr,
                      "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True", "",
                      "No extra compute or communication; PyTorch's docs mark the option experimental. It recovers at "
                      "most the reserved-but-unallocated memory.",
                      "pytorch-cuda-alloc", gap);
}

// Stage 3 gathers each module's 16-bit weights to GPU 0 and copies them to rank 0's CPU when saving.
Remedy gatherOffStep(std::int64_t saving)
{
    return makeRemedy(
        "gather-off",
        "Do not gather 16-bit weights when saving; convert the ZeRO checkpoint offline with zero_to_fp32.py",
        oj{{"zero_optimization", {{"stage3_gather_16bit_weights_on_model_save", false}}}}, "",
        "engine.save_checkpoint(save_dir)  # partitioned; DeepSpeed copies zero_to_fp32.py next to it\n"
        "# later, on a machine with enough RAM:\n# python save_dir/zero_to_fp32.py save_dir output_dir\n",
        "No 16-bit model file is written during training: the ZeRO checkpoint is consolidated later, offline.",
        "ds-zero3-save", saving);
}

constexpr const char* kZeroInitCode =
    "import deepspeed\nwith deepspeed.zero.Init(config_dict_or_path=\"ds_config.json\"):\n"
    "    model = MyModel(...)\n\n# Hugging Face: create TrainingArguments(deepspeed=...) or "
    "HfDeepSpeedConfig(ds_config)\n# with the ZeRO-3 config before from_pretrained()\n";

} // namespace

std::string setupLabel(const Setup& s)
{
    std::string label = "ZeRO-" + num(s.stage);
    if (s.offloadOptimizer != "none")
        label += ", optimizer on " + deviceName(s.offloadOptimizer);
    if (s.offloadParam != "none")
        label += ", parameters on " + deviceName(s.offloadParam);
    return label + ", activation checkpointing " + (s.checkpointing ? "on" : "off") + ", micro-batch " + num(s.micro)
        + " × accumulation " + num(s.accumulation) + ", " + std::string(toString(s.attention)) + " attention, "
        + std::string(toString(s.loss)) + " loss"
        + (s.sequenceParallel > 1 ? ", Ulysses SP " + num(s.sequenceParallel) : std::string())
        + (s.tiledMlp ? ", tiled MLP" : "") + (s.checkpointing && s.checkpointOffload ? ", checkpoints offloaded" : "");
}

std::string causeLabel(const std::string& id)
{
    static const std::pair<const char*, const char*> labels[] = {
        {"activations", "activations"},
        {"model-states", "model states"},
        {"optimizer-states", "the optimizer states"},
        {"fragmentation", "fragmentation in PyTorch's cache"},
        {"single-allocation", "one allocation larger than the GPU"},
        {"model-load", "each GPU loading the whole model"},
        {"checkpoint-save-gather", "gathering 16-bit weights to save"},
        {"host-ram-load", "every process building the full model in host RAM"},
        {"host-ram-offload", "offloaded states filling host RAM"},
        {"host-ram-save", "the 16-bit model gathered on rank 0 to save"},
        {"host-ram-unexplained", "not explained by the estimates"},
        {"batch-config", "inconsistent batch keys"}};
    for (const auto& [key, label] : labels)
        if (id == key)
            return label;
    return id;
}

Cause diagnoseCuda(const OomReport& r, RemedyPlanner& p)
{
    const FailedJob& j = p.job;
    const double capacity = j.gpuCapacity;
    std::optional<std::int64_t> gap = r.reservedUnallocated;
    if (!gap && r.reserved && r.allocated)
        gap = *r.reserved - *r.allocated;
    const bool fragmented =
        gap && *gap > 0 && (*gap > kFragmentationShare * capacity || (r.triedToAllocate && *gap >= *r.triedToAllocate));
    const GpuBytes& predicted = p.ranPrediction.gpu;
    const std::int64_t states = addSat(predicted.params, predicted.grads, predicted.optimizer);
    const std::int64_t acts = predicted.activations;
    const std::string estimates = "For the setup it ran (" + setupLabel(p.ran)
        + "), the step model predicts model states of " + gib(states) + ", buffers of " + gib(predicted.buffers)
        + ", activations of " + gib(acts) + " and " + gib(predicted.other)
        + " of CUDA context, NCCL and fragmentation per GPU, " + gib(predicted.total) + " of " + gib(capacity) + ".";
    const std::string& phase = j.phase;
    Cause c;
    if (r.triedToAllocate && *r.triedToAllocate > capacity) {
        c = {"single-allocation",
             "One allocation of " + gib(*r.triedToAllocate) + " is larger than the whole GPU (" + gib(capacity)
                 + "): no ZeRO stage or offload changes the size of one tensor; it shrinks only with "
                   "the micro-batch or the sequence length.",
             "pytorch-oom-message"};
        p.adv.checks.push_back({CheckLevel::Fail, "oom-single-allocation-exceeds-gpu", c.text, "pytorch-oom-message"});
    } else if (phase == "model-load") {
        c = {"model-load",
             "The GPU ran out while the model was loaded: without deepspeed.zero.Init each GPU first holds "
             "the whole model, and its 16-bit parameters alone are 2Ψ = "
                 + gib(2.0 * j.params)
                 + " per GPU before "
                   "ZeRO partitions them.",
             "zero-paper"};
    } else if (phase == "checkpoint-save" && p.ran.stage == 3) {
        c = {"checkpoint-save-gather",
             "At stage 3, saving with stage3_gather_16bit_weights_on_model_save gathers each "
             "module's partitioned 16-bit weights on GPU 0, one module at a time (the largest: 2 × "
                 + formatCount(j.largest) + " = " + gib(2.0 * j.largest) + "), and copies them to rank 0's CPU.",
             "ds-zero3-save"};
    } else if (phase == "forward" || phase == "backward") {
        c = {"activations", "It failed in the " + phase + " pass, where the activations live. " + estimates,
             "korthikanti"};
    } else if (phase == "optimizer-step") {
        c = {"optimizer-states",
             "It failed in the optimizer step, which touches the optimizer states (12 bytes per "
             "parameter for mixed-precision Adam, partitioned from stage 1). "
                 + estimates,
             "zero-paper"};
    } else if (fragmented) {
        c = {"fragmentation",
             gib(static_cast<double>(*gap)) + " is reserved by PyTorch but unallocated, "
                 + (*gap > kFragmentationShare * capacity ? "more than 20% of the GPU"
                                                          : "more than the failed allocation")
                 + ": memory is free inside PyTorch's cache but in pieces too small for the request. The ZeRO paper "
                   "reports "
                 + quoteExcerpt("zero-paper-fragmentation", "out of memory", "extreme cases") + ". " + estimates,
             "zero-paper-fragmentation"};
    } else if (acts >= states) {
        c = {"activations", "Activations are the larger part. " + estimates, "korthikanti"};
    } else {
        c = {"model-states", "Model states (parameters, gradients, optimizer states) are the larger part. " + estimates,
             "zero-paper"};
    }
    if (fragmented) {
        p.warn("oom-fragmentation",
               gib(static_cast<double>(*gap))
                   + " was reserved by PyTorch but unallocated when the allocation failed (the "
                     "20% share is the wizard's own threshold). The message itself suggests "
                   + (r.allocatorHint.empty() ? std::string("an allocator setting") : r.allocatorHint)
                   + "; the ZeRO paper reports "
                   + quoteExcerpt("zero-paper-fragmentation", "out of memory", "extreme cases") + ".",
               "zero-paper-fragmentation");
        p.add(allocatorStep(r, *gap));
    }
    // The first-line fixes: kernels that hold less, smaller buckets, and the allocator's setting.
    const bool training = c.id != "model-load" && c.id != "checkpoint-save-gather";
    if (training) {
        p.kernelRemedies(c.id != "single-allocation");
        if (!fragmented && c.id != "single-allocation")
            p.add(allocatorStep(r, gap && *gap > 0 ? *gap : std::optional<std::int64_t>()));
    }
    if (c.id == "model-load") {
        if (j.limit.maxStage < 3) {
            p.adv.checks.push_back({CheckLevel::Warn, "oom-suggestion-needs-stage-3",
                                    "deepspeed.zero.Init is not suggested: it partitions the model as it is built only "
                                    "at stage 3, which these answers do not allow ("
                                        + j.limitReason() + ")",
                                    "ds-zero-init"});
        } else {
            const std::int64_t whole = 2 * j.params;
            Remedy init = makeRemedy(
                "zero-init", "Build the model under deepspeed.zero.Init" + stageChange(p.ran.stage, 3),
                oj{{"zero_optimization", {{"stage", 3}}}}, "", kZeroInitCode,
                "Each GPU holds only its share of the parameters from the start (2Ψ/Nd instead of 2Ψ). "
                    + std::string(p.ran.stage < 3 ? "Stage 3 moves 1.5× the communication of stages 0–2." : ""),
                "zero-paper", whole - whole / j.dataParallel);
            Setup atStage3 = p.ran;
            atStage3.stage = 3;
            init.setupAfter = atStage3;
            init.after = predict(j, atStage3); // the step's peak once training runs at stage 3
            p.add(std::move(init));
        }
        p.modelStateRemedies();
    } else if (c.id == "checkpoint-save-gather") {
        p.add(gatherOffStep(2 * j.largest));
    } else { // cheapest first, whatever the cause: the batch and checkpointing before ZeRO stages and offload
        p.activationRemedies();
        if (c.id != "single-allocation")
            p.modelStateRemedies();
    }
    // Only memory really held by others: the listed entries other than this process's own, and, where the message
    // gives them, total − free − this process agreeing (both above kOomSizeTolerance).
    const bool othersListed = r.otherProcessesInUse && *r.otherProcessesInUse > kOomSizeTolerance;
    const bool arithmeticAgrees = !(r.totalCapacity && r.free && r.processInUse)
        || *r.totalCapacity - *r.free - *r.processInUse > kOomSizeTolerance;
    if (othersListed && arithmeticAgrees)
        p.warn("oom-other-processes",
               "Other processes hold " + gib(static_cast<double>(*r.otherProcessesInUse))
                   + " on this GPU (the message's \"Process … has … memory in use\" entries other than this "
                     "process's own)"
                   + (r.processInUse ? ", besides this process's " + gib(static_cast<double>(*r.processInUse)) : "")
                   + ".",
               "pytorch-oom-message");
    return c;
}

Cause diagnoseHostKill(RemedyPlanner& p)
{
    const FailedJob& j = p.job;
    const std::string& phase = j.phase;
    const Setup& ran = p.ran;
    const bool offloading = ran.offloadOptimizer != "none" || ran.offloadParam != "none";
    const bool training = phase == "forward" || phase == "backward" || phase == "optimizer-step";
    const std::string ram = gib(j.cpuBytes) + " of host RAM per node (hardware.cpu_memory_gib)";
    if (phase == "checkpoint-save" && ran.stage == 3) {
        p.add(gatherOffStep(2 * j.params));
        return {"host-ram-save",
                "At stage 3, saving with stage3_gather_16bit_weights_on_model_save builds the whole 16-bit "
                "model in rank 0's host memory: 2Ψ = "
                    + gib(2.0 * j.params) + ", against " + ram + ".",
                "ds-zero3-save"};
    }
    const std::int64_t offloadNeed = offloadHostBytes(j, ran);
    if (offloading && (training || (phase == "unknown" && offloadNeed > j.cpuBytes))) {
        Remedy pin = makeRemedy(
            "pin-memory-off", "Turn off pinned memory for the offloaded states", nullptr, "", "",
            "Pinned (page-locked) host memory makes the copies between GPU and CPU faster; without it they are slower. "
            "No sourced estimate of the memory it saves.",
            "ds-pin-memory");
        oj zero = oj::object();
        if (ran.offloadOptimizer != "none")
            zero["offload_optimizer"] = {{"pin_memory", false}};
        if (ran.offloadParam != "none")
            zero["offload_param"] = {{"pin_memory", false}};
        pin.config = oj{{"zero_optimization", zero}};
        p.add(pin);
        if (ran.offloadOptimizer == "cpu" && j.nvmeReady && j.limit.maxStage >= 3) {
            Setup next = ran;
            next.stage = 3;
            next.offloadOptimizer = "nvme";
            Remedy nvme =
                makeRemedy("offload-optimizer-nvme",
                           "Offload the optimizer states to NVMe instead of host RAM" + stageChange(ran.stage, 3),
                           oj{{"zero_optimization", {{"stage", 3}, {"offload_optimizer", p.offloadBlock("nvme")}}}}, "",
                           "", "Slower than CPU offload, and the heavy write traffic wears the SSD.",
                           "ds-offload-stages", offloadHostBytes(j, ran) - offloadHostBytes(j, next));
            nvme.setupAfter = next;
            nvme.after = predict(j, next);
            p.add(std::move(nvme));
        } else if (ran.offloadOptimizer == "cpu") {
            p.warn("oom-nvme-unavailable",
                   "NVMe offload would move the optimizer states out of host RAM, but it needs "
                   "stage 3 and hardware.nvme = nvme with hardware.nvme_path.",
                   "ds-offload-stages");
        }
        return {"host-ram-offload",
                "The offloaded states need about " + gib(static_cast<double>(offloadNeed))
                    + " per node with "
                      "this placement ("
                    + setupLabel(ran) + "), against " + ram + "; pinned buffers count against it too.",
                "ds-pin-memory"};
    }
    if (training || phase == "checkpoint-save") {
        p.warn("oom-host-kill-unexplained",
               "The process was killed during " + phase
                   + " without offload; the wizard's "
                     "host-memory estimates do not cover that phase, so no step is suggested.",
               "");
        return {"host-ram-unexplained", "Host RAM ran out during " + phase + "; the wizard has no estimate for it.",
                ""};
    }
    // Model load: every process builds the fp32 model (DeepSpeed's estimator, zero_init=0 column).
    const std::int64_t full = loadHostBytes(j, j.params, 4);
    Cause c{"host-ram-load",
            "While the model is built, each of the " + num(j.gpusPerNode)
                + " processes on a node holds the "
                  "whole fp32 model: Ψ × 4 bytes × "
                + num(j.gpusPerNode) + " × 1.5 = " + gib(static_cast<double>(full))
                + " per node (DeepSpeed's estimator without zero.Init), against " + ram + "."
                + (full <= j.cpuBytes ? " By this estimate it fits; memory the estimate does not count pushed it over."
                                      : ""),
            "ds-estimators"};
    // Each step alone on the failed run, built in fp32 without zero.Init.
    auto sixteenBit = [&] {
        p.add(makeRemedy(
            "load-16-bit", "Load the weights in 16-bit instead of fp32", nullptr, "",
            "model = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.bfloat16, low_cpu_mem_usage=True)\n",
            "PyTorch builds models in fp32 by default (4 bytes); in 16-bit each parameter takes 2. DeepSpeed's "
            "fp32 master weights are then made from 16-bit values.",
            "ds-memory-docs-fp32", loadHostBytes(j, j.params, 4) - loadHostBytes(j, j.params, 2)));
    };
    auto partitioned = [&] {
        if (j.limit.maxStage < 3) {
            p.adv.checks.push_back(
                {CheckLevel::Warn, "oom-suggestion-needs-stage-3",
                 "deepspeed.zero.Init is not suggested: it needs stage 3, which these answers do not "
                 "allow ("
                     + j.limitReason() + ")",
                 "ds-zero-init"});
            return;
        }
        p.add(makeRemedy("zero-init", "Build the model under deepspeed.zero.Init" + stageChange(ran.stage, 3),
                         oj{{"zero_optimization", {{"stage", 3}}}}, "", kZeroInitCode,
                         "Each process then holds only the largest layer whole while the model is built. "
                             + std::string(ran.stage < 3 ? "Stage 3 moves 1.5× the communication of stages 0–2."
                                                         : "No run-time cost: the setup is already stage 3."),
                         "ds-estimators", loadHostBytes(j, j.params, 4) - loadHostBytes(j, j.largest, 4)));
    };
    if (ran.stage == 3) {
        partitioned();
        sixteenBit();
    } else {
        sixteenBit();
        partitioned();
    }
    return c;
}

Cause diagnoseBatch(const OomReport& r, RemedyPlanner& p, const Answers& a)
{
    const std::string source = "ds-batch-assert";
    if (!r.batchTrain) {
        p.adv.checks.push_back({CheckLevel::Fail, "oom-batch-identity",
                                "DeepSpeed's batch assertion failed; its numbers "
                                "were not found in the message.",
                                source});
        return {"batch-config", "train_batch_size ≠ micro-batch × gradient accumulation × world size.", "ds-batch"};
    }
    const std::int64_t T = *r.batchTrain, m = *r.batchMicro, g = *r.batchAccumulation, w = *r.batchWorld;
    const std::int64_t product = m * g * w;
    const std::string identity = num(T) + " ≠ " + num(m) + " × " + num(g) + " × " + num(w) + " = " + num(product);
    p.adv.checks.push_back({CheckLevel::Fail, "oom-batch-identity",
                            "train_batch_size " + identity + " (micro-batch × gradient accumulation × world size).",
                            source});
    if (w != a.dataParallelSize())
        p.warn("oom-batch-world-size-differs",
               "The job ran with world size " + num(w)
                   + "; the answers give a data-parallel "
                     "size of "
                   + num(a.dataParallelSize()) + ": the config was written for a different number of GPUs.",
               "ds-batch");
    p.add(makeRemedy(
        "batch-train-size",
        "Set train_batch_size to " + num(m) + " × " + num(g) + " × " + num(w) + " = " + num(product),
        oj{{"train_batch_size", product}, {"train_micro_batch_size_per_gpu", m}, {"gradient_accumulation_steps", g}},
        "", "",
        "The global batch becomes " + num(product) + " samples instead of " + num(T)
            + "; a learning-rate schedule tuned for " + num(T) + " may need adjusting.",
        "ds-batch"));
    if (m > 0 && w > 0 && T % (m * w) == 0 && T / (m * w) != g)
        p.add(makeRemedy("batch-accumulation",
                         "Keep train_batch_size " + num(T) + " with gradient accumulation " + num(T) + " / (" + num(m)
                             + " × " + num(w) + ") = " + num(T / (m * w)),
                         oj{{"train_batch_size", T},
                            {"train_micro_batch_size_per_gpu", m},
                            {"gradient_accumulation_steps", T / (m * w)}},
                         "", "", "None: the global batch stays " + num(T) + ".", "ds-batch"));
    p.add(makeRemedy("batch-infer", "Leave train_batch_size out and let DeepSpeed infer it",
                     oj{{"train_micro_batch_size_per_gpu", m}, {"gradient_accumulation_steps", g}}, "", "",
                     "The global batch then follows the GPU count (" + num(m) + " × " + num(g)
                         + " × GPUs), so it changes "
                           "whenever the world size does.",
                     "ds-batch-infer"));
    return {"batch-config",
            "DeepSpeed checks train_batch_size = micro-batch × gradient accumulation × world size before "
            "training starts: "
                + identity + ". Not a memory problem.",
            "ds-batch"};
}

} // namespace dsw::memory
