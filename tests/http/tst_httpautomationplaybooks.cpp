// Automations whose graph runs a replay playbook, over real HTTP against the real engines (issue
// 14, reference-behaviour §7.4 and §8.3): a simulate node succeeds inline; a strict node waits on
// its replay run until the example executor (tools/executor) claims it through dispatch and ends
// it; a refused step fails a strict node and pauses a guided one for repair, which a reviewed
// playbook repair resumes; a shadow run forces simulate and leaves no work for an executor.

#include "tests/http/automationtestdata.h"
#include "tests/http/playbooktestdata.h"

#include <QDeadlineTimer>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace MemoryGraph::Test::Automations;
using namespace MemoryGraph::Test::Playbooks;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

QString automations(const char *route)
{
    return s("/v1/automations/") + s(route);
}

QString playbooks(const char *route)
{
    return s("/v1/memory/replay/playbooks/") + s(route);
}

/// A graph of one condition followed by one playbook node "pb" in the given mode.
QJsonObject playbookGraph(const QString &playbookId, const char *mode)
{
    return {{s("nodes"), QJsonArray{node("check", "condition", {{s("expression"), true}}),
                                    node("pb", "playbook",
                                         {{s("playbook_id"), playbookId}, {s("mode"), s(mode)}})}},
            {s("edges"), QJsonArray{edge("check", "pb")}}};
}

QJsonObject nodeOf(const Reply &r, const char *nodeId)
{
    for (const QJsonValue &n : r.json.value(s("nodes")).toArray()) {
        if (n.toObject().value(s("node_id")).toString() == QLatin1String(nodeId))
            return n.toObject();
    }
    return {};
}

/// Polls runs/get until the run leaves running (or the deadline passes); returns the last answer.
Reply settled(HttpTestServer &server, const QString &runId, int timeoutMs = 30000)
{
    QDeadlineTimer deadline(timeoutMs);
    Reply r;
    do {
        r = server.post(automations("runs/get"), QJsonObject{{s("run_id"), runId}});
        if (r.status != 200 || runState(r) != QLatin1String("running"))
            return r;
        QTest::qWait(50);
    } while (!deadline.hasExpired());
    return r;
}

/// Replaces the playbook's steps with one `<program> <arg>` step; returns the answer.
Reply overrideSteps(HttpTestServer &server, const QString &playbookId, const char *program,
                    const char *arg, bool reviewRequired)
{
    return server.post(
        playbooks("repair"),
        QJsonObject{
            {s("playbook_id"), playbookId},
            {s("review_required"), reviewRequired},
            {s("patch"),
             QJsonObject{{s("steps_override"),
                          QJsonArray{QJsonObject{
                              {s("tool_name"), s("command")},
                              {s("tool_input"),
                               QJsonObject{{s("argv"), QJsonArray{s(program), s(arg)}}}}}}}}}});
}

QPair<int, QString> executorOnce(HttpTestServer &server)
{
    return runExecutor(QStringLiteral(MEMORYGRAPH_EXECUTOR_PATH), server,
                       {s("--executor-id"), s("automation-executor")});
}

QString replayStatus(HttpTestServer &server, const QString &replayRunId)
{
    const Reply r
        = server.post(s("/v1/memory/replay/runs/get"), QJsonObject{{s("run_id"), replayRunId}});
    return r.json.value(s("run")).toObject().value(s("status")).toString();
}

} // namespace

class tst_HttpAutomationPlaybooks : public QObject
{
    Q_OBJECT

private slots:
    void simulateNodeCarriesThePlaybookResult();
    void strictNodeWaitsForTheExecutor();
    void refusedStepFailsStrictAndPausesGuidedForRepair();
    void shadowRunForcesSimulate();
    void strictNodeUnderApiKeysIsTheCallersWork();
    void cancelEndsTheReplayRunItWaitedOn();
};

