#include "service/storage/graphstore.h"

#include "service/memoryservice.h"
#include "service/storage/database.h"
#include "service/storage/sqltext.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlRecord>
#include <QVariant>

namespace MemoryGraph::GraphStore {

namespace {

const QString kNodeColumns = QStringLiteral(
    "id, tenant_id, scope, client_id, type, tier, memory_lane, producer_agent_id, owner_agent_id,"
    " owner_team_id, title, text_summary, slots, raw_ref, evidence_ref, embedding_status,"
    " embedding_model, embedding_error, salience, importance, confidence, created_at, updated_at,"
    " last_activated, commit_id, vector_label, embedding_version, occurred_at");

const QString kEdgeColumns = QStringLiteral(
    "id, tenant_id, scope, type, src_id, dst_id, weight, confidence, decay_rate, commit_id,"
    " created_at");

const QString kCommitColumns = QStringLiteral(
    "id, tenant_id, scope, seq, parent_id, parent_hash, input_sha256, diff_sha256, diff, actor,"
    " kind, commit_hash, created_at");

QVariant text(const QString &s)
{
    return s.isNull() ? QVariant(QMetaType::fromType<QString>()) : QVariant(s);
}

QVariant millis(const QDateTime &t)
{
    return t.isValid() ? QVariant(t.toMSecsSinceEpoch()) : QVariant(QMetaType::fromType<qint64>());
}

QDateTime fromMillis(const QVariant &v)
{
    return v.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(v.toLongLong(), Qt::UTC);
}

QString str(const QSqlQuery &q, int i)
{
    const QVariant v = q.value(i);
    return v.isNull() ? QString() : v.toString();
}

NodeRecord readNode(const QSqlQuery &q)
{
    NodeRecord n;
    n.id = str(q, 0);
    n.tenantId = str(q, 1);
    n.scope = str(q, 2);
    n.clientId = str(q, 3);
    n.type = str(q, 4);
    n.tier = str(q, 5);
    n.memoryLane = str(q, 6);
    n.producerAgentId = str(q, 7);
    n.ownerAgentId = str(q, 8);
    n.ownerTeamId = str(q, 9);
    n.title = str(q, 10);
    n.textSummary = str(q, 11);
    n.slotData = QJsonDocument::fromJson(q.value(12).toByteArray()).object();
    n.rawRef = str(q, 13);
    n.evidenceRef = str(q, 14);
    n.embeddingStatus = str(q, 15);
    n.embeddingModel = str(q, 16);
    n.embeddingError = str(q, 17);
    n.salience = q.value(18).toDouble();
    n.importance = q.value(19).toDouble();
    n.confidence = q.value(20).toDouble();
    n.createdAt = fromMillis(q.value(21));
    n.updatedAt = fromMillis(q.value(22));
    n.lastActivated = fromMillis(q.value(23));
    n.commitId = str(q, 24);
    n.vectorLabel = q.value(25).toLongLong();
    n.embeddingVersion = q.value(26).toLongLong();
    n.occurredAt = fromMillis(q.value(27));
    return n;
}

EdgeRecord readEdge(const QSqlQuery &q)
{
    EdgeRecord e;
    e.id = str(q, 0);
    e.tenantId = str(q, 1);
    e.scope = str(q, 2);
    e.type = str(q, 3);
    e.fromId = str(q, 4);
    e.toId = str(q, 5);
    e.weight = q.value(6).toDouble();
    e.confidence = q.value(7).toDouble();
    e.decayRate = q.value(8).toDouble();
    e.commitId = str(q, 9);
    e.createdAt = fromMillis(q.value(10));
    return e;
}

CommitRecord readCommit(const QSqlQuery &q)
{
    CommitRecord c;
    c.id = str(q, 0);
    c.tenantId = str(q, 1);
    c.scope = str(q, 2);
    c.sequence = q.value(3).toLongLong();
    c.parentId = str(q, 4);
    c.parentHash = str(q, 5);
    c.inputSha256 = str(q, 6);
    c.diffSha256 = str(q, 7);
    c.diff = QJsonDocument::fromJson(q.value(8).toByteArray()).object();
    c.actor = str(q, 9);
    c.kind = str(q, 10);
    c.commitHash = str(q, 11);
    c.createdAt = fromMillis(q.value(12));
    return c;
}

/// The first row of a lookup by key. Every such SQL text is fixed, so its statement is kept.
template<typename T, typename Reader>
Result<std::optional<T>> one(QSqlDatabase &db, const QString &sql, const QVariantList &args,
                             Reader read)
{
    std::optional<T> row;
    auto ran = runCachedSql(db, sql, args, [&row, &read](QSqlQuery &q) {
        if (q.next())
            row = read(q);
    });
    if (!ran)
        return ran.error();
    return row;
}

template<typename T, typename Reader>
Result<QVector<T>> many(QSqlDatabase &db, const QString &sql, const QVariantList &args, Reader read)
{
    auto q = runSql(db, sql, args);
    if (!q)
        return q.error();
    QVector<T> rows;
    while (q.value().next())
        rows.append(read(q.value()));
    return rows;
}

/// many() for a fixed SQL text: its statement is prepared once per connection and kept.
template<typename T, typename Reader>
Result<QVector<T>> manyCached(QSqlDatabase &db, const QString &sql, const QVariantList &args,
                              Reader read)
{
    QVector<T> rows;
    auto ran = runCachedSql(db, sql, args, [&rows, &read](QSqlQuery &q) {
        while (q.next())
            rows.append(read(q));
    });
    if (!ran)
        return ran.error();
    return rows;
}

QString likePattern(const QString &needle)
{
    QString escaped = needle;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('%'), QStringLiteral("\\%"))
        .replace(QLatin1Char('_'), QStringLiteral("\\_"));
    return QLatin1Char('%') + escaped + QLatin1Char('%');
}

} // namespace

