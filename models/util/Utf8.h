#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace dsw {

// Offset of the first byte that does not start a well-formed UTF-8 sequence (no overlong forms,
// no surrogates, nothing above U+10FFFF), or nullopt when the whole text is valid.
std::optional<std::size_t> firstInvalidUtf8(const std::string& s);

// `s` with ASCII letters lowercased; other bytes (UTF-8 included) unchanged.
std::string asciiLower(std::string s);

// 1-based line and column (in code points) of a byte offset, as every reader's error messages give them.
struct TextPosition {
    int line = 1;
    int column = 1;
};
TextPosition positionOf(const std::string& text, std::size_t offset);

} // namespace dsw
