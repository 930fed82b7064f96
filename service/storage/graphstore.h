#pragma once

#include "service/core/records.h"
#include "service/core/result.h"

#include <QByteArray>
#include <QHash>
#include <QSqlDatabase>

#include <functional>
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
/// nodeEmbedding() for several nodes in one statement, by node id (nodes without one absent).
Result<QHash<QString, QByteArray>> nodeEmbeddings(QSqlDatabase &db, const QStringList &ids);
/// Inserts or updates every column but the vector (new nodes get the next vector label).
Result<void> saveNode(QSqlDatabase &db, const NodeRecord &node);
struct EmbeddingStamp
{
    qint64 version = 0;
    qint64 label = 0;
};

/// Stores (or, empty, clears) a node's vector and bumps its embedding_version.
Result<EmbeddingStamp> setEmbedding(QSqlDatabase &db, const QString &id,
                                    const QByteArray &embedding);

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
/// nodesWhere() for a clause whose text never varies (values only in the bindings): the
/// statement is prepared once per connection and kept.
Result<QVector<NodeRecord>> nodesWhereFixed(QSqlDatabase &db, const QString &where,
                                            const QVariantList &args);

Result<QVector<NodeRecord>> listNodes(QSqlDatabase &db, const NodeQuery &query, qint64 *total);
Result<QVector<EdgeRecord>> edgesOfNode(QSqlDatabase &db, const QString &nodeId);
Result<QVector<CommitRecord>> listCommits(QSqlDatabase &db, const QString &tenantId,
                                          const QString &scope, int offset, int limit);
Result<QVector<ScopeSummary>> listScopes(QSqlDatabase &db);

/// The graph view's overview, in one order: most salient first, then most recently changed,
/// then by id (the nodes_scope_salience index, so a batch costs its size on any scope).
/// mostSalientNodes: ranks offset .. offset + limit - 1 of the scope, every lane.
Result<QVector<NodeRecord>> mostSalientNodes(QSqlDatabase &db, const QString &tenantId,
                                             const QString &scope, int offset, int limit);
/// Edges of the scope with one end among batchIds and the other among the first `ranks` nodes
/// of that order (batchIds included).
Result<QVector<EdgeRecord>> edgesWithinSalientRanks(QSqlDatabase &db, const QString &tenantId,
                                                    const QString &scope,
                                                    const QStringList &batchIds, int ranks);
Result<qint64> countNodesInScope(QSqlDatabase &db, const QString &tenantId, const QString &scope);

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

/// Every node of a scope (the decay job's pre-run snapshot).
Result<QVector<NodeRecord>> nodesInScope(QSqlDatabase &db, const QString &tenantId,
                                         const QString &scope);
/// Every node of a scope but rules (the nodes consolidation may merge).
Result<QVector<NodeRecord>> nonRuleNodesInScope(QSqlDatabase &db, const QString &tenantId,
                                                const QString &scope);
/// Up to `limit` nodes waiting for an embedding, least recently updated first.
Result<QVector<NodeRecord>> pendingEmbeddingNodes(QSqlDatabase &db, int limit);

/// How many ready vectors each embedding model made (one full read: call rarely).
Result<QHash<QString, qint64>> readyVectorsByModel(QSqlDatabase &db);

/// Ready nodes embedded by one of models, in id order after afterId (walks the primary key, so
/// a pass over the store is one read of it however many batches it takes).
Result<QVector<NodeRecord>> readyNodesEmbeddedBy(QSqlDatabase &db, const QStringList &models,
                                                 const QString &afterId, int limit);
/// Counts one more failed embedding attempt for the node; returns the new count.
Result<int> countEmbeddingAttempt(QSqlDatabase &db, const QString &id);
/// Nodes of a scope whose client_id is one of `clientIds` or starts with one of `prefixes`
/// (non-empty), oldest first; a prefix is a range over the (tenant_id, scope, client_id) index.
Result<QVector<NodeRecord>> nodesByClientIdOrPrefix(QSqlDatabase &db, const QString &tenantId,
                                                    const QString &scope,
                                                    const QStringList &clientIds,
                                                    const QStringList &prefixes);
/// The newest `limit` nodes of a scope whose client_id starts with `prefix` (non-empty).
Result<QVector<NodeRecord>> newestNodesWithClientIdPrefix(QSqlDatabase &db, const QString &tenantId,
                                                          const QString &scope,
                                                          const QString &prefix, int limit);

/// Deletes a node and every edge that touches it, in the caller's transaction; its rule_defs row
/// goes with it (ON DELETE CASCADE).
Result<void> deleteNodeWithEdges(QSqlDatabase &db, const QString &nodeId);

// Streaming reads for the scope export: visitors return false to stop the walk early.

/// The ids of a scope's nodes in creation order (created_at, then id): ids, not rows, so a walk
/// over a large scope never holds its records at once.
Result<QStringList> nodeIdsInCreationOrder(QSqlDatabase &db, const QString &tenantId,
                                           const QString &scope);
/// The nodes `ids` name, in that order, read a chunk at a time, with their vectors when asked.
Result<void> visitNodes(QSqlDatabase &db, const QStringList &ids, bool withEmbeddings,
                        const std::function<bool(const NodeRecord &, const QByteArray &)> &visit);
/// A scope's edges in creation order, each with its updated_at.
Result<void>
visitEdgesInScope(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                  const std::function<bool(const EdgeRecord &, const QDateTime &)> &visit);
/// A scope's commits in chain order.
Result<void> visitCommitsInScope(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                 const std::function<bool(const CommitRecord &)> &visit);

} // namespace GraphStore
} // namespace MemoryGraph
