#include "util/Version.h"

#include "knowledge/KnowledgeFiles.h"

#include <cctype>
#include <nlohmann/json.hpp>

namespace dsw {

Version Version::parse(const std::string& text)
{
    Version v;
    size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
        int n = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && n < 100000)
            n = n * 10 + (text[i++] - '0');
        v.parts.push_back(n);
        if (i < text.size() && text[i] == '.')
            ++i;
        else
            break;
    }
    return v;
}

int Version::compare(const Version& other) const
{
    const size_t n = std::max(parts.size(), other.parts.size());
    for (size_t i = 0; i < n; ++i) {
        const int a = i < parts.size() ? parts[i] : 0;
        const int b = i < other.parts.size() ? other.parts[i] : 0;
        if (a != b)
            return a < b ? -1 : 1;
    }
    return 0;
}

const nlohmann::ordered_json& deepspeedKnowledge()
{
    static const nlohmann::ordered_json knowledge = nlohmann::ordered_json::parse(knowledgeFile("deepspeed.json"));
    return knowledge;
}

std::string knowledgeVersion()
{
    return deepspeedKnowledge().at("knowledge_version").get<std::string>();
}

std::string basisStatement()
{
    return "Based on DeepSpeed " + knowledgeVersion()
        + "'s documentation and code; ds-wizard did not run or test this configuration.";
}

} // namespace dsw
