#pragma once
// The ZeRO page's decision, as a value every page reads: the plan search over every placement the job allows ×
// activation checkpointing × micro-batch (the gradient accumulation adjusted to keep the global batch), each
// candidate predicted by the step model (estimate/StepModel.h) and ranked by predicted time per optimizer step
// among those that fit; the plan the config is written for (what the user fixed narrows it), the wizard's own pick
// beside it, the stage table and the next plans with why each is slower. The ZeRO advisor explains it
// (advise/ZeroAdvisor.h); nothing decides it again.
#include "advise/Job.h"
#include "estimate/StepModel.h"
#include "project/Answers.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dsw {

// What the user fixed that the chosen plan must follow. Empty optionals were left to the wizard ("auto").
struct ZeroChoices {
    std::optional<int> stage;                    // zero.stage
    std::optional<std::string> offloadOptimizer; // zero.offload_optimizer: none | cpu | nvme
    std::optional<std::string> offloadParam;     // zero.offload_param
    std::optional<bool> checkpointing;           // training.activation_checkpointing
    std::optional<std::int64_t> microBatch;      // training.micro_batch_size typed, or a batch kept as typed
    std::optional<std::int64_t> accumulation;    // training.gradient_accumulation_steps typed with it
    bool batchAsTyped = false;     // the batch answers contradict each other: not searched (BatchKeys fails a check)
    bool bf16States = false;       // training.precision_states bf16: ZeRO 1–3 only
    bool fp32Accumulation = false; // pipeline.grad_accum_dtype fp32: ZeRO-1 without optimizer offload only

    bool any() const;
    // In words, for "With your …": "ZeRO stage 2 and micro-batch 4 × accumulation 2"; empty when nothing was fixed.
    std::string text() const;
};

// A plan after the chosen one, and the one reason it is slower.
struct ZeroAlternative {
    std::size_t index = 0; // into ZeroDecision::candidates
    std::string reason;
};

struct ZeroDecision;

// What the chosen plan changes in the training script beyond the config, where the search chose it (a fused
// cross-entropy, checkpointing only the first layers; each shown with its code), and the best plan that fits without.
struct ZeroLevers {
    std::vector<std::string> names;         // "a fused cross-entropy", "checkpointing only the first 12 of 32 layers"
    std::optional<std::size_t> bestWithout; // into ZeroDecision::candidates; nullopt: nothing fits without them
    // "a fused cross-entropy makes it 23% faster than the best plan without it (ZeRO-1, …)", "… makes it fit";
    // empty when the plan has none.
    std::string effect(const ZeroDecision& decision) const;
};

struct ZeroDecision {
    // Every candidate, fitting or not: those that fit fastest first, then the others by how far they are from
    // fitting. Each keeps its figures; only the chosen one keeps its memory by component (StepPrediction::memory).
    std::vector<StepPrediction> candidates;
    std::vector<bool> asked;               // per candidate: it honours every choice the user fixed
    std::size_t chosen = 0;                // the plan the config is written for
    std::optional<std::size_t> wizardPick; // the fastest fitting plan ignoring what the user fixed
    bool userForced = false;               // the chosen plan follows what the user fixed
    ZeroChoices fixed;
    // The stage table's rows: per stage without offload the best plan of that stage (the chosen plan and the pick
    // stand in their stage's row), then the chosen plan and the pick where they offload.
    std::vector<std::size_t> stageTable;
    std::vector<ZeroAlternative> alternatives; // the five fastest plans that fit after the chosen one
    ZeroLevers levers;

    const StepPrediction& plan() const { return candidates.at(chosen); }
    bool fits() const { return !candidates.empty() && plan().fits(); }
    bool anyFits() const { return !candidates.empty() && candidates.front().fits(); }
    // The best candidate at `stage` without offload, as the stage table shows it (null when the job allows none).
    const StepPrediction* atStage(int stage) const;
};

// The micro-batches tried for `perRankSamples` = micro-batch × accumulation: its divisors up to 64 (each with
// accumulation perRankSamples / micro), at most kMaxMicroBatches of them, smallest first.
inline constexpr std::size_t kMaxMicroBatches = 8;
std::vector<std::int64_t> microBatchesFor(std::int64_t perRankSamples);

// Plans within 2% of the fastest are as fast as the step model can tell (estimate/StepTime.h's calibration is not
// that exact); among them the simplest is taken. A stated wizard choice, not a measurement.
inline constexpr double kTimeTie = 1.02;
// A plan needing a change to the training script the user did not ask for (a fused loss, checkpointing only some layers)
// is taken over one without only when it is more than 5% faster: a stated wizard choice, a quarter of the step model's
// likely spread (kStepTimeLikelyLow/High, 0.78-1.29), since a script change costs the user work and a gain inside the
// spread may not be there.
inline constexpr double kLeverTie = 1.05;
// The same margin keeps a plan on the GPU over one that offloads: the model prices offload optimistically where it has
// been checked (D7: the measured backward grows from ≈0.5 to ≈2 s with offload, which it does not model), and offload
// takes host and pinned memory; with QLoRA and ZeRO-3 it even costs GPU memory (peft-deepspeed-qlora-70b).
// The changes to the training script a plan needs beyond the config that the search chose: a fused loss, checkpointing
// only some layers (0, 1 or 2).
int scriptChanges(const StepCandidate& candidate);
bool offloads(const StepCandidate& candidate); // optimizer or parameters off the GPU
// Sequence parallelism, TiledMLP and checkpoint offload left to the wizard are tried only for a job whose least
// activations (micro-batch 1, checkpointed, sp 1) take more than this share of the GPU, and the last two only where a
// plan's activations without them do too: below it they save little and cost time (the all-to-all, an MLP forward,
// host memory). A stated wizard choice that bounds the search.
inline constexpr double kLongContextLeverShare = 0.25;
// A plan within kTightBand of the GPU's capacity (estimate/StepModel.h) is taken only when no comfortable plan is within
// 10% of its time: a stated wizard choice, trading a little speed for not running out of memory.
inline constexpr double kTightTradeoff = 1.10;

// "12% faster": how much faster the faster of two step times is, as the ZeRO page words it ("as fast" when not).
std::string percentFaster(double slower, double faster);

// The decision for a sized job (job.sized()).
ZeroDecision decideZero(const Job& job, const Answers& answers);

// The answers the config is written from: with the chosen micro-batch and accumulation where the search chose them
// (no micro-batch typed, batch answers consistent), else the answers unchanged. The global batch is the same.
Answers withChosenBatch(const Answers& answers, const ZeroDecision& decision);

// The decision as `recommend --format json` prints it beside the ZeRO advice: candidates, chosen, wizard_pick,
// stage_table (indices into candidates), alternatives, what the user fixed.
nlohmann::ordered_json toJson(const ZeroDecision& decision);

} // namespace dsw
