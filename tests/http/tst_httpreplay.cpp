// Replay over real HTTP: /v1/memory/replay/run/start, step/before, step/after, run/end and
// runs/get (spec §4.0, §4.12, §5, §7, §8; reference-behaviour §7.1, §7.2).

#include "tests/http/httptestserver.h"

#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

const QString kStart = QStringLiteral("/v1/memory/replay/run/start");
const QString kBefore = QStringLiteral("/v1/memory/replay/step/before");
const QString kAfter = QStringLiteral("/v1/memory/replay/step/after");
const QString kEnd = QStringLiteral("/v1/memory/replay/run/end");
const QString kGet = QStringLiteral("/v1/memory/replay/runs/get");
const QString kUnknownRun = QStringLiteral("5f0c9c1e-8d1a-4f57-b0b1-2f6c3f5d9a01");

const QString kKeys
    = QStringLiteral(R"({"k1":{"tenant_id":"acme","agent_id":"agent-a","team_id":"team-x"},)"
                     R"("k2":{"tenant_id":"globex","agent_id":"agent-g"}})");

QPair<QByteArray, QByteArray> apiKey(const QByteArray &key)
{
    return {QByteArrayLiteral("X-Api-Key"), key};
}

QString reason(const Reply &reply)
{
    return reply.json.value(s("details")).toObject().value(s("reason")).toString();
}

QStringList writeKeys(std::initializer_list<const char *> extra)
{
    QStringList keys = keyList(
        {"tenant_id", "scope", "run_id", "status", "commit_id", "commit_uri", "commit_hash"});
    for (const char *k : extra)
        keys << QString::fromLatin1(k);
    keys.sort();
    return keys;
}

} // namespace

class tst_HttpReplay : public QObject
{
    Q_OBJECT

private slots:
    void fiveRoutesRecordAndReadARun();
    void malformedRunIdNamesRunId();
    void unknownRunIsNotFound();
    void stepAfterNeedsAStepReference();
    void tenantIsolationWithApiKeys();
};

