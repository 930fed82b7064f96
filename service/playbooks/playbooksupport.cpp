#include "service/playbooks/playbooksupport.h"

#include "service/core/ids.h"
#include "service/core/jsonvalues.h"
#include "service/playbooks/playbooktemplate.h"
#include "service/storage/graphstore.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>

namespace MemoryGraph::PlaybookSupport {

/// Claims of pending runs are made one at a time, so a run is handed to one executor only.
std::mutex &dispatchMutex()
{
    static std::mutex m;
    return m;
}

QString versionPrefix(const QString &playbookId)
{
    return QStringLiteral("replay:playbook:") + playbookId + QStringLiteral(":v");
}

QString versionClientId(const QString &playbookId, int version)
{
    return versionPrefix(playbookId) + QString::number(version);
}

QString nowIso()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

QString iso(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QJsonValue isoOrNull(const QDateTime &t)
{
    return t.isValid() ? QJsonValue(iso(t)) : QJsonValue();
}

QString slotText(const NodeRecord &n, const char *key)
{
    return n.slotData.value(QLatin1String(key)).toString();
}

QString uriOf(const CallScope &cs, const NodeRecord &n)
{
    return recordUri(cs.tenantId, cs.scope, n.type, n.id);
}

QJsonObject scopeBody(const CallScope &cs)
{
    return {{QStringLiteral("tenant_id"), cs.tenantId}, {QStringLiteral("scope"), cs.scope}};
}

Error playbookNotFound(const CallScope &cs, const QString &playbookId)
{
    return Error::make(404, QStringLiteral("replay_playbook_not_found"),
                       QStringLiteral("playbook_id was not found in this scope"),
                       {{QStringLiteral("reason"), QStringLiteral("replay_playbook_not_found")},
                        {QStringLiteral("playbook_id"), playbookId},
                        {QStringLiteral("tenant_id"), cs.tenantId},
                        {QStringLiteral("scope"), cs.scope}});
}

Error versionNotFound(const CallScope &cs, const QString &playbookId, int version,
                      const QString &code)
{
    return Error::make(404, code,
                       QStringLiteral("version %1 of this playbook was not found").arg(version),
                       {{QStringLiteral("reason"), code},
                        {QStringLiteral("playbook_id"), playbookId},
                        {QStringLiteral("version"), version},
                        {QStringLiteral("tenant_id"), cs.tenantId},
                        {QStringLiteral("scope"), cs.scope}});
}

QJsonObject commitFields(const QString &commitId, const QString &commitUri,
                         const QString &commitHash)
{
    return {{QStringLiteral("commit_id"), commitId},
            {QStringLiteral("commit_uri"), commitUri},
            {QStringLiteral("commit_hash"), commitHash}};
}

void merge(QJsonObject &into, const QJsonObject &from)
{
    for (auto it = from.constBegin(); it != from.constEnd(); ++it)
        into.insert(it.key(), it.value());
}

/// The playbook as get answers it: its slots plus where it is stored.
QJsonObject playbookJson(const CallScope &cs, const NodeRecord &n)
{
    QJsonObject out = n.slotData;
    out.remove(QStringLiteral("replay_kind"));
    for (const char *key : {"matchers", "success_criteria", "policy_constraints", "metadata"}) {
        if (!out.value(QLatin1String(key)).isObject())
            out.insert(QLatin1String(key), QJsonObject());
    }
    for (const char *key :
         {"repair_review", "repair_patch", "repaired_from_version", "promoted_from_version",
          "reviewed_from_version", "shadow_validation_last"}) {
        if (!out.contains(QLatin1String(key)))
            out.insert(QLatin1String(key), QJsonValue());
    }
    out.insert(QStringLiteral("uri"), uriOf(cs, n));
    out.insert(QStringLiteral("node_id"), n.id);
    out.insert(QStringLiteral("commit_id"), n.commitId);
    out.insert(QStringLiteral("memory_lane"), n.memoryLane);
    out.insert(QStringLiteral("owner_agent_id"), nullable(n.ownerAgentId));
    out.insert(QStringLiteral("owner_team_id"), nullable(n.ownerTeamId));
    out.insert(QStringLiteral("created_at"), isoOrNull(n.createdAt));
    return out;
}

QString reviewStateOf(const NodeRecord &n)
{
    return n.slotData.value(QStringLiteral("repair_review"))
        .toObject()
        .value(QStringLiteral("state"))
        .toString();
}

QJsonObject versionSummary(const CallScope &cs, const NodeRecord &n)
{
    QJsonObject out{
        {QStringLiteral("version"), n.slotData.value(QStringLiteral("version")).toInt()},
        {QStringLiteral("status"), slotText(n, "status")},
        {QStringLiteral("name"), slotText(n, "name")},
        {QStringLiteral("node_id"), n.id},
        {QStringLiteral("uri"), uriOf(cs, n)},
        {QStringLiteral("created_at"), isoOrNull(n.createdAt)},
        {QStringLiteral("step_count"),
         n.slotData.value(QStringLiteral("steps_template")).toArray().size()},
        {QStringLiteral("review_state"), nullable(reviewStateOf(n))}};
    for (const char *key : {"repaired_from_version", "promoted_from_version",
                            "reviewed_from_version", "repair_patch", "repair_note"}) {
        out.insert(QLatin1String(key), n.slotData.contains(QLatin1String(key))
                                           ? n.slotData.value(QLatin1String(key))
                                           : QJsonValue());
    }
    return out;
}

// --- compile ----------------------------------------------------------------------------------

/// Quality of one compiled step (reference §7.4): start 0.25, conditions, a signature, auto_ok
/// and success raise it, a repair or a failure lower it; below 0.5 it is flagged low_quality.
void scoreStep(QJsonObject &step)
{
    double score = 0.25;
    QJsonArray flags;
    if (!step.value(QStringLiteral("preconditions")).toArray().isEmpty())
        score += 0.15;
    else
        flags.append(QStringLiteral("no_preconditions"));
    if (!step.value(QStringLiteral("postconditions")).toArray().isEmpty())
        score += 0.1;
    if (!step.value(QStringLiteral("expected_output_signature")).isNull())
        score += 0.15;
    else
        flags.append(QStringLiteral("no_output_signature"));
    if (step.value(QStringLiteral("safety_level")).toString() == QLatin1String("auto_ok"))
        score += 0.1;
    const QString outcome = step.value(QStringLiteral("last_outcome")).toString();
    if (outcome == QLatin1String("success"))
        score += 0.25;
    else if (outcome == QLatin1String("failed")) {
        score -= 0.3;
        flags.append(QStringLiteral("failed_last_run"));
    }
    if (step.value(QStringLiteral("repair_applied_last_run")).toBool()) {
        score -= 0.2;
        flags.append(QStringLiteral("repaired_last_run"));
    }
    score = std::clamp(score, 0.0, 1.0);
    if (score < 0.5)
        flags.prepend(QStringLiteral("low_quality"));
    step.insert(QStringLiteral("quality_score"), std::round(score * 1000.0) / 1000.0);
    step.insert(QStringLiteral("quality_flags"), flags);
}

bool sameStep(const QJsonObject &a, const QJsonObject &b)
{
    const auto clean = [](const QJsonObject &o) {
        return o.value(QStringLiteral("last_outcome")).toString() == QLatin1String("success")
               && !o.value(QStringLiteral("repair_applied_last_run")).toBool();
    };
    return clean(a) && clean(b)
           && a.value(QStringLiteral("tool_name")) == b.value(QStringLiteral("tool_name"))
           && a.value(QStringLiteral("tool_input_template"))
                  == b.value(QStringLiteral("tool_input_template"));
}

Error requiresSuccessfulRun(const QString &runId, const QString &status)
{
    return Error::make(400, QStringLiteral("replay_compile_requires_successful_run"),
                       QStringLiteral("only a run that ended with success compiles (or set "
                                      "allow_partial)"),
                       {{QStringLiteral("run_id"), runId}, {QStringLiteral("run_status"), status}});
}

// --- run --------------------------------------------------------------------------------------

/// One step evaluated for a run: its inputs bound and its preconditions checked.

StepEval evaluateStep(const QJsonObject &step, const QJsonObject &params,
                      const QJsonObject &defaults)
{
    StepEval e;
    const PlaybookTemplate::Binding input = PlaybookTemplate::bind(
        step.value(QStringLiteral("tool_input_template")), params, defaults);
    const PlaybookTemplate::Binding conditions
        = PlaybookTemplate::bind(step.value(QStringLiteral("preconditions")), params, defaults);
    const PlaybookTemplate::Binding signature = PlaybookTemplate::bind(
        step.value(QStringLiteral("expected_output_signature")), params, defaults);
    e.boundInput = input.value;
    e.boundPreconditions = conditions.value.toArray();
    e.boundSignature = signature.value;
    e.missing = input.missing;
    for (const QStringList *more : {&conditions.missing, &signature.missing}) {
        for (const QString &m : *more) {
            if (!e.missing.contains(m))
                e.missing << m;
        }
    }
    QJsonArray checks;
    QJsonArray reasons;
    bool blocked = false;
    bool unknown = false;
    for (const QJsonValue &c : std::as_const(e.boundPreconditions)) {
        const PlaybookTemplate::Check check = PlaybookTemplate::evaluate(c.toObject());
        checks.append(check.toJson(c.toObject()));
        if (check.state == QLatin1String("blocked")) {
            blocked = true;
            reasons.append(QStringLiteral("precondition_failed:") + check.kind);
        } else if (check.state == QLatin1String("unknown")) {
            unknown = true;
        }
    }
    if (!e.missing.isEmpty()) {
        blocked = true;
        reasons.append(QStringLiteral("unbound_variables"));
    }
    const QString safety = step.value(QStringLiteral("safety_level")).toString();
    if (safety == QLatin1String("manual_only")) {
        blocked = true;
        reasons.append(QStringLiteral("manual_only"));
    }
    e.state = blocked   ? QStringLiteral("blocked")
              : unknown ? QStringLiteral("unknown")
                        : QStringLiteral("ready");
    e.json = QJsonObject{{QStringLiteral("step_index"), step.value(QStringLiteral("step_index"))},
                         {QStringLiteral("tool_name"), step.value(QStringLiteral("tool_name"))},
                         {QStringLiteral("state"), e.state},
                         {QStringLiteral("reasons"), reasons},
                         {QStringLiteral("checks"), checks},
                         {QStringLiteral("tool_input"), e.boundInput},
                         {QStringLiteral("argv"),
                          QJsonArray::fromStringList(PlaybookTemplate::argvOf(e.boundInput))},
                         {QStringLiteral("missing_params"), QJsonArray::fromStringList(e.missing)},
                         {QStringLiteral("safety_level"), nullable(safety)}};
    return e;
}

/// The deterministic-replay gate (reference §7.4 candidate): matched ⇔ enabled, the version's
/// status allowed and the request's matchers / policy constraints equal to the version's.
GateResult evaluateGate(const PlaybookGate &gate, const NodeRecord &version,
                        const QString &requestedMode)
{
    GateResult g;
    g.effectiveMode = requestedMode;
    QJsonArray reasons;
    QString decision;
    if (!gate.given || !gate.enabled) {
        decision = QStringLiteral("disabled");
    } else {
        if (!gate.requiredStatuses.contains(slotText(version, "status")))
            reasons.append(QStringLiteral("status_not_allowed_for_deterministic_replay"));
        if (gate.matchers
            && *gate.matchers != version.slotData.value(QStringLiteral("matchers")).toObject())
            reasons.append(QStringLiteral("matcher_fingerprint_mismatch"));
        if (gate.policyConstraints
            && *gate.policyConstraints
                   != version.slotData.value(QStringLiteral("policy_constraints")).toObject())
            reasons.append(QStringLiteral("policy_constraints_fingerprint_mismatch"));
        g.matched = reasons.isEmpty();
        if (g.matched && gate.preferDeterministic && requestedMode == QLatin1String("simulate")) {
            decision = QStringLiteral("promoted_to_strict");
            g.effectiveMode = QStringLiteral("strict");
        } else if (g.matched) {
            decision = QStringLiteral("matched");
        } else if (gate.onMismatch == QLatin1String("reject")) {
            decision = QStringLiteral("rejected");
            g.rejected = true;
        } else {
            decision = QStringLiteral("fallback_to_requested_mode");
        }
    }
    g.json = QJsonObject{
        {QStringLiteral("enabled"), gate.given && gate.enabled},
        {QStringLiteral("prefer_deterministic_execution"), gate.preferDeterministic},
        {QStringLiteral("on_mismatch"), gate.onMismatch},
        {QStringLiteral("required_statuses"), QJsonArray::fromStringList(gate.requiredStatuses)},
        {QStringLiteral("matched"), g.matched},
        {QStringLiteral("mismatch_reasons"), reasons},
        {QStringLiteral("decision"), decision},
        {QStringLiteral("requested_mode"), requestedMode},
        {QStringLiteral("effective_mode"), g.effectiveMode}};
    return g;
}

Error gateMismatch(const GateResult &g)
{
    return Error::make(409, QStringLiteral("replay_deterministic_gate_mismatch"),
                       QStringLiteral("the playbook does not pass the deterministic gate"),
                       {{QStringLiteral("deterministic_gate"), g.json}});
}

QJsonObject playbookHeader(const CallScope &cs, const NodeRecord &n)
{
    return {{QStringLiteral("playbook_id"), slotText(n, "playbook_id")},
            {QStringLiteral("version"), n.slotData.value(QStringLiteral("version")).toInt()},
            {QStringLiteral("status"), slotText(n, "status")},
            {QStringLiteral("name"), slotText(n, "name")},
            {QStringLiteral("uri"), uriOf(cs, n)}};
}

/// Candidate quality: how well the version's steps are specified.
QJsonObject qualityOf(const QJsonArray &steps)
{
    double total = 0;
    int low = 0;
    for (const QJsonValue &s : steps) {
        const QJsonObject o = s.toObject();
        total += o.value(QStringLiteral("quality_score")).toDouble();
        if (o.value(QStringLiteral("quality_flags"))
                .toArray()
                .contains(QStringLiteral("low_quality")))
            ++low;
    }
    const double mean = steps.isEmpty() ? 0.0 : total / double(steps.size());
    return {{QStringLiteral("step_count"), steps.size()},
            {QStringLiteral("mean_quality_score"), std::round(mean * 1000.0) / 1000.0},
            {QStringLiteral("low_quality_steps"), low}};
}

// --- playbook runs ----------------------------------------------------------------------------

QString runEndClientId(const QString &runId)
{
    return QStringLiteral("replay:run_end:") + runId;
}

/// A playbook run: the replay run node's metadata, its dispatch state and how it ended.
QJsonObject playbookRunJson(QSqlDatabase &db, const CallScope &cs, const NodeRecord &runNode)
{
    const QJsonObject md = runNode.slotData.value(QStringLiteral("metadata")).toObject();
    const QString runId = slotText(runNode, "run_id");
    auto end = GraphStore::findNodeByClientId(db, cs.tenantId, cs.scope, runEndClientId(runId));
    const bool ended = end && end.value();
    const QString dispatchState = md.value(QStringLiteral("dispatch_state")).toString();
    return {{QStringLiteral("run_id"), runId},
            {QStringLiteral("playbook_id"), md.value(QStringLiteral("playbook_id"))},
            {QStringLiteral("playbook_version"), md.value(QStringLiteral("playbook_version"))},
            {QStringLiteral("mode"), md.value(QStringLiteral("mode"))},
            {QStringLiteral("dispatch_state"), dispatchState},
            {QStringLiteral("claimed_by"), md.value(QStringLiteral("claimed_by"))},
            {QStringLiteral("claimed_at"), md.value(QStringLiteral("claimed_at"))},
            {QStringLiteral("automation_run_id"), md.value(QStringLiteral("automation_run_id"))},
            {QStringLiteral("automation_node_id"), md.value(QStringLiteral("automation_node_id"))},
            {QStringLiteral("status"), ended ? slotText(*end.value(), "status") : dispatchState},
            {QStringLiteral("ended"), ended},
            {QStringLiteral("run_uri"), uriOf(cs, runNode)},
            {QStringLiteral("started_at"), isoOrNull(runNode.createdAt)},
            {QStringLiteral("ended_at"), ended ? isoOrNull(end.value()->updatedAt) : QJsonValue()}};
}

/// Replay run nodes of a scope opened by a playbook run, by a json condition on their metadata.
Result<QVector<NodeRecord>> playbookRunNodes(QSqlDatabase &db, const CallScope &cs,
                                             const QString &extraWhere,
                                             const QVariantList &extraArgs, const QString &order,
                                             int limit)
{
    QVariantList args{cs.tenantId, cs.scope, QStringLiteral("replay:run:"),
                      QStringLiteral("replay:run;")};
    args += extraArgs;
    args << limit;
    return GraphStore::nodesWhere(
        db,
        QStringLiteral("tenant_id = ? AND scope = ? AND client_id >= ? AND client_id < ?"
                       " AND json_extract(slots, '$.replay_kind') = 'run'"
                       " AND json_extract(slots, '$.metadata.playbook_id') IS NOT NULL")
            + extraWhere + QStringLiteral(" ORDER BY ") + order + QStringLiteral(" LIMIT ?"),
        args);
}

} // namespace MemoryGraph::PlaybookSupport
