#include "lint/ValueLint.h"

#include "knowledge/SourceCatalog.h"
#include "lint/LintReport.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

std::string describe(const oj& v)
{
    if (v.is_string())
        return "the string " + shortJson(v);
    if (v.is_boolean())
        return "the boolean " + v.dump();
    if (v.is_number_integer() || v.is_number_unsigned())
        return "the integer " + v.dump();
    if (v.is_number_float())
        return "the number " + v.dump();
    if (v.is_null())
        return "null";
    return v.is_object() ? "an object" : "an array";
}

const char* typeWord(SchemaType t)
{
    switch (t) {
    case SchemaType::Bool: return "a boolean";
    case SchemaType::Int: return "an integer";
    case SchemaType::Number: return "a number";
    case SchemaType::String: return "a string";
    case SchemaType::Object: return "an object";
    case SchemaType::Array: return "an array";
    case SchemaType::Any: break;
    }
    return "a value";
}

std::optional<double> numericString(const oj& v)
{
    if (!v.is_string())
        return std::nullopt;
    const std::string s = v.get<std::string>();
    try {
        std::size_t used = 0;
        const double d = std::stod(s, &used);
        return used == s.size() ? std::optional<double>(d) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// What pydantic 2's int parsing takes from a string: optional spaces and sign, digits (underscores between
// them), and a fraction of zeros only ("2.0"); "2e8", "0x10" and "inf" are refused (measured with pydantic 2).
bool pydanticIntString(const oj& v)
{
    std::string s = v.get<std::string>();
    const std::size_t first = s.find_first_not_of(" \t\n\r");
    const std::size_t last = s.find_last_not_of(" \t\n\r");
    if (first == std::string::npos)
        return false;
    s = s.substr(first, last - first + 1);
    std::size_t i = (s[0] == '+' || s[0] == '-') ? 1 : 0;
    bool digit = false;
    for (; i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || (s[i] == '_' && digit)); ++i)
        digit = digit || s[i] != '_';
    if (digit && i < s.size() && s[i] == '.')
        for (++i; i < s.size() && s[i] == '0'; ++i) {
        }
    return digit && i == s.size();
}

bool pydanticBoolString(const oj& v)
{
    if (!v.is_string())
        return false;
    std::string s = v.get<std::string>();
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char* w : {"true", "false", "1", "0", "yes", "no", "on", "off", "t", "f", "y", "n"})
        if (s == w)
            return true;
    return false;
}

class ValueCheck {
public:
    explicit ValueCheck(LintReport& r)
        : m_r(r)
    {
    }

