// Replay records through the facade (spec §2.10, §4.12, §7; reference-behaviour §7.1, §7.2).

#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

qint64 commitCount(MemoryService *svc)
{
    auto commits = svc->listCommits(s("default"), s("default"), 0, 10000);
    return commits ? commits.value().size() : -1;
}

Result<ReplayWriteOutcome> start(MemoryService *svc, QJsonObject body, const RequestMeta &meta = {})
{
    if (!body.contains(s("goal")))
        body.insert(s("goal"), s("fix the flaky build"));
    auto req = ReplayRunStartRequest::fromJson(body);
    if (!req)
        return req.error();
    return svc->replayRunStart(req.value(), meta);
}

Result<ReplayWriteOutcome> before(MemoryService *svc, const QString &runId, int index,
                                  const QString &tool, QJsonObject extra = {},
                                  const RequestMeta &meta = {})
{
    extra.insert(s("run_id"), runId);
    extra.insert(s("step_index"), index);
    extra.insert(s("tool_name"), tool);
    auto req = ReplayStepBeforeRequest::fromJson(extra);
    if (!req)
        return req.error();
    return svc->replayStepBefore(req.value(), meta);
}

Result<ReplayWriteOutcome> after(MemoryService *svc, QJsonObject body, const RequestMeta &meta = {})
{
    auto req = ReplayStepAfterRequest::fromJson(body);
    if (!req)
        return req.error();
    return svc->replayStepAfter(req.value(), meta);
}

Result<ReplayWriteOutcome> end(MemoryService *svc, const QString &runId, const QString &status,
                               QJsonObject extra = {})
{
    extra.insert(s("run_id"), runId);
    extra.insert(s("status"), status);
    auto req = ReplayRunEndRequest::fromJson(extra);
    if (!req)
        return req.error();
    return svc->replayRunEnd(req.value(), {});
}

Result<ReplayRunView> get(MemoryService *svc, QJsonObject body)
{
    auto req = ReplayRunGetRequest::fromJson(body);
    if (!req)
        return req.error();
    return svc->replayRunGet(req.value(), {});
}

Result<ReplayRunView> get(MemoryService *svc, const QString &runId)
{
    return get(svc, QJsonObject{{s("run_id"), runId}});
}

QString issuePath(const Error &e)
{
    return e.details.value(s("issues")).toArray().at(0).toObject().value(s("path")).toString();
}

NodeRecord nodeById(MemoryService *svc, const QString &id)
{
    auto detail = svc->nodeDetail(s("default"), s("default"), id);
    return detail ? detail.value().node : NodeRecord();
}

QVector<EdgeRecord> edgesOf(MemoryService *svc, const QString &id)
{
    auto detail = svc->nodeDetail(s("default"), s("default"), id);
    return detail ? detail.value().edges : QVector<EdgeRecord>();
}

bool hasEdge(const QVector<EdgeRecord> &edges, const QString &type, const QString &from,
             const QString &to)
{
    for (const EdgeRecord &e : edges) {
        if (e.type == type && e.fromId == from && e.toId == to)
            return true;
    }
    return false;
}

const ReplayStepView *stepById(const ReplayRunView &view, const QString &stepId)
{
    for (const ReplayStepView &st : view.steps) {
        if (st.stepId == stepId)
            return &st;
    }
    return nullptr;
}

template<typename Request> std::optional<Error> errorOf(const QJsonObject &body)
{
    auto parsed = Request::fromJson(body);
    if (parsed)
        return std::nullopt;
    return parsed.error();
}

QJsonArray objects(int count)
{
    QJsonArray a;
    for (int i = 0; i < count; ++i)
        a.append(QJsonObject{{s("file_exists"), QString::number(i)}});
    return a;
}

QJsonArray strings(int count)
{
    QJsonArray a;
    for (int i = 0; i < count; ++i)
        a.append(QStringLiteral("artifact://%1").arg(i));
    return a;
}

} // namespace

