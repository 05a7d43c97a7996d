#pragma once
// How a model is trained, and what that makes trainable and frozen: full fine-tuning (every weight trained), LoRA
// (PEFT adapters beside frozen 16-bit weights) or QLoRA (the same beside weights stored in 4 bits by bitsandbytes).
// The adapter count follows PEFT's LoRA layer: a target linear of d_in → d_out gains A (r × d_in) and B (d_out × r),
// r·(d_in + d_out) parameters (peft-lora-layer), the projections' widths from the shape (GQA-aware: k and v project
// to kv_heads × head width). q, k, v and o are counted as separate projections (Llama's); a model that fuses them
// (GPT-2's c_attn) has the same weights, so the same frozen and quantized bytes, and r·2h fewer adapter parameters
// per fused pair, which the count does not subtract.
// Sources (resources/knowledge/sources.tsv): peft-lora-layer, peft-all-linear, raschka-lora-count, qlora-paper,
// bnb-matmul-4bit.
#include "knowledge/TransformerShape.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dsw {

enum class TrainingMethod { Full, Lora, Qlora };
std::string_view toString(TrainingMethod method); // full | lora | qlora
std::optional<TrainingMethod> trainingMethodFrom(std::string_view text);

// The linear modules of one decoder block (and the output head) an adapter can target, as PEFT names them in
// Llama-style models.
enum class LinearModule { Q, K, V, O, Gate, Up, Down, LmHead };
std::string_view toString(LinearModule module); // q_proj, …, lm_head

struct AdapterSpec {
    std::int64_t rank = 8;                  // lora.rank (r)
    double alpha = 16;                      // lora.alpha: scales the update, sizes nothing
    double dropout = 0.1;                   // lora.dropout: > 0 saves a dropped copy of each target's input
    std::vector<LinearModule> targets;      // lora.targets, resolved
    std::vector<std::string> modulesToSave; // lora.modules_to_save: embed_tokens and/or lm_head, trained whole
    bool doubleQuant = true;                // QLoRA: bnb_4bit_use_double_quant
};

// lora.targets: "attention" (q, k, v, o), "all-linear" (every linear of the blocks, not the output head: PEFT's
// INCLUDE_LINEAR_LAYERS_SHORTHAND) or a comma list of module names (q_proj, k_proj, v_proj, o_proj, gate_proj,
// up_proj, down_proj, lm_head; fc1/fc2 for GELU MLPs). A GELU MLP has no gate. Throws std::invalid_argument naming
// lora.targets and what is allowed.
std::vector<LinearModule> adapterTargetsFrom(std::string_view text, MlpKind mlp);
// lora.modules_to_save: a comma list of embed_tokens and lm_head (empty: none). Throws std::invalid_argument.
std::vector<std::string> modulesToSaveFrom(std::string_view text);

// d_in and d_out of one target in the shape.
struct LinearWidths {
    std::int64_t in = 0, out = 0;
};
LinearWidths linearWidths(const TransformerShape& shape, LinearModule module);

// Adapter parameters of one decoder block: r · Σ (d_in + d_out) over the block's targets (lm_head not included).
std::int64_t adapterParamsPerLayer(const TransformerShape& shape, const AdapterSpec& spec);
// Σ d_in over the block's targets: the widths of the inputs the adapters' dropout copies.
std::int64_t adapterInputWidthPerLayer(const TransformerShape& shape, const AdapterSpec& spec);
// Targets within one block.
std::int64_t adapterTargetsPerLayer(const AdapterSpec& spec);

// The weights of one block's linear projections (no biases): what bitsandbytes stores in 4 bits for QLoRA.
std::int64_t linearWeightsPerLayer(const TransformerShape& shape);

// bitsandbytes' 4-bit storage (NF4, blocks of 64): half a byte per weight, plus the quantization constants, an fp32
// absmax per block (4/64 bytes per weight), or with double quantization an 8-bit absmax per block and an fp32
// constant per 256 blocks (1/64 + 4/(64·256)): qlora-paper, "0.5 bits per parameter" reduced to "0.127 bits".
inline constexpr double kNf4BytesPerWeight = 0.5;
double nf4ConstantBytesPerWeight(bool doubleQuant);

// What a training method makes trainable and frozen, for the whole model.
struct MethodSizes {
    TrainingMethod method = TrainingMethod::Full;
    std::int64_t total = 0;     // the model's parameters (model.params)
    std::int64_t trainable = 0; // full: total; LoRA/QLoRA: adapters + modules_to_save copies
    std::int64_t adapters = 0;  // LoRA/QLoRA: the adapters' parameters
    std::int64_t saved = 0;     // modules_to_save: PEFT trains a copy of each named module (vocab × hidden)
    std::int64_t frozen = 0;    // full: 0; LoRA/QLoRA: every weight of the base model
    std::int64_t quantized = 0; // QLoRA: the blocks' linear weights, stored in 4 bits
};
MethodSizes methodSizes(const TransformerShape& shape, std::int64_t totalParams, TrainingMethod method,
                        const AdapterSpec& spec);

} // namespace dsw
