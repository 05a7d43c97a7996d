#include "SchemaSourceWriter.h"

#include "common/GeneratedSource.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace dsw {

namespace {

using json = nlohmann::json;

// A C++ string literal of `s`, byte for byte (common/GeneratedSource.h), with its length where a NUL would end it.
std::string literal(const std::string& s)
{
    const std::string out = "\"" + escapedForLiteral(s) + "\"";
    if (s.find('\0') != std::string::npos) // a plain literal would end at the first NUL
        return "std::string(" + out + ", " + std::to_string(s.size()) + ")";
    return out;
}

// The shortest decimal literal that reads back as exactly `value`.
std::string doubleLiteral(double value)
{
    char buffer[40];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (std::strtod(buffer, nullptr) == value)
            break;
    }
    std::string out = buffer;
    if (out.find_first_of(".en") == std::string::npos)
        out += ".0";
    return out;
}

// An expression that builds `j` with the same value and the same number types (unsigned, signed, float).
std::string jsonExpression(const json& j)
{
    switch (j.type()) {
    case json::value_t::null: return "json()";
    case json::value_t::boolean: return j.get<bool>() ? "json(true)" : "json(false)";
    case json::value_t::number_unsigned: return "json(std::uint64_t{" + std::to_string(j.get<std::uint64_t>()) + "u})";
    case json::value_t::number_integer: {
        const auto value = j.get<std::int64_t>();
        if (value == INT64_MIN)
            return "json(std::int64_t{INT64_MIN})";
        return "json(std::int64_t{" + std::to_string(value) + "})";
    }
    case json::value_t::number_float: return "json(" + doubleLiteral(j.get<double>()) + ")";
    case json::value_t::string: return "json(std::string(" + literal(j.get<std::string>()) + "))";
    case json::value_t::array: {
        if (j.empty())
            return "json::array()";
        std::string out = "json::array({";
        for (std::size_t i = 0; i < j.size(); ++i)
            out += (i ? ", " : "") + jsonExpression(j[i]);
        return out + "})";
    }
    case json::value_t::object: {
        if (j.empty())
            return "json::object()";
        std::string out = "json::object({";
        bool first = true;
        for (const auto& [key, value] : j.items()) {
            out += (first ? "{" : ", {") + literal(key) + ", " + jsonExpression(value) + "}";
            first = false;
        }
        return out + "})";
    }
    default: throw std::runtime_error("a JSON value of a kind the schema never holds (binary or discarded)");
    }
}

std::string stringList(const std::vector<std::string>& values)
{
    std::string out = "{";
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i ? ", " : "") + literal(values[i]);
    return out + "}";
}

const char* typeName(SchemaType type)
{
    switch (type) {
    case SchemaType::Any: return "SchemaType::Any";
    case SchemaType::Bool: return "SchemaType::Bool";
    case SchemaType::Int: return "SchemaType::Int";
    case SchemaType::Number: return "SchemaType::Number";
    case SchemaType::String: return "SchemaType::String";
    case SchemaType::Object: return "SchemaType::Object";
    case SchemaType::Array: return "SchemaType::Array";
    }
    throw std::runtime_error("unknown SchemaType");
}

const char* strictnessName(BlockStrictness strictness)
{
    switch (strictness) {
    case BlockStrictness::Forbid: return "BlockStrictness::Forbid";
    case BlockStrictness::Ignore: return "BlockStrictness::Ignore";
    case BlockStrictness::Open: return "BlockStrictness::Open";
    }
    throw std::runtime_error("unknown BlockStrictness");
}

// Writes `target = value;` for each field that differs from a default-constructed one.
class FieldWriter {
public:
    FieldWriter(std::ostream& out, std::string indent)
        : m_out(out)
        , m_indent(std::move(indent))
    {
    }
    void text(const char* target, const std::string& value)
    {
        if (!value.empty())
            line(target, literal(value));
    }
    void flag(const char* target, bool value)
    {
        if (value)
            line(target, "true");
    }
    void strings(const char* target, const std::vector<std::string>& values)
    {
        if (!values.empty())
            line(target, stringList(values));
    }
    void number(const char* target, const std::optional<double>& value)
    {
        if (value)
            line(target, doubleLiteral(*value));
    }
    void line(const char* target, const std::string& value) { m_out << m_indent << target << " = " << value << ";\n"; }

private:
    std::ostream& m_out;
    std::string m_indent;
};