class tst_Replay : public QObject
{
    Q_OBJECT

private slots:
    void recordsAreNodesEdgesAndCommits();
    void runGetReportsStatusStepsArtifactsAndTimeline();
    void includeFlagsEmptyTheArraysButKeepCounters();
    void stepAfterResolvesTheStepByIndex();
    void provenanceNamesDecisionsAndCommits();
    void laneVisibilityFollowsRecallRules();
    void unknownRunIs404();
    void stepReferenceIsRequired();
    void validationNamesTheFieldAndWritesNothing_data();
    void validationNamesTheFieldAndWritesNothing();
    void consoleReadsListRunsInEveryLane();
};

void tst_Replay::recordsAreNodesEdgesAndCommits()
{
    TempService temp;
    QVERIFY2(temp.isValid(), qPrintable(temp.errorText()));
    MemoryService *svc = temp.service();
    QSignalSpy committed(svc, &MemoryService::committed);

    auto started = start(svc, {{s("context_snapshot_hash"), QString(64, QLatin1Char('A'))}});
    QVERIFY2(started, qPrintable(started ? QString() : started.error().message));
    const ReplayWriteOutcome run = started.value();
    QVERIFY(!run.runId.isEmpty());
    QCOMPARE(run.status, s("started"));
    QCOMPARE(run.scope.tenantId, s("default"));
    QVERIFY(run.nodeUri.startsWith(s("memorygraph://default/default/event/")));
    QVERIFY(run.commitUri.endsWith(run.commitId));
    QCOMPARE(run.commitHash.size(), 64);
    const NodeRecord runNode = nodeById(svc, run.nodeId);
    QCOMPARE(runNode.clientId, s("replay:run:") + run.runId);
    QCOMPARE(runNode.type, s("event"));
    QCOMPARE(runNode.slotData.value(s("replay_kind")).toString(), s("run"));
    QCOMPARE(runNode.slotData.value(s("goal")).toString(), s("fix the flaky build"));
    QCOMPARE(runNode.slotData.value(s("context_snapshot_hash")).toString(),
             QString(64, QLatin1Char('a')));
    // auto_embed false: replay records never wait for an embedding.
    QVERIFY(runNode.embeddingStatus != s("pending"));
    // Auth off: the local user owns what it writes (DESIGN decision 3).
    QCOMPARE(runNode.ownerAgentId, s("local-user"));

    auto step = before(svc, run.runId, 1, s("shell"),
                       {{s("tool_input"), QJsonObject{{s("cmd"), s("make")}}},
                        {s("preconditions"), objects(2)},
                        {s("safety_level"), s("auto_ok")}});
    QVERIFY(step);
    QCOMPARE(step.value().status, s("pending"));
    QCOMPARE(step.value().stepIndex, std::optional<int>(1));
    const NodeRecord stepNode = nodeById(svc, step.value().nodeId);
    QCOMPARE(stepNode.type, s("procedure"));
    QCOMPARE(stepNode.clientId, s("replay:step:%1:%2").arg(run.runId, step.value().stepId));
    QVERIFY(hasEdge(edgesOf(svc, stepNode.id), s("part_of"), stepNode.id, run.nodeId));

    auto result = after(svc, {{s("run_id"), run.runId},
                              {s("step_id"), step.value().stepId},
                              {s("status"), s("success")},
                              {s("repair_applied"), true}});
    QVERIFY(result);
    QVERIFY(result.value().repairApplied);
    const NodeRecord resultNode = nodeById(svc, result.value().nodeId);
    QCOMPARE(resultNode.type, s("evidence"));
    QCOMPARE(resultNode.clientId,
             s("replay:step_result:%1:%2:success").arg(run.runId, step.value().stepId));
    const QVector<EdgeRecord> resultEdges = edgesOf(svc, resultNode.id);
    QVERIFY(hasEdge(resultEdges, s("part_of"), resultNode.id, run.nodeId));
    QVERIFY(hasEdge(resultEdges, s("related_to"), resultNode.id, stepNode.id));

    auto ended = end(svc, run.runId, s("success"), {{s("summary"), s("build is green")}});
    QVERIFY(ended);
    const NodeRecord endNode = nodeById(svc, ended.value().nodeId);
    QCOMPARE(endNode.clientId, s("replay:run_end:") + run.runId);
    QCOMPARE(endNode.textSummary, s("build is green"));

    QCOMPARE(commitCount(svc), 4);
    QCOMPARE(committed.count(), 4);
    auto commits = svc->listCommits(s("default"), s("default"));
    QVERIFY(commits);
    for (const CommitRecord &c : commits.value())
        QCOMPARE(c.actor, s("replay_api"));
    QCOMPARE(commits.value().first().id, ended.value().commitId);
}

