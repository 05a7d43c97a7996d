#pragma once
#include "advise/Advice.h"
#include "advise/Job.h"
#include "project/Answers.h"

namespace dsw {

// Sparse attention: pattern, sparse_attention block, layout checks, and whether the op can run at all.
Advice adviseSparse(const Job& job, const Answers& answers);

} // namespace dsw