void tst_HttpReplay::fiveRoutesRecordAndReadARun()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));

    const Reply started = server.post(kStart, QJsonObject{{s("goal"), s("rotate the logs")}});
    QVERIFY2(started.status == 200, started.describe());
    QCOMPARE(keysOf(started.json), writeKeys({"run_node_id", "run_uri"}));
    const QString runId = started.json.value(s("run_id")).toString();
    QVERIFY(isLowerUuid(runId));
    QCOMPARE(started.json.value(s("status")).toString(), s("started"));
    QVERIFY(isHex64(started.json.value(s("commit_hash")).toString()));
    QVERIFY(started.json.value(s("run_uri"))
                .toString()
                .startsWith(s("memorygraph://default/default/event/")));

    const Reply before = server.post(
        kBefore, QJsonObject{{s("run_id"), runId},
                             {s("step_index"), 1},
                             {s("tool_name"), s("shell")},
                             {s("tool_input"), QJsonObject{{s("cmd"), s("logrotate")}}}});
    QVERIFY2(before.status == 200, before.describe());
    QCOMPARE(keysOf(before.json), writeKeys({"step_id", "step_index", "step_node_id", "step_uri"}));
    QCOMPARE(before.json.value(s("status")).toString(), s("pending"));
    const QString stepId = before.json.value(s("step_id")).toString();

    const Reply after = server.post(
        kAfter, QJsonObject{{s("run_id"), runId},
                            {s("step_id"), stepId},
                            {s("status"), s("success")},
                            {s("artifact_refs"), QJsonArray{s("file:///var/log/a.gz")}},
                            {s("input_text"), s("logrotate finished")}});
    QVERIFY2(after.status == 200, after.describe());
    QCOMPARE(keysOf(after.json), writeKeys({"step_id", "replay_fallback_triggered",
                                            "step_result_node_id", "step_result_uri"}));
    QCOMPARE(after.json.value(s("replay_fallback_triggered")).toBool(true), false);

    const Reply ended
        = server.post(kEnd, QJsonObject{{s("run_id"), runId}, {s("status"), s("success")}});
    QVERIFY2(ended.status == 200, ended.describe());
    QCOMPARE(keysOf(ended.json), writeKeys({"run_end_node_id", "run_end_uri"}));
    QCOMPARE(server.commits().size(), 4);

    const Reply got
        = server.post(kGet, QJsonObject{{s("run_id"), runId}},
                      {{QByteArrayLiteral("X-Request-Id"), QByteArrayLiteral("replay-req-1")}});
    QVERIFY2(got.status == 200, got.describe());
    QCOMPARE(keysOf(got.json), keyList({"request_id", "tenant_id", "scope", "run", "timeline",
                                        "steps", "artifacts", "counters", "provenance"}));
    QCOMPARE(got.json.value(s("request_id")).toString(), s("replay-req-1"));
    QCOMPARE(got.header("x-request-id"), QByteArrayLiteral("replay-req-1"));
    const QJsonObject run = got.json.value(s("run")).toObject();
    QCOMPARE(keysOf(run), keyList({"run_id", "status", "goal", "run_node_id", "run_uri",
                                   "started_at", "ended_at"}));
    QCOMPARE(run.value(s("status")).toString(), s("success"));
    QCOMPARE(run.value(s("goal")).toString(), s("rotate the logs"));
    QVERIFY(run.value(s("ended_at")).isString());
    const QJsonArray timeline = got.json.value(s("timeline")).toArray();
    QCOMPARE(timeline.size(), 4);
    QCOMPARE(keysOf(timeline.at(0).toObject()),
             keyList({"uri", "node_id", "type", "replay_kind", "title", "text_summary",
                      "created_at", "commit_id", "commit_uri"}));
    const QJsonArray steps = got.json.value(s("steps")).toArray();
    QCOMPARE(steps.size(), 1);
    QCOMPARE(keysOf(steps.at(0).toObject()),
             keyList({"step_id", "step_index", "tool_name", "status", "safety_level",
                      "repair_applied", "preconditions", "postconditions", "artifact_refs",
                      "decision_id", "step_uri", "created_at", "result_uri"}));
    QCOMPARE(steps.at(0).toObject().value(s("status")).toString(), s("success"));
    QCOMPARE(got.json.value(s("artifacts")).toArray(), QJsonArray{s("file:///var/log/a.gz")});
    QCOMPARE(
        keysOf(got.json.value(s("counters")).toObject()),
        keyList({"total_nodes", "step_nodes", "step_result_nodes", "artifact_refs", "decisions"}));
    const QJsonObject provenance = got.json.value(s("provenance")).toObject();
    QCOMPARE(keysOf(provenance),
             keyList({"run_id", "decision_id", "decision_ids", "commit_uri", "commit_uris"}));
    QCOMPARE(provenance.value(s("run_id")).toString(), runId);
    QVERIFY(provenance.value(s("decision_id")).isNull());
    QCOMPARE(provenance.value(s("commit_uri")).toString(),
             ended.json.value(s("commit_uri")).toString());
    QVERIFY(!containsKeyDeep(got.json, s("embedding")));

    const Reply lean = server.post(kGet, QJsonObject{{s("run_id"), runId},
                                                     {s("include_steps"), false},
                                                     {s("include_artifacts"), false}});
    QVERIFY2(lean.status == 200, lean.describe());
    QVERIFY(lean.json.value(s("steps")).isArray()
            && lean.json.value(s("steps")).toArray().isEmpty());
    QVERIFY(lean.json.value(s("artifacts")).isArray()
            && lean.json.value(s("artifacts")).toArray().isEmpty());
}

void tst_HttpReplay::malformedRunIdNamesRunId()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    for (const QString &path : {kGet, kBefore, kEnd}) {
        const Reply r = server.post(path, QJsonObject{{s("run_id"), s("run-42")},
                                                      {s("step_index"), 1},
                                                      {s("tool_name"), s("shell")},
                                                      {s("status"), s("success")}});
        QVERIFY2(r.status == 400, r.describe());
        QCOMPARE(r.errorCode(), s("invalid_request"));
        QCOMPARE(r.issuePath(), s("run_id"));
    }
    const Reply badDigest
        = server.post(kStart, QJsonObject{{s("goal"), s("g")}, {s("input_sha256"), s("xyz")}});
    QCOMPARE(badDigest.status, 400);
    QCOMPARE(badDigest.issuePath(), s("input_sha256"));
    QCOMPARE(server.commits().size(), 0);
}

