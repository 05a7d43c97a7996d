#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <utility>

namespace dsw {

// An ordered_json object filled member by member through a hash index of its keys. ordered_json's
// own operator[], contains() and find() search the keys linearly, so filling a big object with them
// is quadratic (150,000 keys: tens of seconds).
class OrderedObjectBuilder {
public:
    // Like operator[]: a key already present keeps its place and takes the new value.
    void set(const std::string& key, nlohmann::ordered_json value)
    {
        if (auto* kept = find(key)) {
            *kept = std::move(value);
            return;
        }
        m_index.emplace(key, members().size());
        members().emplace_back(key, std::move(value));
    }

    // Adds the member only when the key is not there yet (the first one wins).
    void add(const std::string& key, nlohmann::ordered_json value)
    {
        if (!contains(key))
            set(key, std::move(value));
    }

    bool contains(const std::string& key) const { return m_index.count(key) != 0; }

    nlohmann::ordered_json* find(const std::string& key)
    {
        const auto it = m_index.find(key);
        return it == m_index.end() ? nullptr : &(members().begin() + static_cast<std::ptrdiff_t>(it->second))->second;
    }

    nlohmann::ordered_json take()
    {
        m_index.clear();
        return std::move(m_object);
    }

private:
    nlohmann::ordered_json::object_t& members() { return m_object.get_ref<nlohmann::ordered_json::object_t&>(); }

    nlohmann::ordered_json m_object = nlohmann::ordered_json::object();
    std::unordered_map<std::string, std::size_t> m_index; // key -> position in m_object
};

} // namespace dsw
