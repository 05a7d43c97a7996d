#pragma once
// The step-by-step plan of the out-of-memory workflow (MemoryAdvisor.h): the job as the answers describe it, the
// per-GPU and host estimates for a placement, and the planner that adds changes one at a time, each step's saving
// being the estimate before it minus the estimate after it.
#include "advise/Advice.h"
#include "advise/ZeroAdvisor.h"
#include "estimate/ActivationMemory.h"
#include "project/Answers.h"
#include "util/CheckedMath.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dsw::memory {

// Where the model states live and how the batch is cut: what the steps change.
struct Setup {
    int stage = 0;
    std::string offloadOptimizer = "none", offloadParam = "none"; // none | cpu | nvme
    bool checkpointing = false;
    std::int64_t micro = 1, accumulation = 1;
};

// What the steps do not change.
struct Job {
    std::int64_t params = 0, largest = 0, dataParallel = 1; // params: per pipeline stage
    int gpusPerNode = 1, nodes = 1;
    ActivationInputs shape{}; // microBatch is taken from the Setup
    double cpuBytes = 0, gpuCapacity = 0;
    bool nvmeReady = false; // hardware.nvme = nvme with a path
    std::string nvmePath, phase;
    ZeroStageLimit limit;
};

// The GPU that failed is the message's when it gives its size, else the answers'.
Job jobFrom(const Answers& answers, std::optional<std::int64_t> messageGpuBytes);
// The ZeRO workflow's recommendation (details["recommended"]), or what the answers force when there is none.
Setup setupFrom(const Answers& answers, const Advice& zero);

// Estimates, with the ZeRO workflow's conventions (models/estimate/PlacementMemory.h): the ZeRO paper without offload
// (+ 4·largest layer at stage 3), DeepSpeed's estimators with offload, Korthikanti et al. for activations.
std::int64_t gpuModelStates(const Job& job, const Setup& setup);
std::int64_t activations(const Job& job, const Setup& setup);
inline std::int64_t gpuTotal(const Job& job, const Setup& setup)
{
    return addSat(gpuModelStates(job, setup), activations(job, setup));
}
// Host RAM per node that an offloading placement needs.
std::int64_t offloadHostBytes(const Job& job, const Setup& setup);
// Host RAM per node while the model is built: `count` parameters × `bytes` × GPUs per node × 1.5 (DeepSpeed's
// estimator at stage 3 without offload counts Ψ at 4 bytes without zero.Init, the largest layer with it).
std::int64_t loadHostBytes(const Job& job, std::int64_t count, int bytes);

std::string deviceName(const std::string& device); // cpu → CPU, nvme → NVMe

// One suggested change. `saving` and `gpuAfter` are empty where no sourced estimate exists.
struct Step {
    std::string id; // stable: what kind of change, for the UI and tests
    std::string change;
    nlohmann::ordered_json config; // null unless a ds_config change
    std::string env, code, tradeoff, source;
    std::optional<std::int64_t> saving, gpuAfter;
};

Step makeStep(std::string id, std::string change, nlohmann::ordered_json config, std::string env, std::string code,
              std::string tradeoff, std::string source, std::optional<std::int64_t> saving = std::nullopt);

// The plan under construction: the job, the setup as the steps so far left it, and the advice its checks go to.
struct Planner {
    const Job& job;
    Setup setup;
    Advice& adv;
    std::vector<Step> steps;

    void warn(const std::string& code, const std::string& message, const std::string& source);
    // Adds a step unless its estimated saving is zero or negative (a step without an estimate is kept).
    bool add(Step step);
    // A GPU-side step: its saving is the estimate before minus after; when it saves, the setup moves on.
    bool gpuStep(Step step, const Setup& next);
    nlohmann::ordered_json offloadBlock(const std::string& device) const;

    // Smaller micro-batch with more accumulation, then activation checkpointing.
    void activationSteps();
    // Higher ZeRO stages (as far as the answers allow), then optimizer and parameter offload.
    void modelStateSteps();

private:
    void offloadSteps();
};

} // namespace dsw::memory
