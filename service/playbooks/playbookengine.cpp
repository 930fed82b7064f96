#include "service/playbooks/playbookengine.h"

#include "service/core/ids.h"
#include "service/core/jsonvalues.h"
#include "service/playbooks/playbooktemplate.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"

#include <QDateTime>
#include <QHash>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <mutex>

namespace MemoryGraph {

namespace {

const QString kKindPlaybook = QStringLiteral("playbook");
const QString kDefaultActor = QStringLiteral("replay_api");
const QString kPending = QStringLiteral("pending");
const QString kClaimed = QStringLiteral("claimed");
const QString kPendingReview = QStringLiteral("pending_review");
constexpr int kRunsListed = 50;

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
struct StepEval
{
    QJsonObject json;
    QString state; ///< ready | blocked | unknown
    QJsonValue boundInput;
    QJsonArray boundPreconditions;
    QJsonValue boundSignature;
    QStringList missing;
};

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

struct GateResult
{
    QJsonObject json;
    bool matched = false;
    bool rejected = false;
    QString effectiveMode;
};

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

} // namespace

PlaybookEngine::PlaybookEngine(Database &db, const ServiceConfig &config, WriteFn write)
    : m_db(db), m_config(config), m_write(std::move(write))
{
}

Result<Viewer> PlaybookEngine::readerViewer(const ReplayWriteCommon &common,
                                            const RequestMeta &meta) const
{
    return resolveViewer(common.consumer.agentId, common.consumer.teamId, meta, m_config);
}

Result<Viewer> PlaybookEngine::writerViewer(const ReplayWriteCommon &common,
                                            const RequestMeta &meta) const
{
    // As for replay records: a writer that names no consumer reads as the identity it writes
    // with.
    ReplayConsumer consumer = common.consumer;
    if (consumer.agentId.isEmpty() && !meta.principal)
        consumer.agentId
            = !common.ownerAgentId.isEmpty() ? common.ownerAgentId : common.producerAgentId;
    if (consumer.teamId.isEmpty() && !meta.principal)
        consumer.teamId = common.ownerTeamId;
    return resolveViewer(consumer.agentId, consumer.teamId, meta, m_config);
}

Result<QVector<PlaybookEngine::Version>>
PlaybookEngine::versions(const CallScope &cs, const QString &playbookId,
                         const std::optional<Viewer> &viewer)
{
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto found = GraphStore::nodesByClientIdOrPrefix(conn.value(), cs.tenantId, cs.scope, {},
                                                     {versionPrefix(playbookId)});
    if (!found)
        return found.error();
    QVector<Version> out;
    for (const NodeRecord &n : found.value()) {
        if (slotText(n, "replay_kind") != kKindPlaybook || slotText(n, "playbook_id") != playbookId)
            continue;
        if (viewer && !viewer->sees(n))
            continue;
        const QJsonValue v = n.slotData.value(QStringLiteral("version"));
        const int version
            = v.isDouble() && v.toDouble() == std::floor(v.toDouble()) ? v.toInt() : 1;
        QString status = slotText(n, "status");
        if (!PlaybookVocabulary::statuses().contains(status))
            status = QStringLiteral("draft");
        out.append(Version{n, version, status});
    }
    std::stable_sort(out.begin(), out.end(), [](const Version &a, const Version &b) {
        if (a.version != b.version)
            return a.version < b.version;
        return a.node.createdAt < b.node.createdAt;
    });
    return out;
}

Result<PlaybookEngine::Version> PlaybookEngine::pick(const QVector<Version> &all,
                                                     const CallScope &cs, const QString &playbookId,
                                                     std::optional<int> version,
                                                     const QString &versionCode)
{
    if (all.isEmpty())
        return playbookNotFound(cs, playbookId);
    if (!version)
        return all.last();
    for (int i = int(all.size()) - 1; i >= 0; --i) {
        if (all[i].version == *version)
            return all[i];
    }
    if (versionCode == QLatin1String("replay_playbook_not_found"))
        return playbookNotFound(cs, playbookId);
    return versionNotFound(cs, playbookId, *version, versionCode);
}

Result<PlaybookEngine::Written>
PlaybookEngine::writeVersion(const CallScope &cs, const ReplayWriteCommon &common,
                             const QJsonObject &slotData, const NodeRecord *source,
                             const QStringList &provenanceIds, const RequestMeta &meta)
{
    if (!m_write)
        return Error::internal(QStringLiteral("playbook engine has no write path"));
    const QString playbookId = slotData.value(QStringLiteral("playbook_id")).toString();
    const int version = slotData.value(QStringLiteral("version")).toInt();
    const QString clientId = versionClientId(playbookId, version);
    const QString name = slotData.value(QStringLiteral("name")).toString();
    const QString status = slotData.value(QStringLiteral("status")).toString();
    const int steps = int(slotData.value(QStringLiteral("steps_template")).toArray().size());
    QJsonObject node{{QStringLiteral("client_id"), clientId},
                     {QStringLiteral("type"), QStringLiteral("procedure")},
                     {QStringLiteral("title"),
                      QStringLiteral("Playbook %1 v%2 (%3)").arg(name).arg(version).arg(status)},
                     {QStringLiteral("text_summary"),
                      QStringLiteral("Replay playbook %1 version %2: %3 steps, %4")
                          .arg(name)
                          .arg(version)
                          .arg(steps)
                          .arg(status)},
                     {QStringLiteral("slots"), slotData}};
    // A new version keeps the lane and owners of the version it comes from unless the request
    // names them (and only owners the caller may claim).
    if (source) {
        const Principal *p = meta.principal ? &*meta.principal : nullptr;
        const bool anyIdentity = !p || isServiceAccount(*p);
        if (common.memoryLane.isEmpty())
            node.insert(QStringLiteral("memory_lane"), source->memoryLane);
        if (common.ownerAgentId.isEmpty() && common.ownerTeamId.isEmpty()) {
            if (!source->ownerAgentId.isEmpty()
                && (anyIdentity || source->ownerAgentId == p->agentId))
                node.insert(QStringLiteral("owner_agent_id"), source->ownerAgentId);
            if (!source->ownerTeamId.isEmpty() && (anyIdentity || source->ownerTeamId == p->teamId))
                node.insert(QStringLiteral("owner_team_id"), source->ownerTeamId);
        }
    }
    QJsonArray edges;
    for (const QString &id : provenanceIds) {
        edges.append(QJsonObject{
            {QStringLiteral("type"), QStringLiteral("derived_from")},
            {QStringLiteral("src"), QJsonObject{{QStringLiteral("client_id"), clientId}}},
            {QStringLiteral("dst"), QJsonObject{{QStringLiteral("id"), id}}}});
    }
    QJsonObject body{
        {QStringLiteral("tenant_id"), cs.tenantId},
        {QStringLiteral("scope"), cs.scope},
        {QStringLiteral("actor"), common.actor.isEmpty() ? kDefaultActor : common.actor},
        {QStringLiteral("auto_embed"), false},
        {QStringLiteral("nodes"), QJsonArray{node}},
        {QStringLiteral("edges"), edges}};
    if (!common.inputSha256.isEmpty())
        body.insert(QStringLiteral("input_sha256"), common.inputSha256);
    body.insert(
        QStringLiteral("input_text"),
        !common.inputText.isEmpty()
            ? common.inputText
            : QStringLiteral("playbook %1 v%2 %3").arg(playbookId).arg(version).arg(status));
    const std::pair<const char *, const QString *> identity[]
        = {{"memory_lane", &common.memoryLane},
           {"producer_agent_id", &common.producerAgentId},
           {"owner_agent_id", &common.ownerAgentId},
           {"owner_team_id", &common.ownerTeamId}};
    for (const auto &[key, value] : identity) {
        if (!value->isEmpty())
            body.insert(QLatin1String(key), *value);
    }
    auto request = WriteRequest::fromJson(body, m_config.maxTextLength);
    if (!request)
        return request.error();
    auto written = m_write(request.value(), meta);
    if (!written)
        return written.error();
    Written out;
    if (!written.value().nodes.isEmpty()) {
        out.nodeId = written.value().nodes.first().id;
        out.uri = written.value().nodes.first().uri;
    }
    out.commitId = written.value().commitId;
    out.commitUri = written.value().commitUri;
    out.commitHash = written.value().commitHash;
    return out;
}

// --- compile_from_run -------------------------------------------------------------------------

Result<PlaybookOutcome> PlaybookEngine::compileFromRun(const PlaybookCompileRequest &req,
                                                       const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = writerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    ReplayRunGetRequest getRun;
    getRun.tenantId = cs.value().tenantId;
    getRun.scope = cs.value().scope;
    getRun.runId = req.runId;
    getRun.consumer = ReplayConsumer{viewer.value().agentId, viewer.value().teamId};
    auto recordedRun = ReplayEngine(m_db, m_config).runGet(getRun, meta);
    if (!recordedRun)
        return recordedRun.error();
    const ReplayRunView &view = recordedRun.value();
    if (view.run.status != QLatin1String("success") && !req.allowPartial)
        return requiresSuccessfulRun(req.runId, view.run.status);
    if (view.steps.isEmpty())
        return Error::make(400, QStringLiteral("replay_compile_no_steps"),
                           QStringLiteral("the run recorded no step to compile"),
                           {{QStringLiteral("run_id"), req.runId}});

    const QString playbookId = req.playbookId.isEmpty() ? randomUuid() : req.playbookId;
    auto existing = versions(cs.value(), playbookId, std::nullopt);
    if (!existing)
        return existing.error();
    const int version = req.version;
    if (!existing.value().isEmpty()) {
        // Someone else's playbook id is answered like a taken client_id: nothing about it shows.
        for (const Version &v : existing.value()) {
            if (!viewer.value().sees(v.node))
                return Error::make(409, QStringLiteral("client_id_conflict"),
                                   QStringLiteral("playbook_id is already in use in this scope; "
                                                  "choose another"),
                                   {{QStringLiteral("playbook_id"), playbookId}});
        }
        for (const Version &v : existing.value()) {
            if (v.version == version)
                return Error::make(
                    409, QStringLiteral("replay_playbook_version_exists"),
                    QStringLiteral("this playbook already has version %1; "
                                   "change it with promote or repair")
                        .arg(version),
                    {{QStringLiteral("playbook_id"), playbookId},
                     {QStringLiteral("version"), version},
                     {QStringLiteral("latest_version"), existing.value().last().version}});
        }
    }

    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    // Steps in step_index order, one per step/before record.
    QVector<ReplayStepView> recorded = view.steps;
    std::stable_sort(recorded.begin(), recorded.end(),
                     [](const ReplayStepView &a, const ReplayStepView &b) {
                         return a.stepIndex.value_or(0) < b.stepIndex.value_or(0);
                     });
    PlaybookTemplate::Parameterizer params;
    QJsonArray steps;
    QJsonObject previous;
    int dropped = 0;
    QStringList provenance;
    if (!view.run.runNodeId.isEmpty())
        provenance << view.run.runNodeId;
    QStringList tools;
    for (const ReplayStepView &s : std::as_const(recorded)) {
        provenance << s.stepNodeId;
        QJsonValue retryPolicy;
        auto stepNode = GraphStore::findNode(conn.value(), s.stepNodeId);
        if (stepNode && stepNode.value())
            retryPolicy = stepNode.value()->slotData.value(QStringLiteral("retry_policy"));
        QStringList used;
        QJsonObject step{
            {QStringLiteral("step_index"), s.stepIndex.value_or(int(steps.size()) + 1)},
            {QStringLiteral("tool_name"), s.toolName},
            {QStringLiteral("tool_input_template"), params.lift(s.toolInput, &used)},
            // The checks name the same values as the input: they are bound together.
            {QStringLiteral("expected_output_signature"),
             params.lift(s.expectedOutputSignature, &used)},
            {QStringLiteral("preconditions"), params.lift(s.preconditions, &used)},
            {QStringLiteral("postconditions"), s.postconditions},
            {QStringLiteral("retry_policy"), retryPolicy.isObject() ? retryPolicy : QJsonValue()},
            {QStringLiteral("safety_level"),
             s.safetyLevel.isEmpty() ? QStringLiteral("needs_confirm") : s.safetyLevel},
            {QStringLiteral("replay_mode"), QStringLiteral("replay_first_reason_if_needed")},
            {QStringLiteral("last_outcome"), s.status},
            {QStringLiteral("repair_applied_last_run"), s.repairApplied},
            {QStringLiteral("template_variables"), QJsonArray::fromStringList(used)},
            {QStringLiteral("source_step_id"), s.stepId}};
        scoreStep(step);
        if (!previous.isEmpty() && sameStep(previous, step)) {
            ++dropped;
            continue;
        }
        previous = step;
        steps.append(step);
        if (!tools.contains(s.toolName))
            tools << s.toolName;
    }

    QJsonObject successCriteria;
    if (req.successCriteria) {
        successCriteria = *req.successCriteria;
    } else {
        auto end = GraphStore::findNodeByClientId(conn.value(), cs.value().tenantId,
                                                  cs.value().scope, runEndClientId(req.runId));
        if (end && end.value())
            successCriteria
                = end.value()->slotData.value(QStringLiteral("success_criteria")).toObject();
    }
    int lowQuality = 0;
    for (const QJsonValue &s : std::as_const(steps)) {
        if (s.toObject()
                .value(QStringLiteral("quality_flags"))
                .toArray()
                .contains(QStringLiteral("low_quality")))
            ++lowQuality;
    }
    const QJsonObject summary{
        {QStringLiteral("source_run_status"), view.run.status},
        {QStringLiteral("recorded_steps"), int(recorded.size())},
        {QStringLiteral("steps_total"), steps.size()},
        {QStringLiteral("dropped_duplicate_steps"), dropped},
        {QStringLiteral("low_quality_steps"), lowQuality},
        {QStringLiteral("tools"), QJsonArray::fromStringList(tools)},
        {QStringLiteral("parameterization"),
         QJsonObject{{QStringLiteral("variable_count"), params.variables().size()},
                     {QStringLiteral("by_kind"), params.countsByKind()},
                     {QStringLiteral("bound_at_run_time"), true}}}};
    const QString name
        = req.name.isEmpty() ? QStringLiteral("replay_playbook_") + req.runId.left(8) : req.name;
    const QJsonObject slotData{{QStringLiteral("replay_kind"), kKindPlaybook},
                               {QStringLiteral("playbook_id"), playbookId},
                               {QStringLiteral("name"), name},
                               {QStringLiteral("version"), version},
                               {QStringLiteral("status"), QStringLiteral("draft")},
                               {QStringLiteral("matchers"), req.matchers},
                               {QStringLiteral("success_criteria"), successCriteria},
                               {QStringLiteral("risk_profile"), req.riskProfile},
                               {QStringLiteral("created_from_run_ids"), QJsonArray{req.runId}},
                               {QStringLiteral("source_run_id"), req.runId},
                               {QStringLiteral("policy_constraints"), QJsonObject()},
                               {QStringLiteral("steps_template"), steps},
                               {QStringLiteral("template_variables"), params.variables()},
                               {QStringLiteral("compile_summary"), summary},
                               {QStringLiteral("metadata"), req.metadata}};
    // The playbook keeps the lane and owners of the run it was compiled from.
    std::optional<NodeRecord> runNode;
    if (!view.run.runNodeId.isEmpty()) {
        auto found = GraphStore::findNode(conn.value(), view.run.runNodeId);
        if (found && found.value())
            runNode = found.value();
    }
    auto written = writeVersion(cs.value(), req.common, slotData, runNode ? &*runNode : nullptr,
                                provenance, meta);
    if (!written)
        return written.error();
    const qsizetype inputChars = QJsonDocument(QJsonObject{{QStringLiteral("steps"), steps}})
                                     .toJson(QJsonDocument::Compact)
                                     .size();
    QJsonObject body = scopeBody(cs.value());
    merge(body, {{QStringLiteral("playbook_id"), playbookId},
                 {QStringLiteral("name"), name},
                 {QStringLiteral("version"), version},
                 {QStringLiteral("status"), QStringLiteral("draft")},
                 {QStringLiteral("source_run_id"), req.runId},
                 {QStringLiteral("playbook_node_id"), written.value().nodeId},
                 {QStringLiteral("playbook_uri"), written.value().uri},
                 {QStringLiteral("compile_summary"), summary},
                 {QStringLiteral("usage"),
                  QJsonObject{{QStringLiteral("source_chars"), qint64(inputChars)},
                              {QStringLiteral("est_tokens"), qint64((inputChars + 3) / 4)}}}});
    merge(body, commitFields(written.value().commitId, written.value().commitUri,
                             written.value().commitHash));
    return PlaybookOutcome{cs.value(), body};
}

// --- get, candidate ---------------------------------------------------------------------------

QJsonArray PlaybookEngine::playbookRuns(const CallScope &cs, const QString &playbookId,
                                        const Viewer &viewer)
{
    QJsonArray out;
    auto conn = m_db.connection();
    if (!conn)
        return out;
    auto nodes = playbookRunNodes(
        conn.value(), cs, QStringLiteral(" AND json_extract(slots, '$.metadata.playbook_id') = ?"),
        {playbookId}, QStringLiteral("created_at DESC, id DESC"), kRunsListed);
    if (!nodes)
        return out;
    for (const NodeRecord &n : nodes.value()) {
        if (viewer.sees(n))
            out.append(playbookRunJson(conn.value(), cs, n));
    }
    return out;
}

Result<PlaybookOutcome> PlaybookEngine::get(const PlaybookGetRequest &req, const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = readerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto chosen = pick(all.value(), cs.value(), req.playbookId, req.version,
                       QStringLiteral("replay_playbook_version_not_found"));
    if (!chosen)
        return chosen.error();
    QJsonArray history;
    for (const Version &v : all.value())
        history.append(versionSummary(cs.value(), v.node));
    QJsonObject body = scopeBody(cs.value());
    body.insert(QStringLiteral("playbook"), playbookJson(cs.value(), chosen.value().node));
    body.insert(QStringLiteral("latest_version"), all.value().last().version);
    body.insert(QStringLiteral("versions"), history);
    body.insert(QStringLiteral("runs"), playbookRuns(cs.value(), req.playbookId, viewer.value()));
    return PlaybookOutcome{cs.value(), body};
}

Result<PlaybookOutcome> PlaybookEngine::candidate(const PlaybookCandidateRequest &req,
                                                  const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = readerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto chosen = pick(all.value(), cs.value(), req.playbookId, req.version,
                       QStringLiteral("replay_playbook_not_found"));
    if (!chosen)
        return chosen.error();
    const NodeRecord &n = chosen.value().node;
    const GateResult gate = evaluateGate(req.gate, n, QStringLiteral("simulate"));
    const QJsonArray steps = n.slotData.value(QStringLiteral("steps_template")).toArray();
    const QJsonObject quality = qualityOf(steps);
    // Why (not) a candidate: the gate's verdict, then what the version itself says.
    QJsonArray reasons = gate.json.value(QStringLiteral("mismatch_reasons")).toArray();
    if (!req.gate.given || !req.gate.enabled)
        reasons.append(QStringLiteral("deterministic_gate_disabled"));
    if (quality.value(QStringLiteral("low_quality_steps")).toInt() > 0)
        reasons.append(QStringLiteral("low_quality_steps"));
    if (reviewStateOf(n) == kPendingReview)
        reasons.append(QStringLiteral("repair_pending_review"));
    const QString nextAction = gate.matched ? QStringLiteral("dispatch_deterministic_replay")
                               : chosen.value().status == QLatin1String("draft")
                                   ? QStringLiteral("promote_to_shadow_after_simulate")
                                   : QStringLiteral("run_simulate");
    QJsonObject body = scopeBody(cs.value());
    body.insert(QStringLiteral("playbook"), playbookHeader(cs.value(), n));
    body.insert(
        QStringLiteral("candidate"),
        QJsonObject{{QStringLiteral("eligible_for_deterministic_replay"), gate.matched},
                    {QStringLiteral("recommended_mode"),
                     gate.matched && req.gate.preferDeterministic ? QStringLiteral("strict")
                                                                  : QStringLiteral("simulate")},
                    {QStringLiteral("next_action"), nextAction},
                    {QStringLiteral("mismatch_reasons"),
                     gate.json.value(QStringLiteral("mismatch_reasons"))},
                    {QStringLiteral("reasons"), reasons},
                    {QStringLiteral("rejectable"), req.gate.onMismatch == QLatin1String("reject")},
                    {QStringLiteral("quality"), quality}});
    body.insert(QStringLiteral("deterministic_gate"), gate.json);
    body.insert(QStringLiteral("cost_signals"),
                QJsonObject{{QStringLiteral("step_count"), steps.size()},
                            {QStringLiteral("primary_inference_skippable"), gate.matched}});
    return PlaybookOutcome{cs.value(), body};
}

// --- promote, repair, review ------------------------------------------------------------------

Result<PlaybookOutcome> PlaybookEngine::promote(const PlaybookPromoteRequest &req,
                                                const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = writerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto source = pick(all.value(), cs.value(), req.playbookId, req.fromVersion,
                       QStringLiteral("replay_playbook_version_not_found"));
    if (!source)
        return source.error();
    const Version &latest = all.value().last();
    QJsonObject body = scopeBody(cs.value());
    body.insert(QStringLiteral("playbook_id"), req.playbookId);
    if (!req.fromVersion && latest.status == req.targetStatus) {
        merge(body, {{QStringLiteral("from_version"), latest.version},
                     {QStringLiteral("to_version"), latest.version},
                     {QStringLiteral("status"), latest.status},
                     {QStringLiteral("unchanged"), true},
                     {QStringLiteral("reason"), QStringLiteral("already_target_status_on_latest")},
                     {QStringLiteral("playbook_node_id"), latest.node.id},
                     {QStringLiteral("playbook_uri"), uriOf(cs.value(), latest.node)}});
        return PlaybookOutcome{cs.value(), body};
    }
    QJsonObject slotData = source.value().node.slotData;
    const int to = latest.version + 1;
    slotData.insert(QStringLiteral("version"), to);
    slotData.insert(QStringLiteral("status"), req.targetStatus);
    slotData.insert(QStringLiteral("promoted_from_version"), source.value().version);
    slotData.insert(QStringLiteral("promotion_note"), nullable(req.note));
    slotData.remove(QStringLiteral("reviewed_from_version"));
    if (!req.metadata.isEmpty()) {
        QJsonObject md = slotData.value(QStringLiteral("metadata")).toObject();
        merge(md, req.metadata);
        slotData.insert(QStringLiteral("metadata"), md);
    }
    auto written = writeVersion(cs.value(), req.common, slotData, &source.value().node,
                                {source.value().node.id}, meta);
    if (!written)
        return written.error();
    merge(body, {{QStringLiteral("from_version"), source.value().version},
                 {QStringLiteral("to_version"), to},
                 {QStringLiteral("status"), req.targetStatus},
                 {QStringLiteral("unchanged"), false},
                 {QStringLiteral("playbook_node_id"), written.value().nodeId},
                 {QStringLiteral("playbook_uri"), written.value().uri}});
    merge(body, commitFields(written.value().commitId, written.value().commitUri,
                             written.value().commitHash));
    return PlaybookOutcome{cs.value(), body};
}

namespace {

/// Applies a repair patch (reference §7.4 order): steps_override, remove_step_indices,
/// step_patches, then the version-level keys. 400 names the malformed part.
Result<QJsonObject> applyPatch(const QJsonObject &patch, QJsonObject slotData, QJsonObject *summary)
{
    static const QStringList known{
        QStringLiteral("steps_override"),   QStringLiteral("remove_step_indices"),
        QStringLiteral("step_patches"),     QStringLiteral("matchers"),
        QStringLiteral("success_criteria"), QStringLiteral("policy_constraints"),
        QStringLiteral("risk_profile")};
    QStringList changed;
    for (const QString &k : known) {
        if (patch.contains(k))
            changed << k;
    }
    if (changed.isEmpty())
        return Error::invalidField(QStringLiteral("patch"),
                                   QStringLiteral("must name at least one of ")
                                       + known.join(QStringLiteral(", ")));
    QJsonArray steps = slotData.value(QStringLiteral("steps_template")).toArray();
    const int before = int(steps.size());
    if (patch.contains(QStringLiteral("steps_override"))) {
        const QJsonValue v = patch.value(QStringLiteral("steps_override"));
        if (!v.isArray())
            return Error::invalidField(QStringLiteral("patch.steps_override"),
                                       QStringLiteral("must be an array of steps"));
        QJsonArray replaced;
        const QJsonArray in = v.toArray();
        for (int i = 0; i < in.size(); ++i) {
            QJsonObject s = in.at(i).toObject();
            if (!in.at(i).isObject() || s.value(QStringLiteral("tool_name")).toString().isEmpty())
                return Error::invalidField(QStringLiteral("patch.steps_override[%1]").arg(i),
                                           QStringLiteral("must be an object with a tool_name"));
            if (!s.value(QStringLiteral("step_index")).isDouble())
                s.insert(QStringLiteral("step_index"), i + 1);
            if (!s.contains(QStringLiteral("tool_input_template"))
                && s.contains(QStringLiteral("tool_input")))
                s.insert(QStringLiteral("tool_input_template"),
                         s.take(QStringLiteral("tool_input")));
            if (!s.value(QStringLiteral("safety_level")).isString())
                s.insert(QStringLiteral("safety_level"), QStringLiteral("needs_confirm"));
            if (!s.value(QStringLiteral("preconditions")).isArray())
                s.insert(QStringLiteral("preconditions"), QJsonArray());
            replaced.append(s);
        }
        steps = replaced;
    }
    int removed = 0;
    if (patch.contains(QStringLiteral("remove_step_indices"))) {
        const QJsonValue v = patch.value(QStringLiteral("remove_step_indices"));
        if (!v.isArray())
            return Error::invalidField(QStringLiteral("patch.remove_step_indices"),
                                       QStringLiteral("must be an array of step indices"));
        QSet<int> drop;
        for (const QJsonValue &i : v.toArray()) {
            if (!i.isDouble())
                return Error::invalidField(QStringLiteral("patch.remove_step_indices"),
                                           QStringLiteral("must hold integers"));
            drop.insert(i.toInt());
        }
        QJsonArray kept;
        for (const QJsonValue &s : std::as_const(steps)) {
            if (drop.contains(s.toObject().value(QStringLiteral("step_index")).toInt()))
                ++removed;
            else
                kept.append(s);
        }
        steps = kept;
    }
    int patched = 0;
    if (patch.contains(QStringLiteral("step_patches"))) {
        const QJsonValue v = patch.value(QStringLiteral("step_patches"));
        if (!v.isArray())
            return Error::invalidField(QStringLiteral("patch.step_patches"),
                                       QStringLiteral("must be an array of {step_index, set}"));
        const QJsonArray list = v.toArray();
        for (int i = 0; i < list.size(); ++i) {
            const QJsonObject p = list.at(i).toObject();
            if (!p.value(QStringLiteral("step_index")).isDouble()
                || !p.value(QStringLiteral("set")).isObject())
                return Error::invalidField(QStringLiteral("patch.step_patches[%1]").arg(i),
                                           QStringLiteral("must be {step_index, set}"));
            const int index = p.value(QStringLiteral("step_index")).toInt();
            for (int k = 0; k < steps.size(); ++k) {
                QJsonObject s = steps.at(k).toObject();
                if (s.value(QStringLiteral("step_index")).toInt() != index)
                    continue;
                QJsonObject set = p.value(QStringLiteral("set")).toObject();
                if (set.contains(QStringLiteral("tool_input"))
                    && !set.contains(QStringLiteral("tool_input_template")))
                    set.insert(QStringLiteral("tool_input_template"),
                               set.take(QStringLiteral("tool_input")));
                set.remove(QStringLiteral("step_index"));
                merge(s, set);
                steps.replace(k, s);
                ++patched;
            }
        }
    }
    slotData.insert(QStringLiteral("steps_template"), steps);
    for (const char *key : {"matchers", "success_criteria", "policy_constraints"}) {
        if (!patch.contains(QLatin1String(key)))
            continue;
        if (!patch.value(QLatin1String(key)).isObject())
            return Error::invalidField(QStringLiteral("patch.") + QLatin1String(key),
                                       QStringLiteral("must be an object"));
        slotData.insert(QLatin1String(key), patch.value(QLatin1String(key)));
    }
    if (patch.contains(QStringLiteral("risk_profile"))) {
        const QString risk = patch.value(QStringLiteral("risk_profile")).toString();
        if (!PlaybookVocabulary::riskProfiles().contains(risk))
            return Error::invalidField(QStringLiteral("patch.risk_profile"),
                                       QStringLiteral("must be low, medium or high"));
        slotData.insert(QStringLiteral("risk_profile"), risk);
    }
    *summary = QJsonObject{
        {QStringLiteral("changed_keys"), QJsonArray::fromStringList(changed)},
        {QStringLiteral("steps_before"), before},
        {QStringLiteral("steps_after"), steps.size()},
        {QStringLiteral("steps_removed"), removed},
        {QStringLiteral("steps_patched"), patched},
        {QStringLiteral("steps_replaced"), patch.contains(QStringLiteral("steps_override"))}};
    return slotData;
}

QString requester(const ReplayWriteCommon &common, const RequestMeta &meta,
                  const ServiceConfig &config)
{
    return commitActor(common.actor, meta, config).id;
}

} // namespace

Result<PlaybookOutcome> PlaybookEngine::repair(const PlaybookRepairRequest &req,
                                               const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = writerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto source = pick(all.value(), cs.value(), req.playbookId, req.fromVersion,
                       QStringLiteral("replay_playbook_version_not_found"));
    if (!source)
        return source.error();
    QJsonObject summary;
    auto patched = applyPatch(req.patch, source.value().node.slotData, &summary);
    if (!patched)
        return patched.error();
    QJsonObject slotData = patched.value();
    const int to = all.value().last().version + 1;
    const QString status = req.reviewRequired ? QStringLiteral("draft") : req.targetStatus;
    const QString state = req.reviewRequired ? kPendingReview : QStringLiteral("approved");
    slotData.insert(QStringLiteral("version"), to);
    slotData.insert(QStringLiteral("status"), status);
    slotData.insert(QStringLiteral("repaired_from_version"), source.value().version);
    slotData.insert(QStringLiteral("repair_patch"), req.patch);
    slotData.insert(QStringLiteral("repair_note"), nullable(req.note));
    slotData.insert(QStringLiteral("repair_summary"), summary);
    slotData.insert(
        QStringLiteral("repair_review"),
        QJsonObject{{QStringLiteral("state"), state},
                    {QStringLiteral("requested_at"), nowIso()},
                    {QStringLiteral("requested_by"), requester(req.common, meta, m_config)},
                    {QStringLiteral("requested_target_status"), req.targetStatus}});
    slotData.remove(QStringLiteral("promoted_from_version"));
    slotData.remove(QStringLiteral("reviewed_from_version"));
    slotData.remove(QStringLiteral("shadow_validation_last"));
    auto written = writeVersion(cs.value(), req.common, slotData, &source.value().node,
                                {source.value().node.id}, meta);
    if (!written)
        return written.error();
    QJsonObject body = scopeBody(cs.value());
    merge(body, {{QStringLiteral("playbook_id"), req.playbookId},
                 {QStringLiteral("from_version"), source.value().version},
                 {QStringLiteral("to_version"), to},
                 {QStringLiteral("status"), status},
                 {QStringLiteral("review_required"), req.reviewRequired},
                 {QStringLiteral("review_state"), state},
                 {QStringLiteral("repair_summary"), summary},
                 {QStringLiteral("playbook_node_id"), written.value().nodeId},
                 {QStringLiteral("playbook_uri"), written.value().uri}});
    merge(body, commitFields(written.value().commitId, written.value().commitUri,
                             written.value().commitHash));
    return PlaybookOutcome{cs.value(), body};
}

namespace {

/// Readiness of a version (simulate with the variables' defaults): the shadow validation of
/// an approved repair. Pass = no step blocked.
QJsonObject readiness(const NodeRecord &n, bool *pass)
{
    const QJsonObject defaults = PlaybookTemplate::defaultsOf(
        n.slotData.value(QStringLiteral("template_variables")).toArray());
    QJsonArray blockedSteps;
    int ready = 0;
    int unknown = 0;
    const QJsonArray steps = n.slotData.value(QStringLiteral("steps_template")).toArray();
    for (const QJsonValue &s : steps) {
        const StepEval e = evaluateStep(s.toObject(), {}, defaults);
        if (e.state == QLatin1String("blocked"))
            blockedSteps.append(QJsonObject{
                {QStringLiteral("step_index"), e.json.value(QStringLiteral("step_index"))},
                {QStringLiteral("reasons"), e.json.value(QStringLiteral("reasons"))}});
        else if (e.state == QLatin1String("ready"))
            ++ready;
        else
            ++unknown;
    }
    *pass = blockedSteps.isEmpty() && !steps.isEmpty();
    return {{QStringLiteral("mode"), QStringLiteral("readiness")},
            {QStringLiteral("pass"), *pass},
            {QStringLiteral("total_steps"), steps.size()},
            {QStringLiteral("ready_steps"), ready},
            {QStringLiteral("unknown_steps"), unknown},
            {QStringLiteral("blocked_steps"), blockedSteps},
            {QStringLiteral("validated_at"), nowIso()}};
}

} // namespace

Result<PlaybookOutcome> PlaybookEngine::review(const PlaybookReviewRequest &req,
                                               const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = writerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto reviewed = pick(all.value(), cs.value(), req.playbookId, req.version,
                         QStringLiteral("replay_playbook_version_not_found"));
    if (!reviewed)
        return reviewed.error();
    const NodeRecord &n = reviewed.value().node;
    if (!n.slotData.value(QStringLiteral("repair_patch")).isObject())
        return Error::make(
            400, QStringLiteral("replay_repair_patch_missing"),
            QStringLiteral("this version is not a repair: there is nothing to review"),
            {{QStringLiteral("playbook_id"), req.playbookId},
             {QStringLiteral("version"), reviewed.value().version}});
    const QJsonObject request = n.slotData.value(QStringLiteral("repair_review")).toObject();
    // Versions are never edited: a repair is reviewed once a later version was derived from it.
    const bool reviewedAlready
        = std::any_of(all.value().cbegin(), all.value().cend(), [&](const Version &v) {
              return v.node.slotData.value(QStringLiteral("reviewed_from_version")).toInt(-1)
                     == reviewed.value().version;
          });
    if (request.value(QStringLiteral("state")).toString() != kPendingReview || reviewedAlready)
        return Error::make(409, QStringLiteral("replay_repair_not_pending_review"),
                           QStringLiteral("this repair is not waiting for a review"),
                           {{QStringLiteral("playbook_id"), req.playbookId},
                            {QStringLiteral("version"), reviewed.value().version},
                            {QStringLiteral("review_state"),
                             nullable(request.value(QStringLiteral("state")).toString())}});
    QJsonObject slotData = n.slotData;
    QString status = QStringLiteral("draft");
    QString state;
    QJsonValue validation;
    if (req.action == QLatin1String("reject")) {
        state = QStringLiteral("rejected");
    } else if (req.autoShadowValidate) {
        bool pass = false;
        const QJsonObject v = readiness(n, &pass);
        validation = v;
        slotData.insert(QStringLiteral("shadow_validation_last"), v);
        state = pass ? QStringLiteral("approved") : QStringLiteral("approved_shadow_blocked");
        status = pass ? req.targetStatusOnApprove : QStringLiteral("draft");
    } else {
        state = QStringLiteral("approved");
        status = req.targetStatusOnApprove;
    }
    QJsonObject record = request;
    record.insert(QStringLiteral("state"), state);
    record.insert(QStringLiteral("reviewed_at"), nowIso());
    record.insert(QStringLiteral("reviewed_by"), requester(req.common, meta, m_config));
    record.insert(QStringLiteral("review_note"), nullable(req.note));
    record.insert(QStringLiteral("action"), req.action);
    const int to = all.value().last().version + 1;
    slotData.insert(QStringLiteral("version"), to);
    slotData.insert(QStringLiteral("status"), status);
    slotData.insert(QStringLiteral("repair_review"), record);
    slotData.insert(QStringLiteral("reviewed_from_version"), reviewed.value().version);
    slotData.remove(QStringLiteral("promoted_from_version"));
    auto written = writeVersion(cs.value(), req.common, slotData, &n, {n.id}, meta);
    if (!written)
        return written.error();
    QJsonObject body = scopeBody(cs.value());
    merge(body, {{QStringLiteral("playbook_id"), req.playbookId},
                 {QStringLiteral("reviewed_version"), reviewed.value().version},
                 {QStringLiteral("to_version"), to},
                 {QStringLiteral("action"), req.action},
                 {QStringLiteral("status"), status},
                 {QStringLiteral("review_state"), state},
                 {QStringLiteral("shadow_validation"), validation},
                 {QStringLiteral("auto_promotion"), QJsonValue()},
                 {QStringLiteral("learning_projection_result"), QJsonValue()},
                 {QStringLiteral("playbook_node_id"), written.value().nodeId},
                 {QStringLiteral("playbook_uri"), written.value().uri}});
    merge(body, commitFields(written.value().commitId, written.value().commitUri,
                             written.value().commitHash));
    return PlaybookOutcome{cs.value(), body};
}

// --- run, dispatch ----------------------------------------------------------------------------

Result<PlaybookOutcome> PlaybookEngine::run(const PlaybookRunRequest &req, const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = readerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto chosen = pick(all.value(), cs.value(), req.playbookId, req.version,
                       QStringLiteral("replay_playbook_not_found"));
    if (!chosen)
        return chosen.error();
    auto result = runVersion(cs.value(), req, chosen.value(), meta);
    if (!result)
        return result.error();
    return PlaybookOutcome{cs.value(), result.value().body};
}

Result<PlaybookEngine::RunResult> PlaybookEngine::runVersion(const CallScope &cs,
                                                             const PlaybookRunRequest &req,
                                                             const Version &version,
                                                             const RequestMeta &meta)
{
    const NodeRecord &n = version.node;
    const GateResult gate = evaluateGate(req.gate, n, req.mode);
    if (gate.rejected)
        return gateMismatch(gate);
    if (gate.effectiveMode != QLatin1String("simulate"))
        return openRun(cs, req, version, gate.effectiveMode, gate.json, meta);

    const QJsonObject defaults = PlaybookTemplate::defaultsOf(
        n.slotData.value(QStringLiteral("template_variables")).toArray());
    const QJsonArray steps = n.slotData.value(QStringLiteral("steps_template")).toArray();
    QJsonArray out;
    QJsonArray wouldRun;
    QJsonArray cannotRun;
    QJsonArray unknownSteps;
    QJsonArray blockedIndices;
    for (int i = 0; i < steps.size() && i < req.maxSteps; ++i) {
        const StepEval e = evaluateStep(steps.at(i).toObject(), req.params, defaults);
        out.append(e.json);
        const QJsonValue index = e.json.value(QStringLiteral("step_index"));
        if (e.state == QLatin1String("ready")) {
            wouldRun.append(index);
        } else if (e.state == QLatin1String("blocked")) {
            cannotRun.append(index);
            blockedIndices.append(index);
        } else {
            unknownSteps.append(index);
        }
    }
    RunResult r;
    r.version = version.version;
    r.outcome = cannotRun.isEmpty() && unknownSteps.isEmpty()  ? QStringLiteral("success")
                : wouldRun.isEmpty() && unknownSteps.isEmpty() ? QStringLiteral("failed")
                : wouldRun.isEmpty() && !cannotRun.isEmpty()   ? QStringLiteral("failed")
                                                               : QStringLiteral("partial");
    if (out.isEmpty())
        r.outcome = QStringLiteral("failed");
    if (r.outcome == QLatin1String("partial") && !blockedIndices.isEmpty())
        r.repairPatch = {{QStringLiteral("remove_step_indices"), blockedIndices}};
    const QString readiness = r.outcome == QLatin1String("success")   ? QStringLiteral("ready")
                              : r.outcome == QLatin1String("partial") ? QStringLiteral("partial")
                                                                      : QStringLiteral("blocked");
    QJsonObject body = scopeBody(cs);
    body.insert(QStringLiteral("playbook"), playbookHeader(cs, n));
    body.insert(QStringLiteral("mode"), QStringLiteral("simulate"));
    body.insert(QStringLiteral("deterministic_gate"), gate.json);
    body.insert(QStringLiteral("run"), QJsonValue());
    body.insert(QStringLiteral("summary"),
                QJsonObject{{QStringLiteral("total_steps"), out.size()},
                            {QStringLiteral("ready_steps"), wouldRun.size()},
                            {QStringLiteral("blocked_steps"), cannotRun.size()},
                            {QStringLiteral("unknown_steps"), unknownSteps.size()},
                            {QStringLiteral("would_run"), wouldRun},
                            {QStringLiteral("cannot_run"), cannotRun},
                            {QStringLiteral("unknown"), unknownSteps},
                            {QStringLiteral("replay_readiness"), readiness},
                            {QStringLiteral("outcome"), r.outcome},
                            {QStringLiteral("truncated"), steps.size() > req.maxSteps}});
    body.insert(QStringLiteral("steps"), out);
    body.insert(QStringLiteral("execution"),
                QJsonObject{{QStringLiteral("execution_backend"), QStringLiteral("none")},
                            {QStringLiteral("evaluated_in_process"), true},
                            {QStringLiteral("commands_executed"), 0}});
    body.insert(QStringLiteral("repair"),
                r.repairPatch.isEmpty() ? QJsonValue() : QJsonValue(r.repairPatch));
    body.insert(QStringLiteral("params_echo"), req.params);
    body.insert(QStringLiteral("cost_signals"),
                QJsonObject{{QStringLiteral("step_count"), out.size()},
                            {QStringLiteral("commands_executed"), 0}});
    r.body = body;
    return r;
}

Result<PlaybookEngine::RunResult>
PlaybookEngine::openRun(const CallScope &cs, const PlaybookRunRequest &req, const Version &version,
                        const QString &mode, const QJsonObject &gate, const RequestMeta &meta)
{
    const NodeRecord &n = version.node;
    const QJsonObject defaults = PlaybookTemplate::defaultsOf(
        n.slotData.value(QStringLiteral("template_variables")).toArray());
    const QJsonArray steps = n.slotData.value(QStringLiteral("steps_template")).toArray();
    if (steps.isEmpty())
        return Error::make(400, QStringLiteral("replay_playbook_has_no_steps"),
                           QStringLiteral("this playbook version has no step to run"),
                           {{QStringLiteral("playbook_id"), req.playbookId},
                            {QStringLiteral("version"), version.version}});
    QVector<StepEval> evals;
    QJsonArray missing;
    for (int i = 0; i < steps.size() && i < req.maxSteps; ++i) {
        StepEval e = evaluateStep(steps.at(i).toObject(), req.params, defaults);
        for (const QString &m : std::as_const(e.missing)) {
            if (!missing.contains(m))
                missing.append(m);
        }
        evals.append(std::move(e));
    }
    if (!missing.isEmpty())
        return Error::make(400, QStringLiteral("replay_playbook_params_missing"),
                           QStringLiteral("params must bind every template variable the steps use"),
                           {{QStringLiteral("missing"), missing},
                            {QStringLiteral("playbook_id"), req.playbookId},
                            {QStringLiteral("version"), version.version}});

    ReplayEngine replay(m_db, m_config, m_write);
    ReplayRunStartRequest start;
    start.common = req.common;
    start.goal = QStringLiteral("Replay playbook %1 v%2 (%3)")
                     .arg(slotText(n, "name"))
                     .arg(version.version)
                     .arg(mode);
    start.metadata
        = QJsonObject{{QStringLiteral("playbook_id"), req.playbookId},
                      {QStringLiteral("playbook_version"), version.version},
                      {QStringLiteral("playbook_node_id"), n.id},
                      {QStringLiteral("mode"), mode},
                      {QStringLiteral("dispatch_state"), kPending},
                      {QStringLiteral("params"), req.params},
                      {QStringLiteral("automation_run_id"), nullable(req.automationRunId)},
                      {QStringLiteral("automation_node_id"), nullable(req.automationNodeId)}};
    auto started = replay.runStart(start, meta);
    if (!started)
        return started.error();
    const QString runId = started.value().runId;
    QJsonArray outSteps;
    for (const StepEval &e : std::as_const(evals)) {
        const QJsonObject step = steps.at(int(outSteps.size())).toObject();
        ReplayStepBeforeRequest before;
        before.common = req.common;
        before.runId = runId;
        before.stepIndex = step.value(QStringLiteral("step_index")).toInt(int(outSteps.size()) + 1);
        before.toolName = step.value(QStringLiteral("tool_name")).toString();
        before.toolInput = e.boundInput;
        before.expectedOutputSignature = e.boundSignature;
        before.preconditions = e.boundPreconditions;
        if (step.value(QStringLiteral("retry_policy")).isObject()) {
            before.retryPolicy = step.value(QStringLiteral("retry_policy")).toObject();
            before.retryPolicyGiven = true;
        }
        const QString safety = step.value(QStringLiteral("safety_level")).toString();
        if (!safety.isEmpty())
            before.safetyLevel = safety;
        before.metadata = QJsonObject{{QStringLiteral("playbook_id"), req.playbookId},
                                      {QStringLiteral("playbook_version"), version.version},
                                      {QStringLiteral("mode"), mode}};
        auto written = replay.stepBefore(before, meta);
        if (!written)
            return written.error();
        outSteps.append(
            QJsonObject{{QStringLiteral("step_index"), before.stepIndex},
                        {QStringLiteral("step_id"), written.value().stepId},
                        {QStringLiteral("tool_name"), before.toolName},
                        {QStringLiteral("tool_input"), before.toolInput},
                        {QStringLiteral("argv"),
                         QJsonArray::fromStringList(PlaybookTemplate::argvOf(before.toolInput))},
                        {QStringLiteral("preconditions"), before.preconditions},
                        {QStringLiteral("safety_level"), before.safetyLevel},
                        {QStringLiteral("status"), kPending}});
    }
    RunResult r;
    r.outcome = kPending;
    r.version = version.version;
    r.runId = runId;
    QJsonObject body = scopeBody(cs);
    body.insert(QStringLiteral("playbook"), playbookHeader(cs, n));
    body.insert(QStringLiteral("mode"), mode);
    body.insert(QStringLiteral("deterministic_gate"), gate);
    body.insert(
        QStringLiteral("run"),
        QJsonObject{{QStringLiteral("run_id"), runId},
                    {QStringLiteral("status"), kPending},
                    {QStringLiteral("dispatch_state"), kPending},
                    {QStringLiteral("run_node_id"), started.value().nodeId},
                    {QStringLiteral("run_uri"), started.value().nodeUri},
                    {QStringLiteral("commit_id_start"), started.value().commitId},
                    {QStringLiteral("automation_run_id"), nullable(req.automationRunId)},
                    {QStringLiteral("automation_node_id"), nullable(req.automationNodeId)}});
    body.insert(QStringLiteral("summary"),
                QJsonObject{{QStringLiteral("total_steps"), outSteps.size()},
                            {QStringLiteral("pending_steps"), outSteps.size()},
                            {QStringLiteral("replay_readiness"), kPending},
                            {QStringLiteral("outcome"), kPending},
                            {QStringLiteral("truncated"), steps.size() > req.maxSteps}});
    body.insert(QStringLiteral("steps"), outSteps);
    body.insert(QStringLiteral("execution"),
                QJsonObject{{QStringLiteral("execution_backend"), QStringLiteral("executor")},
                            {QStringLiteral("dispatch_route"),
                             QStringLiteral("/v1/memory/replay/playbooks/dispatch")},
                            {QStringLiteral("commands_executed"), 0}});
    body.insert(QStringLiteral("params_echo"), req.params);
    body.insert(QStringLiteral("cost_signals"),
                QJsonObject{{QStringLiteral("step_count"), outSteps.size()},
                            {QStringLiteral("commands_executed"), 0}});
    r.body = body;
    return r;
}

Result<PlaybookOutcome> PlaybookEngine::dispatch(const PlaybookDispatchRequest &req,
                                                 const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = writerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    QJsonValue candidate;
    QJsonValue gateJson;
    if (!req.playbookId.isEmpty()) {
        auto all = versions(cs.value(), req.playbookId, viewer.value());
        if (!all)
            return all.error();
        if (all.value().isEmpty())
            return playbookNotFound(cs.value(), req.playbookId);
        const GateResult gate
            = evaluateGate(req.gate, all.value().last().node, QStringLiteral("strict"));
        if (gate.rejected)
            return gateMismatch(gate);
        gateJson = gate.json;
        candidate = QJsonObject{
            {QStringLiteral("eligible_for_deterministic_replay"), gate.matched},
            {QStringLiteral("mismatch_reasons"),
             gate.json.value(QStringLiteral("mismatch_reasons"))},
            {QStringLiteral("playbook"), playbookHeader(cs.value(), all.value().last().node)}};
    }
    if (!m_write)
        return Error::internal(QStringLiteral("playbook engine has no write path"));

    std::lock_guard<std::mutex> lock(dispatchMutex());
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    QString where = QStringLiteral(" AND json_extract(slots, '$.metadata.dispatch_state') = ?");
    QVariantList args{kPending};
    if (!req.playbookId.isEmpty()) {
        where += QStringLiteral(" AND json_extract(slots, '$.metadata.playbook_id') = ?");
        args << req.playbookId;
    }
    if (!req.runId.isEmpty()) {
        // A named run is looked at whatever its state, to say why it cannot be claimed.
        where = QStringLiteral(" AND json_extract(slots, '$.run_id') = ?");
        args = {req.runId};
    }
    auto found = playbookRunNodes(conn.value(), cs.value(), where, args,
                                  QStringLiteral("created_at ASC, id ASC"), 500);
    if (!found)
        return found.error();
    std::optional<NodeRecord> claim;
    for (const NodeRecord &n : found.value()) {
        if (!viewer.value().sees(n))
            continue;
        auto end
            = GraphStore::findNodeByClientId(conn.value(), cs.value().tenantId, cs.value().scope,
                                             runEndClientId(slotText(n, "run_id")));
        if (!end)
            return end.error();
        const QJsonObject md = n.slotData.value(QStringLiteral("metadata")).toObject();
        if (!req.runId.isEmpty()) {
            if (end.value())
                return Error::make(409, QStringLiteral("replay_dispatch_run_ended"),
                                   QStringLiteral("this run has already ended"),
                                   {{QStringLiteral("run_id"), req.runId},
                                    {QStringLiteral("status"), slotText(*end.value(), "status")}});
            if (md.value(QStringLiteral("dispatch_state")).toString() != kPending)
                return Error::make(
                    409, QStringLiteral("replay_dispatch_already_claimed"),
                    QStringLiteral("this run was already handed to an executor"),
                    {{QStringLiteral("run_id"), req.runId},
                     {QStringLiteral("claimed_by"), md.value(QStringLiteral("claimed_by"))}});
        }
        if (end.value())
            continue;
        claim = n;
        break;
    }
    if (!req.runId.isEmpty() && !claim)
        return Error::notFound(QStringLiteral("run_id names no playbook run in this scope"),
                               {{QStringLiteral("reason"), QStringLiteral("replay_run_not_found")},
                                {QStringLiteral("run_id"), req.runId}});
    QJsonObject body = scopeBody(cs.value());
    body.insert(QStringLiteral("candidate"), candidate);
    body.insert(QStringLiteral("deterministic_gate"), gateJson);
    if (!claim) {
        body.insert(QStringLiteral("dispatch"),
                    QJsonObject{{QStringLiteral("decision"), QStringLiteral("no_pending_work")},
                                {QStringLiteral("executor_id"), req.executorId},
                                {QStringLiteral("primary_inference_skipped"), false},
                                {QStringLiteral("fallback_executed"), false}});
        body.insert(QStringLiteral("run"), QJsonValue());
        body.insert(QStringLiteral("steps"), QJsonArray());
        return PlaybookOutcome{cs.value(), body};
    }

    // The claim is the run node rewritten with dispatch_state claimed: one commit.
    NodeRecord runNode = *claim;
    QJsonObject slotData = runNode.slotData;
    QJsonObject md = slotData.value(QStringLiteral("metadata")).toObject();
    const QString claimedAt = nowIso();
    md.insert(QStringLiteral("dispatch_state"), kClaimed);
    md.insert(QStringLiteral("claimed_by"), req.executorId);
    md.insert(QStringLiteral("claimed_at"), claimedAt);
    slotData.insert(QStringLiteral("metadata"), md);
    const QJsonObject node{{QStringLiteral("client_id"), runNode.clientId},
                           {QStringLiteral("type"), runNode.type},
                           {QStringLiteral("title"), runNode.title},
                           {QStringLiteral("text_summary"), runNode.textSummary},
                           {QStringLiteral("slots"), slotData}};
    QJsonObject writeBody{
        {QStringLiteral("tenant_id"), cs.value().tenantId},
        {QStringLiteral("scope"), cs.value().scope},
        {QStringLiteral("actor"), req.common.actor.isEmpty() ? kDefaultActor : req.common.actor},
        {QStringLiteral("auto_embed"), false},
        {QStringLiteral("nodes"), QJsonArray{node}},
        {QStringLiteral("input_text"),
         QStringLiteral("dispatch %1 to %2").arg(slotText(runNode, "run_id"), req.executorId)}};
    auto request = WriteRequest::fromJson(writeBody, m_config.maxTextLength);
    if (!request)
        return request.error();
    auto written = m_write(request.value(), meta);
    if (!written)
        return written.error();
    const QString runId = slotText(runNode, "run_id");
    auto view = ReplayEngine(m_db, m_config).run(cs.value().tenantId, cs.value().scope, runId);
    if (!view)
        return view.error();
    QJsonArray steps;
    for (const ReplayStepView &s : view.value().steps) {
        steps.append(QJsonObject{
            {QStringLiteral("step_id"), s.stepId},
            {QStringLiteral("step_index"), s.stepIndex ? QJsonValue(*s.stepIndex) : QJsonValue()},
            {QStringLiteral("tool_name"), s.toolName},
            {QStringLiteral("tool_input"), s.toolInput},
            {QStringLiteral("argv"),
             QJsonArray::fromStringList(PlaybookTemplate::argvOf(s.toolInput))},
            {QStringLiteral("expected_output_signature"), s.expectedOutputSignature},
            {QStringLiteral("preconditions"), s.preconditions},
            {QStringLiteral("safety_level"), s.safetyLevel},
            {QStringLiteral("status"), s.status}});
    }
    body.insert(QStringLiteral("dispatch"),
                QJsonObject{{QStringLiteral("decision"), QStringLiteral("claimed")},
                            {QStringLiteral("executor_id"), req.executorId},
                            {QStringLiteral("claimed_at"), claimedAt},
                            {QStringLiteral("primary_inference_skipped"), true},
                            {QStringLiteral("fallback_executed"), false},
                            {QStringLiteral("commit_id"), written.value().commitId},
                            {QStringLiteral("commit_uri"), written.value().commitUri}});
    QJsonObject claimedRun = playbookRunJson(conn.value(), cs.value(), runNode);
    claimedRun.insert(QStringLiteral("dispatch_state"), kClaimed);
    claimedRun.insert(QStringLiteral("status"), kClaimed);
    claimedRun.insert(QStringLiteral("claimed_by"), req.executorId);
    claimedRun.insert(QStringLiteral("claimed_at"), claimedAt);
    claimedRun.insert(QStringLiteral("goal"), slotText(runNode, "goal"));
    body.insert(QStringLiteral("run"), claimedRun);
    body.insert(QStringLiteral("steps"), steps);
    body.insert(
        QStringLiteral("report"),
        QJsonObject{{QStringLiteral("step_after"), QStringLiteral("/v1/memory/replay/step/after")},
                    {QStringLiteral("run_end"), QStringLiteral("/v1/memory/replay/run/end")}});
    return PlaybookOutcome{cs.value(), body};
}

// --- gateway, console -------------------------------------------------------------------------

Result<PlaybookCallResult> PlaybookEngine::run(const PlaybookCall &call, const RequestMeta &meta)
{
    PlaybookRunRequest req;
    req.common.tenantId = call.scope.tenantId;
    req.common.scope = call.scope.scope;
    req.common.actor = call.actor;
    req.playbookId = call.playbookId;
    req.version = call.version;
    req.mode = call.mode.isEmpty() ? QStringLiteral("simulate") : call.mode;
    if (!PlaybookVocabulary::modes().contains(req.mode))
        return Error::invalidField(QStringLiteral("mode"),
                                   QStringLiteral("must be simulate, strict or guided"));
    req.params = call.params;
    req.automationRunId = call.automationRunId;
    req.automationNodeId = call.automationNodeId;
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = readerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto chosen = pick(all.value(), cs.value(), req.playbookId, req.version,
                       QStringLiteral("replay_playbook_not_found"));
    if (!chosen)
        return chosen.error();
    auto result = runVersion(cs.value(), req, chosen.value(), meta);
    if (!result)
        return result.error();
    PlaybookCallResult out;
    out.outcome = result.value().outcome;
    out.playbookVersion = result.value().version;
    out.replayRunId = result.value().runId;
    out.output = result.value().body;
    out.repairPatch = result.value().repairPatch;
    if (out.outcome == QLatin1String("failed")) {
        out.errorCode = QStringLiteral("playbook_steps_blocked");
        out.errorMessage = QStringLiteral("no step of the playbook can run with these params");
    }
    return out;
}

Result<PlaybookVersionInfo> PlaybookEngine::latestVersion(const CallScope &scope,
                                                          const QString &playbookId,
                                                          const RequestMeta &meta)
{
    auto cs = resolveCallScope(scope.tenantId, scope.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = resolveViewer(QString(), QString(), meta, m_config);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), playbookId.toLower(), viewer.value());
    if (!all)
        return all.error();
    if (all.value().isEmpty())
        return playbookNotFound(cs.value(), playbookId);
    const Version &latest = all.value().last();
    return PlaybookVersionInfo{latest.version, latest.status, reviewStateOf(latest.node)};
}

