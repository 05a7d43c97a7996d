#pragma once
// DeepSpeed-Ulysses for Hugging Face models (ALST: deepspeed.runtime.sequence_parallel.ulysses_sp, DeepSpeed 0.19.5):
// which sequence-parallel degrees a job can run, each refusal worded with the input it names. Each GPU of a group of
// sp holds s/sp tokens and, inside attention, every token for a/sp heads; ZeRO spans the data × sequence ranks.
// Sources (resources/knowledge/sources.tsv): ulysses-rules, ulysses-zero-group.
#include "knowledge/TransformerShape.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dsw {

// What the rules read.
struct UlyssesCase {
    TransformerShape shape;
    std::int64_t seqLen = 0;
    std::int64_t world = 1; // GPUs the data and sequence ranks share (nodes × GPUs per node)
    AttentionImpl attention = AttentionImpl::Flash;
    std::int64_t pipelineStages = 1;
    bool moe = false;
};

// The Transformers release ulysses_sp.py requires (#L138-L142).
inline constexpr const char* kUlyssesTransformers = "4.51.3";

// Why degree `sp` cannot run, naming the input and what is allowed; nullopt when it can. sp 1 always can.
std::optional<std::string> ulyssesRefusal(const UlyssesCase& job, std::int64_t sp);

// The degrees the plan search tries: 1, then the powers of two up to the world that ulyssesRefusal allows (within a
// node first is the search's business: the step model prices the link). `asked` > 0 (parallel.sequence_parallel_size):
// that degree alone when it can run, else 1.
std::vector<std::int64_t> sequenceParallelDegrees(const UlyssesCase& job, std::int64_t asked);

} // namespace dsw
