#pragma once
// One page's advice as the wizard computes it: makePlan resolves the job once, decides the ZeRO page and hands both
// to every page. Tests of a page go through it rather than calling its advisor with a job of their own making.
#include "Plan.h"
#include "advise/Job.h"
#include "advise/ZeroDecision.h"
#include "estimate/StepModel.h"

#include <stdexcept>
#include <string>

namespace dsw {

inline Advice adviceFor(const std::string& workflow, const Answers& answers)
{
    const Plan plan = makePlan(answers);
    return *plan.find(workflow);
}

// A ZeRO decision whose plan is `candidate`, sized by the step model for `job` (which must be sized), or left unsized
// where the step model refuses it (a ZeRO-2 plan under a pipeline, which the page under test must catch): for tests
// that drive a page at a ZeRO plan of their choosing.
inline ZeroDecision decisionWith(const Job& job, const StepCandidate& candidate)
{
    ZeroDecision d;
    StepPrediction p;
    p.candidate = candidate;
    try {
        p = predictStep(*job.step, candidate);
    } catch (const std::invalid_argument&) {
    }
    d.candidates.push_back(p);
    d.asked.push_back(true);
    d.stageTable.push_back(0);
    return d;
}

} // namespace dsw
