#pragma once
// The one model of the job: the answers resolved once into what every page needs — the GPU, the precision DeepSpeed
// runs and why, the highest ZeRO stage the other features allow and why, the parallel layout, the training method,
// the model's shape as the step model sizes it, and the bytes there are. makePlan builds it once and hands it to
// every advisor and view; a fact two pages need is a field here, never re-derived from the answers' strings.
#include "advise/Advice.h"
#include "advise/BatchKeys.h"
#include "estimate/StepModel.h"
#include "knowledge/AdapterRules.h"
#include "knowledge/AdapterShape.h"
#include "knowledge/CombinationRules.h"
#include "knowledge/GpuCatalog.h"
#include "knowledge/MoeShape.h"
#include "project/Answers.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace dsw {

// How the world's GPUs are divided. Tensor, sequence and expert parallelism are not modelled yet: their degrees are
// present and 1, so the code that adds them has one place to change.
struct ParallelLayout {
    int gpusPerNode = 1;
    int nodes = 1;
    std::int64_t world = 1;
    std::int64_t pipeline = 1; // pipeline.stages
    std::int64_t tensor = 1;
    std::int64_t sequence = 1;
    std::int64_t expert = 1;
    std::int64_t data = 1; // world ÷ (pipeline × tensor × sequence), at least 1
    // DeepSpeed refuses a topology whose degrees do not divide the world.
    bool divides() const { return world % (pipeline * tensor * sequence) == 0; }
};

struct Job {
    const GpuSpec* gpu = nullptr; // the catalog's entry for hardware.gpu; null when it is not one
    PrecisionChoice precision;    // what DeepSpeed runs, with its reason (knowledge/CombinationRules.h)
    ZeroStageCap zeroLimit;       // pipeline ⇒ stages 0–1, a 1-bit optimizer ⇒ stage 0, else 3
    ParallelLayout layout;
    TrainingMethod method = TrainingMethod::Full; // training.method; the counts are step->method when sized
    std::string optimizer;                        // training.optimizer (adamw, onebit-adam, …)
    // The adapter rules' view of the job (knowledge/AdapterRules.h): method, pipeline, modules_to_save, dtype and
    // version; each page that plans a placement copies it and sets the stage and offload it writes.
    AdapterSetup adapters;
    BatchKeys batch; // the batch as the answers give it, before the ZeRO page picks a micro-batch
    // The step model's job (estimate/StepModel.h); none when the model's shape contradicts itself (shapeError) or
    // the model is one the step model does not describe (notModelled).
    std::optional<StepJob> step;
    std::string shapeError;
    // model.experts: routed experts per mixture-of-experts layer, 1 for a dense model. A mixture of experts is sized
    // with every expert (StepJob::moe); with a pipeline, or adapters on its MLPs, it is not sized and notModelled says
    // why and what the user can do.
    std::int64_t experts = 1;
    std::optional<MoeCounts> moeCounts; // total and per-token parameters, when the shape is valid
    std::string notModelled;
    double gpuCapacityBytes = 0; // one GPU, hardware.gpu_memory_gib
    // Where that capacity comes from, for the text shown with it: "as PyTorch reports it", "nvidia-smi's total; …",
    // "the wizard's assumption: …" (GpuSpec::usableNote), or "as given" when the user set hardware.gpu_memory_gib.
    std::string capacityNote;
    double usableGpuBytes = 0;   // what a plan may use: the capacity (estimate/StepModel.h: kTightBand)
    double hostBytesPerNode = 0; // hardware.cpu_memory_gib

    bool sized() const { return step.has_value(); }
    // Why the job is not sized, as every page that sizes says it: moe-not-modelled (notModelled) or
    // model-shape-invalid (shapeError), a failed check. Only for a job that is not sized.
    Check unsizedCheck() const;
    bool onebit() const { return isOnebitOptimizer(optimizer); }
};

Job resolveJob(const Answers& answers);

// Why a mixture of experts is not sized (Job::notModelled), and what the user can do instead: under a pipeline of
// `pipelineStages`, or with adapters on the MLPs of `step` (null when the shape is invalid); empty when it is sized.
std::string moeNotModelled(std::int64_t pipelineStages, const StepJob* step);

// The job as `recommend --format json` prints it ("job").
nlohmann::ordered_json toJson(const Job& job);

} // namespace dsw