void tst_HttpAutomationPlaybooks::simulateNodeCarriesThePlaybookResult()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QString id = compiled(server, {s("hello"), s("world")});
    QVERIFY(!id.isEmpty());
    const Reply created = server.post(automations("create"),
                                      createBody("sim", "active", playbookGraph(id, "simulate")));
    QVERIFY2(created.status == 200, created.describe());

    const Reply run = server.post(automations("run"), QJsonObject{{s("automation_id"), s("sim")}});
    QVERIFY2(run.status == 200, run.describe());
    QCOMPARE(runState(run), s("succeeded"));
    const QJsonObject pb = nodeOf(run, "pb");
    QCOMPARE(pb.value(s("status_summary")).toString(), s("succeeded"));
    QCOMPARE(pb.value(s("playbook_id")).toString(), id);
    QCOMPARE(pb.value(s("playbook_version")).toInt(), 1);
    QCOMPARE(pb.value(s("input_snapshot_json")).toObject().value(s("playbook_mode")).toString(),
             s("simulate"));
    // The node's output is the playbook run's answer: its summary and the steps it would run.
    const QJsonObject output = pb.value(s("output_snapshot_json")).toObject();
    QCOMPARE(output.value(s("mode")).toString(), s("simulate"));
    QCOMPARE(output.value(s("summary")).toObject().value(s("outcome")).toString(), s("success"));
    const QJsonArray steps = output.value(s("steps")).toArray();
    QCOMPARE(steps.size(), 2);
    QCOMPARE(steps.at(1).toObject().value(s("argv")).toArray(),
             (QJsonArray{s("echo"), s("world")}));
    // The run's output snapshot holds every node's output, the playbook result among them.
    const QJsonObject snapshot
        = run.json.value(s("run")).toObject().value(s("output_snapshot_json")).toObject();
    QCOMPARE(snapshot.value(s("pb")).toObject(), output);
    // Nothing is left for an executor.
    const Reply claim = server.post(playbooks("dispatch"), QJsonObject{{s("executor_id"), s("x")}});
    QCOMPARE(claim.json.value(s("dispatch")).toObject().value(s("decision")).toString(),
             s("no_pending_work"));
}

void tst_HttpAutomationPlaybooks::strictNodeWaitsForTheExecutor()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QString id = compiled(server, {s("hello-from-automation")});
    QVERIFY(!id.isEmpty());
    QVERIFY(server
                .post(automations("create"),
                      createBody("strict", "active", playbookGraph(id, "strict")))
                .status
            == 200);

    const Reply run
        = server.post(automations("run"), QJsonObject{{s("automation_id"), s("strict")}});
    QVERIFY2(run.status == 200, run.describe());
    QCOMPARE(runState(run), s("running"));
    const QString runId = runIdOf(run);
    const QJsonObject waiting = nodeOf(run, "pb");
    QCOMPARE(waiting.value(s("status_summary")).toString(), s("running"));
    const QString replayRunId = waiting.value(s("playbook_run_id")).toString();
    QVERIFY2(isLowerUuid(replayRunId), qPrintable(replayRunId));
    QCOMPARE(replayStatus(server, replayRunId), s("in_progress"));
    // Still waiting when asked again: nothing but the replay run's end moves it.
    QCOMPARE(runState(server.post(automations("runs/get"), QJsonObject{{s("run_id"), runId}})),
             s("running"));

    const auto executed = executorOnce(server);
    QVERIFY2(executed.first == 0, qPrintable(executed.second));
    QVERIFY2(executed.second.contains(s("claimed run ") + replayRunId),
             qPrintable(executed.second));
    QCOMPARE(replayStatus(server, replayRunId), s("success"));

    const Reply done = settled(server, runId);
    QVERIFY2(done.status == 200, done.describe());
    QCOMPARE(runState(done), s("succeeded"));
    const QJsonObject pb = nodeOf(done, "pb");
    QCOMPARE(pb.value(s("status_summary")).toString(), s("succeeded"));
    QCOMPARE(pb.value(s("playbook_run_id")).toString(), replayRunId);
    const QJsonObject output = pb.value(s("output_snapshot_json")).toObject();
    QCOMPARE(output.value(s("replay_run_id")).toString(), replayRunId);
    QCOMPARE(output.value(s("replay_status")).toString(), s("success"));
    // The playbook run records that an automation node is waiting on it.
    const Reply g = server.post(playbooks("get"), QJsonObject{{s("playbook_id"), id}});
    const QJsonObject playbookRun = g.json.value(s("runs")).toArray().at(0).toObject();
    QCOMPARE(playbookRun.value(s("run_id")).toString(), replayRunId);
    QCOMPARE(playbookRun.value(s("status")).toString(), s("success"));
    QCOMPARE(playbookRun.value(s("claimed_by")).toString(), s("automation-executor"));
}

