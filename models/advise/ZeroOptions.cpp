// The ZeRO workflow's candidates: their model states sized by estimate/PlacementMemory.h (its conventions are
// shown to the user with each number), activations after Korthikanti et al. 2022.
#include "advise/ZeroAdvisor.h"

#include "estimate/ActivationMemory.h"
#include "estimate/PlacementMemory.h"
#include "knowledge/SourceCatalog.h"
#include "util/CheckedMath.h"

#include <algorithm>

namespace dsw {

namespace {

constexpr double kGiB = 1073741824.0;

// Fastest first: no offload by stage, then CPU offload, then NVMe (deepspeed-facts §2.6: NVMe only at stage 3).
// ZeRO-1 with CPU offload needs as much GPU memory as ZeRO-2 with it, so it is only chosen when stage 2 is not allowed.
const Placement kPlacements[] = {
    {0, "none", "none"}, {1, "none", "none"}, {2, "none", "none"}, {3, "none", "none"}, {2, "cpu", "none"},
    {1, "cpu", "none"},  {3, "cpu", "none"},  {3, "cpu", "cpu"},   {3, "nvme", "cpu"},  {3, "nvme", "nvme"},
};

} // namespace

std::string ZeroOption::label() const
{
    std::string s = "ZeRO-" + std::to_string(stage);
    if (offloadOptimizer != "none")
        s += ", optimizer → " + offloadOptimizer;
    if (offloadParam != "none")
        s += ", parameters → " + offloadParam;
    if (offloadOptimizer == "none" && offloadParam == "none")
        s += ", no offload";
    if (checkpointing)
        s += ", activation checkpointing";
    return s;
}

ZeroStageLimit zeroStageLimit(const Answers& a)
{
    const std::string optimizer = a.text("training.optimizer");
    if (optimizer == "onebit-adam" || optimizer == "zero-one-adam" || optimizer == "onebit-lamb")
        return {
            0, "zero-limited-by-onebit",
            "The 1-bit optimizers are not compatible with ZeRO (" + quoteOf("ds-onebit-zero")
                + "), so only stage 0 is considered.",
            "ds-onebit-zero"};
    if (a.integer("pipeline.stages") > 1)
        return {
            1, "zero-limited-by-pipeline",
            "Pipeline parallelism is used (pipeline.stages > 1): " + quoteOf("ds-pipe-zero")
                + ", so only stages 0 and 1 are considered.",
            "ds-pipe-zero"};
    return {};
}

std::vector<ZeroOption> zeroOptions(const Answers& a)
{
    const ZeroStageLimit limit = zeroStageLimit(a);
    std::string stageChoice = a.text("zero.stage");
    if (stageChoice != "auto" && std::stoi(stageChoice) > limit.maxStage)
        stageChoice = "auto"; // the forced stage is not allowed: adviseZero says so as a failed check
    const std::string ckptChoice = a.text("training.activation_checkpointing");
    std::vector<bool> ckptModes = ckptChoice == "on" ? std::vector<bool>{true}
        : ckptChoice == "off"                        ? std::vector<bool>{false}
                                                     : std::vector<bool>{false, true};
    const ActivationInputs act = activationInputsFor(a, a.integer("training.micro_batch_size"));
    const ModelShape shape = modelShapeFrom(a);
    const double usableGpu = a.number("hardware.gpu_memory_gib") * kGiB * (1 - kGpuReserveFraction);
    const double cpuBytes = a.number("hardware.cpu_memory_gib") * kGiB;
    const double nvmeCapacity = a.number("hardware.nvme_capacity_gib") * kGiB;
    const bool hasNvme = a.text("hardware.nvme") == "nvme" && !a.text("hardware.nvme_path").empty();

    const std::string optimizerChoice = a.text("zero.offload_optimizer");
    const std::string paramChoice = a.text("zero.offload_param");
    auto stageAllowed = [&](const Placement& p) {
        return p.stage <= limit.maxStage && (stageChoice == "auto" || std::to_string(p.stage) == stageChoice);
    };
    auto offloadAsked = [&](const Placement& p) {
        return (optimizerChoice == "auto" || optimizerChoice == p.offloadOptimizer)
            && (paramChoice == "auto" || paramChoice == p.offloadParam);
    };
    // Offload choices that no allowed stage supports are set aside; adviseZero reports it as a failed check.
    const bool offloadPossible = std::any_of(std::begin(kPlacements), std::end(kPlacements),
                                             [&](const Placement& p) { return stageAllowed(p) && offloadAsked(p); });

    // Preference: no offload without checkpointing, then with it (about one extra forward pass), and only
    // then offload (PCIe traffic and a CPU optimizer step), again without checkpointing first.
    std::vector<ZeroOption> out;
    for (const bool offloadGroup : {false, true})
        for (bool ckpt : ckptModes)
            for (const auto& p : kPlacements) {
                const bool offloads = std::string(p.offloadOptimizer) != "none";
                if (offloads != offloadGroup || !stageAllowed(p) || (offloadPossible && !offloadAsked(p)))
                    continue;
                {
                    ZeroOption o;
                    o.stage = p.stage;
                    o.offloadOptimizer = p.offloadOptimizer;
                    o.offloadParam = p.offloadParam;
                    o.checkpointing = ckpt;
                    const ModelStatesMemory m = sizeModelStates(p, shape);
                    o.gpuModelStates = m.gpuBytes;
                    o.cpuPerNode = m.cpuPerNode;
                    o.nvmePerNode = m.nvmePerNode;
                    o.gpuFormula = m.gpuFormula;
                    o.cpuFormula = m.cpuFormula;
                    o.activations = activationBytes(act, ckpt);
                    o.gpuTotal = addSat(o.gpuModelStates, o.activations);
                    o.fitsGpu = o.gpuTotal <= usableGpu;
                    o.fitsCpu = o.cpuPerNode <= cpuBytes;
                    const bool usesNvme = o.offloadOptimizer == "nvme" || o.offloadParam == "nvme";
                    o.nvmeReady = !usesNvme || hasNvme;
                    o.fitsNvme = !usesNvme || nvmeCapacity <= 0 || o.nvmePerNode <= nvmeCapacity;
                    out.push_back(o);
                }
            }
    return out;
}

} // namespace dsw
