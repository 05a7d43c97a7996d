#include "config/DumpLines.h"

#include "util/JsonLimits.h"
#include "util/Utf8.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace dsw {

namespace {

using oj = nlohmann::ordered_json;

// Walks the JSON in dump order, adding a node per member and element with the line the dump writes it on.
class DumpWalk {
public:
    explicit DumpWalk(ConfigLines& lines)
        : m_lines(lines)
    {
    }

    // `v` starts on line `line` at `depth` (the root is 1); returns the line it ends on, or 0 when the
    // read-back would differ (see dumpLines).
    int place(const oj& v, std::uint32_t node, int line, int depth)
    {
        if (!scalarOk(v))
            return 0;
        if (!v.is_object() && !v.is_array())
            return line;
        if (depth + 2 > kMaxConfigDepth)
            return 0;
        m_bytes += 2 + 2 * std::size_t(depth); // the brackets, the closing one indented
        if (v.empty())
            return line;
        std::uint32_t position = 0;
        if (v.is_object()) {
            for (const auto& [key, child] : v.get_ref<const oj::object_t&>()) {
                if (firstInvalidUtf8(key))
                    return 0;
                m_bytes += 2 * std::size_t(depth) + 6 * key.size() + 6; // indent, "key": , ",\n"
                const std::uint32_t id = m_lines.add(node, key, position++, ++line);
                if ((line = place(child, id, line, depth + 1)) == 0)
                    return 0;
            }
        } else {
            char digits[16];
            for (const oj& child : v.get_ref<const oj::array_t&>()) {
                const auto end = std::to_chars(digits, digits + sizeof digits, position).ptr;
                m_bytes += 2 * std::size_t(depth) + 2; // indent, ",\n"
                const std::uint32_t id =
                    m_lines.add(node, std::string_view(digits, std::size_t(end - digits)), position++, ++line);
                if ((line = place(child, id, line, depth + 1)) == 0)
                    return 0;
            }
        }
        return m_bytes <= kMaxConfigBytes ? line + 1 : 0;
    }

private:
    // Adds a bound on the scalar's dumped size; false when the dump would not read back as `v`.
    bool scalarOk(const oj& v)
    {
        if (v.is_string()) {
            const std::string& s = v.get_ref<const std::string&>();
            m_bytes += 6 * s.size() + 2; // at worst every byte escaped as \uXXXX
            return !firstInvalidUtf8(s);
        }
        if (v.is_number_float()) {
            m_bytes += 32;
            return std::isfinite(v.get<double>());
        }
        if (v.is_binary() || v.is_discarded())
            return false;
        m_bytes += 32; // integers, booleans, null
        return true;
    }

    ConfigLines& m_lines;
    std::size_t m_bytes = 0;
};

} // namespace

std::optional<ConfigLines> dumpLines(const nlohmann::ordered_json& json)
{
    if (!json.is_object())
        return std::nullopt;
    ConfigLines lines;
    DumpWalk walk(lines);
    if (walk.place(json, ConfigLines::kRoot, 1, 1) == 0)
        return std::nullopt;
    return lines;
}

} // namespace dsw
