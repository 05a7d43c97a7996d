#pragma once
#include "advise/Advice.h"
#include "project/Answers.h"

namespace dsw {

// fp16, bf16 or fp8 from what the GPU supports; fp16 and bf16 are never both enabled. training.precision_states =
// bf16 adds bf16.bf16_master_weights_and_grads and bf16_optimizer_states when DeepSpeed runs them for the ZeRO
// workflow's plan (`zero`; without one, the answers' zero.stage and offload), else fails a check naming the input.
Advice advisePrecision(const Answers& answers, const Advice& zero = {});

} // namespace dsw
