#include "advise/Advice.h"

#include <algorithm>

namespace dsw {

bool Advice::hasFailedCheck() const
{
    return std::any_of(checks.begin(), checks.end(), [](const Check& c) { return c.level == CheckLevel::Fail; });
}

std::vector<std::string> Advice::citedSources() const
{
    std::vector<std::string> ids = sources;
    auto cite = [&ids](const std::string& id) {
        if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.push_back(id);
    };
    for (const auto& c : checks)
        cite(c.source);
    for (const auto& t : tradeoffs)
        cite(t.source);
    for (const auto& e : estimates)
        cite(e.source);
    return ids;
}

std::string toString(CheckLevel level)
{
    switch (level) {
    case CheckLevel::Pass: return "pass";
    case CheckLevel::Warn: return "warn";
    case CheckLevel::Fail: return "fail";
    }
    return "fail";
}

std::string mark(CheckLevel level)
{
    switch (level) {
    case CheckLevel::Pass: return "✓";
    case CheckLevel::Warn: return "⚠";
    case CheckLevel::Fail: return "✗";
    }
    return "✗";
}

std::string toString(AdviceStatus status)
{
    switch (status) {
    case AdviceStatus::Complete: return "complete";
    case AdviceStatus::NeedsInput: return "needs_input";
    case AdviceStatus::NotApplicable: return "not_applicable";
    }
    return "not_applicable";
}

nlohmann::ordered_json toJson(const Check& check)
{
    nlohmann::ordered_json j{{"level", toString(check.level)}, {"code", check.code}, {"message", check.message}};
    if (!check.source.empty())
        j["source"] = check.source;
    return j;
}

nlohmann::ordered_json toJson(const Advice& advice)
{
    using oj = nlohmann::ordered_json;
    oj j;
    j["status"] = toString(advice.status);
    j["missing"] = advice.missing;
    j["headline"] = advice.headline;
    j["fragment"] = advice.fragment;
    j["checks"] = oj::array();
    for (const auto& c : advice.checks)
        j["checks"].push_back(toJson(c));
    j["tradeoffs"] = oj::array();
    for (const auto& t : advice.tradeoffs)
        j["tradeoffs"].push_back(oj{{"title", t.title}, {"text", t.text}, {"source", t.source}});
    j["estimates"] = oj::array();
    for (const auto& e : advice.estimates) {
        j["estimates"].push_back(
            oj{{"name", e.name}, {"value", e.value}, {"unit", e.unit}, {"formula", e.formula}, {"source", e.source}});
        if (e.value >= 0x1p63) // saturated (CheckedMath.h): the true figure is at least this
            j["estimates"].back()["at_least"] = true;
    }
    j["snippets"] = oj::array();
    for (const auto& s : advice.snippets)
        j["snippets"].push_back(oj{{"language", s.language}, {"title", s.title}, {"code", s.code}});
    j["sources"] = advice.sources;
    for (const auto& [key, value] : advice.details.items())
        j[key] = value;
    return j;
}

} // namespace dsw
