#include "EngineFactsSourceWriter.h"

#include "common/GeneratedSource.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <vector>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& where, const std::string& what)
{
    throw std::invalid_argument(where + ": " + what);
}

// A constant std::string_view of `s`, byte for byte (common/GeneratedSource.h), its length given so that a NUL
// does not end it.
std::string literal(const std::string& s)
{
    return "sv(\"" + escapedForLiteral(s) + "\", " + std::to_string(s.size()) + ")";
}

// `e` is an object with every member of `required`, and no member outside `required` and `optional`.
void checkMembers(const oj& e, const std::string& where, const std::vector<std::string>& required,
                  const std::vector<std::string>& optional = {})
{
    if (!e.is_object())
        fail(where, "must be an object, not " + std::string(e.type_name()));
    for (const std::string& key : required)
        if (!e.contains(key))
            fail(where, "has no \"" + key + "\"");
    for (auto it = e.begin(); it != e.end(); ++it)
        if (std::find(required.begin(), required.end(), it.key()) == required.end()
            && std::find(optional.begin(), optional.end(), it.key()) == optional.end())
            fail(where, "unknown member \"" + it.key() + "\"");
}

std::string nonEmptyText(const oj& v, const std::string& where)
{
    if (!v.is_string() || v.get<std::string>().empty())
        fail(where, "must be a non-empty string");
    return v.get<std::string>();
}

bool boolean(const oj& v, const std::string& where)
{
    if (!v.is_boolean())
        fail(where, "must be true or false");
    return v.get<bool>();
}

// "2.5", "2.10.1": what util/Version compares.
bool isVersion(const std::string& s)
{
    bool digit = false;
    for (const char c : s) {
        if (c == '.' && !digit)
            return false;
        digit = c != '.';
        if (digit && (c < '0' || c > '9'))
            return false;
    }
    return digit;
}

// Collects the arrays the tables point into, each named by a number.
class TableWriter {
public:
    std::string arrays; // their definitions, to write before the tables

    // A std::span expression over the strings of `list` (an empty span for []).
    std::string names(const oj& list, const std::string& where)
    {
        if (!list.is_array())
            fail(where, "must be an array of strings");
        if (list.empty())
            return "names()";
        std::string items;
        for (std::size_t i = 0; i < list.size(); ++i)
            items += (i ? ", " : "") + literal(nonEmptyText(list[i], where + "[" + std::to_string(i) + "]"));
        return "names(" + array("sv", items) + ")";
    }

    std::string builds(const oj& builds, const std::string& where)
    {
        if (!builds.is_object() || !builds.contains("default"))
            fail(where, "must be an object with a \"default\" class");
        std::string items;
        for (auto it = builds.begin(); it != builds.end(); ++it) {
            const std::string at = where + "." + it.key();
            if (it.key() != "default" && it.key() != "offload" && it.key() != "torch_adam")
                fail(at, "unknown case (allowed: default, offload, torch_adam)");
            checkMembers(it.value(), at, {"class", "params"});
            const oj& params = it.value().at("params");
            items += std::string(items.empty() ? "" : ", ") + "{" + literal(it.key()) + ", {"
                + literal(nonEmptyText(it.value().at("class"), at + ".class")) + ", "
                + (params.is_null() ? std::string("std::nullopt") : this->names(params, at + ".params")) + "}}";
        }
        return array("OptimizerBuild", items);
    }

    // A new constant array of `type` holding `items`; returns its name.
    std::string array(const std::string& type, const std::string& items)
    {
        const std::string name = "array" + std::to_string(count++);
        arrays += "constexpr " + type + " " + name + "[] = {" + items + "};\n";
        return name;
    }

private:
    int count = 0;
};

