#pragma once
// What ds-wizard knows of DeepSpeed itself, from resources/knowledge/deepspeed.json. Kept apart from
// util/Version.h so that the version type reads no knowledge file (util/ comes before knowledge/).
#include <nlohmann/json.hpp>
#include <string>

namespace dsw {

// resources/knowledge/deepspeed.json, parsed once (key order kept).
const nlohmann::ordered_json& deepspeedKnowledge();
// The DeepSpeed version ds-wizard's knowledge was read from, and the sentence every recommendation carries.
std::string knowledgeVersion();
std::string basisStatement();

} // namespace dsw
