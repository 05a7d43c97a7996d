#pragma once
// What the ZeRO page says and writes for a mixture of experts (knowledge/MoeShape.h): the path DeepSpeed runs the
// experts on for the chosen plan (ZeRO-3 leaf modules, AutoEP, native deepspeed.moe, or every expert on every GPU),
// its config keys and code, its rules with their sources and versions, the gathered block and the all-to-all time, and
// whether ZeRO-3 without expert parallelism is several times slower than the best expert-parallel plan.
#include "advise/Advice.h"
#include "advise/Job.h"
#include "advise/ZeroDecision.h"

namespace dsw {

// What the plan `c` of a mixture of experts asks of the training script and the libraries, as launch.sh's FILL IN
// lines (each ending in a newline): the leaf-module classes, AutoEP's Transformers version and preset, native MoE's
// layers and parameter groups; empty for every expert on every GPU.
std::string moeLaunchNote(const StepJob& job, const StepCandidate& c, const Answers& a);

// Adds the MoE checks, estimates, snippets and config keys of `d`'s chosen plan to `adv` (a sized MoE job only).
void addMoeAdvice(Advice& adv, const Job& job, const ZeroDecision& d, const Answers& a);

} // namespace dsw