// One of "optimizers" / "lr_schedulers": an object with the "deepspeed" and "torch" arrays of entries.
const oj& group(const oj& knowledge, const std::string& member, const std::string& which)
{
    if (!knowledge.contains(member))
        fail("the top level", "has no \"" + member + "\"");
    const oj& m = knowledge.at(member);
    checkMembers(m, member, {"deepspeed", "torch"}, {"about", "source"});
    if (!m.at(which).is_array())
        fail(member + "." + which, "must be an array");
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

std::string optimizerTable(const oj& knowledge, TableWriter& w)
{
    std::string rows;
    std::set<std::string> deepspeedNames, torchNames;
    for (const char* which : {"deepspeed", "torch"}) {
        const bool deepspeed = std::string(which) == "deepspeed";
        const oj& list = group(knowledge, "optimizers", which);
        for (std::size_t i = 0; i < list.size(); ++i) {
            const oj& e = list[i];
            const std::string where = entry("optimizers." + std::string(which), i, e);
            if (deepspeed)
                checkMembers(e, where, {"name", "zero_supported", "popped", "builds"});
            else
                checkMembers(e, where, {"name", "params"}, {"torch_from"});
            const std::string name = nonEmptyText(e.at("name"), where + ".name");
            std::string folded = name;
            std::transform(folded.begin(), folded.end(), folded.begin(),
                           [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
            if (deepspeed && folded != name)
                fail(where, "a DeepSpeed name is matched lower-cased, so it must be written in lower case");
            if (!deepspeed && deepspeedNames.count(folded))
                fail(where, "is never reached: DeepSpeed's \"" + folded + "\" matches it first, in any case");
            if (!(deepspeed ? deepspeedNames : torchNames).insert(deepspeed ? folded : name).second)
                fail(where, "is listed twice");
            if (deepspeed) {
                const bool zero = boolean(e.at("zero_supported"), where + ".zero_supported");
                const std::string popped = w.names(e.at("popped"), where + ".popped");
                const std::string builds = w.builds(e.at("builds"), where + ".builds");
                rows += "    {" + literal(name) + ", true, " + (zero ? "true" : "false") + ", " + popped + ", " + builds
                    + ", sv()},\n";
            } else {
                const std::string torchFrom =
                    e.contains("torch_from") ? nonEmptyText(e.at("torch_from"), where + ".torch_from") : std::string();
                if (!torchFrom.empty() && !isVersion(torchFrom))
                    fail(where + ".torch_from", "\"" + torchFrom + "\" is not a version such as \"2.5\"");
                const std::string params = w.names(e.at("params"), where + ".params");
                const std::string builds =
                    w.array("OptimizerBuild",
                            "{" + literal("default") + ", {" + literal("torch.optim." + name) + ", " + params + "}}");
                rows +=
                    "    {" + literal(name) + ", false, false, names(), " + builds + ", " + literal(torchFrom) + "},\n";
            }
        }
    }
    if (rows.empty())
        fail("optimizers", "lists no optimizer");
    return "constexpr OptimizerSpec optimizers[] = {\n" + rows + "};\n";
}

std::string schedulerTable(const oj& knowledge, TableWriter& w)
{
    std::string rows;
    std::set<std::string> seen;
    for (const char* which : {"deepspeed", "torch"}) {
        const oj& list = group(knowledge, "lr_schedulers", which);
        for (std::size_t i = 0; i < list.size(); ++i) {
            const oj& e = list[i];
            const std::string where = entry("lr_schedulers." + std::string(which), i, e);
            checkMembers(e, where, {"name", "required", "params"}, {"warmup"});
            const std::string name = nonEmptyText(e.at("name"), where + ".name");
            if (!seen.insert(name).second)
                fail(where, "is listed twice (a torch name DeepSpeed also has is never reached)");
            const bool warmup = e.contains("warmup") && boolean(e.at("warmup"), where + ".warmup");
            const std::string params = w.names(e.at("params"), where + ".params");
            const std::string required = w.names(e.at("required"), where + ".required");
            for (const oj& r : e.at("required"))
                if (std::find(e.at("params").begin(), e.at("params").end(), r) == e.at("params").end())
                    fail(where + ".required", "\"" + r.get<std::string>() + "\" is not among its params");
            rows += "    {" + literal(name) + ", " + (std::string(which) == "deepspeed" ? "true" : "false") + ", "
                + (warmup ? "true" : "false") + ", " + required + ", " + params + "},\n";
        }
    }
    if (rows.empty())
        fail("lr_schedulers", "lists no scheduler");
    return "constexpr SchedulerSpec schedulers[] = {\n" + rows + "};\n";
}

// "version_facts": each member but "about" a fact with exactly one of deepspeed_from / torch_from.
std::string versionFactTable(const oj& knowledge)
{
    if (!knowledge.contains("version_facts"))
        fail("the top level", "has no \"version_facts\"");
    const oj& facts = knowledge.at("version_facts");
    if (!facts.is_object())
        fail("version_facts", "must be an object");
    std::string rows;
    for (auto it = facts.begin(); it != facts.end(); ++it) {
        if (it.key() == "about")
            continue;
        const std::string where = "version_facts." + it.key();
        const oj& f = it.value();
        checkMembers(f, where, {"source"}, {"deepspeed_from", "torch_from", "before"});
        if (f.contains("deepspeed_from") == f.contains("torch_from"))
            fail(where, "must have exactly one of deepspeed_from and torch_from");
        const std::string which = f.contains("deepspeed_from") ? "deepspeed_from" : "torch_from";
        const std::string from = nonEmptyText(f.at(which), where + "." + which);
        if (!isVersion(from))
            fail(where + "." + which, "\"" + from + "\" is not a version such as \"2.5\"");
        const std::string source = nonEmptyText(f.at("source"), where + ".source");
        const std::string before = f.contains("before") ? nonEmptyText(f.at("before"), where + ".before") : "";
        rows += "    {" + literal(it.key()) + ", " + literal(which == "deepspeed_from" ? from : "") + ", "
            + literal(which == "torch_from" ? from : "") + ", " + literal(source) + ", " + literal(before) + "},\n";
    }
    if (rows.empty())
        fail("version_facts", "lists no fact");
    return "constexpr VersionFactEntry versionFacts[] = {\n" + rows + "};\n";
}

} // namespace

std::string compiledEngineFactsSource(const oj& knowledge)
{
    if (!knowledge.is_object())
        fail("the top level", "must be an object");
    TableWriter w;
    const std::string optimizers = optimizerTable(knowledge, w);
    const std::string schedulers = schedulerTable(knowledge, w);
    const std::string facts = versionFactTable(knowledge);
    return "// Generated by dsw-engine-facts-compiler from deepspeed.json's \"optimizers\", \"lr_schedulers\" and"
           " \"version_facts\"; do not edit.\n"
           "#include \"knowledge/EngineFacts.h\"\n\n"
           "namespace dsw {\n\nnamespace {\n\n"
           "using sv = std::string_view;\n"
           "using names = std::span<const sv>;\n\n"
        + w.arrays + "\n" + optimizers + "\n" + schedulers + "\n" + facts
        + "\n} // namespace\n\n"
          "std::span<const OptimizerSpec> optimizerSpecs() { return optimizers; }\n"
          "std::span<const SchedulerSpec> schedulerSpecs() { return schedulers; }\n"
          "std::span<const VersionFactEntry> versionFactEntries() { return versionFacts; }\n\n"
          "} // namespace dsw\n";
}

} // namespace dsw
