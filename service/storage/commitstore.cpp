#include "service/storage/commitstore.h"

#include "service/storage/database.h"

#include <QVariant>

namespace MemoryGraph::CommitStore {

namespace {

QString text(const QSqlQuery &q, int column)
{
    const QVariant v = q.value(column);
    return v.isNull() ? QString() : v.toString();
}

} // namespace

Result<QVector<StoredCommit>> chainPage(QSqlDatabase &db, const QString &tenantId,
                                        const QString &scope, qint64 afterSequence, int limit)
{
    auto q = runSql(
        db,
        QStringLiteral(
            "SELECT id, seq, parent_id, parent_hash, input_sha256, diff_sha256, diff, actor, kind,"
            " commit_hash FROM commits WHERE tenant_id = ? AND scope = ? AND seq > ?"
            " ORDER BY seq LIMIT ?"),
        {tenantId, scope, afterSequence, limit});
    if (!q)
        return q.error();
    QVector<StoredCommit> rows;
    while (q.value().next()) {
        const QSqlQuery &r = q.value();
        rows.append({text(r, 0), r.value(1).toLongLong(), text(r, 2), text(r, 3), text(r, 4),
                     text(r, 5), r.value(6).toByteArray(), text(r, 7), text(r, 8), text(r, 9)});
    }
    return rows;
}

Result<qint64> newestSequence(QSqlDatabase &db, const QString &tenantId, const QString &scope)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT COALESCE(MAX(seq), 0) FROM commits"
                                   " WHERE tenant_id = ? AND scope = ?"),
                    {tenantId, scope});
    if (!q)
        return q.error();
    return q.value().next() ? q.value().value(0).toLongLong() : qint64(0);
}

} // namespace MemoryGraph::CommitStore
