#include "knowledge/EngineFacts.h"

#include "knowledge/DeepSpeedFacts.h"
#include "util/Utf8.h"
#include "util/Version.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// A check that failed: where in deepspeed.json and what is wrong; each read* function turns it into its error.
struct Refusal : std::invalid_argument {
    Refusal(const std::string& where, const std::string& what)
        : std::invalid_argument("deepspeed.json: " + where + ": " + what)
    {
    }
};

// `e` is an object with every member of `required`, and no member outside `required` and `optional`.
void checkMembers(const oj& e, const std::string& where, const std::vector<std::string>& required,
                  const std::vector<std::string>& optional = {})
{
    if (!e.is_object())
        throw Refusal(where, "must be an object, not " + std::string(e.type_name()));
    for (const std::string& key : required)
        if (!e.contains(key))
            throw Refusal(where, "has no \"" + key + "\"");
    for (auto it = e.begin(); it != e.end(); ++it)
        if (std::find(required.begin(), required.end(), it.key()) == required.end()
            && std::find(optional.begin(), optional.end(), it.key()) == optional.end())
            throw Refusal(where, "unknown member \"" + it.key() + "\"");
}

std::string nonEmptyText(const oj& v, const std::string& where)
{
    if (!v.is_string() || v.get<std::string>().empty())
        throw Refusal(where, "must be a non-empty string");
    return v.get<std::string>();
}

bool boolean(const oj& v, const std::string& where)
{
    if (!v.is_boolean())
        throw Refusal(where, "must be true or false");
    return v.get<bool>();
}

std::vector<std::string> names(const oj& list, const std::string& where)
{
    if (!list.is_array())
        throw Refusal(where, "must be an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < list.size(); ++i)
        out.push_back(nonEmptyText(list[i], where + "[" + std::to_string(i) + "]"));
    return out;
}

// "2.5", "2.10.1": what util/Version compares.
std::string version(const oj& v, const std::string& where)
{
    const std::string s = nonEmptyText(v, where);
    bool digit = false;
    for (const char c : s) {
        if ((c == '.' && !digit) || (c != '.' && (c < '0' || c > '9')))
            throw Refusal(where, "\"" + s + "\" is not a version such as \"2.5\"");
        digit = c != '.';
    }
    if (!digit)
        throw Refusal(where, "\"" + s + "\" is not a version such as \"2.5\"");
    return s;
}

// `member`.`which` of "optimizers" / "lr_schedulers": the array of entries.
const oj& group(const oj& m, const std::string& member, const std::string& which)
{
    checkMembers(m, member, {"deepspeed", "torch"}, {"about", "source"});
    if (!m.at(which).is_array())
        throw Refusal(member + "." + which, "must be an array");
    return m.at(which);
}

// How an error names entry `i` of `list`: "optimizers.deepspeed[2] (adagrad)", the name when it has one.
std::string entry(const std::string& list, std::size_t i, const oj& e)
{
    const std::string where = list + "[" + std::to_string(i) + "]";
    if (e.is_object() && e.contains("name") && e.at("name").is_string())
        return where + " (" + e.at("name").get<std::string>() + ")";
    return where;
}

OptimizerSpec deepspeedOptimizer(const oj& e, const std::string& where)
{
    checkMembers(e, where, {"name", "zero_supported", "popped", "builds"});
    OptimizerSpec s;
    s.name = nonEmptyText(e.at("name"), where + ".name");
    s.deepspeedName = true;
    if (asciiLower(s.name) != s.name)
        throw Refusal(where, "a DeepSpeed name is matched lower-cased, so it must be written in lower case");
    s.zeroSupported = boolean(e.at("zero_supported"), where + ".zero_supported");
    s.popped = names(e.at("popped"), where + ".popped");
    const oj& builds = e.at("builds");
    if (!builds.is_object() || !builds.contains("default"))
        throw Refusal(where + ".builds", "must be an object with a \"default\" class");
    for (auto it = builds.begin(); it != builds.end(); ++it) {
        const std::string at = where + ".builds." + it.key();
        if (it.key() != "default" && it.key() != "offload" && it.key() != "torch_adam")
            throw Refusal(at, "unknown case (allowed: default, offload, torch_adam)");
        checkMembers(it.value(), at, {"class", "params"});
        const oj& params = it.value().at("params");
        s.builds[it.key()] = {nonEmptyText(it.value().at("class"), at + ".class"),
                              params.is_null() ? std::nullopt : std::optional(names(params, at + ".params"))};
    }
    return s;
}

OptimizerSpec torchOptimizer(const oj& e, const std::string& where)
{
    checkMembers(e, where, {"name", "params"}, {"torch_from"});
    OptimizerSpec s;
    s.name = nonEmptyText(e.at("name"), where + ".name");
    if (e.contains("torch_from"))
        s.torchFrom = version(e.at("torch_from"), where + ".torch_from");
    s.builds["default"] = {"torch.optim." + s.name, names(e.at("params"), where + ".params")};
    return s;
}

std::vector<OptimizerSpec> optimizers(const oj& o)
{
    std::vector<OptimizerSpec> out;
    std::set<std::string> deepspeedNames, torchNames;
    for (const char* which : {"deepspeed", "torch"}) {
        const bool deepspeed = std::string(which) == "deepspeed";
        const oj& list = group(o, "optimizers", which);
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string where = entry("optimizers." + std::string(which), i, list[i]);
            out.push_back(deepspeed ? deepspeedOptimizer(list[i], where) : torchOptimizer(list[i], where));
            const std::string& name = out.back().name;
            if (!deepspeed && deepspeedNames.count(asciiLower(name)))
                throw Refusal(
                    where, "is never reached: DeepSpeed's \"" + asciiLower(name) + "\" matches it first, in any case");
            if (!(deepspeed ? deepspeedNames : torchNames).insert(name).second)
                throw Refusal(where, "is listed twice");
        }
    }
    if (out.empty())
        throw Refusal("optimizers", "lists no optimizer");
    return out;
}

