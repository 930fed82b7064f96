#include "service/storage/rulestore.h"

#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/sqltext.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

namespace MemoryGraph::RuleStore {

namespace {

const QString kDecisionColumns = QStringLiteral(
    "id, tenant_id, scope, decision_kind, run_id, selected_tool, candidates, context_sha256,"
    " policy_sha256, source_rule_ids, metadata, commit_id, created_at");

const QString kFeedbackColumns = QStringLiteral(
    "id, tenant_id, scope, rule_node_id, run_id, outcome, note, source, decision_id, commit_id,"
    " created_at");

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QVariant text(const QString &s)
{
    return s.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(s);
}

QDateTime fromMillis(const QVariant &v)
{
    return v.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(v.toLongLong(), Qt::UTC);
}

QByteArray jsonList(const QStringList &list)
{
    return QJsonDocument(QJsonArray::fromStringList(list)).toJson(QJsonDocument::Compact);
}

QStringList readList(const QVariant &v)
{
    QStringList out;
    for (const QJsonValue &e : QJsonDocument::fromJson(v.toByteArray()).array())
        out << e.toString();
    return out;
}

DecisionRecord readDecision(const QSqlQuery &q)
{
    DecisionRecord d;
    d.id = q.value(0).toString();
    d.tenantId = q.value(1).toString();
    d.scope = q.value(2).toString();
    d.kind = q.value(3).toString();
    d.runId = q.value(4).toString();
    d.selectedTool = q.value(5).toString();
    d.candidates = readList(q.value(6));
    d.contextSha256 = q.value(7).toString();
    d.policySha256 = q.value(8).toString();
    d.sourceRuleIds = readList(q.value(9));
    d.metadata = QJsonDocument::fromJson(q.value(10).toByteArray()).object();
    d.commitId = q.value(11).toString();
    d.createdAt = fromMillis(q.value(12));
    return d;
}

FeedbackRecord readFeedback(const QSqlQuery &q)
{
    FeedbackRecord f;
    f.id = q.value(0).toString();
    f.tenantId = q.value(1).toString();
    f.scope = q.value(2).toString();
    f.ruleNodeId = q.value(3).toString();
    f.runId = q.value(4).toString();
    f.outcome = q.value(5).toString();
    f.note = q.value(6).toString();
    f.source = q.value(7).toString();
    f.decisionId = q.value(8).toString();
    f.commitId = q.value(9).toString();
    f.createdAt = fromMillis(q.value(10));
    return f;
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

Result<qint64> nextSeq(QSqlDatabase &db, const char *table)
{
    auto q = runSql(db, QStringLiteral("SELECT COALESCE(MAX(seq), 0) + 1 FROM ")
                            + QString::fromLatin1(table));
    if (!q)
        return q.error();
    q.value().next();
    return q.value().value(0).toLongLong();
}

RuleStatus readStatus(const QSqlQuery &q, int at)
{
    RuleStatus s;
    s.state = q.value(at).toString();
    s.positive = q.value(at + 1).toLongLong();
    s.negative = q.value(at + 2).toLongLong();
    s.lastMatchedAt = fromMillis(q.value(at + 3));
    s.stateCommitId = q.value(at + 4).toString();
    s.updatedAt = fromMillis(q.value(at + 5));
    return s;
}

const QString kStatusColumns = QStringLiteral(
    "state, positive_count, negative_count, last_matched_at, state_commit_id, updated_at");

} // namespace

Result<void> ensureRuleDef(QSqlDatabase &db, const NodeRecord &rule)
{
    const qint64 now = nowMs();
    auto r = runSql(
        db,
        QStringLiteral(
            "INSERT INTO rule_defs (rule_node_id, tenant_id, scope, state, created_at, updated_at)"
            " VALUES (?, ?, ?, 'shadow', ?, ?) ON CONFLICT(rule_node_id) DO UPDATE SET updated_at "
            "= excluded.updated_at"),
        {rule.id, rule.tenantId, rule.scope, now, now});
    if (!r)
        return r.error();
    return {};
}

Result<QHash<QString, RuleStatus>> statuses(QSqlDatabase &db, const QStringList &ruleIds)
{
    QHash<QString, RuleStatus> out;
    if (ruleIds.isEmpty())
        return out;
    QVariantList args;
    for (const QString &id : ruleIds)
        args << id;
    auto q = runSql(db,
                    QStringLiteral("SELECT rule_node_id, ") + kStatusColumns
                        + QStringLiteral(" FROM rule_defs WHERE rule_node_id IN (")
                        + SqlText::placeholders(ruleIds.size()) + QLatin1Char(')'),
                    args);
    if (!q)
        return q.error();
    while (q.value().next())
        out.insert(q.value().value(0).toString(), readStatus(q.value(), 1));
    return out;
}

Result<QVector<StoredRule>> rules(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                  const QStringList &states, int limit)
{
    QVariantList args{tenantId, scope};
    for (const QString &s : states)
        args << s;
    args << limit;
    auto q = runSql(
        db,
        QStringLiteral("SELECT rule_node_id, ") + kStatusColumns
            + QStringLiteral(" FROM rule_defs WHERE tenant_id = ? AND scope = ? AND state IN (")
            + SqlText::placeholders(states.size())
            + QStringLiteral(") ORDER BY updated_at DESC, rule_node_id LIMIT ?"),
        args);
    if (!q)
        return q.error();
    QStringList ids;
    QHash<QString, RuleStatus> status;
    while (q.value().next()) {
        ids << q.value().value(0).toString();
        status.insert(ids.last(), readStatus(q.value(), 1));
    }
    QVector<StoredRule> out;
    if (ids.isEmpty())
        return out;
    QVariantList nodeArgs;
    for (const QString &id : ids)
        nodeArgs << id;
    auto nodes = GraphStore::nodesWhere(
        db, QStringLiteral("id IN (") + SqlText::placeholders(ids.size()) + QLatin1Char(')'),
        nodeArgs);
    if (!nodes)
        return nodes.error();
    QHash<QString, NodeRecord> byId;
    for (const NodeRecord &n : nodes.value())
        byId.insert(n.id, n);
    for (const QString &id : ids) {
        if (byId.contains(id))
            out.append({byId.value(id), status.value(id)});
    }
    return out;
}

Result<void> setState(QSqlDatabase &db, const QString &ruleId, const QString &state,
                      const QString &commitId)
{
    auto r = runSql(
        db,
        QStringLiteral("UPDATE rule_defs SET state = ?, state_commit_id = ?, updated_at = ?"
                       " WHERE rule_node_id = ?"),
        {state, commitId, nowMs(), ruleId});
    if (!r)
        return r.error();
    return {};
}

Result<void> recordOutcome(QSqlDatabase &db, const QString &ruleId, const QString &outcome)
{
    const QString column = outcome == QLatin1String("positive")   ? QStringLiteral("positive_count")
                           : outcome == QLatin1String("negative") ? QStringLiteral("negative_count")
                                                                  : QString();
    const QString bump = column.isEmpty()
                             ? QString()
                             : column + QStringLiteral(" = ") + column + QStringLiteral(" + 1, ");
    auto r = runSql(db,
                    QStringLiteral("UPDATE rule_defs SET ") + bump
                        + QStringLiteral("updated_at = ? WHERE rule_node_id = ?"),
                    {nowMs(), ruleId});
    if (!r)
        return r.error();
    return {};
}

Result<void> markMatched(QSqlDatabase &db, const QStringList &ruleIds)
{
    if (ruleIds.isEmpty())
        return {};
    QVariantList args{nowMs()};
    for (const QString &id : ruleIds)
        args << id;
    auto r
        = runSql(db,
                 QStringLiteral("UPDATE rule_defs SET last_matched_at = ? WHERE rule_node_id IN (")
                     + SqlText::placeholders(ruleIds.size()) + QLatin1Char(')'),
                 args);
    if (!r)
        return r.error();
    return {};
}

Result<void> insertDecision(QSqlDatabase &db, const DecisionRecord &d)
{
    auto seq = nextSeq(db, "decisions");
    if (!seq)
        return seq.error();
    auto r = runSql(db,
                    QStringLiteral("INSERT INTO decisions (") + kDecisionColumns
                        + QStringLiteral(", seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"),
                    {d.id, d.tenantId, d.scope, d.kind, text(d.runId), text(d.selectedTool),
                     jsonList(d.candidates), d.contextSha256, d.policySha256,
                     jsonList(d.sourceRuleIds),
                     QJsonDocument(d.metadata).toJson(QJsonDocument::Compact), text(d.commitId),
                     d.createdAt.toMSecsSinceEpoch(), seq.value()});
    if (!r)
        return r.error();
    return {};
}

Result<void> updateDecisionLink(QSqlDatabase &db, const QString &decisionId, const QString &runId,
                                const QString &commitId)
{
    auto r = runSql(db,
                    QStringLiteral("UPDATE decisions SET run_id = COALESCE(run_id, ?),"
                                   " commit_id = COALESCE(?, commit_id) WHERE id = ?"),
                    {text(runId), text(commitId), decisionId});
    if (!r)
        return r.error();
    return {};
}

Result<std::optional<DecisionRecord>> decision(QSqlDatabase &db, const QString &tenantId,
                                               const QString &scope, const QString &decisionId)
{
    auto rows = many<DecisionRecord>(
        db,
        QStringLiteral("SELECT ") + kDecisionColumns
            + QStringLiteral(" FROM decisions WHERE tenant_id = ? AND scope = ? AND id = ?"),
        {tenantId, scope, decisionId}, readDecision);
    if (!rows)
        return rows.error();
    if (rows.value().isEmpty())
        return std::optional<DecisionRecord>();
    return std::optional<DecisionRecord>(rows.value().first());
}

Result<QVector<DecisionRecord>> decisionsForRun(QSqlDatabase &db, const QString &tenantId,
                                                const QString &scope, const QString &runId,
                                                int limit)
{
    return many<DecisionRecord>(
        db,
        QStringLiteral("SELECT ") + kDecisionColumns
            + QStringLiteral(" FROM decisions WHERE tenant_id = ? AND scope = ?"
                             " AND run_id = ? ORDER BY seq DESC LIMIT ?"),
        {tenantId, scope, runId, limit}, readDecision);
}

Result<qint64> decisionCountForRun(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                   const QString &runId)
{
    auto q = runSql(
        db,
        QStringLiteral(
            "SELECT COUNT(*) FROM decisions WHERE tenant_id = ? AND scope = ? AND run_id = ?"),
        {tenantId, scope, runId});
    if (!q)
        return q.error();
    q.value().next();
    return q.value().value(0).toLongLong();
}

Result<QVector<DecisionRecord>> decisionsLike(QSqlDatabase &db, const QString &tenantId,
                                              const QString &scope, const QString &selectedTool,
                                              const QString &contextSha256, qint64 sinceMs,
                                              int limit)
{
    return many<DecisionRecord>(
        db,
        QStringLiteral("SELECT ") + kDecisionColumns
            + QStringLiteral(" FROM decisions WHERE tenant_id = ? AND scope = ?"
                             " AND selected_tool = ? AND context_sha256 = ?"
                             " AND created_at >= ? ORDER BY seq DESC LIMIT ?"),
        {tenantId, scope, selectedTool, contextSha256, sinceMs, limit}, readDecision);
}

Result<QVector<DecisionRecord>> listDecisions(QSqlDatabase &db, const DecisionFilter &f)
{
    QString where = QStringLiteral("tenant_id = ? AND scope = ?");
    QVariantList args{f.tenantId, f.scope};
    if (!f.runId.isEmpty()) {
        where += QStringLiteral(" AND run_id = ?");
        args << f.runId;
    }
    if (!f.tool.isEmpty()) {
        where += QStringLiteral(" AND selected_tool = ?");
        args << f.tool;
    }
    if (f.sinceMs > 0) {
        where += QStringLiteral(" AND created_at >= ?");
        args << f.sinceMs;
    }
    args << f.limit;
    return many<DecisionRecord>(db,
                                QStringLiteral("SELECT ") + kDecisionColumns
                                    + QStringLiteral(" FROM decisions WHERE ") + where
                                    + QStringLiteral(" ORDER BY seq DESC LIMIT ?"),
                                args, readDecision);
}

Result<QVector<RunSummary>> runSummaries(QSqlDatabase &db, const RunFilter &f)
{
    // One row per run: its decisions (count, latest by seq) and its feedback rows.
    QString where;
    QVariantList args{f.tenantId, f.scope, f.tenantId, f.scope};
    const auto add = [&where, &args](const QString &clause, const QVariant &value) {
        where += (where.isEmpty() ? QStringLiteral(" WHERE ") : QStringLiteral(" AND ")) + clause;
        args << value;
    };
    if (f.status == QLatin1String("feedback_linked"))
        where = QStringLiteral(" WHERE COALESCE(fb.total, 0) > 0");
    else if (f.status == QLatin1String("decision_recorded"))
        where = QStringLiteral(" WHERE COALESCE(fb.total, 0) = 0");
    if (!f.selectedTool.isEmpty())
        add(QStringLiteral("d.selected_tool = ?"), f.selectedTool);
    if (f.sinceMs > 0)
        add(QStringLiteral("r.latest_at >= ?"), f.sinceMs);
    if (f.untilMs > 0)
        add(QStringLiteral("r.latest_at < ?"), f.untilMs);
    if (f.afterSeq > 0) {
        where += (where.isEmpty() ? QStringLiteral(" WHERE ") : QStringLiteral(" AND "))
                 + QStringLiteral("(r.latest_at < ? OR (r.latest_at = ? AND r.last_seq < ?))");
        args << f.afterMs << f.afterMs << f.afterSeq;
    }
    args << f.limit;
    const QString sql = QStringLiteral(
        "WITH r AS (SELECT run_id, COUNT(*) AS n, MAX(created_at) AS latest_at,"
        " MAX(seq) AS last_seq FROM decisions WHERE tenant_id = ? AND scope = ?"
        " AND run_id IS NOT NULL GROUP BY run_id),"
        " fb AS (SELECT run_id, COUNT(*) AS total, SUM(outcome = 'positive') AS pos,"
        " SUM(outcome = 'negative') AS neg, SUM(outcome = 'neutral') AS neu,"
        " MAX(created_at) AS latest_at FROM rule_feedback WHERE tenant_id = ? AND scope = ?"
        " AND run_id IS NOT NULL GROUP BY run_id)"
        " SELECT r.run_id, r.n, r.latest_at, r.last_seq, d.selected_tool,"
        " COALESCE(fb.total, 0), COALESCE(fb.pos, 0), COALESCE(fb.neg, 0), COALESCE(fb.neu, 0),"
        " fb.latest_at FROM r JOIN decisions d ON d.seq = r.last_seq"
        " LEFT JOIN fb ON fb.run_id = r.run_id");
    return many<RunSummary>(
        db, sql + where + QStringLiteral(" ORDER BY r.latest_at DESC, r.last_seq DESC LIMIT ?"),
        args, [](const QSqlQuery &q) {
            RunSummary s;
            s.runId = q.value(0).toString();
            s.decisionCount = q.value(1).toLongLong();
            s.latestDecisionAt = fromMillis(q.value(2));
            s.latestSeq = q.value(3).toLongLong();
            s.latestSelectedTool = q.value(4).toString();
            s.feedbackTotal = q.value(5).toLongLong();
            s.positive = q.value(6).toLongLong();
            s.negative = q.value(7).toLongLong();
            s.neutral = q.value(8).toLongLong();
            s.latestFeedbackAt = fromMillis(q.value(9));
            s.status = s.feedbackTotal > 0 ? QStringLiteral("feedback_linked")
                                           : QStringLiteral("decision_recorded");
            return s;
        });
}

Result<void> insertFeedback(QSqlDatabase &db, const FeedbackRecord &f)
{
    auto seq = nextSeq(db, "rule_feedback");
    if (!seq)
        return seq.error();
    auto r = runSql(db,
                    QStringLiteral("INSERT INTO rule_feedback (") + kFeedbackColumns
                        + QStringLiteral(", seq) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)"),
                    {f.id, f.tenantId, f.scope, text(f.ruleNodeId), text(f.runId), f.outcome,
                     text(f.note), f.source, text(f.decisionId), text(f.commitId),
                     f.createdAt.toMSecsSinceEpoch(), seq.value()});
    if (!r)
        return r.error();
    return {};
}

Result<QVector<FeedbackRecord>> feedbackWhere(QSqlDatabase &db, const QString &tenantId,
                                              const QString &scope, const QString &column,
                                              const QString &value, int limit)
{
    return many<FeedbackRecord>(
        db,
        QStringLiteral("SELECT ") + kFeedbackColumns
            + QStringLiteral(" FROM rule_feedback WHERE tenant_id = ? AND scope = ? AND ") + column
            + QStringLiteral(" = ? ORDER BY seq DESC LIMIT ?"),
        {tenantId, scope, value, limit}, readFeedback);
}

Result<qint64> feedbackCount(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                             const QString &column, const QString &value, const QString &extra)
{
    auto q = runSql(
        db,
        QStringLiteral("SELECT COUNT(*) FROM rule_feedback WHERE tenant_id = ? AND scope = ? AND ")
            + column + QStringLiteral(" = ?")
            + (extra.isEmpty() ? QString() : QStringLiteral(" AND ") + extra),
        {tenantId, scope, value});
    if (!q)
        return q.error();
    q.value().next();
    return q.value().value(0).toLongLong();
}

Result<void> visitRuleStates(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                             const std::function<bool(const QString &ruleNodeId, const RuleStatus &,
                                                      const QDateTime &)> &visit)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT rule_node_id, ") + kStatusColumns
                        + QStringLiteral(", created_at FROM rule_defs WHERE tenant_id = ?"
                                         " AND scope = ? ORDER BY created_at, rule_node_id"),
                    {tenantId, scope});
    if (!q)
        return q.error();
    while (q.value().next()) {
        if (!visit(q.value().value(0).toString(), readStatus(q.value(), 1),
                   fromMillis(q.value().value(7))))
            return {};
    }
    return {};
}

Result<void> visitDecisions(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                            const std::function<bool(const DecisionRecord &)> &visit)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + kDecisionColumns
                        + QStringLiteral(" FROM decisions WHERE tenant_id = ? AND scope = ?"
                                         " ORDER BY seq"),
                    {tenantId, scope});
    if (!q)
        return q.error();
    while (q.value().next()) {
        if (!visit(readDecision(q.value())))
            return {};
    }
    return {};
}

Result<void> visitFeedback(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                           const std::function<bool(const FeedbackRecord &)> &visit)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + kFeedbackColumns
                        + QStringLiteral(" FROM rule_feedback WHERE tenant_id = ? AND scope = ?"
                                         " ORDER BY seq"),
                    {tenantId, scope});
    if (!q)
        return q.error();
    while (q.value().next()) {
        if (!visit(readFeedback(q.value())))
            return {};
    }
    return {};
}

} // namespace MemoryGraph::RuleStore