void tst_Replay::runGetReportsStatusStepsArtifactsAndTimeline()
{
    TempService temp;
    QVERIFY(temp.isValid());
    MemoryService *svc = temp.service();
    auto run = start(svc, {});
    QVERIFY(run);
    const QString runId = run.value().runId;
    auto one = before(svc, runId, 1, s("shell"), {{s("preconditions"), objects(1)}});
    auto two = before(svc, runId, 2, s("editor"), {{s("safety_level"), s("manual_only")}});
    QVERIFY(one && two);
    QVERIFY(after(svc, {{s("run_id"), runId},
                        {s("step_id"), one.value().stepId},
                        {s("status"), s("failed")},
                        {s("error"), s("exit 2")},
                        {s("artifact_refs"), QJsonArray{s("log://1")}}}));
    QVERIFY(after(svc, {{s("run_id"), runId},
                        {s("step_id"), one.value().stepId},
                        {s("status"), s("success")},
                        {s("postconditions"), objects(1)},
                        {s("artifact_refs"), QJsonArray{s("log://2"), s("diff://2")}}}));

    auto view = get(svc, runId);
    QVERIFY2(view, qPrintable(view ? QString() : view.error().message));
    QCOMPARE(view.value().run.status, s("in_progress"));
    QVERIFY(!view.value().run.endedAt.isValid());
    QCOMPARE(view.value().run.goal, s("fix the flaky build"));
    QCOMPARE(view.value().run.runNodeId, run.value().nodeId);
    QVERIFY(view.value().run.startedAt.isValid());

    // Timeline: every replay node of the run, oldest first.
    const QVector<ReplayTimelineEntry> &timeline = view.value().timeline;
    QCOMPARE(timeline.size(), 5);
    QStringList kinds;
    for (const ReplayTimelineEntry &t : timeline)
        kinds << t.replayKind;
    QCOMPARE(kinds,
             (QStringList{s("run"), s("step"), s("step"), s("step_result"), s("step_result")}));
    for (int i = 1; i < timeline.size(); ++i)
        QVERIFY(timeline[i - 1].createdAt <= timeline[i].createdAt);
    QVERIFY(timeline.first().commitUri.endsWith(timeline.first().commitId));
    QVERIFY(timeline[0].status.isEmpty());
    QCOMPARE(timeline[3].status, s("failed"));
    QCOMPARE(timeline[4].status, s("success"));

    // Steps: the latest result decides the status; a step with none is pending.
    QCOMPARE(view.value().steps.size(), 2);
    const ReplayStepView *first = stepById(view.value(), one.value().stepId);
    const ReplayStepView *second = stepById(view.value(), two.value().stepId);
    QVERIFY(first && second);
    QCOMPARE(first->status, s("success"));
    QCOMPARE(first->toolName, s("shell"));
    QCOMPARE(first->safetyLevel, s("needs_confirm"));
    QCOMPARE(first->preconditions.size(), 1);
    QCOMPARE(first->postconditions.size(), 1);
    QCOMPARE(first->artifactRefs, (QStringList{s("log://2"), s("diff://2")}));
    QVERIFY(!first->resultUri.isEmpty());
    QCOMPARE(second->status, s("pending"));
    QCOMPARE(second->safetyLevel, s("manual_only"));
    QVERIFY(second->resultUri.isEmpty());

    // Artifacts: flattened from every step result.
    QCOMPARE(view.value().artifacts, (QStringList{s("log://1"), s("log://2"), s("diff://2")}));
    QCOMPARE(view.value().counters.totalNodes, 5);
    QCOMPARE(view.value().counters.stepNodes, 2);
    QCOMPARE(view.value().counters.stepResultNodes, 2);
    QCOMPARE(view.value().counters.artifactRefs, 3);

    // Re-recording an earlier outcome makes it the latest again.
    QVERIFY(after(
        svc,
        {{s("run_id"), runId}, {s("step_id"), one.value().stepId}, {s("status"), s("failed")}}));
    QCOMPARE(stepById(get(svc, runId).value(), one.value().stepId)->status, s("failed"));

    QVERIFY(end(svc, runId, s("partial")));
    auto ended = get(svc, runId);
    QVERIFY(ended);
    QCOMPARE(ended.value().run.status, s("partial"));
    QVERIFY(ended.value().run.endedAt.isValid());
    QCOMPARE(ended.value().timeline.last().replayKind, s("run_end"));
}