std::vector<SchedulerSpec> schedulers(const oj& o)
{
    std::vector<SchedulerSpec> out;
    std::set<std::string> seen;
    for (const char* which : {"deepspeed", "torch"}) {
        const oj& list = group(o, "lr_schedulers", which);
        for (std::size_t i = 0; i < list.size(); ++i) {
            const oj& e = list[i];
            const std::string where = entry("lr_schedulers." + std::string(which), i, e);
            checkMembers(e, where, {"name", "required", "params"}, {"warmup"});
            SchedulerSpec s{nonEmptyText(e.at("name"), where + ".name"), std::string(which) == "deepspeed",
                            e.contains("warmup") && boolean(e.at("warmup"), where + ".warmup"),
                            names(e.at("required"), where + ".required"), names(e.at("params"), where + ".params")};
            if (!seen.insert(s.name).second)
                throw Refusal(where, "is listed twice (a torch name DeepSpeed also has is never reached)");
            for (const std::string& r : s.required)
                if (std::find(s.params.begin(), s.params.end(), r) == s.params.end())
                    throw Refusal(where + ".required", "\"" + r + "\" is not among its params");
            out.push_back(std::move(s));
        }
    }
    if (out.empty())
        throw Refusal("lr_schedulers", "lists no scheduler");
    return out;
}

std::map<std::string, VersionFact> versionFacts(const oj& facts)
{
    if (!facts.is_object())
        throw Refusal("version_facts", "must be an object");
    std::map<std::string, VersionFact> out;
    for (auto it = facts.begin(); it != facts.end(); ++it) {
        if (it.key() == "about")
            continue;
        const std::string where = "version_facts." + it.key();
        const oj& f = it.value();
        checkMembers(f, where, {"source"}, {"deepspeed_from", "torch_from", "before"});
        if (f.contains("deepspeed_from") == f.contains("torch_from"))
            throw Refusal(where, "must have exactly one of deepspeed_from and torch_from");
        const bool deepspeed = f.contains("deepspeed_from");
        const std::string which = deepspeed ? "deepspeed_from" : "torch_from";
        VersionFact& fact = out[it.key()];
        (deepspeed ? fact.deepspeedFrom : fact.torchFrom) = version(f.at(which), where + "." + which);
        fact.source = nonEmptyText(f.at("source"), where + ".source");
        if (f.contains("before"))
            fact.before = nonEmptyText(f.at("before"), where + ".before");
    }
    if (out.empty())
        throw Refusal("version_facts", "lists no fact");
    return out;
}

// read(value) as a Result: its value, or the message of the check that failed.
template <typename Read>
auto checked(Read read, const oj& value) -> Result<decltype(read(value))>
{
    try {
        return read(value);
    } catch (const Refusal& e) {
        return Result<decltype(read(value))>::failure(e.what());
    }
}

// The embedded deepspeed.json's tables, read on first use and never destroyed (they live until the process ends).
const std::vector<OptimizerSpec>& allOptimizers()
{
    static const auto& all =
        *new std::vector<OptimizerSpec>(readOptimizers(deepspeedKnowledge().at("optimizers")).orThrow());
    return all;
}

const std::vector<SchedulerSpec>& allSchedulers()
{
    static const auto& all =
        *new std::vector<SchedulerSpec>(readSchedulers(deepspeedKnowledge().at("lr_schedulers")).orThrow());
    return all;
}

} // namespace

Result<std::vector<OptimizerSpec>> readOptimizers(const oj& o) { return checked(optimizers, o); }
Result<std::vector<SchedulerSpec>> readSchedulers(const oj& o) { return checked(schedulers, o); }
Result<std::map<std::string, VersionFact>> readVersionFacts(const oj& facts) { return checked(versionFacts, facts); }

const OptimizerSpec* findOptimizer(std::string_view type, const std::string& torchVersion)
{
    const std::string folded = asciiLower(std::string(type));
    for (const OptimizerSpec& s : allOptimizers())
        if (s.deepspeedName && s.name == folded)
            return &s;
    for (const OptimizerSpec& s : allOptimizers())
        if (!s.deepspeedName && s.name == type)
            return s.torchFrom.empty() || torchVersion.empty() || versionAtLeast(torchVersion, s.torchFrom) ? &s
                                                                                                            : nullptr;
    return nullptr;
}

std::vector<std::string> optimizerNames()
{
    std::vector<std::string> names;
    for (const OptimizerSpec& s : allOptimizers())
        names.push_back(s.name);
    return names;
}

const SchedulerSpec* findScheduler(std::string_view type)
{
    for (const SchedulerSpec& s : allSchedulers())
        if (s.name == type)
            return &s;
    return nullptr;
}

std::vector<std::string> schedulerNames()
{
    std::vector<std::string> names;
    for (const SchedulerSpec& s : allSchedulers())
        names.push_back(s.name);
    return names;
}

VersionFact versionFact(const std::string& key)
{
    static const auto& facts =
        *new std::map<std::string, VersionFact>(readVersionFacts(deepspeedKnowledge().at("version_facts")).orThrow());
    const auto it = facts.find(key);
    if (it == facts.end())
        throw std::out_of_range("deepspeed.json lists no version fact " + key);
    return it->second;
}

} // namespace dsw
