#pragma once

#include "service/core/records.h"
#include "service/core/result.h"

#include <QByteArray>
#include <QSqlDatabase>

#include <optional>

namespace MemoryGraph {

struct NodeQuery;

/// SQL for nodes, edges and commits on a given connection. Selects explicit columns: the
/// embedding vector is read only through nodeEmbedding().
namespace GraphStore {

Result<std::optional<NodeRecord>> findNode(QSqlDatabase &db, const QString &id);
Result<std::optional<NodeRecord>> findNodeByClientId(QSqlDatabase &db, const QString &tenantId,
                                                     const QString &scope, const QString &clientId);
/// Raw float32 bytes, empty when the node has no embedding.
Result<QByteArray> nodeEmbedding(QSqlDatabase &db, const QString &id);
/// Inserts or updates every column but the vector (new nodes get the next vector label).
Result<void> saveNode(QSqlDatabase &db, const NodeRecord &node);
struct EmbeddingStamp
{
    qint64 version = 0;
    qint64 label = 0;
};

/// Stores (or, empty, clears) a node's vector and bumps its embedding_version.
Result<EmbeddingStamp> setEmbedding(QSqlDatabase &db, const QString &id, const QByteArray &embedding);

Result<std::optional<EdgeRecord>> findEdge(QSqlDatabase &db, const QString &tenantId,
                                           const QString &scope, const QString &type,
                                           const QString &srcId, const QString &dstId);
Result<void> saveEdge(QSqlDatabase &db, const EdgeRecord &edge);
/// Lookups by id for POST /v1/memory/resolve.
Result<std::optional<EdgeRecord>> findEdgeById(QSqlDatabase &db, const QString &id);
Result<std::optional<CommitRecord>> findCommit(QSqlDatabase &db, const QString &id);

Result<std::optional<CommitRecord>> latestCommit(QSqlDatabase &db, const QString &tenantId,
                                                 const QString &scope);
Result<std::optional<CommitRecord>> findCommitByRequestKey(QSqlDatabase &db,
                                                           const QString &tenantId,
                                                           const QString &scope,
                                                           const QString &requestKey);
Result<void> insertCommit(QSqlDatabase &db, const CommitRecord &commit, const QString &requestKey);

/// Nodes matching a WHERE clause (without the keyword) with positional bindings.
Result<QVector<NodeRecord>> nodesWhere(QSqlDatabase &db, const QString &where,
                                       const QVariantList &args);

Result<QVector<NodeRecord>> listNodes(QSqlDatabase &db, const NodeQuery &query, qint64 *total);
Result<QVector<EdgeRecord>> edgesOfNode(QSqlDatabase &db, const QString &nodeId);
Result<QVector<CommitRecord>> listCommits(QSqlDatabase &db, const QString &tenantId,
                                          const QString &scope, int offset, int limit);
Result<QVector<ScopeSummary>> listScopes(QSqlDatabase &db);

/// Store-wide totals, kept by triggers (schema step "row_counts"): a lookup of four rows, never
/// a count over the tables, so a frequent caller such as /health costs the same on any store.
struct StoreTotals
{
    qint64 nodes = 0;
    qint64 edges = 0;
    qint64 commits = 0;
    qint64 scopes = 0;
};
Result<StoreTotals> storeTotals(QSqlDatabase &db);

} // namespace GraphStore
} // namespace MemoryGraph
