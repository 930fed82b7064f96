#pragma once

#include "service/core/records.h"
#include "service/core/result.h"

#include <QMutex>
#include <QStringList>
#include <QThread>
#include <QWaitCondition>

#include <atomic>

class QSqlDatabase;

namespace MemoryGraph {

class Database;
class EmbeddingProvider;
class IndexManager;

/// Embeds nodes written with embedding_status "pending" in the background (spec §3.2): batches
/// of texts go to the provider, vectors are stored and indexed, the node becomes "ready".
/// When nothing is pending, it re-embeds ready nodes whose vectors an earlier version of the
/// provider made (EmbeddingProvider::supersedes), one pass over the store per start.
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
    /// The next batch of ready nodes embedded by a superseded model (backfill thread only).
    Result<QVector<NodeRecord>> nextSuperseded(QSqlDatabase &db);

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
    // The pass over superseded vectors; touched by the backfill thread only.
    bool m_supersededListed = false;
    QStringList m_supersededModels;
    QString m_supersededAfter;
};

} // namespace MemoryGraph
