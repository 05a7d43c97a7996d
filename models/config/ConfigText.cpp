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

// Builds the ordered JSON from SAX events, with a pointer, a line and duplicate detection per key.
// Keys and values arrive in the same order as the scanner saw them, so the n-th key event is the
// scanner's n-th key. Objects get a key index so that huge objects stay linear.
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
        f.key = k;
        const std::string pointer = f.pointer + "/" + pointerToken(k);
        int line = 0;
        if (m_keysReliable && m_keyIndex < m_scan.keys.size()) {
            const ScannedConfig::Key& seen = m_scan.keys[m_keyIndex++];
            if (seen.raw.find('\\') == std::string::npos && seen.raw != k)
                m_keysReliable = false; // the scanner and the parser disagree: give no lines rather than wrong ones
            else
                line = seen.line;
        }
        if (f.index.count(k) != 0)
            m_out.duplicates.push_back({pointer, line});
        if (line > 0)
            m_out.lineOfPointer[pointer] = line; // the occurrence whose value is kept (the last)
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
        const std::string& json = m_scan.json;
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
    struct Frame {
        oj* node = nullptr;
        std::string pointer;
        std::string key;
        std::unordered_map<std::string, std::size_t> index; // key -> position in the object
    };

    // Inserts a value where the parser is; returns it (stable until its parent changes, which
    // happens only after it is closed).
    oj* insert(oj&& v, std::string& pointer, bool isString)
    {
        const std::size_t ordinal = m_valueIndex++;
        oj* placed = nullptr;
        bool arrayElement = false;
        if (m_stack.empty()) {
            m_root = std::move(v);
            placed = &m_root;
        } else if (Frame& f = m_stack.back(); f.node->is_object()) {
            pointer = f.pointer + "/" + pointerToken(f.key);
            auto& members = f.node->get_ref<oj::object_t&>();
            if (auto it = f.index.find(f.key); it != f.index.end()) {
                auto& kept = (members.begin() + static_cast<std::ptrdiff_t>(it->second))->second;
                kept = std::move(v); // a duplicate: the last value wins, as in Python
                placed = &kept;
            } else {
                f.index.emplace(f.key, members.size());
                members.emplace_back(f.key, std::move(v));
                placed = &members.back().second;
            }
        } else {
            pointer = f.pointer + "/" + std::to_string(f.node->size());
            f.node->push_back(std::move(v));
            placed = &f.node->back();
            arrayElement = true;
        }
        if (m_valuesReliable && ordinal < m_scan.values.size()) {
            const ScannedConfig::Value& seen = m_scan.values[ordinal];
            if (seen.quoteless && !isString) {
                m_valuesReliable = false;
            } else {
                if (seen.quoteless)
                    m_out.quotelessValues.push_back(pointer);
                if (arrayElement && seen.line > 0)
                    m_out.lineOfPointer[pointer] = seen.line;
            }
        }
        return placed;
    }

    bool add(oj&& v, bool isString = false)
    {
        std::string pointer;
        insert(std::move(v), pointer, isString);
        return true;
    }

    bool open(oj&& container)
    {
        std::string pointer;
        oj* node = insert(std::move(container), pointer, false);
        m_stack.push_back({node, pointer, {}, {}});
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

// The offset of the first byte after the top-level value's end that is not whitespace (npos when there is
// none): where "Extra data" starts. `json` is the scanner's strict text, so only strings need care.
std::size_t extraDataStart(const std::string& json)
{
    int depth = 0;
    bool inString = false;
    std::size_t i = 0;
    for (; i < json.size(); ++i) {
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
            ++i;
            break;
        }
    }
    i = json.find_first_not_of(" \t\r\n", i);
    return i;
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
    ParsedConfig parsed;
    const bool bom = bytes.size() >= 3 && bytes.compare(0, 3, "\xEF\xBB\xBF") == 0;
    const std::string text = bom ? std::string(" ") + bytes.substr(3) : bytes; // keeps columns of line 1 close
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

    ConfigBuilder builder(scan, parsed);
    const bool ok = oj::sax_parse(scan.json, &builder, oj::input_format_t::json, true, true);
    const bool extraData = builder.errorText().find("expected end of input") != std::string::npos;
    if (!ok && extraData) { // the parser's offset points past its lookahead; the extra bytes start here
        const TextPosition at = positionOf(text, scan.inputOffset(extraDataStart(scan.json)));
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
    if (scan.json.find('\0') != std::string::npos) {
        const TextPosition at = positionOf(text, scan.inputOffset(extraDataStart(scan.json)));
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

int ParsedConfig::lineOf(const std::string& pointer) const
{
    std::string p = pointer;
    while (!p.empty()) {
        if (auto it = lineOfPointer.find(p); it != lineOfPointer.end())
            return it->second;
        const std::size_t slash = p.rfind('/');
        if (slash == std::string::npos)
            break;
        p.erase(slash);
    }
    return 0;
}

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
