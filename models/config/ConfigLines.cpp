#include "config/ConfigLines.h"

#include "util/JsonAccess.h"

#include <charconv>
#include <functional>

namespace dsw {

ConfigLines::ConfigLines()
    : m_nodes(1)
    , m_slots(64, 0)
{
}

void ConfigLines::reserve(std::size_t values)
{
    m_nodes.reserve(values + 1);
    std::size_t slots = m_slots.size();
    while ((values + 1) * 10 > slots * 7)
        slots *= 2;
    if (slots > m_slots.size()) {
        m_slots.resize(slots / 2); // grow() doubles it and places the nodes again
        grow();
    }
}

std::uint32_t ConfigLines::hashOf(std::uint32_t parent, std::string_view token)
{
    const std::size_t h = std::hash<std::string_view>{}(token) ^ (std::size_t(parent) * 0x9E3779B97F4A7C15ull);
    return static_cast<std::uint32_t>(h ^ (h >> 32));
}

bool ConfigLines::tokenIs(const Node& node, std::string_view token, const Json& container) const
{
    if (container.is_object()) {
        const auto& members = container.get_ref<const Json::object_t&>();
        return node.position < members.size() && (members.begin() + node.position)->first == token;
    }
    char digits[16];
    const auto end = std::to_chars(digits, digits + sizeof digits, node.position).ptr;
    return std::string_view(digits, static_cast<std::size_t>(end - digits)) == token;
}

std::uint32_t ConfigLines::find(std::uint32_t parent, std::string_view token, const Json& container) const
{
    const std::uint32_t hash = hashOf(parent, token);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const std::uint32_t slot = m_slots[i];
        if (slot == 0)
            return kNone;
        const Node& node = m_nodes[slot - 1];
        if (node.hash == hash && node.parent == parent && tokenIs(node, token, container))
            return slot - 1;
    }
}

void ConfigLines::grow()
{
    std::vector<std::uint32_t> slots(m_slots.size() * 2, 0);
    const std::size_t mask = slots.size() - 1;
    for (const std::uint32_t slot : m_slots)
        if (slot != 0) {
            std::size_t i = m_nodes[slot - 1].hash & mask;
            while (slots[i] != 0)
                i = (i + 1) & mask;
            slots[i] = slot;
        }
    m_slots.swap(slots);
}

std::uint32_t ConfigLines::add(std::uint32_t parent, std::string_view token, std::uint32_t position, int line)
{
    if ((m_nodes.size() + 1) * 10 > m_slots.size() * 7) // keep the table under 70% full
        grow();
    const std::uint32_t id = static_cast<std::uint32_t>(m_nodes.size());
    m_nodes.push_back({parent, position, hashOf(parent, token), line});
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = m_nodes.back().hash & mask;
    while (m_slots[i] != 0)
        i = (i + 1) & mask;
    m_slots[i] = id + 1;
    return id;
}

std::uint32_t ConfigLines::renew(std::uint32_t node, std::string_view token)
{
    if ((m_nodes.size() + 1) * 10 > m_slots.size() * 7)
        grow();
    const Node old = m_nodes[node];
    const std::uint32_t id = static_cast<std::uint32_t>(m_nodes.size());
    m_nodes.push_back(old);
    const std::size_t mask = m_slots.size() - 1;
    std::size_t i = hashOf(old.parent, token) & mask;
    while (m_slots[i] != node + 1)
        i = (i + 1) & mask;
    m_slots[i] = id + 1; // the same key, now naming the new value
    return id;
}

int ConfigLines::lineOf(const Json& root, const std::string& pointer, bool nearest) const
{
    if (pointer.empty() || pointer[0] != '/')
        return 0;
    const Json* container = &root;
    std::uint32_t node = kRoot;
    int found = 0;
    std::string token;
    std::size_t at = 0;
    while (at < pointer.size()) { // pointer[at] is the '/' before the next token
        const std::size_t end = std::min(pointer.find('/', at + 1), pointer.size());
        token.clear();
        for (std::size_t i = at + 1; i < end; ++i) { // RFC 6901: "~1" is '/', "~0" is '~'
            if (pointer[i] != '~') {
                token += pointer[i];
            } else if (i + 1 < end && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
                token += pointer[++i] == '0' ? '~' : '/';
            } else {
                return nearest ? found : 0; // no key is written so
            }
        }
        if (!container->is_object() && !container->is_array())
            return nearest ? found : 0;
        node = find(node, token, *container);
        if (node == kNone)
            return nearest ? found : 0;
        const Node& n = m_nodes[node];
        if (n.position >= container->size())
            return nearest ? found : 0;
        if (n.line > 0)
            found = n.line;
        else if (!nearest && end == pointer.size())
            return 0;
        container = container->is_object()
            ? &(container->get_ref<const Json::object_t&>().begin() + n.position)->second
            : &(*container)[n.position];
        at = end;
    }
    return found;
}

std::vector<std::pair<std::string, int>> ConfigLines::all(const Json& root) const
{
    std::vector<std::pair<std::string, int>> out;
    struct Step {
        const Json* container;
        std::uint32_t node;
        std::string pointer;
        std::size_t next = 0;
    };
    std::vector<Step> stack; // explicit, as deep configs must not overflow the call stack
    if (root.is_object() || root.is_array())
        stack.push_back({&root, kRoot, {}});
    while (!stack.empty()) {
        Step& s = stack.back();
        if (s.next >= s.container->size()) {
            stack.pop_back();
            continue;
        }
        const std::size_t i = s.next++;
        const bool object = s.container->is_object();
        const std::string token = object
            ? (s.container->get_ref<const Json::object_t&>().begin() + static_cast<std::ptrdiff_t>(i))->first
            : std::to_string(i);
        const Json& child = object
            ? (s.container->get_ref<const Json::object_t&>().begin() + static_cast<std::ptrdiff_t>(i))->second
            : (*s.container)[i];
        const std::uint32_t node = find(s.node, token, *s.container);
        if (node == kNone)
            continue;
        std::string pointer = s.pointer + "/" + pointerToken(token);
        if (m_nodes[node].line > 0)
            out.emplace_back(pointer, m_nodes[node].line);
        if (child.is_object() || child.is_array())
            stack.push_back({&child, node, std::move(pointer)}); // `s` is not used after this
    }
    return out;
}

} // namespace dsw
