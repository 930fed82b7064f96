// Replay playbooks over real HTTP: /v1/memory/replay/playbooks/* (reference-behaviour §7.4),
// their 4xx/409 answers, tenants and lanes, and the example executor (tools/executor) driving a
// strict playbook run end to end through dispatch, replay/step/after and replay/run/end.

#include "tests/http/playbooktestdata.h"

#include <QProcess>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace MemoryGraph::Test::Playbooks;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

const QString kBase = QStringLiteral("/v1/memory/replay/playbooks/");
const QString kUnknown = QStringLiteral("5f0c9c1e-8d1a-4f57-b0b1-2f6c3f5d9a01");
const QString kKeys = QStringLiteral(R"({"k1":{"tenant_id":"acme","agent_id":"agent-a"},)"
                                     R"("k3":{"tenant_id":"acme","agent_id":"agent-b"},)"
                                     R"("k2":{"tenant_id":"globex","agent_id":"agent-g"}})");

QString route(const char *name)
{
    return kBase + QString::fromLatin1(name);
}

QPair<QByteArray, QByteArray> apiKey(const QByteArray &key)
{
    return {QByteArrayLiteral("X-Api-Key"), key};
}

QJsonObject obj(const QJsonValue &v)
{
    return v.toObject();
}

} // namespace

static QPair<int, QString> runExecutor(HttpTestServer &server, const QStringList &extra);

class tst_HttpPlaybooks : public QObject
{
    Q_OBJECT

private slots:
    void compileGetAndCandidate();
    void compileRefusals();
    void promoteRepairAndReview();
    void runSimulateAndStrictThenDispatch();
    void runRefusals();
    void malformedIdsNameTheField();
    void tenantsAndLanes();
    void exampleExecutorRunsAStrictPlaybook();
    void exampleExecutorActsAsItsKey();
};

