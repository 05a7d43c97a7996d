#pragma once
#include "knowledge/ModelCatalog.h"
#include "knowledge/TransformerShape.h"

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

    // The model's shape from the model.* answers: what the user gave, else what model.preset supplies, else the
    // registry's defaults (kv_heads = heads, intermediate from the MLP kind, head width h/a).
    TransformerShape modelShape() const;
    // The catalog row model.preset names, or nullptr (no preset, or "none").
    const ModelSpec* preset() const;
    // Whether value(id) comes from model.preset (the user did not give id, and the preset has it).
    bool presetSupplies(const std::string& id) const;
    // Whether the user described the model (a preset or any of its dimensions), so model.params is derived from
    // the shape rather than the 7B default.
    bool describesShape() const;

    std::int64_t totalGpus() const;
    // Data-parallel size: all GPUs divided by the pipeline stages (the ranks ZeRO partitions over).
    std::int64_t dataParallelSize() const;
    // The world size of the batch identity: the data-parallel size divided by parallel.sequence_parallel_size when it
    // is a number (a sequence-parallel group takes one sample; ds-batch-world-size).
    std::int64_t batchWorldSize() const;

    bool operator==(const Answers& other) const { return m_values == other.m_values; }

private:
    nlohmann::json derived(const std::string& id) const;
    nlohmann::json fromPreset(const std::string& id) const;
    std::map<std::string, nlohmann::json> m_values;
};

} // namespace dsw
