#include "estimate/OnebitCost.h"

#include "estimate/StepTime.h"
#include "knowledge/GpuCatalog.h"

#include <algorithm>
#include <cmath>

namespace dsw {

namespace {

// What DeepSpeed will run: auto and fp8 resolve as the precision workflow resolves them.
std::string resolvedPrecision(const Answers& a, const GpuSpec* gpu)
{
    const std::string wanted = a.text("training.precision");
    const bool bf16 = gpu && gpu->bf16;
    if (wanted == "auto" || wanted == "fp8" || (wanted == "bf16" && !bf16))
        return bf16 ? "bf16" : "fp16";
    return wanted;
}

} // namespace

OnebitCost estimateOnebitCost(const Answers& a)
{
    OnebitCost c;
    c.nodes = std::max<std::int64_t>(1, a.integer("hardware.nodes"));
    c.gpusPerNode = std::max<std::int64_t>(1, a.integer("hardware.gpus_per_node"));
    c.stages = std::max<std::int64_t>(1, a.integer("pipeline.stages"));
    c.dataParallel = std::max<std::int64_t>(1, c.nodes * c.gpusPerNode / c.stages);
    const double P = static_cast<double>(a.integer("model.params"));

    c.gbps = a.number("hardware.inter_node_gbps");
    if (c.gbps <= 0) {
        c.network = NetworkCatalog::instance().find(a.text("hardware.inter_node_network"));
        c.gbps = c.network ? c.network->gbps : 0;
    }
    const GpuSpec* gpu = GpuCatalog::instance().find(a.text("hardware.gpu"));
    c.precision = resolvedPrecision(a, gpu);
    c.bytesPerElement = c.precision == "fp32" ? 4 : 2;
    c.compression = 8 * c.bytesPerElement;

    // Each node sends its replicas' reduced gradients once: a full model when a pipeline fits in the node,
    // G of p stages when the pipeline spans nodes.
    c.nodeShare = std::min(1.0, static_cast<double>(c.gpusPerNode) / static_cast<double>(c.stages));
    if (c.nodes > 1 && c.dataParallel > 1 && c.gbps > 0)
        c.allreduce = 2 * P * c.nodeShare * c.bytesPerElement / (c.gbps * 1e9 / 8);

    c.tokens = static_cast<double>(a.integer("training.micro_batch_size")
                                   * a.integer("training.gradient_accumulation_steps") * a.integer("model.seq_len"));
    if (gpu)
        c.peakTflops = denseTflopsOf(*gpu, c.precision == "bf16");
    if (c.peakTflops)
        c.compute = 6 * P * c.tokens / static_cast<double>(c.stages) / (*c.peakTflops * 1e12 * kOnebitAssumedMfu);

    const std::int64_t total = std::max<std::int64_t>(1, a.integer("training.total_steps"));
    c.freezeStep = std::max<std::int64_t>(1, std::llround(kOnebitWarmupShare * static_cast<double>(total)));
    c.warmup = std::min(1.0, static_cast<double>(c.freezeStep) / static_cast<double>(total));
    c.compressedStage = c.allreduce / c.compression;
    c.compressedAverage = c.allreduce * (c.warmup + (1 - c.warmup) / c.compression);
    if (c.compute)
        c.saving = (c.allreduce - c.compressedAverage) / (*c.compute + c.allreduce);

    if (c.dataParallel <= 1)
        c.verdict = "no-data-parallelism";
    else if (c.nodes <= 1)
        c.verdict = "single-node";
    else if (!c.compute)
        c.verdict = "compute-unknown";
    else
        c.verdict = c.allreduce >= *c.compute ? "communication-bound" : "compute-bound";
    return c;
}

} // namespace dsw