void tst_HttpPlaybooks::compileGetAndCandidate()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QString runId = recordRun(server, {s("/tmp/hello"), s("world")});
    QVERIFY(!runId.isEmpty());
    const Reply c = server.post(route("compile_from_run"), QJsonObject{{s("run_id"), runId}});
    QVERIFY2(c.status == 200, c.describe());
    QCOMPARE(keysOf(c.json),
             keyList({"tenant_id", "scope", "playbook_id", "name", "version", "status",
                      "source_run_id", "playbook_node_id", "playbook_uri", "compile_summary",
                      "usage", "commit_id", "commit_uri", "commit_hash"}));
    QVERIFY(isLowerUuid(c.json.value(s("playbook_id")).toString()));
    QVERIFY(isHex64(c.json.value(s("commit_hash")).toString()));
    QVERIFY(c.json.value(s("playbook_uri"))
                .toString()
                .startsWith(s("memorygraph://default/default/procedure/")));
    const QString id = c.json.value(s("playbook_id")).toString();

    const Reply g = server.post(route("get"), QJsonObject{{s("playbook_id"), id}});
    QVERIFY2(g.status == 200, g.describe());
    QCOMPARE(keysOf(g.json),
             keyList({"tenant_id", "scope", "playbook", "latest_version", "versions", "runs"}));
    const QJsonObject pb = obj(g.json.value(s("playbook")));
    for (const char *key :
         {"playbook_id", "name", "version", "status", "matchers", "success_criteria",
          "risk_profile", "source_run_id", "steps_template", "uri", "node_id"})
        QVERIFY2(pb.contains(QLatin1String(key)), key);
    QCOMPARE(pb.value(s("steps_template")).toArray().size(), 2);
    QCOMPARE(obj(pb.value(s("steps_template"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(s("tool_input_template")))
                 .value(s("argv"))
                 .toArray(),
             (QJsonArray{s("echo"), s("{{path_1}}")}));

    const Reply cand
        = server.post(route("candidate"),
                      QJsonObject{{s("playbook_id"), id},
                                  {s("deterministic_gate"),
                                   QJsonObject{{s("required_statuses"), QJsonArray{s("draft")}}}}});
    QVERIFY2(cand.status == 200, cand.describe());
    QCOMPARE(keysOf(cand.json), keyList({"tenant_id", "scope", "playbook", "candidate",
                                         "deterministic_gate", "cost_signals"}));
    QCOMPARE(
        obj(cand.json.value(s("candidate"))).value(s("eligible_for_deterministic_replay")).toBool(),
        true);

    const Reply missing = server.post(route("get"), QJsonObject{{s("playbook_id"), kUnknown}});
    QCOMPARE(missing.status, 404);
    QCOMPARE(missing.errorCode(), s("replay_playbook_not_found"));
    const Reply noVersion
        = server.post(route("get"), QJsonObject{{s("playbook_id"), id}, {s("version"), 7}});
    QCOMPARE(noVersion.status, 404);
    QCOMPARE(noVersion.errorCode(), s("replay_playbook_version_not_found"));
    const Reply candMissing
        = server.post(route("candidate"), QJsonObject{{s("playbook_id"), id}, {s("version"), 7}});
    QCOMPARE(candMissing.status, 404);
    QCOMPARE(candMissing.errorCode(), s("replay_playbook_not_found"));
}

void tst_HttpPlaybooks::compileRefusals()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply noRun
        = server.post(route("compile_from_run"), QJsonObject{{s("run_id"), kUnknown}});
    QCOMPARE(noRun.status, 404);
    QCOMPARE(noRun.json.value(s("details")).toObject().value(s("reason")).toString(),
             s("replay_run_not_found"));
    const QString failed = recordRun(server, {s("a")}, {}, s("failed"));
    const Reply notSuccess
        = server.post(route("compile_from_run"), QJsonObject{{s("run_id"), failed}});
    QCOMPARE(notSuccess.status, 400);
    QCOMPARE(notSuccess.errorCode(), s("replay_compile_requires_successful_run"));
    QCOMPARE(notSuccess.json.value(s("details")).toObject().value(s("run_status")).toString(),
             s("failed"));
    const QString empty = recordRun(server, {});
    const Reply noSteps = server.post(route("compile_from_run"), QJsonObject{{s("run_id"), empty}});
    QCOMPARE(noSteps.status, 400);
    QCOMPARE(noSteps.errorCode(), s("replay_compile_no_steps"));
    const QString ok = recordRun(server, {s("b")});
    const Reply first = server.post(route("compile_from_run"), QJsonObject{{s("run_id"), ok}});
    QVERIFY2(first.status == 200, first.describe());
    const Reply again = server.post(
        route("compile_from_run"),
        QJsonObject{{s("run_id"), ok}, {s("playbook_id"), first.json.value(s("playbook_id"))}});
    QCOMPARE(again.status, 409);
    QCOMPARE(again.errorCode(), s("replay_playbook_version_exists"));
    const Reply badRisk = server.post(
        route("compile_from_run"), QJsonObject{{s("run_id"), ok}, {s("risk_profile"), s("huge")}});
    QCOMPARE(badRisk.status, 400);
    QCOMPARE(badRisk.issuePath(), s("risk_profile"));
}

