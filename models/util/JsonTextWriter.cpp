#include "util/JsonTextWriter.h"

#include <charconv>
#include <cstdint>
#include <cstring>

namespace dsw {

JsonTextWriter::JsonTextWriter(std::string& out)
    : out_(out)
    , serializer_(nlohmann::detail::output_adapter<char, std::string>(out), ' ')
{
}

void JsonTextWriter::newlineAndIndent(std::size_t depth)
{
    out_ += '\n';
    out_.append(2 * depth, ' ');
}

void JsonTextWriter::beforeValue()
{
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (hasElements_.empty())
        return; // the top-level value
    if (hasElements_.back())
        out_ += ',';
    hasElements_.back() = true;
    newlineAndIndent(hasElements_.size());
}

void JsonTextWriter::beginObject()
{
    beforeValue();
    out_ += '{';
    hasElements_.push_back(false);
}

void JsonTextWriter::beginArray()
{
    beforeValue();
    out_ += '[';
    hasElements_.push_back(false);
}

void JsonTextWriter::endObject()
{
    const bool any = hasElements_.back();
    hasElements_.pop_back();
    if (any)
        newlineAndIndent(hasElements_.size());
    out_ += '}';
}

void JsonTextWriter::endArray()
{
    const bool any = hasElements_.back();
    hasElements_.pop_back();
    if (any)
        newlineAndIndent(hasElements_.size());
    out_ += ']';
}

void JsonTextWriter::key(std::string_view name)
{
    beforeValue();
    quoted(name);
    out_ += ": ";
    afterKey_ = true;
}

void JsonTextWriter::value(const nlohmann::ordered_json& json)
{
    beforeValue();
    serializer_.dump(json, true, false, 2, static_cast<unsigned>(2 * hasElements_.size()));
}

namespace {

// Whether nlohmann writes `text` as it is: ASCII other than controls, the quote and the backslash. Eight bytes at a
// time: the high bit of b − 0x20 flags a control, b's own a byte ≥ 0x80, and (b ^ x) − 1's a byte equal to x. Borrows
// between bytes only start at a flagged byte, so a word of such bytes is never flagged; a flagged word goes to the
// exact check below.
bool writtenAsIs(std::string_view text)
{
    constexpr std::uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t w;
        std::memcpy(&w, text.data() + i, 8);
        const std::uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
        if (((w - ones * 0x20) | w | (quote - ones) | (backslash - ones)) & highs)
            break;
    }
    for (; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\')
            return false;
    }
    return true;
}

} // namespace

void JsonTextWriter::quoted(std::string_view text)
{
    // ASCII other than controls, the quote and the backslash is written as it is by nlohmann too; anything else
    // (controls to escape, UTF-8 to check) is left to its serializer.
    if (!writtenAsIs(text)) {
        serializer_.dump(nlohmann::ordered_json(std::string(text)), true, false, 2, 0);
        return;
    }
    out_ += '"';
    out_ += text;
    out_ += '"';
}

void JsonTextWriter::value(std::string_view text)
{
    beforeValue();
    quoted(text);
}

void JsonTextWriter::value(bool b)
{
    beforeValue();
    out_ += b ? "true" : "false";
}

void JsonTextWriter::value(std::int64_t n)
{
    beforeValue();
    char buffer[24];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, n).ptr;
    out_.append(buffer, end);
}

void JsonTextWriter::value(std::uint64_t n)
{
    beforeValue();
    char buffer[24];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, n).ptr;
    out_.append(buffer, end);
}

void JsonTextWriter::value(double x)
{
    beforeValue();
    serializer_.dump(nlohmann::ordered_json(x), true, false, 2, 0); // nlohmann's shortest round-trip form
}

void JsonTextWriter::value(std::nullptr_t)
{
    beforeValue();
    out_ += "null";
}

void JsonTextWriter::value(const std::vector<std::string>& texts)
{
    beginArray();
    for (const auto& t : texts)
        value(t);
    endArray();
}

} // namespace dsw
