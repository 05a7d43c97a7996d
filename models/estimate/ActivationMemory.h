#pragma once
#include <cstdint>
#include <string>

namespace dsw {

// Activation memory per GPU after Korthikanti et al. 2022 (arXiv:2205.05198), Eq. 1:
// 16-bit activations, 1-byte dropout masks, no tensor or sequence parallelism (t = 1),
// plus the 4·s·b·v fp32 logits term, which matters for large vocabularies.
struct ActivationInputs {
    std::int64_t seqLen;     // s
    std::int64_t microBatch; // b
    std::int64_t hidden;     // h
    std::int64_t heads;      // a
    std::int64_t layers;     // L
    std::int64_t vocab;      // v
};

// Bytes of activations live at the peak. With full checkpointing only each layer's 2·s·b·h
// input is kept, plus one layer recomputed during backward. Saturates at kSaturated (CheckedMath.h).
// Throws std::invalid_argument if s, b, h, a or L < 1, or v < 0.
std::int64_t activationBytes(const ActivationInputs& in, bool checkpointing);

// The model's shape from the answers (model.seq_len, hidden_size, attention_heads, layers, vocab_size)
// with the given micro-batch.
ActivationInputs activationInputsFor(const class Answers& answers, std::int64_t microBatch);

// The formula behind activationBytes, for showing users how the number was computed.
std::string activationFormula(bool checkpointing);

} // namespace dsw
