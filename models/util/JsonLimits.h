#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace dsw {

// Bounds on untrusted JSON, one set for every reader, so that whatever `import` writes `open` reads.
inline constexpr std::size_t kMaxConfigBytes = 4 * 1024 * 1024;
// A project carries a whole imported config, re-indented two levels deeper: twice the config limit
// holds a config of kMaxConfigBytes written compactly or with ordinary indentation. The importer
// refuses (ProjectFile.h: serializeProjectForFile) a config whose project would be larger still.
inline constexpr std::size_t kMaxProjectBytes = 2 * kMaxConfigBytes;
// Containers nested in one another, the root included.
inline constexpr int kMaxConfigDepth = 64;
// The imported config sits one level inside the project's root object.
inline constexpr int kMaxProjectDepth = kMaxConfigDepth + 1;

struct NestingTooDeep {
    std::size_t offset = 0; // byte offset of the first '[' or '{' past the limit
    int line = 1;           // 1-based; the column counts code points
    int column = 1;
};

// One flat pass over strict JSON text (strings skipped, escapes honoured) that finds the first
// container opened deeper than `maxDepth` levels, so that nothing recursive ever sees such a text.
// Malformed text is not judged here: the parser reports it.
std::optional<NestingTooDeep> firstTooDeep(const std::string& text, int maxDepth);

// "nesting deeper than 65 levels at line 1, column 66"
std::string describe(const NestingTooDeep& where, int maxDepth);

} // namespace dsw
