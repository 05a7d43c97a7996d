#pragma once
// What ds-wizard knows of DeepSpeed itself, from resources/knowledge/deepspeed.json. Kept apart from
// util/Version.h so that the version type reads no knowledge file (util/ comes before knowledge/).
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace dsw {

// resources/knowledge/deepspeed.json, parsed once (key order kept); the reference lives as long as the program.
const nlohmann::ordered_json& deepspeedKnowledge();
// The DeepSpeed version ds-wizard's knowledge was read from, and the sentence every recommendation carries.
std::string knowledgeVersion();
std::string basisStatement();

// DeepSpeed's own torch requirement (requirements.txt): the minimum torch, and the DeepSpeed version the facts
// show it in (the first version that had it is not known, so older ones get a warning, not a verdict).
struct TorchRequirement {
    std::string minimum;   // "2.0.0"
    std::string knownFrom; // "0.19.5"
};
TorchRequirement torchRequirement();

// A config default that changed between DeepSpeed versions (deepspeed.json "changed_defaults"): the version it
// changed in, and the value before and from then. Throws std::out_of_range for a key not listed there.
struct ChangedDefault {
    std::string from;
    nlohmann::ordered_json before, after;
};
ChangedDefault changedDefault(const std::string& key);

} // namespace dsw
