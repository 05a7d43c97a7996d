#include "PartitionWorker.h"

#include "estimate/PipelinePartition.h"

#include <QMetaObject>

namespace dsw {

PartitionWorker::PartitionWorker(QObject* parent)
    : QObject(parent)
{
    m_pool.setMaxThreadCount(1); // one core at most: the machine has others to run the window
}

PartitionWorker::~PartitionWorker()
{
    cancel();
    m_pool.waitForDone();
}

void PartitionWorker::request(const BalancedPartitionInput& input)
{
    if (m_pending && *m_pending == input)
        return;
    cancel();
    m_pending = input;
    m_cancelled = std::make_shared<std::atomic<bool>>(false);
    const std::uint64_t generation = ++m_generation;
    ++m_started;
    m_pool.start([this, input, cancelled = m_cancelled, generation] {
        std::vector<int> parts = partitionBalanced(input.weights, input.parts, *cancelled);
        if (parts.empty()) // cancelled: the plan wants another input now
            return;
        PartitionMemo::shared().store(input, std::move(parts));
        // Queued to the owner's thread; dropped if the worker is gone (its destructor waits for this job).
        QMetaObject::invokeMethod(
            this,
            [this, generation] {
                if (generation != m_generation)
                    return; // a newer request replaced this one
                m_pending.reset();
                emit ready();
            },
            Qt::QueuedConnection);
    });
}

void PartitionWorker::cancel()
{
    if (m_cancelled)
        m_cancelled->store(true);
    m_pending.reset();
    ++m_generation;
}

} // namespace dsw