void tst_Replay::includeFlagsEmptyTheArraysButKeepCounters()
{
    TempService temp;
    QVERIFY(temp.isValid());
    MemoryService *svc = temp.service();
    auto run = start(svc, {});
    QVERIFY(run);
    auto step = before(svc, run.value().runId, 1, s("shell"));
    QVERIFY(step);
    QVERIFY(after(svc, {{s("run_id"), run.value().runId},
                        {s("step_id"), step.value().stepId},
                        {s("status"), s("success")},
                        {s("artifact_refs"), QJsonArray{s("a://1")}}}));
    auto view = get(svc, QJsonObject{{s("run_id"), run.value().runId},
                                     {s("include_steps"), false},
                                     {s("include_artifacts"), false}});
    QVERIFY(view);
    QVERIFY(view.value().steps.isEmpty());
    QVERIFY(view.value().artifacts.isEmpty());
    QCOMPARE(view.value().timeline.size(), 3);
    QCOMPARE(view.value().counters.stepNodes, 1);
    QCOMPARE(view.value().counters.artifactRefs, 1);
    auto full = get(svc, run.value().runId);
    QVERIFY(full);
    QCOMPARE(full.value().steps.size(), 1);
    QCOMPARE(full.value().artifacts, QStringList{s("a://1")});
}

void tst_Replay::stepAfterResolvesTheStepByIndex()
{
    TempService temp;
    QVERIFY(temp.isValid());
    MemoryService *svc = temp.service();
    auto run = start(svc, {});
    QVERIFY(run);
    auto step = before(svc, run.value().runId, 3, s("browser"));
    QVERIFY(step);
    auto result = after(
        svc, {{s("run_id"), run.value().runId}, {s("step_index"), 3}, {s("status"), s("skipped")}});
    QVERIFY2(result, qPrintable(result ? QString() : result.error().message));
    QCOMPARE(result.value().stepId, step.value().stepId);
    QVERIFY(hasEdge(edgesOf(svc, result.value().nodeId), s("related_to"), result.value().nodeId,
                    step.value().nodeId));
    QCOMPARE(stepById(get(svc, run.value().runId).value(), step.value().stepId)->status,
             s("skipped"));
}