Result<std::optional<NodeRecord>> findNode(QSqlDatabase &db, const QString &id)
{
    return one<NodeRecord>(
        db, QStringLiteral("SELECT ") + kNodeColumns + QStringLiteral(" FROM nodes WHERE id = ?"),
        {id}, readNode);
}

Result<std::optional<NodeRecord>> findNodeByClientId(QSqlDatabase &db, const QString &tenantId,
                                                     const QString &scope, const QString &clientId)
{
    return one<NodeRecord>(db,
                           QStringLiteral("SELECT ") + kNodeColumns
                               + QStringLiteral(" FROM nodes WHERE tenant_id = ? AND scope = ?"
                                                " AND client_id = ?"),
                           {tenantId, scope, clientId}, readNode);
}

Result<QHash<QString, QByteArray>> nodeEmbeddings(QSqlDatabase &db, const QStringList &ids)
{
    QHash<QString, QByteArray> embeddings;
    if (ids.isEmpty())
        return embeddings;
    auto ran = runCachedSql(
        db,
        QStringLiteral(
            "SELECT n.id, v.embedding FROM nodes n JOIN node_vectors v"
            " ON v.label = n.vector_label WHERE n.id IN (SELECT value FROM json_each(?))"),
        {QString::fromUtf8(
            QJsonDocument(QJsonArray::fromStringList(ids)).toJson(QJsonDocument::Compact))},
        [&embeddings](QSqlQuery &q) {
            while (q.next())
                embeddings.insert(q.value(0).toString(), q.value(1).toByteArray());
        });
    if (!ran)
        return ran.error();
    return embeddings;
}

Result<QByteArray> nodeEmbedding(QSqlDatabase &db, const QString &id)
{
    // Recall asks for each seed the vector channel did not score: the statement is kept.
    QByteArray embedding;
    auto ran = runCachedSql(db,
                            QStringLiteral("SELECT v.embedding FROM nodes n JOIN node_vectors v"
                                           " ON v.label = n.vector_label WHERE n.id = ?"),
                            {id}, [&embedding](QSqlQuery &q) {
                                if (q.next())
                                    embedding = q.value(0).toByteArray();
                            });
    if (!ran)
        return ran.error();
    return embedding;
}