Result<QVector<PlaybookSummary>> PlaybookEngine::list(const QString &tenantId, const QString &scope)
{
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto found = GraphStore::nodesByClientIdOrPrefix(conn.value(), tenantId, scope, {},
                                                     {QStringLiteral("replay:playbook:")});
    if (!found)
        return found.error();
    QHash<QString, PlaybookSummary> latest;
    for (const NodeRecord &n : found.value()) {
        if (slotText(n, "replay_kind") != kKindPlaybook)
            continue;
        const QString id = slotText(n, "playbook_id");
        const int version = n.slotData.value(QStringLiteral("version")).toInt(1);
        auto it = latest.find(id);
        if (it != latest.end() && it->version > version)
            continue;
        PlaybookSummary s;
        s.playbookId = id;
        s.name = slotText(n, "name");
        s.version = version;
        s.status = slotText(n, "status");
        s.reviewState = reviewStateOf(n);
        s.stepCount = int(n.slotData.value(QStringLiteral("steps_template")).toArray().size());
        s.sourceRunId = slotText(n, "source_run_id");
        s.updatedAt = n.createdAt;
        s.memoryLane = n.memoryLane;
        s.ownerAgentId = n.ownerAgentId;
        s.ownerTeamId = n.ownerTeamId;
        latest.insert(id, s);
    }
    QVector<PlaybookSummary> out = latest.values();
    std::sort(out.begin(), out.end(), [](const PlaybookSummary &a, const PlaybookSummary &b) {
        return a.updatedAt > b.updatedAt;
    });
    return out;
}

} // namespace MemoryGraph
