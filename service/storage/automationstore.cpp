#include "service/storage/automationstore.h"

#include "service/core/ids.h"
#include "service/storage/database.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QSqlQuery>

namespace MemoryGraph {

int RunState::indexOf(const QString &nodeId) const
{
    for (int i = 0; i < nodes.size(); ++i) {
        if (nodes[i].nodeId == nodeId)
            return i;
    }
    return -1;
}

QJsonObject RunState::nodeDef(const QString &nodeId) const
{
    for (const QJsonValue &n : graph.value(QStringLiteral("nodes")).toArray()) {
        if (n.toObject().value(QStringLiteral("node_id")).toString() == nodeId)
            return n.toObject();
    }
    return {};
}

namespace AutomationRows {

namespace {

const char *const kRunColumns[] = {"run_id",
                                   "tenant_id",
                                   "scope",
                                   "automation_id",
                                   "automation_version",
                                   "requested_by",
                                   "lifecycle_state",
                                   "pause_reason",
                                   "terminal_outcome",
                                   "status_summary",
                                   "root_cause_code",
                                   "root_cause_node_id",
                                   "root_cause_message",
                                   "params_json",
                                   "context_json",
                                   "summary_json",
                                   "output_snapshot_json",
                                   "compensation_attempted",
                                   "compensation_status",
                                   "compensation_summary_json",
                                   "execution_mode",
                                   "ever_paused",
                                   "started_at",
                                   "paused_at",
                                   "ended_at",
                                   "created_at",
                                   "updated_at"};

const char *const kNodeColumns[] = {"run_id",
                                    "node_id",
                                    "topo_index",
                                    "attempt",
                                    "node_kind",
                                    "lifecycle_state",
                                    "pause_reason",
                                    "terminal_outcome",
                                    "status_summary",
                                    "depends_on_json",
                                    "blocking_node_ids_json",
                                    "error_code",
                                    "error_message",
                                    "playbook_id",
                                    "playbook_version",
                                    "playbook_run_id",
                                    "awaiting_replay",
                                    "approval_id",
                                    "input_snapshot_json",
                                    "output_snapshot_json",
                                    "artifact_refs_json",
                                    "compensation_mode",
                                    "compensation_ref_json",
                                    "compensation_run_id",
                                    "compensation_status",
                                    "started_at",
                                    "paused_at",
                                    "ended_at",
                                    "created_at",
                                    "updated_at"};

template<size_t N> QString columnList(const char *const (&cols)[N])
{
    QStringList names;
    for (const char *c : cols)
        names << QLatin1String(c);
    return names.join(QStringLiteral(", "));
}

/// INSERT ... ON CONFLICT(key) DO UPDATE: never a delete, so a run's nodes stay.
template<size_t N>
QString upsertSql(const QString &table, const char *const (&cols)[N], const QString &key)
{
    QStringList marks, sets;
    for (const char *c : cols) {
        marks << QStringLiteral("?");
        sets << QStringLiteral("%1 = excluded.%1").arg(QLatin1String(c));
    }
    return QStringLiteral("INSERT INTO %1 (%2) VALUES (%3) ON CONFLICT(%4) DO UPDATE SET %5")
        .arg(table, columnList(cols), marks.join(QStringLiteral(", ")), key,
             sets.join(QStringLiteral(", ")));
}

QVariant ms(qint64 v)
{
    return v > 0 ? QVariant(v) : QVariant();
}

QVariant text(const QString &s)
{
    return s.isEmpty() ? QVariant() : QVariant(s);
}

QJsonObject objectOf(const QVariant &v)
{
    return QJsonDocument::fromJson(v.toString().toUtf8()).object();
}

QJsonArray arrayOf(const QVariant &v)
{
    return QJsonDocument::fromJson(v.toString().toUtf8()).array();
}

RunRow runFrom(const QSqlQuery &q)
{
    RunRow r;
    int i = 0;
    r.runId = q.value(i++).toString();
    r.tenantId = q.value(i++).toString();
    r.scope = q.value(i++).toString();
    r.automationId = q.value(i++).toString();
    r.version = q.value(i++).toInt();
    r.requestedBy = q.value(i++).toString();
    r.state = q.value(i++).toString();
    r.pauseReason = q.value(i++).toString();
    r.outcome = q.value(i++).toString();
    r.statusSummary = q.value(i++).toString();
    r.rootCauseCode = q.value(i++).toString();
    r.rootCauseNodeId = q.value(i++).toString();
    r.rootCauseMessage = q.value(i++).toString();
    r.params = objectOf(q.value(i++));
    r.context = objectOf(q.value(i++));
    r.summary = objectOf(q.value(i++));
    r.output = objectOf(q.value(i++));
    r.compensationAttempted = q.value(i++).toInt() != 0;
    r.compensationStatus = q.value(i++).toString();
    r.compensationSummary = objectOf(q.value(i++));
    r.mode = q.value(i++).toString();
    r.everPaused = q.value(i++).toInt() != 0;
    r.startedAt = q.value(i++).toLongLong();
    r.pausedAt = q.value(i++).toLongLong();
    r.endedAt = q.value(i++).toLongLong();
    r.createdAt = q.value(i++).toLongLong();
    r.updatedAt = q.value(i++).toLongLong();
    return r;
}

NodeRow nodeFrom(const QSqlQuery &q)
{
    NodeRow n;
    int i = 0;
    n.runId = q.value(i++).toString();
    n.nodeId = q.value(i++).toString();
    n.topoIndex = q.value(i++).toInt();
    n.attempt = q.value(i++).toInt();
    n.kind = q.value(i++).toString();
    n.state = q.value(i++).toString();
    n.pauseReason = q.value(i++).toString();
    n.outcome = q.value(i++).toString();
    n.statusSummary = q.value(i++).toString();
    n.dependsOn = arrayOf(q.value(i++));
    n.blocking = arrayOf(q.value(i++));
    n.errorCode = q.value(i++).toString();
    n.errorMessage = q.value(i++).toString();
    n.playbookId = q.value(i++).toString();
    n.playbookVersion = q.value(i++).toInt();
    n.playbookRunId = q.value(i++).toString();
    n.awaitingReplay = q.value(i++).toInt() != 0;
    n.approvalId = q.value(i++).toString();
    n.input = objectOf(q.value(i++));
    n.output = objectOf(q.value(i++));
    n.artifactRefs = arrayOf(q.value(i++));
    n.compensationMode = q.value(i++).toString();
    n.compensationRef = objectOf(q.value(i++));
    n.compensationRunId = q.value(i++).toString();
    n.compensationStatus = q.value(i++).toString();
    n.startedAt = q.value(i++).toLongLong();
    n.pausedAt = q.value(i++).toLongLong();
    n.endedAt = q.value(i++).toLongLong();
    n.createdAt = q.value(i++).toLongLong();
    n.updatedAt = q.value(i++).toLongLong();
    return n;
}

const QString kDefColumns = QStringLiteral(
    "automation_id, name, status, latest_version, input_contract_json, output_contract_json,"
    " metadata_json, actor, created_at, updated_at");

DefRow defFrom(const QSqlQuery &q)
{
    DefRow d;
    d.automationId = q.value(0).toString();
    d.name = q.value(1).toString();
    d.status = q.value(2).toString();
    d.latestVersion = q.value(3).toInt();
    d.inputContract = objectOf(q.value(4));
    d.outputContract = objectOf(q.value(5));
    d.metadata = objectOf(q.value(6));
    d.actor = q.value(7).toString();
    d.createdAt = q.value(8).toLongLong();
    d.updatedAt = q.value(9).toLongLong();
    return d;
}

const QString kVersionColumns = QStringLiteral(
    "version, name, status, graph_json, compile_summary_json, input_contract_json,"
    " output_contract_json, metadata_json, actor, note, promoted_from_version, created_at");

VersionRow versionFrom(const QSqlQuery &q)
{
    VersionRow v;
    v.version = q.value(0).toInt();
    v.name = q.value(1).toString();
    v.status = q.value(2).toString();
    v.graph = objectOf(q.value(3));
    v.compileSummary = objectOf(q.value(4));
    v.inputContract = objectOf(q.value(5));
    v.outputContract = objectOf(q.value(6));
    v.metadata = objectOf(q.value(7));
    v.actor = q.value(8).toString();
    v.note = q.value(9).toString();
    v.promotedFrom = q.value(10).toInt();
    v.createdAt = q.value(11).toLongLong();
    return v;
}

const QString kReviewColumns = QStringLiteral(
    "id, automation_id, run_id, version, kind, verdict, reviewer, owner, escalation_owner,"
    " sla_target_at, note, actor, created_at");

ReviewRow reviewFrom(const QSqlQuery &q)
{
    ReviewRow r;
    r.id = q.value(0).toString();
    r.automationId = q.value(1).toString();
    r.runId = q.value(2).toString();
    r.version = q.value(3).toInt();
    r.kind = q.value(4).toString();
    r.verdict = q.value(5).toString();
    r.reviewer = q.value(6).toString();
    r.owner = q.value(7).toString();
    r.escalationOwner = q.value(8).toString();
    r.slaTargetAt = q.value(9).toLongLong();
    r.note = q.value(10).toString();
    r.actor = q.value(11).toString();
    r.createdAt = q.value(12).toLongLong();
    return r;
}

Result<qint64> nextSeq(QSqlDatabase &db, const QString &table)
{
    auto q = runSql(db, QStringLiteral("SELECT COALESCE(MAX(seq), 0) + 1 FROM ") + table);
    if (!q)
        return q.error();
    return q.value().next() ? q.value().value(0).toLongLong() : 1;
}

} // namespace

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QJsonValue isoOrNull(qint64 ms)
{
    if (ms <= 0)
        return QJsonValue();
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

QJsonValue nullableText(const QString &text)
{
    return text.isEmpty() ? QJsonValue() : QJsonValue(text);
}

QString compactJson(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QString compactJson(const QJsonArray &a)
{
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

QString statusSummary(const QString &state, const QString &pauseReason, const QString &outcome)
{
    if (state == QLatin1String("paused")) {
        if (pauseReason == QLatin1String("approval_required"))
            return QStringLiteral("paused_for_approval");
        if (pauseReason == QLatin1String("repair_required"))
            return QStringLiteral("paused_for_repair");
        return QStringLiteral("paused");
    }
    if (state == QLatin1String("terminal") && !outcome.isEmpty())
        return outcome;
    return state;
}

QJsonObject definitionJson(const DefRow &d)
{
    return {{QStringLiteral("automation_id"), d.automationId},
            {QStringLiteral("name"), d.name},
            {QStringLiteral("status"), d.status},
            {QStringLiteral("latest_version"), d.latestVersion},
            {QStringLiteral("input_contract"), d.inputContract},
            {QStringLiteral("output_contract"), d.outputContract},
            {QStringLiteral("metadata"), d.metadata},
            {QStringLiteral("actor"), nullableText(d.actor)},
            {QStringLiteral("created_at"), isoOrNull(d.createdAt)},
            {QStringLiteral("updated_at"), isoOrNull(d.updatedAt)}};
}

QJsonObject automationJson(const DefRow &d, const VersionRow &v)
{
    QJsonObject o = definitionJson(d);
    o.insert(QStringLiteral("version"), v.version);
    o.insert(QStringLiteral("version_status"), v.status);
    o.insert(QStringLiteral("graph"), v.graph);
    o.insert(QStringLiteral("compile_summary"), v.compileSummary);
    return o;
}

QJsonObject runJson(const RunRow &r)
{
    return {{QStringLiteral("run_id"), r.runId},
            {QStringLiteral("tenant_id"), r.tenantId},
            {QStringLiteral("scope"), r.scope},
            {QStringLiteral("automation_id"), r.automationId},
            {QStringLiteral("automation_version"), r.version},
            {QStringLiteral("requested_by"), nullableText(r.requestedBy)},
            {QStringLiteral("lifecycle_state"), r.state},
            {QStringLiteral("pause_reason"), nullableText(r.pauseReason)},
            {QStringLiteral("terminal_outcome"), nullableText(r.outcome)},
            {QStringLiteral("status_summary"), r.statusSummary},
            {QStringLiteral("root_cause_code"), nullableText(r.rootCauseCode)},
            {QStringLiteral("root_cause_node_id"), nullableText(r.rootCauseNodeId)},
            {QStringLiteral("root_cause_message"), nullableText(r.rootCauseMessage)},
            {QStringLiteral("params_json"), r.params},
            {QStringLiteral("context_json"), r.context},
            {QStringLiteral("summary_json"), r.summary},
            {QStringLiteral("output_snapshot_json"), r.output},
            {QStringLiteral("compensation_attempted"), r.compensationAttempted},
            {QStringLiteral("compensation_status"), nullableText(r.compensationStatus)},
            {QStringLiteral("compensation_summary_json"), r.compensationSummary},
            {QStringLiteral("started_at"), isoOrNull(r.startedAt)},
            {QStringLiteral("paused_at"), isoOrNull(r.pausedAt)},
            {QStringLiteral("ended_at"), isoOrNull(r.endedAt)},
            {QStringLiteral("created_at"), isoOrNull(r.createdAt)},
            {QStringLiteral("updated_at"), isoOrNull(r.updatedAt)},
            {QStringLiteral("execution_mode"), r.mode},
            {QStringLiteral("version"), r.version}};
}

QJsonObject nodeJson(const NodeRow &n)
{
    return {{QStringLiteral("run_id"), n.runId},
            {QStringLiteral("node_id"), n.nodeId},
            {QStringLiteral("attempt"), n.attempt},
            {QStringLiteral("node_kind"), n.kind},
            {QStringLiteral("lifecycle_state"), n.state},
            {QStringLiteral("pause_reason"), nullableText(n.pauseReason)},
            {QStringLiteral("terminal_outcome"), nullableText(n.outcome)},
            {QStringLiteral("status_summary"), n.statusSummary},
            {QStringLiteral("depends_on_json"), n.dependsOn},
            {QStringLiteral("blocking_node_ids_json"), n.blocking},
            {QStringLiteral("error_code"), nullableText(n.errorCode)},
            {QStringLiteral("error_message"), nullableText(n.errorMessage)},
            {QStringLiteral("playbook_id"), nullableText(n.playbookId)},
            {QStringLiteral("playbook_version"),
             n.playbookVersion > 0 ? QJsonValue(n.playbookVersion) : QJsonValue()},
            {QStringLiteral("playbook_run_id"), nullableText(n.playbookRunId)},
            {QStringLiteral("approval_id"), nullableText(n.approvalId)},
            {QStringLiteral("input_snapshot_json"), n.input},
            {QStringLiteral("output_snapshot_json"), n.output},
            {QStringLiteral("artifact_refs_json"), n.artifactRefs},
            {QStringLiteral("compensation_mode"), nullableText(n.compensationMode)},
            {QStringLiteral("compensation_ref_json"), n.compensationRef},
            {QStringLiteral("compensation_run_id"), nullableText(n.compensationRunId)},
            {QStringLiteral("compensation_status"), nullableText(n.compensationStatus)},
            {QStringLiteral("started_at"), isoOrNull(n.startedAt)},
            {QStringLiteral("paused_at"), isoOrNull(n.pausedAt)},
            {QStringLiteral("ended_at"), isoOrNull(n.endedAt)},
            {QStringLiteral("updated_at"), isoOrNull(n.updatedAt)},
            {QStringLiteral("created_at"), isoOrNull(n.createdAt)}};
}

QJsonObject reviewJson(const ReviewRow &r)
{
    QJsonObject o{{QStringLiteral("review_id"), r.id},
                  {QStringLiteral("kind"), r.kind},
                  {QStringLiteral("automation_id"), r.automationId},
                  {QStringLiteral("note"), nullableText(r.note)},
                  {QStringLiteral("actor"), nullableText(r.actor)},
                  {QStringLiteral("created_at"), isoOrNull(r.createdAt)}};
    if (!r.runId.isEmpty())
        o.insert(QStringLiteral("run_id"), r.runId);
    if (r.version > 0)
        o.insert(QStringLiteral("version"), r.version);
    if (!r.verdict.isEmpty())
        o.insert(QStringLiteral("verdict"), r.verdict);
    if (!r.reviewer.isEmpty())
        o.insert(QStringLiteral("reviewer"), r.reviewer);
    if (r.kind == QLatin1String("compensation_assignment")) {
        o.insert(QStringLiteral("owner"), nullableText(r.owner));
        o.insert(QStringLiteral("escalation_owner"), nullableText(r.escalationOwner));
        o.insert(QStringLiteral("sla_target_at"), isoOrNull(r.slaTargetAt));
    }
    return o;
}

QJsonObject actionJson(const ActionRow &a)
{
    return {{QStringLiteral("action_id"), a.id},
            {QStringLiteral("run_id"), a.runId},
            {QStringLiteral("node_id"), nullableText(a.nodeId)},
            {QStringLiteral("action"), a.action},
            {QStringLiteral("note"), nullableText(a.note)},
            {QStringLiteral("external_ref"), nullableText(a.externalRef)},
            {QStringLiteral("actor"), nullableText(a.actor)},
            {QStringLiteral("created_at"), isoOrNull(a.createdAt)}};
}

QJsonObject shadowRequestJson(const ShadowRequestRow &s)
{
    return {{QStringLiteral("request_id"), s.requestId},
            {QStringLiteral("automation_id"), s.automationId},
            {QStringLiteral("shadow_version"), s.version},
            {QStringLiteral("status"), s.status},
            {QStringLiteral("params"), s.params},
            {QStringLiteral("run_id"), nullableText(s.runId)},
            {QStringLiteral("error_code"), nullableText(s.errorCode)},
            {QStringLiteral("requested_by"), nullableText(s.requestedBy)},
            {QStringLiteral("created_at"), isoOrNull(s.createdAt)},
            {QStringLiteral("updated_at"), isoOrNull(s.updatedAt)}};
}

Result<std::optional<DefRow>> findDef(QSqlDatabase &db, const QString &tenant, const QString &scope,
                                      const QString &automationId)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + kDefColumns
                        + QStringLiteral(" FROM automation_defs WHERE tenant_id = ? AND scope = ?"
                                         " AND automation_id = ?"),
                    {tenant, scope, automationId});
    if (!q)
        return q.error();
    if (!q.value().next())
        return std::optional<DefRow>();
    return std::optional<DefRow>(defFrom(q.value()));
}

Result<QVector<DefRow>> listDefs(QSqlDatabase &db, const QString &tenant, const QString &scope,
                                 const QString &status, int limit)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + kDefColumns
                        + QStringLiteral(" FROM automation_defs WHERE tenant_id = ? AND scope = ?"
                                         " AND (? IS NULL OR status = ?)"
                                         " ORDER BY updated_at DESC, automation_id LIMIT ?"),
                    {tenant, scope, text(status), text(status), limit});
    if (!q)
        return q.error();
    QVector<DefRow> out;
    while (q.value().next())
        out.append(defFrom(q.value()));
    return out;
}

Result<void> saveDef(QSqlDatabase &db, const QString &tenant, const QString &scope, const DefRow &d)
{
    auto q = runSql(
        db,
        QStringLiteral("INSERT INTO automation_defs (tenant_id, scope, ") + kDefColumns
            + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                             " ON CONFLICT(tenant_id, scope, automation_id) DO UPDATE SET"
                             " name = excluded.name, status = excluded.status,"
                             " latest_version = excluded.latest_version,"
                             " input_contract_json = excluded.input_contract_json,"
                             " output_contract_json = excluded.output_contract_json,"
                             " metadata_json = excluded.metadata_json, actor = excluded.actor,"
                             " updated_at = excluded.updated_at"),
        {tenant, scope, d.automationId, d.name, d.status, d.latestVersion,
         compactJson(d.inputContract), compactJson(d.outputContract), compactJson(d.metadata),
         text(d.actor), d.createdAt, d.updatedAt});
    if (!q)
        return q.error();
    return {};
}

