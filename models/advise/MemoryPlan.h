#pragma once
// The plan of the out-of-memory workflow (MemoryAdvisor.h): the job as the answers describe it, the failed run, the
// per-GPU and host figures of the step model for a setup, and the planner whose steps each apply alone to the failed
// run, a step's saving being the prediction for the failed run minus the prediction with the step.
#include "advise/Advice.h"
#include "advise/Job.h"
#include "estimate/StepModel.h"
#include "knowledge/AttentionDefault.h"
#include "project/Answers.h"
#include "util/CheckedMath.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dsw {
struct ZeroDecision;
}

namespace dsw::memory {

// Where the model states live, how the batch is cut and which kernels run: what the steps change.
struct Setup {
    int stage = 0;
    std::string offloadOptimizer = "none", offloadParam = "none"; // none | cpu | nvme
    bool checkpointing = false;
    std::int64_t micro = 1, accumulation = 1;
    AttentionImpl attention = AttentionImpl::Flash;
    LossImpl loss = LossImpl::Standard;
    std::int64_t sequenceParallel = 1; // Ulysses (ALST)
    bool tiledMlp = false;
    bool checkpointOffload = false;
    bool operator==(const Setup&) const = default;
};

// The setup of the project's config: the ZeRO page's chosen plan (what the JSON shows) with the job's kernels; without
// a decision, DeepSpeed's defaults (ZeRO off, no offload) and the answers' batch.
Setup configSetup(const Job& job, const ZeroDecision* zero);

// The setup the failed job ran, as the memory.ran_* answers give it. An answer not given takes the project's config's
// value (`config`) and is listed in fromConfig: the window sets those answers when the message is pasted, so the run
// stays the one diagnosed whatever the config becomes. An offload that cannot exist at the stage it ran (parameter
// offload below stage 3, any offload at stage 0: DeepSpeed reads neither there, knowledge/CombinationRules.h) is not
// asked: it is in notAsked and is "none".
struct RanSetup {
    Setup setup;
    std::vector<std::string> fromConfig; // answer ids: memory.ran_stage, memory.ran_offload_optimizer, ...
    std::vector<std::string> notAsked;   // memory.ran_offload_param below stage 3, memory.ran_offload_optimizer at 0
};

// The job that ran out of memory, as the steps size it: the plan's job (advise/Job.h) on the GPU the message names.
// What the steps do not change.
struct FailedJob {
    StepJob step; // the step model's job (estimate/StepModel.h), on the message's GPU when it gives its size
    std::int64_t params = 0, largest = 0, dataParallel = 1; // params: per pipeline stage
    int gpusPerNode = 1, nodes = 1;
    double cpuBytes = 0, gpuCapacity = 0;
    bool nvmeReady = false; // hardware.nvme = nvme with a path
    std::string nvmePath, phase;
    ZeroStageCap limit; // the job's (advise/Job.h): pipeline ⇒ stages 0–1, a 1-bit optimizer ⇒ 0
    std::string limitReason() const { return limit.rule ? limit.rule->message : std::string(); }
    AttentionDefault bestAttention; // the kernel this GPU and PyTorch can use (knowledge/AttentionDefault.h)
};

// The GPU that failed is the message's when it gives its size, else the answers'. Throws std::invalid_argument
// naming the input when the model's shape contradicts itself (job.shapeError).
FailedJob failedJobFrom(const Job& job, const Answers& answers, std::optional<std::int64_t> messageGpuBytes);
RanSetup ranSetupFrom(const Answers& answers, const Setup& config);
// The memory.ran_* answer that holds each part of `setup`, with its value there (what the window freezes).
std::vector<std::pair<std::string, nlohmann::json>> ranAnswers(const Setup& setup);

// The step model's prediction for the setup (estimate/StepModel.h): DeepSpeed 0.19.5's allocations, activations
// operation by operation, the CUDA context, NCCL and the allocator's reserve.
StepPrediction predict(const FailedJob& job, const Setup& setup);
// Parameters, gradients and optimizer states per GPU (the step model's rows).
std::int64_t gpuModelStates(const FailedJob& job, const Setup& setup);
std::int64_t activations(const FailedJob& job, const Setup& setup);
inline std::int64_t gpuTotal(const FailedJob& job, const Setup& setup) { return predict(job, setup).gpu.total; }
// Host RAM per node that an offloading placement needs (the optimizer offloaded to the CPU where it is not).
std::int64_t offloadHostBytes(const FailedJob& job, const Setup& setup);
// Host RAM per node while the model is built: `count` parameters × `bytes` × GPUs per node × 1.5 (DeepSpeed's
// estimator at stage 3 without offload counts Ψ at 4 bytes without zero.Init, the largest layer with it).
std::int64_t loadHostBytes(const FailedJob& job, std::int64_t count, int bytes);

std::string deviceName(const std::string& device); // cpu → CPU, nvme → NVMe
// A step that needs another ZeRO stage says so in its name: " (ZeRO stage 1 → 3)", empty when it stays.
std::string stageChange(int from, int to);

// The failed run as diagnosed, and the step model's prediction for it: what every step is compared with.
struct FailedRun {
    RanSetup ran;
    StepPrediction predicted;
};

// One suggested change, applied alone to the failed run. `saving` and `after` are empty where no sourced estimate
// exists.
struct Remedy {
    std::string id; // stable: what kind of change, for the UI and tests
    std::string change;
    nlohmann::ordered_json config; // null unless a ds_config change
    std::string env, code, tradeoff, source;
    std::optional<std::int64_t> saving;
    // The failed run's setup with this change where answers hold it (Apply sets them); none for a change only the
    // config or the code holds (buckets, the allocator, pinned memory).
    std::optional<Setup> setupAfter;
    std::optional<StepPrediction> after; // the step model on the failed run with this change alone
    std::optional<std::int64_t> gpuAfter() const
    {
        return after ? std::optional<std::int64_t>(after->gpu.total) : std::nullopt;
    }
};

Remedy makeRemedy(std::string id, std::string change, nlohmann::ordered_json config, std::string env, std::string code,
                  std::string tradeoff, std::string source, std::optional<std::int64_t> saving = std::nullopt);

// The plan under construction: the job, the failed run every step is applied to alone, and the advice its checks go
// to. Steps come cheapest first (kernels, buckets, the batch, checkpointing, then ZeRO stages and offload); none
// raises the per-GPU prediction, and only a step that says so changes the ZeRO stage.
struct RemedyPlanner {
    RemedyPlanner(FailedJob failedJob, const Setup& ranSetup, Advice& advice);
    const FailedJob job;
    const Setup ran;
    const StepPrediction ranPrediction;
    Advice& adv;
    std::vector<Remedy> remedies;
    // No step saves more than was in use: the message's reserved (else allocated) bytes, else the GPU or host RAM.
    std::optional<std::int64_t> inUse;
    std::string inUseBasis; // "the message's 74.0 GiB reserved by PyTorch"

