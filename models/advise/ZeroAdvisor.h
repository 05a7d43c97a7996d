#pragma once
// The ZeRO page's advice: it explains the ZeRO decision (advise/ZeroDecision.h) — the config fragment, the checks,
// the memory and time figures, the trade-offs and snippets — and decides nothing again.
#include "advise/Advice.h"
#include "advise/Job.h"
#include "advise/ZeroDecision.h"
#include "project/Answers.h"

#include <string>

namespace dsw {

Advice adviseZero(const Job& job, const ZeroDecision& decision, const Answers& answers);
// The advice when the model's shape contradicts itself (job.shapeError): nothing can be sized.
Advice adviseZeroShapeInvalid(const std::string& error);
// The advice for a job that is not modelled (job.notModelled: a mixture of experts): no stage is sized or chosen;
// the config holds the ZeRO block only when zero.stage is set, as set.
Advice adviseZeroNotModelled(const Job& job, const Answers& answers);

} // namespace dsw
