#pragma once
#include "advise/Advice.h"
#include "advise/Job.h"
#include "advise/ZeroDecision.h"
#include "project/Answers.h"

namespace dsw {

// The precision block for the precision the job resolved (advise/Job.h: bf16 where the GPU and DeepSpeed have it,
// fp16 with dynamic loss scaling otherwise; never both). training.precision_states = bf16 adds
// bf16.bf16_master_weights_and_grads and bf16_optimizer_states when DeepSpeed runs them for the ZeRO page's plan
// (`zero`; null: the answers' zero.stage and offload), else fails a check naming the input.
Advice advisePrecision(const Job& job, const ZeroDecision* zero, const Answers& answers);

} // namespace dsw