    void warn(const std::string& code, const std::string& message, const std::string& source);
    // Adds a step unless its estimated saving is zero or negative (a step without an estimate is kept); a saving
    // above inUse is cut to it, and the step says so.
    bool add(Remedy remedy);
    // A step the answers hold: the failed run with `next` instead; its saving is the prediction for the failed run
    // minus the prediction after.
    bool gpuRemedy(Remedy step, const Setup& next);
    // The same for a change only the config holds (the bucket size): the failed run on the changed job.
    bool jobRemedy(Remedy step, const FailedJob& next);
    nlohmann::ordered_json offloadBlock(const std::string& device) const;

    // The first-line fixes: an attention kernel that does not materialise the s×s scores, a fused loss, a
    // smaller reduce bucket (when `buckets`).
    void kernelRemedies(bool buckets);
    // Smaller micro-batch with more accumulation, activation checkpointing, then ALST's pieces for a long sequence
    // (longContextRemedies).
    void activationRemedies();
    // DeepSpeed-Ulysses at the smallest degree that fits (else the largest the rules allow), TiledMLP and checkpoint
    // offload with checkpointing on.
    void longContextRemedies();
    // Higher ZeRO stages (as far as the answers allow), then optimizer and parameter offload.
    void modelStateRemedies();

private:
    bool sized(Remedy step, StepPrediction after);
    void offloadRemedies();
};

} // namespace dsw::memory
