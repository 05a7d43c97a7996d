#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace dsw {

enum class OomKind {
    Unrecognised,
    CudaOutOfMemory,   // PyTorch's "CUDA out of memory" (old or new wording)
    HostKilled,        // exit -9 / "Killed" / SIGKILL by the kernel's OOM killer
    BatchAssertion,    // DeepSpeed's "Check batch related parameters" assertion
};

// What a pasted out-of-memory message says, in bytes; a field the message lacks stays empty.
struct OomReport {
    OomKind kind = OomKind::Unrecognised;
    std::optional<int> gpuIndex;
    std::optional<std::int64_t> triedToAllocate;
    std::optional<std::int64_t> totalCapacity;
    std::optional<std::int64_t> free;
    std::optional<std::int64_t> allocated;            // allocated by PyTorch
    std::optional<std::int64_t> reserved;             // reserved in total by PyTorch
    std::optional<std::int64_t> reservedUnallocated;  // new format: "reserved by PyTorch but unallocated"
    std::optional<std::int64_t> processInUse;         // new format: "this process has ... memory in use"
    // For the batch assertion: train_batch_size, micro, accumulation and world size as printed.
    std::optional<std::int64_t> batchTrain, batchMicro, batchAccumulation, batchWorld;
};

// Parses real messages; anything it does not recognise is reported as Unrecognised, never guessed.
OomReport parseOomMessage(const std::string& text);

} // namespace dsw
