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
// norm given), not for layers / hidden / heads / vocabulary alone, whose count rests on the registry's defaults.
std::optional<std::string> paramsShapeMismatch(const Answers& answers);

} // namespace dsw
