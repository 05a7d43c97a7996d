// The plan's estimates and steps; see MemoryPlan.h.
#include "advise/MemoryPlan.h"

#include "estimate/PlacementMemory.h"
#include "util/Count.h"

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

Placement placementOf(const Setup& s) { return {s.stage, s.offloadOptimizer, s.offloadParam}; }

ModelShape shapeOf(const Job& j) { return {j.params, j.largest, j.gpusPerNode, j.nodes, j.dataParallel}; }

} // namespace

Job jobFrom(const Answers& a, std::optional<std::int64_t> messageGpuBytes)
{
    Job j;
    j.params = paramsPerPipelineStage(a);
    j.largest = a.integer("model.largest_layer_params");
    j.dataParallel = std::max<std::int64_t>(1, a.dataParallelSize());
    j.gpusPerNode = static_cast<int>(a.integer("hardware.gpus_per_node"));
    j.nodes = static_cast<int>(a.integer("hardware.nodes"));
    j.shape = activationInputsFor(a, 1);
    j.cpuBytes = a.number("hardware.cpu_memory_gib") * kGiB;
    j.gpuCapacity =
        messageGpuBytes ? static_cast<double>(*messageGpuBytes) : a.number("hardware.gpu_memory_gib") * kGiB;
    j.nvmePath = a.text("hardware.nvme_path");
    j.nvmeReady = a.text("hardware.nvme") == "nvme" && !j.nvmePath.empty();
    j.phase = a.text("memory.phase");
    j.limit = zeroStageLimit(a);
    return j;
}

Setup setupFrom(const Answers& a, const Advice& zero)
{
    Setup s;
    s.micro = std::max<std::int64_t>(1, a.integer("training.micro_batch_size"));
    s.accumulation = std::max<std::int64_t>(1, a.integer("training.gradient_accumulation_steps"));
    if (zero.details.contains("recommended")) {
        const auto& rec = zero.details["recommended"];
        s.stage = rec.value("stage", 0);
        s.offloadOptimizer = rec.value("offload_optimizer", std::string("none"));
        s.offloadParam = rec.value("offload_param", std::string("none"));
        s.checkpointing = rec.value("activation_checkpointing", false);
    } else { // no ZeRO advice: what the answers force, else ZeRO off
        const std::string stage = a.text("zero.stage");
        s.stage = stage.size() == 1 && stage[0] >= '0' && stage[0] <= '3' ? stage[0] - '0' : 0; // "auto" → 0
        s.checkpointing = a.text("training.activation_checkpointing") == "on";
    }
    return s;
}

std::int64_t gpuModelStates(const Job& j, const Setup& s)
{
    return sizeModelStates(placementOf(s), shapeOf(j)).gpuBytes;
}

std::int64_t activations(const Job& j, const Setup& s)
{
    ActivationInputs in = j.shape;
    in.microBatch = s.micro;
    return activationBytes(in, s.checkpointing);
}

std::int64_t offloadHostBytes(const Job& j, const Setup& s)
{
    Placement p = placementOf(s);
    if (p.offloadOptimizer == "none") // what offloading the optimizer states to the CPU would need
        p.offloadOptimizer = "cpu";
    return sizeModelStates(p, shapeOf(j)).cpuPerNode;
}

std::int64_t loadHostBytes(const Job& j, std::int64_t count, int bytes)
{
    return truncSat(static_cast<double>(count) * bytes * j.gpusPerNode * kBufferFactor);
}

std::string deviceName(const std::string& device)
{
    return device == "cpu" ? "CPU" : device == "nvme" ? "NVMe" : device;
}

Step makeStep(std::string id, std::string change, oj config, std::string env, std::string code, std::string tradeoff,
              std::string source, std::optional<std::int64_t> saving)
{
    return Step{std::move(id),   std::move(change),   std::move(config), std::move(env),
                std::move(code), std::move(tradeoff), std::move(source), saving,
                std::nullopt};
}

void Planner::warn(const std::string& code, const std::string& message, const std::string& source)
{
    adv.checks.push_back({CheckLevel::Warn, code, message, source});
}

bool Planner::add(Step step)
{
    if (step.saving && *step.saving <= 0)
        return false; // e.g. answers where the largest layer is as big as the model
    steps.push_back(std::move(step));
    return true;
}

bool Planner::gpuStep(Step step, const Setup& next)
{
    const std::int64_t before = gpuTotal(job, setup), after = gpuTotal(job, next);
    // A saturated estimate (CheckedMath.h) is a lower bound: what a step saves from it is unknown.
    step.saving = before == kSaturated ? std::nullopt : std::optional<std::int64_t>(subSat(before, after));
    step.gpuAfter = after;
    if (!add(std::move(step)))
        return false;
    setup = next;
    return true;
}

oj Planner::offloadBlock(const std::string& device) const
{
    oj block{{"device", device}};
    if (device == "nvme")
        block["nvme_path"] = job.nvmePath;
    block["pin_memory"] = true; // written explicitly: the default changed to true in 0.19.5
    return block;
}

