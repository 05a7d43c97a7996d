#pragma once
#include "Plan.h"

#include <string>

namespace dsw {

// `recommend --format text`: the plan as a terminal reads it.
std::string planText(const Plan& plan, const std::string& onlyWorkflow = {});

} // namespace dsw
