#include "service/storage/recallstore.h"

#include "service/index/vectormath.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/sqltext.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace MemoryGraph::RecallStore {

namespace {

/// The keys as one JSON array, the form `IN (SELECT value FROM json_each(?))` reads: one SQL
/// text for any number of keys, so its statement is prepared once per connection and kept.
QString jsonArray(const QVariantList &keys)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromVariantList(keys)).toJson(QJsonDocument::Compact));
}

Result<QVector<NodeRecord>> nodesIn(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                    const QString &column, const QVariantList &keys)
{
    if (keys.isEmpty())
        return QVector<NodeRecord>();
    // "+" keeps SQLite from picking the (tenant, scope) indexes, which match the whole scope,
    // over the key lookup.
    return GraphStore::nodesWhereFixed(db,
                                       QStringLiteral("+tenant_id = ? AND +scope = ? AND ") + column
                                           + QStringLiteral(" IN (SELECT value FROM json_each(?))"),
                                       {tenantId, scope, jsonArray(keys)});
}

} // namespace

Result<QVector<NodeRecord>> nodesByLabels(QSqlDatabase &db, const QString &tenantId,
                                          const QString &scope, const QVector<qint64> &labels)
{
    QVariantList keys;
    for (qint64 l : labels)
        keys << l;
    return nodesIn(db, tenantId, scope, QStringLiteral("vector_label"), keys);
}

Result<QVector<NodeRecord>> nodesByIds(QSqlDatabase &db, const QString &tenantId,
                                       const QString &scope, const QStringList &ids)
{
    QVariantList keys;
    for (const QString &id : ids)
        keys << id;
    return nodesIn(db, tenantId, scope, QStringLiteral("id"), keys);
}

Result<QVector<qint64>> datedSeedLabels(QSqlDatabase &db, const QString &tenantId,
                                        const QString &scope, const QStringList &types,
                                        const QString &viewerAgent, const QString &viewerTeam,
                                        const QDateTime &from, const QDateTime &until, int limit)
{
    QVariantList args{tenantId, scope, from.toMSecsSinceEpoch(), until.toMSecsSinceEpoch()};
    SqlText::appendSeedRuleArgs(args, types, viewerAgent, viewerTeam);
    args << limit;
    auto q
        = runSql(db,
                 QStringLiteral("SELECT vector_label FROM nodes WHERE tenant_id = ? AND scope = ?"
                                " AND occurred_at >= ? AND occurred_at < ? AND ")
                     + SqlText::seedRules(types.size())
                     + QStringLiteral(" ORDER BY occurred_at, vector_label LIMIT ?"),
                 args);
    if (!q)
        return q.error();
    QVector<qint64> labels;
    while (q.value().next())
        labels << q.value().value(0).toLongLong();
    return labels;
}

Result<QVector<LabelScore>> exactSeedScan(QSqlDatabase &db, const QString &tenantId,
                                          const QString &scope, const QStringList &types,
                                          const QString &viewerAgent, const QString &viewerTeam,
                                          const QVector<float> &query, int k)
{
    QVariantList args{tenantId, scope};
    SqlText::appendSeedRuleArgs(args, types, viewerAgent, viewerTeam);
    auto q = runSql(db,
                    QStringLiteral("SELECT vector_label, embedding, type, slots FROM nodes"
                                   " JOIN node_vectors ON node_vectors.label = nodes.vector_label"
                                   " WHERE tenant_id = ? AND scope = ? AND ")
                        + SqlText::seedRules(types.size()),
                    args);
    if (!q)
        return q.error();
    const int n = int(query.size());
    const float queryNorm = VectorMath::norm(query.constData(), n);
    QVector<LabelScore> best;
    while (q.value().next()) {
        if (q.value().value(2).toString() == QLatin1String("topic")
            && QJsonDocument::fromJson(q.value().value(3).toByteArray())
                       .object()
                       .value(QStringLiteral("topic_state"))
                       .toString()
                   == QLatin1String("draft"))
            continue;
        const QByteArray bytes = q.value().value(1).toByteArray();
        if (bytes.size() != qsizetype(n * sizeof(float)) || queryNorm == 0.0f)
            continue;
        const float *v = reinterpret_cast<const float *>(bytes.constData());
        const float norm = VectorMath::norm(v, n);
        if (norm == 0.0f)
            continue;
        best.append({q.value().value(0).toLongLong(),
                     VectorMath::dot(query.constData(), v, n) / (queryNorm * norm)});
        // Keep the candidate list bounded while scanning large scopes.
        if (best.size() > 4 * k + 64) {
            std::partial_sort(best.begin(), best.begin() + k, best.end(),
                              [](const LabelScore &a, const LabelScore &b) {
                                  return a.similarity > b.similarity;
                              });
            best.resize(k);
        }
    }
    std::sort(best.begin(), best.end(),
              [](const LabelScore &a, const LabelScore &b) { return a.similarity > b.similarity; });
    if (best.size() > k)
        best.resize(k);
    return best;
}

Result<QVector<EdgeRecord>> edgesAround(QSqlDatabase &db, const QString &tenantId,
                                        const QString &scope, const QStringList &nodeIds,
                                        double minWeight, double minConfidence, int perSide)
{
    QVector<EdgeRecord> out;
    if (nodeIds.isEmpty())
        return out;
    QSet<QString> seen;
    const QString ids = jsonArray(QVariant(nodeIds).toList());
    for (const char *column : {"src_id", "dst_id"}) {
        auto ran = runCachedSql(
            db,
            QStringLiteral(
                "SELECT id, tenant_id, scope, type, src_id, dst_id, weight, confidence, decay_rate,"
                " commit_id, created_at FROM edges WHERE +tenant_id = ? AND +scope = ?"
                " AND weight >= ? AND confidence >= ? AND ")
                + QString::fromLatin1(column)
                + QStringLiteral(" IN (SELECT value FROM json_each(?))"
                                 " ORDER BY weight DESC, confidence DESC, id LIMIT ?"),
            {tenantId, scope, minWeight, minConfidence, ids, perSide}, [&](QSqlQuery &q) {
                while (q.next()) {
                    EdgeRecord e;
                    e.id = q.value(0).toString();
                    if (seen.contains(e.id))
                        continue;
                    seen.insert(e.id);
                    e.tenantId = q.value(1).toString();
                    e.scope = q.value(2).toString();
                    e.type = q.value(3).toString();
                    e.fromId = q.value(4).toString();
                    e.toId = q.value(5).toString();
                    e.weight = q.value(6).toDouble();
                    e.confidence = q.value(7).toDouble();
                    e.decayRate = q.value(8).toDouble();
                    e.commitId = q.value(9).toString();
                    e.createdAt = QDateTime::fromMSecsSinceEpoch(q.value(10).toLongLong(), Qt::UTC);
                    out.append(e);
                }
            });
        if (!ran)
            return ran.error();
    }
    return out;
}

Result<void> insertAudit(QSqlDatabase &db, const AuditRow &row)
{
    auto r = runSql(
        db,
        QStringLiteral(
            "INSERT INTO recall_audit (tenant_id, scope, endpoint, consumer_agent_id,"
            " consumer_team_id, query_sha256, seed_count, node_count, edge_count, created_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?)"),
        {row.tenantId, row.scope, row.endpoint, row.consumerAgentId, row.consumerTeamId,
         row.querySha256, row.seedCount, row.nodeCount, row.edgeCount,
         QDateTime::currentMSecsSinceEpoch()});
    if (!r)
        return r.error();
    return {};
}

} // namespace MemoryGraph::RecallStore
