#include "estimate/OnebitCost.h"

#include <algorithm>
#include <cmath>

namespace dsw {

OnebitCost onebitCost(const StepTime& step, double elementBytes, std::int64_t totalSteps)
{
    OnebitCost c;
    c.compression = 8 * elementBytes;
    const std::int64_t total = std::max<std::int64_t>(1, totalSteps);
    c.freezeStep = std::max<std::int64_t>(1, std::llround(kOnebitWarmupShare * static_cast<double>(total)));
    c.warmup = std::min(1.0, static_cast<double>(c.freezeStep) / static_cast<double>(total));
    c.gradientReduction = step.gradientReduction;
    c.compressedStage = c.gradientReduction / c.compression;
    c.compressedAverage = c.gradientReduction * (c.warmup + (1 - c.warmup) / c.compression);
    const double saved = c.gradientReduction - c.compressedAverage;
    c.communicationLeft = step.communication - saved;
    c.stepLeft = step.total - saved;
    if (step.total > 0)
        c.saving = saved / step.total;
    return c;
}

} // namespace dsw