void tst_HttpReplay::unknownRunIsNotFound()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply got = server.post(kGet, QJsonObject{{s("run_id"), kUnknownRun}});
    QVERIFY2(got.status == 404, got.describe());
    QCOMPARE(got.errorCode(), s("not_found"));
    QCOMPARE(reason(got), s("replay_run_not_found"));
    QVERIFY(!got.json.value(s("request_id")).toString().isEmpty());
    const Reply before = server.post(kBefore, QJsonObject{{s("run_id"), kUnknownRun},
                                                          {s("step_index"), 1},
                                                          {s("tool_name"), s("shell")}});
    QCOMPARE(before.status, 404);
    QCOMPARE(before.errorCode(), s("not_found"));
    QCOMPARE(reason(before), s("replay_run_not_found"));
}

void tst_HttpReplay::stepAfterNeedsAStepReference()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply started = server.post(kStart, QJsonObject{{s("goal"), s("g")}});
    QVERIFY2(started.status == 200, started.describe());
    const Reply after
        = server.post(kAfter, QJsonObject{{s("run_id"), started.json.value(s("run_id"))},
                                          {s("status"), s("failed")}});
    QVERIFY2(after.status == 400, after.describe());
    QCOMPARE(after.errorCode(), s("replay_step_reference_required"));
    QCOMPARE(server.commits().size(), 1);
}

void tst_HttpReplay::tenantIsolationWithApiKeys()
{
    HttpTestServer server(
        environment({{"MEMORY_AUTH_MODE", s("api_key")}, {"MEMORY_API_KEYS_JSON", kKeys}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));

    QCOMPARE(server.post(kStart, QJsonObject{{s("goal"), s("g")}}).status, 401);

    const Reply started
        = server.post(kStart, QJsonObject{{s("goal"), s("acme work")}}, {apiKey("k1")});
    QVERIFY2(started.status == 200, started.describe());
    QCOMPARE(started.json.value(s("tenant_id")).toString(), s("acme"));
    const QString runId = started.json.value(s("run_id")).toString();
    // The key's identity owns the records, so the same key continues and reads the run.
    const Reply before = server.post(
        kBefore,
        QJsonObject{{s("run_id"), runId}, {s("step_index"), 1}, {s("tool_name"), s("shell")}},
        {apiKey("k1")});
    QVERIFY2(before.status == 200, before.describe());
    const Reply own = server.post(kGet, QJsonObject{{s("run_id"), runId}}, {apiKey("k1")});
    QVERIFY2(own.status == 200, own.describe());
    QCOMPARE(own.json.value(s("counters")).toObject().value(s("total_nodes")).toInt(), 2);

    // Another tenant's key neither reaches acme nor finds the run in its own tenant.
    const Reply crossTenant = server.post(
        kGet, QJsonObject{{s("run_id"), runId}, {s("tenant_id"), s("acme")}}, {apiKey("k2")});
    QCOMPARE(crossTenant.status, 403);
    const Reply ownTenant = server.post(kGet, QJsonObject{{s("run_id"), runId}}, {apiKey("k2")});
    QCOMPARE(ownTenant.status, 404);
    QCOMPARE(reason(ownTenant), s("replay_run_not_found"));
    const Reply append = server.post(
        kEnd, QJsonObject{{s("run_id"), runId}, {s("status"), s("failed")}}, {apiKey("k2")});
    QCOMPARE(append.status, 404);

    // A consumer other than the key's agent is refused.
    const Reply mismatch = server.post(
        kGet, QJsonObject{{s("run_id"), runId}, {s("consumer_agent_id"), s("agent-b")}},
        {apiKey("k1")});
    QCOMPARE(mismatch.status, 403);
    QCOMPARE(mismatch.errorCode(), s("identity_mismatch"));
    QCOMPARE(server.commits(s("globex"), s("default")).size(), 0);
    QCOMPARE(server.commits(s("acme"), s("default")).size(), 2);
}

QTEST_GUILESS_MAIN(tst_HttpReplay)
#include "tst_httpreplay.moc"
