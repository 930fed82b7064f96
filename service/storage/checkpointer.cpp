#include "service/storage/checkpointer.h"

#include <chrono>

namespace MemoryGraph {

Checkpointer::Checkpointer(std::function<void()> checkpoint) : m_checkpoint(std::move(checkpoint))
{
    // A QThread (not std::thread) so the connection the checkpoint opens is closed when the
    // thread ends (storage keeps connections in QThreadStorage).
    m_thread.reset(QThread::create([this] { run(); }));
    m_thread->setObjectName(QStringLiteral("store-checkpoint"));
    m_thread->start();
}

Checkpointer::~Checkpointer()
{
    {
        const std::lock_guard guard(m_lock);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread->wait();
}

void Checkpointer::committed()
{
    {
        const std::lock_guard guard(m_lock);
        ++m_commits;
    }
    m_wake.notify_one();
}

void Checkpointer::waitIdle()
{
    std::unique_lock guard(m_lock);
    const quint64 target = m_commits;
    m_idle.wait(guard, [&] { return m_checkpointed >= target || m_stopping; });
}

void Checkpointer::run()
{
    std::unique_lock guard(m_lock);
    for (;;) {
        m_wake.wait(guard, [this] { return m_stopping || m_commits > m_checkpointed; });
        if (m_stopping)
            break;
        m_wake.wait_for(guard, std::chrono::milliseconds(kCoalesceMs),
                        [this] { return m_stopping; });
        const quint64 covered = m_commits;
        guard.unlock();
        m_checkpoint();
        guard.lock();
        m_checkpointed = covered;
        m_idle.notify_all();
    }
    m_idle.notify_all();
}

} // namespace MemoryGraph
