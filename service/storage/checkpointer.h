#pragma once

#include <QThread>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

namespace MemoryGraph {

/// Copies committed pages from the write-ahead log into the database file on a thread of its
/// own. SQLite's automatic checkpoint runs inside the commit that crosses its threshold, so
/// one write in a few paid for copying and syncing megabytes it did not write. Durability does
/// not depend on it: a commit is on disk once its WAL frames are synced.
class Checkpointer
{
public:
    /// `checkpoint` runs on the checkpointer's thread (it opens its own connection there).
    explicit Checkpointer(std::function<void()> checkpoint);
    ~Checkpointer();

    Checkpointer(const Checkpointer &) = delete;
    Checkpointer &operator=(const Checkpointer &) = delete;

    /// A transaction committed: a checkpoint follows within kCoalesceMs.
    void committed();

    /// Waits until every commit reported so far has been checkpointed (tests, shutdown).
    void waitIdle();

    /// Commits gathered into one checkpoint: a burst of writes pays for one file sync, not one
    /// each.
    static constexpr int kCoalesceMs = 200;

private:
    void run();

    std::function<void()> m_checkpoint;
    std::mutex m_lock;
    std::condition_variable m_wake;
    std::condition_variable m_idle;
    quint64 m_commits = 0;      // commits reported
    quint64 m_checkpointed = 0; // commits a finished checkpoint covered
    bool m_stopping = false;
    std::unique_ptr<QThread> m_thread; // last: stopped and joined first
};

} // namespace MemoryGraph
