#include "knowledge/DeepSpeedFacts.h"

#include "knowledge/KnowledgeFiles.h"

namespace dsw {

const nlohmann::ordered_json& deepspeedKnowledge()
{
    static const nlohmann::ordered_json knowledge = nlohmann::ordered_json::parse(knowledgeFile("deepspeed.json"));
    return knowledge;
}

std::string knowledgeVersion() { return deepspeedKnowledge().at("knowledge_version").get<std::string>(); }

std::string basisStatement()
{
    return "Based on DeepSpeed " + knowledgeVersion()
        + "'s documentation and code; ds-wizard did not run or test this configuration.";
}

} // namespace dsw