void writeKey(std::ostream& out, const SchemaKey& k)
{
    out << "    {\n        SchemaKey& k = b.keys.emplace_back();\n";
    FieldWriter f(out, "        ");
    f.text("k.name", k.name);
    if (k.type != SchemaType::Any)
        f.line("k.type", typeName(k.type));
    f.flag("k.nullable", k.nullable);
    if (k.defaultValue)
        f.line("k.defaultValue", jsonExpression(*k.defaultValue));
    f.text("k.defaultNote", k.defaultNote);
    f.number("k.min", k.min);
    f.number("k.max", k.max);
    f.strings("k.values", k.values);
    f.text("k.aliasOf", k.aliasOf);
    f.text("k.field", k.field);
    f.text("k.block", k.block);
    if (!k.stages.empty()) {
        std::string list = "{";
        for (std::size_t i = 0; i < k.stages.size(); ++i)
            list += (i ? ", " : "") + std::to_string(k.stages[i]);
        f.line("k.stages", list + "}");
    }
    f.flag("k.allStages", k.allStages);
    f.flag("k.rejected", k.rejected);
    f.text("k.replacement", k.replacement);
    f.text("k.unused", k.unused);
    f.text("k.note", k.note);
    if (k.deprecated) {
        const SchemaKey::Deprecation& d = *k.deprecated;
        // Not emplace(): clang sees Deprecation as not default-constructible inside SchemaKey.
        out << "        k.deprecated = SchemaKey::Deprecation();\n"
            << "        SchemaKey::Deprecation& d = *k.deprecated;\n";
        f.text("d.replacement", d.replacement);
        if (!d.replacementValue.is_null())
            f.line("d.replacementValue", jsonExpression(d.replacementValue));
        f.text("d.since", d.since);
        f.text("d.note", d.note);
        f.flag("d.ignored", d.ignored);
        f.text("d.source", d.source);
    }
    for (const SchemaKey::DefaultChange& c : k.changes)
        out << "        k.changes.push_back({" << literal(c.from) << ", " << jsonExpression(c.oldValue) << ", "
            << jsonExpression(c.newValue) << ", " << literal(c.source) << ", " << (c.quiet ? "true" : "false")
            << "});\n";
    f.text("k.source", k.source);
    out << "    }\n";
}

void writeBlock(std::ostream& out, const SchemaBlock& b, std::size_t index)
{
    // One function per block keeps each function small enough for the optimiser.
    out << "void block" << index << "(SchemaBlock& b) // " << (b.path.empty() ? "(top level)" : b.path) << "\n{\n";
    FieldWriter f(out, "    ");
    f.text("b.path", b.path);
    f.text("b.reader", b.reader);
    if (b.strictness != BlockStrictness::Open)
        f.line("b.strictness", strictnessName(b.strictness));
    f.text("b.source", b.source);
    out << "    b.keys.reserve(" << b.keys.size() << ");\n";
    for (const SchemaKey& k : b.keys)
        writeKey(out, k);
    for (const auto& [mode, keys] : b.modes)
        out << "    b.modes.emplace(" << literal(mode) << ", std::vector<std::string>" << stringList(keys) << ");\n";
    out << "}\n\n";
}

} // namespace

std::string compiledSchemaSource(const DeepSpeedSchema& schema, const std::string& inputName)
{
    const DeepSpeedSchema::Contents& c = schema.contents();
    std::ostringstream out;
    out << "// Generated by dsw-schema-compiler from " << inputName << ": do not edit, edit the schema file.\n"
        << "#include \"knowledge/DeepSpeedSchema.h\"\n\n#include <cstdint>\n\nnamespace dsw {\n\nnamespace {\n\n"
        << "using json = nlohmann::json;\n\n";
    for (std::size_t i = 0; i < c.blocks.size(); ++i)
        writeBlock(out, c.blocks[i], i);

    out << "DeepSpeedSchema::Contents compiledContents()\n{\n    DeepSpeedSchema::Contents c;\n";
    FieldWriter f(out, "    ");
    f.text("c.version", c.version);
    out << "    c.blocks.resize(" << c.blocks.size() << ");\n";
    for (std::size_t i = 0; i < c.blocks.size(); ++i)
        out << "    block" << i << "(c.blocks[" << i << "]);\n";
    out << "    c.relocations.reserve(" << c.relocations.size() << ");\n";
    for (const SchemaRelocation& r : c.relocations)
        out << "    c.relocations.push_back({" << literal(r.block) << ", " << literal(r.key) << ", "
            << literal(r.belongs) << ", " << literal(r.source) << "});\n";
    f.strings("c.autoPointers", c.autoPointers);
    f.text("c.autoSource", c.autoSource);
    f.strings("c.accelerateAutoPointers", c.accelerateAutoPointers);
    f.text("c.accelerateAutoSource", c.accelerateAutoSource);
    out << "    return c;\n}\n\n} // namespace\n\n"
        << "const DeepSpeedSchema& DeepSpeedSchema::instance()\n{\n"
        << "    // Never destroyed: the process's memory goes back at exit without taking each string apart.\n"
        << "    static const DeepSpeedSchema& schema = *new DeepSpeedSchema(compiledContents());\n    return "
           "schema;\n}\n\n"
        << "} // namespace dsw\n";
    return out.str();
}

} // namespace dsw
