#pragma once

#include "service/core/records.h"
#include "service/core/result.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QStringList>

namespace MemoryGraph::RecallStore {

/// Nodes of the scope with these vector labels (any order).
Result<QVector<NodeRecord>> nodesByLabels(QSqlDatabase &db, const QString &tenantId,
                                          const QString &scope, const QVector<qint64> &labels);

/// Exact nearest seeds: labels and cosine similarity of the k ready hot/warm nodes of the given
/// types that the viewer may see (lane shared, or owned by viewerAgent / viewerTeam).
struct LabelScore
{
    qint64 label = 0;
    float similarity = 0.0f;
};
Result<QVector<LabelScore>> exactSeedScan(QSqlDatabase &db, const QString &tenantId,
                                          const QString &scope, const QStringList &types,
                                          const QString &viewerAgent, const QString &viewerTeam,
                                          const QVector<float> &query, int k);

/// Labels of the ready hot/warm nodes of the given types the viewer may see whose occurred_at
/// lies in [from, until), earliest first, at most limit.
Result<QVector<qint64>> datedSeedLabels(QSqlDatabase &db, const QString &tenantId,
                                        const QString &scope, const QStringList &types,
                                        const QString &viewerAgent, const QString &viewerTeam,
                                        const QDateTime &from, const QDateTime &until, int limit);

/// Nodes of the scope with these ids (any order).
Result<QVector<NodeRecord>> nodesByIds(QSqlDatabase &db, const QString &tenantId,
                                       const QString &scope, const QStringList &ids);

/// The strongest edges of the scope touching any of nodeIds (either direction) that pass the
/// weight and confidence floors: up to perSide by source and perSide by target, strongest first.
Result<QVector<EdgeRecord>> edgesAround(QSqlDatabase &db, const QString &tenantId,
                                        const QString &scope, const QStringList &nodeIds,
                                        double minWeight, double minConfidence, int perSide);

struct AuditRow
{
    QString tenantId;
    QString scope;
    QString endpoint;
    QString consumerAgentId;
    QString consumerTeamId;
    QString querySha256;
    int seedCount = 0;
    int nodeCount = 0;
    int edgeCount = 0;
};

Result<void> insertAudit(QSqlDatabase &db, const AuditRow &row);

} // namespace MemoryGraph::RecallStore
