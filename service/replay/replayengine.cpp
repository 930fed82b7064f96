#include "service/replay/replayengine.h"

#include "service/core/ids.h"
#include "service/core/jsonvalues.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/rulestore.h"

#include <QHash>
#include <QSet>

#include <algorithm>

namespace MemoryGraph {

namespace {

const QString kKindRun = QStringLiteral("run");
const QString kKindStep = QStringLiteral("step");
const QString kKindStepResult = QStringLiteral("step_result");
const QString kKindRunEnd = QStringLiteral("run_end");
const QString kDefaultActor = QStringLiteral("replay_api");

// Deterministic client_ids (reference §7.1): a run's records are found by these prefixes, and
// re-sending a record updates the node it wrote before instead of adding another.
QString runClientId(const QString &runId)
{
    return QStringLiteral("replay:run:") + runId;
}

QString stepClientId(const QString &runId, const QString &stepId)
{
    return QStringLiteral("replay:step:") + runId + QLatin1Char(':') + stepId;
}

QString stepResultClientId(const QString &runId, const QString &stepId, const QString &status)
{
    return QStringLiteral("replay:step_result:") + runId + QLatin1Char(':') + stepId
           + QLatin1Char(':') + status;
}

QString runEndClientId(const QString &runId)
{
    return QStringLiteral("replay:run_end:") + runId;
}

QString kindOf(const NodeRecord &n)
{
    return n.slotData.value(QStringLiteral("replay_kind")).toString();
}

QString slotText(const NodeRecord &n, const char *key)
{
    return n.slotData.value(QLatin1String(key)).toString();
}

std::optional<int> slotIndex(const NodeRecord &n)
{
    const QJsonValue v = n.slotData.value(QStringLiteral("step_index"));
    if (!v.isDouble() || v.toDouble() < 1)
        return std::nullopt;
    return v.toInt();
}

QJsonValue nowIso()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

Error runNotFound(const CallScope &cs, const QString &runId)
{
    return Error::notFound(QStringLiteral("run_id was not found in this scope"),
                           {{QStringLiteral("reason"), QStringLiteral("replay_run_not_found")},
                            {QStringLiteral("run_id"), runId},
                            {QStringLiteral("tenant_id"), cs.tenantId},
                            {QStringLiteral("scope"), cs.scope}});
}

/// Every replay node of a run, oldest first. Ranges over the (tenant, scope, client_id) index
/// rather than scanning slots; the slots check drops foreign nodes that merely share a prefix.
Result<QVector<NodeRecord>> runNodes(QSqlDatabase &db, const CallScope &cs, const QString &runId)
{
    const QString steps = QStringLiteral("replay:step:") + runId + QLatin1Char(':');
    const QString results = QStringLiteral("replay:step_result:") + runId + QLatin1Char(':');
    auto found = GraphStore::nodesByClientIdOrPrefix(
        db, cs.tenantId, cs.scope, {runClientId(runId), runEndClientId(runId)}, {steps, results});
    if (!found)
        return found.error();
    static const QSet<QString> kinds{kKindRun, kKindStep, kKindStepResult, kKindRunEnd};
    QVector<NodeRecord> out;
    for (const NodeRecord &n : found.value()) {
        if (kinds.contains(kindOf(n)) && slotText(n, "run_id") == runId)
            out.append(n);
    }
    return out;
}

QString uriOf(const CallScope &cs, const NodeRecord &n)
{
    return recordUri(cs.tenantId, cs.scope, n.type, n.id);
}

QString commitUriOf(const CallScope &cs, const QString &commitId)
{
    return commitId.isEmpty()
               ? QString()
               : recordUri(cs.tenantId, cs.scope, QStringLiteral("commit"), commitId);
}

/// The later of two results of the same step: the one changed last (a re-recorded outcome
/// moves its node's updated_at), then the one created last.
bool isNewer(const NodeRecord &candidate, const NodeRecord &current)
{
    if (candidate.updatedAt != current.updatedAt)
        return candidate.updatedAt > current.updatedAt;
    return candidate.createdAt >= current.createdAt;
}

QStringList stringsOf(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &v : value.toArray()) {
        if (v.isString() && !v.toString().isEmpty())
            out << v.toString();
    }
    return out;
}

/// An edge from the record being written (named by its client_id) to a stored node.
QJsonObject edgeToNode(const QString &type, const QString &srcClientId, const QString &dstNodeId)
{
    return QJsonObject{
        {QStringLiteral("type"), type},
        {QStringLiteral("src"), QJsonObject{{QStringLiteral("client_id"), srcClientId}}},
        {QStringLiteral("dst"), QJsonObject{{QStringLiteral("id"), dstNodeId}}}};
}

/// A step's own id, else (for a step recorded without one) its node id.
QString stepIdOf(const NodeRecord &step)
{
    return slotText(step, "step_id").isEmpty() ? step.id : slotText(step, "step_id");
}

/// The step a step/after outcome belongs to, as far as it could be found.
struct StepRef
{
    std::optional<NodeRecord> node;
    QString stepId;
};

/// The step is named by step_id, else by the newest visible step with that step_index.
Result<StepRef> findStep(Database &database, const CallScope &cs, const ReplayStepAfterRequest &req,
                         const Viewer &viewer)
{
    auto conn = database.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase &db = conn.value();
    StepRef step{std::nullopt, req.stepId};
    if (!step.stepId.isEmpty()) {
        auto found = GraphStore::findNodeByClientId(db, cs.tenantId, cs.scope,
                                                    stepClientId(req.runId, step.stepId));
        if (!found)
            return found.error();
        if (found.value() && kindOf(*found.value()) == kKindStep && viewer.sees(*found.value()))
            step.node = found.value();
    } else if (req.stepIndex) {
        auto nodes = runNodes(db, cs, req.runId);
        if (!nodes)
            return nodes.error();
        for (const NodeRecord &n : nodes.value()) {
            if (kindOf(n) == kKindStep && slotIndex(n) == req.stepIndex && viewer.sees(n))
                step.node = n;
        }
        if (step.node)
            step.stepId = stepIdOf(*step.node);
    }
    return step;
}

/// 400 when step/after names neither a step_id nor the step_index of a recorded step.
Error stepReferenceRequired(const ReplayStepAfterRequest &req)
{
    return Error::make(400, QStringLiteral("replay_step_reference_required"),
                       QStringLiteral("step_id or a step_index of a recorded step is required to "
                                      "record a step outcome"),
                       {{QStringLiteral("run_id"), req.runId},
                        {QStringLiteral("step_index"),
                         req.stepIndex ? QJsonValue(*req.stepIndex) : QJsonValue()}});
}

/// The step_result node of a step/after call.
QJsonObject stepResultNode(const ReplayStepAfterRequest &req, const QString &clientId,
                           const QString &stepId, std::optional<int> stepIndex)
{
    const QString summary = !req.error.isEmpty() ? req.error
                            : !req.repairNote.isEmpty()
                                ? req.repairNote
                                : QStringLiteral("Replay step outcome: ") + req.status;
    return QJsonObject{
        {QStringLiteral("client_id"), clientId},
        {QStringLiteral("type"), QStringLiteral("evidence")},
        {QStringLiteral("title"),
         QStringLiteral("Step %1 %2")
             .arg(stepIndex ? QString::number(*stepIndex) : QStringLiteral("?"), req.status)},
        {QStringLiteral("text_summary"), summary},
        {QStringLiteral("slots"),
         QJsonObject{
             {QStringLiteral("replay_kind"), kKindStepResult},
             {QStringLiteral("phase"), QStringLiteral("after")},
             {QStringLiteral("run_id"), req.runId},
             {QStringLiteral("step_id"), stepId},
             {QStringLiteral("step_index"), stepIndex ? QJsonValue(*stepIndex) : QJsonValue()},
             {QStringLiteral("status"), req.status},
             {QStringLiteral("output_signature"), req.outputSignature},
             {QStringLiteral("postconditions"), req.postconditions},
             {QStringLiteral("artifact_refs"), QJsonArray::fromStringList(req.artifactRefs)},
             {QStringLiteral("repair_applied"), req.repairApplied},
             {QStringLiteral("repair_note"), nullable(req.repairNote)},
             {QStringLiteral("error"), nullable(req.error)},
             {QStringLiteral("metadata"), req.metadata},
             // Re-recording the same outcome changes the node, so it counts as the latest.
             {QStringLiteral("recorded_at"), nowIso()}}}};
}

/// Step results by step_id: the index (into the run's nodes) of each step's latest result.
using LatestResults = QHash<QString, int>;

/// Fills the timeline, the run header and the counters in one pass over the run's nodes, and
/// gathers the artifact refs and each step's latest result on the way.
void scanRunNodes(const CallScope &cs, const QVector<NodeRecord> &nodes, ReplayRunView &view,
                  LatestResults &latestResult, QStringList &artifacts)
{
    for (int i = 0; i < nodes.size(); ++i) {
        const NodeRecord &n = nodes[i];
        const QString kind = kindOf(n);
        const bool hasStatus = kind == kKindStepResult || kind == kKindRunEnd;
        view.timeline.append({n.id, uriOf(cs, n), n.type, kind, n.title, n.textSummary, n.createdAt,
                              n.commitId, commitUriOf(cs, n.commitId),
                              hasStatus ? slotText(n, "status") : QString()});
        if (kind == kKindRun && view.run.runNodeId.isEmpty()) {
            view.run.runNodeId = n.id;
            view.run.runUri = uriOf(cs, n);
            view.run.goal = slotText(n, "goal");
            view.run.startedAt = n.createdAt;
        } else if (kind == kKindRunEnd) {
            view.run.status = slotText(n, "status");
            view.run.endedAt = n.updatedAt;
        } else if (kind == kKindStep) {
            ++view.counters.stepNodes;
        } else if (kind == kKindStepResult) {
            ++view.counters.stepResultNodes;
            artifacts += stringsOf(n.slotData.value(QStringLiteral("artifact_refs")));
            const QString sid = slotText(n, "step_id");
            if (!sid.isEmpty()
                && (!latestResult.contains(sid) || isNewer(n, nodes[latestResult.value(sid)])))
                latestResult.insert(sid, i);
        }
    }
}

/// A step as recorded by step/before, still pending.
ReplayStepView stepView(const CallScope &cs, const NodeRecord &n)
{
    ReplayStepView s;
    s.stepId = stepIdOf(n);
    s.stepIndex = slotIndex(n);
    s.toolName = slotText(n, "tool_name");
    s.safetyLevel = slotText(n, "safety_level");
    s.preconditions = n.slotData.value(QStringLiteral("preconditions")).toArray();
    s.stepNodeId = n.id;
    s.stepUri = uriOf(cs, n);
    s.createdAt = n.createdAt;
    s.decisionId = slotText(n, "decision_id");
    s.toolInput = n.slotData.value(QStringLiteral("tool_input"));
    s.expectedOutputSignature = n.slotData.value(QStringLiteral("expected_output_signature"));
    s.status = QStringLiteral("pending");
    return s;
}

/// Completes a step with what its latest step/after result recorded.
void applyResult(const CallScope &cs, const NodeRecord &r, ReplayStepView &s)
{
    s.status = slotText(r, "status");
    s.repairApplied = r.slotData.value(QStringLiteral("repair_applied")).toBool();
    s.postconditions = r.slotData.value(QStringLiteral("postconditions")).toArray();
    s.artifactRefs = stringsOf(r.slotData.value(QStringLiteral("artifact_refs")));
    s.resultNodeId = r.id;
    s.resultUri = uriOf(cs, r);
    s.resultAt = r.updatedAt;
    s.outputSignature = r.slotData.value(QStringLiteral("output_signature"));
    s.error = slotText(r, "error");
    s.repairNote = slotText(r, "repair_note");
}

/// Every step with its latest result (added to the view when asked for); returns the decision
/// ids the steps declared, each once, in step order.
QStringList collectSteps(const CallScope &cs, const QVector<NodeRecord> &nodes,
                         const LatestResults &latestResult, bool includeSteps, ReplayRunView &view)
{
    QStringList stepDecisions;
    for (const NodeRecord &n : nodes) {
        if (kindOf(n) != kKindStep)
            continue;
        ReplayStepView s = stepView(cs, n);
        if (latestResult.contains(s.stepId))
            applyResult(cs, nodes[latestResult.value(s.stepId)], s);
        if (!s.decisionId.isEmpty() && !stepDecisions.contains(s.decisionId))
            stepDecisions << s.decisionId;
        if (includeSteps)
            view.steps.append(s);
    }
    return stepDecisions;
}

/// The tool decisions recorded with this run_id, newest first and bounded, with their count.
Result<void> attachDecisions(QSqlDatabase &db, const CallScope &cs, const QString &runId,
                             ReplayRunView &view)
{
    auto decisions = RuleStore::decisionsForRun(db, cs.tenantId, cs.scope, runId,
                                                ReplayEngine::kMaxProvenanceIds);
    if (!decisions)
        return decisions.error();
    auto decisionCount = RuleStore::decisionCountForRun(db, cs.tenantId, cs.scope, runId);
    if (!decisionCount)
        return decisionCount.error();
    view.decisions = decisions.value();
    view.counters.decisions = int(decisionCount.value());
    return {};
}

/// Decision provenance: the run's decisions, then the ones its steps declared.
void fillDecisionProvenance(const QVector<DecisionRecord> &decisions,
                            const QStringList &stepDecisions, ReplayProvenance &p)
{
    for (const DecisionRecord &d : decisions)
        p.decisionIds << d.id;
    // Decisions a step declared but that were recorded under another run_id still belong here.
    for (int i = int(stepDecisions.size()) - 1; i >= 0; --i) {
        if (!p.decisionIds.contains(stepDecisions[i]))
            p.decisionIds << stepDecisions[i];
    }
    p.decisionIds = p.decisionIds.mid(0, ReplayEngine::kMaxProvenanceIds);
    p.decisionId = p.decisionIds.value(0);
}

/// Commit provenance: each commit that changed a node of the run once, ordered by when it
/// last changed one, bounded to the newest.
void fillCommitProvenance(const CallScope &cs, const QVector<NodeRecord> &nodes,
                          ReplayProvenance &p)
{
    QVector<const NodeRecord *> byChange;
    for (const NodeRecord &n : nodes)
        byChange.append(&n);
    std::stable_sort(
        byChange.begin(), byChange.end(),
        [](const NodeRecord *a, const NodeRecord *b) { return a->updatedAt < b->updatedAt; });
    for (const NodeRecord *n : std::as_const(byChange)) {
        const QString uri = commitUriOf(cs, n->commitId);
        if (!uri.isEmpty()) {
            p.commitUris.removeAll(uri);
            p.commitUris << uri;
        }
    }
    if (p.commitUris.size() > ReplayEngine::kMaxProvenanceIds)
        p.commitUris = p.commitUris.mid(p.commitUris.size() - ReplayEngine::kMaxProvenanceIds);
    p.commitUri = p.commitUris.isEmpty() ? QString() : p.commitUris.last();
}

} // namespace

