#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dsw {

// Parses a count as people write it: "7B", "350M", "1.3e9", "7000000000", "7,000,000,000", "1.5k".
// Returns nullopt for anything else, for negatives and for values that are not whole numbers.
std::optional<std::int64_t> parseCount(std::string_view text);

// "7B", "350M", "1.3B"... — short form for display.
std::string formatCount(std::int64_t count);

// Bytes as "12.34 GiB" (binary units, as DeepSpeed's estimators print them); 2^63 bytes or more, the
// figure of a saturated estimate (CheckedMath.h), as "more than 8 EiB".
std::string formatGiB(double bytes);

// A figure for people, at the precision the models behind it carry (three significant digits, none after the point
// from 100 up, thousands grouped): 1.94, 0.0134, 7.48, 4,224, 1,600. Not for values a file or command must read back.
std::string formatFigure(double value);

} // namespace dsw
