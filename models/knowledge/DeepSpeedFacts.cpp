#include "knowledge/DeepSpeedFacts.h"

#include "knowledge/KnowledgeFiles.h"

#include <stdexcept>

namespace dsw {

using oj = nlohmann::ordered_json;

const nlohmann::ordered_json& deepspeedKnowledge()
{
    // Never destroyed: it lives until the process ends, and freeing it at exit would only delay the exit.
    static const oj& knowledge = *new oj(oj::parse(knowledgeFile("deepspeed.json")));
    return knowledge;
}

std::string knowledgeVersion()
{
    static const std::string& version =
        *new std::string(deepspeedKnowledge().at("knowledge_version").get<std::string>());
    return version;
}

std::string basisStatement()
{
    static const std::string& statement =
        *new std::string("Based on DeepSpeed " + knowledgeVersion()
                         + "'s documentation and code; ds-wizard did not run or test this configuration.");
    return statement;
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