ReplayEngine::ReplayEngine(Database &db, const ServiceConfig &config, WriteFn write)
    : m_db(db), m_config(config), m_write(std::move(write))
{
}

Result<Viewer> ReplayEngine::writerViewer(const ReplayWriteCommon &common,
                                          const RequestMeta &meta) const
{
    // A writer that names no consumer reads the run as the identity it writes with, so a run
    // started with producer_agent_id X can be continued by X without repeating it as consumer.
    ReplayConsumer consumer = common.consumer;
    if (consumer.agentId.isEmpty() && !meta.principal)
        consumer.agentId
            = !common.ownerAgentId.isEmpty() ? common.ownerAgentId : common.producerAgentId;
    if (consumer.teamId.isEmpty() && !meta.principal)
        consumer.teamId = common.ownerTeamId;
    return resolveViewer(consumer.agentId, consumer.teamId, meta, m_config);
}

Result<NodeRecord> ReplayEngine::visibleRunNode(const CallScope &cs, const QString &runId,
                                                const Viewer &viewer)
{
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto found
        = GraphStore::findNodeByClientId(conn.value(), cs.tenantId, cs.scope, runClientId(runId));
    if (!found)
        return found.error();
    if (!found.value() || kindOf(*found.value()) != kKindRun || !viewer.sees(*found.value()))
        return runNotFound(cs, runId);
    return *found.value();
}

