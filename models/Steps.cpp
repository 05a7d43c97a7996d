#include "Steps.h"

#include <algorithm>

namespace dsw {

std::vector<std::string> wizardSteps()
{
    std::vector<std::string> steps = {"setup"};
    steps.insert(steps.end(), workflowIds().begin(), workflowIds().end());
    steps.push_back("summary");
    return steps;
}

std::string stepTitle(const std::string& step)
{
    if (step == "setup")
        return "Setup";
    if (step == "summary")
        return "Summary";
    if (step == "zero")
        return "ZeRO";
    return workflowTitle(step);
}

StepState stepState(const Plan& plan, const Project& project, const std::string& step)
{
    if (step == "setup")
        return plan.inputErrors.empty() ? StepState::Complete : StepState::NeedsInput;
    const Advice* advice = plan.find(step);
    if (!advice)
        return StepState::NotVisited;
    const bool conflict =
        advice->hasFailedCheck() || std::any_of(plan.findings.begin(), plan.findings.end(), [&](const Finding& f) {
            return std::find(f.workflows.begin(), f.workflows.end(), step) != f.workflows.end();
        });
    if (conflict)
        return StepState::Conflict;
    if (advice->status == AdviceStatus::NeedsInput)
        return StepState::NeedsInput;
    return project.isHandled(step) ? StepState::Complete : StepState::NotVisited;
}

std::string toString(StepState state)
{
    switch (state) {
    case StepState::NotVisited: return "not visited";
    case StepState::Complete: return "complete";
    case StepState::NeedsInput: return "needs input";
    case StepState::Conflict: return "conflict";
    }
    return "";
}

} // namespace dsw
