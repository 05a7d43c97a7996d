#pragma once
// Arithmetic on counts and bytes that cannot overflow. The inputs' ranges allow products far beyond
// 64 bits (10^7 tokens squared × 4096 heads × 65536 samples of activations), so byte figures saturate
// at kSaturated instead of wrapping to a negative number; formatGiB shows a saturated figure as
// "more than 8 EiB", and a comparison with any real capacity still says it does not fit.
#include <cmath>
#include <cstdint>
#include <limits>

namespace dsw {

inline constexpr std::int64_t kSaturated = std::numeric_limits<std::int64_t>::max();

// a · b, saturating at the sign's limit.
constexpr std::int64_t mulSat(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r))
        return (a < 0) != (b < 0) ? std::numeric_limits<std::int64_t>::min() : kSaturated;
    return r;
}

template <typename... Rest>
constexpr std::int64_t mulSat(std::int64_t a, std::int64_t b, Rest... rest)
{
    return mulSat(mulSat(a, b), rest...);
}

// a + b, saturating at the sign's limit.
constexpr std::int64_t addSat(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
        return a < 0 ? std::numeric_limits<std::int64_t>::min() : kSaturated;
    return r;
}

template <typename... Rest>
constexpr std::int64_t addSat(std::int64_t a, std::int64_t b, Rest... rest)
{
    return addSat(addSat(a, b), rest...);
}

// a − b, saturating at the sign's limit.
constexpr std::int64_t subSat(std::int64_t a, std::int64_t b)
{
    std::int64_t r = 0;
    if (__builtin_sub_overflow(a, b, &r))
        return b < 0 ? kSaturated : std::numeric_limits<std::int64_t>::min();
    return r;
}

// Python's int(x) for a float (truncation toward zero), saturating where the result does not fit in
// 64 bits; NaN, which no input can produce, gives 0.
inline std::int64_t truncSat(double x)
{
    if (std::isnan(x))
        return 0;
    if (x >= 0x1p63)
        return kSaturated;
    if (x < -0x1p63)
        return std::numeric_limits<std::int64_t>::min();
    return static_cast<std::int64_t>(x);
}

} // namespace dsw
