#include "knowledge/UlyssesRules.h"

#include <string>

namespace dsw {

std::optional<std::string> ulyssesRefusal(const UlyssesCase& job, std::int64_t sp)
{
    if (sp <= 1)
        return std::nullopt;
    const std::string n = std::to_string(sp);
    if (job.world % sp != 0)
        return "parallel.sequence_parallel_size " + n + " does not divide the " + std::to_string(job.world)
            + " GPUs; allowed: a divisor of the GPU count";
    if (job.pipelineStages > 1)
        return "sequence parallelism is not planned with a pipeline (pipeline.stages "
            + std::to_string(job.pipelineStages) + "); ALST runs Hugging Face models under ZeRO: set pipeline.stages 1";
    if (job.moe)
        return "sequence parallelism is not planned for a mixture of experts (DeepSpeed refuses it with AutoEP at "
               "ZeRO-3; "
               "the other paths are not sized)";
    if (job.attention == AttentionImpl::Eager)
        return "DeepSpeed-Ulysses refuses eager attention (model.attention_impl eager); allowed: flash or sdpa";
    if (job.shape.heads % sp != 0)
        return "model.heads " + std::to_string(job.shape.heads) + " is not divisible by sequence parallel size " + n;
    const std::int64_t kv = job.shape.kvHeads > 0 ? job.shape.kvHeads : job.shape.heads;
    if (kv % sp != 0 && sp % kv != 0)
        return "model.kv_heads " + std::to_string(kv) + " and sequence parallel size " + n
            + " do not divide one another";
    if (job.seqLen % sp != 0)
        return "model.seq_len " + std::to_string(job.seqLen) + " is not divisible by sequence parallel size " + n
            + "; pad every batch to a multiple of it";
    return std::nullopt;
}

std::vector<std::int64_t> sequenceParallelDegrees(const UlyssesCase& job, std::int64_t asked)
{
    if (asked > 0)
        return {ulyssesRefusal(job, asked) ? std::int64_t{1} : asked};
    std::vector<std::int64_t> out{1};
    for (std::int64_t sp = 2; sp <= job.world; sp *= 2)
        if (!ulyssesRefusal(job, sp))
            out.push_back(sp);
    return out;
}

} // namespace dsw
