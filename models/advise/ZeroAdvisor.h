#pragma once
#include "advise/Advice.h"
#include "estimate/PlacementMemory.h" // paramsPerPipelineStage
#include "estimate/StepModel.h"
#include "project/Answers.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dsw {

// One way to place the model states (a ZeRO stage, where optimizer states and parameters live, activation
// checkpointing on or off, the micro-batch and accumulation) with what it needs per GPU, per node's RAM and per
// node's NVMe, and its predicted step time: a candidate of the plan search (advise/PlanSearch.h) as pages read it.
struct ZeroOption {
    int stage = 0;
    std::string offloadOptimizer = "none"; // none | cpu | nvme
    std::string offloadParam = "none";
    bool checkpointing = false;
    std::int64_t microBatch = 1;
    std::int64_t accumulation = 1;
    double stepSeconds = 0; // predicted per optimizer step (estimate/StepTime.h); 0 when the GPU has no TFLOPS figure
    double tokensPerSecondPerGpu = 0;
    GpuBytes gpu; // per GPU at the peak, by what it holds; gpu.total is gpuTotal

    std::int64_t gpuModelStates = 0;
    std::int64_t activations = 0;
    std::int64_t gpuTotal = 0;
    std::int64_t cpuPerNode = 0;
    std::int64_t nvmePerNode = 0;
    std::string gpuFormula;
    std::string cpuFormula;

    bool fitsGpu = false;
    bool fitsCpu = false;
    bool nvmeReady = true; // NVMe present with a path, when the option uses it
    bool fitsNvme = true;
    bool fits() const { return fitsGpu && fitsCpu && nvmeReady && fitsNvme; }
    std::string label() const;
};

// The highest ZeRO stage the other answers allow, and why: pipeline parallelism allows stages 0–1,
// the 1-bit optimizers stage 0 only (deepspeed-facts §2.9, §2.10).
struct ZeroStageLimit {
    int maxStage = 3;
    std::string code; // stable id of the rule, empty when nothing limits the stage
    std::string reason;
    std::string source;
};
ZeroStageLimit zeroStageLimit(const Answers& answers);

// The candidates of the plan search that honour what the user forced (stage, offload, checkpointing, a typed
// micro-batch): those that fit fastest first (by the step model), then the others.
std::vector<ZeroOption> zeroOptions(const Answers& answers);
ZeroOption zeroOptionOf(const StepPrediction& prediction);

struct PlanSearch; // advise/PlanSearch.h

// The ZeRO workflow's advice from its plan search (searchPlans(answers), or the one PlanSearchMemo stored for them).
Advice adviseZero(const Answers& answers);
Advice adviseZero(const Answers& answers, const PlanSearch& search);
// The advice when the model's shape contradicts itself (searchPlans threw `error`): nothing can be sized.
Advice adviseZeroShapeInvalid(const std::string& error);
// Every candidate the search sized, as `recommend --format json` prints them (details "candidates", which the
// advice itself does not hold: no view reads them).
nlohmann::ordered_json zeroCandidatesJson(const PlanSearch& search);

} // namespace dsw