void tst_HttpPlaybooks::promoteRepairAndReview()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QString id = compiled(server, {s("one"), s("two")});
    QVERIFY(!id.isEmpty());
    const Reply promoted = server.post(
        route("promote"), QJsonObject{{s("playbook_id"), id}, {s("target_status"), s("shadow")}});
    QVERIFY2(promoted.status == 200, promoted.describe());
    QCOMPARE(promoted.json.value(s("to_version")).toInt(), 2);
    QCOMPARE(promoted.json.value(s("status")).toString(), s("shadow"));
    const Reply same = server.post(
        route("promote"), QJsonObject{{s("playbook_id"), id}, {s("target_status"), s("shadow")}});
    QCOMPARE(same.json.value(s("unchanged")).toBool(), true);
    const Reply badVersion
        = server.post(route("promote"), QJsonObject{{s("playbook_id"), id},
                                                    {s("target_status"), s("active")},
                                                    {s("from_version"), 9}});
    QCOMPARE(badVersion.status, 404);
    QCOMPARE(badVersion.errorCode(), s("replay_playbook_version_not_found"));
    const Reply noPlaybook
        = server.post(route("promote"),
                      QJsonObject{{s("playbook_id"), kUnknown}, {s("target_status"), s("active")}});
    QCOMPARE(noPlaybook.status, 404);
    QCOMPARE(noPlaybook.errorCode(), s("replay_playbook_not_found"));

    const Reply notRepair = server.post(
        route("repair/review"), QJsonObject{{s("playbook_id"), id}, {s("action"), s("approve")}});
    QCOMPARE(notRepair.status, 400);
    QCOMPARE(notRepair.errorCode(), s("replay_repair_patch_missing"));

    const Reply repaired = server.post(
        route("repair"),
        QJsonObject{{s("playbook_id"), id},
                    {s("patch"), QJsonObject{{s("remove_step_indices"), QJsonArray{2}}}},
                    {s("note"), s("second echo is noise")}});
    QVERIFY2(repaired.status == 200, repaired.describe());
    QCOMPARE(repaired.json.value(s("from_version")).toInt(), 2);
    QCOMPARE(repaired.json.value(s("to_version")).toInt(), 3);
    QCOMPARE(repaired.json.value(s("review_state")).toString(), s("pending_review"));
    const Reply badRepairVersion = server.post(
        route("repair"), QJsonObject{{s("playbook_id"), id},
                                     {s("from_version"), 42},
                                     {s("patch"), QJsonObject{{s("risk_profile"), s("low")}}}});
    QCOMPARE(badRepairVersion.status, 404);
    QCOMPARE(badRepairVersion.errorCode(), s("replay_playbook_version_not_found"));
    const Reply noPatch = server.post(route("repair"), QJsonObject{{s("playbook_id"), id}});
    QCOMPARE(noPatch.status, 400);
    QCOMPARE(noPatch.issuePath(), s("patch"));

    const Reply approved = server.post(
        route("repair/review"), QJsonObject{{s("playbook_id"), id}, {s("action"), s("approve")}});
    QVERIFY2(approved.status == 200, approved.describe());
    QCOMPARE(approved.json.value(s("review_state")).toString(), s("approved"));
    QCOMPARE(approved.json.value(s("status")).toString(), s("shadow"));
    QCOMPARE(approved.json.value(s("to_version")).toInt(), 4);
    const Reply twice = server.post(
        route("repair/review"),
        QJsonObject{{s("playbook_id"), id}, {s("action"), s("reject")}, {s("version"), 3}});
    QCOMPARE(twice.status, 409);
    QCOMPARE(twice.errorCode(), s("replay_repair_not_pending_review"));
    const Reply reviewMissing = server.post(
        route("repair/review"),
        QJsonObject{{s("playbook_id"), id}, {s("action"), s("reject")}, {s("version"), 99}});
    QCOMPARE(reviewMissing.status, 404);
    QCOMPARE(reviewMissing.errorCode(), s("replay_playbook_version_not_found"));

    const Reply g = server.post(route("get"), QJsonObject{{s("playbook_id"), id}});
    const QJsonArray versions = g.json.value(s("versions")).toArray();
    QCOMPARE(versions.size(), 4);
    QCOMPARE(obj(versions.at(2)).value(s("repaired_from_version")).toInt(), 2);
    QCOMPARE(obj(versions.at(3)).value(s("reviewed_from_version")).toInt(), 3);
}