void Planner::activationSteps()
{
    const std::size_t before = steps.size();
    if (setup.micro > 1) {
        Setup next = setup;
        const std::int64_t d = smallestFactor(setup.micro);
        next.micro /= d;
        next.accumulation *= d;
        gpuStep(
            makeStep(
                "micro-batch",
                "Micro-batch " + num(setup.micro) + " → " + num(next.micro) + ", gradient accumulation "
                    + num(setup.accumulation) + " → " + num(next.accumulation) + " (same global batch)",
                oj{{"train_micro_batch_size_per_gpu", next.micro}, {"gradient_accumulation_steps", next.accumulation}},
                "", "",
                "Activations scale with the micro-batch. The samples per optimizer step stay the same; each step runs "
                    + num(d)
                    + "× as many smaller forward/backward passes, which usually lowers GPU throughput (the "
                      "wizard's expectation, not a measured number).",
                "korthikanti"),
            next);
    }
    if (!setup.checkpointing) {
        Setup next = setup;
        next.checkpointing = true;
        gpuStep(
            makeStep(
                "activation-checkpointing", "Turn on activation checkpointing", nullptr, "",
                "# Hugging Face Transformers\nmodel.gradient_checkpointing_enable()\n\n"
                "# Plain PyTorch / DeepSpeed: wrap each transformer block\n"
                "import deepspeed\nhidden = deepspeed.checkpointing.checkpoint(block, hidden)\n",
                "Keeps only each layer's input and recomputes the rest in the backward pass: about one extra forward "
                "pass, quoted as 33% re-computation overhead.",
                "zero-paper-ckpt"),
            next);
    }
    if (steps.size() == before)
        warn("oom-activations-at-minimum",
             "The micro-batch is already 1 and activation checkpointing is on: the activations left ("
                 + gib(activations(job, setup))
                 + ") shrink only with a shorter sequence or tensor/sequence parallelism.",
             "korthikanti");
}

void Planner::modelStateSteps()
{
    if (job.limit.maxStage == 0) {
        warn("oom-zero-excluded-by-onebit",
             "No ZeRO stage or offload is suggested: " + job.limit.reason + " Offload needs ZeRO as well.",
             job.limit.source);
        return;
    }
    const int top = std::min(3, job.limit.maxStage);
    for (int target = setup.stage + 1; target <= top; ++target) {
        Setup next = setup;
        next.stage = target;
        if (gpuTotal(job, next) >= gpuTotal(job, setup))
            continue; // e.g. one data-parallel GPU: partitioning saves nothing
        const bool third = target == 3;
        gpuStep(
            makeStep("zero-stage-" + num(target), "ZeRO stage " + num(setup.stage) + " → " + num(target),
                     oj{{"zero_optimization", {{"stage", target}}}}, "", "",
                     third ? "Stage 3 moves 3Ψ elements per step instead of 2Ψ: 1.5× the communication of stages 0–2."
                           : "No extra communication: stages 1 and 2 move the same 2Ψ elements per step as plain data "
                             "parallelism.",
                     third ? "zero-paper-comm" : "zero-paper-comm-nocost"),
            next);
    }
    if (top < 3)
        warn("oom-zero-limited-by-pipeline",
             "ZeRO stages above " + num(top) + " are not suggested: " + job.limit.reason, job.limit.source);
    offloadSteps();
}

void Planner::offloadSteps()
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
    if (setup.offloadOptimizer == "none") {
        Setup next = setup;
        next.stage = std::max(setup.stage, std::min(2, job.limit.maxStage));
        next.offloadOptimizer = "cpu";
        placeOn(next);
        oj zero{{"stage", next.stage}, {"offload_optimizer", offloadBlock(next.offloadOptimizer)}};
        gpuStep(
            makeStep("offload-optimizer",
                     "Offload the optimizer states to " + deviceName(next.offloadOptimizer)
                         + (next.stage != setup.stage ? " (at stage " + num(next.stage) + ")" : ""),
                     oj{{"zero_optimization", zero}}, "", "",
                     "Moves about " + gib(perGpuTraffic)
                         + " per GPU per step over PCIe (16-bit gradients out, updated "
                           "parameters back) and runs the optimizer step on the CPU (DeepSpeedCPUAdam); needs about "
                         + gib(offloadHostBytes(job, next)) + " of host RAM per node."
                         + (next.offloadOptimizer == "nvme"
                                ? " NVMe offload also wears the SSD with heavy write traffic."
                                : ""),
                     "zero-offload-paper"),
            next);
    }
    if (setup.offloadParam != "none")
        return;
    if (job.limit.maxStage < 3) {
        adv.checks.push_back(
            {CheckLevel::Warn, "oom-suggestion-needs-stage-3",
             "Parameter offload is not suggested: offload_param is valid only with stage 3, which these "
             "answers do not allow ("
                 + job.limit.reason + ")",
             "ds-offload-param-stage3"});
        return;
    }
    Setup next = setup;
    next.stage = 3;
    next.offloadParam = "cpu";
    placeOn(next);
    const std::string movedOptimizer = next.offloadOptimizer != setup.offloadOptimizer
        ? ", the optimizer states to " + deviceName(next.offloadOptimizer)
        : "";
    gpuStep(makeStep("offload-param",
                     "Offload the parameters to " + deviceName(next.offloadParam) + movedOptimizer
                         + (setup.stage < 3 ? " (stage 3)" : ""),
                     oj{{"zero_optimization",
                         {{"stage", 3},
                          {"offload_optimizer", offloadBlock(next.offloadOptimizer)},
                          {"offload_param", offloadBlock(next.offloadParam)}}}},
                     "", "",
                     "Fetches about " + gib(perGpuTraffic)
                         + " per GPU per step over PCIe (parameters for the forward and the "
                           "backward pass); offload_param is valid only with stage 3.",
                     "ds-offload-param-stage3"),
            next);
}

} // namespace dsw::memory
