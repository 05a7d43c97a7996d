#include "config/YamlWriter.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

namespace dsw {

namespace {

// Words that YAML 1.1 readers (PyYAML, which Accelerate uses) resolve to booleans or null.
bool isReservedWord(const std::string& value)
{
    std::string lower = value;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    static const std::array<const char*, 11> words = {"true", "false", "yes",  "no",   "on", "off",
                                                      "y",    "n",     "null", "none", "nan"};
    return std::any_of(words.begin(), words.end(), [&](const char* w) { return lower == w; });
}

bool isPlainSafe(const std::string& value)
{
    // A leading letter rules out numbers (1e5, 0x1F, .inf) and every YAML indicator character.
    if (value.empty() || !std::isalpha(static_cast<unsigned char>(value.front())))
        return false;
    const bool simple = std::all_of(value.begin(), value.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '_' || c == '-' || c == '.' || c == '/';
    });
    return simple && !isReservedWord(value);
}

std::string doubleQuoted(const std::string& value)
{
    std::string out = "\"";
    for (const char ch : value) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
            if (c < 0x20 || c == 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02X", c);
                out += buf;
            } else {
                out += ch; // UTF-8 bytes pass through: YAML streams are UTF-8
            }
        }
    }
    return out + "\"";
}

// Comments end at the line's end; a newline inside one would start a line YAML tries to read.
std::string oneLine(const std::string& text)
{
    std::string out = text;
    std::replace(out.begin(), out.end(), '\n', ' ');
    std::replace(out.begin(), out.end(), '\r', ' ');
    return out;
}

} // namespace

std::string YamlWriter::scalar(const std::string& value) { return isPlainSafe(value) ? value : doubleQuoted(value); }

void YamlWriter::comment(const std::string& text) { m_out += indent() + "# " + oneLine(text) + "\n"; }

void YamlWriter::beginMap(const std::string& key)
{
    m_out += indent() + scalar(key) + ":\n";
    ++m_depth;
}

void YamlWriter::endMap()
{
    if (m_depth > 0)
        --m_depth;
}

void YamlWriter::entry(const std::string& key, const std::string& rendered, const std::string& trailingComment)
{
    m_out += indent() + scalar(key) + ": " + rendered;
    if (!trailingComment.empty())
        m_out += "  # " + oneLine(trailingComment);
    m_out += "\n";
}

void YamlWriter::text(const std::string& key, const std::string& value, const std::string& trailingComment)
{
    entry(key, scalar(value), trailingComment);
}

void YamlWriter::boolean(const std::string& key, bool value, const std::string& trailingComment)
{
    entry(key, value ? "true" : "false", trailingComment);
}

void YamlWriter::integer(const std::string& key, std::int64_t value, const std::string& trailingComment)
{
    entry(key, std::to_string(value), trailingComment);
}

} // namespace dsw