void tst_HttpAutomationPlaybooks::refusedStepFailsStrictAndPausesGuidedForRepair()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QString id = compiled(server, {s("fine")});
    QVERIFY(!id.isEmpty());
    // Version 2 runs a program the executor's allowlist refuses.
    const Reply refused = overrideSteps(server, id, "touch", "/tmp/never-touched", false);
    QVERIFY2(refused.status == 200, refused.describe());
    QCOMPARE(refused.json.value(s("to_version")).toInt(), 2);

    // Strict: the replay run fails, the node fails playbook_run_failed and the run fails.
    QVERIFY(server
                .post(automations("create"),
                      createBody("strict", "active", playbookGraph(id, "strict")))
                .status
            == 200);
    const Reply strict
        = server.post(automations("run"), QJsonObject{{s("automation_id"), s("strict")}});
    QCOMPARE(runState(strict), s("running"));
    QCOMPARE(nodeOf(strict, "pb").value(s("playbook_version")).toInt(), 2);
    const auto strictExit = executorOnce(server);
    QVERIFY2(strictExit.first == 1, qPrintable(strictExit.second));
    const Reply strictDone = settled(server, runIdOf(strict));
    QCOMPARE(runState(strictDone), s("failed"));
    const QJsonObject failedNode = nodeOf(strictDone, "pb");
    QCOMPARE(failedNode.value(s("status_summary")).toString(), s("failed"));
    QCOMPARE(failedNode.value(s("error_code")).toString(), s("playbook_run_failed"));
    QCOMPARE(strictDone.json.value(s("run")).toObject().value(s("root_cause_code")).toString(),
             s("playbook_run_failed"));
    QCOMPARE(failedNode.value(s("output_snapshot_json"))
                 .toObject()
                 .value(s("playbook_output"))
                 .toObject()
                 .value(s("replay_status"))
                 .toString(),
             s("failed"));

    // Guided: the refused step is partial, the run pauses for repair.
    QVERIFY(server
                .post(automations("create"),
                      createBody("guided", "active", playbookGraph(id, "guided")))
                .status
            == 200);
    const Reply guided
        = server.post(automations("run"), QJsonObject{{s("automation_id"), s("guided")}});
    QCOMPARE(runState(guided), s("running"));
    const QString runId = runIdOf(guided);
    const QString firstReplay = nodeOf(guided, "pb").value(s("playbook_run_id")).toString();
    const auto guidedExit = executorOnce(server);
    QVERIFY2(guidedExit.first == 1, qPrintable(guidedExit.second));
    QCOMPARE(replayStatus(server, firstReplay), s("partial"));
    const Reply paused = settled(server, runId);
    QCOMPARE(runState(paused), s("paused_for_repair"));
    QCOMPARE(paused.json.value(s("run")).toObject().value(s("pause_reason")).toString(),
             s("repair_required"));
    QCOMPARE(nodeOf(paused, "pb").value(s("error_code")).toString(), s("guided_repair_pending"));
    QCOMPARE(nodeOf(paused, "pb").value(s("pause_reason")).toString(), s("repair_required"));

    // A repair still pending review does not resume the run.
    const Reply repaired = overrideSteps(server, id, "echo", "repaired", true);
    QVERIFY2(repaired.status == 200, repaired.describe());
    QCOMPARE(repaired.json.value(s("review_state")).toString(), s("pending_review"));
    const Reply early
        = server.post(automations("runs/approve_repair"), QJsonObject{{s("run_id"), runId}});
    QCOMPARE(early.status, 409);
    QCOMPARE(early.errorCode(), s("automation_run_not_resumable"));
    QCOMPARE(early.json.value(s("details")).toObject().value(s("reason")).toString(),
             s("playbook_repair_not_approved"));

    // Approved, it makes a newer version; approving the run's repair runs that version.
    const Reply approved
        = server.post(playbooks("repair/review"),
                      QJsonObject{{s("playbook_id"), id}, {s("action"), s("approve")}});
    QVERIFY2(approved.status == 200, approved.describe());
    const int approvedVersion = approved.json.value(s("to_version")).toInt();
    QCOMPARE(approvedVersion, 4);
    const Reply resumed
        = server.post(automations("runs/approve_repair"), QJsonObject{{s("run_id"), runId}});
    QVERIFY2(resumed.status == 200, resumed.describe());
    QCOMPARE(runState(resumed), s("running"));
    const QJsonObject again = nodeOf(resumed, "pb");
    QCOMPARE(again.value(s("playbook_version")).toInt(), approvedVersion);
    const QString secondReplay = again.value(s("playbook_run_id")).toString();
    QVERIFY(isLowerUuid(secondReplay));
    QVERIFY(secondReplay != firstReplay);

    const auto repairedExit = executorOnce(server);
    QVERIFY2(repairedExit.first == 0, qPrintable(repairedExit.second));
    QVERIFY2(repairedExit.second.contains(s("claimed run ") + secondReplay),
             qPrintable(repairedExit.second));
    const Reply done = settled(server, runId);
    QCOMPARE(runState(done), s("succeeded"));
    QCOMPARE(nodeOf(done, "pb").value(s("attempt")).toInt(), 2);
    QCOMPARE(nodeOf(done, "pb")
                 .value(s("output_snapshot_json"))
                 .toObject()
                 .value(s("replay_status"))
                 .toString(),
             s("success"));
}