namespace {

/// The next value of a store-wide counter that never goes back (see schema "store_counters").
Result<qint64> nextCounter(QSqlDatabase &db, const QString &name)
{
    std::optional<qint64> value;
    auto ran = runCachedSql(db,
                            QStringLiteral("UPDATE store_counters SET value = value + 1"
                                           " WHERE name = ? RETURNING value"),
                            {name}, [&value](QSqlQuery &q) {
                                if (q.next())
                                    value = q.value(0).toLongLong();
                            });
    if (!ran)
        return ran.error();
    if (!value)
        return Error::internal(QStringLiteral("store counter missing: ") + name);
    return *value;
}

} // namespace

Result<void> saveNode(QSqlDatabase &db, const NodeRecord &n)
{
    // A record read from the store carries its label; only one without (a new node) takes the
    // next value. ON CONFLICT never touches vector_label, so a stray value is merely skipped.
    QVariant label = n.vectorLabel;
    if (n.vectorLabel == 0) {
        auto next = nextCounter(db, QStringLiteral("vector_label"));
        if (!next)
            return next.error();
        label = next.value();
    }
    auto r = runCachedSql(
        db,
        QStringLiteral(
            "INSERT INTO nodes (id, tenant_id, scope, client_id, type, tier, memory_lane,"
            " producer_agent_id, owner_agent_id, owner_team_id, title, text_summary, slots, "
            "raw_ref,"
            " evidence_ref, embedding_status, embedding_model, embedding_error, salience,"
            " importance, confidence, created_at, updated_at, last_activated, commit_id, "
            "vector_label, occurred_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT(id) DO UPDATE SET client_id=excluded.client_id, type=excluded.type,"
            " tier=excluded.tier, memory_lane=excluded.memory_lane,"
            " producer_agent_id=excluded.producer_agent_id, owner_agent_id=excluded.owner_agent_id,"
            " owner_team_id=excluded.owner_team_id, title=excluded.title,"
            " text_summary=excluded.text_summary, slots=excluded.slots, raw_ref=excluded.raw_ref,"
            " evidence_ref=excluded.evidence_ref, embedding_status=excluded.embedding_status,"
            " embedding_model=excluded.embedding_model, embedding_error=excluded.embedding_error,"
            " salience=excluded.salience, importance=excluded.importance,"
            " confidence=excluded.confidence, updated_at=excluded.updated_at,"
            " last_activated=excluded.last_activated, commit_id=excluded.commit_id,"
            " occurred_at=excluded.occurred_at"),
        {n.id,
         n.tenantId,
         n.scope,
         text(n.clientId),
         n.type,
         n.tier,
         n.memoryLane,
         text(n.producerAgentId),
         text(n.ownerAgentId),
         text(n.ownerTeamId),
         text(n.title),
         text(n.textSummary),
         QJsonDocument(n.slotData).toJson(QJsonDocument::Compact),
         text(n.rawRef),
         text(n.evidenceRef),
         n.embeddingStatus,
         text(n.embeddingModel),
         text(n.embeddingError),
         n.salience,
         n.importance,
         n.confidence,
         millis(n.createdAt),
         millis(n.updatedAt),
         millis(n.lastActivated),
         n.commitId,
         label,
         millis(n.occurredAt)});
    if (!r)
        return r.error();
    return {};
}

