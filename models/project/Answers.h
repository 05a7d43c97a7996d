#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace dsw {

// The user's answers, by input id. Only what the user gave is stored; value() falls back to the
// registry's default or to the derived default (e.g. GPU memory from the catalog).
class Answers {
public:
    void set(const std::string& id, nlohmann::json value) { m_values[id] = std::move(value); }
    void unset(const std::string& id) { m_values.erase(id); }
    bool has(const std::string& id) const { return m_values.count(id) != 0; }
    const std::map<std::string, nlohmann::json>& given() const { return m_values; }

    nlohmann::json value(const std::string& id) const;
    std::int64_t integer(const std::string& id) const;
    double number(const std::string& id) const;
    std::string text(const std::string& id) const;

    std::int64_t totalGpus() const;
    // Data-parallel size: all GPUs divided by the pipeline stages.
    std::int64_t dataParallelSize() const;

    bool operator==(const Answers& other) const { return m_values == other.m_values; }

private:
    nlohmann::json derived(const std::string& id) const;
    std::map<std::string, nlohmann::json> m_values;
};

} // namespace dsw