void tst_HttpAutomationPlaybooks::shadowRunForcesSimulate()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QString id = compiled(server, {s("shadowed")});
    QVERIFY(!id.isEmpty());
    QVERIFY(
        server.post(automations("create"), createBody("sh", "shadow", playbookGraph(id, "strict")))
            .status
        == 200);
    const Reply run
        = server.post(automations("run"),
                      QJsonObject{{s("automation_id"), s("sh")},
                                  {s("options"), QJsonObject{{s("execution_mode"), s("shadow")}}}});
    QVERIFY2(run.status == 200, run.describe());
    QCOMPARE(runState(run), s("succeeded"));
    QCOMPARE(run.json.value(s("run")).toObject().value(s("execution_mode")).toString(),
             s("shadow"));
    const QJsonObject pb = nodeOf(run, "pb");
    QCOMPARE(pb.value(s("status_summary")).toString(), s("succeeded"));
    QCOMPARE(pb.value(s("input_snapshot_json")).toObject().value(s("playbook_mode")).toString(),
             s("simulate"));
    QCOMPARE(pb.value(s("output_snapshot_json")).toObject().value(s("mode")).toString(),
             s("simulate"));
    QVERIFY(pb.value(s("playbook_run_id")).toString().isEmpty());
    // No replay run was opened: the playbook has no run and an executor finds no work.
    const Reply g = server.post(playbooks("get"), QJsonObject{{s("playbook_id"), id}});
    QCOMPARE(g.json.value(s("runs")).toArray().size(), 0);
    const auto executed = executorOnce(server);
    QVERIFY2(executed.first == 0, qPrintable(executed.second));
    QVERIFY2(executed.second.contains(s("no pending work")), qPrintable(executed.second));
}