Result<EmbeddingStamp> setEmbedding(QSqlDatabase &db, const QString &id,
                                    const QByteArray &embedding)
{
    auto version = nextCounter(db, QStringLiteral("embedding_version"));
    if (!version)
        return version.error();
    std::optional<EmbeddingStamp> stamp;
    auto r = runCachedSql(
        db,
        QStringLiteral("UPDATE nodes SET embedding_version = ?"
                       " WHERE id = ? RETURNING embedding_version, vector_label"),
        {version.value(), id}, [&stamp](QSqlQuery &q) {
            if (q.next())
                stamp = EmbeddingStamp{q.value(0).toLongLong(), q.value(1).toLongLong()};
        });
    if (!r)
        return r.error();
    if (!stamp)
        return Error::internal(QStringLiteral("node vanished while setting its embedding"));
    auto stored = embedding.isEmpty()
                      ? runCachedSql(db, QStringLiteral("DELETE FROM node_vectors WHERE label = ?"),
                                     {stamp->label})
                      : runCachedSql(db,
                                     QStringLiteral("INSERT OR REPLACE INTO node_vectors"
                                                    " (label, embedding) VALUES (?, ?)"),
                                     {stamp->label, embedding});
    if (!stored)
        return stored.error();
    return *stamp;
}

Result<std::optional<EdgeRecord>> findEdge(QSqlDatabase &db, const QString &tenantId,
                                           const QString &scope, const QString &type,
                                           const QString &srcId, const QString &dstId)
{
    return one<EdgeRecord>(db,
                           QStringLiteral("SELECT ") + kEdgeColumns
                               + QStringLiteral(" FROM edges WHERE tenant_id = ? AND scope = ?"
                                                " AND type = ? AND src_id = ? AND dst_id = ?"),
                           {tenantId, scope, type, srcId, dstId}, readEdge);
}

Result<std::optional<EdgeRecord>> findEdgeById(QSqlDatabase &db, const QString &id)
{
    return one<EdgeRecord>(
        db, QStringLiteral("SELECT ") + kEdgeColumns + QStringLiteral(" FROM edges WHERE id = ?"),
        {id}, readEdge);
}

Result<std::optional<CommitRecord>> findCommit(QSqlDatabase &db, const QString &id)
{
    return one<CommitRecord>(db,
                             QStringLiteral("SELECT ") + kCommitColumns
                                 + QStringLiteral(" FROM commits WHERE id = ?"),
                             {id}, readCommit);
}

Result<void> saveEdge(QSqlDatabase &db, const EdgeRecord &e)
{
    auto r = runCachedSql(
        db,
        QStringLiteral(
            "INSERT INTO edges (id, tenant_id, scope, type, src_id, dst_id, weight, confidence,"
            " decay_rate, commit_id, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"
            " ON CONFLICT(id) DO UPDATE SET weight=excluded.weight, confidence=excluded.confidence,"
            " decay_rate=excluded.decay_rate, commit_id=excluded.commit_id,"
            " updated_at=excluded.updated_at"),
        {e.id, e.tenantId, e.scope, e.type, e.fromId, e.toId, e.weight, e.confidence, e.decayRate,
         e.commitId, millis(e.createdAt), QDateTime::currentMSecsSinceEpoch()});
    if (!r)
        return r.error();
    return {};
}

Result<std::optional<CommitRecord>> latestCommit(QSqlDatabase &db, const QString &tenantId,
                                                 const QString &scope)
{
    return one<CommitRecord>(db,
                             QStringLiteral("SELECT ") + kCommitColumns
                                 + QStringLiteral(" FROM commits WHERE tenant_id = ? AND scope = ?"
                                                  " ORDER BY seq DESC LIMIT 1"),
                             {tenantId, scope}, readCommit);
}

Result<std::optional<CommitRecord>> findCommitByRequestKey(QSqlDatabase &db,
                                                           const QString &tenantId,
                                                           const QString &scope,
                                                           const QString &requestKey)
{
    return one<CommitRecord>(db,
                             QStringLiteral("SELECT ") + kCommitColumns
                                 + QStringLiteral(" FROM commits WHERE tenant_id = ? AND scope = ?"
                                                  " AND request_key = ? ORDER BY seq DESC LIMIT 1"),
                             {tenantId, scope, requestKey}, readCommit);
}

