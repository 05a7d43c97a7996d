#pragma once
#include "project/Answers.h"

#include <optional>
#include <string>

namespace dsw {

// Why the model answers contradict each other (hidden size not divisible by heads, KV heads not dividing heads,
// ...), naming the input; nullopt when they agree or the user described no shape (the defaults agree).
std::optional<std::string> modelShapeError(const Answers& answers);

// When model.params is given and the shape's own count differs from it by more than 5%: a warning naming both.
// Only for a shape the user described (model.preset, or the MLP kind, KV heads, MLP size, head width, tying or
// norm given), not for layers / hidden / heads / vocabulary alone, whose count rests on the registry's defaults, and
// not for a mixture of experts (model.experts > 1), whose experts the shape's count leaves out.
std::optional<std::string> paramsShapeMismatch(const Answers& answers);

// When model.seq_len exceeds model.max_position (the model's max_position_embeddings; 0 = unknown): a warning naming
// both numbers and what training past the model's positions needs (RoPE scaling or position interpolation for rotary
// positions; learned position embeddings have no row for it and fail).
std::optional<std::string> seqLenBeyondMaxPosition(const Answers& answers);

} // namespace dsw
