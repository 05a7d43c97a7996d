#pragma once
#include "advise/Advice.h"
#include "advise/Job.h"
#include "advise/ZeroDecision.h"
#include "project/Answers.h"

namespace dsw {

// 1-bit Adam / 0/1 Adam / 1-bit LAMB: whether it fits the model and cluster, its optimizer block and checks, at the
// ZeRO page's plan (`zero`, null when the job cannot be sized; the 1-bit optimizers need ZeRO stage 0).
Advice adviseOnebit(const Job& job, const ZeroDecision* zero, const Answers& answers);

} // namespace dsw
