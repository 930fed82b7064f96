#pragma once

#include <QMutex>
#include <QThread>
#include <QWaitCondition>

#include <atomic>

namespace MemoryGraph {

class Database;
class EmbeddingProvider;
class IndexManager;

/// Embeds nodes written with embedding_status "pending" in the background (spec §3.2): batches
/// of texts go to the provider, vectors are stored and indexed, the node becomes "ready".
/// Provider failures are retried with backoff; after kMaxAttempts a node is marked "failed"
/// with the error code as its reason.
class EmbeddingBackfill
{
public:
    static constexpr int kBatchSize = 32;
    static constexpr int kMaxAttempts = 5;

    EmbeddingBackfill(Database &db, IndexManager &indexes, EmbeddingProvider &provider);
    ~EmbeddingBackfill();

    void start();
    void stop();
    /// New pending work was committed.
    void wake();
    /// Blocks until no node is pending (or the timeout passes); true when idle. For tests and
    /// the benchmark.
    bool waitUntilIdle(int timeoutMs);

private:
    void run();
    /// One batch; returns the number of nodes handled, -1 on provider failure.
    int processBatch(int *retryAfterMs);

    Database &m_db;
    IndexManager &m_indexes;
    EmbeddingProvider &m_provider;
    QThread *m_thread = nullptr;
    QMutex m_mutex;
    QWaitCondition m_wakeup;
    QWaitCondition m_idle;
    bool m_stopping = false;
    bool m_woken = false;
    bool m_isIdle = false;
};

} // namespace MemoryGraph
