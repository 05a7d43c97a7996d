#pragma once
#include "advise/Advice.h"
#include "advise/Job.h"
#include "advise/ZeroDecision.h"
#include "project/Answers.h"

namespace dsw {

// Sparse attention: pattern, sparse_attention block, layout checks, and whether the op can run at all; for long
// sequences, the ZeRO page's long-context plan (`zero`, null when the job is not sized) with its numbers.
Advice adviseSparse(const Job& job, const ZeroDecision* zero, const Answers& answers);

} // namespace dsw
