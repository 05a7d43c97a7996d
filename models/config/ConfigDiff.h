#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dsw {

// One difference between two ds_configs as DeepSpeed reads them.
struct ConfigDifference {
    std::string pointer;      // canonical spelling ("/bf16/enabled", "/zero_optimization/stage3_prefetch_bucket_size")
    nlohmann::ordered_json a; // the value DeepSpeed uses on each side (the default when absent)
    nlohmann::ordered_json b;
    bool aAbsent = false; // the side did not write the key
    bool bAbsent = false;
    std::string meaning; // what the key does, from the schema
};

// A semantic diff: keys are compared under their canonical spelling, an absent key counts as
// DeepSpeed's default (so `"overlap_comm": true` at stage 3 equals no key at all), numbers compare by
// value (5e8 == 500000000). Keys without a known default differ when only one side has them.
std::vector<ConfigDifference> diffConfigs(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b);

} // namespace dsw