Result<std::optional<VersionRow>> findVersion(QSqlDatabase &db, const QString &tenant,
                                              const QString &scope, const QString &automationId,
                                              int version)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + kVersionColumns
                        + QStringLiteral(" FROM automation_versions WHERE tenant_id = ?"
                                         " AND scope = ? AND automation_id = ? AND version = ?"),
                    {tenant, scope, automationId, version});
    if (!q)
        return q.error();
    if (!q.value().next())
        return std::optional<VersionRow>();
    return std::optional<VersionRow>(versionFrom(q.value()));
}

Result<QVector<VersionRow>> listVersions(QSqlDatabase &db, const QString &tenant,
                                         const QString &scope, const QString &automationId)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + kVersionColumns
                        + QStringLiteral(" FROM automation_versions WHERE tenant_id = ?"
                                         " AND scope = ? AND automation_id = ?"
                                         " ORDER BY version DESC"),
                    {tenant, scope, automationId});
    if (!q)
        return q.error();
    QVector<VersionRow> out;
    while (q.value().next())
        out.append(versionFrom(q.value()));
    return out;
}

Result<void> insertVersion(QSqlDatabase &db, const QString &tenant, const QString &scope,
                           const QString &automationId, const VersionRow &v)
{
    auto q = runSql(db,
                    QStringLiteral("INSERT INTO automation_versions (tenant_id, scope,"
                                   " automation_id, ")
                        + kVersionColumns
                        + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                    {tenant, scope, automationId, v.version, v.name, v.status, compactJson(v.graph),
                     compactJson(v.compileSummary), compactJson(v.inputContract),
                     compactJson(v.outputContract), compactJson(v.metadata), text(v.actor),
                     text(v.note), v.promotedFrom > 0 ? QVariant(v.promotedFrom) : QVariant(),
                     v.createdAt});
    if (!q)
        return q.error();
    return {};
}

