#pragma once
#include "advise/Advice.h"
#include "advise/Job.h"
#include "advise/MemoryPlan.h"
#include "project/Answers.h"

#include <vector>

namespace dsw {

struct MemoryAdvice {
    Advice advice;
    std::vector<memory::Remedy>
        remedies; // the changes in order, each building on the ones before (Apply previews them)
};

// Out-of-memory diagnosis: the parsed message, the likely cause, and a step-by-step plan of config changes with
// their expected savings and trade-offs, for the setup the failed job ran (memory.ran_*), sized for the plan's job
// on the GPU the message names.
MemoryAdvice adviseMemory(const Job& job, const Answers& answers);

} // namespace dsw
