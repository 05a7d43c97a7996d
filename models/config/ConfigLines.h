#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dsw {

// The line of every key and array element of a config read from text, for a finding's line. A node per
// value (its container, its position there, its line) and one open-addressing table from (container, key)
// to node: 16 bytes a value plus the table, where a std::map of whole pointer strings took ~150 bytes a
// value and most of the reader's time. Keys themselves are not stored: the JSON holds them, so lookups
// walk the JSON and this index together.
class ConfigLines {
public:
    using Json = nlohmann::ordered_json;
    static constexpr std::uint32_t kRoot = 0;
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

    ConfigLines();
    // Room for `values` nodes without regrowing (a reader knows the count from its scan).
    void reserve(std::size_t values);

    // The node of `token` (a key, or an array index in decimal) in container node `parent`, whose JSON is
    // `container` as it is now; kNone when absent.
    std::uint32_t find(std::uint32_t parent, std::string_view token, const Json& container) const;
    // A new node for `token`, member or element `position` of `parent` (the caller found none).
    std::uint32_t add(std::uint32_t parent, std::string_view token, std::uint32_t position, int line);
    // A fresh node in place of `node` (a key written again: its old value's children are no longer reachable),
    // keeping its position and line.
    std::uint32_t renew(std::uint32_t node, std::string_view token);

    std::uint32_t position(std::uint32_t node) const { return m_nodes[node].position; }
    int line(std::uint32_t node) const { return m_nodes[node].line; }
    void setLine(std::uint32_t node, int line) { m_nodes[node].line = line; }

    // The line of `pointer` in `root` (exact: 0 when the pointer names no value with a line), or, with
    // `nearest`, of its nearest ancestor that has one.
    int lineOf(const Json& root, const std::string& pointer, bool nearest) const;
    // Every value of `root` with a known line, as (JSON pointer, line), in document order.
    std::vector<std::pair<std::string, int>> all(const Json& root) const;

private:
    struct Node {
        std::uint32_t parent = kNone;
        std::uint32_t position = 0;
        std::uint32_t hash = 0;
        int line = 0;
    };
    static std::uint32_t hashOf(std::uint32_t parent, std::string_view token);
    bool tokenIs(const Node& node, std::string_view token, const Json& container) const;
    void grow();

    std::vector<Node> m_nodes;         // m_nodes[0] is the root
    std::vector<std::uint32_t> m_slots; // node + 1, 0 when empty; a power of two in size
};

} // namespace dsw