Result<void> saveRun(QSqlDatabase &db, const RunRow &r)
{
    static const QString sql
        = upsertSql(QStringLiteral("automation_runs"), kRunColumns, QStringLiteral("run_id"));
    auto q = runSql(db, sql,
                    {r.runId,
                     r.tenantId,
                     r.scope,
                     r.automationId,
                     r.version,
                     text(r.requestedBy),
                     r.state,
                     text(r.pauseReason),
                     text(r.outcome),
                     r.statusSummary,
                     text(r.rootCauseCode),
                     text(r.rootCauseNodeId),
                     text(r.rootCauseMessage),
                     compactJson(r.params),
                     compactJson(r.context),
                     compactJson(r.summary),
                     compactJson(r.output),
                     r.compensationAttempted ? 1 : 0,
                     text(r.compensationStatus),
                     compactJson(r.compensationSummary),
                     r.mode,
                     r.everPaused ? 1 : 0,
                     ms(r.startedAt),
                     ms(r.pausedAt),
                     ms(r.endedAt),
                     r.createdAt,
                     r.updatedAt});
    if (!q)
        return q.error();
    return {};
}

Result<void> saveNode(QSqlDatabase &db, const NodeRow &n)
{
    static const QString sql = upsertSql(QStringLiteral("automation_run_nodes"), kNodeColumns,
                                         QStringLiteral("run_id, node_id"));
    auto q = runSql(db, sql,
                    {n.runId,
                     n.nodeId,
                     n.topoIndex,
                     n.attempt,
                     n.kind,
                     n.state,
                     text(n.pauseReason),
                     text(n.outcome),
                     n.statusSummary,
                     compactJson(n.dependsOn),
                     compactJson(n.blocking),
                     text(n.errorCode),
                     text(n.errorMessage),
                     text(n.playbookId),
                     n.playbookVersion > 0 ? QVariant(n.playbookVersion) : QVariant(),
                     text(n.playbookRunId),
                     n.awaitingReplay ? 1 : 0,
                     text(n.approvalId),
                     compactJson(n.input),
                     compactJson(n.output),
                     compactJson(n.artifactRefs),
                     text(n.compensationMode),
                     compactJson(n.compensationRef),
                     text(n.compensationRunId),
                     text(n.compensationStatus),
                     ms(n.startedAt),
                     ms(n.pausedAt),
                     ms(n.endedAt),
                     n.createdAt,
                     n.updatedAt});
    if (!q)
        return q.error();
    return {};
}

