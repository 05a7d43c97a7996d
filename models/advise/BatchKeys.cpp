#include "advise/BatchKeys.h"

#include <algorithm>
#include <string>

namespace dsw {

BatchKeys batchKeys(const Answers& answers)
{
    BatchKeys keys;
    keys.microBatch = answers.integer("training.micro_batch_size");
    keys.gradientAccumulation = answers.integer("training.gradient_accumulation_steps");
    keys.dataParallel = answers.batchWorldSize();
    const std::int64_t perStep = keys.microBatch * keys.dataParallel;
    keys.check = {CheckLevel::Pass, "batch-identity", "", "ds-batch"};

    if (answers.has("training.global_batch_size")) {
        const std::int64_t wanted = answers.integer("training.global_batch_size");
        const std::int64_t samplesPerMicroBatch = keys.gradientAccumulation * keys.dataParallel;
        if (!answers.has("training.micro_batch_size") && !answers.has("training.gradient_accumulation_steps")) {
            // The global batch alone: DeepSpeed sets accumulation 1 and micro-batch train_batch // world_size
            // (config.py, _set_batch_related_parameters; deepspeed-facts §2.1), never the wizard's default
            // micro-batch. The ZeRO page's search then splits those samples per GPU into micro-batch × accumulation.
            keys.gradientAccumulation = 1;
            keys.microBatch = keys.dataParallel > 0 ? wanted / keys.dataParallel : 0;
            if (keys.dataParallel <= 0 || wanted % keys.dataParallel != 0) {
                const std::int64_t floored = keys.microBatch;
                keys.microBatch = std::max<std::int64_t>(1, floored);
                keys.check.level = CheckLevel::Fail;
                keys.check.code = "batch-size-mismatch";
                keys.check.message = "The global batch " + std::to_string(wanted)
                    + " is not a multiple of the data-parallel size " + std::to_string(keys.dataParallel)
                    + " (GPUs ÷ pipeline stages): DeepSpeed derives micro-batch " + std::to_string(wanted) + " // "
                    + std::to_string(keys.dataParallel) + " = " + std::to_string(floored)
                    + " with gradient accumulation 1 and rejects it (" + std::to_string(floored) + " × 1 × "
                    + std::to_string(keys.dataParallel) + " = " + std::to_string(floored * keys.dataParallel) + ", not "
                    + std::to_string(wanted) + "). The config uses "
                    + std::to_string(keys.microBatch * keys.dataParallel)
                    + ". Choose a global batch that is a multiple of " + std::to_string(keys.dataParallel) + ".";
            }
        } else if (!answers.has("training.gradient_accumulation_steps") && perStep > 0 && wanted % perStep == 0)
            keys.gradientAccumulation = wanted / perStep; // accumulation inferred, as DeepSpeed does
        else if (!answers.has("training.micro_batch_size") && answers.has("training.gradient_accumulation_steps")
                 && samplesPerMicroBatch > 0 && wanted % samplesPerMicroBatch == 0)
            // Global batch and accumulation given, micro-batch not: DeepSpeed derives it (config.py,
            // _set_batch_related_parameters: train_batch // world_size // grad_acc); a config written that way,
            // as in DeepSpeed's own tests, is accepted, not a contradiction with the wizard's default micro-batch.
            keys.microBatch = wanted / samplesPerMicroBatch;
        else if (wanted != perStep * keys.gradientAccumulation) {
            keys.check.level = CheckLevel::Fail;
            keys.check.code = "batch-size-mismatch";
            keys.check.message = "The global batch " + std::to_string(wanted) + " is not micro-batch "
                + std::to_string(keys.microBatch) + " × gradient accumulation "
                + std::to_string(keys.gradientAccumulation) + " × data-parallel size "
                + std::to_string(keys.dataParallel) + " = " + std::to_string(perStep * keys.gradientAccumulation)
                + "; DeepSpeed rejects this. The config uses " + std::to_string(perStep * keys.gradientAccumulation)
                + ". Choose a global batch that is a multiple of " + std::to_string(perStep) + ".";
        }
    }
    keys.trainBatchSize = keys.microBatch * keys.dataParallel * keys.gradientAccumulation;
    if (keys.check.level == CheckLevel::Pass)
        keys.check.message = "train_batch_size " + std::to_string(keys.trainBatchSize) + " = micro-batch "
            + std::to_string(keys.microBatch) + " × gradient accumulation " + std::to_string(keys.gradientAccumulation)
            + " × data-parallel size " + std::to_string(keys.dataParallel) + ".";
    return keys;
}

} // namespace dsw
