#include "util/Count.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace dsw {

std::optional<std::int64_t> parseCount(std::string_view text)
{
    std::string s;
    for (char c : text) {
        if (c == ',' || c == '_' || std::isspace(static_cast<unsigned char>(c)))
            continue;
        s.push_back(c);
    }
    if (s.empty())
        return std::nullopt;
    double multiplier = 1;
    switch (std::toupper(static_cast<unsigned char>(s.back()))) {
    case 'K': multiplier = 1e3; break;
    case 'M': multiplier = 1e6; break;
    case 'B':
    case 'G': multiplier = 1e9; break;
    case 'T': multiplier = 1e12; break;
    default: break;
    }
    if (multiplier != 1)
        s.pop_back();
    if (s.empty() || s.front() == '-' || s.front() == '+')
        return std::nullopt;
    double number = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), number);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(number))
        return std::nullopt;
    const double value = number * multiplier;
    if (value > 9.0e18
        || std::abs(value - std::round(value)) > 1e-15 * std::max(1.0, value)) // parse + multiply err < 3e-16
        return std::nullopt;
    return static_cast<std::int64_t>(std::llround(value));
}

std::string formatCount(std::int64_t count)
{
    struct Unit {
        double size;
        const char* suffix;
    };
    static const Unit units[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
    for (const auto& u : units) {
        if (count >= u.size) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.4g%s", count / u.size, u.suffix);
            return buf;
        }
    }
    return std::to_string(count);
}

std::string formatGiB(double bytes)
{
    if (bytes >= 0x1p63) // a saturated figure (CheckedMath.h): the true value is at least this
        return "more than 8 EiB";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / 1073741824.0);
    return buf;
}

std::string formatFigure(double value)
{
    char buf[64];
    const double size = std::fabs(value);
    if (size >= 1e15 || !std::isfinite(value)) {
        std::snprintf(buf, sizeof buf, "%.3g", value);
        return buf;
    }
    if (size < 100) {
        // Three significant digits; %g would write 1e-05 for the smallest, so the digits after the point follow.
        const int decimals = size == 0 ? 0 : std::max(0, 2 - static_cast<int>(std::floor(std::log10(size))));
        std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
        return buf;
    }
    std::snprintf(buf, sizeof buf, "%.0f", std::fabs(value));
    std::string digits = buf, out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return (value < 0 ? "-" : "") + out;
}

} // namespace dsw
