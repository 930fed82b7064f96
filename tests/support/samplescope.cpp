#include "tests/support/samplescope.h"

#include "service/core/ids.h"
#include "tests/support/tempservice.h"

#include <QJsonArray>

namespace MemoryGraph::Test {

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

/// body with the scope named.
QJsonObject in(QJsonObject body, const QString &tenant, const QString &scope)
{
    body.insert(s("tenant_id"), tenant);
    body.insert(s("scope"), scope);
    return body;
}

Result<WriteResult> write(MemoryService *svc, const QJsonObject &body)
{
    auto req = WriteRequest::fromJson(body);
    if (!req)
        return req.error();
    return svc->write(req.value(), {});
}

} // namespace

Result<SampleScope> fillSampleScope(MemoryService *svc, const QString &tenant, const QString &scope)
{
    SampleScope out;
    const QJsonArray nodes{
        QJsonObject{{s("client_id"), s("alice")},
                    {s("type"), s("entity")},
                    {s("title"), s("Alice")},
                    {s("text_summary"), s("Alice prefers short answers.")},
                    {s("memory_lane"), s("shared")},
                    {s("owner_team_id"), s("support")}},
        QJsonObject{{s("client_id"), s("outage")},
                    {s("type"), s("event")},
                    {s("title"), s("Checkout outage")},
                    {s("text_summary"), s("The checkout service was down for an hour.")},
                    {s("memory_lane"), s("private")},
                    {s("owner_agent_id"), s("alice-agent")},
                    {s("tier"), s("warm")},
                    {s("occurred_at"), s("2025-03-03")}},
        QJsonObject{{s("type"), s("concept")},
                    {s("title"), s("Retry budget")},
                    {s("text_summary"), s("Retries are capped at three per request.")},
                    {s("memory_lane"), s("shared")}},
        QJsonObject{
            {s("client_id"), s("prefer-pytest")},
            {s("type"), s("rule")},
            {s("text_summary"), s("Prefer pytest for tests.")},
            {s("memory_lane"), s("shared")},
            {s("slots"),
             QJsonObject{{s("if"), QJsonObject{{s("task"), s("test")}}},
                         {s("then"),
                          QJsonObject{{s("tool"),
                                       QJsonObject{{s("prefer"), QJsonArray{s("pytest")}}}}}}}}}};
    const QJsonArray edges{QJsonObject{{s("type"), s("related_to")},
                                       {s("src"), QJsonObject{{s("client_id"), s("alice")}}},
                                       {s("dst"), QJsonObject{{s("client_id"), s("outage")}}}}};
    auto first = write(svc, in(writeBody(nodes, edges, s("sample memories")), tenant, scope));
    if (!first)
        return first.error();
    QString conceptId;
    for (const WrittenNode &n : first.value().nodes) {
        if (n.clientId == QLatin1String("prefer-pytest"))
            out.ruleId = n.id;
        else if (n.clientId == QLatin1String("outage"))
            out.privateId = n.id;
        else if (n.clientId.isEmpty())
            conceptId = n.id;
    }
    auto second = write(
        svc, in(writeBody({},
                          {QJsonObject{{s("type"), s("derived_from")},
                                       {s("src"), QJsonObject{{s("id"), conceptId}}},
                                       {s("dst"), QJsonObject{{s("client_id"), s("outage")}}}}},
                          s("what the outage taught")),
                tenant, scope));
    if (!second)
        return second.error();

    auto state = RuleStateRequest::fromJson(in({{s("rule_node_id"), out.ruleId},
                                                {s("state"), s("ACTIVE")},
                                                {s("input_text"), s("activate")}},
                                               tenant, scope));
    if (!state)
        return state.error();
    if (auto set = svc->setRuleState(state.value(), {}); !set)
        return set.error();

    out.runId = randomUuid();
    auto select = ToolSelectRequest::fromJson(
        in({{s("run_id"), out.runId},
            {s("context"), QJsonObject{{s("task"), s("test")}}},
            {s("candidates"), QJsonArray{s("pytest"), s("unittest")}}},
           tenant, scope));
    if (!select)
        return select.error();
    auto selected = svc->selectTools(select.value(), {});
    if (!selected)
        return selected.error();
    out.decisionId = selected.value().decision.id;
    auto feedback = ToolFeedbackRequest::fromJson(
        in({{s("run_id"), out.runId},
            {s("decision_id"), out.decisionId},
            {s("context"), QJsonObject{{s("task"), s("test")}}},
            {s("candidates"), QJsonArray{s("pytest"), s("unittest")}},
            {s("selected_tool"), s("pytest")},
            {s("outcome"), s("positive")},
            {s("input_text"), s("pytest worked")}},
           tenant, scope),
        8000);
    if (!feedback)
        return feedback.error();
    if (auto fed = svc->toolFeedback(feedback.value(), {}); !fed)
        return fed.error();

    auto start = ReplayRunStartRequest::fromJson(
        in({{s("run_id"), out.runId}, {s("goal"), s("make the tests pass")}}, tenant, scope));
    if (!start)
        return start.error();
    if (auto started = svc->replayRunStart(start.value(), {}); !started)
        return started.error();
    auto before = ReplayStepBeforeRequest::fromJson(
        in({{s("run_id"), out.runId}, {s("step_index"), 1}, {s("tool_name"), s("pytest")}}, tenant,
           scope));
    if (!before)
        return before.error();
    auto step = svc->replayStepBefore(before.value(), {});
    if (!step)
        return step.error();
    auto after = ReplayStepAfterRequest::fromJson(in({{s("run_id"), out.runId},
                                                      {s("step_id"), step.value().stepId},
                                                      {s("status"), s("success")}},
                                                     tenant, scope));
    if (!after)
        return after.error();
    if (auto done = svc->replayStepAfter(after.value(), {}); !done)
        return done.error();
    auto end = ReplayRunEndRequest::fromJson(
        in({{s("run_id"), out.runId}, {s("status"), s("success")}}, tenant, scope));
    if (!end)
        return end.error();
    if (auto ended = svc->replayRunEnd(end.value(), {}); !ended)
        return ended.error();
    return out;
}

} // namespace MemoryGraph::Test
