#include "config/ConfigText.h"
#include "util/JsonAccess.h"

#include "config/ConfigScan.h"
#include "util/Utf8.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// Builds the ordered JSON from SAX events, with a line per key and array element and duplicate detection.
// Keys and values arrive in the same order as the scanner saw them, so the n-th key event is the
// scanner's n-th key. Keys are found in ConfigLines' table, so that huge objects stay linear; pointer
// strings are made only for the few values a finding names (duplicates, quoteless values).
class ConfigBuilder {
public:
    ConfigBuilder(const ScannedConfig& scan, ParsedConfig& out)
        : m_scan(scan)
        , m_out(out)
    {
    }

    bool null() { return add(oj(nullptr)); }
    bool boolean(bool v) { return add(oj(v)); }
    bool number_integer(oj::number_integer_t v) { return add(oj(v)); }
    bool number_unsigned(oj::number_unsigned_t v) { return add(oj(v)); }
    bool number_float(oj::number_float_t v, const oj::string_t&) { return add(oj(v)); }
    bool string(oj::string_t& v) { return add(oj(std::move(v)), true); }
    bool binary(oj::binary_t&) { return false; } // JSON text has no binary values
    bool start_object(std::size_t) { return open(oj::object()); }
    bool start_array(std::size_t) { return open(oj::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }

    bool key(oj::string_t& k)
    {
        Frame& f = m_stack.back();
        int line = 0;
        if (m_keysReliable && m_keyIndex < m_scan.keys.size()) {
            const ScannedConfig::Key& seen = m_scan.keys[m_keyIndex++];
            const std::string_view raw = std::string_view(*m_scan.input).substr(seen.offset, seen.length);
            if (raw.find('\\') == std::string_view::npos && raw != k)
                m_keysReliable = false; // the scanner and the parser disagree: give no lines rather than wrong ones
            else
                line = seen.line;
        }
        ConfigLines& lines = m_out.lines;
        const std::uint32_t seen = findMember(f, k);
        if (seen != ConfigLines::kNone) {
            m_out.duplicates.push_back({pointerTo(k), line});
            f.keyNode = lines.renew(seen, k); // the value that follows replaces the old one and its children
            f.duplicateAt = lines.position(seen);
            if (line > 0)
                lines.setLine(f.keyNode, line); // the occurrence whose value is kept (the last)
        } else {
            f.keyNode = lines.add(f.id, k, static_cast<std::uint32_t>(f.node->size()), line);
            f.duplicateAt = kNoDuplicate;
        }
        f.key = std::move(k);
        return true;
    }

    bool parse_error(std::size_t position, const std::string& lastToken, const nlohmann::detail::exception& ex)
    {
        m_errorText = ex.what();
        m_errorPosition = tokenStart(position, lastToken);
        return false;
    }

    // `position` is just past the offending token; point at its first character. nlohmann's token
    // text is exact for strings, numbers and literals, but not for one-character tokens or the end.
    std::size_t tokenStart(std::size_t position, const std::string& lastToken) const
    {
        const std::string& json = m_scan.json();
        if (m_errorText.find("end of input") != std::string::npos || position == 0)
            return std::min(position, json.size());
        const char last = json[std::min(position, json.size()) - 1];
        if (std::string_view("{}[],:").find(last) != std::string_view::npos)
            return position - 1;
        return position > lastToken.size() ? position - lastToken.size() : 0;
    }

    oj takeRoot() { return std::move(m_root); }
    std::size_t errorPosition() const { return m_errorPosition; }
    const std::string& errorText() const { return m_errorText; }

private:
    static constexpr std::uint32_t kNoDuplicate = ConfigLines::kNone;

    struct Frame {
        oj* node = nullptr;
        std::uint32_t id = ConfigLines::kRoot; // its node in m_out.lines
        std::string key;                       // an object's current key
        std::uint32_t keyNode = ConfigLines::kNone;
        std::uint32_t duplicateAt = kNoDuplicate; // where the current key was first written
        std::size_t child = 0;                    // the position of the member or element being read
    };

    // The node of key `k` already in frame `f`'s object, kNone when it is new. A small object is searched
    // directly (its keys are in cache, the table's slots are not); a large one through the table.
    std::uint32_t findMember(const Frame& f, const std::string& k) const
    {
        const auto& members = f.node->get_ref<const oj::object_t&>();
        if (members.size() > 8)
            return m_out.lines.find(f.id, k, *f.node);
        for (const auto& member : members)
            if (member.first == k)
                return m_out.lines.find(f.id, k, *f.node);
        return ConfigLines::kNone;
    }

    // The pointer of `last` in the innermost open container (the path to it from the open frames).
    std::string pointerTo(const std::string& last) const
    {
        std::string pointer;
        for (std::size_t i = 0; i + 1 < m_stack.size(); ++i) {
            const Frame& f = m_stack[i];
            pointer += '/';
            if (f.node->is_object())
                pointer += pointerToken(
                    (f.node->get_ref<const oj::object_t&>().begin() + static_cast<std::ptrdiff_t>(f.child))->first);
            else
                pointer += std::to_string(f.child);
        }
        return pointer + "/" + pointerToken(last);
    }

    // Inserts a value where the parser is; returns it and its node (stable until its parent changes,
    // which happens only after it is closed).
    oj* insert(oj&& v, bool isString, std::uint32_t& id)
    {
        const std::size_t ordinal = m_valueIndex++;
        const ScannedConfig::Value* seen =
            m_valuesReliable && ordinal < m_scan.values.size() ? &m_scan.values[ordinal] : nullptr;
        if (seen && seen->quoteless && !isString) {
            m_valuesReliable = false;
            seen = nullptr;
        }
        if (seen && (v.is_object() || v.is_array()) && seen->members > 0) // no regrowth for large containers
            reserve(v, std::min<std::size_t>(seen->members, m_scan.json().size()));
        oj* placed = nullptr;
        if (m_stack.empty()) {
            m_root = std::move(v);
            placed = &m_root;
            id = ConfigLines::kRoot;
        } else if (Frame& f = m_stack.back(); f.node->is_object()) {
            if (seen && seen->quoteless)
                m_out.quotelessValues.push_back(pointerTo(f.key));
            auto& members = f.node->get_ref<oj::object_t&>();
            id = f.keyNode;
            if (f.duplicateAt != kNoDuplicate) {
                f.child = f.duplicateAt;
                auto& kept = (members.begin() + static_cast<std::ptrdiff_t>(f.child))->second;
                kept = std::move(v); // a duplicate: the last value wins, as in Python
                placed = &kept;
            } else {
                f.child = members.size();
                members.emplace_back(std::move(f.key), std::move(v));
                placed = &members.back().second;
            }
        } else {
            const std::size_t index = f.node->size();
            const std::string token = std::to_string(index);
            if (seen && seen->quoteless)
                m_out.quotelessValues.push_back(pointerTo(token));
            id = m_out.lines.add(f.id, token, static_cast<std::uint32_t>(index), seen ? seen->line : 0);
            f.child = index;
            auto& elements = f.node->get_ref<oj::array_t&>();
            elements.push_back(std::move(v));
            placed = &elements.back();
        }
        return placed;
    }

    static void reserve(oj& container, std::size_t n)
    {
        if (container.is_object())
            container.get_ref<oj::object_t&>().reserve(n);
        else
            container.get_ref<oj::array_t&>().reserve(n);
    }

    bool add(oj&& v, bool isString = false)
    {
        std::uint32_t id = 0;
        insert(std::move(v), isString, id);
        return true;
    }

    bool open(oj&& container)
    {
        std::uint32_t id = 0;
        oj* node = insert(std::move(container), false, id);
        m_stack.push_back({node, id, {}, ConfigLines::kNone, kNoDuplicate, 0});
        return true;
    }

    bool close()
    {
        m_stack.pop_back();
        return true;
    }

    const ScannedConfig& m_scan;
    ParsedConfig& m_out;
    oj m_root;
    std::vector<Frame> m_stack;
    std::size_t m_keyIndex = 0;
    std::size_t m_valueIndex = 0;
    bool m_keysReliable = true;
    bool m_valuesReliable = true;
    std::size_t m_errorPosition = 0;
    std::string m_errorText;
};

// nlohmann's message without its "[json.exception...] parse error at line x, column y: " prefix
// (its line and column count the rewritten text; ours count the user's).
std::string parserDetail(const std::string& what)
{
    const std::size_t at = what.find("syntax error");
    if (at != std::string::npos)
        return what.substr(at);
    const std::size_t colon = what.rfind(": ");
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

// The offset just past the top-level value: an object's or array's closing bracket, a string's closing quote, the
// last character of a number or literal. npos when the text ends before the value does, or has no value. `json` is
// the scanner's strict text, so only strings need care.
std::size_t rootValueEnd(const std::string& json)
{
    const std::size_t first = json.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return std::string::npos;
    const char opening = json[first];
    if (opening == '"') {
        for (std::size_t i = first + 1; i < json.size(); ++i) {
            if (json[i] == '\\')
                ++i;
            else if (json[i] == '"')
                return i + 1;
        }
        return std::string::npos;
    }
    if (opening != '{' && opening != '[') { // a number or literal ends at the first byte that cannot continue it
        std::size_t end = first;
        while (end < json.size() && std::string_view(" \t\r\n{}[],:\"").find(json[end]) == std::string_view::npos
               && json[end] != '\0')
            ++end;
        return end == first ? std::string::npos : end;
    }
    int depth = 0;
    bool inString = false;
    for (std::size_t i = first; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            return i + 1;
        }
    }
    return std::string::npos;
}

// Where "Extra data" starts: the first byte after the top-level value that is not whitespace (npos when none).
std::size_t extraDataStart(const std::string& json)
{
    const std::size_t end = rootValueEnd(json);
    return end == std::string::npos ? std::string::npos : json.find_first_not_of(" \t\r\n", end);
}

std::string atLineColumn(const std::string& text, std::size_t offset)
{
    const TextPosition at = positionOf(text, offset);
    return "line " + std::to_string(at.line) + ", column " + std::to_string(at.column);
}

const char* typeName(const oj& v)
{
    return v.is_array()  ? "an array"
        : v.is_string()  ? "a string"
        : v.is_boolean() ? "a boolean"
        : v.is_null()    ? "null"
                         : "a number";
}

Result<ParsedConfig> parse(const std::string& bytes)
{
    if (bytes.size() > kMaxConfigBytes)
        return Result<ParsedConfig>::failure("the config is " + std::to_string(bytes.size())
                                             + " bytes; ds-wizard reads at most " + std::to_string(kMaxConfigBytes)
                                             + " bytes (4 MiB)");
    if (auto bad = firstInvalidUtf8(bytes)) {
        const TextPosition at = positionOf(bytes, *bad);
        return Result<ParsedConfig>::failure("invalid UTF-8 at byte offset " + std::to_string(*bad) + " (line "
                                             + std::to_string(at.line) + "): a config must be UTF-8 text");
    }
    if (bytes.find_first_not_of(" \t\r\n") == std::string::npos) // Python's json: "Expecting value"
        return Result<ParsedConfig>::failure(
            std::string(bytes.empty() ? "the file is empty" : "the file contains only whitespace")
            + "; a DeepSpeed config is a JSON object ({...})");
    ParsedConfig parsed;
    const bool bom = bytes.size() >= 3 && bytes.compare(0, 3, "\xEF\xBB\xBF") == 0;
    const std::string withoutBom = bom ? std::string(" ") + bytes.substr(3) : std::string();
    const std::string& text = bom ? withoutBom : bytes; // a space for the mark keeps columns of line 1 close
    ScannedConfig scan = scanConfig(text, kMaxConfigDepth);
    if (scan.error)
        return Result<ParsedConfig>::failure("the config is nested too deeply: " + *scan.error);
    if (bom)
        parsed.hjsonSyntax.push_back("byte order mark");
    if (scan.comments)
        parsed.hjsonSyntax.push_back("comments");
    if (scan.trailingCommas)
        parsed.hjsonSyntax.push_back("trailing commas");
    if (scan.quotelessValues)
        parsed.hjsonSyntax.push_back("quoteless values");
    parsed.strictJson = parsed.hjsonSyntax.empty();

    if (scan.json().find_first_not_of(" \t\r\n") == std::string::npos)
        return Result<ParsedConfig>::failure(bom ? "the file has only a byte order mark"
                                                 : "the file has only comments; a DeepSpeed config is a JSON "
                                                   "object ({...})");
    // A NUL byte before the top-level value is complete: the file is binary, not text. (One after it is
    // "Extra data", below.)
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
        const std::size_t end = rootValueEnd(scan.json());
        if (end == std::string::npos || nul < scan.inputOffset(end))
            return Result<ParsedConfig>::failure("the file is not JSON text: a NUL byte at " + atLineColumn(text, nul)
                                                 + " (is it a binary file?)");
    }

