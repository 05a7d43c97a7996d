#pragma once
// The step the 1-bit Adam page judges, as ds-wizard's step model (estimate/StepModel.h) times it, and what 1-bit
// compression would leave of it (estimate/OnebitCost.h).
#include "advise/Advice.h"
#include "advise/Job.h"
#include "advise/ZeroDecision.h"
#include "estimate/OnebitCost.h"
#include "estimate/StepModel.h"
#include "knowledge/NetworkCatalog.h"
#include "project/Answers.h"

#include <cstdint>
#include <optional>
#include <string>

namespace dsw {

// The step the 1-bit page judges: the ZeRO page's chosen plan at ZeRO stage 0 without offload (the only placement the
// 1-bit optimizers run at; the same plan when the ZeRO page chose stage 0), as ds-wizard's step model times it.
struct OnebitStep {
    std::string precision; // what DeepSpeed runs: fp16, bf16 or fp32
    std::int64_t nodes = 1, gpusPerNode = 1, stages = 1, dataParallel = 1;
    std::optional<StepJob> job; // none when the step model rejects the answers (jobError says why)
    std::string jobError;
    StepCandidate zeroPlan;
    double zeroStepSeconds = 0; // the ZeRO page's step time for zeroPlan (0: none given)
    StepCandidate plan;
    StepPrediction prediction;            // of plan
    bool timed = false;                   // the step model gave a time
    const NetworkSpec* network = nullptr; // the NIC rate is networks.tsv's (hardware.inter_node_gbps not given)
    double nodeGbps = 0;                  // the node's inter-node rate: NIC rate × NICs
    OnebitCost cost;
    // no-data-parallelism | single-node | compute-unknown | communication-bound | compute-bound
    std::string verdict;
    std::string untimedReason; // why the step model gave no time, when it gave none

    bool movedToStage0() const
    {
        const Placement& p = zeroPlan.placement;
        return p.stage != 0 || p.offloadOptimizer != "none" || p.offloadParam != "none";
    }
    const StepTime& time() const { return prediction.time; }
};

// The step at the ZeRO page's plan (`zero`, null when the job cannot be sized), moved to stage 0 without offload.
OnebitStep onebitStep(const Job& job, const ZeroDecision* zero, const Answers& answers);

} // namespace dsw