void tst_HttpPlaybooks::runSimulateAndStrictThenDispatch()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QString id = compiled(server, {s("/tmp/a")});
    const Reply sim = server.post(
        route("run"), QJsonObject{{s("playbook_id"), id},
                                  {s("params"), QJsonObject{{s("path_1"), s("/tmp/b")}}}});
    QVERIFY2(sim.status == 200, sim.describe());
    QCOMPARE(keysOf(sim.json),
             keyList({"tenant_id", "scope", "playbook", "mode", "deterministic_gate", "run",
                      "summary", "steps", "execution", "repair", "params_echo", "cost_signals"}));
    QCOMPARE(obj(sim.json.value(s("summary"))).value(s("outcome")).toString(), s("success"));
    QCOMPARE(sim.json.value(s("steps")).toArray().at(0).toObject().value(s("argv")).toArray(),
             (QJsonArray{s("echo"), s("/tmp/b")}));

    const Reply strict
        = server.post(route("run"), QJsonObject{{s("playbook_id"), id}, {s("mode"), s("strict")}});
    QVERIFY2(strict.status == 200, strict.describe());
    const QString runId = obj(strict.json.value(s("run"))).value(s("run_id")).toString();
    QVERIFY(isLowerUuid(runId));
    const Reply claim = server.post(
        route("dispatch"), QJsonObject{{s("executor_id"), s("ex-1")}, {s("playbook_id"), id}});
    QVERIFY2(claim.status == 200, claim.describe());
    QCOMPARE(keysOf(claim.json), keyList({"tenant_id", "scope", "candidate", "deterministic_gate",
                                          "dispatch", "run", "steps", "report"}));
    QCOMPARE(obj(claim.json.value(s("dispatch"))).value(s("decision")).toString(), s("claimed"));
    QCOMPARE(obj(claim.json.value(s("run"))).value(s("run_id")).toString(), runId);
    const Reply none = server.post(route("dispatch"), QJsonObject{{s("executor_id"), s("ex-2")}});
    QCOMPARE(obj(none.json.value(s("dispatch"))).value(s("decision")).toString(),
             s("no_pending_work"));
    const Reply taken = server.post(
        route("dispatch"), QJsonObject{{s("executor_id"), s("ex-2")}, {s("run_id"), runId}});
    QCOMPARE(taken.status, 409);
    QCOMPARE(taken.errorCode(), s("replay_dispatch_already_claimed"));
    // Executors asking at the same time: each of two runs goes to exactly one of them.
    QStringList runIds{runId};
    for (int i = 0; i < 2; ++i) {
        const Reply more = server.post(
            route("run"), QJsonObject{{s("playbook_id"), id}, {s("mode"), s("strict")}});
        runIds << obj(more.json.value(s("run"))).value(s("run_id")).toString();
    }
    QList<QByteArray> asks;
    for (int i = 0; i < 6; ++i)
        asks << compactJson(QJsonObject{{s("executor_id"), QStringLiteral("racer-%1").arg(i)}});
    QStringList handedOut;
    for (const Reply &r : server.postConcurrently(route("dispatch"), asks)) {
        QVERIFY2(r.status == 200, r.describe());
        const QString claimed = obj(r.json.value(s("run"))).value(s("run_id")).toString();
        if (!claimed.isEmpty())
            handedOut << claimed;
    }
    handedOut.sort();
    QStringList expected = runIds.mid(1);
    expected.sort();
    QCOMPARE(handedOut, expected);

    const Reply noExecutor = server.post(route("dispatch"), QJsonObject{});
    QCOMPARE(noExecutor.status, 400);
    QCOMPARE(noExecutor.issuePath(), s("executor_id"));
    const Reply noPlaybook
        = server.post(route("dispatch"),
                      QJsonObject{{s("executor_id"), s("ex-2")}, {s("playbook_id"), kUnknown}});
    QCOMPARE(noPlaybook.status, 404);
    QCOMPARE(noPlaybook.errorCode(), s("replay_playbook_not_found"));
    const Reply noRun = server.post(
        route("dispatch"), QJsonObject{{s("executor_id"), s("ex-2")}, {s("run_id"), kUnknown}});
    QCOMPARE(noRun.status, 404);
    QCOMPARE(noRun.json.value(s("details")).toObject().value(s("reason")).toString(),
             s("replay_run_not_found"));

    // The executor ends the run; the playbook run reports how it ended, and it is not work.
    const Reply ended = server.post(s("/v1/memory/replay/run/end"),
                                    QJsonObject{{s("run_id"), runId}, {s("status"), s("failed")}});
    QVERIFY2(ended.status == 200, ended.describe());
    const Reply over = server.post(
        route("dispatch"), QJsonObject{{s("executor_id"), s("ex-2")}, {s("run_id"), runId}});
    QCOMPARE(over.status, 409);
    QCOMPARE(over.errorCode(), s("replay_dispatch_run_ended"));
    const Reply g = server.post(route("get"), QJsonObject{{s("playbook_id"), id}});
    QString endedStatus;
    for (const QJsonValue &r : g.json.value(s("runs")).toArray()) {
        if (r.toObject().value(s("run_id")).toString() == runId)
            endedStatus = r.toObject().value(s("status")).toString();
    }
    QCOMPARE(endedStatus, s("failed"));
    QCOMPARE(g.json.value(s("runs")).toArray().size(), 3);
}