void tst_HttpAutomationPlaybooks::strictNodeUnderApiKeysIsTheCallersWork()
{
    const QString keys = QStringLiteral(R"({"k1":{"tenant_id":"acme","agent_id":"agent-a"},)"
                                        R"("k3":{"tenant_id":"acme","agent_id":"agent-b"}})");
    HttpTestServer server(
        environment({{"MEMORY_AUTH_MODE", s("api_key")}, {"MEMORY_API_KEYS_JSON", keys}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const HttpHeaders a{{QByteArrayLiteral("X-Api-Key"), QByteArrayLiteral("k1")}};
    const QString id = compiled(server, {s("private")}, a);
    QVERIFY(!id.isEmpty());
    QVERIFY(server
                .post(automations("create"),
                      createBody("keyed", "active", playbookGraph(id, "strict")), a)
                .status
            == 200);
    const Reply run
        = server.post(automations("run"), QJsonObject{{s("automation_id"), s("keyed")}}, a);
    QVERIFY2(run.status == 200, run.describe());
    QCOMPARE(runState(run), s("running"));
    const QString replayRunId = nodeOf(run, "pb").value(s("playbook_run_id")).toString();
    QVERIFY(isLowerUuid(replayRunId));

    // Agent B's executor sees no work of agent A's private playbook; A's executor finishes it.
    const auto agentB
        = runExecutor(QStringLiteral(MEMORYGRAPH_EXECUTOR_PATH), server, {s("--api-key"), s("k3")});
    QVERIFY2(agentB.first == 0 && agentB.second.contains(s("no pending work")),
             qPrintable(agentB.second));
    const auto agentA
        = runExecutor(QStringLiteral(MEMORYGRAPH_EXECUTOR_PATH), server, {s("--api-key"), s("k1")});
    QVERIFY2(agentA.first == 0, qPrintable(agentA.second));
    QVERIFY2(agentA.second.contains(s("claimed run ") + replayRunId), qPrintable(agentA.second));
    const Reply done
        = server.post(automations("runs/get"), QJsonObject{{s("run_id"), runIdOf(run)}}, a);
    QCOMPARE(runState(done), s("succeeded"));
    QCOMPARE(done.json.value(s("run")).toObject().value(s("tenant_id")).toString(), s("acme"));
}

void tst_HttpAutomationPlaybooks::cancelEndsTheReplayRunItWaitedOn()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QString id = compiled(server, {s("late")});
    QVERIFY(!id.isEmpty());
    QVERIFY(server
                .post(automations("create"),
                      createBody("cancel", "active", playbookGraph(id, "strict")))
                .status
            == 200);
    const Reply run
        = server.post(automations("run"), QJsonObject{{s("automation_id"), s("cancel")}});
    QCOMPARE(runState(run), s("running"));
    const QString replayRunId = nodeOf(run, "pb").value(s("playbook_run_id")).toString();
    const Reply cancelled
        = server.post(automations("runs/cancel"), QJsonObject{{s("run_id"), runIdOf(run)}});
    QVERIFY2(cancelled.status == 200, cancelled.describe());
    QCOMPARE(runState(cancelled), s("cancelled"));
    QCOMPARE(nodeOf(cancelled, "pb").value(s("terminal_outcome")).toString(), s("skipped"));

    // The replay run it waited on is ended too, so no executor claims its steps any more.
    QCOMPARE(replayStatus(server, replayRunId), s("failed"));
    const Reply claim = server.post(playbooks("dispatch"), QJsonObject{{s("executor_id"), s("x")}});
    QCOMPARE(claim.json.value(s("dispatch")).toObject().value(s("decision")).toString(),
             s("no_pending_work"));
    const Reply after
        = server.post(automations("runs/get"), QJsonObject{{s("run_id"), runIdOf(run)}});
    QCOMPARE(runState(after), s("cancelled"));
    QCOMPARE(nodeOf(after, "pb").value(s("terminal_outcome")).toString(), s("skipped"));
}

QTEST_GUILESS_MAIN(tst_HttpAutomationPlaybooks)
#include "tst_httpautomationplaybooks.moc"