Result<std::optional<RunRow>> findRun(QSqlDatabase &db, const QString &runId)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + columnList(kRunColumns)
                        + QStringLiteral(" FROM automation_runs WHERE run_id = ?"),
                    {runId});
    if (!q)
        return q.error();
    if (!q.value().next())
        return std::optional<RunRow>();
    return std::optional<RunRow>(runFrom(q.value()));
}

Result<QVector<NodeRow>> nodesOf(QSqlDatabase &db, const QString &runId)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + columnList(kNodeColumns)
                        + QStringLiteral(" FROM automation_run_nodes WHERE run_id = ?"
                                         " ORDER BY topo_index"),
                    {runId});
    if (!q)
        return q.error();
    QVector<NodeRow> out;
    while (q.value().next())
        out.append(nodeFrom(q.value()));
    return out;
}

Result<QVector<RunRow>> listRuns(QSqlDatabase &db, const QString &tenant, const QString &scope,
                                 const QString &automationId, qint64 createdSince, int limit)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + columnList(kRunColumns)
                        + QStringLiteral(" FROM automation_runs WHERE tenant_id = ? AND scope = ?"
                                         " AND (? IS NULL OR automation_id = ?)"
                                         " AND created_at >= ?"
                                         " ORDER BY created_at DESC, run_id LIMIT ?"),
                    {tenant, scope, text(automationId), text(automationId), createdSince, limit});
    if (!q)
        return q.error();
    QVector<RunRow> out;
    while (q.value().next())
        out.append(runFrom(q.value()));
    return out;
}