void tst_HttpPlaybooks::runRefusals()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QString id = compiled(server, {s("x")});
    const Reply noPlaybook = server.post(route("run"), QJsonObject{{s("playbook_id"), kUnknown}});
    QCOMPARE(noPlaybook.status, 404);
    QCOMPARE(noPlaybook.errorCode(), s("replay_playbook_not_found"));
    const Reply badMode
        = server.post(route("run"), QJsonObject{{s("playbook_id"), id}, {s("mode"), s("yolo")}});
    QCOMPARE(badMode.status, 400);
    QCOMPARE(badMode.issuePath(), s("mode"));
    const Reply gate = server.post(
        route("run"),
        QJsonObject{{s("playbook_id"), id},
                    {s("deterministic_gate"), QJsonObject{{s("on_mismatch"), s("reject")}}}});
    QCOMPARE(gate.status, 409);
    QCOMPARE(gate.errorCode(), s("replay_deterministic_gate_mismatch"));
    const Reply tooMany
        = server.post(route("run"), QJsonObject{{s("playbook_id"), id}, {s("max_steps"), 501}});
    QCOMPARE(tooMany.status, 400);
    QCOMPARE(tooMany.issuePath(), s("max_steps"));
    // A step whose template names a variable nothing binds cannot be handed to an executor.
    const Reply repaired = server.post(
        route("repair"),
        QJsonObject{
            {s("playbook_id"), id},
            {s("review_required"), false},
            {s("patch"),
             QJsonObject{
                 {s("steps_override"),
                  QJsonArray{QJsonObject{
                      {s("tool_name"), s("command")},
                      {s("tool_input"),
                       QJsonObject{{s("argv"), QJsonArray{s("echo"), s("{{who}}")}}}}}}}}}});
    QVERIFY2(repaired.status == 200, repaired.describe());
    const Reply unbound
        = server.post(route("run"), QJsonObject{{s("playbook_id"), id}, {s("mode"), s("strict")}});
    QCOMPARE(unbound.status, 400);
    QCOMPARE(unbound.errorCode(), s("replay_playbook_params_missing"));
    const Reply simulated = server.post(route("run"), QJsonObject{{s("playbook_id"), id}});
    QCOMPARE(obj(simulated.json.value(s("summary"))).value(s("outcome")).toString(), s("failed"));
}

void tst_HttpPlaybooks::malformedIdsNameTheField()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    for (const char *name : {"get", "candidate", "promote", "repair", "repair/review", "run"}) {
        const Reply r = server.post(route(name), QJsonObject{{s("playbook_id"), s("pb-1")},
                                                             {s("target_status"), s("active")},
                                                             {s("action"), s("approve")},
                                                             {s("patch"), QJsonObject{}}});
        QVERIFY2(r.status == 400, qPrintable(QString::fromLatin1(name) + QLatin1Char(' ')
                                             + QString::fromUtf8(r.describe())));
        QCOMPARE(r.errorCode(), s("invalid_request"));
        QCOMPARE(r.issuePath(), s("playbook_id"));
    }
    const Reply compile = server.post(route("compile_from_run"), QJsonObject{});
    QCOMPARE(compile.issuePath(), s("run_id"));
    QCOMPARE(server.commits().size(), 0);
}

