#include "util/RegexLimits.h"

#include <vector>

namespace dsw {

namespace {

// Whether a repetition starts at `i`: *, + and ? always (a '?' right after '(' is handled by the caller),
// '{' when it opens {m}, {m,} or {m,n}.
std::size_t repetitionLength(std::string_view p, std::size_t i)
{
    if (p[i] == '*' || p[i] == '+' || p[i] == '?')
        return 1;
    if (p[i] != '{')
        return 0;
    std::size_t j = i + 1;
    const std::size_t digits = j;
    while (j < p.size() && ((p[j] >= '0' && p[j] <= '9') || p[j] == ','))
        ++j;
    return j < p.size() && p[j] == '}' && j > digits ? j - i + 1 : 0;
}

} // namespace

std::optional<std::string> regexTooComplex(std::string_view p)
{
    if (p.size() > kMaxRegexLength)
        return "it is longer than " + std::to_string(kMaxRegexLength) + " characters";
    struct Group {
        bool repeats = false;    // holds a repetition
        bool alternates = false; // holds a '|'
    };
    std::vector<Group> groups(1); // the whole pattern is the outermost group
    Group closed;                 // the group that ended just before a repetition, if one did
    bool afterGroup = false;
    int repetitions = 0;
    for (std::size_t i = 0; i < p.size();) {
        if (const std::size_t length = repetitionLength(p, i)) {
            if (++repetitions > kMaxRegexRepetitions)
                return "it has more than " + std::to_string(kMaxRegexRepetitions) + " repetitions (*, +, ?, {m,n})";
            if (afterGroup && (closed.repeats || closed.alternates))
                return "it repeats a group that itself " + std::string(closed.repeats ? "repeats" : "alternates")
                    + ", as in (a*)* or (a|b)*";
            groups.back().repeats = true;
            i += length;
            if (i < p.size() && p[i] == '?') // lazy: the same repetition
                ++i;
            afterGroup = false;
            continue;
        }
        afterGroup = false;
        switch (p[i]) {
        case '\\':
            i += 2; // an escaped character is one atom
            break;
        case '[': { // a class is one atom: skip to its closing ']' (a leading ']' or '^]' is a literal)
            std::size_t j = i + 1;
            if (j < p.size() && p[j] == '^')
                ++j;
            if (j < p.size() && p[j] == ']')
                ++j;
            while (j < p.size() && p[j] != ']')
                j += p[j] == '\\' ? 2 : 1;
            i = j + 1;
            break;
        }
        case '(':
            groups.emplace_back();
            ++i;
            if (i < p.size() && p[i] == '?') // (?:  (?=  (?!: not a repetition
                i += 2;
            break;
        case ')':
            if (groups.size() > 1) {
                closed = groups.back();
                groups.pop_back();
                groups.back().repeats = groups.back().repeats || closed.repeats;
                groups.back().alternates = groups.back().alternates || closed.alternates;
                afterGroup = true;
            }
            ++i;
            break;
        case '|':
            groups.back().alternates = true;
            ++i;
            break;
        default: ++i;
        }
    }
    return std::nullopt;
}

} // namespace dsw
