#include "service/automation/automationimpl.h"
#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/replay/replayengine.h"

#include <QDateTime>
#include <QJsonArray>

#include <algorithm>

namespace MemoryGraph {

using namespace AutomationDetail;
using namespace AutomationRows;

// ------------------------------------------------------------------------------------------
// Runs: loading, transitions, driving

Result<RunState> AutomationEngine::Impl::loadRunAnyScope(const QString &runId)
{
    auto conn = db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase sql = conn.value();
    auto run = AutomationRows::findRun(sql, runId);
    if (!run)
        return run.error();
    if (!run.value())
        return runNotFound(runId);
    RunState s;
    s.run = *run.value();
    auto nodes = AutomationRows::nodesOf(sql, runId);
    if (!nodes)
        return nodes.error();
    s.nodes = nodes.value();
    auto version = AutomationRows::findVersion(sql, s.run.tenantId, s.run.scope, s.run.automationId,
                                               s.run.version);
    if (!version)
        return version.error();
    if (version.value())
        s.graph = version.value()->graph;
    return s;
}

Result<RunState> AutomationEngine::Impl::loadRun(const CallScope &cs, const QString &runId)
{
    auto s = loadRunAnyScope(runId);
    if (!s)
        return s;
    if (s.value().run.tenantId != cs.tenantId || s.value().run.scope != cs.scope)
        return runNotFound(runId);
    return s;
}

namespace {

QJsonObject nodeCounts(const RunState &s)
{
    int succeeded = 0, failed = 0, rejected = 0, skipped = 0, compensated = 0, paused = 0,
        pending = 0;
    for (const NodeRow &n : s.nodes) {
        if (n.state == QLatin1String("terminal")) {
            if (n.outcome == QLatin1String("succeeded"))
                ++succeeded;
            else if (n.outcome == QLatin1String("failed"))
                ++failed;
            else if (n.outcome == QLatin1String("rejected"))
                ++rejected;
            else if (n.outcome == QLatin1String("skipped"))
                ++skipped;
            else if (n.outcome == QLatin1String("compensated"))
                ++compensated;
        } else if (n.state == QLatin1String("paused")) {
            ++paused;
        } else {
            ++pending;
        }
    }
    return {{QStringLiteral("total_nodes"), int(s.nodes.size())},
            {QStringLiteral("succeeded_nodes"), succeeded},
            {QStringLiteral("failed_nodes"), failed},
            {QStringLiteral("rejected_nodes"), rejected},
            {QStringLiteral("skipped_nodes"), skipped},
            {QStringLiteral("compensated_nodes"), compensated},
            {QStringLiteral("paused_nodes"), paused},
            {QStringLiteral("pending_nodes"), pending}};
}

void setTerminal(RunState &s, const QString &outcome)
{
    s.run.state = kTerminal;
    s.run.outcome = outcome;
    s.run.pauseReason.clear();
    s.run.endedAt = nowMs();
}

void pauseRun(RunState &s, const QString &reason)
{
    s.run.state = kPaused;
    s.run.pauseReason = reason;
    s.run.pausedAt = nowMs();
    s.run.everPaused = true;
}

void resumeRunRow(RunState &s)
{
    s.run.state = kRunning;
    s.run.pauseReason.clear();
    s.run.pausedAt = 0;
    if (s.run.rootCauseCode == QLatin1String("guided_repair_pending")) {
        s.run.rootCauseCode.clear();
        s.run.rootCauseNodeId.clear();
        s.run.rootCauseMessage.clear();
    }
}

bool stopOnFailure(const RunState &s)
{
    return s.run.context.value(QStringLiteral("stop_on_failure")).toBool(true);
}

QHash<QString, QJsonObject> succeededOutputs(const RunState &s)
{
    QHash<QString, QJsonObject> outputs;
    for (const NodeRow &n : s.nodes) {
        if (n.state == QLatin1String("terminal") && n.outcome == QLatin1String("succeeded"))
            outputs.insert(n.nodeId, n.output);
    }
    return outputs;
}

} // namespace

Result<void> AutomationEngine::Impl::transition(RunState &s, const QString &event,
                                                const CommitActor &actor,
                                                const QStringList &nodeIds,
                                                const QJsonObject &extra)
{
    const qint64 now = nowMs();
    s.run.updatedAt = now;
    s.run.statusSummary = statusSummary(s.run.state, s.run.pauseReason, s.run.outcome);
    QJsonArray changed;
    for (const QString &id : nodeIds) {
        const int i = s.indexOf(id);
        if (i < 0)
            continue;
        NodeRow &n = s.nodes[i];
        n.updatedAt = now;
        n.statusSummary = statusSummary(n.state, n.pauseReason, n.outcome);
        changed.append(QJsonObject{{QStringLiteral("node_id"), n.nodeId},
                                   {QStringLiteral("attempt"), n.attempt},
                                   {QStringLiteral("lifecycle_state"), n.state},
                                   {QStringLiteral("terminal_outcome"), nullableText(n.outcome)}});
    }
    s.run.summary = nodeCounts(s);
    QJsonObject entry{{QStringLiteral("run_id"), s.run.runId},
                      {QStringLiteral("automation_id"), s.run.automationId},
                      {QStringLiteral("automation_version"), s.run.version},
                      {QStringLiteral("event"), event},
                      {QStringLiteral("lifecycle_state"), s.run.state},
                      {QStringLiteral("pause_reason"), nullableText(s.run.pauseReason)},
                      {QStringLiteral("terminal_outcome"), nullableText(s.run.outcome)},
                      {QStringLiteral("nodes"), changed}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        entry.insert(it.key(), it.value());
    const QJsonObject diff{{QStringLiteral("automation_run"), entry}};
    const CallScope cs = scopeOf(s.run.tenantId, s.run.scope);
    auto done = commit(cs, QStringLiteral("automation_run"), actor, sha256Hex(stableJson(diff)),
                       diff, [&](QSqlDatabase &sql) -> Result<void> {
                           if (auto w = AutomationRows::saveRun(sql, s.run); !w)
                               return w;
                           for (const QString &id : nodeIds) {
                               const int i = s.indexOf(id);
                               if (i < 0)
                                   continue;
                               if (auto w = AutomationRows::saveNode(sql, s.nodes[i]); !w)
                                   return w;
                           }
                           return {};
                       });
    if (!done) {
        qCWarning(lcAutomation).noquote()
            << "run" << s.run.runId << event << "not recorded:" << done.error().message;
        return done.error();
    }
    if (hook)
        hook(s.run.runId, event);
    return {};
}

Result<QString> AutomationEngine::Impl::startRun(const CallScope &cs, const CommitActor &actor,
                                                 const QString &inputSha, const DefRow &def,
                                                 const VersionRow &version, const QString &mode,
                                                 const QJsonObject &params,
                                                 const QJsonObject &options,
                                                 const RequestMeta &meta)
{
    if (def.status == QLatin1String("disabled"))
        return conflict(QStringLiteral("automation_disabled"),
                        QStringLiteral("automation %1 is disabled").arg(def.automationId),
                        {{QStringLiteral("automation_id"), def.automationId}});
    if (version.status == QLatin1String("disabled"))
        return conflict(QStringLiteral("automation_version_disabled"),
                        QStringLiteral("version %1 is disabled").arg(version.version),
                        {{QStringLiteral("version"), version.version}});
    if (mode == QLatin1String("default") && version.status == kShadow)
        return conflict(QStringLiteral("automation_version_shadow_not_runnable"),
                        QStringLiteral("version %1 is in shadow: run it with execution_mode shadow "
                                       "or promote it")
                            .arg(version.version),
                        {{QStringLiteral("version"), version.version}});
    if (mode == kShadow && version.status != kShadow)
        return conflict(
            QStringLiteral("automation_version_not_shadow"),
            QStringLiteral("version %1 is %2, not shadow").arg(version.version).arg(version.status),
            {{QStringLiteral("version"), version.version},
             {QStringLiteral("status"), version.status}});
    auto graph = AutomationGraphs::parse(version.graph);
    if (!graph)
        return graph.error();
    const AutomationGraphCheck check = AutomationGraphs::check(graph.value());
    if (!check.valid())
        return check.error();
    const qint64 now = nowMs();
    RunState s;
    s.graph = version.graph;
    s.run.runId = randomUuid();
    s.run.tenantId = cs.tenantId;
    s.run.scope = cs.scope;
    s.run.automationId = def.automationId;
    s.run.version = version.version;
    s.run.requestedBy = actor.id;
    s.run.state = kQueued;
    s.run.params = params;
    s.run.mode = mode;
    s.run.context = {
        {QStringLiteral("execution_mode"), mode},
        {QStringLiteral("allow_local_exec"),
         options.value(QStringLiteral("allow_local_exec")).toBool(false)},
        {QStringLiteral("record_run"), options.value(QStringLiteral("record_run")).toBool(true)},
        {QStringLiteral("stop_on_failure"),
         options.value(QStringLiteral("stop_on_failure")).toBool(true)},
        {QStringLiteral("topological_order"), QJsonArray::fromStringList(check.topologicalOrder)},
        {QStringLiteral("actor_label"), nullableText(actor.label)}};
    s.run.createdAt = now;
    QStringList ids;
    for (int i = 0; i < check.topologicalOrder.size(); ++i) {
        const QString &id = check.topologicalOrder[i];
        const AutomationGraphNode *gn = graph.value().node(id);
        NodeRow n;
        n.runId = s.run.runId;
        n.nodeId = id;
        n.topoIndex = i;
        n.kind = gn->kind;
        n.state = kPending;
        n.dependsOn = QJsonArray::fromStringList(graph.value().dependenciesOf(id));
        n.playbookId = gn->raw.value(QStringLiteral("playbook_id")).toString();
        const CompensationPolicy policy = compensationPolicyOf(gn->raw);
        n.compensationMode = policy.mode;
        n.compensationRef = policy.toJson();
        n.createdAt = now;
        s.nodes.append(n);
        ids << id;
    }
    Q_UNUSED(inputSha);
    auto lock = lockFor(s.run.runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    if (auto queued = transition(s, QStringLiteral("run_queued"), actor, ids,
                                 {{QStringLiteral("execution_mode"), mode}});
        !queued)
        return queued.error();
    drive(s.run.runId, actor, meta);
    return s.run.runId;
}

void AutomationEngine::Impl::drive(const QString &runId, const CommitActor &actor,
                                   const RequestMeta &meta)
{
    auto lock = lockFor(runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    for (int step = 0; step < 100000; ++step) {
        auto loaded = loadRunAnyScope(runId);
        if (!loaded) {
            qCWarning(lcAutomation).noquote()
                << "run" << runId << "cannot be driven:" << loaded.error().message;
            return;
        }
        RunState &s = loaded.value();
        if (s.run.state == kQueued) {
            s.run.state = kRunning;
            s.run.startedAt = nowMs();
            if (!transition(s, QStringLiteral("run_started"), actor, {}))
                return;
            continue;
        }
        if (s.run.state == kCompensating) {
            continueCompensation(s, actor, meta);
            return;
        }
        if (s.run.state != kRunning)
            return;
        int next = -1;
        for (int i = 0; i < s.nodes.size(); ++i) {
            if (s.nodes[i].state != kTerminal) {
                next = i;
                break;
            }
        }
        if (next < 0) {
            bool anyFailed = false;
            for (const NodeRow &n : s.nodes)
                anyFailed
                    = anyFailed || n.outcome == kFailed || n.outcome == QLatin1String("rejected");
            if (anyFailed) {
                startCompensation(s, QStringLiteral("on_failure"), kFailed, actor, meta);
                return;
            }
            QJsonObject outputs;
            for (const NodeRow &n : s.nodes)
                outputs.insert(n.nodeId, n.output);
            s.run.output = outputs;
            s.run.compensationStatus = QStringLiteral("not_needed");
            setTerminal(s, kSucceeded);
            (void)transition(s, QStringLiteral("run_succeeded"), actor, {});
            return;
        }
        NodeRow &n = s.nodes[next];
        if (n.state == kPaused)
            return;
        if (n.state == kRunning && n.awaitingReplay) {
            const auto ended = [&]() -> std::optional<QString> {
                auto view
                    = ReplayEngine(db, config).run(s.run.tenantId, s.run.scope, n.playbookRunId);
                if (!view || view.value().run.status == QLatin1String("in_progress"))
                    return std::nullopt;
                return view.value().run.status;
            }();
            if (!ended)
                return; // waits for replay/run/end
            if (!applyReplayEnd(s, next, *ended, actor, meta))
                return;
            continue;
        }
        QStringList blocking;
        for (const QJsonValue &dep : n.dependsOn) {
            const int d = s.indexOf(dep.toString());
            if (d >= 0 && s.nodes[d].outcome != kSucceeded)
                blocking << dep.toString();
        }
        if (!blocking.isEmpty()) {
            n.state = kTerminal;
            n.outcome = kSkipped;
            n.blocking = QJsonArray::fromStringList(blocking);
            n.endedAt = nowMs();
            if (!transition(s, QStringLiteral("node_skipped"), actor, {n.nodeId}))
                return;
            continue;
        }
        if (!executeNode(s, next, actor, meta))
            return;
    }
}

bool AutomationEngine::Impl::executeNode(RunState &s, int index, const CommitActor &actor,
                                         const RequestMeta &meta)
{
    NodeRow &n = s.nodes[index];
    const QJsonObject def = s.nodeDef(n.nodeId);
    const bool repairResume = n.state == kReady && n.playbookVersion > 0;
    const QHash<QString, QJsonObject> outputs = succeededOutputs(s);
    const QJsonObject params = s.run.params;
    const auto bound = [&](const char *key) {
        return AutomationGraphs::bind(def.value(QLatin1String(key)), params, outputs);
    };
    n.attempt += 1;
    n.state = kRunning;
    n.startedAt = nowMs();
    n.endedAt = 0;
    n.pausedAt = 0;
    n.pauseReason.clear();
    n.errorCode.clear();
    n.errorMessage.clear();
    n.awaitingReplay = false;
    n.input = {{QStringLiteral("inputs"), bound("inputs")}};
    if (n.kind == QLatin1String("condition"))
        n.input.insert(QStringLiteral("expression"), bound("expression"));
    if (n.kind == QLatin1String("artifact_gate"))
        n.input.insert(QStringLiteral("required_artifacts"), bound("required_artifacts"));
    if (!transition(s, QStringLiteral("node_started"), actor, {n.nodeId}))
        return false;
    const auto succeed = [&](const QJsonObject &output) {
        n.state = kTerminal;
        n.outcome = kSucceeded;
        n.output = output;
        n.endedAt = nowMs();
        return bool(transition(s, QStringLiteral("node_succeeded"), actor, {n.nodeId}));
    };
    if (n.kind == QLatin1String("approval")) {
        const QString key = def.value(QStringLiteral("approval_key")).toString();
        if (s.run.mode == kShadow)
            return succeed({{QStringLiteral("approved"), true},
                            {QStringLiteral("auto_approved"), true},
                            {QStringLiteral("approval_key"), nullableText(key)}});
        n.state = kPaused;
        n.pauseReason = kApprovalRequired;
        n.pausedAt = nowMs();
        n.approvalId = randomUuid();
        pauseRun(s, kApprovalRequired);
        (void)transition(s, QStringLiteral("approval_required"), actor, {n.nodeId},
                         {{QStringLiteral("approval_id"), n.approvalId}});
        return false;
    }
    if (n.kind == QLatin1String("condition")) {
        const QJsonValue expression = n.input.value(QStringLiteral("expression"));
        if (conditionHolds(expression))
            return succeed({{QStringLiteral("result"), true}});
        return failNode(s, index, QStringLiteral("condition_failed"),
                        QStringLiteral("the condition of node %1 is false").arg(n.nodeId), actor,
                        meta);
    }
    if (n.kind == QLatin1String("artifact_gate")) {
        QJsonArray present;
        QStringList missing;
        const QJsonArray given = def.value(QStringLiteral("required_artifacts")).toArray();
        const QJsonArray resolved = n.input.value(QStringLiteral("required_artifacts")).toArray();
        for (int i = 0; i < resolved.size(); ++i) {
            const QJsonValue v = resolved.at(i);
            if (v.isNull() || v.isUndefined() || (v.isString() && v.toString().isEmpty())
                || (v.isArray() && v.toArray().isEmpty()))
                missing << given.at(i).toString();
            else
                present.append(v);
        }
        if (!missing.isEmpty()) {
            n.output = {{QStringLiteral("missing_artifacts"), QJsonArray::fromStringList(missing)}};
            return failNode(s, index, QStringLiteral("artifact_gate_missing"),
                            QStringLiteral("required artifacts missing: ")
                                + missing.join(QStringLiteral(", ")),
                            actor, meta);
        }
        n.artifactRefs = present;
        return succeed({{QStringLiteral("artifacts"), present}});
    }
    // playbook
    PlaybookCall call;
    call.scope = scopeOf(s.run.tenantId, s.run.scope);
    call.playbookId = def.value(QStringLiteral("playbook_id")).toString();
    if (repairResume)
        call.version = n.playbookVersion;
    else if (def.value(QStringLiteral("version")).isDouble())
        call.version = def.value(QStringLiteral("version")).toInt();
    const QString mode = def.value(QStringLiteral("mode")).toString();
    call.mode = s.run.mode == kShadow ? QStringLiteral("simulate")
                : mode.isEmpty()      ? QStringLiteral("simulate")
                                      : mode;
    call.params = n.input.value(QStringLiteral("inputs")).toObject();
    call.actor = s.run.requestedBy;
    call.automationRunId = s.run.runId;
    call.automationNodeId = n.nodeId;
    n.input.insert(QStringLiteral("playbook_mode"), call.mode);
    if (!gateway)
        return failNode(s, index, QStringLiteral("playbook_run_failed"),
                        QStringLiteral("no playbook gateway is configured"), actor, meta);
    auto result = gateway->run(call, meta);
    if (!result) {
        n.output = {{QStringLiteral("error_code"), result.error().code},
                    {QStringLiteral("error_status"), result.error().status}};
        return failNode(s, index, QStringLiteral("playbook_run_failed"),
                        result.error().code + QStringLiteral(": ") + result.error().message, actor,
                        meta);
    }
    return applyPlaybookOutcome(s, index, result.value(), actor, meta);
}

bool AutomationEngine::Impl::applyPlaybookOutcome(RunState &s, int index,
                                                  const PlaybookCallResult &r,
                                                  const CommitActor &actor, const RequestMeta &meta)
{
    NodeRow &n = s.nodes[index];
    if (r.playbookVersion > 0)
        n.playbookVersion = r.playbookVersion;
    if (!r.replayRunId.isEmpty())
        n.playbookRunId = r.replayRunId;
    if (r.outcome == QLatin1String("success")) {
        n.state = kTerminal;
        n.outcome = kSucceeded;
        n.output = r.output;
        n.endedAt = nowMs();
        return bool(transition(s, QStringLiteral("node_succeeded"), actor, {n.nodeId}));
    }
    if (r.outcome == QLatin1String("partial")) {
        n.state = kPaused;
        n.pauseReason = kRepairRequired;
        n.pausedAt = nowMs();
        n.errorCode = QStringLiteral("guided_repair_pending");
        n.errorMessage = r.errorMessage.isEmpty()
                             ? QStringLiteral("the playbook run was partial: a repair is proposed")
                             : r.errorMessage;
        n.output = {{QStringLiteral("repair_patch"), r.repairPatch},
                    {QStringLiteral("playbook_output"), r.output},
                    {QStringLiteral("playbook_version"), n.playbookVersion}};
        pauseRun(s, kRepairRequired);
        s.run.rootCauseCode = QStringLiteral("guided_repair_pending");
        s.run.rootCauseNodeId = n.nodeId;
        s.run.rootCauseMessage = n.errorMessage;
        (void)transition(s, QStringLiteral("repair_required"), actor, {n.nodeId});
        return false;
    }
    if (r.outcome == QLatin1String("pending") && !r.replayRunId.isEmpty()) {
        n.awaitingReplay = true;
        if (!transition(s, QStringLiteral("playbook_pending"), actor, {n.nodeId},
                        {{QStringLiteral("replay_run_id"), r.replayRunId}}))
            return false;
        // The replay run may have ended before this was committed: its end found no waiting
        // node, so look at it now (the drive loop does).
        return true;
    }
    n.output = {{QStringLiteral("error_code"), nullableText(r.errorCode)},
                {QStringLiteral("playbook_output"), r.output}};
    const QString why
        = r.outcome == QLatin1String("failed")
              ? (r.errorCode.isEmpty() ? QStringLiteral("the playbook run failed")
                                       : r.errorCode + QStringLiteral(": ") + r.errorMessage)
              : QStringLiteral("unexpected playbook outcome '%1'").arg(r.outcome);
    return failNode(s, index, QStringLiteral("playbook_run_failed"), why, actor, meta);
}

bool AutomationEngine::Impl::applyReplayEnd(RunState &s, int index, const QString &status,
                                            const CommitActor &actor, const RequestMeta &meta)
{
    NodeRow &n = s.nodes[index];
    n.awaitingReplay = false;
    PlaybookCallResult r;
    r.outcome = status == QLatin1String("success")   ? QStringLiteral("success")
                : status == QLatin1String("partial") ? QStringLiteral("partial")
                                                     : QStringLiteral("failed");
    r.replayRunId = n.playbookRunId;
    r.output = {{QStringLiteral("replay_run_id"), n.playbookRunId},
                {QStringLiteral("replay_status"), status}};
    if (r.outcome == QLatin1String("failed"))
        r.errorCode = QStringLiteral("replay_run_") + status;
    return applyPlaybookOutcome(s, index, r, actor, meta);
}

bool AutomationEngine::Impl::failNode(RunState &s, int index, const QString &code,
                                      const QString &message, const CommitActor &actor,
                                      const RequestMeta &meta)
{
    NodeRow &n = s.nodes[index];
    n.state = kTerminal;
    n.outcome = kFailed;
    n.errorCode = code;
    n.errorMessage = message;
    n.awaitingReplay = false;
    n.endedAt = nowMs();
    if (s.run.rootCauseCode.isEmpty()) {
        s.run.rootCauseCode = code;
        s.run.rootCauseNodeId = n.nodeId;
        s.run.rootCauseMessage = message;
    }
    if (!transition(s, QStringLiteral("node_failed"), actor, {n.nodeId}))
        return false;
    if (!stopOnFailure(s))
        return true;
    finishFailed(s, QStringLiteral("on_failure"), kFailed, actor, meta);
    return false;
}

void AutomationEngine::Impl::finishFailed(RunState &s, const QString &trigger, const QString &base,
                                          const CommitActor &actor, const RequestMeta &meta)
{
    QStringList skipped;
    const QString cause = s.run.rootCauseNodeId;
    for (NodeRow &n : s.nodes) {
        if (n.state == kTerminal)
            continue;
        n.state = kTerminal;
        n.outcome = kSkipped;
        n.pauseReason.clear();
        n.awaitingReplay = false;
        n.endedAt = nowMs();
        if (!cause.isEmpty())
            n.blocking = QJsonArray{cause};
        skipped << n.nodeId;
    }
    s.run.pauseReason.clear();
    if (!skipped.isEmpty()
        && !transition(s, QStringLiteral("nodes_skipped"), actor, skipped,
                       {{QStringLiteral("trigger"), trigger}}))
        return;
    startCompensation(s, trigger, base, actor, meta);
}

void AutomationEngine::Impl::startCompensation(RunState &s, const QString &trigger,
                                               const QString &base, const CommitActor &actor,
                                               const RequestMeta &meta)
{
    QStringList plan;
    if (s.run.mode != kShadow) {
        for (int i = s.nodes.size() - 1; i >= 0; --i) {
            const NodeRow &n = s.nodes[i];
            const QStringList triggers = [&] {
                QStringList t;
                for (const QJsonValue &v :
                     n.compensationRef.value(QStringLiteral("triggers")).toArray())
                    t << v.toString();
                return t;
            }();
            if (n.outcome == kSucceeded && !n.compensationMode.isEmpty()
                && n.compensationMode != QLatin1String("none") && triggers.contains(trigger))
                plan << n.nodeId;
        }
    }
    s.run.compensationSummary = {{QStringLiteral("trigger"), trigger},
                                 {QStringLiteral("base_outcome"), base},
                                 {QStringLiteral("planned"), QJsonArray::fromStringList(plan)},
                                 {QStringLiteral("results"), QJsonObject()}};
    if (plan.isEmpty()) {
        s.run.compensationStatus = QStringLiteral("not_needed");
        setTerminal(s, base);
        (void)transition(s, QStringLiteral("run_") + base, actor, {});
        return;
    }
    s.run.state = kCompensating;
    s.run.pauseReason.clear();
    s.run.compensationAttempted = true;
    s.run.compensationStatus = kRunning;
    if (!transition(s, QStringLiteral("compensation_started"), actor, {},
                    {{QStringLiteral("trigger"), trigger}}))
        return;
    continueCompensation(s, actor, meta);
}

void AutomationEngine::Impl::continueCompensation(RunState &s, const CommitActor &actor,
                                                  const RequestMeta &meta)
{
    const QJsonArray plan = s.run.compensationSummary.value(QStringLiteral("planned")).toArray();
    const QHash<QString, QJsonObject> outputs = succeededOutputs(s);
    for (const QJsonValue &idv : plan) {
        const int i = s.indexOf(idv.toString());
        if (i < 0)
            continue;
        NodeRow &n = s.nodes[i];
        if (n.compensationStatus == kSucceeded || n.compensationStatus == kFailed)
            continue;
        n.state = kCompensating;
        n.compensationStatus = kRunning;
        if (!transition(s, QStringLiteral("node_compensating"), actor, {n.nodeId}))
            return;
        const QJsonObject ref = n.compensationRef;
        PlaybookCall call;
        call.scope = scopeOf(s.run.tenantId, s.run.scope);
        call.playbookId = ref.value(QStringLiteral("playbook_id")).toString();
        if (ref.value(QStringLiteral("version")).isDouble())
            call.version = ref.value(QStringLiteral("version")).toInt();
        call.mode = ref.value(QStringLiteral("playbook_mode")).toString(QStringLiteral("simulate"));
        QHash<QString, QJsonObject> withSelf = outputs;
        withSelf.insert(n.nodeId, n.output);
        call.params
            = AutomationGraphs::bind(ref.value(QStringLiteral("inputs")), s.run.params, withSelf)
                  .toObject();
        call.actor = s.run.requestedBy;
        call.automationRunId = s.run.runId;
        call.automationNodeId = n.nodeId;
        QJsonObject result{{QStringLiteral("mode"), n.compensationMode},
                           {QStringLiteral("playbook_id"), call.playbookId}};
        bool ok = false;
        if (!gateway) {
            result.insert(QStringLiteral("error_code"), QStringLiteral("no_playbook_gateway"));
        } else {
            auto r = gateway->run(call, meta);
            if (!r) {
                result.insert(QStringLiteral("error_code"), r.error().code);
                result.insert(QStringLiteral("error_message"), r.error().message);
            } else {
                n.compensationRunId = r.value().replayRunId;
                ok = r.value().outcome == QLatin1String("success");
                result.insert(QStringLiteral("outcome"), r.value().outcome);
                if (!ok) {
                    result.insert(QStringLiteral("error_code"),
                                  r.value().outcome == QLatin1String("pending")
                                      ? QStringLiteral("compensation_requires_executor")
                                      : nullableText(r.value().errorCode));
                    result.insert(QStringLiteral("error_message"), r.value().errorMessage);
                }
            }
        }
        n.state = kTerminal;
        n.compensationStatus = ok ? kSucceeded : kFailed;
        if (ok)
            n.outcome = QStringLiteral("compensated");
        result.insert(QStringLiteral("status"), n.compensationStatus);
        QJsonObject results = s.run.compensationSummary.value(QStringLiteral("results")).toObject();
        results.insert(n.nodeId, result);
        s.run.compensationSummary.insert(QStringLiteral("results"), results);
        if (!transition(s,
                        ok ? QStringLiteral("node_compensated")
                           : QStringLiteral("node_compensation_failed"),
                        actor, {n.nodeId}))
            return;
    }
    finalizeCompensation(s, actor);
}

void AutomationEngine::Impl::finalizeCompensation(RunState &s, const CommitActor &actor)
{
    const QJsonArray plan = s.run.compensationSummary.value(QStringLiteral("planned")).toArray();
    const QString base = s.run.compensationSummary.value(QStringLiteral("base_outcome")).toString();
    QJsonArray succeeded, failed, requiredFailed;
    for (const QJsonValue &idv : plan) {
        const int i = s.indexOf(idv.toString());
        if (i < 0)
            continue;
        const NodeRow &n = s.nodes[i];
        if (n.compensationStatus == kSucceeded) {
            succeeded.append(n.nodeId);
        } else {
            failed.append(n.nodeId);
            if (n.compensationMode == QLatin1String("required"))
                requiredFailed.append(n.nodeId);
        }
    }
    s.run.compensationSummary.insert(QStringLiteral("succeeded_nodes"), succeeded);
    s.run.compensationSummary.insert(QStringLiteral("failed_nodes"), failed);
    s.run.compensationSummary.insert(QStringLiteral("required_failed_nodes"), requiredFailed);
    QString outcome;
    if (failed.isEmpty()) {
        s.run.compensationStatus = kSucceeded;
        outcome = base + QStringLiteral("_compensated");
    } else {
        s.run.compensationStatus = kFailed;
        outcome = requiredFailed.isEmpty() ? base : kFailed;
        if (!requiredFailed.isEmpty() && s.run.rootCauseCode.isEmpty()) {
            s.run.rootCauseCode = QStringLiteral("required_compensation_failed");
            s.run.rootCauseNodeId = requiredFailed.first().toString();
            s.run.rootCauseMessage = QStringLiteral("a required compensation failed");
        }
    }
    setTerminal(s, outcome);
    (void)transition(s, QStringLiteral("run_") + outcome, actor, {},
                     {{QStringLiteral("compensation_status"), s.run.compensationStatus}});
}

// ------------------------------------------------------------------------------------------
// Run views

QJsonValue AutomationEngine::Impl::latestAssignment(const QString &runId, const QString &kind)
{
    auto conn = db.connection();
    if (!conn)
        return QJsonValue();
    QSqlDatabase sql = conn.value();
    auto reviews = AutomationRows::runReviews(sql, runId);
    if (!reviews)
        return QJsonValue();
    QJsonValue latest;
    for (const ReviewRow &r : reviews.value()) {
        if (r.kind == kind)
            latest = reviewJson(r);
    }
    return latest;
}

QJsonObject AutomationEngine::Impl::workflowOf(const RunState &s, QJsonArray *history)
{
    QJsonObject w;
    auto conn = db.connection();
    QVector<ActionRow> actions;
    QVector<ReviewRow> reviews;
    if (conn) {
        QSqlDatabase sql = conn.value();
        auto a = AutomationRows::actionsOf(sql, s.run.runId);
        if (a)
            actions = a.value();
        auto r = AutomationRows::runReviews(sql, s.run.runId);
        if (r)
            reviews = r.value();
    }
    ReviewRow assignment;
    bool assigned = false;
    QVector<std::pair<qint64, QJsonObject>> events;
    for (const ReviewRow &r : reviews) {
        if (r.kind != QLatin1String("compensation_assignment"))
            continue;
        assignment = r;
        assigned = true;
        QJsonObject e = reviewJson(r);
        e.insert(QStringLiteral("event"), QStringLiteral("assigned"));
        events.append({r.createdAt, e});
    }
    for (const ActionRow &a : actions) {
        QJsonObject e = actionJson(a);
        e.insert(QStringLiteral("event"), QStringLiteral("action"));
        events.append({a.createdAt, e});
    }
    std::stable_sort(events.begin(), events.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    if (history) {
        for (const auto &e : events)
            history->append(e.second);
    }
    const bool needed = s.run.state == kTerminal && s.run.compensationStatus == kFailed;
    const QString last = actions.isEmpty() ? QString() : actions.last().action;
    QString bucket;
    if (last == QLatin1String("manual_cleanup_completed"))
        bucket = QStringLiteral("completed");
    else if (last == QLatin1String("manual_cleanup_started"))
        bucket = QStringLiteral("in_progress");
    else if (last == QLatin1String("engineering_escalated"))
        bucket = QStringLiteral("escalated");
    else if (last == QLatin1String("observation_noted"))
        bucket = needed ? QStringLiteral("observing") : QStringLiteral("not_required");
    else if (needed)
        bucket = assigned && !assignment.owner.isEmpty() ? QStringLiteral("assigned")
                                                         : QStringLiteral("unassigned");
    else
        bucket = QStringLiteral("not_required");
    QString sla = QStringLiteral("none");
    if (assigned && assignment.slaTargetAt > 0) {
        if (bucket == QLatin1String("completed"))
            sla = actions.last().createdAt <= assignment.slaTargetAt ? QStringLiteral("met")
                                                                     : QStringLiteral("missed");
        else
            sla = nowMs() > assignment.slaTargetAt ? QStringLiteral("breached")
                                                   : QStringLiteral("on_track");
    }
    w.insert(QStringLiteral("bucket"), bucket);
    w.insert(QStringLiteral("needs_action"), needed && bucket != QLatin1String("completed"));
    w.insert(QStringLiteral("owner"), assigned ? nullableText(assignment.owner) : QJsonValue());
    w.insert(QStringLiteral("escalation_owner"),
             assigned ? nullableText(assignment.escalationOwner) : QJsonValue());
    w.insert(QStringLiteral("sla_target_at"),
             assigned ? isoOrNull(assignment.slaTargetAt) : QJsonValue());
    w.insert(QStringLiteral("sla_status"), sla);
    w.insert(QStringLiteral("last_action"),
             actions.isEmpty() ? QJsonValue() : QJsonValue(actionJson(actions.last())));
    w.insert(QStringLiteral("action_count"), int(actions.size()));
    return w;
}

QJsonObject AutomationEngine::Impl::runView(const RunState &s, bool includeNodes)
{
    QJsonObject out = head(scopeOf(s.run.tenantId, s.run.scope));
    out.insert(QStringLiteral("run"), runJson(s.run));
    QJsonArray nodes;
    if (includeNodes) {
        for (const NodeRow &n : s.nodes)
            nodes.append(nodeJson(n));
    }
    out.insert(QStringLiteral("nodes"), nodes);
    return out;
}

QJsonObject AutomationEngine::Impl::runDetail(const RunState &s, bool includeNodes)
{
    QJsonObject out = runView(s, includeNodes);
    out.insert(QStringLiteral("review_assignment"),
               latestAssignment(s.run.runId, QStringLiteral("run_reviewer")));
    out.insert(QStringLiteral("summary"), nodeCounts(s));
    const QJsonObject cs = s.run.compensationSummary;
    const QString status
        = s.run.compensationStatus.isEmpty() ? QStringLiteral("none") : s.run.compensationStatus;
    out.insert(
        QStringLiteral("compensation_assessment"),
        QJsonObject{
            {QStringLiteral("status"), status},
            {QStringLiteral("trigger"), cs.value(QStringLiteral("trigger"))},
            {QStringLiteral("base_outcome"), cs.value(QStringLiteral("base_outcome"))},
            {QStringLiteral("planned_nodes"), cs.value(QStringLiteral("planned")).toArray()},
            {QStringLiteral("succeeded_nodes"),
             cs.value(QStringLiteral("succeeded_nodes")).toArray()},
            {QStringLiteral("failed_nodes"), cs.value(QStringLiteral("failed_nodes")).toArray()},
            {QStringLiteral("required_failed_nodes"),
             cs.value(QStringLiteral("required_failed_nodes")).toArray()},
            {QStringLiteral("fully_compensated"), status == kSucceeded},
            {QStringLiteral("retry_allowed"),
             s.run.state == kTerminal && s.run.mode != kShadow && status == kFailed}});
    QJsonArray history;
    out.insert(QStringLiteral("compensation_workflow"), workflowOf(s, &history));
    out.insert(QStringLiteral("compensation_workflow_history"), history);
    return out;
}

// ------------------------------------------------------------------------------------------
// Run routes

namespace {

/// run_id (a UUID) of a run route, with the note most of them take.
struct RunArgs
{
    QString runId;
    QString note;
};

Result<RunArgs> runArgs(const QJsonObject &body, JsonReader &r)
{
    RunArgs a;
    r.requiredString("run_id", &a.runId, 64);
    if (r.ok() && !isUuid(a.runId))
        r.fail(QStringLiteral("run_id"), QStringLiteral("must be a UUID"));
    a.runId = a.runId.toLower();
    r.string("note", &a.note, 1000);
    Q_UNUSED(body);
    if (!r.ok())
        return r.error();
    return a;
}

} // namespace

Result<QJsonObject> AutomationEngine::Impl::run(const QJsonObject &body, const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("run"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    QString id;
    std::optional<int> version;
    QJsonObject params, options;
    r.requiredString("automation_id", &id, 128);
    r.integer("version", &version, 1, 1000000);
    r.object("params", &params);
    r.object("options", &options);
    JsonReader o(options, QStringLiteral("options"));
    QString mode = QStringLiteral("default");
    o.enumValue("execution_mode", &mode, {QStringLiteral("default"), kShadow});
    std::optional<bool> flag;
    o.boolean("allow_local_exec", &flag);
    o.boolean("record_run", &flag);
    o.boolean("stop_on_failure", &flag);
    r.absorb(o);
    if (!r.ok())
        return r.error();
    auto def = loadDef(cb.scope, id);
    if (!def)
        return def.error();
    auto row = loadVersion(cb.scope, id, version.value_or(def.value().latestVersion));
    if (!row)
        return row.error();
    auto started = startRun(cb.scope, cb.actor, cb.inputSha, def.value(), row.value(), mode, params,
                            options, meta);
    if (!started)
        return started.error();
    auto s = loadRun(cb.scope, started.value());
    if (!s)
        return s.error();
    return runView(s.value(), true);
}

Result<QJsonObject> AutomationEngine::Impl::runsGet(const QJsonObject &body,
                                                    const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/get"), body, meta);
    if (!b)
        return b.error();
    JsonReader r(body);
    auto a = runArgs(body, r);
    bool includeNodes = true;
    std::optional<bool> given;
    r.boolean("include_nodes", &given);
    if (!a)
        return a.error();
    if (!r.ok())
        return r.error();
    includeNodes = given.value_or(true);
    auto s = loadRun(b.value().scope, a.value().runId);
    if (!s)
        return s.error();
    return runDetail(s.value(), includeNodes);
}

Result<QJsonObject> AutomationEngine::Impl::runsList(const QJsonObject &body,
                                                     const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/list"), body, meta);
    if (!b)
        return b.error();
    const CallScope &cs = b.value().scope;
    JsonReader r(body);
    QString id, state, reviewer, bucket, sla, order = QStringLiteral("recent");
    QStringList owners;
    std::optional<bool> actionable, compensationOnly;
    std::optional<int> limit;
    r.string("automation_id", &id, 128);
    r.enumValue("lifecycle_state", &state, {kQueued, kRunning, kPaused, kCompensating, kTerminal});
    r.boolean("actionable_only", &actionable);
    r.boolean("compensation_only", &compensationOnly);
    r.string("reviewer", &reviewer, 256);
    r.stringList("owners", &owners, 0, 50);
    r.enumValue("workflow_bucket", &bucket,
                {QStringLiteral("not_required"), QStringLiteral("unassigned"),
                 QStringLiteral("assigned"), QStringLiteral("in_progress"),
                 QStringLiteral("escalated"), QStringLiteral("observing"),
                 QStringLiteral("completed")});
    r.enumValue("sla_status", &sla,
                {QStringLiteral("none"), QStringLiteral("on_track"), QStringLiteral("breached"),
                 QStringLiteral("met"), QStringLiteral("missed")});
    r.enumValue("order", &order, {QStringLiteral("recent"), QStringLiteral("inbox")});
    r.integer("limit", &limit, 1, 100);
    if (!r.ok())
        return r.error();
    auto conn = db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase sql = conn.value();
    auto runs = AutomationRows::listRuns(sql, cs.tenantId, cs.scope, id, 0, 2000);
    if (!runs)
        return runs.error();
    struct Item
    {
        int priority;
        qint64 at;
        QJsonObject json;
    };
    QVector<Item> items;
    for (const RunRow &row : runs.value()) {
        if (!state.isEmpty() && row.state != state)
            continue;
        if (compensationOnly.value_or(false) && !row.compensationAttempted)
            continue;
        RunState s;
        s.run = row;
        const QJsonObject workflow = workflowOf(s, nullptr);
        const QJsonValue assignment = latestAssignment(row.runId, QStringLiteral("run_reviewer"));
        const QString runReviewer
            = assignment.toObject().value(QStringLiteral("reviewer")).toString();
        QString next;
        int priority = 9;
        if (row.state == kPaused && row.pauseReason == kRepairRequired) {
            next = QStringLiteral("review_repair");
            priority = 0;
        } else if (row.state == kPaused && row.pauseReason == kApprovalRequired) {
            next = QStringLiteral("approve");
            priority = 1;
        } else if (row.state == kPaused) {
            next = QStringLiteral("resume");
            priority = 2;
        } else if (workflow.value(QStringLiteral("needs_action")).toBool()) {
            next = QStringLiteral("compensation_follow_up");
            priority = 3;
        } else if (row.state != kTerminal) {
            priority = 5;
        }
        const bool needsAction = !next.isEmpty();
        if (actionable.value_or(false) && !needsAction)
            continue;
        if (!reviewer.isEmpty() && runReviewer != reviewer)
            continue;
        if (!owners.isEmpty()
            && !owners.contains(workflow.value(QStringLiteral("owner")).toString())
            && !owners.contains(workflow.value(QStringLiteral("escalation_owner")).toString()))
            continue;
        if (!bucket.isEmpty() && workflow.value(QStringLiteral("bucket")).toString() != bucket)
            continue;
        if (!sla.isEmpty() && workflow.value(QStringLiteral("sla_status")).toString() != sla)
            continue;
        QJsonObject json = runJson(row);
        json.insert(QStringLiteral("needs_action"), needsAction);
        json.insert(QStringLiteral("next_action"), nullableText(next));
        json.insert(QStringLiteral("reviewer"), nullableText(runReviewer));
        json.insert(QStringLiteral("workflow_bucket"), workflow.value(QStringLiteral("bucket")));
        json.insert(QStringLiteral("sla_status"), workflow.value(QStringLiteral("sla_status")));
        items.append({priority, row.createdAt, json});
    }
    if (order == QLatin1String("inbox"))
        std::stable_sort(items.begin(), items.end(),
                         [](const Item &x, const Item &y) { return x.priority < y.priority; });
    QJsonArray out;
    for (const Item &i : std::as_const(items)) {
        if (out.size() >= limit.value_or(20))
            break;
        out.append(i.json);
    }
    QJsonObject res = head(cs);
    res.insert(QStringLiteral("runs"), out);
    res.insert(QStringLiteral("matched"), int(items.size()));
    return res;
}

Result<QJsonObject> AutomationEngine::Impl::cancel(const QJsonObject &body, const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/cancel"), body, meta);
    if (!b)
        return b.error();
    JsonReader r(body);
    auto a = runArgs(body, r);
    if (!a)
        return a.error();
    auto lock = lockFor(a.value().runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    auto loaded = loadRun(b.value().scope, a.value().runId);
    if (!loaded)
        return loaded.error();
    RunState &s = loaded.value();
    if (s.run.state == kTerminal)
        return conflict(QStringLiteral("automation_run_terminal"),
                        QStringLiteral("the run has already ended (%1)").arg(s.run.outcome),
                        {{QStringLiteral("run_id"), s.run.runId},
                         {QStringLiteral("terminal_outcome"), s.run.outcome}});
    if (s.run.state == kCompensating)
        return conflict(QStringLiteral("automation_run_compensating"),
                        QStringLiteral("the run is compensating; wait for it to end"),
                        {{QStringLiteral("run_id"), s.run.runId}});
    if (s.run.rootCauseCode.isEmpty()
        || s.run.rootCauseCode == QLatin1String("guided_repair_pending")) {
        s.run.rootCauseCode = QStringLiteral("run_cancelled");
        s.run.rootCauseNodeId.clear();
        s.run.rootCauseMessage = a.value().note.isEmpty()
                                     ? QStringLiteral("cancelled by ") + b.value().actor.id
                                     : a.value().note;
    }
    QStringList waitedOn; // replay runs an executor would otherwise still claim
    for (const NodeRow &n : s.nodes) {
        if (n.state != kTerminal && n.awaitingReplay && !n.playbookRunId.isEmpty())
            waitedOn << n.playbookRunId;
    }
    finishFailed(s, QStringLiteral("on_cancel"), QStringLiteral("cancelled"), b.value().actor,
                 meta);
    for (const QString &replayRunId : gateway ? waitedOn : QStringList()) {
        // Best effort: the run is cancelled either way; a replay run the canceller cannot see
        // stays open and its end is ignored.
        auto abandoned = gateway->abandon(
            b.value().scope, replayRunId, b.value().actor.id,
            QStringLiteral("automation run %1 was cancelled").arg(s.run.runId), meta);
        if (!abandoned)
            qWarning("automation %s: replay run %s left open: %s", qPrintable(s.run.runId),
                     qPrintable(replayRunId), qPrintable(abandoned.error().message));
    }
    auto fresh = loadRun(b.value().scope, a.value().runId);
    if (!fresh)
        return fresh.error();
    return runDetail(fresh.value(), true);
}

Result<QJsonObject> AutomationEngine::Impl::resume(const QJsonObject &body, const RequestMeta &meta,
                                                   const QString &route)
{
    auto b = basics(route, body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    if (!a)
        return a.error();
    auto lock = lockFor(a.value().runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    auto loaded = loadRun(cb.scope, a.value().runId);
    if (!loaded)
        return loaded.error();
    RunState &s = loaded.value();
    const bool approveRepair = route == QLatin1String("runs/approve_repair");
    if (approveRepair && (s.run.state != kPaused || s.run.pauseReason != kRepairRequired))
        return conflict(QStringLiteral("automation_run_not_repair_paused"),
                        QStringLiteral("the run is not paused for a repair"),
                        {{QStringLiteral("run_id"), s.run.runId},
                         {QStringLiteral("lifecycle_state"), s.run.state},
                         {QStringLiteral("pause_reason"), nullableText(s.run.pauseReason)}});
    if (s.run.state != kPaused)
        return conflict(QStringLiteral("automation_run_not_paused"),
                        QStringLiteral("only a paused run can be resumed (this one is %1)")
                            .arg(s.run.statusSummary),
                        {{QStringLiteral("run_id"), s.run.runId},
                         {QStringLiteral("lifecycle_state"), s.run.state}});
    int paused = -1;
    for (int i = 0; i < s.nodes.size(); ++i) {
        if (s.nodes[i].state == kPaused)
            paused = i;
    }
    QString event = QStringLiteral("run_resumed");
    QJsonObject extra{{QStringLiteral("note"), nullableText(a.value().note)}};
    QStringList changed;
    if (s.run.pauseReason == kApprovalRequired && paused >= 0) {
        NodeRow &n = s.nodes[paused];
        n.state = kTerminal;
        n.outcome = kSucceeded;
        n.pauseReason.clear();
        n.endedAt = nowMs();
        n.output = {{QStringLiteral("approved"), true},
                    {QStringLiteral("approved_by"), cb.actor.id},
                    {QStringLiteral("approval_id"), n.approvalId},
                    {QStringLiteral("note"), nullableText(a.value().note)}};
        changed << n.nodeId;
        event = QStringLiteral("approval_granted");
    } else if (s.run.pauseReason == kRepairRequired && paused >= 0) {
        NodeRow &n = s.nodes[paused];
        Result<PlaybookVersionInfo> latest
            = gateway
                  ? gateway->latestVersion(scopeOf(s.run.tenantId, s.run.scope), n.playbookId, meta)
                  : Result<PlaybookVersionInfo>(
                      Error::make(404, QStringLiteral("replay_playbook_not_found"),
                                  QStringLiteral("no playbook gateway is configured")));
        const bool approved = latest && latest.value().version > n.playbookVersion
                              && (latest.value().repairReviewState == QLatin1String("approved")
                                  || latest.value().status == QLatin1String("active"));
        if (!approved)
            return conflict(
                QStringLiteral("automation_run_not_resumable"),
                QStringLiteral("the repair pause resumes on a newer approved version of playbook "
                               "%1; review its repair first (replay/playbooks/repair/review)")
                    .arg(n.playbookId),
                {{QStringLiteral("run_id"), s.run.runId},
                 {QStringLiteral("reason"), QStringLiteral("playbook_repair_not_approved")},
                 {QStringLiteral("playbook_id"), n.playbookId},
                 {QStringLiteral("paused_version"), n.playbookVersion},
                 {QStringLiteral("latest_version"),
                  latest ? QJsonValue(latest.value().version) : QJsonValue()},
                 {QStringLiteral("latest_status"),
                  latest ? QJsonValue(latest.value().status) : QJsonValue()},
                 {QStringLiteral("repair_review_state"),
                  latest ? nullableText(latest.value().repairReviewState) : QJsonValue()},
                 {QStringLiteral("lookup_error"),
                  latest ? QJsonValue() : QJsonValue(latest.error().code)}});
        const int from = n.playbookVersion;
        n.state = kReady;
        n.pauseReason.clear();
        n.pausedAt = 0;
        n.playbookVersion = latest.value().version;
        changed << n.nodeId;
        event
            = approveRepair ? QStringLiteral("repair_approved") : QStringLiteral("repair_resumed");
        extra.insert(QStringLiteral("from_playbook_version"), from);
        extra.insert(QStringLiteral("to_playbook_version"), n.playbookVersion);
    }
    resumeRunRow(s);
    if (auto t = transition(s, event, cb.actor, changed, extra); !t)
        return t.error();
    drive(s.run.runId, cb.actor, meta);
    auto fresh = loadRun(cb.scope, a.value().runId);
    if (!fresh)
        return fresh.error();
    return runDetail(fresh.value(), true);
}

Result<QJsonObject> AutomationEngine::Impl::rejectRepair(const QJsonObject &body,
                                                         const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/reject_repair"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    if (!a)
        return a.error();
    auto lock = lockFor(a.value().runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    auto loaded = loadRun(cb.scope, a.value().runId);
    if (!loaded)
        return loaded.error();
    RunState &s = loaded.value();
    if (s.run.state != kPaused || s.run.pauseReason != kRepairRequired)
        return conflict(QStringLiteral("automation_run_not_repair_paused"),
                        QStringLiteral("the run is not paused for a repair"),
                        {{QStringLiteral("run_id"), s.run.runId},
                         {QStringLiteral("lifecycle_state"), s.run.state},
                         {QStringLiteral("pause_reason"), nullableText(s.run.pauseReason)}});
    QStringList changed;
    for (NodeRow &n : s.nodes) {
        if (n.state != kPaused)
            continue;
        n.state = kTerminal;
        n.outcome = QStringLiteral("rejected");
        n.pauseReason.clear();
        n.errorCode = QStringLiteral("repair_rejected");
        n.errorMessage = a.value().note.isEmpty()
                             ? QStringLiteral("repair rejected by ") + cb.actor.id
                             : a.value().note;
        n.endedAt = nowMs();
        changed << n.nodeId;
        s.run.rootCauseCode = QStringLiteral("repair_rejected");
        s.run.rootCauseNodeId = n.nodeId;
        s.run.rootCauseMessage = n.errorMessage;
    }
    s.run.state = kRunning;
    s.run.pauseReason.clear();
    if (auto t = transition(s, QStringLiteral("repair_rejected"), cb.actor, changed); !t)
        return t.error();
    finishFailed(s, QStringLiteral("on_reject"), kFailed, cb.actor, meta);
    auto fresh = loadRun(cb.scope, a.value().runId);
    if (!fresh)
        return fresh.error();
    return runDetail(fresh.value(), true);
}

Result<QJsonObject> AutomationEngine::Impl::runAssignReviewer(const QJsonObject &body,
                                                              const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/assign_reviewer"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    QString reviewer;
    r.requiredString("reviewer", &reviewer, 256);
    if (!a)
        return a.error();
    if (!r.ok())
        return r.error();
    auto s = loadRun(cb.scope, a.value().runId);
    if (!s)
        return s.error();
    ReviewRow row;
    row.automationId = s.value().run.automationId;
    row.runId = s.value().run.runId;
    row.kind = QStringLiteral("run_reviewer");
    row.reviewer = reviewer;
    row.note = a.value().note;
    row.actor = cb.actor.id;
    auto done = commit(cb.scope, QStringLiteral("automation_review"), cb.actor, cb.inputSha,
                       {{QStringLiteral("automation_run_assign_reviewer"),
                         QJsonObject{{QStringLiteral("run_id"), row.runId},
                                     {QStringLiteral("reviewer"), reviewer}}}},
                       [&](QSqlDatabase &sql) {
                           return AutomationRows::insertReview(sql, cb.scope.tenantId,
                                                               cb.scope.scope, row);
                       });
    if (!done)
        return done.error();
    QJsonObject out = head(cb.scope);
    out.insert(QStringLiteral("run_id"), row.runId);
    out.insert(QStringLiteral("review_assignment"), reviewJson(row));
    out.insert(QStringLiteral("commit_id"), done.value().id);
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::compensationRetry(const QJsonObject &body,
                                                              const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/compensation/retry"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    if (!a)
        return a.error();
    auto lock = lockFor(a.value().runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    auto loaded = loadRun(cb.scope, a.value().runId);
    if (!loaded)
        return loaded.error();
    RunState &s = loaded.value();
    if (s.run.state != kTerminal)
        return conflict(QStringLiteral("automation_run_not_terminal"),
                        QStringLiteral("compensation can be retried once the run has ended"),
                        {{QStringLiteral("run_id"), s.run.runId},
                         {QStringLiteral("lifecycle_state"), s.run.state}});
    if (s.run.mode == kShadow || s.run.compensationStatus != kFailed)
        return conflict(
            QStringLiteral("automation_compensation_not_retryable"),
            s.run.mode == kShadow
                ? QStringLiteral("shadow runs are never compensated")
                : QStringLiteral("nothing to retry: compensation is %1")
                      .arg(s.run.compensationStatus.isEmpty() ? QStringLiteral("none")
                                                              : s.run.compensationStatus),
            {{QStringLiteral("run_id"), s.run.runId},
             {QStringLiteral("compensation_status"), nullableText(s.run.compensationStatus)},
             {QStringLiteral("execution_mode"), s.run.mode}});
    QStringList changed;
    for (NodeRow &n : s.nodes) {
        if (n.compensationStatus != kFailed)
            continue;
        n.state = QStringLiteral("retrying");
        n.compensationStatus = kPending;
        changed << n.nodeId;
    }
    s.run.state = kCompensating;
    s.run.outcome.clear();
    s.run.endedAt = 0;
    s.run.compensationStatus = kRunning;
    if (auto t = transition(s, QStringLiteral("compensation_retry"), cb.actor, changed); !t)
        return t.error();
    continueCompensation(s, cb.actor, meta);
    auto fresh = loadRun(cb.scope, a.value().runId);
    if (!fresh)
        return fresh.error();
    return runDetail(fresh.value(), true);
}

Result<QJsonObject> AutomationEngine::Impl::compensationRecord(const QJsonObject &body,
                                                               const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/compensation/record_action"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    ActionRow row;
    if (r.ok() && body.value(QStringLiteral("action")).isUndefined())
        r.fail(QStringLiteral("action"), QStringLiteral("is required"));
    r.enumValue("action", &row.action, compensationActions());
    r.string("node_id", &row.nodeId, 128);
    r.string("external_ref", &row.externalRef, 1000);
    if (!a)
        return a.error();
    if (!r.ok())
        return r.error();
    auto s = loadRun(cb.scope, a.value().runId);
    if (!s)
        return s.error();
    if (!row.nodeId.isEmpty() && s.value().indexOf(row.nodeId) < 0)
        return Error::invalidField(QStringLiteral("node_id"),
                                   QStringLiteral("is not a node of the run"));
    row.runId = s.value().run.runId;
    row.note = a.value().note;
    row.actor = cb.actor.id;
    auto done = commit(cb.scope, QStringLiteral("automation_compensation"), cb.actor, cb.inputSha,
                       {{QStringLiteral("automation_compensation_action"),
                         QJsonObject{{QStringLiteral("run_id"), row.runId},
                                     {QStringLiteral("action"), row.action}}}},
                       [&](QSqlDatabase &sql) {
                           return AutomationRows::insertAction(sql, cb.scope.tenantId,
                                                               cb.scope.scope, row);
                       });
    if (!done)
        return done.error();
    QJsonObject out = head(cb.scope);
    out.insert(QStringLiteral("run_id"), row.runId);
    out.insert(QStringLiteral("action"), actionJson(row));
    out.insert(QStringLiteral("compensation_workflow"), workflowOf(s.value(), nullptr));
    out.insert(QStringLiteral("commit_id"), done.value().id);
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::compensationAssign(const QJsonObject &body,
                                                               const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/compensation/assign"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    ReviewRow row;
    QString sla;
    r.string("owner", &row.owner, 256);
    r.string("escalation_owner", &row.escalationOwner, 256);
    r.string("sla_target_at", &sla, 64);
    if (!a)
        return a.error();
    if (!r.ok())
        return r.error();
    if (!sla.isEmpty()) {
        const QDateTime at = QDateTime::fromString(sla, Qt::ISODateWithMs);
        if (!at.isValid())
            return Error::invalidField(QStringLiteral("sla_target_at"),
                                       QStringLiteral("must be an ISO 8601 date-time"));
        row.slaTargetAt = at.toMSecsSinceEpoch();
    }
    if (row.owner.isEmpty() && row.escalationOwner.isEmpty() && sla.isEmpty()
        && a.value().note.isEmpty())
        return Error::make(400, QStringLiteral("automation_compensation_assignment_empty"),
                           QStringLiteral("give at least one of owner, escalation_owner, "
                                          "sla_target_at, note"));
    auto s = loadRun(cb.scope, a.value().runId);
    if (!s)
        return s.error();
    row.automationId = s.value().run.automationId;
    row.runId = s.value().run.runId;
    row.kind = QStringLiteral("compensation_assignment");
    row.note = a.value().note;
    row.actor = cb.actor.id;
    auto done = commit(cb.scope, QStringLiteral("automation_compensation"), cb.actor, cb.inputSha,
                       {{QStringLiteral("automation_compensation_assign"),
                         QJsonObject{{QStringLiteral("run_id"), row.runId},
                                     {QStringLiteral("owner"), nullableText(row.owner)}}}},
                       [&](QSqlDatabase &sql) {
                           return AutomationRows::insertReview(sql, cb.scope.tenantId,
                                                               cb.scope.scope, row);
                       });
    if (!done)
        return done.error();
    QJsonObject out = head(cb.scope);
    out.insert(QStringLiteral("run_id"), row.runId);
    out.insert(QStringLiteral("assignment"), reviewJson(row));
    out.insert(QStringLiteral("compensation_workflow"), workflowOf(s.value(), nullptr));
    out.insert(QStringLiteral("commit_id"), done.value().id);
    return out;
}

} // namespace MemoryGraph