void tst_HttpPlaybooks::tenantsAndLanes()
{
    HttpTestServer server(
        environment({{"MEMORY_AUTH_MODE", s("api_key")}, {"MEMORY_API_KEYS_JSON", kKeys}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QCOMPARE(server.post(route("get"), QJsonObject{{s("playbook_id"), kUnknown}}).status, 401);
    const QString id = compiled(server, {s("hi")}, {apiKey("k1")});
    QVERIFY(!id.isEmpty());
    const Reply own
        = server.post(route("get"), QJsonObject{{s("playbook_id"), id}}, {apiKey("k1")});
    QVERIFY2(own.status == 200, own.describe());
    QCOMPARE(obj(own.json.value(s("playbook"))).value(s("memory_lane")).toString(), s("private"));
    // Agent B of the same tenant sees nothing of A's private playbook.
    const Reply otherAgent
        = server.post(route("get"), QJsonObject{{s("playbook_id"), id}}, {apiKey("k3")});
    QCOMPARE(otherAgent.status, 404);
    QCOMPARE(otherAgent.errorCode(), s("replay_playbook_not_found"));
    const Reply otherPromote = server.post(
        route("promote"), QJsonObject{{s("playbook_id"), id}, {s("target_status"), s("active")}},
        {apiKey("k3")});
    QCOMPARE(otherPromote.status, 404);
    const Reply strict
        = server.post(route("run"), QJsonObject{{s("playbook_id"), id}, {s("mode"), s("strict")}},
                      {apiKey("k1")});
    QVERIFY2(strict.status == 200, strict.describe());
    const Reply bClaims
        = server.post(route("dispatch"), QJsonObject{{s("executor_id"), s("b")}}, {apiKey("k3")});
    QCOMPARE(obj(bClaims.json.value(s("dispatch"))).value(s("decision")).toString(),
             s("no_pending_work"));
    // Another tenant: its own tenant has no such playbook, and naming acme is refused.
    const Reply globex
        = server.post(route("get"), QJsonObject{{s("playbook_id"), id}}, {apiKey("k2")});
    QCOMPARE(globex.status, 404);
    const Reply crossTenant = server.post(
        route("get"), QJsonObject{{s("playbook_id"), id}, {s("tenant_id"), s("acme")}},
        {apiKey("k2")});
    QCOMPARE(crossTenant.status, 403);
    const Reply mismatch = server.post(
        route("get"), QJsonObject{{s("playbook_id"), id}, {s("consumer_agent_id"), s("agent-a")}},
        {apiKey("k3")});
    QCOMPARE(mismatch.status, 403);
    QCOMPARE(mismatch.errorCode(), s("identity_mismatch"));
    const Reply aClaims
        = server.post(route("dispatch"), QJsonObject{{s("executor_id"), s("a")}}, {apiKey("k1")});
    QCOMPARE(obj(aClaims.json.value(s("dispatch"))).value(s("decision")).toString(), s("claimed"));
    QCOMPARE(server.commits(s("globex"), s("default")).size(), 0);
}

void tst_HttpPlaybooks::exampleExecutorRunsAStrictPlaybook()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QString id = compiled(server, {s("hello-from-playbook"), s("/tmp/recorded")});
    QVERIFY(!id.isEmpty());
    const Reply strict = server.post(
        route("run"),
        QJsonObject{{s("playbook_id"), id},
                    {s("mode"), s("strict")},
                    {s("params"), QJsonObject{{s("path_1"), s("/tmp/bound-at-run-time")}}}});
    QVERIFY2(strict.status == 200, strict.describe());
    const QString runId = obj(strict.json.value(s("run"))).value(s("run_id")).toString();

    QProcess executor;
    executor.setProcessChannelMode(QProcess::MergedChannels);
    executor.start(QStringLiteral(MEMORYGRAPH_EXECUTOR_PATH),
                   {s("--url"), QStringLiteral("http://127.0.0.1:%1").arg(server.port()),
                    s("--playbook-id"), id, s("--executor-id"), s("test-executor"), s("--once")});
    QVERIFY2(executor.waitForStarted(10000), qPrintable(executor.errorString()));
    // The server answers on this thread: spin the event loop while the executor works.
    QVERIFY(QTest::qWaitFor([&] { return executor.state() == QProcess::NotRunning; }, 60000));
    const QString log = QString::fromUtf8(executor.readAll());
    QVERIFY2(executor.exitStatus() == QProcess::NormalExit && executor.exitCode() == 0,
             qPrintable(log));
    QVERIFY2(log.contains(s("claimed run ") + runId), qPrintable(log));

    // The replay run ended success, each step with the output the executor saw.
    const Reply run
        = server.post(s("/v1/memory/replay/runs/get"), QJsonObject{{s("run_id"), runId}});
    QVERIFY2(run.status == 200, run.describe());
    QCOMPARE(obj(run.json.value(s("run"))).value(s("status")).toString(), s("success"));
    const QJsonArray steps = run.json.value(s("steps")).toArray();
    QCOMPARE(steps.size(), 2);
    for (const QJsonValue &st : steps)
        QCOMPARE(st.toObject().value(s("status")).toString(), s("success"));
    auto view = server.service()->replayRun(s("default"), s("default"), runId);
    QVERIFY(view);
    QCOMPARE(
        view.value().steps.at(1).outputSignature.toObject().value(s("stdout")).toString().trimmed(),
        s("/tmp/bound-at-run-time"));
    QCOMPARE(view.value().steps.at(0).outputSignature.toObject().value(s("exit_code")).toInt(-1),
             0);

    // The playbook run reports the end of its replay run.
    const Reply g = server.post(route("get"), QJsonObject{{s("playbook_id"), id}});
    const QJsonObject playbookRun = g.json.value(s("runs")).toArray().at(0).toObject();
    QCOMPARE(playbookRun.value(s("run_id")).toString(), runId);
    QCOMPARE(playbookRun.value(s("status")).toString(), s("success"));
    QCOMPARE(playbookRun.value(s("claimed_by")).toString(), s("test-executor"));
    QCOMPARE(playbookRun.value(s("ended")).toBool(), true);

    // A program outside the allowlist is not run: the strict run fails at that step.
    const Reply repaired = server.post(
        route("repair"),
        QJsonObject{
            {s("playbook_id"), id},
            {s("review_required"), false},
            {s("patch"),
             QJsonObject{
                 {s("steps_override"),
                  QJsonArray{QJsonObject{
                      {s("tool_name"), s("command")},
                      {s("tool_input"),
                       QJsonObject{{s("argv"), QJsonArray{s("touch"), s("/tmp/nope")}}}}}}}}}});
    QVERIFY2(repaired.status == 200, repaired.describe());
    const Reply second
        = server.post(route("run"), QJsonObject{{s("playbook_id"), id}, {s("mode"), s("strict")}});
    const QString secondRun = obj(second.json.value(s("run"))).value(s("run_id")).toString();
    QProcess refused;
    refused.setProcessChannelMode(QProcess::MergedChannels);
    refused.start(
        QStringLiteral(MEMORYGRAPH_EXECUTOR_PATH),
        {s("--url"), QStringLiteral("http://127.0.0.1:%1").arg(server.port()), s("--once")});
    QVERIFY(refused.waitForStarted(10000));
    QVERIFY(QTest::qWaitFor([&] { return refused.state() == QProcess::NotRunning; }, 60000));
    QCOMPARE(refused.exitCode(), 1);
    const Reply failedRun
        = server.post(s("/v1/memory/replay/runs/get"), QJsonObject{{s("run_id"), secondRun}});
    QCOMPARE(obj(failedRun.json.value(s("run"))).value(s("status")).toString(), s("failed"));

    // Guided: the refused step is reported partial and the run ends partial.
    const Reply guided
        = server.post(route("run"), QJsonObject{{s("playbook_id"), id}, {s("mode"), s("guided")}});
    const QString guidedRun = obj(guided.json.value(s("run"))).value(s("run_id")).toString();
    const auto guidedExit = runExecutor(server, {});
    QCOMPARE(guidedExit.first, 1);
    const Reply partialRun
        = server.post(s("/v1/memory/replay/runs/get"), QJsonObject{{s("run_id"), guidedRun}});
    QCOMPARE(obj(partialRun.json.value(s("run"))).value(s("status")).toString(), s("partial"));
    QCOMPARE(
        partialRun.json.value(s("steps")).toArray().at(0).toObject().value(s("status")).toString(),
        s("partial"));
}

/// Runs the example executor once against the server; returns its exit code and output.
static QPair<int, QString> runExecutor(HttpTestServer &server, const QStringList &extra)
{
    return runExecutor(QStringLiteral(MEMORYGRAPH_EXECUTOR_PATH), server, extra);
}

void tst_HttpPlaybooks::exampleExecutorActsAsItsKey()
{
    HttpTestServer server(
        environment({{"MEMORY_AUTH_MODE", s("api_key")}, {"MEMORY_API_KEYS_JSON", kKeys}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QString id = compiled(server, {s("private work")}, {apiKey("k1")});
    QVERIFY(!id.isEmpty());
    const Reply strict
        = server.post(route("run"), QJsonObject{{s("playbook_id"), id}, {s("mode"), s("strict")}},
                      {apiKey("k1")});
    QVERIFY2(strict.status == 200, strict.describe());
    const QString runId = obj(strict.json.value(s("run"))).value(s("run_id")).toString();

    // Without a key the executor is refused; agent B's executor finds no work it may see.
    const auto anonymous = runExecutor(server, {});
    QCOMPARE(anonymous.first, 2);
    QVERIFY2(anonymous.second.contains(s("401")), qPrintable(anonymous.second));
    const auto agentB = runExecutor(server, {s("--api-key"), s("k3")});
    QCOMPARE(agentB.first, 0);
    QVERIFY2(agentB.second.contains(s("no pending work")), qPrintable(agentB.second));
    // Agent A's executor claims and finishes it.
    const auto agentA = runExecutor(server, {s("--api-key"), s("k1")});
    QVERIFY2(agentA.first == 0, qPrintable(agentA.second));
    QVERIFY2(agentA.second.contains(s("claimed run ") + runId), qPrintable(agentA.second));
    const Reply run = server.post(s("/v1/memory/replay/runs/get"),
                                  QJsonObject{{s("run_id"), runId}}, {apiKey("k1")});
    QCOMPARE(obj(run.json.value(s("run"))).value(s("status")).toString(), s("success"));
}

QTEST_GUILESS_MAIN(tst_HttpPlaybooks)
#include "tst_httpplaybooks.moc"
