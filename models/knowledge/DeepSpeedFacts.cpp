#include "knowledge/DeepSpeedFacts.h"

#include "knowledge/KnowledgeFiles.h"

#include <stdexcept>

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

TorchRequirement torchRequirement()
{
    const auto& r = deepspeedKnowledge().at("torch_requirement");
    return {r.at("minimum").get<std::string>(), r.at("known_from").get<std::string>()};
}

ChangedDefault changedDefault(const std::string& key)
{
    for (const auto& change : deepspeedKnowledge().at("changed_defaults"))
        if (change.at("key") == key)
            return {change.at("from").get<std::string>(), change.at("old"), change.at("new")};
    throw std::out_of_range("deepspeed.json lists no changed default for " + key);
}

} // namespace dsw
