#include "knowledge/EngineFacts.h"

#include "util/Version.h"

#include <stdexcept>

namespace dsw {

namespace {

// `written` equals the lower-case `name` once its ASCII letters are folded, as Python's lower() folds them.
bool equalsFolded(std::string_view written, std::string_view name)
{
    if (written.size() != name.size())
        return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = written[i];
        if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != name[i])
            return false;
    }
    return true;
}

} // namespace

const OptimizerClass* OptimizerSpec::build(std::string_view kind) const
{
    for (const OptimizerBuild& b : builds)
        if (b.kind == kind)
            return &b.built;
    return nullptr;
}

const OptimizerSpec* findOptimizer(std::string_view type, const std::string& torchVersion)
{
    for (const OptimizerSpec& s : optimizerSpecs()) // the compiler refuses a DeepSpeed name with upper case
        if (s.deepspeedName && equalsFolded(type, s.name))
            return &s;
    for (const OptimizerSpec& s : optimizerSpecs())
        if (!s.deepspeedName && s.name == type)
            return s.torchFrom.empty() || torchVersion.empty() || versionAtLeast(torchVersion, std::string(s.torchFrom))
                ? &s
                : nullptr;
    return nullptr;
}

std::vector<std::string_view> optimizerNames()
{
    std::vector<std::string_view> names;
    for (const OptimizerSpec& s : optimizerSpecs())
        names.push_back(s.name);
    return names;
}

const SchedulerSpec* findScheduler(std::string_view type)
{
    for (const SchedulerSpec& s : schedulerSpecs())
        if (s.name == type)
            return &s;
    return nullptr;
}

std::vector<std::string_view> schedulerNames()
{
    std::vector<std::string_view> names;
    for (const SchedulerSpec& s : schedulerSpecs())
        names.push_back(s.name);
    return names;
}

VersionFact versionFact(const std::string& key)
{
    for (const VersionFactEntry& f : versionFactEntries())
        if (f.key == key)
            return {std::string(f.deepspeedFrom), std::string(f.torchFrom), std::string(f.source),
                    std::string(f.before)};
    throw std::out_of_range("deepspeed.json lists no version fact " + key);
}

} // namespace dsw