Result<ReplayEngine::OpenRun> ReplayEngine::openRun(const ReplayWriteCommon &common,
                                                    const QString &runId, const RequestMeta &meta)
{
    auto cs = resolveCallScope(common.tenantId, common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = writerViewer(common, meta);
    if (!viewer)
        return viewer.error();
    auto runNode = visibleRunNode(cs.value(), runId, viewer.value());
    if (!runNode)
        return runNode.error();
    return OpenRun{cs.value(), viewer.value(), runNode.value()};
}

Result<ReplayWriteOutcome>
ReplayEngine::writeRecord(const CallScope &cs, const ReplayWriteCommon &common,
                          const QString &derivedInput, const QJsonObject &node,
                          const QJsonArray &edges, const RequestMeta &meta)
{
    if (!m_write)
        return Error::internal(QStringLiteral("replay engine has no write path"));
    QJsonObject body{
        {QStringLiteral("tenant_id"), cs.tenantId},
        {QStringLiteral("scope"), cs.scope},
        {QStringLiteral("actor"), common.actor.isEmpty() ? kDefaultActor : common.actor},
        {QStringLiteral("auto_embed"), false},
        {QStringLiteral("nodes"), QJsonArray{node}},
        {QStringLiteral("edges"), edges}};
    // The caller's input digest when given; otherwise the record's own text stands for it.
    if (!common.inputSha256.isEmpty())
        body.insert(QStringLiteral("input_sha256"), common.inputSha256);
    if (!common.inputText.isEmpty())
        body.insert(QStringLiteral("input_text"), common.inputText);
    if (common.inputSha256.isEmpty() && common.inputText.isEmpty())
        body.insert(QStringLiteral("input_text"), derivedInput);
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
    const WriteResult &w = written.value();
    ReplayWriteOutcome out;
    out.scope = cs;
    if (!w.nodes.isEmpty()) {
        out.nodeId = w.nodes.first().id;
        out.nodeUri = w.nodes.first().uri;
    }
    out.commitId = w.commitId;
    out.commitUri = w.commitUri;
    out.commitHash = w.commitHash;
    return out;
}

Result<ReplayWriteOutcome> ReplayEngine::runStart(const ReplayRunStartRequest &req,
                                                  const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = writerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    const QString runId = req.runId.isEmpty() ? randomUuid() : req.runId;
    {
        auto conn = m_db.connection();
        if (!conn)
            return conn.error();
        auto existing = GraphStore::findNodeByClientId(conn.value(), cs.value().tenantId,
                                                       cs.value().scope, runClientId(runId));
        if (!existing)
            return existing.error();
        // Restarting one's own run updates it; someone else's private run is not to be touched.
        if (existing.value() && !viewer.value().sees(*existing.value()))
            return Error::invalidField(
                QStringLiteral("run_id"),
                QStringLiteral("is already used by a run this caller cannot see"));
    }
    const QJsonObject node{
        {QStringLiteral("client_id"), runClientId(runId)},
        {QStringLiteral("type"), QStringLiteral("event")},
        {QStringLiteral("title"), QStringLiteral("Replay run %1").arg(runId.left(8))},
        {QStringLiteral("text_summary"), req.goal},
        {QStringLiteral("slots"),
         QJsonObject{{QStringLiteral("replay_kind"), kKindRun},
                     {QStringLiteral("run_id"), runId},
                     {QStringLiteral("goal"), req.goal},
                     {QStringLiteral("status"), QStringLiteral("started")},
                     {QStringLiteral("started_at"), nowIso()},
                     {QStringLiteral("context_snapshot_ref"), nullable(req.contextSnapshotRef)},
                     {QStringLiteral("context_snapshot_hash"), nullable(req.contextSnapshotHash)},
                     {QStringLiteral("metadata"), req.metadata}}}};
    auto out = writeRecord(cs.value(), req.common, req.goal, node, {}, meta);
    if (out) {
        out.value().runId = runId;
        out.value().status = QStringLiteral("started");
    }
    return out;
}

Result<ReplayWriteOutcome> ReplayEngine::stepBefore(const ReplayStepBeforeRequest &req,
                                                    const RequestMeta &meta)
{
    auto run = openRun(req.common, req.runId, meta);
    if (!run)
        return run.error();
    const CallScope &cs = run.value().scope;
    const QString stepId = req.stepId.isEmpty() ? randomUuid() : req.stepId;
    const QString clientId = stepClientId(req.runId, stepId);
    const QJsonObject node{
        {QStringLiteral("client_id"), clientId},
        {QStringLiteral("type"), QStringLiteral("procedure")},
        {QStringLiteral("title"),
         QStringLiteral("Step %1: %2").arg(req.stepIndex).arg(req.toolName)},
        {QStringLiteral("text_summary"),
         QStringLiteral("Replay step %1 prepared for %2").arg(req.stepIndex).arg(req.toolName)},
        {QStringLiteral("slots"),
         QJsonObject{{QStringLiteral("replay_kind"), kKindStep},
                     {QStringLiteral("phase"), QStringLiteral("before")},
                     {QStringLiteral("run_id"), req.runId},
                     {QStringLiteral("step_id"), stepId},
                     {QStringLiteral("decision_id"), nullable(req.decisionId)},
                     {QStringLiteral("step_index"), req.stepIndex},
                     {QStringLiteral("tool_name"), req.toolName},
                     {QStringLiteral("tool_input"), req.toolInput},
                     {QStringLiteral("expected_output_signature"), req.expectedOutputSignature},
                     {QStringLiteral("preconditions"), req.preconditions},
                     {QStringLiteral("retry_policy"),
                      req.retryPolicyGiven ? QJsonValue(req.retryPolicy) : QJsonValue()},
                     {QStringLiteral("safety_level"), req.safetyLevel},
                     {QStringLiteral("status"), QStringLiteral("pending")},
                     {QStringLiteral("metadata"), req.metadata}}}};
    const QJsonArray edges{edgeToNode(QStringLiteral("part_of"), clientId, run.value().runNode.id)};
    auto out = writeRecord(cs, req.common, QStringLiteral("step before ") + req.toolName, node,
                           edges, meta);
    if (out) {
        out.value().runId = req.runId;
        out.value().status = QStringLiteral("pending");
        out.value().stepId = stepId;
        out.value().stepIndex = req.stepIndex;
    }
    return out;
}

Result<ReplayWriteOutcome> ReplayEngine::stepAfter(const ReplayStepAfterRequest &req,
                                                   const RequestMeta &meta)
{
    auto run = openRun(req.common, req.runId, meta);
    if (!run)
        return run.error();
    const CallScope &cs = run.value().scope;
    auto step = findStep(m_db, cs, req, run.value().viewer);
    if (!step)
        return step.error();
    const std::optional<NodeRecord> &stepNode = step.value().node;
    const QString &stepId = step.value().stepId;
    if (stepId.isEmpty())
        return stepReferenceRequired(req);
    const std::optional<int> stepIndex = req.stepIndex ? req.stepIndex
                                         : stepNode    ? slotIndex(*stepNode)
                                                       : std::nullopt;
    const QString clientId = stepResultClientId(req.runId, stepId, req.status);
    QJsonArray edges{edgeToNode(QStringLiteral("part_of"), clientId, run.value().runNode.id)};
    if (stepNode)
        edges.append(edgeToNode(QStringLiteral("related_to"), clientId, stepNode->id));
    auto out = writeRecord(cs, req.common, QStringLiteral("step after ") + req.status,
                           stepResultNode(req, clientId, stepId, stepIndex), edges, meta);
    if (out) {
        out.value().runId = req.runId;
        out.value().status = req.status;
        out.value().stepId = stepId;
        out.value().stepIndex = stepIndex;
        out.value().repairApplied = req.repairApplied;
    }
    return out;
}

Result<ReplayWriteOutcome> ReplayEngine::runEnd(const ReplayRunEndRequest &req,
                                                const RequestMeta &meta)
{
    auto run = openRun(req.common, req.runId, meta);
    if (!run)
        return run.error();
    const CallScope &cs = run.value().scope;
    const QString clientId = runEndClientId(req.runId);
    const QJsonObject node{
        {QStringLiteral("client_id"), clientId},
        {QStringLiteral("type"), QStringLiteral("event")},
        {QStringLiteral("title"), QStringLiteral("Replay run end ") + req.status},
        {QStringLiteral("text_summary"),
         !req.summary.isEmpty() ? req.summary
                                : QStringLiteral("Replay run ended with status=") + req.status},
        {QStringLiteral("slots"),
         QJsonObject{{QStringLiteral("replay_kind"), kKindRunEnd},
                     {QStringLiteral("run_id"), req.runId},
                     {QStringLiteral("status"), req.status},
                     {QStringLiteral("summary"), nullable(req.summary)},
                     {QStringLiteral("success_criteria"), req.successCriteria},
                     {QStringLiteral("metrics"), req.metrics},
                     {QStringLiteral("metadata"), req.metadata},
                     {QStringLiteral("ended_at"), nowIso()}}}};
    const QJsonArray edges{edgeToNode(QStringLiteral("part_of"), clientId, run.value().runNode.id)};
    const QString derived
        = !req.summary.isEmpty() ? req.summary : QStringLiteral("run ") + req.status;
    auto out = writeRecord(cs, req.common, derived, node, edges, meta);
    if (out) {
        out.value().runId = req.runId;
        out.value().status = req.status;
    }
    return out;
}

Result<ReplayRunView> ReplayEngine::runGet(const ReplayRunGetRequest &req, const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = resolveViewer(req.consumer.agentId, req.consumer.teamId, meta, m_config);
    if (!viewer)
        return viewer.error();
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto nodes = runNodes(conn.value(), cs.value(), req.runId);
    if (!nodes)
        return nodes.error();
    QVector<NodeRecord> visible;
    for (const NodeRecord &n : nodes.value()) {
        if (viewer.value().sees(n))
            visible.append(n);
    }
    if (visible.isEmpty())
        return runNotFound(cs.value(), req.runId);
    return buildView(cs.value(), req.runId, visible, req.includeSteps, req.includeArtifacts);
}

Result<ReplayRunView> ReplayEngine::run(const QString &tenantId, const QString &scope,
                                        const QString &runId)
{
    CallScope cs{tenantId, scope, scopeKey(tenantId, scope, m_config.defaultTenant)};
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto nodes = runNodes(conn.value(), cs, runId.toLower());
    if (!nodes)
        return nodes.error();
    if (nodes.value().isEmpty())
        return runNotFound(cs, runId);
    return buildView(cs, runId.toLower(), nodes.value(), true, true);
}

Result<QVector<ReplayRunSummary>> ReplayEngine::listRuns(const QString &tenantId,
                                                         const QString &scope, int limit)
{
    CallScope cs{tenantId, scope, scopeKey(tenantId, scope, m_config.defaultTenant)};
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto runs = GraphStore::newestNodesWithClientIdPrefix(
        conn.value(), tenantId, scope, QStringLiteral("replay:run:"), qMax(1, limit));
    if (!runs)
        return runs.error();
    QVector<ReplayRunSummary> out;
    for (const NodeRecord &runNode : runs.value()) {
        const QString runId = slotText(runNode, "run_id");
        if (kindOf(runNode) != kKindRun || runId.isEmpty())
            continue;
        auto nodes = runNodes(conn.value(), cs, runId);
        if (!nodes)
            return nodes.error();
        ReplayRunSummary s;
        s.runId = runId;
        s.goal = slotText(runNode, "goal");
        s.runNodeId = runNode.id;
        s.startedAt = runNode.createdAt;
        s.status = QStringLiteral("in_progress");
        for (const NodeRecord &n : nodes.value()) {
            const QString kind = kindOf(n);
            if (kind == kKindStep) {
                ++s.stepCount;
            } else if (kind == kKindRunEnd) {
                s.status = slotText(n, "status");
                s.endedAt = n.updatedAt;
            }
        }
        out.append(s);
    }
    return out;
}

Result<ReplayRunView> ReplayEngine::buildView(const CallScope &cs, const QString &runId,
                                              const QVector<NodeRecord> &nodes, bool includeSteps,
                                              bool includeArtifacts)
{
    ReplayRunView view;
    view.scope = cs;
    view.run.runId = runId;
    view.run.status = QStringLiteral("in_progress");

    LatestResults latestResult;
    QStringList artifacts;
    scanRunNodes(cs, nodes, view, latestResult, artifacts);
    view.counters.totalNodes = int(nodes.size());
    view.counters.artifactRefs = int(artifacts.size());
    if (includeArtifacts)
        view.artifacts = artifacts;
    const QStringList stepDecisions = collectSteps(cs, nodes, latestResult, includeSteps, view);

    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    if (auto attached = attachDecisions(conn.value(), cs, runId, view); !attached)
        return attached.error();
    fillDecisionProvenance(view.decisions, stepDecisions, view.provenance);
    fillCommitProvenance(cs, nodes, view.provenance);
    return view;
}

} // namespace MemoryGraph