void tst_Replay::provenanceNamesDecisionsAndCommits()
{
    TempService temp;
    QVERIFY(temp.isValid());
    MemoryService *svc = temp.service();
    auto run = start(svc, {});
    QVERIFY(run);
    const QString runId = run.value().runId;

    auto none = get(svc, runId);
    QVERIFY(none);
    QVERIFY(none.value().provenance.decisionId.isEmpty());
    QCOMPARE(none.value().provenance.commitUri, run.value().commitUri);

    QStringList decisionIds;
    for (const char *tool : {"shell", "editor"}) {
        auto select = ToolSelectRequest::fromJson(
            {{s("run_id"), runId},
             {s("context"), QJsonObject{{s("task"), s("fix")}}},
             {s("candidates"), QJsonArray{QString::fromLatin1(tool), s("browser")}}});
        QVERIFY(select);
        auto selected = svc->selectTools(select.value(), {});
        QVERIFY(selected);
        decisionIds.prepend(selected.value().decision.id);
    }
    // A decision of another run stays out.
    auto other = ToolSelectRequest::fromJson({{s("run_id"), s("another-run")},
                                              {s("context"), QJsonObject()},
                                              {s("candidates"), QJsonArray{s("shell")}}});
    QVERIFY(other && svc->selectTools(other.value(), {}));

    auto step = before(svc, runId, 1, s("editor"), {{s("decision_id"), decisionIds.first()}});
    QVERIFY(step);
    auto ended = end(svc, runId, s("success"));
    QVERIFY(ended);

    auto view = get(svc, runId);
    QVERIFY(view);
    const ReplayProvenance &p = view.value().provenance;
    QCOMPARE(p.decisionId, decisionIds.first()); // newest decision of the run
    QCOMPARE(p.decisionIds, decisionIds);
    QCOMPARE(p.commitUri, ended.value().commitUri); // the commit that changed the run last
    QCOMPARE(p.commitUris.size(), 3);
    QCOMPARE(p.commitUris.first(), run.value().commitUri);
    QCOMPARE(view.value().counters.decisions, 2);
    QCOMPARE(view.value().decisions.size(), 2);
    QCOMPARE(view.value().steps.first().decisionId, decisionIds.first());
}

void tst_Replay::laneVisibilityFollowsRecallRules()
{
    TempService temp;
    QVERIFY(temp.isValid());
    MemoryService *svc = temp.service();
    auto privateRun = start(svc, {{s("producer_agent_id"), s("agent-a")}});
    QVERIFY(privateRun);
    const QString runId = privateRun.value().runId;
    // The writer continues its own run without naming itself as consumer.
    QVERIFY(before(svc, runId, 1, s("shell"), {{s("producer_agent_id"), s("agent-a")}}));

    auto asB = get(svc, QJsonObject{{s("run_id"), runId}, {s("consumer_agent_id"), s("agent-b")}});
    QVERIFY(!asB);
    QCOMPARE(asB.error().status, 404);
    QCOMPARE(asB.error().code, s("not_found"));
    QCOMPARE(asB.error().details.value(s("reason")).toString(), s("replay_run_not_found"));
    // The local default identity is not agent-a either.
    QCOMPARE(get(svc, runId).error().status, 404);
    // Another agent cannot append to it.
    auto foreignStep = before(svc, runId, 2, s("shell"), {{s("consumer_agent_id"), s("agent-b")}});
    QVERIFY(!foreignStep);
    QCOMPARE(foreignStep.error().status, 404);

    auto asA = get(svc, QJsonObject{{s("run_id"), runId}, {s("consumer_agent_id"), s("agent-a")}});
    QVERIFY(asA);
    QCOMPARE(asA.value().counters.totalNodes, 2);

    auto sharedRun
        = start(svc, {{s("producer_agent_id"), s("agent-a")}, {s("memory_lane"), s("shared")}});
    QVERIFY(sharedRun);
    auto sharedAsB = get(svc, QJsonObject{{s("run_id"), sharedRun.value().runId},
                                          {s("consumer_agent_id"), s("agent-b")}});
    QVERIFY(sharedAsB);
    QCOMPARE(sharedAsB.value().run.runNodeId, sharedRun.value().nodeId);

    // A run id someone else holds privately cannot be taken over by a restart.
    const qint64 commits = commitCount(svc);
    auto takeover = start(svc, {{s("run_id"), runId}, {s("producer_agent_id"), s("agent-b")}});
    QVERIFY(!takeover);
    QCOMPARE(issuePath(takeover.error()), s("run_id"));
    QCOMPARE(commitCount(svc), commits);
}