    parsed.lines.reserve(scan.values.size());
    ConfigBuilder builder(scan, parsed);
    const bool ok = oj::sax_parse(scan.json(), &builder, oj::input_format_t::json, true, true);
    // nlohmann says "unexpected end of input" when the text stops early and "...; expected end of input"
    // when a complete value is followed by more text (Python's "Extra data").
    const bool endedEarly = builder.errorText().find("unexpected end of input") != std::string::npos;
    const bool extraData = !endedEarly && builder.errorText().find("expected end of input") != std::string::npos;
    if (!ok && endedEarly)
        return Result<ParsedConfig>::failure("JSON syntax error at "
                                             + atLineColumn(text, scan.inputOffset(builder.errorPosition()))
                                             + ": the file ends before the config is complete");
    if (!ok && extraData) { // the parser's offset points past its lookahead; the extra bytes start here
        const TextPosition at = positionOf(text, scan.inputOffset(extraDataStart(scan.json())));
        return Result<ParsedConfig>::failure("JSON syntax error at line " + std::to_string(at.line) + ", column "
                                             + std::to_string(at.column)
                                             + ": text after the config's top-level value; DeepSpeed's reader "
                                               "rejects it (\"Extra data\")");
    }
    if (!ok) {
        const TextPosition at = positionOf(text, scan.inputOffset(builder.errorPosition()));
        const std::string detail =
            builder.errorText().empty() ? std::string("unexpected input") : parserDetail(builder.errorText());
        return Result<ParsedConfig>::failure("JSON syntax error at line " + std::to_string(at.line) + ", column "
                                             + std::to_string(at.column) + ": " + detail);
    }
    // nlohmann's lexer takes a NUL byte for the end of the input, so `{...}\0{...}` would parse; DeepSpeed's
    // reader (hjson/json) stops with "Extra data" there. A NUL anywhere else has already failed above.
    if (scan.json().find('\0') != std::string::npos) {
        const TextPosition at = positionOf(text, scan.inputOffset(extraDataStart(scan.json())));
        return Result<ParsedConfig>::failure("JSON syntax error at line " + std::to_string(at.line) + ", column "
                                             + std::to_string(at.column)
                                             + ": a NUL byte and more text after the config's top-level value; "
                                               "DeepSpeed's reader rejects anything after it (\"Extra data\")");
    }
    parsed.json = builder.takeRoot();
    if (!parsed.json.is_object())
        return Result<ParsedConfig>::failure(std::string("the top level is ") + typeName(parsed.json)
                                             + "; a DeepSpeed config must be a JSON object ({...})");
    return parsed;
}

} // namespace

int ParsedConfig::lineOf(const std::string& pointer) const { return lines.lineOf(json, pointer, true); }

int ParsedConfig::lineAt(const std::string& pointer) const { return lines.lineOf(json, pointer, false); }

Result<ParsedConfig> parseConfigText(const std::string& bytes)
{
    try {
        return parse(bytes);
    } catch (const std::exception& e) { // e.g. out of memory: report, never throw to the caller
        return Result<ParsedConfig>::failure(std::string("the config could not be read: ") + e.what());
    } catch (...) {
        return Result<ParsedConfig>::failure("the config could not be read");
    }
}

} // namespace dsw
