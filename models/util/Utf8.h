#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace dsw {

// Offset of the first byte that does not start a well-formed UTF-8 sequence (no overlong forms,
// no surrogates, nothing above U+10FFFF), or nullopt when the whole text is valid.
std::optional<std::size_t> firstInvalidUtf8(const std::string& s);

} // namespace dsw
