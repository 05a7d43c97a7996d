#pragma once
// A bound on the work of a user's regular expression. std::regex backtracks, and a pattern such as
// "(.*)*x" takes exponential time even on a 16-character name (pipeline.partition_method "type:(.*)*x"
// ran past 30 s). Patterns that stay within these limits match any short name in microseconds.
#include <optional>
#include <string>
#include <string_view>

namespace dsw {

inline constexpr std::size_t kMaxRegexLength = 256;
inline constexpr int kMaxRegexRepetitions = 3; // *, +, ?, {m,n}

// Why `pattern` could take unbounded time to match (too long, more than kMaxRegexRepetitions repetitions,
// or a repetition of a group that itself repeats or alternates, as in (a*)* or (a|b)*), or nullopt.
std::optional<std::string> regexTooComplex(std::string_view pattern);

} // namespace dsw