Result<void> insertCommit(QSqlDatabase &db, const CommitRecord &c, const QString &requestKey)
{
    auto r = runCachedSql(
        db,
        QStringLiteral(
            "INSERT INTO commits (id, tenant_id, scope, seq, parent_id, parent_hash, input_sha256,"
            " diff_sha256, diff, actor, kind, request_key, commit_hash, created_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
        {c.id, c.tenantId, c.scope, c.sequence, text(c.parentId), c.parentHash, c.inputSha256,
         c.diffSha256, QJsonDocument(c.diff).toJson(QJsonDocument::Compact), c.actor, c.kind,
         text(requestKey), c.commitHash, millis(c.createdAt)});
    if (!r)
        return r.error();
    return {};
}

Result<QVector<NodeRecord>> nodesWhere(QSqlDatabase &db, const QString &where,
                                       const QVariantList &args)
{
    return many<NodeRecord>(
        db, QStringLiteral("SELECT ") + kNodeColumns + QStringLiteral(" FROM nodes WHERE ") + where,
        args, readNode);
}

Result<QVector<NodeRecord>> nodesWhereFixed(QSqlDatabase &db, const QString &where,
                                            const QVariantList &args)
{
    return manyCached<NodeRecord>(
        db, QStringLiteral("SELECT ") + kNodeColumns + QStringLiteral(" FROM nodes WHERE ") + where,
        args, readNode);
}

Result<QVector<NodeRecord>> listNodes(QSqlDatabase &db, const NodeQuery &query, qint64 *total)
{
    QString where = QStringLiteral(" WHERE tenant_id = ? AND scope = ?");
    QVariantList args{query.tenantId, query.scope};
    if (!query.text.isEmpty()) {
        where += QStringLiteral(" AND (title LIKE ? ESCAPE '\\' OR text_summary LIKE ? ESCAPE '\\'"
                                " OR client_id LIKE ? ESCAPE '\\' OR id = ?)");
        const QString pattern = likePattern(query.text);
        args << pattern << pattern << pattern << query.text;
    }
    const std::pair<const QString *, const char *> exact[]
        = {{&query.type, " AND type = ?"},
           {&query.tier, " AND tier = ?"},
           {&query.lane, " AND memory_lane = ?"}};
    for (const auto &[value, clause] : exact) {
        if (!value->isEmpty()) {
            where += QString::fromLatin1(clause);
            args << *value;
        }
    }
    if (total) {
        auto count = runSql(db, QStringLiteral("SELECT COUNT(*) FROM nodes") + where, args);
        if (!count)
            return count.error();
        count.value().next();
        *total = count.value().value(0).toLongLong();
    }
    QVariantList pageArgs = args;
    pageArgs << qMax(0, query.limit) << qMax(0, query.offset);
    return many<NodeRecord>(db,
                            QStringLiteral("SELECT ") + kNodeColumns + QStringLiteral(" FROM nodes")
                                + where
                                + QStringLiteral(" ORDER BY updated_at DESC, id LIMIT ? OFFSET ?"),
                            pageArgs, readNode);
}

Result<QVector<EdgeRecord>> edgesOfNode(QSqlDatabase &db, const QString &nodeId)
{
    return many<EdgeRecord>(db,
                            QStringLiteral("SELECT ") + kEdgeColumns
                                + QStringLiteral(" FROM edges WHERE src_id = ? OR dst_id = ?"
                                                 " ORDER BY weight DESC, id"),
                            {nodeId, nodeId}, readEdge);
}

Result<QVector<CommitRecord>> listCommits(QSqlDatabase &db, const QString &tenantId,
                                          const QString &scope, int offset, int limit)
{
    return many<CommitRecord>(db,
                              QStringLiteral("SELECT ") + kCommitColumns
                                  + QStringLiteral(" FROM commits WHERE tenant_id = ? AND scope = ?"
                                                   " ORDER BY seq DESC LIMIT ? OFFSET ?"),
                              {tenantId, scope, qMax(0, limit), qMax(0, offset)}, readCommit);
}

Result<QVector<ScopeSummary>> listScopes(QSqlDatabase &db)
{
    return many<ScopeSummary>(
        db,
        QStringLiteral(
            "SELECT s.tenant_id, s.scope,"
            " (SELECT COUNT(*) FROM nodes n WHERE n.tenant_id = s.tenant_id AND n.scope = s.scope),"
            " (SELECT COUNT(*) FROM edges e WHERE e.tenant_id = s.tenant_id AND e.scope = s.scope),"
            " (SELECT COUNT(*) FROM commits c WHERE c.tenant_id = s.tenant_id AND c.scope = "
            "s.scope)"
            " FROM (SELECT tenant_id, scope FROM commits UNION SELECT tenant_id, scope FROM nodes) "
            "s"
            " ORDER BY s.tenant_id, s.scope"),
        {}, [](const QSqlQuery &q) {
            ScopeSummary s;
            s.tenantId = q.value(0).toString();
            s.scope = q.value(1).toString();
            s.nodeCount = q.value(2).toLongLong();
            s.edgeCount = q.value(3).toLongLong();
            s.commitCount = q.value(4).toLongLong();
            return s;
        });
}

namespace {

/// One order for the overview's nodes and the ranks its edges are drawn among.
const QString kSalienceOrder = QStringLiteral(" ORDER BY salience DESC, updated_at DESC, id");

} // namespace

Result<QVector<NodeRecord>> mostSalientNodes(QSqlDatabase &db, const QString &tenantId,
                                             const QString &scope, int offset, int limit)
{
    return many<NodeRecord>(db,
                            QStringLiteral("SELECT ") + kNodeColumns
                                + QStringLiteral(" FROM nodes WHERE tenant_id = ? AND scope = ?")
                                + kSalienceOrder + QStringLiteral(" LIMIT ? OFFSET ?"),
                            {tenantId, scope, qMax(0, limit), qMax(0, offset)}, readNode);
}

Result<QVector<EdgeRecord>> edgesWithinSalientRanks(QSqlDatabase &db, const QString &tenantId,
                                                    const QString &scope,
                                                    const QStringList &batchIds, int ranks)
{
    if (batchIds.isEmpty() || ranks <= 0)
        return QVector<EdgeRecord>();
    // The ranked ids come from the index as a subquery: no id list however deep the ranks go.
    // The unary plus keeps SQLite on the per-end indexes instead of walking every edge of the
    // scope through (tenant_id, scope, ...).
    const QString batch = SqlText::placeholders(batchIds.size());
    const QString sql
        = QStringLiteral("WITH ranked(id) AS (SELECT id FROM nodes WHERE tenant_id = ? AND"
                         " scope = ?")
          + kSalienceOrder + QStringLiteral(" LIMIT ?) SELECT ") + kEdgeColumns
          + QStringLiteral(" FROM edges WHERE +tenant_id = ? AND +scope = ? AND ((src_id IN (%1)"
                           " AND dst_id IN ranked) OR (dst_id IN (%1) AND src_id IN ranked))"
                           " ORDER BY weight DESC, id")
                .arg(batch);
    QVariantList args{tenantId, scope, ranks, tenantId, scope};
    for (int side = 0; side < 2; ++side) {
        for (const QString &id : batchIds)
            args << id;
    }
    return many<EdgeRecord>(db, sql, args, readEdge);
}

Result<qint64> countNodesInScope(QSqlDatabase &db, const QString &tenantId, const QString &scope)
{
    auto q
        = runSql(db, QStringLiteral("SELECT COUNT(*) FROM nodes WHERE tenant_id = ? AND scope = ?"),
                 {tenantId, scope});
    if (!q)
        return q.error();
    return q.value().next() ? q.value().value(0).toLongLong() : qint64(0);
}

Result<StoreTotals> storeTotals(QSqlDatabase &db)
{
    auto q = runSql(db, QStringLiteral("SELECT name, value FROM row_counts"
                                       " WHERE name IN ('nodes', 'edges', 'commits', 'scopes')"));
    if (!q)
        return q.error();
    StoreTotals totals;
    while (q.value().next()) {
        const QString name = q.value().value(0).toString();
        const qint64 value = q.value().value(1).toLongLong();
        if (name == QLatin1String("nodes"))
            totals.nodes = value;
        else if (name == QLatin1String("edges"))
            totals.edges = value;
        else if (name == QLatin1String("commits"))
            totals.commits = value;
        else
            totals.scopes = value;
    }
    return totals;
}

Result<QVector<NodeRecord>> nodesInScope(QSqlDatabase &db, const QString &tenantId,
                                         const QString &scope)
{
    return nodesWhere(db, QStringLiteral("tenant_id = ? AND scope = ?"), {tenantId, scope});
}

Result<QVector<NodeRecord>> nonRuleNodesInScope(QSqlDatabase &db, const QString &tenantId,
                                                const QString &scope)
{
    return nodesWhere(db, QStringLiteral("tenant_id = ? AND scope = ? AND type <> 'rule'"),
                      {tenantId, scope});
}

Result<QVector<NodeRecord>> pendingEmbeddingNodes(QSqlDatabase &db, int limit)
{
    return nodesWhere(
        db,
        QStringLiteral("embedding_status = 'pending' ORDER BY updated_at, id LIMIT %1").arg(limit),
        {});
}

Result<QHash<QString, qint64>> readyVectorsByModel(QSqlDatabase &db)
{
    auto q
        = runSql(db,
                 QStringLiteral("SELECT embedding_model, COUNT(*) FROM nodes"
                                " WHERE embedding_status = 'ready' AND embedding_model IS NOT NULL"
                                " GROUP BY embedding_model"),
                 {});
    if (!q)
        return q.error();
    QHash<QString, qint64> models;
    while (q.value().next())
        models.insert(q.value().value(0).toString(), q.value().value(1).toLongLong());
    return models;
}

Result<QVector<NodeRecord>> readyNodesEmbeddedBy(QSqlDatabase &db, const QStringList &models,
                                                 const QString &afterId, int limit)
{
    if (models.isEmpty())
        return QVector<NodeRecord>();
    // A null QString binds as NULL, and "id > NULL" holds for no row: the first batch has none.
    QVariantList args;
    QString where;
    if (!afterId.isEmpty()) {
        where = QStringLiteral("id > ? AND ");
        args << afterId;
    }
    for (const QString &m : models)
        args << m;
    return nodesWhere(db,
                      where
                          + QStringLiteral("embedding_status = 'ready' AND embedding_model IN (%1)"
                                           " ORDER BY id LIMIT %2")
                                .arg(SqlText::placeholders(models.size()))
                                .arg(limit),
                      args);
}

Result<int> countEmbeddingAttempt(QSqlDatabase &db, const QString &id)
{
    auto attempts = runSql(
        db,
        QStringLiteral("UPDATE nodes SET embedding_attempts = embedding_attempts + 1 WHERE id = ?"
                       " RETURNING embedding_attempts"),
        {id});
    if (!attempts)
        return attempts.error();
    attempts.value().next();
    return attempts.value().value(0).toInt();
}

namespace {

/// The first string after every string that starts with `prefix`: its last character + 1.
QString prefixEnd(const QString &prefix)
{
    QString end = prefix;
    end.back() = QChar(end.back().unicode() + 1);
    return end;
}

} // namespace

Result<QVector<NodeRecord>> nodesByClientIdOrPrefix(QSqlDatabase &db, const QString &tenantId,
                                                    const QString &scope,
                                                    const QStringList &clientIds,
                                                    const QStringList &prefixes)
{
    QStringList terms;
    QVariantList args{tenantId, scope};
    for (const QString &id : clientIds) {
        terms << QStringLiteral("client_id = ?");
        args << id;
    }
    for (const QString &prefix : prefixes) {
        terms << QStringLiteral("(client_id >= ? AND client_id < ?)");
        args << prefix << prefixEnd(prefix);
    }
    return nodesWhere(db,
                      QStringLiteral("tenant_id = ? AND scope = ? AND (")
                          + terms.join(QStringLiteral(" OR "))
                          + QStringLiteral(") ORDER BY created_at ASC, rowid ASC"),
                      args);
}

Result<QVector<NodeRecord>> newestNodesWithClientIdPrefix(QSqlDatabase &db, const QString &tenantId,
                                                          const QString &scope,
                                                          const QString &prefix, int limit)
{
    return nodesWhere(
        db,
        QStringLiteral("tenant_id = ? AND scope = ? AND client_id >= ? AND client_id < ?"
                       " ORDER BY created_at DESC, rowid DESC LIMIT ?"),
        {tenantId, scope, prefix, prefixEnd(prefix), limit});
}

Result<void> deleteNodeWithEdges(QSqlDatabase &db, const QString &nodeId)
{
    const QString deleteEdges = QStringLiteral("DELETE FROM edges WHERE src_id = ? OR dst_id = ?");
    if (auto r = runSql(db, deleteEdges, {nodeId, nodeId}); !r)
        return r.error();
    if (auto r = runSql(db, QStringLiteral("DELETE FROM nodes WHERE id = ?"), {nodeId}); !r)
        return r.error();
    return {};
}

Result<QStringList> nodeIdsInCreationOrder(QSqlDatabase &db, const QString &tenantId,
                                           const QString &scope)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT id FROM nodes WHERE tenant_id = ? AND scope = ?"
                                   " ORDER BY created_at, id"),
                    {tenantId, scope});
    if (!q)
        return q.error();
    QStringList ids;
    while (q.value().next())
        ids << q.value().value(0).toString();
    return ids;
}