    void checkValue(const std::string& pointer, const SchemaBlock& block, const SchemaKey& spec, const oj& v)
    {
        const bool strict = block.strictness == BlockStrictness::Forbid;
        const auto name = [&pointer] { return dottedPath(pointer); }; // for a finding's message only
        if (pointer == "/zero_optimization" && v.is_boolean())
            return; // the legacy form, ConfigRules' legacy-zero-bool
        if (v.is_null()) {
            if (!spec.nullable && spec.type != SchemaType::Any && !(spec.defaultValue && spec.defaultValue->is_null()))
                m_r.add(strict ? LintLevel::Error : LintLevel::Warning, "wrong-type", pointer,
                        name() + " is null where DeepSpeed expects " + typeWord(spec.type) + ".", std::nullopt,
                        spec.source);
            return;
        }
        std::optional<double> number = numberValue(v);
        switch (spec.type) {
        case SchemaType::Any: return;
        case SchemaType::Bool:
            if (v.is_boolean())
                return;
            if (strict && (pydanticBoolString(v) || (v.is_number_integer() && (v == 0 || v == 1))))
                m_r.add(LintLevel::Warning, "wrong-type", pointer,
                        name() + " is " + describe(v)
                            + "; pydantic converts "
                              "it to a boolean, but write true or false.",
                        std::nullopt, "ds-config-model");
            else if (!strict && v.is_string())
                m_r.add(LintLevel::Error, "wrong-type", pointer,
                        name() + " is " + describe(v)
                            + ": DeepSpeed uses it "
                              "as written, and any non-empty string counts as true in Python.",
                        "write true or false", spec.source);
            else
                m_r.add(strict ? LintLevel::Error : LintLevel::Warning, "wrong-type", pointer,
                        name() + " is " + describe(v) + " where DeepSpeed expects a boolean.", "write true or false",
                        spec.source);
            return;
        case SchemaType::Int:
        case SchemaType::Number:
            if (!number && numericString(v) && strict && spec.type == SchemaType::Int && !pydanticIntString(v)) {
                m_r.add(
                    LintLevel::Error, "number-as-string", pointer,
                    name() + " is " + describe(v)
                        + ": pydantic turns a string into an integer only when it is written in digits "
                          "(\"200000000\"), "
                          "so an exponent or other float spelling is refused and DeepSpeed does not load the config ("
                        + quoteExcerpt("pydantic-int-parsing", "Input should", "as an integer") + ").",
                    "write " + shortJson(oj(*numericString(v))) + " as a number", "pydantic-int-parsing");
                return;
            } else if (!number && numericString(v)) {
                numberAsString(pointer, strict, v);
                number = numericString(v);
            } else if (!number) {
                if (!(v.is_boolean() && strict)) // pydantic's lax mode may read a boolean as 0/1
                    m_r.add(LintLevel::Error, "wrong-type", pointer,
                            name() + " is " + describe(v) + " where DeepSpeed expects " + typeWord(spec.type) + ".",
                            std::nullopt, spec.source);
                else
                    m_r.add(LintLevel::Warning, "wrong-type", pointer,
                            name() + " is a boolean where DeepSpeed expects " + typeWord(spec.type) + ".", std::nullopt,
                            spec.source);
                return;
            }
            if (spec.type == SchemaType::Int && *number != std::floor(*number)) {
                m_r.add(LintLevel::Error, "wrong-type", pointer,
                        name() + " is " + describe(v) + ", not an integer"
                            + (strict ? std::string(": pydantic rejects it (int_from_float).") : std::string(".")),
                        std::nullopt, strict ? std::string("ds-config-model") : spec.source);
                return;
            }
            if (spec.type == SchemaType::Int && v.is_number_float() && !strict)
                m_r.add(LintLevel::Info, "float-for-int", pointer,
                        name() + " is written as a float (" + v.dump() + "); DeepSpeed does not convert values in "
                            + (block.path.empty() ? std::string("the top level") : "\"" + block.path + "\"")
                            + ", so the code gets the float.",
                        "write " + shortJson(v), "ds-config-parse");
            checkRange(pointer, block, spec, *number);
            return;
        case SchemaType::String:
            if (!v.is_string()) {
                m_r.add(strict ? LintLevel::Error : LintLevel::Warning, "wrong-type", pointer,
                        name() + " is " + describe(v) + " where DeepSpeed expects a string.", std::nullopt,
                        spec.source);
                return;
            }
            if (!spec.values.empty()
                && std::find(spec.values.begin(), spec.values.end(), v.get_ref<const std::string&>())
                    == spec.values.end()) {
                std::string allowed;
                for (const std::string& s : spec.values)
                    allowed += (allowed.empty() ? "" : ", ") + s;
                m_r.add(LintLevel::Error, "invalid-value", pointer,
                        name() + " is " + describe(v) + "; DeepSpeed accepts only: " + allowed + ".", std::nullopt,
                        spec.source);
            }
            return;
        case SchemaType::Object:
        case SchemaType::Array:
            if ((spec.type == SchemaType::Object && !v.is_object())
                || (spec.type == SchemaType::Array && !v.is_array()))
                m_r.add(LintLevel::Error, "wrong-type", pointer,
                        name() + " is " + describe(v) + " where DeepSpeed expects " + typeWord(spec.type) + ".",
                        std::nullopt, spec.source);
            return;
        }
    }

private:
    void numberAsString(const std::string& pointer, bool strict, const oj& v)
    {
        const std::string name = dottedPath(pointer);
        if (strict)
            m_r.add(LintLevel::Warning, "number-as-string", pointer,
                    name + " is " + describe(v)
                        + "; pydantic converts numeric strings in this block, so DeepSpeed "
                          "accepts it, but a number is what every reader expects.",
                    "write " + v.get<std::string>(), "ds-config-model");
        else
            m_r.add(LintLevel::Error, "number-as-string", pointer,
                    name + " is " + describe(v)
                        + ": DeepSpeed reads this block with .get(key, default) and does not "
                          "convert it, so the string reaches code that compares or computes with a number.",
                    "write " + v.get<std::string>(), "ds-config-parse");
    }

    void checkRange(const std::string& pointer, const SchemaBlock& block, const SchemaKey& spec, double value)
    {
        const bool below = spec.min && value < *spec.min;
        const bool above = spec.max && value > *spec.max;
        if (!below && !above)
            return;
        std::string range = spec.min && spec.max ? "between " + shortJson(*spec.min) + " and " + shortJson(*spec.max)
            : spec.min                           ? "at least " + shortJson(*spec.min)
                                                 : "at most " + shortJson(*spec.max);
        if (pointer == "/gradient_clipping" && below) { // DeepSpeed clips only above 0: a negative value turns it off
            m_r.add(LintLevel::Warning, "gradient-clipping-negative", pointer,
                    "gradient_clipping " + shortJson(value)
                        + " turns clipping off: DeepSpeed clips only when the value is above 0 ("
                        + quoteOf("ds-clipping-positive") + "), so the config loads and gradients are never clipped.",
                    "write 1.0 to clip at norm 1, or 0 to say that clipping is off", "ds-clipping-positive");
            return;
        }
        if (pointer == "/zero_optimization/stage") {
            m_r.add(LintLevel::Error, "zero-stage-invalid", pointer,
                    "ZeRO stage " + shortJson(value)
                        + " does not exist: the stage must be 0, 1, 2 or 3 (pydantic: "
                          "\"Input should be 0, 1, 2, 3 or 3\").",
                    "use a stage from 0 to 3", "ds-zero-config");
            return;
        }
        m_r.add(LintLevel::Error, "value-out-of-range", pointer,
                dottedPath(pointer) + " is " + shortJson(value) + "; DeepSpeed requires " + range
                    + (block.strictness == BlockStrictness::Forbid ? std::string(" (pydantic validation).")
                                                                   : std::string(".")),
                std::nullopt, spec.source);
    }

    LintReport& m_r;
};

} // namespace

void lintValue(LintReport& report, const std::string& pointer, const SchemaBlock& block, const SchemaKey& spec,
               const nlohmann::ordered_json& value)
{
    ValueCheck(report).checkValue(pointer, block, spec, value);
}

} // namespace dsw
