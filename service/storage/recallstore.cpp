#include "service/storage/recallstore.h"

#include "service/storage/database.h"
#include "service/storage/graphstore.h"

#include <QDateTime>
#include <QSet>

namespace MemoryGraph::RecallStore {

namespace {

QString placeholders(int n)
{
    QString s;
    s.reserve(n * 2);
    for (int i = 0; i < n; ++i)
        s += i ? QStringLiteral(",?") : QStringLiteral("?");
    return s;
}

} // namespace

Result<QVector<NodeRecord>> nodesByLabels(QSqlDatabase &db, const QString &tenantId,
                                          const QString &scope, const QVector<qint64> &labels)
{
    if (labels.isEmpty())
        return QVector<NodeRecord>();
    QVariantList args{tenantId, scope};
    for (qint64 l : labels)
        args << l;
    return GraphStore::nodesWhere(db, QStringLiteral("tenant_id = ? AND scope = ? AND vector_label IN (")
                                          + placeholders(int(labels.size())) + QLatin1Char(')'),
                                  args);
}

Result<QVector<NodeRecord>> nodesByIds(QSqlDatabase &db, const QString &tenantId,
                                       const QString &scope, const QStringList &ids)
{
    if (ids.isEmpty())
        return QVector<NodeRecord>();
    QVariantList args{tenantId, scope};
    for (const QString &id : ids)
        args << id;
    return GraphStore::nodesWhere(db, QStringLiteral("tenant_id = ? AND scope = ? AND id IN (")
                                          + placeholders(int(ids.size())) + QLatin1Char(')'),
                                  args);
}

Result<QVector<EdgeRecord>> edgesAround(QSqlDatabase &db, const QString &tenantId,
                                        const QString &scope, const QStringList &nodeIds,
                                        double minWeight, double minConfidence, int perSide)
{
    QVector<EdgeRecord> out;
    if (nodeIds.isEmpty())
        return out;
    QSet<QString> seen;
    for (const char *column : {"src_id", "dst_id"}) {
        QVariantList args{tenantId, scope, minWeight, minConfidence};
        for (const QString &id : nodeIds)
            args << id;
        args << perSide;
        auto q = runSql(db, QStringLiteral(
            "SELECT id, tenant_id, scope, type, src_id, dst_id, weight, confidence, decay_rate,"
            " commit_id, created_at FROM edges WHERE tenant_id = ? AND scope = ?"
            " AND weight >= ? AND confidence >= ? AND ") + QString::fromLatin1(column)
            + QStringLiteral(" IN (") + placeholders(int(nodeIds.size()))
            + QStringLiteral(") ORDER BY weight DESC, confidence DESC, id LIMIT ?"), args);
        if (!q)
            return q.error();
        while (q.value().next()) {
            EdgeRecord e;
            e.id = q.value().value(0).toString();
            if (seen.contains(e.id))
                continue;
            seen.insert(e.id);
            e.tenantId = q.value().value(1).toString();
            e.scope = q.value().value(2).toString();
            e.type = q.value().value(3).toString();
            e.fromId = q.value().value(4).toString();
            e.toId = q.value().value(5).toString();
            e.weight = q.value().value(6).toDouble();
            e.confidence = q.value().value(7).toDouble();
            e.decayRate = q.value().value(8).toDouble();
            e.commitId = q.value().value(9).toString();
            e.createdAt = QDateTime::fromMSecsSinceEpoch(q.value().value(10).toLongLong(), Qt::UTC);
            out.append(e);
        }
    }
    return out;
}

Result<void> insertAudit(QSqlDatabase &db, const AuditRow &row)
{
    auto r = runSql(db, QStringLiteral(
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
