#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dsw {

enum class OomKind {
    Unrecognised,
    CudaOutOfMemory, // PyTorch's "CUDA out of memory" (old or new wording)
    HostKilled,      // exit -9 / "Killed" / SIGKILL by the kernel's OOM killer
    BatchAssertion,  // DeepSpeed's "Check batch related parameters" assertion
};

// Which wording of the CUDA message was found (PyTorch's c10/cuda/CUDACachingAllocator.cpp).
enum class OomFormat {
    None,
    Old, // PyTorch <= 2.0: "(GPU 0; X total capacity; X already allocated; X free; X reserved in total by PyTorch)"
    New, // PyTorch >= 2.1: "GPU 0 has a total capacity of X of which X is free. ... Of the allocated memory ..."
    NoNumbers, // the CUDA runtime's own "CUDA error: out of memory", which prints no sizes
};

// What a pasted out-of-memory message says, in bytes; a field the message lacks stays empty.
struct OomReport {
    OomKind kind = OomKind::Unrecognised;
    std::optional<int> gpuIndex;
    std::optional<std::int64_t> triedToAllocate;
    std::optional<std::int64_t> totalCapacity;
    std::optional<std::int64_t> free;
    std::optional<std::int64_t> allocated; // allocated by PyTorch
    std::optional<std::int64_t> reserved;  // reserved in total by PyTorch (new format: allocated + reservedUnallocated)
    std::optional<std::int64_t> reservedUnallocated; // new format: "reserved by PyTorch but unallocated"
    std::optional<std::int64_t> processInUse;        // new format: "this process has ... memory in use"
    // For the batch assertion: train_batch_size, micro, accumulation and world size as printed.
    std::optional<std::int64_t> batchTrain, batchMicro, batchAccumulation, batchWorld;

    OomFormat format = OomFormat::None;
    std::string device; // "CUDA" or "HIP" (ROCm builds print HIP)
    // New format: what other processes hold, the sum of the "Process <pid> has ... memory in use" entries other
    // than this process's own (see othersAmong in OomMessage.cpp); 0 when the only entry is this process.
    std::optional<std::int64_t> otherProcessesInUse;
    std::string allocatorHint; // the setting the message itself suggests: expandable_segments | max_split_size_mb
    std::string marker;        // the text that identified the kind, as found (whitespace collapsed)
    bool truncated = false;    // longer than kMaxOomMessageBytes: only the start was read
};

// Printed sizes are rounded to 0.01 of their unit (at most ~5 MiB off per GiB value); any CUDA process holds at
// least its context, a few hundred MiB. Sizes this close are the same; memory above this is really held.
inline constexpr std::int64_t kOomSizeTolerance = 64LL << 20;

// Only this many bytes of a pasted message are read (the registry's limit for memory.oom_message).
inline constexpr std::size_t kMaxOomMessageBytes = 65536;

// Parses real messages; anything it does not recognise is reported as Unrecognised, never guessed.
// Never throws; reads at most kMaxOomMessageBytes, in linear passes (no backtracking regex).
OomReport parseOomMessage(const std::string& text);

// "20.00 MiB" → 20971520: a size as PyTorch's format_size prints it (bytes, KiB, MiB, GiB; 1024 steps),
// the printed decimal value × unit rounded to the nearest byte. "B" is read as bytes. nullopt otherwise.
std::optional<std::int64_t> parseSizeBytes(std::string_view text);

std::string toString(OomKind kind);     // unrecognised | cuda-out-of-memory | host-killed | batch-assertion
std::string toString(OomFormat format); // "" | pytorch-2.0-or-older | pytorch-2.1-or-newer | cuda-runtime-error

} // namespace dsw
