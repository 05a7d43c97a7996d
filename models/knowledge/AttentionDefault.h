#pragma once
#include "knowledge/GpuCatalog.h"
#include "knowledge/TransformerShape.h"

#include <string>

namespace dsw {

struct AttentionDefault {
    AttentionImpl impl = AttentionImpl::Sdpa;
    std::string reason; // one sentence naming the GPU and PyTorch facts it rests on
};

// The attention kernel a job on `gpu` (nullptr: unknown) with PyTorch `torchVersion` can use, best first:
// FlashAttention-2 where its CUDA build supports the GPU (compute capability 8.0 or newer: Ampere, Ada, Hopper)
// and the PyTorch it needs; else torch's scaled_dot_product_attention (PyTorch 2.0 or newer); else eager.
// Assumes the flash-attn package is installed when the GPU allows it; "sdpa" asks for nothing extra.
// Sources (resources/knowledge/sources.tsv): flash-attn-gpus, torch-sdpa-2-0.
AttentionDefault defaultAttentionImpl(const GpuSpec* gpu, const std::string& torchVersion);

} // namespace dsw
