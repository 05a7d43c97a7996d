#pragma once
#include "advise/Advice.h"
#include "project/Answers.h"

#include <cstdint>

namespace dsw {

// The three batch keys, always consistent: train_batch_size = micro × accumulation × data-parallel size.
struct BatchKeys {
    std::int64_t trainBatchSize = 0;
    std::int64_t microBatch = 0;
    std::int64_t gradientAccumulation = 0;
    std::int64_t dataParallel = 0;
    Check check; // pass, or fail with the three numbers when the answers contradict each other
};

BatchKeys batchKeys(const Answers& answers);

} // namespace dsw
