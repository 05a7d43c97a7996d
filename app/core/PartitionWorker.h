#pragma once
#include "estimate/PartitionMemo.h"

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>

namespace dsw {

// Computes DeepSpeed's balanced pipeline partition off the window's thread and stores it in
// PartitionMemo::shared(); `ready` is emitted on the owner's thread once it is there, so the plan can be made
// again. One job at a time: a request for another input cancels the running one (it stops at its next stage
// level), so a stale pipeline never holds a core.
class PartitionWorker : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PartitionWorker)
public:
    explicit PartitionWorker(QObject* parent = nullptr);
    ~PartitionWorker() override; // cancels the running job and waits for it

    // Computes `input` unless it is already being computed.
    void request(const BalancedPartitionInput& input);
    // The plan needs no partition any more: cancels the running job.
    void cancel();
    bool busy() const { return m_pending.has_value(); }
    // Jobs started (a test hook: a repeated request starts none).
    std::uint64_t started() const { return m_started; }

signals:
    void ready();

private:
    QThreadPool m_pool;
    std::shared_ptr<std::atomic<bool>> m_cancelled;
    std::optional<BalancedPartitionInput> m_pending; // the input of the job that counts
    std::uint64_t m_generation = 0;
    std::uint64_t m_started = 0;
};

} // namespace dsw
