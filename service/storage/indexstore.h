#pragma once

#include "service/core/result.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QString>
#include <QVector>

#include <functional>

namespace MemoryGraph::IndexStore {

/// How many node rows a scope holds and the newest embedding version among them.
struct ScopeSize
{
    qint64 rows = 0;
    qint64 newestVersion = 0;
};
Result<ScopeSize> scopeSize(QSqlDatabase &db, const QString &tenantId, const QString &scope);

/// Calls visit(label, version) for every row of the scope whose embedding version is above
/// afterVersion. Reads only the covering (tenant, scope, version, label) index, no row.
Result<void> forEachChangedLabel(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                 qint64 afterVersion,
                                 const std::function<void(qint64 label, qint64 version)> &visit);

/// A node's stored embedding as the vector index mirrors it.
struct StoredEmbedding
{
    qint64 label = 0;
    QString status;    ///< embedding_status: only "ready" vectors are indexed
    QByteArray vector; ///< raw floats, possibly empty
    qint64 version = 0;
};

/// Calls visit for the stored embedding of each of these labels (by primary label lookups; at
/// most a few hundred labels per call, to stay below SQLite's bound-parameter limit).
Result<void> forEachEmbedding(QSqlDatabase &db, const QVector<qint64> &labels,
                              const std::function<void(const StoredEmbedding &)> &visit);

/// The newest embedding version of the scope, 0 when it has none. Answered from the
/// (tenant, scope, embedding_version) index alone.
Result<qint64> newestEmbeddingVersion(QSqlDatabase &db, const QString &tenantId,
                                      const QString &scope);

/// A (tenant, scope) pair.
struct ScopeKey
{
    QString tenantId;
    QString scope;
};

/// Every scope that holds an embedding, or held one (its index is then empty).
Result<QVector<ScopeKey>> embeddedScopes(QSqlDatabase &db);

} // namespace MemoryGraph::IndexStore
