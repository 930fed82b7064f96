#pragma once

#include "service/core/result.h"
#include "service/index/vectorindex.h"

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <QString>
#include <QThreadPool>
#include <QVector>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

namespace MemoryGraph {

class Database;

/// A node found by vector search.
struct VectorMatch
{
    qint64 label = 0;
    float similarity = 0.0f;
};

/// Owns one hnswlib index per (tenant, scope): loads it from disk, catches it up from SQLite
/// (SQLite is the truth; the index is a cache), rebuilds it when missing or corrupt, and
/// saves it on shutdown. Thread-safe.
///
/// No caller waits for hnswlib. A scope's index comes to life on its first write (or at
/// warmUp()), in the background. Committed vector changes are recorded as pending and a
/// background drain (at most one per scope, on a pool of its own) inserts them in batches;
/// searches score pending vectors (their byte codes, then the best exactly) and let them
/// override what the index holds, so a ready node is recallable as soon as apply() returns.
/// Loading reads the index file and the stored changes it lacks into pending; building the
/// graph for them is the drain's job. The drain holds back between inserts while requests run
/// (RequestInFlight): it is background work and gets the CPU they leave.
class IndexManager
{
public:
    IndexManager(Database &db, const QString &directory);
    ~IndexManager();

    /// The k most similar ready vectors of the scope (cosine). accept filters labels. ef: the
    /// graph search's candidate list (VectorIndex::search), 0 for the index's own.
    Result<QVector<VectorMatch>> search(const QString &tenantId, const QString &scope,
                                        const QVector<float> &query, int k,
                                        const std::function<bool(qint64)> &accept = {}, int ef = 0);

    /// Mirrors a committed vector change (empty vector = removed). Returns at once: the change
    /// is pending (searched exactly) until the drain has put it into the index. The change must
    /// be committed first: pending changes keep only a byte code, and the drain and the exact
    /// scores read the floats back from SQLite. The first change of a scope starts loading its
    /// index in the background. A change older than one already seen is ignored.
    void apply(const QString &tenantId, const QString &scope, qint64 label, qint64 version,
               const QByteArray &vector);

    /// Loads every scope's index in the background so the first recall is fast.
    void warmUp();

    /// Waits for loads and drains, moves what is still pending into the indexes and writes every
    /// dirty index to disk.
    void saveAll();

    /// Number of vectors a search of the scope sees (the index adjusted by pending changes),
    /// -1 when its index is neither loaded nor loading (waits for a running load).
    qint64 indexedCount(const QString &tenantId, const QString &scope) const;

    /// Changes of a scope recorded but not yet in its hnswlib index (tests and diagnostics).
    int pendingCount(const QString &tenantId, const QString &scope) const;

    /// Holds drains back (pending changes pile up and are served by exact scoring) or lets
    /// them go again. For tests that need the "not yet indexed" state to last.
    void setDrainPaused(bool paused);

    /// Blocks until no load or drain is running or queued.
    void waitForDrains();

    /// File of a scope's index (for tests and diagnostics).
    QString indexPath(const QString &tenantId, const QString &scope) const;

    /// A request the drain holds back for while it runs (between two inserts, for at most a
    /// bounded wait), so the request does not share its core with graph building. Searches are
    /// counted inside search(); a recall holds one for all its stages (its text channels and
    /// reads share the cores too); a write holds one around its transaction.
    class RequestInFlight
    {
    public:
        enum Kind { Search, Write };
        RequestInFlight(IndexManager &manager, Kind kind);
        ~RequestInFlight();
        RequestInFlight(const RequestInFlight &) = delete;
        RequestInFlight &operator=(const RequestInFlight &) = delete;

    private:
        IndexManager &m_manager;
        Kind m_kind;
    };

private:
    struct ScopeIndex;

    std::shared_ptr<ScopeIndex> scopeIndex(const QString &tenantId, const QString &scope);
    std::shared_ptr<ScopeIndex> existingScopeIndex(const QString &tenantId,
                                                   const QString &scope) const;
    QList<std::shared_ptr<ScopeIndex>> allScopeIndexes() const;
    void startLoadLocked(const std::shared_ptr<ScopeIndex> &entry);
    void load(const std::shared_ptr<ScopeIndex> &entry);
    Result<void> openAndCatchUp(const std::shared_ptr<ScopeIndex> &entry);
    Result<void> catchUp(const std::shared_ptr<ScopeIndex> &entry);
    Result<void> waitUntilLoadedLocked(const std::shared_ptr<ScopeIndex> &entry);
    void startDrainLocked(const std::shared_ptr<ScopeIndex> &entry);
    void drain(const std::shared_ptr<ScopeIndex> &entry);
    void yieldToRequests(qsizetype backlog);
    void flushPendingLocked(ScopeIndex &entry);
    void saveInBackgroundLocked(const std::shared_ptr<ScopeIndex> &entry);

    Database &m_db;
    QString m_directory;
    mutable QMutex m_lock;
    QHash<QString, std::shared_ptr<ScopeIndex>> m_indexes;
    std::atomic<bool> m_drainPaused{false};
    // std:: types, which ThreadSanitizer understands (a QMutex that QWaitCondition::wait
    // releases still looks held to it).
    std::mutex m_requestsLock;
    std::condition_variable m_requestsDone;
    int m_searches = 0; // searches running now, under m_requestsLock
    int m_writes = 0;   // write transactions running now, under m_requestsLock
    // Loads, drains and periodic saves; declared last so it is torn down first.
    QThreadPool m_pool;
};

} // namespace MemoryGraph
