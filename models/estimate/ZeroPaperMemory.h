#pragma once
#include <cstdint>

namespace dsw {

// Per-GPU model-state bytes from the ZeRO paper (arXiv:1910.02054, Figure 1 and §5) for
// mixed-precision Adam: fp16 params 2Ψ, fp16 grads 2Ψ, optimizer states KΨ (K = 12: fp32
// params, momentum, variance). Stage 1 partitions the optimizer states over Nd, stage 2 also
// the grads, stage 3 also the params. This is the paper's textbook count (16 B/param at stage 0),
// not DeepSpeed's estimator (see DeepSpeedEstimator.h), which adds an fp32 grad buffer.
struct ModelStateBytes {
    int stage;
    std::int64_t params;
    std::int64_t grads;
    std::int64_t optimizer;
    std::int64_t total; // params + grads + optimizer
};

// Partitioned terms are truncated to whole bytes. Throws std::invalid_argument unless
// 0 <= stage <= 3, dataParallel >= 1, params >= 0 and k >= 0.
ModelStateBytes zeroPaperModelStates(std::int64_t params, int stage, int dataParallel, int k = 12);

} // namespace dsw
