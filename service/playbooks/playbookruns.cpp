// PlaybookEngine: runs (simulate in-process, strict / guided for an executor), dispatch, the
// automation gateway and the console list.

#include "service/core/ids.h"
#include "service/core/jsonvalues.h"
#include "service/playbooks/playbookengine.h"
#include "service/playbooks/playbooksupport.h"
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

using namespace PlaybookSupport;

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

Result<void> PlaybookEngine::abandon(const CallScope &scope, const QString &replayRunId,
                                     const QString &actor, const QString &reason,
                                     const RequestMeta &meta)
{
    auto view = ReplayEngine(m_db, m_config).run(scope.tenantId, scope.scope, replayRunId);
    if (!view)
        return view.error();
    if (view.value().run.status != QLatin1String("in_progress"))
        return {};
    ReplayRunEndRequest end;
    end.common.tenantId = scope.tenantId;
    end.common.scope = scope.scope;
    end.common.actor = actor;
    end.runId = replayRunId;
    end.status = QStringLiteral("failed");
    end.summary = reason;
    auto ended = ReplayEngine(m_db, m_config, m_write).runEnd(end, meta);
    if (!ended)
        return ended.error();
    return {};
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
