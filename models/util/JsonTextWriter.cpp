#include "util/JsonTextWriter.h"

#include <charconv>

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

void JsonTextWriter::quoted(std::string_view text)
{
    // Printable ASCII other than the quote and the backslash is written as it is by nlohmann too; anything else
    // (controls to escape, UTF-8 to check) is left to its serializer.
    for (const char c : text)
        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
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
