#pragma once
#include "Plan.h"
#include "project/ProjectFile.h"

#include <string>
#include <vector>

namespace dsw {

// How a wizard step stands, as the sidebar shows it.
enum class StepState { NotVisited, Complete, NeedsInput, Conflict };

// The wizard's steps: "setup", each workflow id, "summary".
std::vector<std::string> wizardSteps();
std::string stepTitle(const std::string& step);

// Setup is complete when every answer validates; a workflow shows a conflict when one of its checks
// failed or a finding names it, needs input when inputs are missing, and complete once handled.
StepState stepState(const Plan& plan, const Project& project, const std::string& step);
std::string toString(StepState state);

} // namespace dsw
