#include "service/storage/indexstore.h"

#include "service/storage/database.h"

#include <QStringList>
#include <QVariant>

namespace MemoryGraph::IndexStore {

Result<ScopeSize> scopeSize(QSqlDatabase &db, const QString &tenantId, const QString &scope)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT COUNT(*), COALESCE(MAX(embedding_version), 0) FROM nodes"
                                   " WHERE tenant_id = ? AND scope = ?"),
                    {tenantId, scope});
    if (!q)
        return q.error();
    ScopeSize size;
    if (q.value().next()) {
        size.rows = q.value().value(0).toLongLong();
        size.newestVersion = q.value().value(1).toLongLong();
    }
    return size;
}

Result<void> forEachChangedLabel(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                 qint64 afterVersion,
                                 const std::function<void(qint64 label, qint64 version)> &visit)
{
    auto q = runSql(
        db,
        QStringLiteral(
            "SELECT vector_label, embedding_version FROM nodes INDEXED BY nodes_embedding_version"
            " WHERE tenant_id = ? AND scope = ? AND embedding_version > ?"),
        {tenantId, scope, afterVersion});
    if (!q)
        return q.error();
    while (q.value().next())
        visit(q.value().value(0).toLongLong(), q.value().value(1).toLongLong());
    return {};
}

Result<void> forEachEmbedding(QSqlDatabase &db, const QVector<qint64> &labels,
                              const std::function<void(const StoredEmbedding &)> &visit)
{
    QStringList marks;
    QVariantList bindings;
    for (qint64 label : labels) {
        marks << QStringLiteral("?");
        bindings << label;
    }
    auto q = runSql(
        db,
        QStringLiteral(
            "SELECT vector_label, embedding_status, embedding, embedding_version FROM nodes"
            " LEFT JOIN node_vectors ON node_vectors.label = nodes.vector_label"
            " WHERE vector_label IN (%1)")
            .arg(marks.join(QLatin1Char(','))),
        bindings);
    if (!q)
        return q.error();
    StoredEmbedding row;
    while (q.value().next()) {
        row.label = q.value().value(0).toLongLong();
        row.status = q.value().value(1).toString();
        row.vector = q.value().value(2).toByteArray();
        row.version = q.value().value(3).toLongLong();
        visit(row);
    }
    return {};
}

Result<qint64> newestEmbeddingVersion(QSqlDatabase &db, const QString &tenantId,
                                      const QString &scope)
{
    // Every search asks: the statement is kept rather than parsed each time.
    qint64 newest = 0;
    auto ran = runCachedSql(
        db,
        QStringLiteral(
            "SELECT embedding_version FROM nodes INDEXED BY nodes_embedding_version"
            " WHERE tenant_id = ? AND scope = ? ORDER BY embedding_version DESC LIMIT 1"),
        {tenantId, scope}, [&newest](QSqlQuery &q) {
            if (q.next())
                newest = q.value(0).toLongLong();
        });
    if (!ran)
        return ran.error();
    return newest;
}

Result<QVector<ScopeKey>> embeddedScopes(QSqlDatabase &db)
{
    auto q = runSql(
        db,
        // From the (tenant, scope, embedding_version, label) index: testing the embedding
        // column itself read every vector of the store at each start (seconds at 100k when
        // the file is not cached). A scope whose vectors were all cleared since gets an empty
        // index, which costs nothing.
        QStringLiteral(
            "SELECT DISTINCT tenant_id, scope FROM nodes INDEXED BY nodes_embedding_version"
            " WHERE embedding_version > 0"));
    if (!q)
        return q.error();
    QVector<ScopeKey> scopes;
    while (q.value().next())
        scopes.append({q.value().value(0).toString(), q.value().value(1).toString()});
    return scopes;
}

} // namespace MemoryGraph::IndexStore
