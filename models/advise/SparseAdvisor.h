#pragma once
#include "advise/Advice.h"
#include "project/Answers.h"

namespace dsw {

// Sparse attention: pattern, sparse_attention block, layout checks, and whether the op can run at all.
Advice adviseSparse(const Answers& answers);

} // namespace dsw