Result<QStringList> runIdsInStates(QSqlDatabase &db, const QStringList &states)
{
    QStringList marks;
    QVariantList bindings;
    for (const QString &s : states) {
        marks << QStringLiteral("?");
        bindings << s;
    }
    auto q = runSql(db,
                    QStringLiteral("SELECT run_id FROM automation_runs WHERE lifecycle_state IN (")
                        + marks.join(QStringLiteral(", "))
                        + QStringLiteral(") ORDER BY created_at, run_id"),
                    bindings);
    if (!q)
        return q.error();
    QStringList out;
    while (q.value().next())
        out << q.value().value(0).toString();
    return out;
}

Result<std::optional<std::pair<QString, QString>>> nodeAwaitingReplay(QSqlDatabase &db,
                                                                      const QString &replayRunId)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT run_id, node_id FROM automation_run_nodes"
                                   " WHERE awaiting_replay = 1 AND playbook_run_id = ? LIMIT 1"),
                    {replayRunId});
    if (!q)
        return q.error();
    if (!q.value().next())
        return std::optional<std::pair<QString, QString>>();
    return std::optional<std::pair<QString, QString>>(
        std::make_pair(q.value().value(0).toString(), q.value().value(1).toString()));
}

Result<void> insertReview(QSqlDatabase &db, const QString &tenant, const QString &scope,
                          ReviewRow &r)
{
    auto seq = nextSeq(db, QStringLiteral("automation_reviews"));
    if (!seq)
        return seq.error();
    if (r.id.isEmpty())
        r.id = randomUuid();
    if (r.createdAt == 0)
        r.createdAt = nowMs();
    auto q = runSql(
        db,
        QStringLiteral("INSERT INTO automation_reviews (tenant_id, scope, seq, ") + kReviewColumns
            + QStringLiteral(") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        {tenant, scope, seq.value(), r.id, r.automationId, text(r.runId),
         r.version > 0 ? QVariant(r.version) : QVariant(), r.kind, text(r.verdict),
         text(r.reviewer), text(r.owner), text(r.escalationOwner), ms(r.slaTargetAt), text(r.note),
         text(r.actor), r.createdAt});
    if (!q)
        return q.error();
    return {};
}

