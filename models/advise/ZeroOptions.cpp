// The ZeRO workflow's candidates: the plan search's predictions (advise/PlanSearch.h) as ZeroOptions, and the
// stage limits the other answers set.
#include "advise/ZeroAdvisor.h"

#include "advise/PlanSearch.h"
#include "knowledge/DeepSpeedFacts.h"
#include "knowledge/SourceCatalog.h"
#include "util/CheckedMath.h"

#include <algorithm>

namespace dsw {

std::string ZeroOption::label() const
{
    return planLabel({{stage, offloadOptimizer, offloadParam}, checkpointing, microBatch, accumulation});
}

ZeroStageLimit zeroStageLimit(const Answers& a)
{
    const std::string optimizer = a.text("training.optimizer");
    if (optimizer == "onebit-adam" || optimizer == "zero-one-adam" || optimizer == "onebit-lamb")
        return {0, "zero-limited-by-onebit",
                "The 1-bit optimizers are not compatible with ZeRO (" + quoteOf("ds-onebit-zero")
                    + "), so only stage 0 is considered.",
                "ds-onebit-zero"};
    if (a.integer("pipeline.stages") > 1)
        return {1, "zero-limited-by-pipeline",
                "Pipeline parallelism is used (pipeline.stages > 1): " + quoteOf("ds-pipe-zero")
                    + ", so only stages 0 and 1 are considered.",
                "ds-pipe-zero"};
    return {};
}

ZeroOption zeroOptionOf(const StepPrediction& p)
{
    ZeroOption o;
    o.stage = p.candidate.placement.stage;
    o.offloadOptimizer = p.candidate.placement.offloadOptimizer;
    o.offloadParam = p.candidate.placement.offloadParam;
    o.checkpointing = p.candidate.checkpointing;
    o.microBatch = p.candidate.microBatch;
    o.accumulation = p.candidate.accumulation;
    o.stepSeconds = p.time.total;
    o.tokensPerSecondPerGpu = p.time.tokensPerSecondPerGpu;
    o.activations = p.gpu.activations;
    o.gpu = p.gpu;
    o.gpuTotal = p.gpu.total;
    o.gpuModelStates = p.gpu.total - p.gpu.activations;
    o.cpuPerNode = p.cpuPerNode;
    o.nvmePerNode = p.nvmePerNode;
    o.gpuFormula = "DeepSpeed " + knowledgeVersion()
        + "'s allocations by component (parameters, gradients, optimizer states, buckets, "
          "CUDA context, NCCL, "
        + std::to_string(kFragmentationPercent) + "% fragmentation)";
    o.cpuFormula = "offloaded states and pinned buffers per node, as DeepSpeed's code allocates them";
    o.fitsGpu = p.fitsGpu;
    o.fitsCpu = p.fitsCpu;
    o.nvmeReady = p.nvmeReady;
    o.fitsNvme = p.fitsNvme;
    return o;
}

std::vector<ZeroOption> zeroOptions(const Answers& a)
{
    // What the user forced narrows the options; when nothing honours it, all are shown (adviseZero fails a check).
    const PlanSearch s = searchPlans(a);
    const bool any = std::find(s.asked.begin(), s.asked.end(), true) != s.asked.end();
    std::vector<ZeroOption> out;
    for (std::size_t i = 0; i < s.candidates.size(); ++i)
        if (!any || s.asked[i])
            out.push_back(zeroOptionOf(s.candidates[i]));
    return out;
}

} // namespace dsw
