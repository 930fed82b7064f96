#pragma once

#include "service/core/result.h"
#include "service/index/vectorindex.h"

#include <QByteArray>
#include <QHash>
#include <QMutex>
#include <QString>
#include <QVector>

#include <functional>
#include <memory>

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
/// saves it on shutdown. Vectors committed but not yet in the index are scanned exactly, so a
/// ready node is recallable at once. Thread-safe.
class IndexManager
{
public:
    IndexManager(Database &db, const QString &directory);
    ~IndexManager();

    /// The k most similar ready vectors of the scope (cosine). accept filters labels.
    Result<QVector<VectorMatch>> search(const QString &tenantId, const QString &scope,
                                        const QVector<float> &query, int k,
                                        const std::function<bool(qint64)> &accept = {});

    /// Mirrors a committed vector change (empty vector = removed).
    void apply(const QString &tenantId, const QString &scope, qint64 label, qint64 version,
               const QByteArray &vector);

    /// Loads every scope's index in the background so the first recall is fast.
    void warmUp();

    /// Writes every dirty index to disk.
    void saveAll();

    /// Number of vectors held for a scope, -1 when its index is not loaded.
    qint64 indexedCount(const QString &tenantId, const QString &scope) const;

    /// File of a scope's index (for tests and diagnostics).
    QString indexPath(const QString &tenantId, const QString &scope) const;

private:
    struct ScopeIndex;
    std::shared_ptr<ScopeIndex> scopeIndex(const QString &tenantId, const QString &scope);
    Result<void> load(ScopeIndex &entry);
    Result<void> catchUp(ScopeIndex &entry);

    Database &m_db;
    QString m_directory;
    mutable QMutex m_lock;
    QHash<QString, std::shared_ptr<ScopeIndex>> m_indexes;
};

} // namespace MemoryGraph
