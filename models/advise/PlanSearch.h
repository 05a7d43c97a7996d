#pragma once
// The ZeRO workflow's search: every placement the answers allow × activation checkpointing × micro-batch (the
// gradient accumulation adjusted to keep the global batch), each predicted by the step model
// (estimate/StepModel.h), ranked by predicted time per optimizer step among those that fit. What the user
// forces (zero.stage, zero.offload_*, training.activation_checkpointing) narrows the chosen plan, and the
// wizard's own pick without those choices is kept beside it for comparison. A micro-batch the user typed
// (training.micro_batch_size given) is a forced choice too; the default one is searched.
#include "advise/ZeroAdvisor.h"
#include "estimate/StepModel.h"
#include "project/Answers.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace dsw {

struct PlanSearch {
    StepJob job;
    // Every candidate, fitting or not: those that fit fastest first, then the others by GPU memory. Each keeps its
    // figures (gpu, cpuPerNode, nvmePerNode, activations, time); only the chosen one keeps its memory by component
    // (StepPrediction::memory), the one the pages show: the others' lists are dropped as they are sized, so a search
    // holds one list instead of 160.
    std::vector<StepPrediction> candidates;
    std::vector<bool> asked;               // per candidate: it honours every choice the user forced
    std::size_t chosen = 0;                // index into candidates: the plan the config is written for
    std::optional<std::size_t> wizardPick; // the fastest fitting plan ignoring the user's forced choices
    bool userForced = false;               // the chosen plan follows a forced stage, offload or checkpointing
    bool anyFits() const { return !candidates.empty() && candidates.front().fits(); }
};

// The micro-batches tried for `perRankSamples` = micro-batch × accumulation: its divisors up to 64 (each with
// accumulation perRankSamples / micro), at most kMaxMicroBatches of them, smallest first.
inline constexpr std::size_t kMaxMicroBatches = 8;
std::vector<std::int64_t> microBatchesFor(std::int64_t perRankSamples);

PlanSearch searchPlans(const Answers& answers);

// The answers the config is written from: with the chosen micro-batch and accumulation where the search chose
// them (no micro-batch typed, batch answers consistent), else the answers unchanged. The global batch is the same.
Answers withChosenBatch(const Answers& answers, std::int64_t microBatch, std::int64_t accumulation);

} // namespace dsw
