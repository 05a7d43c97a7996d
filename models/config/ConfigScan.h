#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dsw {

// A flat, non-recursive pass over config text before the JSON parser sees it. It finds what the
// parser's SAX events lack (the line of every key and value), enforces the nesting limit before any
// parser descends, and turns the hjson that DeepSpeed's file loader accepts into strict JSON:
// comments (// /* */ #) become spaces, trailing commas are dropped, and a quoteless value becomes a
// string that runs to the end of its line, as hjson reads it ("GBSIZE," for `"a": GBSIZE,`).
// Offsets are 32-bit: the reader scans at most kMaxConfigBytes.
struct ScannedConfig {
    struct Key {
        std::uint32_t offset = 0; // the key's text between its quotes in the input, escapes not decoded
        std::uint32_t length = 0;
        int line = 0;
    };
    struct Value { // every value, containers included, in document order (SAX event order)
        int line = 0;
        std::uint32_t members : 31 = 0; // a container's keys or elements as written (a hint for reserving)
        std::uint32_t quoteless : 1 = 0;
    };
    // The text for the JSON parser, with the input's lines: the input itself when it is strict JSON
    // (no copy of a large file), else the rewritten text.
    const std::string& json() const { return rewritten ? rewrittenJson : *input; }
    const std::string* input = nullptr;
    bool rewritten = false;
    std::string rewrittenJson;
    std::vector<Key> keys; // object keys in document order
    std::vector<Value> values;
    bool comments = false;
    bool trailingCommas = false;
    bool quotelessValues = false;
    std::optional<std::string> error; // nesting too deep (with line and column)

    // Byte offset in the input of byte `offset` of `json` (quoting a quoteless value inserts bytes).
    std::size_t inputOffset(std::size_t offset) const;

    struct Insertion {
        std::size_t at = 0; // offset in `json` where the inserted bytes start
        std::size_t count = 0;
    };
    std::vector<Insertion> insertions;
};

ScannedConfig scanConfig(const std::string& text, int maxDepth);

} // namespace dsw
