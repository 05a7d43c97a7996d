#pragma once
#include "advise/Advice.h"
#include "project/Answers.h"

namespace dsw {

// fp16, bf16 or fp8 from what the GPU supports; fp16 and bf16 are never both enabled.
Advice advisePrecision(const Answers& answers);

} // namespace dsw
