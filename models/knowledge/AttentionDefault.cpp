#include "knowledge/AttentionDefault.h"

#include "util/Version.h"

namespace dsw {

AttentionDefault defaultAttentionImpl(const GpuSpec* gpu, const std::string& torchVersion)
{
    const bool torchKnown = Version::parse(torchVersion).valid();
    const bool hasSdpa = torchKnown && versionAtLeast(torchVersion, "2.0");
    const bool flashTorch = torchKnown && versionAtLeast(torchVersion, "1.12"); // flash-attn's README: 1.12 and above
    const auto capability = gpu ? gpu->computeCapabilityNumber() : std::nullopt;
    if (capability && *capability >= 8.0 && flashTorch)
        return {AttentionImpl::Flash, "flash: " + gpu->id + " has compute capability " + gpu->computeCapability
                                          + " (FlashAttention-2 needs 8.0 or newer) and PyTorch " + torchVersion
                                          + " is 1.12 or newer"};
    std::string why;
    if (!gpu)
        why = "the GPU is not in the catalog";
    else if (!capability)
        why = gpu->id + " has no CUDA compute capability (FlashAttention-2's CUDA build needs 8.0 or newer)";
    else if (*capability < 8.0)
        why = gpu->id + " has compute capability " + gpu->computeCapability + " (FlashAttention-2 needs 8.0 or newer)";
    else
        why = "PyTorch " + torchVersion + " is older than the 1.12 FlashAttention-2 needs";
    if (hasSdpa)
        return {AttentionImpl::Sdpa, "sdpa: " + why + "; PyTorch " + torchVersion + " has scaled_dot_product_attention"};
    return {AttentionImpl::Eager, "eager: " + why + "; PyTorch " + (torchVersion.empty() ? "(unknown)" : torchVersion)
                                      + " is older than 2.0, which added scaled_dot_product_attention"};
}

} // namespace dsw
