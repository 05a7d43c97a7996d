#include "util/JsonLimits.h"

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
                NestingTooDeep where;
                where.offset = i;
                for (std::size_t k = 0; k < i; ++k) {
                    const unsigned char b = static_cast<unsigned char>(text[k]);
                    if (b == '\n') {
                        ++where.line;
                        where.column = 1;
                    } else if ((b & 0xC0) != 0x80) { // count code points, not continuation bytes
                        ++where.column;
                    }
                }
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
