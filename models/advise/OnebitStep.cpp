#include "advise/OnebitStep.h"

#include <algorithm>
#include <stdexcept>

namespace dsw {

namespace {

// The ZeRO page's chosen plan; where it has none, the answers' batch and checkpointing at stage 0.
StepCandidate zeroPlanOf(const ZeroDecision* zero, const Job& job, const Answers& a)
{
    if (zero && !zero->candidates.empty())
        return zero->plan().candidate;
    StepCandidate c;
    c.checkpointing = a.text("training.activation_checkpointing") == "on";
    c.microBatch = std::max<std::int64_t>(1, job.batch.microBatch);
    c.accumulation = std::max<std::int64_t>(1, job.batch.gradientAccumulation);
    return c;
}

bool sameCandidate(const StepCandidate& x, const StepCandidate& y)
{
    return x.placement.stage == y.placement.stage && x.placement.offloadOptimizer == y.placement.offloadOptimizer
        && x.placement.offloadParam == y.placement.offloadParam && x.checkpointing == y.checkpointing
        && x.microBatch == y.microBatch && x.accumulation == y.accumulation;
}

} // namespace

OnebitStep onebitStep(const Job& job, const ZeroDecision* zero, const Answers& a)
{
    OnebitStep s;
    s.precision = job.precision.runs;
    s.nodes = job.layout.nodes;
    s.gpusPerNode = job.layout.gpusPerNode;
    s.stages = job.layout.pipeline;
    s.dataParallel = job.layout.data;
    s.zeroPlan = zeroPlanOf(zero, job, a);
    if (zero && !zero->candidates.empty())
        s.zeroStepSeconds = zero->plan().time.total;
    s.plan = s.zeroPlan;
    s.plan.placement = Placement{0, "none", "none"};
    try {
        if (!job.step) // said short: the verdict quotes it, and the page's moe-not-modelled check says the rest
            throw std::invalid_argument(job.notModelled.empty()
                                            ? job.shapeError
                                            : "mixture of experts is not modelled yet (model.experts "
                                                + std::to_string(job.experts) + ")");
        s.job = job.step;
        // The ZeRO page sized this plan already when it chose stage 0 (the same numbers: predictStep is pure).
        const StepPrediction* sized = nullptr;
        for (std::size_t i = 0; zero && !sized && i < zero->candidates.size(); ++i)
            if (sameCandidate(zero->candidates[i].candidate, s.plan))
                sized = &zero->candidates[i];
        s.prediction = sized ? *sized : predictStep(*s.job, s.plan);
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
