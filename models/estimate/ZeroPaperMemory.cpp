#include "estimate/ZeroPaperMemory.h"

#include "util/CheckedMath.h"

#include <stdexcept>

namespace dsw {

ModelStateBytes zeroPaperModelStates(std::int64_t params, int stage, int dataParallel, int k)
{
    if (stage < 0 || stage > 3 || dataParallel < 1 || params < 0 || k < 0)
        throw std::invalid_argument("zeroPaperModelStates: stage 0-3, dataParallel >= 1, params and k >= 0");

    // Each stage partitions one more kind of state than the one before it.
    auto part = [&](std::int64_t bytes, int fromStage) { return stage >= fromStage ? bytes / dataParallel : bytes; };
    ModelStateBytes m{};
    m.stage = stage;
    m.optimizer = part(mulSat(k, params), 1);
    m.grads = part(mulSat(2, params), 2);
    m.params = part(mulSat(2, params), 3);
    m.total = addSat(m.params, m.grads, m.optimizer);
    return m;
}

} // namespace dsw