void tst_Replay::unknownRunIs404()
{
    TempService temp;
    QVERIFY(temp.isValid());
    MemoryService *svc = temp.service();
    const QString unknown = s("0b7c1a52-3d7e-4c1e-9a55-0d6c2f9e8a11");
    for (const auto &outcome :
         {before(svc, unknown, 1, s("shell")),
          after(svc, {{s("run_id"), unknown}, {s("step_index"), 1}, {s("status"), s("success")}}),
          end(svc, unknown, s("failed"))}) {
        QVERIFY(!outcome);
        QCOMPARE(outcome.error().status, 404);
        QCOMPARE(outcome.error().code, s("not_found"));
        QCOMPARE(outcome.error().details.value(s("reason")).toString(), s("replay_run_not_found"));
    }
    auto read = get(svc, unknown);
    QVERIFY(!read);
    QCOMPARE(read.error().status, 404);
    QCOMPARE(read.error().details.value(s("reason")).toString(), s("replay_run_not_found"));
    QCOMPARE(commitCount(svc), 0);
}

void tst_Replay::stepReferenceIsRequired()
{
    TempService temp;
    QVERIFY(temp.isValid());
    MemoryService *svc = temp.service();
    auto run = start(svc, {});
    QVERIFY(run);
    const qint64 commits = commitCount(svc);
    auto neither = after(svc, {{s("run_id"), run.value().runId}, {s("status"), s("success")}});
    QVERIFY(!neither);
    QCOMPARE(neither.error().status, 400);
    QCOMPARE(neither.error().code, s("replay_step_reference_required"));
    auto unknownIndex = after(
        svc, {{s("run_id"), run.value().runId}, {s("step_index"), 7}, {s("status"), s("success")}});
    QVERIFY(!unknownIndex);
    QCOMPARE(unknownIndex.error().code, s("replay_step_reference_required"));
    QCOMPARE(commitCount(svc), commits);
}

void tst_Replay::validationNamesTheFieldAndWritesNothing_data()
{
    QTest::addColumn<QString>("route");
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("path");

    const QString run = s("0b7c1a52-3d7e-4c1e-9a55-0d6c2f9e8a11");
    const QJsonObject stepBase{
        {s("run_id"), run}, {s("step_index"), 1}, {s("tool_name"), s("shell")}};
    const auto with = [](QJsonObject base, const char *key, const QJsonValue &value) {
        base.insert(QString::fromLatin1(key), value);
        return base;
    };
    QTest::newRow("start without goal") << s("start") << QJsonObject() << s("goal");
    QTest::newRow("start run_id not a uuid")
        << s("start") << QJsonObject{{s("goal"), s("g")}, {s("run_id"), s("run-1")}} << s("run_id");
    QTest::newRow("start bad snapshot hash")
        << s("start") << QJsonObject{{s("goal"), s("g")}, {s("context_snapshot_hash"), s("abc")}}
        << s("context_snapshot_hash");
    QTest::newRow("start bad lane")
        << s("start") << QJsonObject{{s("goal"), s("g")}, {s("memory_lane"), s("team")}}
        << s("memory_lane");
    QTest::newRow("before step_index 0")
        << s("before") << with(stepBase, "step_index", 0) << s("step_index");
    QTest::newRow("before no step_index")
        << s("before") << QJsonObject{{s("run_id"), run}, {s("tool_name"), s("x")}}
        << s("step_index");
    QTest::newRow("before no tool_name")
        << s("before") << QJsonObject{{s("run_id"), run}, {s("step_index"), 1}} << s("tool_name");
    QTest::newRow("before 201 preconditions")
        << s("before") << with(stepBase, "preconditions", objects(201)) << s("preconditions");
    QTest::newRow("before precondition not an object")
        << s("before") << with(stepBase, "preconditions", QJsonArray{1}) << s("preconditions[0]");
    QTest::newRow("before bad safety_level")
        << s("before") << with(stepBase, "safety_level", s("yolo")) << s("safety_level");
    QTest::newRow("before bad step_id")
        << s("before") << with(stepBase, "step_id", s("7")) << s("step_id");
    QTest::newRow("after bad status")
        << s("after") << QJsonObject{{s("run_id"), run}, {s("status"), s("done")}} << s("status");
    QTest::newRow("after no status")
        << s("after") << QJsonObject{{s("run_id"), run}} << s("status");
    QTest::newRow("after 201 artifact_refs") << s("after")
                                             << QJsonObject{{s("run_id"), run},
                                                            {s("status"), s("success")},
                                                            {s("artifact_refs"), strings(201)}}
                                             << s("artifact_refs");
    QTest::newRow("after 201 postconditions") << s("after")
                                              << QJsonObject{{s("run_id"), run},
                                                             {s("status"), s("success")},
                                                             {s("postconditions"), objects(201)}}
                                              << s("postconditions");
    QTest::newRow("end bad status")
        << s("end") << QJsonObject{{s("run_id"), run}, {s("status"), s("skipped")}} << s("status");
    QTest::newRow("end missing run_id")
        << s("end") << QJsonObject{{s("status"), s("success")}} << s("run_id");
    QTest::newRow("get malformed run_id")
        << s("get") << QJsonObject{{s("run_id"), s("not-a-uuid")}} << s("run_id");
    QTest::newRow("get include_steps not bool")
        << s("get") << QJsonObject{{s("run_id"), run}, {s("include_steps"), s("no")}}
        << s("include_steps");
}

