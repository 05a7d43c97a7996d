#include "config/ConfigScan.h"

#include "util/Utf8.h"

#include <algorithm>
#include <string_view>

namespace dsw {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool isDelimiter(char c) { return isSpace(c) || c == ',' || c == '}' || c == ']' || c == '/' || c == '#'; }

void appendEscaped(std::string& out, const std::string& text)
{
    static const char* hex = "0123456789abcdef";
    out += '"';
    for (unsigned char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    out += '"';
}

bool isNumberChar(char c) { return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E'; }

// One left-to-right pass; containers are tracked on an explicit stack, never by recursion. The text for the
// parser is copied only from the first change on (strict JSON is parsed as it is).
class Scanner {
public:
    Scanner(const std::string& in, int maxDepth)
        : m_in(in)
        , m_maxDepth(maxDepth)
    {
        m_out.input = &in;
    }

    ScannedConfig run()
    {
        while (m_i < m_in.size() && !m_out.error) {
            const char c = m_in[m_i];
            if (isSpace(c))
                copyOne();
            else if (c == '/' && next() == '/')
                blankLineComment();
            else if (c == '#')
                blankLineComment();
            else if (c == '/' && next() == '*')
                blankBlockComment();
            else if (c == '{' || c == '[')
                open(c);
            else if (c == '}' || c == ']')
                close();
            else if (c == ',')
                comma();
            else if (c == ':')
                colon();
            else if (c == '"')
                string();
            else
                bareValue();
        }
        if (m_out.rewritten) { // the rest unchanged (all of it when it stopped early)
            m_i = m_in.size();
            flush();
        }
        m_out.keys.shrink_to_fit(); // they live while the JSON is built: no slack from doubling
        m_out.values.shrink_to_fit();
        return std::move(m_out);
    }

private:
    char next() const { return m_i + 1 < m_in.size() ? m_in[m_i + 1] : '\0'; }

    // Copies the input up to where the scan is into the parser's text, starting that text if needed.
    void flush()
    {
        if (!m_out.rewritten) {
            m_out.rewritten = true;
            m_out.rewrittenJson.reserve(m_in.size() + 16);
        }
        m_out.rewrittenJson.append(m_in, m_copied, m_i - m_copied);
        m_copied = m_i;
    }

    void copyOne()
    {
        if (m_in[m_i] == '\n')
            ++m_line;
        ++m_i;
    }

    void blankLineComment()
    {
        m_out.comments = true;
        flush();
        while (m_i < m_in.size() && m_in[m_i] != '\n') {
            m_out.rewrittenJson += ' ';
            ++m_i;
        }
        m_copied = m_i;
    }

    void blankBlockComment()
    {
        m_out.comments = true;
        const std::size_t end = m_in.find("*/", m_i + 2);
        if (end == std::string::npos) { // unterminated: let the parser report it
            m_i = m_in.size();
            return;
        }
        flush();
        for (; m_i < end + 2; ++m_i) {
            const bool newline = m_in[m_i] == '\n';
            m_line += newline ? 1 : 0;
            m_out.rewrittenJson += newline ? '\n' : ' ';
        }
        m_copied = m_i;
    }

    void value(bool quoteless = false)
    {
        if (!m_stack.empty() && m_stack.back().bracket == '[')
            ++m_out.values[m_stack.back().value].members;
        m_out.values.push_back({m_line, 0, quoteless});
        m_expectValue = false;
        m_expectKey = false;
        m_lastWasValue = true;
        m_pendingComma = std::string::npos;
    }

    void open(char c)
    {
        value();
        if (static_cast<int>(m_stack.size()) + 1 > m_maxDepth) {
            const TextPosition at = positionOf(m_in, m_i);
            m_out.error = "nesting deeper than " + std::to_string(m_maxDepth) + " levels at line "
                + std::to_string(at.line) + ", column " + std::to_string(at.column);
            return;
        }
        m_stack.push_back({c, m_out.values.size() - 1});
        m_expectKey = c == '{';
        m_expectValue = c == '[';
        m_lastWasValue = false;
        copyOne();
    }

    void close()
    {
        if (m_pendingComma != std::string::npos) { // hjson allows a comma before the closing bracket
            flush(); // no bytes were inserted since the comma: its offset in the parser's text is known
            m_out.rewrittenJson[m_pendingComma + m_inserted] = ' ';
            m_out.trailingCommas = true;
        }
        if (!m_stack.empty())
            m_stack.pop_back();
        m_expectKey = m_expectValue = false;
        m_lastWasValue = true;
        m_pendingComma = std::string::npos;
        copyOne();
    }

    void comma()
    {
        const bool inArray = !m_stack.empty() && m_stack.back().bracket == '[';
        m_pendingComma = m_lastWasValue ? m_i : std::string::npos;
        m_expectValue = inArray;
        m_expectKey = !inArray;
        m_lastWasValue = false;
        copyOne();
    }

    void colon()
    {
        m_expectValue = true;
        m_expectKey = false;
        m_lastWasValue = false;
        m_pendingComma = std::string::npos;
        copyOne();
    }

    void string()
    {
        std::size_t end = m_i + 1;
        while (end < m_in.size() && m_in[end] != '"' && m_in[end] != '\n')
            end += m_in[end] == '\\' ? 2 : 1;
        if (end >= m_in.size() || m_in[end] != '"') { // unterminated: the parser reports it
            m_i = m_in.size();
            return;
        }
        const bool isKey = !m_expectValue && !m_stack.empty() && m_stack.back().bracket == '{';
        if (isKey) {
            ++m_out.values[m_stack.back().value].members;
            m_out.keys.push_back(
                {static_cast<std::uint32_t>(m_i + 1), static_cast<std::uint32_t>(end - m_i - 1), m_line});
            m_expectKey = false;
            m_lastWasValue = false;
            m_pendingComma = std::string::npos;
        } else {
            value();
        }
        m_i = end + 1;
    }

    bool literalAt(const char* word) const
    {
        const std::size_t n = std::char_traits<char>::length(word);
        if (m_in.compare(m_i, n, word) != 0)
            return false;
        return m_i + n >= m_in.size() || isDelimiter(m_in[m_i + n]);
    }

    void bareValue()
    {
        const char c = m_in[m_i];
        if (!m_expectValue || c == '\'' || c == ':') { // not something hjson-lite handles: pass it on
            m_lastWasValue = false;
            copyOne();
            return;
        }
        if ((c >= '0' && c <= '9') || c == '-') {
            value();
            while (m_i < m_in.size() && isNumberChar(m_in[m_i]))
                ++m_i;
            return;
        }
        for (const char* word : {"true", "false", "null"})
            if (literalAt(word)) {
                value();
                m_i += std::char_traits<char>::length(word);
                return;
            }
        quoteless();
    }

    // hjson: a quoteless string runs to the end of the line, trailing spaces trimmed.
    void quoteless()
    {
        std::size_t end = m_in.find('\n', m_i);
        if (end == std::string::npos)
            end = m_in.size();
        std::size_t last = end;
        while (last > m_i && isSpace(m_in[last - 1]))
            --last;
        value(true);
        m_out.quotelessValues = true;
        flush();
        std::string& json = m_out.rewrittenJson;
        const std::size_t at = json.size();
        appendEscaped(json, m_in.substr(m_i, last - m_i));
        // A newline separates members in hjson; JSON needs the comma the string swallowed.
        std::size_t k = end;
        while (k < m_in.size() && isSpace(m_in[k]))
            ++k;
        const bool closes = k >= m_in.size() || m_in[k] == '}' || m_in[k] == ']' || m_in[k] == ',';
        if (!closes)
            json += ',';
        m_out.insertions.push_back({at, json.size() - at - (last - m_i)});
        m_inserted += m_out.insertions.back().count;
        m_lastWasValue = closes;
        if (!closes) { // the inserted comma starts the next member
            const bool inArray = !m_stack.empty() && m_stack.back().bracket == '[';
            m_expectValue = inArray;
            m_expectKey = !inArray;
            m_lastWasValue = false;
        }
        m_i = last;
        m_copied = m_i;
    }

    const std::string& m_in;
    const int m_maxDepth;
    ScannedConfig m_out;
    std::size_t m_i = 0;
    int m_line = 1;
    struct Open {
        char bracket;
        std::size_t value; // its index in m_out.values
    };
    std::vector<Open> m_stack;
    std::size_t m_copied = 0;   // input bytes already in the parser's text (when rewritten)
    std::size_t m_inserted = 0; // bytes the parser's text has more than the input, so far
    bool m_expectValue = true; // the root value
    bool m_expectKey = false;
    bool m_lastWasValue = false;
    std::size_t m_pendingComma = std::string::npos;
};

} // namespace

std::size_t ScannedConfig::inputOffset(std::size_t offset) const
{
    std::size_t result = offset;
    for (const Insertion& ins : insertions)
        if (ins.at < offset)
            result -= std::min(ins.count, offset - ins.at);
    return result;
}

ScannedConfig scanConfig(const std::string& text, int maxDepth) { return Scanner(text, maxDepth).run(); }

} // namespace dsw
