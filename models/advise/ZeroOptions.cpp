// Sizing of the ZeRO candidates. Conventions (shown to the user with each number):
//  - GPU model states without offload: the ZeRO paper, mixed-precision Adam, K = 12 (16 bytes/parameter),
//    plus DeepSpeed's largest-layer working memory (4 bytes/parameter of the largest module) at stage 3;
//  - GPU and CPU needs with offload: DeepSpeed's estimators (18 bytes/parameter with fp16 params,
//    additional_buffer_factor 1.5), except the ZeRO-2 offload CPU term, where the docs' per-node formula
//    is used because the code multiplies by the GPUs of all nodes (deepspeed-facts §1.1);
//  - activations: Korthikanti et al. 2022.
#include "advise/ZeroAdvisor.h"

#include "estimate/ActivationMemory.h"
#include "util/CheckedMath.h"
#include "estimate/DeepSpeedEstimator.h"
#include "estimate/ZeroPaperMemory.h"

#include <algorithm>

namespace dsw {

namespace {

constexpr double kBufferFactor = 1.5; // DeepSpeed's additional_buffer_factor default
constexpr double kGiB = 1073741824.0;

struct Placement {
    int stage;
    const char* offloadOptimizer;
    const char* offloadParam;
};

// Fastest first: no offload by stage, then CPU offload, then NVMe (deepspeed-facts §2.6: NVMe only at stage 3).
// ZeRO-1 with CPU offload needs as much GPU memory as ZeRO-2 with it, so it is only chosen when stage 2 is not allowed.
constexpr Placement kPlacements[] = {
    {0, "none", "none"}, {1, "none", "none"}, {2, "none", "none"}, {3, "none", "none"},
    {2, "cpu", "none"},  {1, "cpu", "none"}, {3, "cpu", "none"},  {3, "cpu", "cpu"},   {3, "nvme", "cpu"}, {3, "nvme", "nvme"},
};

void sizeModelStates(ZeroOption& o, const Answers& a)
{
    const std::int64_t P = paramsPerPipelineStage(a);
    const std::int64_t L = a.integer("model.largest_layer_params");
    const int G = static_cast<int>(a.integer("hardware.gpus_per_node"));
    const int N = static_cast<int>(a.integer("hardware.nodes"));
    const std::int64_t dp = std::max<std::int64_t>(1, a.dataParallelSize());
    const std::string opt = o.offloadOptimizer, param = o.offloadParam;

    if (opt == "none") {
        o.gpuModelStates = zeroPaperModelStates(P, o.stage, static_cast<int>(dp)).total;
        o.gpuFormula = "ZeRO paper, K = 12: ";
        static const char* byStage[] = {"16Ψ", "4Ψ + 12Ψ/Nd", "2Ψ + 14Ψ/Nd", "16Ψ/Nd + 4·largest layer"};
        o.gpuFormula += byStage[o.stage];
        if (o.stage == 3) {
            o.gpuModelStates = addSat(o.gpuModelStates, mulSat(4, L));
            o.cpuPerNode = estimateZero3ModelStatesMemNeeds(P, L, G, N, false, false, true, kBufferFactor).cpuBytes;
            o.cpuFormula = "DeepSpeed estimator, zero.Init: largest layer × 4 × GPUs per node × 1.5";
        } else {
            o.cpuPerNode = estimateZero2ModelStatesMemNeeds(P, G, N, false, kBufferFactor).cpuBytes;
            o.cpuFormula = "DeepSpeed estimator: Ψ × 4 × GPUs per node × 1.5 (each process loads the fp32 model)";
        }
        return;
    }
    if (o.stage <= 2) { // DeepSpeed's ZeRO-2 estimator also serves ZeRO-1
        o.gpuModelStates = estimateZero2ModelStatesMemNeeds(P, G, N, true, kBufferFactor).gpuBytes;
        o.gpuFormula = "DeepSpeed estimator, ZeRO-1/2 offload: 2Ψ";
        o.cpuPerNode = truncSat(static_cast<double>(P) * std::max(4 * G, 16) * kBufferFactor);
        o.cpuFormula = "DeepSpeed docs: Ψ × max(4 × GPUs per node, 16) × 1.5";
        return;
    }
    const bool paramsOff = param != "none";
    const auto z3 = estimateZero3ModelStatesMemNeeds(P, L, G, N, true, paramsOff, true, kBufferFactor);
    o.gpuModelStates = z3.gpuBytes;
    o.gpuFormula = paramsOff ? "DeepSpeed estimator: 4·largest layer" : "DeepSpeed estimator: 4·largest layer + 2Ψ/GPUs";
    if (opt == "cpu") {
        o.cpuPerNode = z3.cpuBytes;
        o.cpuFormula = paramsOff ? "DeepSpeed estimator, zero.Init: Ψ × 18 / nodes × 1.5" : "DeepSpeed estimator, zero.Init: Ψ × 16 / nodes × 1.5";
        return;
    }
    // NVMe: optimizer states (16 bytes/parameter) and, with param offload to NVMe, fp16 params (2) on the SSDs.
    o.nvmePerNode = mulSat(param == "nvme" ? 18 : 16, P) / N;
    if (param == "cpu") {
        o.cpuPerNode = truncSat(static_cast<double>(P) * 2 / N * kBufferFactor);
        o.cpuFormula = "fp16 parameters in CPU memory: Ψ × 2 / nodes × 1.5";
    } else {
        o.cpuPerNode = estimateZero3ModelStatesMemNeeds(P, L, G, N, false, false, true, kBufferFactor).cpuBytes;
        o.cpuFormula = "DeepSpeed estimator, zero.Init: largest layer × 4 × GPUs per node × 1.5";
    }
}

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
        return {0, "zero-limited-by-onebit",
                "The 1-bit optimizers are not compatible with ZeRO (\"1bit-Adam is not compatible with ZeRO\"), so only "
                "stage 0 is considered.",
                "ds-onebit-zero"};
    if (a.integer("pipeline.stages") > 1)
        return {1, "zero-limited-by-pipeline",
                "Pipeline parallelism is used (pipeline.stages > 1): \"ZeRO-2 and ZeRO-3 are incompatible with pipeline "
                "parallelism\", so only stages 0 and 1 are considered.",
                "ds-pipe-zero"};
    return {};
}

std::int64_t paramsPerPipelineStage(const Answers& a)
{
    const std::int64_t stages = std::max<std::int64_t>(1, a.integer("pipeline.stages"));
    return (a.integer("model.params") + stages - 1) / stages;
}

std::vector<ZeroOption> zeroOptions(const Answers& a)
{
    const ZeroStageLimit limit = zeroStageLimit(a);
    std::string stageChoice = a.text("zero.stage");
    if (stageChoice != "auto" && std::stoi(stageChoice) > limit.maxStage)
        stageChoice = "auto"; // the forced stage is not allowed: adviseZero says so as a failed check
    const std::string ckptChoice = a.text("training.activation_checkpointing");
    std::vector<bool> ckptModes = ckptChoice == "on" ? std::vector<bool>{true}
        : ckptChoice == "off"                         ? std::vector<bool>{false}
                                                      : std::vector<bool>{false, true};
    const ActivationInputs act = activationInputsFor(a, a.integer("training.micro_batch_size"));
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
            sizeModelStates(o, a);
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