void tst_Replay::validationNamesTheFieldAndWritesNothing()
{
    QFETCH(QString, route);
    QFETCH(QJsonObject, body);
    QFETCH(QString, path);
    std::optional<Error> error = route == s("start")    ? errorOf<ReplayRunStartRequest>(body)
                                 : route == s("before") ? errorOf<ReplayStepBeforeRequest>(body)
                                 : route == s("after")  ? errorOf<ReplayStepAfterRequest>(body)
                                 : route == s("end")    ? errorOf<ReplayRunEndRequest>(body)
                                                        : errorOf<ReplayRunGetRequest>(body);
    QVERIFY(error.has_value());
    QCOMPARE(error->status, 400);
    QCOMPARE(error->code, s("invalid_request"));
    QCOMPARE(issuePath(*error), path);
}

void tst_Replay::consoleReadsListRunsInEveryLane()
{
    TempService temp;
    QVERIFY(temp.isValid());
    MemoryService *svc = temp.service();
    auto first = start(svc, {{s("goal"), s("first goal")}});
    QVERIFY(first);
    auto second
        = start(svc, {{s("goal"), s("second goal")}, {s("producer_agent_id"), s("agent-z")}});
    QVERIFY(second);
    QVERIFY(before(svc, first.value().runId, 1, s("shell")));
    QVERIFY(before(svc, first.value().runId, 2, s("editor")));
    QVERIFY(end(svc, first.value().runId, s("failed")));
    // Ordinary memory cannot take the prefix: it is reserved for the replay routes.
    auto plain = WriteRequest::fromJson(
        Test::writeBody(QJsonArray{QJsonObject{{s("client_id"), s("replay:run:not-a-run")},
                                               {s("type"), s("event")},
                                               {s("text_summary"), s("hello")}}}));
    QVERIFY(plain);
    auto refused = svc->write(plain.value(), {});
    QVERIFY(!refused);
    QCOMPARE(refused.error().status, 400);

    auto runs = svc->listReplayRuns(s("default"), s("default"));
    QVERIFY(runs);
    QCOMPARE(runs.value().size(), 2);
    QCOMPARE(runs.value()[0].runId, second.value().runId);
    QCOMPARE(runs.value()[0].status, s("in_progress"));
    QCOMPARE(runs.value()[0].goal, s("second goal"));
    QCOMPARE(runs.value()[1].runId, first.value().runId);
    QCOMPARE(runs.value()[1].status, s("failed"));
    QCOMPARE(runs.value()[1].stepCount, 2);
    QVERIFY(runs.value()[1].endedAt.isValid());

    // The operator sees agent-z's private run that the local identity cannot read.
    QCOMPARE(get(svc, second.value().runId).error().status, 404);
    auto operatorView = svc->replayRun(s("default"), s("default"), second.value().runId);
    QVERIFY(operatorView);
    QCOMPARE(operatorView.value().run.goal, s("second goal"));
    QCOMPARE(svc->replayRun(s("default"), s("other"), second.value().runId).error().status, 404);
    QCOMPARE(svc->listReplayRuns(s("default"), s("other")).value().size(), 0);
}

QTEST_GUILESS_MAIN(tst_Replay)
#include "tst_replay.moc"
