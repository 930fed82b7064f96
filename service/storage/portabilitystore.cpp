#include "service/storage/portabilitystore.h"

#include "service/storage/database.h"

#include <QSqlQuery>
#include <QVariant>

namespace MemoryGraph::PortabilityStore {

namespace {

QVariant millis(const QDateTime &t)
{
    return t.isValid() ? QVariant(t.toMSecsSinceEpoch()) : QVariant(QMetaType::fromType<qint64>());
}

QVariant textOrNull(const QString &s)
{
    return s.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(s);
}

Result<qint64> countOf(QSqlDatabase &db, const QString &sql, const QVariantList &args)
{
    qint64 n = 0;
    auto ran = runCachedSql(db, sql, args, [&n](QSqlQuery &q) {
        if (q.next())
            n = q.value(0).toLongLong();
    });
    if (!ran)
        return ran.error();
    return n;
}

Result<bool> exists(QSqlDatabase &db, const QString &sql, const QVariantList &args)
{
    auto n = countOf(db, sql, args);
    if (!n)
        return n.error();
    return n.value() > 0;
}

} // namespace

Result<ScopeCounts> countScope(QSqlDatabase &db, const QString &tenantId, const QString &scope)
{
    const QVariantList args{tenantId, scope};
    const auto count = [&db, &args](const char *table) {
        return countOf(db,
                       QStringLiteral("SELECT COUNT(*) FROM %1 WHERE tenant_id = ? AND scope = ?")
                           .arg(QLatin1String(table)),
                       args);
    };
    ScopeCounts c;
    const std::pair<const char *, qint64 *> tables[] = {{"nodes", &c.nodes},
                                                        {"edges", &c.edges},
                                                        {"rule_defs", &c.rules},
                                                        {"decisions", &c.decisions},
                                                        {"rule_feedback", &c.feedback},
                                                        {"commits", &c.commits}};
    for (const auto &[table, out] : tables) {
        auto n = count(table);
        if (!n)
            return n.error();
        *out = n.value();
    }
    // A prefix range over the (tenant_id, scope, client_id) index.
    auto runs
        = countOf(db,
                  QStringLiteral("SELECT COUNT(*) FROM nodes WHERE tenant_id = ? AND scope = ?"
                                 " AND client_id >= 'replay:run:'"
                                 " AND client_id < 'replay:run;'"),
                  args);
    if (!runs)
        return runs.error();
    c.replayRuns = runs.value();
    return c;
}

Result<bool> nodeExists(QSqlDatabase &db, const QString &id)
{
    return exists(db, QStringLiteral("SELECT COUNT(*) FROM nodes WHERE id = ?"), {id});
}

Result<bool> edgeExists(QSqlDatabase &db, const QString &id)
{
    return exists(db, QStringLiteral("SELECT COUNT(*) FROM edges WHERE id = ?"), {id});
}

Result<bool> decisionExists(QSqlDatabase &db, const QString &id)
{
    return exists(db, QStringLiteral("SELECT COUNT(*) FROM decisions WHERE id = ?"), {id});
}

Result<bool> feedbackExists(QSqlDatabase &db, const QString &id)
{
    return exists(db, QStringLiteral("SELECT COUNT(*) FROM rule_feedback WHERE id = ?"), {id});
}

Result<bool> clientIdTaken(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                           const QString &clientId)
{
    return exists(db,
                  QStringLiteral("SELECT COUNT(*) FROM nodes WHERE tenant_id = ? AND scope = ?"
                                 " AND client_id = ?"),
                  {tenantId, scope, clientId});
}

Result<void> insertEdge(QSqlDatabase &db, const EdgeRecord &e, const QDateTime &updatedAt)
{
    return runCachedSql(
        db,
        QStringLiteral(
            "INSERT INTO edges (id, tenant_id, scope, type, src_id, dst_id, weight, confidence,"
            " decay_rate, commit_id, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"),
        {e.id, e.tenantId, e.scope, e.type, e.fromId, e.toId, e.weight, e.confidence, e.decayRate,
         e.commitId, millis(e.createdAt), millis(updatedAt)});
}

Result<void> saveRuleState(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                           const QString &ruleNodeId, const RuleStatus &s,
                           const QDateTime &createdAt)
{
    return runCachedSql(
        db,
        QStringLiteral(
            "INSERT INTO rule_defs (rule_node_id, tenant_id, scope, state, positive_count,"
            " negative_count, last_matched_at, state_commit_id, created_at, updated_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT(rule_node_id) DO UPDATE SET"
            " state = excluded.state, positive_count = excluded.positive_count,"
            " negative_count = excluded.negative_count,"
            " last_matched_at = excluded.last_matched_at,"
            " state_commit_id = excluded.state_commit_id, created_at = excluded.created_at,"
            " updated_at = excluded.updated_at"),
        {ruleNodeId, tenantId, scope, s.state, s.positive, s.negative, millis(s.lastMatchedAt),
         textOrNull(s.stateCommitId), millis(createdAt), millis(s.updatedAt)});
}

ReadSnapshot::ReadSnapshot(QSqlDatabase &db) : m_db(db) { }

ReadSnapshot::~ReadSnapshot()
{
    if (m_open)
        QSqlQuery(m_db).exec(QStringLiteral("ROLLBACK"));
}

Result<void> ReadSnapshot::begin()
{
    auto begun = runSql(m_db, QStringLiteral("BEGIN"));
    if (!begun)
        return begun.error();
    m_open = true;
    return {};
}

} // namespace MemoryGraph::PortabilityStore
