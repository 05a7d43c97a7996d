#pragma once
#include "advise/Advice.h"
#include "project/Answers.h"

namespace dsw {

// Out-of-memory diagnosis: the parsed message, the likely cause, and a step-by-step plan of config
// changes with their expected savings and trade-offs. `zero` is the ZeRO workflow's advice.
Advice adviseMemory(const Answers& answers);

} // namespace dsw
