#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace dsw {

// The C++ source of optimizerSpecs(), schedulerSpecs() and versionFactEntries() (knowledge/EngineFacts.h): the
// "optimizers", "lr_schedulers" and "version_facts" members of deepspeed.json as constant arrays of string views,
// so a run parses no JSON and allocates nothing to look an optimizer up. Checks the members as it writes them and throws
// std::invalid_argument saying which entry is wrong and how ("optimizers.deepspeed[2] (adagrad): ...").
std::string compiledEngineFactsSource(const nlohmann::ordered_json& knowledge);

} // namespace dsw
