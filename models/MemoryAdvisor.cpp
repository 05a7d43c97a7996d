// Out-of-memory diagnosis: the pasted message is parsed (OomMessage.h), the job is taken to be what the answers
// give (the ZeRO workflow's placement, micro-batch, accumulation), the likely cause is named from the message's
// numbers, memory.phase and the estimates, and a step-by-step plan (MemoryPlan.h) lists changes with their savings.
#include "MemoryAdvisor.h"

#include "Count.h"
#include "MemoryPlan.h"
#include "OomMessage.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace dsw {

namespace {

using namespace memory;
using oj = nlohmann::ordered_json;
constexpr double kGiB = 1073741824.0;
// The wizard's own thresholds (no source gives one): reserved-but-unallocated above this share of the GPU
// counts as fragmentation, and a GPU size this far from the answers' is reported as a different GPU.
constexpr double kFragmentationShare = 0.20;
constexpr double kCapacityMismatch = 0.10;

std::string gib(double bytes)
{
    return formatGiB(bytes);
}
std::string num(std::int64_t v)
{
    return std::to_string(v);
}
oj orNull(const std::optional<std::int64_t>& v)
{
    return v ? oj(*v) : oj(nullptr);
}

struct Cause {
    std::string id, text, source;
};

std::string setupLabel(const Setup& s)
{
    std::string label = "ZeRO-" + num(s.stage);
    if (s.offloadOptimizer != "none")
        label += ", optimizer on " + deviceName(s.offloadOptimizer);
    if (s.offloadParam != "none")
        label += ", parameters on " + deviceName(s.offloadParam);
    return label + ", activation checkpointing " + (s.checkpointing ? "on" : "off") + ", micro-batch " + num(s.micro);
}

Step allocatorStep(const OomReport& r, std::int64_t gap)
{
    if (r.allocatorHint == "max_split_size_mb" && r.format == OomFormat::Old)
        return makeStep(
            "allocator-max-split", "Stop PyTorch's allocator from splitting large blocks (the message's own hint)",
            nullptr, "PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:512", "",
            "Performance cost can range from 'zero' to 'substantial' depending on allocation patterns. 512 MB is "
            "the wizard's starting value, not from a source: tune it with torch.cuda.memory_summary(). Newer PyTorch "
            "versions print expandable_segments:True as their hint instead.",
            "pytorch-max-split", gap);
    return makeStep(
        "allocator-expandable-segments",
        "Let PyTorch's allocator grow segments instead of splitting them (the message's own hint)", nullptr,
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True", "",
        "No extra compute or communication; PyTorch's docs mark the option experimental. It recovers at most the "
        "reserved-but-unallocated memory.",
        "pytorch-cuda-alloc", gap);
}

// Stage 3 gathers each module's 16-bit weights to GPU 0 and copies them to rank 0's CPU when saving.
Step gatherOffStep(std::int64_t saving)
{
    return makeStep(
        "gather-off",
        "Do not gather 16-bit weights when saving; convert the ZeRO checkpoint offline with zero_to_fp32.py",
        oj{{"zero_optimization", {{"stage3_gather_16bit_weights_on_model_save", false}}}}, "",
        "engine.save_checkpoint(save_dir)  # partitioned; DeepSpeed copies zero_to_fp32.py next to it\n"
        "# later, on a machine with enough RAM:\n# python save_dir/zero_to_fp32.py save_dir output_dir\n",
        "No 16-bit model file is written during training: the ZeRO checkpoint is consolidated later, offline.",
        "ds-zero3-save", saving);
}

const char* kZeroInitCode = "import deepspeed\nwith deepspeed.zero.Init(config_dict_or_path=\"ds_config.json\"):\n"
                            "    model = MyModel(...)\n\n# Hugging Face: create TrainingArguments(deepspeed=...) or "
                            "HfDeepSpeedConfig(ds_config)\n# with the ZeRO-3 config before from_pretrained()\n";

Cause cudaDiagnosis(const OomReport& r, Planner& p)
{
    const Job& j = p.job;
    const double capacity = j.gpuCapacity;
    std::optional<std::int64_t> gap = r.reservedUnallocated;
    if (!gap && r.reserved && r.allocated)
        gap = *r.reserved - *r.allocated;
    const bool fragmented = gap && *gap > 0
        && (*gap > kFragmentationShare * capacity || (r.triedToAllocate && *gap >= *r.triedToAllocate));
    const std::int64_t states = gpuModelStates(j, p.setup), acts = activations(j, p.setup);
    std::string estimates = "Assuming the job ran what the answers give (" + setupLabel(p.setup)
        + "), the wizard estimates "
          "model states of "
        + gib(states) + " and activations of " + gib(acts) + " per GPU, of " + gib(capacity) + ".";
    if (r.allocated && states + acts < *r.allocated) // the estimators leave out temporaries (deepspeed-facts §1.2)
        estimates += " Together they are below the " + gib(static_cast<double>(*r.allocated))
            + " PyTorch had allocated: "
              "temporary buffers and communication buckets, which the estimates do not count, make up the rest.";
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
    } else if (phase == "checkpoint-save" && p.setup.stage == 3) {
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
                   "reports \"out of memory issue with over 30% of memory still available in some extreme cases\". "
                 + estimates,
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
                   + "; the ZeRO paper reports \"out of memory issue with over 30% of memory still available in some "
                     "extreme cases\".",
               "zero-paper-fragmentation");
        p.steps.push_back(allocatorStep(r, *gap));
    }
    if (c.id == "model-load") {
        if (j.limit.maxStage < 3) {
            p.adv.checks.push_back({CheckLevel::Warn, "oom-suggestion-needs-stage-3",
                                    "deepspeed.zero.Init is not suggested: it partitions the model as it is built only "
                                    "at stage 3, which these answers do not allow ("
                                        + j.limit.reason + ")",
                                    "ds-zero-init"});
        } else {
            const std::int64_t whole = 2 * j.params;
            p.steps.push_back(makeStep(
                "zero-init",
                "Build the model under deepspeed.zero.Init" + std::string(p.setup.stage < 3 ? " (stage 3)" : ""),
                oj{{"zero_optimization", {{"stage", 3}}}}, "", kZeroInitCode,
                "Each GPU holds only its share of the parameters from the start (2Ψ/Nd instead of 2Ψ). "
                    + std::string(p.setup.stage < 3 ? "Stage 3 moves 1.5× the communication of stages 0–2." : ""),
                "zero-paper", whole - whole / j.dataParallel));
            p.setup.stage = 3;
        }
        p.modelStateSteps();
    } else if (c.id == "checkpoint-save-gather") {
        p.steps.push_back(gatherOffStep(2 * j.largest));
    } else if (c.id == "activations" || c.id == "single-allocation" || (c.id == "fragmentation" && acts >= states)) {
        p.activationSteps();
        if (c.id != "single-allocation")
            p.modelStateSteps();
    } else {
        p.modelStateSteps();
        p.activationSteps();
    }
    if (r.otherProcessesInUse && r.processInUse)
        p.warn("oom-other-processes",
               "Other processes hold " + gib(static_cast<double>(*r.otherProcessesInUse))
                   + " on this GPU (\"Process … has … "
                     "memory in use\"), besides this process's "
                   + gib(static_cast<double>(*r.processInUse)) + ".",
               "pytorch-oom-message");
    return c;
}