Result<QJsonArray> shadowReviews(QSqlDatabase &db, const QString &tenant, const QString &scope,
                                 const QString &automationId)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + kReviewColumns
                        + QStringLiteral(" FROM automation_reviews WHERE tenant_id = ? AND"
                                         " scope = ? AND automation_id = ? AND kind ="
                                         " 'shadow_review' ORDER BY seq"),
                    {tenant, scope, automationId});
    if (!q)
        return q.error();
    QJsonArray out;
    while (q.value().next())
        out.append(reviewJson(reviewFrom(q.value())));
    return out;
}

Result<QVector<ReviewRow>> runReviews(QSqlDatabase &db, const QString &runId)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT ") + kReviewColumns
                        + QStringLiteral(" FROM automation_reviews WHERE run_id = ? ORDER BY seq"),
                    {runId});
    if (!q)
        return q.error();
    QVector<ReviewRow> out;
    while (q.value().next())
        out.append(reviewFrom(q.value()));
    return out;
}

Result<void> insertAction(QSqlDatabase &db, const QString &tenant, const QString &scope,
                          ActionRow &a)
{
    auto seq = nextSeq(db, QStringLiteral("automation_compensation_actions"));
    if (!seq)
        return seq.error();
    if (a.id.isEmpty())
        a.id = randomUuid();
    if (a.createdAt == 0)
        a.createdAt = nowMs();
    auto q = runSql(db,
                    QStringLiteral("INSERT INTO automation_compensation_actions (id, tenant_id,"
                                   " scope, run_id, node_id, action, note, external_ref, actor,"
                                   " created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
                    {a.id, tenant, scope, a.runId, text(a.nodeId), a.action, text(a.note),
                     text(a.externalRef), text(a.actor), a.createdAt, seq.value()});
    if (!q)
        return q.error();
    return {};
}

Result<QVector<ActionRow>> actionsOf(QSqlDatabase &db, const QString &runId)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT id, run_id, node_id, action, note, external_ref, actor,"
                                   " created_at FROM automation_compensation_actions"
                                   " WHERE run_id = ? ORDER BY seq"),
                    {runId});
    if (!q)
        return q.error();
    QVector<ActionRow> out;
    while (q.value().next()) {
        const QSqlQuery &r = q.value();
        out.append({r.value(0).toString(), r.value(1).toString(), r.value(2).toString(),
                    r.value(3).toString(), r.value(4).toString(), r.value(5).toString(),
                    r.value(6).toString(), r.value(7).toLongLong()});
    }
    return out;
}