Result<void> visitNodes(QSqlDatabase &db, const QStringList &ids, bool withEmbeddings,
                        const std::function<bool(const NodeRecord &, const QByteArray &)> &visit)
{
    constexpr qsizetype kChunk = 200;
    const QString columns
        = withEmbeddings ? kNodeColumns + QStringLiteral(", embedding") : kNodeColumns;
    for (qsizetype start = 0; start < ids.size(); start += kChunk) {
        const QStringList chunk = ids.mid(start, kChunk);
        QVariantList args;
        for (const QString &id : chunk)
            args << id;
        auto q = runSql(db,
                        QStringLiteral("SELECT ") + columns
                            + (withEmbeddings ? QStringLiteral(
                                   " FROM nodes LEFT JOIN node_vectors"
                                   " ON node_vectors.label = nodes.vector_label WHERE id IN (")
                                              : QStringLiteral(" FROM nodes WHERE id IN ("))
                            + SqlText::placeholders(chunk.size()) + QLatin1Char(')'),
                        args);
        if (!q)
            return q.error();
        // Rows come in index order; the walk keeps the order of `ids`.
        QHash<QString, std::pair<NodeRecord, QByteArray>> rows;
        while (q.value().next()) {
            NodeRecord n = readNode(q.value());
            const QString id = n.id;
            const QByteArray vector
                = withEmbeddings ? q.value().value(28).toByteArray() : QByteArray();
            rows.insert(id, {std::move(n), vector});
        }
        for (const QString &id : chunk) {
            const auto found = rows.constFind(id);
            if (found != rows.constEnd() && !visit(found->first, found->second))
                return {};
        }
    }
    return {};
}

Result<void>
visitEdgesInScope(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                  const std::function<bool(const EdgeRecord &, const QDateTime &)> &visit)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + kEdgeColumns
                        + QStringLiteral(", updated_at FROM edges WHERE tenant_id = ? AND scope = ?"
                                         " ORDER BY created_at, id"),
                    {tenantId, scope});
    if (!q)
        return q.error();
    while (q.value().next()) {
        if (!visit(readEdge(q.value()), fromMillis(q.value().value(11))))
            return {};
    }
    return {};
}

Result<void> visitCommitsInScope(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                 const std::function<bool(const CommitRecord &)> &visit)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + kCommitColumns
                        + QStringLiteral(" FROM commits WHERE tenant_id = ? AND scope = ?"
                                         " ORDER BY seq"),
                    {tenantId, scope});
    if (!q)
        return q.error();
    while (q.value().next()) {
        if (!visit(readCommit(q.value())))
            return {};
    }
    return {};
}

} // namespace MemoryGraph::GraphStore
