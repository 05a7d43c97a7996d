#pragma once
#include "estimate/StepTime.h"

#include <cstdint>
#include <optional>

namespace dsw {

// The wizard's own assumption, stated wherever it is shown: freeze_step at 20% of the total steps (the middle of
// the 1-bit Adam tutorial's "15-25%").
inline constexpr double kOnebitWarmupShare = 0.20;

// What 1-bit compression would leave of one optimizer step that ds-wizard's step-time model timed
// (estimate/StepTime.h). Only the step model's gradient reduction is compressed; compute, the parameter
// all-gathers, offload and the bubble stay as they are.
//   compression stage = gradient reduction ÷ (8·b)                        (1-bit Adam blog: 16x for 16-bit)
//   run average       = gradient reduction × (w + (1 − w) ÷ (8·b)), w = freeze_step ÷ total steps (the blog's ratio)
struct OnebitCost {
    double compression = 16;            // compression-stage volume ratio: bits per element → 1 bit
    std::int64_t freezeStep = 1;        // round(kOnebitWarmupShare × total steps), at least 1
    double warmup = kOnebitWarmupShare; // freeze_step ÷ total steps
    double gradientReduction = 0;       // the step model's, seconds per step (what overlap does not hide)
    double compressedStage = 0;         // seconds per step in the compression stage
    double compressedAverage = 0;       // seconds per step averaged over warm-up and compression stages
    double communicationLeft = 0;       // the step's communication with the gradient reduction at its run average
    double stepLeft = 0;                // the step's total likewise
    std::optional<double> saving;       // share of the step's total saved; none when the step is not timed
};

// elementBytes: of the gradients (2 for fp16/bf16, 4 for fp32); totalSteps: training.total_steps.
OnebitCost onebitCost(const StepTime& step, double elementBytes, std::int64_t totalSteps);

} // namespace dsw
