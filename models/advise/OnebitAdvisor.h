#pragma once
#include "advise/Advice.h"
#include "project/Answers.h"

namespace dsw {

// 1-bit Adam / 0/1 Adam / 1-bit LAMB: whether it fits the model and cluster, its optimizer block and
// checks. `zero` is the ZeRO workflow's advice (the 1-bit optimizers need ZeRO stage 0); `search`, when given, the
// plan search it was written from (advise/OnebitStep.h: its step model figures are reused).
struct PlanSearch;
Advice adviseOnebit(const Answers& answers, const Advice& zero, const PlanSearch* search = nullptr);

} // namespace dsw
