#include "service/http/replaydto.h"

#include "service/core/jsonvalues.h"
#include "service/http/dto.h"

#include <QJsonArray>

namespace MemoryGraph::Dto {

namespace {

/// tenant_id, scope, run_id, status and the commit: the part every replay write answers.
QJsonObject writeBase(const ReplayWriteOutcome &o)
{
    return {{QStringLiteral("tenant_id"), o.scope.tenantId},
            {QStringLiteral("scope"), o.scope.scope},
            {QStringLiteral("run_id"), o.runId},
            {QStringLiteral("status"), o.status},
            {QStringLiteral("commit_id"), o.commitId},
            {QStringLiteral("commit_uri"), o.commitUri},
            {QStringLiteral("commit_hash"), o.commitHash}};
}

QJsonObject timelineEntry(const ReplayTimelineEntry &t)
{
    return {{QStringLiteral("uri"), t.uri},
            {QStringLiteral("node_id"), t.nodeId},
            {QStringLiteral("type"), t.type},
            {QStringLiteral("replay_kind"), t.replayKind},
            {QStringLiteral("title"), nullable(t.title)},
            {QStringLiteral("text_summary"), nullable(t.textSummary)},
            {QStringLiteral("created_at"), timestamp(t.createdAt)},
            {QStringLiteral("commit_id"), nullable(t.commitId)},
            {QStringLiteral("commit_uri"), nullable(t.commitUri)}};
}

QJsonObject step(const ReplayStepView &s)
{
    return {{QStringLiteral("step_id"), s.stepId},
            {QStringLiteral("step_index"), s.stepIndex ? QJsonValue(*s.stepIndex) : QJsonValue()},
            {QStringLiteral("tool_name"), nullable(s.toolName)},
            {QStringLiteral("status"), s.status},
            {QStringLiteral("safety_level"), nullable(s.safetyLevel)},
            {QStringLiteral("repair_applied"), s.repairApplied},
            {QStringLiteral("preconditions"), s.preconditions},
            {QStringLiteral("postconditions"), s.postconditions},
            {QStringLiteral("artifact_refs"), QJsonArray::fromStringList(s.artifactRefs)},
            {QStringLiteral("decision_id"), nullable(s.decisionId)},
            {QStringLiteral("step_uri"), s.stepUri},
            {QStringLiteral("created_at"), timestamp(s.createdAt)},
            {QStringLiteral("result_uri"), nullable(s.resultUri)}};
}

} // namespace

QJsonObject replayRunStart(const ReplayWriteOutcome &o)
{
    QJsonObject body = writeBase(o);
    body.insert(QStringLiteral("run_node_id"), nullable(o.nodeId));
    body.insert(QStringLiteral("run_uri"), nullable(o.nodeUri));
    return body;
}

QJsonObject replayStepBefore(const ReplayWriteOutcome &o)
{
    QJsonObject body = writeBase(o);
    body.insert(QStringLiteral("step_id"), o.stepId);
    body.insert(QStringLiteral("step_index"),
                o.stepIndex ? QJsonValue(*o.stepIndex) : QJsonValue());
    body.insert(QStringLiteral("step_node_id"), nullable(o.nodeId));
    body.insert(QStringLiteral("step_uri"), nullable(o.nodeUri));
    return body;
}

QJsonObject replayStepAfter(const ReplayWriteOutcome &o)
{
    QJsonObject body = writeBase(o);
    body.insert(QStringLiteral("step_id"), o.stepId);
    body.insert(QStringLiteral("replay_fallback_triggered"), o.repairApplied);
    body.insert(QStringLiteral("step_result_node_id"), nullable(o.nodeId));
    body.insert(QStringLiteral("step_result_uri"), nullable(o.nodeUri));
    return body;
}

QJsonObject replayRunEnd(const ReplayWriteOutcome &o)
{
    QJsonObject body = writeBase(o);
    body.insert(QStringLiteral("run_end_node_id"), nullable(o.nodeId));
    body.insert(QStringLiteral("run_end_uri"), nullable(o.nodeUri));
    return body;
}

QJsonObject replayRunGet(const ReplayRunView &v, const QString &requestId)
{
    const QJsonObject run{{QStringLiteral("run_id"), v.run.runId},
                          {QStringLiteral("status"), v.run.status},
                          {QStringLiteral("goal"), nullable(v.run.goal)},
                          {QStringLiteral("run_node_id"), nullable(v.run.runNodeId)},
                          {QStringLiteral("run_uri"), nullable(v.run.runUri)},
                          {QStringLiteral("started_at"), timestamp(v.run.startedAt)},
                          {QStringLiteral("ended_at"), timestamp(v.run.endedAt)}};
    QJsonArray timeline;
    for (const ReplayTimelineEntry &t : v.timeline)
        timeline.append(timelineEntry(t));
    QJsonArray steps;
    for (const ReplayStepView &s : v.steps)
        steps.append(step(s));
    const QJsonObject counters{{QStringLiteral("total_nodes"), v.counters.totalNodes},
                               {QStringLiteral("step_nodes"), v.counters.stepNodes},
                               {QStringLiteral("step_result_nodes"), v.counters.stepResultNodes},
                               {QStringLiteral("artifact_refs"), v.counters.artifactRefs},
                               {QStringLiteral("decisions"), v.counters.decisions}};
    const ReplayProvenance &p = v.provenance;
    const QJsonObject provenance{
        {QStringLiteral("run_id"), v.run.runId},
        {QStringLiteral("decision_id"), nullable(p.decisionId)},
        {QStringLiteral("decision_ids"), QJsonArray::fromStringList(p.decisionIds)},
        {QStringLiteral("commit_uri"), nullable(p.commitUri)},
        {QStringLiteral("commit_uris"), QJsonArray::fromStringList(p.commitUris)}};
    return {{QStringLiteral("request_id"), requestId},
            {QStringLiteral("tenant_id"), v.scope.tenantId},
            {QStringLiteral("scope"), v.scope.scope},
            {QStringLiteral("run"), run},
            {QStringLiteral("timeline"), timeline},
            {QStringLiteral("steps"), steps},
            {QStringLiteral("artifacts"), QJsonArray::fromStringList(v.artifacts)},
            {QStringLiteral("counters"), counters},
            {QStringLiteral("provenance"), provenance}};
}

} // namespace MemoryGraph::Dto
