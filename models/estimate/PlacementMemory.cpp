// Sources (resources/knowledge/sources.tsv): ds-memory-docs-cpu (the ZeRO-1/2 offload host term).
#include "estimate/PlacementMemory.h"

#include "estimate/DeepSpeedEstimator.h"
#include "estimate/ZeroPaperMemory.h"
#include "util/CheckedMath.h"

#include <algorithm>

namespace dsw {

ModelStatesMemory sizeModelStates(const Placement& placement, const ModelShape& shape)
{
    const std::int64_t P = shape.params;
    const std::int64_t L = shape.largestLayer;
    const int G = shape.gpusPerNode;
    const int N = shape.nodes;
    const std::int64_t dp = std::max<std::int64_t>(1, shape.dataParallel);
    const int stage = placement.stage;
    const std::string& opt = placement.offloadOptimizer;
    const std::string& param = placement.offloadParam;
    ModelStatesMemory m;

    if (opt == "none") {
        m.gpuBytes = zeroPaperModelStates(P, stage, static_cast<int>(dp)).total;
        m.gpuFormula = "ZeRO paper, K = 12: ";
        static const char* byStage[] = {"16Ψ", "4Ψ + 12Ψ/Nd", "2Ψ + 14Ψ/Nd", "16Ψ/Nd + 4·largest layer"};
        m.gpuFormula += byStage[stage];
        if (stage == 3) {
            m.gpuBytes = addSat(m.gpuBytes, mulSat(4, L));
            m.cpuPerNode = estimateZero3ModelStatesMemNeeds(P, L, G, N, false, false, true, kBufferFactor).cpuBytes;
            m.cpuFormula = "DeepSpeed estimator, zero.Init: largest layer × 4 × GPUs per node × 1.5";
        } else {
            m.cpuPerNode = estimateZero2ModelStatesMemNeeds(P, G, N, false, kBufferFactor).cpuBytes;
            m.cpuFormula = "DeepSpeed estimator: Ψ × 4 × GPUs per node × 1.5 (each process loads the fp32 model)";
        }
        return m;
    }
    if (stage <= 2) { // DeepSpeed's ZeRO-2 estimator also serves ZeRO-1
        m.gpuBytes = estimateZero2ModelStatesMemNeeds(P, G, N, true, kBufferFactor).gpuBytes;
        m.gpuFormula = "DeepSpeed estimator, ZeRO-1/2 offload: 2Ψ";
        m.cpuPerNode = truncSat(static_cast<double>(P) * std::max(4 * G, 16) * kBufferFactor);
        m.cpuFormula = "DeepSpeed docs: Ψ × max(4 × GPUs per node, 16) × 1.5";
        return m;
    }
    const bool paramsOff = param != "none";
    const auto z3 = estimateZero3ModelStatesMemNeeds(P, L, G, N, true, paramsOff, true, kBufferFactor);
    m.gpuBytes = z3.gpuBytes;
    m.gpuFormula =
        paramsOff ? "DeepSpeed estimator: 4·largest layer" : "DeepSpeed estimator: 4·largest layer + 2Ψ/GPUs";
    if (opt == "cpu") {
        m.cpuPerNode = z3.cpuBytes;
        m.cpuFormula = paramsOff ? "DeepSpeed estimator, zero.Init: Ψ × 18 / nodes × 1.5"
                                 : "DeepSpeed estimator, zero.Init: Ψ × 16 / nodes × 1.5";
        return m;
    }
    // NVMe: optimizer states (16 bytes/parameter) and, with param offload to NVMe, fp16 params (2) on the SSDs.
    m.nvmePerNode = mulSat(param == "nvme" ? 18 : 16, P) / N;
    if (param == "cpu") {
        m.cpuPerNode = truncSat(static_cast<double>(P) * 2 / N * kBufferFactor);
        m.cpuFormula = "fp16 parameters in CPU memory: Ψ × 2 / nodes × 1.5";
    } else {
        m.cpuPerNode = estimateZero3ModelStatesMemNeeds(P, L, G, N, false, false, true, kBufferFactor).cpuBytes;
        m.cpuFormula = "DeepSpeed estimator, zero.Init: largest layer × 4 × GPUs per node × 1.5";
    }
    return m;
}

std::int64_t paramsPerPipelineStage(const Answers& a)
{
    const std::int64_t stages = std::max<std::int64_t>(1, a.integer("pipeline.stages"));
    return (a.integer("model.params") + stages - 1) / stages;
}

ModelShape modelShapeFrom(const Answers& a)
{
    ModelShape s;
    s.params = paramsPerPipelineStage(a);
    s.largestLayer = a.integer("model.largest_layer_params");
    s.gpusPerNode = static_cast<int>(a.integer("hardware.gpus_per_node"));
    s.nodes = static_cast<int>(a.integer("hardware.nodes"));
    s.dataParallel = std::max<std::int64_t>(1, a.dataParallelSize());
    return s;
}

} // namespace dsw
