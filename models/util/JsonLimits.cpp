#include "util/JsonLimits.h"

#include "util/Utf8.h"

namespace dsw {

std::optional<NestingTooDeep> firstTooDeep(const std::string& text, int maxDepth)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i; // the escaped character cannot end the string
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth) {
                const TextPosition at = positionOf(text, i);
                NestingTooDeep where;
                where.offset = i;
                where.line = at.line;
                where.column = at.column;
                return where;
            }
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

std::string describe(const NestingTooDeep& where, int maxDepth)
{
    return "nesting deeper than " + std::to_string(maxDepth) + " levels at line " + std::to_string(where.line)
        + ", column " + std::to_string(where.column);
}

} // namespace dsw
