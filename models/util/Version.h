#pragma once
#include <string>
#include <vector>

namespace dsw {

// Dotted version numbers ("0.19.5", "2.8.0+cu124"), compared numerically part by part.
struct Version {
    std::vector<int> parts;
    static Version parse(const std::string& text); // non-numeric suffixes are ignored
    bool valid() const { return !parts.empty(); }
    int compare(const Version& other) const; // <0, 0, >0
};

inline bool versionAtLeast(const std::string& version, const std::string& minimum)
{
    return Version::parse(version).compare(Version::parse(minimum)) >= 0;
}

} // namespace dsw
