#pragma once
// What the build-time compilers (tools/schema-compiler, engine-facts-compiler, knowledge-table-compiler) share:
// reading their input whole, writing C++ string literals byte for byte, and writing the generated source so that
// a failed run leaves no half-written file.
#include <optional>
#include <string>
#include <string_view>

namespace dsw {

// The file's bytes; nullopt (with "error: PATH: cannot be read" on standard error) when it cannot be read.
std::optional<std::string> readInputFile(const std::string& path);

// `source` written to `output` whole: to OUTPUT.partial first, then renamed. 0, or 1 with "error: PATH: cannot be
// written" on standard error.
int writeGeneratedSource(const std::string& output, const std::string& source);

// The bytes of `s` as the inside of a C++ string literal: printable ASCII as it is (", \ and ? escaped), anything
// else as an octal escape (it ends after three digits, unlike \x).
std::string escapedForLiteral(std::string_view s);

} // namespace dsw
