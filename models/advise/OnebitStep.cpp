#include "advise/OnebitStep.h"

#include "advise/BatchKeys.h"
#include "advise/PlanSearch.h"
#include "knowledge/GpuCatalog.h"

#include <algorithm>
#include <stdexcept>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// What DeepSpeed will run: auto and fp8 resolve as the precision workflow resolves them.
std::string resolvedPrecision(const Answers& a)
{
    const std::string wanted = a.text("training.precision");
    const GpuSpec* gpu = GpuCatalog::instance().find(a.text("hardware.gpu"));
    const bool bf16 = gpu && gpu->bf16;
    if (wanted == "auto" || wanted == "fp8" || (wanted == "bf16" && !bf16))
        return bf16 ? "bf16" : "fp16";
    return wanted;
}

// The ZeRO page's chosen plan (details.recommended), read as the pipeline page reads it; where the ZeRO page chose
// none, the answers' batch and checkpointing at stage 0.
StepCandidate zeroPlanOf(const Advice& zero, const Answers& a)
{
    const BatchKeys batch = batchKeys(a);
    static const oj none = oj::object();
    const oj& rec = zero.details.contains("recommended") ? zero.details.at("recommended") : none;
    StepCandidate c;
    c.placement.stage = rec.value("stage", 0);
    c.placement.offloadOptimizer = rec.value("offload_optimizer", std::string("none"));
    c.placement.offloadParam = rec.value("offload_param", std::string("none"));
    c.checkpointing = rec.value("activation_checkpointing", a.text("training.activation_checkpointing") == "on");
    c.microBatch = std::max<std::int64_t>(1, rec.value("micro_batch_size", batch.microBatch));
    c.accumulation = std::max<std::int64_t>(1, rec.value("gradient_accumulation_steps", batch.gradientAccumulation));
    return c;
}

bool sameCandidate(const StepCandidate& x, const StepCandidate& y)
{
    return x.placement.stage == y.placement.stage && x.placement.offloadOptimizer == y.placement.offloadOptimizer
        && x.placement.offloadParam == y.placement.offloadParam && x.checkpointing == y.checkpointing
        && x.microBatch == y.microBatch && x.accumulation == y.accumulation;
}

} // namespace

OnebitStep onebitStep(const Answers& a, const Advice& zero, const PlanSearch* search)
{
    OnebitStep s;
    s.precision = resolvedPrecision(a);
    s.nodes = std::max<std::int64_t>(1, a.integer("hardware.nodes"));
    s.gpusPerNode = std::max<std::int64_t>(1, a.integer("hardware.gpus_per_node"));
    s.stages = std::max<std::int64_t>(1, a.integer("pipeline.stages"));
    s.dataParallel = std::max<std::int64_t>(1, s.nodes * s.gpusPerNode / s.stages);
    s.zeroPlan = zeroPlanOf(zero, a);
    if (zero.details.contains("recommended"))
        s.zeroStepSeconds = zero.details["recommended"].value("step_seconds", 0.0);
    s.plan = s.zeroPlan;
    s.plan.placement = Placement{0, "none", "none"};
    try {
        // The search's job is stepJobFrom of the answers before the chosen batch was written into them, which it
        // reads only as the global batch, kept.
        if (search) // assigned apart: `search ? search->job : stepJobFrom(a)` would copy the job twice
            s.job = search->job;
        else
            s.job = stepJobFrom(a);
        const StepPrediction* sized = nullptr;
        for (std::size_t i = 0; search && !sized && i < search->candidates.size(); ++i)
            if (sameCandidate(search->candidates[i].candidate, s.plan))
                sized = &search->candidates[i];
        if (sized) // likewise: one copy of the search's prediction, not two
            s.prediction = *sized;
        else
            s.prediction = predictStep(*s.job, s.plan);
    } catch (const std::invalid_argument& e) { // a contradictory shape, or an input the step time rejects
        s.job.reset();
        s.prediction = {};
        s.jobError = e.what();
    }
    s.timed = s.job && s.prediction.time.total > 0;
    if (s.job) {
        s.dataParallel = s.job->dataParallel;
        s.nodeGbps = s.job->time.nicGbps * static_cast<double>(s.job->time.nicsPerNode);
    }
    if (a.number("hardware.inter_node_gbps") <= 0)
        s.network = NetworkCatalog::instance().find(a.text("hardware.inter_node_network"));
    const double elementBytes = s.job ? s.job->time.elementBytes : (s.precision == "fp32" ? 4 : 2);
    s.cost = onebitCost(s.prediction.time, elementBytes, a.integer("training.total_steps"));

    if (s.dataParallel <= 1)
        s.verdict = "no-data-parallelism";
    else if (s.nodes <= 1)
        s.verdict = "single-node";
    else if (!s.timed)
        s.verdict = "compute-unknown";
    else
        s.verdict = s.time().gradientReduction >= s.time().compute ? "communication-bound" : "compute-bound";
    if (!s.job)
        s.untimedReason = s.jobError;
    else if (!s.timed && s.job->time.denseTflops <= 0)
        s.untimedReason = "the GPU catalog has no TFLOPS figure for " + a.text("hardware.gpu");
    else if (!s.timed)
        s.untimedReason = "pipeline.stages " + std::to_string(s.stages) + " does not divide the "
            + std::to_string(s.nodes * s.gpusPerNode) + " GPUs (see the pipeline step)";
    return s;
}

} // namespace dsw