Cause hostDiagnosis(Planner& p)
{
    const Job& j = p.job;
    const std::string& phase = j.phase;
    const Setup ran = p.setup; // as the job ran, before any step
    const bool offloading = ran.offloadOptimizer != "none" || ran.offloadParam != "none";
    const bool training = phase == "forward" || phase == "backward" || phase == "optimizer-step";
    const std::string ram = gib(j.cpuBytes) + " of host RAM per node (hardware.cpu_memory_gib)";
    if (phase == "checkpoint-save" && p.setup.stage == 3) {
        p.steps.push_back(gatherOffStep(2 * j.params));
        return {"host-ram-save",
                "At stage 3, saving with stage3_gather_16bit_weights_on_model_save builds the whole 16-bit "
                "model in rank 0's host memory: 2Ψ = "
                    + gib(2.0 * j.params) + ", against " + ram + ".",
                "ds-zero3-save"};
    }
    const std::int64_t offloadNeed = offloadHostBytes(j, p.setup);
    if (offloading && (training || (phase == "unknown" && offloadNeed > j.cpuBytes))) {
        Step pin = makeStep(
            "pin-memory-off", "Turn off pinned memory for the offloaded states", nullptr, "", "",
            "Pinned (page-locked) host memory makes the copies between GPU and CPU faster; without it they are slower. "
            "No sourced estimate of the memory it saves.",
            "ds-pin-memory");
        oj zero = oj::object();
        if (p.setup.offloadOptimizer != "none")
            zero["offload_optimizer"] = {{"pin_memory", false}};
        if (p.setup.offloadParam != "none")
            zero["offload_param"] = {{"pin_memory", false}};
        pin.config = oj{{"zero_optimization", zero}};
        p.steps.push_back(pin);
        if (p.setup.offloadOptimizer == "cpu" && j.nvmeReady && j.limit.maxStage >= 3) {
            Setup next = p.setup;
            next.stage = 3;
            next.offloadOptimizer = "nvme";
            p.steps.push_back(
                makeStep("offload-optimizer-nvme", "Offload the optimizer states to NVMe instead of host RAM",
                         oj{{"zero_optimization", {{"stage", 3}, {"offload_optimizer", p.offloadBlock("nvme")}}}}, "",
                         "", "Slower than CPU offload, and the heavy write traffic wears the SSD.", "ds-offload-stages",
                         offloadHostBytes(j, p.setup) - offloadHostBytes(j, next)));
            p.setup = next;
        } else if (p.setup.offloadOptimizer == "cpu") {
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
    bool zeroInit = false;
    int bytes = 4;
    auto sixteenBit = [&] {
        const std::int64_t count = zeroInit ? j.largest : j.params;
        p.steps.push_back(makeStep(
            "load-16-bit", "Load the weights in 16-bit instead of fp32", nullptr, "",
            "model = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.bfloat16, low_cpu_mem_usage=True)\n",
            "PyTorch builds models in fp32 by default (4 bytes); in 16-bit each parameter takes 2. DeepSpeed's "
            "fp32 master weights are then made from 16-bit values.",
            "ds-memory-docs-fp32", loadHostBytes(j, count, 4) - loadHostBytes(j, count, 2)));
        bytes = 2;
    };
    auto partitioned = [&] {
        if (j.limit.maxStage < 3) {
            p.adv.checks.push_back(
                {CheckLevel::Warn, "oom-suggestion-needs-stage-3",
                 "deepspeed.zero.Init is not suggested: it needs stage 3, which these answers do not "
                 "allow ("
                     + j.limit.reason + ")",
                 "ds-zero-init"});
            return;
        }
        p.steps.push_back(
            makeStep("zero-init",
                     "Build the model under deepspeed.zero.Init" + std::string(p.setup.stage < 3 ? " (stage 3)" : ""),
                     oj{{"zero_optimization", {{"stage", 3}}}}, "", kZeroInitCode,
                     "Each process then holds only the largest layer whole while the model is built. "
                         + std::string(p.setup.stage < 3 ? "Stage 3 moves 1.5× the communication of stages 0–2."
                                                         : "No run-time cost: the setup is already stage 3."),
                     "ds-estimators", loadHostBytes(j, j.params, bytes) - loadHostBytes(j, j.largest, bytes)));
        zeroInit = true;
        p.setup.stage = 3;
    };
    if (p.setup.stage == 3) {
        partitioned();
        sixteenBit();
    } else {
        sixteenBit();
        partitioned();
    }
    return c;
}

Cause batchDiagnosis(const OomReport& r, Planner& p, const Answers& a)
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
    p.steps.push_back(makeStep(
        "batch-train-size",
        "Set train_batch_size to " + num(m) + " × " + num(g) + " × " + num(w) + " = " + num(product),
        oj{{"train_batch_size", product}, {"train_micro_batch_size_per_gpu", m}, {"gradient_accumulation_steps", g}},
        "", "",
        "The global batch becomes " + num(product) + " samples instead of " + num(T)
            + "; a learning-rate schedule tuned for " + num(T) + " may need adjusting.",
        "ds-batch"));
    if (m > 0 && w > 0 && T % (m * w) == 0 && T / (m * w) != g)
        p.steps.push_back(makeStep("batch-accumulation",
                                   "Keep train_batch_size " + num(T) + " with gradient accumulation " + num(T) + " / ("
                                       + num(m) + " × " + num(w) + ") = " + num(T / (m * w)),
                                   oj{{"train_batch_size", T},
                                      {"train_micro_batch_size_per_gpu", m},
                                      {"gradient_accumulation_steps", T / (m * w)}},
                                   "", "", "None: the global batch stays " + num(T) + ".", "ds-batch"));
    p.steps.push_back(makeStep("batch-infer", "Leave train_batch_size out and let DeepSpeed infer it",
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

oj setupJson(const Job& j, const Setup& s)
{
    return oj{{"stage", s.stage},
              {"offload_optimizer", s.offloadOptimizer},
              {"offload_param", s.offloadParam},
              {"activation_checkpointing", s.checkpointing},
              {"micro_batch", s.micro},
              {"gradient_accumulation", s.accumulation},
              {"gpu_model_states_bytes", gpuModelStates(j, s)},
              {"activations_bytes", activations(j, s)}};
}

void addMessageEstimates(Advice& adv, const OomReport& r)
{
    const std::string how = "as printed × its unit (1024 steps), to the nearest byte";
    auto add = [&](const char* name, const std::optional<std::int64_t>& v, const std::string& formula) {
        if (v)
            adv.estimates.push_back({name, static_cast<double>(*v), "bytes", formula, "pytorch-format-size"});
    };
    add("Tried to allocate", r.triedToAllocate, how);
    add("GPU total capacity", r.totalCapacity, how);
    add("Free on the GPU", r.free, how);
    add("Allocated by PyTorch", r.allocated, how);
    add("Reserved by PyTorch", r.reserved,
        r.format == OomFormat::New ? "allocated by PyTorch + reserved but unallocated (the message prints no total)"
                                   : how);
    add("Reserved but unallocated", r.reservedUnallocated, how);
}

std::string causeLabel(const std::string& id)
{
    static const std::pair<const char*, const char*> labels[]
        = {{"activations", "activations"},
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

std::string headlineFor(const OomReport& r, const Cause& c, const std::vector<Step>& steps)
{
    std::string h = r.kind == OomKind::CudaOutOfMemory
        ? r.device + " out of memory" + (r.gpuIndex ? " on GPU " + num(*r.gpuIndex) : std::string())
        : r.kind == OomKind::HostKilled ? "Process killed (host RAM)"
                                        : "DeepSpeed's batch-size check failed";
    h += ": likely " + causeLabel(c.id) + ".";
    if (!steps.empty()) {
        h += " First step: " + steps.front().change;
        if (steps.front().saving)
            h += ", saving " + std::string(steps.front().env.empty() ? "" : "up to ")
                + gib(static_cast<double>(*steps.front().saving));
        h += ".";
    }
    return h;
}

std::string parsedSummary(const OomReport& r)
{
    if (r.kind == OomKind::HostKilled)
        return "Read a host kill (\"" + r.marker + "\"): exit code -9 / SIGKILL usually means the host ran out of RAM.";
    if (r.kind == OomKind::BatchAssertion)
        return "Read DeepSpeed's batch-size assertion.";
    if (r.format == OomFormat::NoNumbers)
        return "Read the CUDA runtime's \"CUDA error: out of memory\": it prints no sizes, so the cause comes from "
               "memory.phase and the estimates.";
    return "Read " + r.device + "'s out-of-memory message ("
        + (r.format == OomFormat::New       ? "PyTorch 2.1 or newer"
               : r.format == OomFormat::Old ? "PyTorch 2.0 or older"
                                            : "sizes after the request not found")
        + (r.gpuIndex ? ", GPU " + num(*r.gpuIndex) : std::string()) + ").";
}

void addUnique(std::vector<std::string>& ids, const std::string& id)
{
    if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end())
        ids.push_back(id);
}

} // namespace

Advice adviseMemory(const Answers& answers, const Advice& zero)
{
    Advice adv;
    adv.workflow = "memory";
    const std::string message = answers.text("memory.oom_message");
    if (message.empty()) {
        adv.status = AdviceStatus::NeedsInput;
        adv.missing = {"memory.oom_message"};
        adv.headline = "Paste the out-of-memory message to diagnose it.";
        return adv;
    }
    const OomReport r = parseOomMessage(message);
    adv.details["kind"] = toString(r.kind);
    adv.details["parsed"] = oj{{"tried_to_allocate_bytes", orNull(r.triedToAllocate)},
                               {"total_capacity_bytes", orNull(r.totalCapacity)},
                               {"free_bytes", orNull(r.free)},
                               {"allocated_bytes", orNull(r.allocated)},
                               {"reserved_bytes", orNull(r.reserved)}};
    oj batch = nullptr;
    if (r.batchTrain)
        batch = oj{{"train_batch_size", *r.batchTrain},
                   {"micro_batch_per_gpu", *r.batchMicro},
                   {"gradient_acc_step", *r.batchAccumulation},
                   {"world_size", *r.batchWorld}};
    adv.details["message"] = oj{{"format", r.format == OomFormat::None ? oj(nullptr) : oj(toString(r.format))},
                                {"device", r.device.empty() ? oj(nullptr) : oj(r.device)},
                                {"gpu_index", r.gpuIndex ? oj(*r.gpuIndex) : oj(nullptr)},
                                {"reserved_unallocated_bytes", orNull(r.reservedUnallocated)},
                                {"process_in_use_bytes", orNull(r.processInUse)},
                                {"other_processes_bytes", orNull(r.otherProcessesInUse)},
                                {"allocator_hint", r.allocatorHint.empty() ? oj(nullptr) : oj(r.allocatorHint)},
                                {"marker", r.marker.empty() ? oj(nullptr) : oj(r.marker)},
                                {"batch", batch},
                                {"truncated", r.truncated}};
    adv.details["reserved_basis"] = r.format == OomFormat::New
        ? "allocated by PyTorch + reserved but unallocated (the new message prints no total)"
        : r.reserved ? "\"reserved in total by PyTorch\" as printed"
                     : "";
    if (r.truncated)
        adv.checks.push_back(
            {CheckLevel::Warn, "oom-message-truncated", "Only the first 64 KiB of the message were read.", ""});
    if (r.kind == OomKind::Unrecognised) {
        adv.status = AdviceStatus::NeedsInput;
        adv.missing = {"memory.oom_message"};
        adv.headline = "The message was not recognised; nothing is guessed from it.";
        adv.checks.push_back(
            {CheckLevel::Warn, "oom-message-unrecognised",
             "Could not parse this message, so nothing is guessed from it. The wizard reads PyTorch's "
             "\"CUDA out of memory. Tried to allocate …\" (the PyTorch ≤ 2.0 and ≥ 2.1 wordings) and the "
             "CUDA runtime's \"CUDA error: out of memory\", host kills (\"Killed\", exit code -9 or 137, "
             "SIGKILL, DeepSpeed's \"exits with return code = -9\") and DeepSpeed's \"Check batch related "
             "parameters\" assertion. Paste the whole error, down to the traceback's last line.",
             "pytorch-oom-message"});
        adv.sources = {"pytorch-oom-message"};
        return adv;
    }
    adv.status = AdviceStatus::Complete;
    adv.checks.push_back({CheckLevel::Pass, "oom-message-parsed", parsedSummary(r),
                          r.kind == OomKind::CudaOutOfMemory  ? "pytorch-oom-message"
                              : r.kind == OomKind::HostKilled ? "axolotl-faq-exit9"
                                                              : "ds-batch-assert"});
    const Job job = jobFrom(answers, r.totalCapacity);
    Planner p{job, setupFrom(answers, zero), adv, {}};
    adv.details["assumed_setup"] = setupJson(job, p.setup);
    Cause cause;
    if (r.kind == OomKind::CudaOutOfMemory) {
        const double given = answers.number("hardware.gpu_memory_gib") * kGiB;
        if (r.totalCapacity && given > 0
            && std::abs(static_cast<double>(*r.totalCapacity) - given) > kCapacityMismatch * given)
            p.warn("oom-gpu-memory-differs",
                   "The message reports " + gib(static_cast<double>(*r.totalCapacity)) + " on the GPU, the answers "
                       + gib(given)
                       + " (hardware.gpu): the numbers below use the message's "
                         "(the 10% tolerance is the wizard's own).",
                   "pytorch-oom-message");
        addMessageEstimates(adv, r);
        cause = cudaDiagnosis(r, p);
        adv.estimates.push_back({"Model states per GPU (assumed setup)",
                                 adv.details["assumed_setup"]["gpu_model_states_bytes"].get<double>(), "bytes",
                                 "ZeRO paper, K = 12, or DeepSpeed's estimator with offload", "zero-paper"});
        adv.estimates.push_back(
            {"Activations per GPU (assumed setup)", adv.details["assumed_setup"]["activations_bytes"].get<double>(),
             "bytes", activationFormula(adv.details["assumed_setup"]["activation_checkpointing"].get<bool>()),
             "korthikanti"});
    } else if (r.kind == OomKind::HostKilled) {
        cause = hostDiagnosis(p);
    } else {
        cause = batchDiagnosis(r, p, answers);
    }
    adv.details["cause"]
        = oj{{"id", cause.id}, {"text", cause.text}, {"source", cause.source.empty() ? oj(nullptr) : oj(cause.source)}};
    adv.details["shortfall_bytes"] = r.triedToAllocate && r.free ? oj(*r.triedToAllocate - *r.free) : oj(nullptr);
    oj steps = oj::array();
    for (std::size_t i = 0; i < p.steps.size(); ++i) {
        const Step& s = p.steps[i];
        steps.push_back(oj{{"id", s.id},
                           {"change", s.change},
                           {"config", s.config},
                           {"env", s.env.empty() ? oj(nullptr) : oj(s.env)},
                           {"code", s.code.empty() ? oj(nullptr) : oj(s.code)},
                           {"saving_bytes", orNull(s.saving)},
                           {"tradeoff", s.tradeoff},
                           {"source", s.source},
                           {"estimated_gpu_bytes_after", orNull(s.gpuAfter)}});
        const std::string title = "Step " + num(static_cast<std::int64_t>(i + 1)) + ": " + s.change;
        adv.tradeoffs.push_back({title,
                                 s.tradeoff
                                     + (s.saving ? " Expected saving: " + std::string(s.env.empty() ? "" : "up to ")
                                                + gib(static_cast<double>(*s.saving)) + "."
                                                 : ""),
                                 s.source});
        if (!s.env.empty())
            adv.snippets.push_back({"bash", title, "export " + s.env + "\n"});
        if (!s.config.is_null())
            adv.snippets.push_back({"json", title, s.config.dump(2)});
        if (!s.code.empty())
            adv.snippets.push_back({"python", title, s.code});
    }
    adv.details["steps"] = steps;
    adv.headline = headlineFor(r, cause, p.steps);
    addUnique(adv.sources, cause.source);
    for (const auto& s : p.steps)
        addUnique(adv.sources, s.source);
    for (const auto& c : adv.checks)
        addUnique(adv.sources, c.source);
    for (const auto& e : adv.estimates)
        addUnique(adv.sources, e.source);
    return adv;
}

} // namespace dsw
