#pragma once
#include "Advice.h"
#include "Answers.h"

namespace dsw {

// Sparse attention: pattern, sparse_attention block, layout checks, and whether the op can run at all.
Advice adviseSparse(const Answers& answers);

} // namespace dsw