Result<void> saveShadowRequest(QSqlDatabase &db, const ShadowRequestRow &s)
{
    auto q = runSql(
        db,
        QStringLiteral("INSERT INTO automation_shadow_requests (request_id, tenant_id, scope,"
                       " automation_id, version, status, params_json, run_id, error_code,"
                       " requested_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
                       " ?, ?, ?) ON CONFLICT(request_id) DO UPDATE SET status = excluded.status,"
                       " run_id = excluded.run_id, error_code = excluded.error_code,"
                       " updated_at = excluded.updated_at"),
        {s.requestId, s.tenantId, s.scope, s.automationId, s.version, s.status,
         compactJson(s.params), text(s.runId), text(s.errorCode), text(s.requestedBy), s.createdAt,
         s.updatedAt});
    if (!q)
        return q.error();
    return {};
}

Result<QVector<ShadowRequestRow>> queuedShadowRequests(QSqlDatabase &db, const QString &tenant,
                                                       const QString &scope, int limit)
{
    auto q = runSql(db,
                    QStringLiteral("SELECT request_id, tenant_id, scope, automation_id, version,"
                                   " status, params_json, run_id, error_code, requested_by,"
                                   " created_at, updated_at FROM automation_shadow_requests"
                                   " WHERE tenant_id = ? AND scope = ? AND status = 'queued'"
                                   " ORDER BY created_at, request_id LIMIT ?"),
                    {tenant, scope, limit});
    if (!q)
        return q.error();
    QVector<ShadowRequestRow> out;
    while (q.value().next()) {
        const QSqlQuery &r = q.value();
        ShadowRequestRow s;
        s.requestId = r.value(0).toString();
        s.tenantId = r.value(1).toString();
        s.scope = r.value(2).toString();
        s.automationId = r.value(3).toString();
        s.version = r.value(4).toInt();
        s.status = r.value(5).toString();
        s.params = objectOf(r.value(6));
        s.runId = r.value(7).toString();
        s.errorCode = r.value(8).toString();
        s.requestedBy = r.value(9).toString();
        s.createdAt = r.value(10).toLongLong();
        s.updatedAt = r.value(11).toLongLong();
        out.append(s);
    }
    return out;
}

} // namespace AutomationRows
} // namespace MemoryGraph
