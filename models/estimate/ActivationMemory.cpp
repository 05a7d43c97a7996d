#include "estimate/ActivationMemory.h"

#include "project/Answers.h"
#include "util/CheckedMath.h"

#include <stdexcept>

namespace dsw {

std::int64_t activationBytes(const ActivationInputs& in, bool checkpointing)
{
    const auto& [s, b, h, a, L, v] = in;
    if (s < 1 || b < 1 || h < 1 || a < 1 || L < 1 || v < 0)
        throw std::invalid_argument("activationBytes: s, b, h, a, L must be >= 1 and v >= 0");

    // Saturating (CheckedMath.h): the inputs' ranges allow up to ~10^26 bytes.
    const std::int64_t sbh = mulSat(s, b, h);
    // s·b·h·(34 + 5·a·s/h) = 34·s·b·h + 5·a·s²·b: kept in integers, since 5as/h in double
    // can land just below a whole number and truncate one byte short.
    const std::int64_t perLayer = addSat(mulSat(34, sbh), mulSat(5, a, s, s, b));
    const std::int64_t logits = mulSat(4, s, b, v);
    if (checkpointing)
        return addSat(mulSat(2, sbh, L), perLayer, logits);
    return addSat(mulSat(L, perLayer), logits);
}

std::string activationFormula(bool checkpointing)
{
    if (checkpointing)
        return "2·s·b·h·L + s·b·h·(34 + 5·a·s/h) + 4·s·b·v bytes: each layer's 16-bit input is kept, one layer "
               "is recomputed during backward, plus fp32 logits (Korthikanti et al. 2022, arXiv:2205.05198, t = 1)";
    return "L·s·b·h·(34 + 5·a·s/h) + 4·s·b·v bytes: 16-bit activations of every layer plus fp32 logits "
           "(Korthikanti et al. 2022, arXiv:2205.05198, Eq. 1, t = 1)";
}

ActivationInputs activationInputsFor(const Answers& a, std::int64_t microBatch)
{
    return {a.integer("model.seq_len"),     microBatch,
            a.integer("model.hidden_size"), a.integer("model.attention_heads"),
            a.integer("model.layers"),      a.integer("model.vocab_size")};
}

} // namespace dsw
