#pragma once
#include "knowledge/TransformerShape.h"
#include "util/Result.h"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace dsw {

// What a JSON file given to import is: a DeepSpeed config, a Hugging Face model config.json (it has model_type or
// architectures), or neither (an object none of whose top-level keys DeepSpeed reads or nearly spells).
enum class ConfigFileKind { DeepSpeed, HuggingFaceModel, Neither };
ConfigFileKind classifyConfigFile(const nlohmann::ordered_json& json);

// The model answers a Hugging Face config.json implies: the shape read from the keys each family spells its own
// way (hidden_size | n_embd | d_model, num_hidden_layers | n_layer | num_layers, ...), in registry ids and values.
struct HfModelImport {
    std::string modelType;    // "llama", "gpt2", "t5", ...
    std::string architecture; // the first of "architectures", e.g. "LlamaForCausalLM"
    TransformerShape shape;
    std::int64_t maxPosition = 0; // max_position_embeddings | n_positions; 0 when absent
    double dropout = 0;           // the largest dropout probability the config trains with (model.dropout)
    std::int64_t experts = 1;     // num_local_experts | num_experts | n_routed_experts; 1: dense (model.experts)
    std::vector<std::pair<std::string, nlohmann::json>> moe;     // the MoE shape's answers the config gives
    std::vector<std::pair<std::string, nlohmann::json>> answers; // model.* id -> value, valid for the registry
    std::vector<std::string> notes; // what was assumed or left out (a mixture of experts, a missing key's default)
};

// Fails naming the key when the config lacks one the shape needs or has one of the wrong type, and when the shape
// contradicts itself (shapeError); nothing is half read.
Result<HfModelImport> readHfModelConfig(const nlohmann::ordered_json& json);

} // namespace dsw
