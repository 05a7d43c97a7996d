#include "lint/LintReport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

namespace dsw {

LintReport::LintReport(const ParsedConfig& config, const Answers& context, const DeepSpeedSchema& schema)
    : m_config(config)
    , m_context(context)
    , m_schema(schema)
    , m_quoteless(config.quotelessValues.begin(), config.quotelessValues.end())
{
}

void LintReport::add(LintLevel level, std::string code, std::string path, std::string message,
                     std::optional<std::string> suggestion, std::optional<std::string> source)
{
    LintFinding f;
    f.level = level;
    f.code = std::move(code);
    f.line = m_config.lineOf(path);
    f.path = std::move(path);
    f.message = std::move(message);
    f.suggestion = std::move(suggestion);
    if (source && !source->empty())
        f.source = std::move(source);
    m_findings.push_back(std::move(f));
}

std::vector<LintFinding> LintReport::take()
{
    // In file order; findings about the whole config (line 0) first.
    std::stable_sort(m_findings.begin(), m_findings.end(),
                     [](const LintFinding& a, const LintFinding& b) { return a.line < b.line; });
    return std::move(m_findings);
}

namespace {

// An RFC 6901 array index as nlohmann's json_pointer reads one: digits, no leading zero; nullopt otherwise (and for
// one too large to be an index).
std::optional<std::size_t> arrayIndex(std::string_view token)
{
    if (token.empty() || (token.size() > 1 && token[0] == '0'))
        return std::nullopt;
    std::size_t index = 0;
    for (const char c : token) {
        if (c < '0' || c > '9' || index > (std::numeric_limits<std::size_t>::max() - 9) / 10)
            return std::nullopt;
        index = index * 10 + static_cast<std::size_t>(c - '0');
    }
    return index;
}

} // namespace

// What json_pointer(pointer) with contains() and at() finds (a malformed pointer or index finds nothing), walked over
// the pointer's text: the rules look up dozens of pointers in every lint, and a json_pointer allocates a string per
// token.
const nlohmann::ordered_json* LintReport::at(const std::string& pointer) const
{
    const nlohmann::ordered_json* node = &m_config.json;
    if (pointer.empty())
        return node;
    if (pointer[0] != '/')
        return nullptr;
    std::string unescaped; // only for a token with ~0 or ~1
    std::size_t start = 1;
    while (true) {
        const std::size_t slash = std::min(pointer.find('/', start), pointer.size());
        std::string_view token(pointer.data() + start, slash - start);
        if (token.find('~') != std::string_view::npos) {
            unescaped.clear();
            for (std::size_t i = 0; i < token.size(); ++i) {
                if (token[i] != '~') {
                    unescaped += token[i];
                    continue;
                }
                if (i + 1 == token.size() || (token[i + 1] != '0' && token[i + 1] != '1'))
                    return nullptr; // not a pointer
                unescaped += token[++i] == '0' ? '~' : '/';
            }
            token = unescaped;
        }
        if (node->is_object()) {
            const auto it = node->find(token);
            if (it == node->end())
                return nullptr;
            node = &*it;
        } else if (node->is_array()) {
            const auto index = arrayIndex(token);
            if (!index || *index >= node->size())
                return nullptr;
            node = &(*node)[*index];
        } else {
            return nullptr;
        }
        if (slash == pointer.size())
            return node;
        start = slash + 1;
    }
}

bool LintReport::isQuoteless(const std::string& pointer) const
{
    return !m_quoteless.empty() && m_quoteless.count(pointer) != 0; // no hash of every key of a strict JSON file
}

std::string LintReport::launcher() const
{
    return m_context.has("software.launcher") ? m_context.text("software.launcher") : std::string();
}

bool LintReport::launcherFillsAuto() const
{
    const std::string l = launcher();
    return l == "hf-trainer" || l == "accelerate";
}

std::optional<int> LintReport::zeroStage() const
{
    const auto* zero = at("/zero_optimization");
    if (!zero || zero->is_null())
        return 0;
    if (zero->is_boolean())
        return zero->get<bool>() ? 1 : 0;
    if (!zero->is_object())
        return std::nullopt;
    auto it = zero->find("stage");
    if (it != zero->end() && *it == "auto") // Accelerate fills it in; otherwise pydantic drops it
        return m_schema.launcherFillsAuto("/zero_optimization/stage", launcher()) ? std::nullopt
                                                                                  : std::optional<int>(0);
    if (it == zero->end())
        return 0;
    std::optional<double> stage = numberValue(*it);
    if (!stage && it->is_string()) { // pydantic converts a numeric string
        try {
            std::size_t used = 0;
            const std::string s = it->get<std::string>();
            const double v = std::stod(s, &used);
            if (used == s.size())
                stage = v;
        } catch (const std::exception&) {
        }
    }
    if (!stage || *stage != std::floor(*stage) || *stage < 0 || *stage > 3)
        return std::nullopt;
    return static_cast<int>(*stage);
}

std::string LintReport::bf16Pointer() const
{
    if (at("/bf16"))
        return "/bf16";
    return at("/bfloat16") ? "/bfloat16" : "";
}

std::optional<bool> LintReport::enabled(const std::string& block) const
{
    const std::string pointer = block == "bf16" ? bf16Pointer() : "/" + block;
    const auto* b = pointer.empty() ? nullptr : at(pointer);
    if (!b)
        return false;
    if (!b->is_object())
        return std::nullopt;
    auto it = b->find("enabled");
    if (it == b->end())
        return false;
    if (it->is_boolean())
        return it->get<bool>();
    return std::nullopt;
}

std::string dottedPath(const std::string& pointer)
{
    std::string out;
    for (std::size_t i = 1; i < pointer.size(); ++i) {
        if (pointer[i] == '/')
            out += '.';
        else if (pointer[i] == '~' && i + 1 < pointer.size())
            out += pointer[++i] == '0' ? '~' : '/';
        else
            out += pointer[i];
    }
    return out;
}

std::optional<double> numberValue(const nlohmann::ordered_json& value)
{
    if (value.is_number())
        return value.get<double>();
    return std::nullopt;
}

std::string shortJson(const nlohmann::ordered_json& value)
{
    if (value.is_number_float()) {
        const double v = value.get<double>();
        if (v == std::floor(v) && std::fabs(v) < 1e18)
            return std::to_string(static_cast<long long>(v)); // 5e8 -> 500000000
    }
    std::string s = value.dump();
    if (s.size() > 60)
        s = s.substr(0, 57) + "...";
    return s;
}

} // namespace dsw
