#pragma once
#include "advise/Advice.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

// A problem between workflows (two fragments that disagree), never resolved silently.
struct Finding {
    CheckLevel level = CheckLevel::Warn;
    std::string code;
    std::string message;
    std::vector<std::string> workflows;
};

struct ComposedConfig {
    nlohmann::ordered_json config = nlohmann::ordered_json::object();
    std::vector<Finding> findings;
};

// The fixed top-level key order of composed configs; keys not listed follow in the order first seen.
const std::vector<std::string>& composedKeyOrder();

// Merges the fragments (base first, then each workflow's) into one ds_config. Objects merge key by key;
// a scalar set to two different values is a finding, and the first value stays.
ComposedConfig composeConfig(const std::vector<std::pair<std::string, nlohmann::ordered_json>>& fragments);
// The same over fragments held elsewhere (the plan's advice), without copying them.
struct FragmentRef {
    const std::string* workflow;
    const nlohmann::ordered_json* fragment;
};
ComposedConfig composeConfig(const std::vector<FragmentRef>& fragments);

} // namespace dsw
