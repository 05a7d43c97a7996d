#pragma once
#include "advise/Advice.h"
#include "advise/Job.h"
#include "advise/MemoryPlan.h"
#include "project/Answers.h"

#include <optional>
#include <vector>

namespace dsw {

struct MemoryAdvice {
    Advice advice;
    std::optional<memory::FailedRun> failedRun; // the run diagnosed, once a message is read and the job sized
    std::vector<memory::Remedy> remedies;       // the changes, cheapest first, each alone on the failed run
};

// Out-of-memory diagnosis: the parsed message, the likely cause, and the changes with their expected savings and
// trade-offs, for the setup the failed job ran (memory.ran_*, else the project's config: the ZeRO page's `zero`),
// sized for the plan's job on the GPU the message names.
MemoryAdvice adviseMemory(const Job& job, const ZeroDecision* zero, const Answers& answers);

} // namespace dsw
