#include "estimate/DeepSpeedEstimator.h"

#include "util/CheckedMath.h"

#include <algorithm>
#include <stdexcept>

namespace dsw {
namespace {

void requireTopology(int gpusPerNode, int nodes)
{
    if (gpusPerNode < 1 || nodes < 1)
        throw std::invalid_argument("gpus per node and nodes must be at least 1");
}

// Python's int(x) for a float: truncation toward zero.
// Figures beyond 2^63 bytes (Python has no such limit) saturate at kSaturated (CheckedMath.h).
std::int64_t pyInt(double x) { return truncSat(x); }

// Python's int / int. Correctly rounded; equal to the double quotient while |a| <= 2^53
// (18 * 500 trillion params), which covers any realistic model.
double pyTrueDiv(std::int64_t a, std::int64_t b) { return static_cast<double>(a) / static_cast<double>(b); }

// Python's int * int, exact at any size, then float(): the correctly rounded double of the exact product
// (10^14 parameters × 4 × 6.4 million GPUs does not fit in 64 bits).
__extension__ typedef __int128 ExactProduct;
double pyIntProduct(std::int64_t a, std::int64_t b) { return static_cast<double>(static_cast<ExactProduct>(a) * b); }

} // namespace

Zero2Estimate estimateZero2ModelStatesMemNeeds(std::int64_t totalParams, int gpusPerNode, int nodes, bool cpuOffload,
                                               double bufferFactor)
{
    requireTopology(gpusPerNode, nodes);
    const std::int64_t totalGpus = std::int64_t{nodes} * gpusPerNode;
    double cpuMem = 0;
    std::int64_t gpuMem = 0;
    if (cpuOffload) {
        gpuMem = mulSat(2, totalParams);
        // int * int stays exact in Python; only the buffer factor turns it into a float.
        const std::int64_t mult = std::max<std::int64_t>(4 * totalGpus, 16); // total GPUs: DeepSpeed's quirk
        cpuMem = pyIntProduct(totalParams, mult) * bufferFactor;
    } else {
        gpuMem = addSat(mulSat(2, totalParams), pyInt(pyTrueDiv(mulSat(18, totalParams), totalGpus)));
        cpuMem = pyIntProduct(totalParams, 4 * std::int64_t{gpusPerNode}) * bufferFactor;
    }
    return {pyInt(cpuMem), gpuMem};
}

Zero3Estimate estimateZero3ModelStatesMemNeeds(std::int64_t totalParams, std::int64_t largestLayerParams,
                                               int gpusPerNode, int nodes, bool cpuOffload, bool cpuOffloadParams,
                                               bool zeroInit, double bufferFactor)
{
    requireTopology(gpusPerNode, nodes);
    const std::int64_t totalGpus = std::int64_t{nodes} * gpusPerNode;
    const double gpusFactor = 1.0 / nodes; // computed first, as in DeepSpeed
    const std::int64_t largestLayerMemory = mulSat(4, largestLayerParams);

    // Python's max(4 * G, k * gpus_factor) keeps the int on a tie; int * int stays exact,
    // int * float converts the int first. Then "* additional_buffer_factor".
    auto perGpuMax = [&](int k) {
        const std::int64_t perNode = 4 * std::int64_t{gpusPerNode};
        const double shard = k * gpusFactor;
        if (shard > static_cast<double>(perNode))
            return static_cast<double>(totalParams) * shard * bufferFactor;
        return pyIntProduct(totalParams, perNode) * bufferFactor;
    };

    double cpuMem = 0;
    std::int64_t gpuMem = 0;
    if (cpuOffload) {
        const int k = cpuOffloadParams ? 18 : 16;
        gpuMem = cpuOffloadParams ? largestLayerMemory
                                  : addSat(largestLayerMemory, pyInt(pyTrueDiv(mulSat(2, totalParams), totalGpus)));
        cpuMem = zeroInit ? pyIntProduct(totalParams, k) * gpusFactor * bufferFactor : perGpuMax(k);
    } else {
        // cpu_offload_params is ignored without optimizer offload.
        gpuMem = addSat(largestLayerMemory, pyInt(pyTrueDiv(mulSat(18, totalParams), totalGpus)));
        const std::int64_t base = zeroInit ? largestLayerParams : totalParams;
        cpuMem = pyIntProduct(base, 4 * std::int64_t{gpusPerNode}) * bufferFactor;
    }
    return {pyInt(cpuMem), gpuMem, largestLayerMemory};
}

std::vector<EstimatorRow> deepSpeedEstimatorRows(std::int64_t totalParams, std::int64_t largestLayerParams,
                                                 int gpusPerNode, int nodes, double bufferFactor)
{
    auto device = [](bool cpu) { return std::string(cpu ? "cpu" : "none"); };
    std::vector<EstimatorRow> rows;
    for (bool offload : {true, false}) {
        const auto e = estimateZero2ModelStatesMemNeeds(totalParams, gpusPerNode, nodes, offload, bufferFactor);
        rows.push_back({2, device(offload), "none", std::nullopt, e.gpuBytes, e.cpuBytes});
    }
    for (bool offload : {true, false})
        for (bool offloadParams : {true, false}) {
            if (!offload && offloadParams)
                continue; // DeepSpeed's wrapper skips this: it equals (False, False)
            for (bool init : {true, false}) {
                const auto e = estimateZero3ModelStatesMemNeeds(totalParams, largestLayerParams, gpusPerNode, nodes,
                                                                offload, offloadParams, init, bufferFactor);
                rows.push_back({3, device(offload), device(offloadParams), init, e.gpuBytes, e.cpuBytes});
            }
        }
    return rows;
}

} // namespace dsw
