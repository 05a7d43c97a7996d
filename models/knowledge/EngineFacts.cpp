#include "knowledge/EngineFacts.h"

#include "knowledge/DeepSpeedFacts.h"
#include "util/Version.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

std::vector<std::string> strings(const oj& list)
{
    std::vector<std::string> out;
    for (const oj& s : list)
        out.push_back(s.get<std::string>());
    return out;
}

std::vector<OptimizerSpec> readOptimizers()
{
    std::vector<OptimizerSpec> out;
    const oj& o = deepspeedKnowledgeMember("optimizers");
    for (const oj& e : o.at("deepspeed")) {
        OptimizerSpec s;
        s.name = e.at("name").get<std::string>();
        s.deepspeedName = true;
        s.zeroSupported = e.at("zero_supported").get<bool>();
        s.popped = strings(e.at("popped"));
        for (auto it = e.at("builds").begin(); it != e.at("builds").end(); ++it) {
            OptimizerClass c{it.value().at("class").get<std::string>(), std::nullopt};
            if (!it.value().at("params").is_null())
                c.params = strings(it.value().at("params"));
            s.builds.emplace(it.key(), std::move(c));
        }
        out.push_back(std::move(s));
    }
    for (const oj& e : o.at("torch")) {
        OptimizerSpec s;
        s.name = e.at("name").get<std::string>();
        s.builds.emplace("default", OptimizerClass{"torch.optim." + s.name, strings(e.at("params"))});
        s.torchFrom = e.value("torch_from", "");
        out.push_back(std::move(s));
    }
    return out;
}

const std::vector<OptimizerSpec>& optimizers()
{
    static const std::vector<OptimizerSpec>& all = *new std::vector<OptimizerSpec>(readOptimizers()); // never destroyed
    return all;
}

std::vector<SchedulerSpec> readSchedulers()
{
    std::vector<SchedulerSpec> out;
    const oj& o = deepspeedKnowledgeMember("lr_schedulers");
    for (const char* group : {"deepspeed", "torch"})
        for (const oj& e : o.at(group))
            out.push_back({e.at("name").get<std::string>(), std::string(group) == "deepspeed", e.value("warmup", false),
                           strings(e.at("required")), strings(e.at("params"))});
    return out;
}

const std::vector<SchedulerSpec>& schedulers()
{
    static const std::vector<SchedulerSpec>& all = *new std::vector<SchedulerSpec>(readSchedulers()); // never destroyed
    return all;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

} // namespace

const OptimizerSpec* findOptimizer(const std::string& type, const std::string& torchVersion)
{
    const std::string folded = lower(type);
    for (const OptimizerSpec& s : optimizers())
        if (s.deepspeedName && s.name == folded)
            return &s;
    for (const OptimizerSpec& s : optimizers())
        if (!s.deepspeedName && s.name == type)
            return s.torchFrom.empty() || torchVersion.empty() || versionAtLeast(torchVersion, s.torchFrom) ? &s
                                                                                                            : nullptr;
    return nullptr;
}

std::vector<std::string> optimizerNames()
{
    std::vector<std::string> names;
    for (const OptimizerSpec& s : optimizers())
        names.push_back(s.name);
    return names;
}

const SchedulerSpec* findScheduler(const std::string& type)
{
    for (const SchedulerSpec& s : schedulers())
        if (s.name == type)
            return &s;
    return nullptr;
}

std::vector<std::string> schedulerNames()
{
    std::vector<std::string> names;
    for (const SchedulerSpec& s : schedulers())
        names.push_back(s.name);
    return names;
}

VersionFact versionFact(const std::string& key)
{
    const oj& facts = deepspeedKnowledgeMember("version_facts");
    if (!facts.contains(key) || !facts.at(key).is_object())
        throw std::out_of_range("deepspeed.json lists no version fact " + key);
    const oj& f = facts.at(key);
    return {f.value("deepspeed_from", ""), f.value("torch_from", ""), f.at("source").get<std::string>(),
            f.value("before", "")};
}

} // namespace dsw
