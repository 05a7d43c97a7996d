#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

// Dotted version numbers ("0.19.5", "2.8.0+cu124"), compared numerically part by part.
struct Version {
    std::vector<int> parts;
    static Version parse(const std::string& text); // non-numeric suffixes are ignored
    bool valid() const { return !parts.empty(); }
    int compare(const Version& other) const;       // <0, 0, >0
};

inline bool versionAtLeast(const std::string& version, const std::string& minimum)
{
    return Version::parse(version).compare(Version::parse(minimum)) >= 0;
}

// The DeepSpeed version ds-wizard's knowledge was read from, and the sentence every recommendation carries.
std::string knowledgeVersion();
// resources/knowledge/deepspeed.json, parsed once (key order kept).
const nlohmann::ordered_json& deepspeedKnowledge();
std::string basisStatement();

} // namespace dsw
