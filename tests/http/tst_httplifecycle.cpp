// Archive rehydrate and node activation over real HTTP (spec §4.5, §4.6, §2.9, §3.2, §7, §8;
// reference-behaviour §6.1, §6.2).

#include "tests/http/httptestserver.h"

#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

#define REQUIRE_SERVER(server) QVERIFY2((server).isReady(), qPrintable((server).errorText()))
#define REQUIRE_OK(reply) \
    QVERIFY2((reply).status == 200 && (reply).isJsonObject, (reply).describe().constData())

namespace {

const QString kRehydrate = QStringLiteral("/v1/memory/archive/rehydrate");
const QString kActivate = QStringLiteral("/v1/memory/nodes/activate");
const QString kKeys = QStringLiteral(
    R"({"k1":{"tenant_id":"acme","agent_id":"agent-a"},"k2":{"tenant_id":"globex","agent_id":"agent-g"}})");

QJsonObject tiered(const QString &clientId, const QString &tier)
{
    return {{QStringLiteral("client_id"), clientId},
            {QStringLiteral("type"), QStringLiteral("event")},
            {QStringLiteral("text_summary"), QStringLiteral("about ") + clientId},
            {QStringLiteral("tier"), tier}};
}

/// Writes the nodes and returns client_id -> node id.
QHash<QString, QString> seed(HttpTestServer &server, const QJsonArray &nodes,
                             const HttpHeaders &headers = {})
{
    QHash<QString, QString> ids;
    const Reply r = server.write(writeBody(nodes), headers);
    const QJsonArray written = r.json.value(QStringLiteral("nodes")).toArray();
    for (const QJsonValue &n : written)
        ids.insert(n.toObject().value(QStringLiteral("client_id")).toString(),
                   n.toObject().value(QStringLiteral("id")).toString());
    return ids;
}

QJsonObject withInput(QJsonObject body)
{
    body.insert(QStringLiteral("input_text"), QStringLiteral("lifecycle test"));
    return body;
}

QStringList strings(const QJsonValue &array)
{
    QStringList out;
    for (const QJsonValue &v : array.toArray())
        out << v.toString();
    return out;
}

QPair<QByteArray, QByteArray> apiKey(const QByteArray &key)
{
    return {QByteArrayLiteral("X-Api-Key"), key};
}

} // namespace

class tst_HttpLifecycle : public QObject
{
    Q_OBJECT

private slots:
    void rehydrateMovesAndReportsExactKeys();
    void rehydrateNoopHasNullCommit();
    void rehydrateValidation_data();
    void rehydrateValidation();
    void rehydrateNoResolvedNodes();
    void activateReportsExactKeys();
    void activateNothingFoundOmitsOutcome();
    void activateValidation_data();
    void activateValidation();
    void apiKeyTenantIsolation();
};

void tst_HttpLifecycle::rehydrateMovesAndReportsExactKeys()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const auto ids
        = seed(server, {tiered("a", "archive"), tiered("c", "cold"), tiered("h", "hot")});
    QCOMPARE(ids.size(), 3);
    const Reply r
        = server.post(kRehydrate, withInput({{"client_ids", QJsonArray{"a", "c", "h", "zz"}},
                                             {"node_ids", QJsonArray{ids.value("a").toUpper()}},
                                             {"target_tier", "hot"}}));
    REQUIRE_OK(r);
    QCOMPARE(keysOf(r.json), keyList({"tenant_id", "scope", "target_tier", "commit_id",
                                      "commit_uri", "commit_hash", "rehydrated"}));
    QCOMPARE(r.json.value("tenant_id").toString(), QStringLiteral("default"));
    QCOMPARE(r.json.value("target_tier").toString(), QStringLiteral("hot"));
    const QString commitId = r.json.value("commit_id").toString();
    QVERIFY(isLowerUuid(commitId));
    QVERIFY(isHex64(r.json.value("commit_hash").toString()));
    QCOMPARE(r.json.value("commit_uri").toString(),
             QStringLiteral("memorygraph://default/default/commit/") + commitId);
    const QJsonObject rh = r.json.value("rehydrated").toObject();
    QCOMPARE(keysOf(rh), keyList({"requested_node_ids", "requested_client_ids", "resolved_node_ids",
                                  "found_nodes", "moved_nodes", "noop_nodes", "missing_node_ids",
                                  "missing_client_ids", "moved_ids", "noop_ids"}));
    QCOMPARE(rh.value("requested_node_ids").toInt(), 1);
    QCOMPARE(rh.value("requested_client_ids").toInt(), 4);
    QCOMPARE(rh.value("resolved_node_ids").toInt(), 3);
    QCOMPARE(rh.value("found_nodes").toInt(), 3);
    QCOMPARE(rh.value("moved_nodes").toInt(), 2);
    QCOMPARE(rh.value("noop_nodes").toInt(), 1);
    QCOMPARE(strings(rh.value("moved_ids")), (QStringList{ids.value("a"), ids.value("c")}));
    QCOMPARE(strings(rh.value("noop_ids")), QStringList{ids.value("h")});
    QCOMPARE(strings(rh.value("missing_client_ids")), QStringList{"zz"});
    QVERIFY(rh.value("missing_node_ids").toArray().isEmpty());

    const QVector<CommitRecord> commits = server.commits();
    QCOMPARE(commits.first().id, commitId);
    QCOMPARE(commits.first().kind, QStringLiteral("archive_rehydrate"));
    QCOMPARE(commits.first().actor, QStringLiteral("local-user"));
    for (const NodeRecord &n : server.nodes())
        QCOMPARE(n.tier, QStringLiteral("hot"));
}

void tst_HttpLifecycle::rehydrateNoopHasNullCommit()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    seed(server, {tiered("w", "warm")});
    const int before = int(server.commits().size());
    const Reply r = server.post(kRehydrate, withInput({{"client_ids", QJsonArray{"w"}}}));
    REQUIRE_OK(r);
    QVERIFY(r.json.value("commit_id").isNull());
    QVERIFY(r.json.value("commit_hash").isNull());
    QCOMPARE(r.json.value("target_tier").toString(), QStringLiteral("warm"));
    QCOMPARE(r.json.value("rehydrated").toObject().value("noop_nodes").toInt(), 1);
    QCOMPARE(int(server.commits().size()), before);
}

void tst_HttpLifecycle::rehydrateValidation_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("path");
    const QJsonObject ok{{"client_ids", QJsonArray{"a"}}, {"input_text", "x"}};
    QJsonObject noInput = ok;
    noInput.remove("input_text");
    QTest::newRow("missing input_text") << noInput << QStringLiteral("input_text");
    QTest::newRow("no targets") << QJsonObject{{"input_text", "x"}} << QStringLiteral("node_ids");
    QJsonObject badUuid = ok;
    badUuid.insert("node_ids", QJsonArray{"00000000-0000-4000-8000-000000000001", "nope"});
    QTest::newRow("malformed uuid") << badUuid << QStringLiteral("node_ids[1]");
    QJsonObject emptyList = ok;
    emptyList.insert("client_ids", QJsonArray{});
    QTest::newRow("empty client_ids") << emptyList << QStringLiteral("client_ids");
    QJsonArray many;
    for (int i = 0; i < 201; ++i)
        many.append(QStringLiteral("c%1").arg(i));
    QJsonObject tooMany = ok;
    tooMany.insert("client_ids", many);
    QTest::newRow("201 client_ids") << tooMany << QStringLiteral("client_ids");
    QJsonObject badTier = ok;
    badTier.insert("target_tier", "archive");
    QTest::newRow("target_tier archive") << badTier << QStringLiteral("target_tier");
    QJsonObject badSha = ok;
    badSha.remove("input_text");
    badSha.insert("input_sha256", "xyz");
    QTest::newRow("bad input_sha256") << badSha << QStringLiteral("input_sha256");
    QJsonObject numberId = ok;
    numberId.insert("client_ids", QJsonArray{"a", 5});
    QTest::newRow("non-string client id") << numberId << QStringLiteral("client_ids[1]");
}

void tst_HttpLifecycle::rehydrateValidation()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, path);
    HttpTestServer server;
    REQUIRE_SERVER(server);
    seed(server, {tiered("a", "archive")});
    const int before = int(server.commits().size());
    const Reply r = server.post(kRehydrate, body);
    QVERIFY2(r.status == 400, r.describe());
    QCOMPARE(r.errorCode(), QStringLiteral("invalid_request"));
    QCOMPARE(r.issuePath(), path);
    QCOMPARE(int(server.commits().size()), before);
    QCOMPARE(server.nodes().first().tier, QStringLiteral("archive"));
}

void tst_HttpLifecycle::rehydrateNoResolvedNodes()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Reply r = server.post(kRehydrate, withInput({{"client_ids", QJsonArray{"ghost"}}}));
    QVERIFY2(r.status == 400, r.describe());
    QCOMPARE(r.errorCode(), QStringLiteral("rehydrate_no_resolved_nodes"));
    const Reply a = server.post(kActivate, withInput({{"client_ids", QJsonArray{"ghost"}}}));
    QVERIFY2(a.status == 400, a.describe());
    QCOMPARE(a.errorCode(), QStringLiteral("nodes_activate_no_resolved_nodes"));
    QVERIFY(server.commits().isEmpty());
}

void tst_HttpLifecycle::activateReportsExactKeys()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const auto ids = seed(server, {tiered("a", "cold"), tiered("b", "hot")});
    const QString missing = QStringLiteral("00000000-0000-4000-8000-0000000000ab");
    const Reply r
        = server.post(kActivate, withInput({{"node_ids", QJsonArray{ids.value("a"), missing}},
                                            {"client_ids", QJsonArray{"b"}},
                                            {"outcome", "positive"},
                                            {"run_id", "run-7"},
                                            {"activate", false}}));
    REQUIRE_OK(r);
    QCOMPARE(keysOf(r.json), keyList({"tenant_id", "scope", "commit_id", "commit_uri",
                                      "commit_hash", "activated"}));
    QVERIFY(isLowerUuid(r.json.value("commit_id").toString()));
    QVERIFY(isHex64(r.json.value("commit_hash").toString()));
    const QJsonObject a = r.json.value("activated").toObject();
    QCOMPARE(keysOf(a), keyList({"requested_node_ids", "requested_client_ids", "resolved_node_ids",
                                 "found_nodes", "updated_nodes", "missing_node_ids",
                                 "missing_client_ids", "updated_ids", "outcome", "activate"}));
    QCOMPARE(a.value("requested_node_ids").toInt(), 2);
    QCOMPARE(a.value("requested_client_ids").toInt(), 1);
    QCOMPARE(a.value("resolved_node_ids").toInt(), 3);
    QCOMPARE(a.value("found_nodes").toInt(), 2);
    QCOMPARE(a.value("updated_nodes").toInt(), 2);
    QCOMPARE(strings(a.value("missing_node_ids")), QStringList{missing});
    QCOMPARE(strings(a.value("updated_ids")), (QStringList{ids.value("a"), ids.value("b")}));
    QCOMPARE(a.value("outcome").toString(), QStringLiteral("positive"));
    QCOMPARE(a.value("activate").toBool(), false);

    auto detail = server.service()->nodeDetail("default", "default", ids.value("a"));
    QVERIFY(detail);
    const NodeRecord n = detail.value().node;
    QCOMPARE(n.slotData.value("feedback_positive").toInt(), 1);
    QCOMPARE(n.slotData.value("feedback_quality").toDouble(), 0.2);
    QCOMPARE(n.slotData.value("last_feedback_run_id").toString(), QStringLiteral("run-7"));
    QVERIFY(!n.lastActivated.isValid());
    QCOMPARE(n.commitId, r.json.value("commit_id").toString());
    QCOMPARE(server.commits().first().kind, QStringLiteral("nodes_activate"));
}

void tst_HttpLifecycle::activateNothingFoundOmitsOutcome()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Reply r = server.post(
        kActivate, withInput({{"node_ids", QJsonArray{"00000000-0000-4000-8000-0000000000cd"}}}));
    REQUIRE_OK(r);
    QVERIFY(r.json.value("commit_id").isNull());
    QVERIFY(r.json.value("commit_hash").isNull());
    const QJsonObject a = r.json.value("activated").toObject();
    QVERIFY(!a.contains("outcome"));
    QVERIFY(!a.contains("activate"));
    QCOMPARE(a.value("found_nodes").toInt(), 0);
    QCOMPARE(a.value("updated_nodes").toInt(), 0);
    QVERIFY(server.commits().isEmpty());
}

void tst_HttpLifecycle::activateValidation_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("path");
    const QJsonObject ok{{"client_ids", QJsonArray{"a"}}, {"input_text", "x"}};
    QJsonObject outcome = ok;
    outcome.insert("outcome", "great");
    QTest::newRow("bad outcome") << outcome << QStringLiteral("outcome");
    QJsonObject activate = ok;
    activate.insert("activate", "yes");
    QTest::newRow("activate not boolean") << activate << QStringLiteral("activate");
    QJsonObject noInput = ok;
    noInput.remove("input_text");
    QTest::newRow("missing input_text") << noInput << QStringLiteral("input_text");
    QJsonObject badUuid = ok;
    badUuid.insert("node_ids", QJsonArray{"123"});
    QTest::newRow("malformed uuid") << badUuid << QStringLiteral("node_ids[0]");
    QTest::newRow("no targets") << QJsonObject{{"input_text", "x"}} << QStringLiteral("node_ids");
}

void tst_HttpLifecycle::activateValidation()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, path);
    HttpTestServer server;
    REQUIRE_SERVER(server);
    seed(server, {tiered("a", "warm")});
    const int before = int(server.commits().size());
    const Reply r = server.post(kActivate, body);
    QVERIFY2(r.status == 400, r.describe());
    QCOMPARE(r.errorCode(), QStringLiteral("invalid_request"));
    QCOMPARE(r.issuePath(), path);
    QCOMPARE(int(server.commits().size()), before);
    QVERIFY(!server.nodes().first().slotData.contains("feedback_quality"));
}

void tst_HttpLifecycle::apiKeyTenantIsolation()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("MEMORY_AUTH_MODE"), QStringLiteral("api_key"));
    env.insert(QStringLiteral("MEMORY_API_KEYS_JSON"), kKeys);
    HttpTestServer server(env);
    REQUIRE_SERVER(server);
    const auto ids = seed(server, {tiered("a", "archive")}, {apiKey("k1")});
    QCOMPARE(ids.size(), 1);
    const QString id = ids.value("a");

    // Naming the other tenant with k2's key is forbidden.
    const Reply wrong
        = server.post(kRehydrate, withInput({{"tenant_id", "acme"}, {"node_ids", QJsonArray{id}}}),
                      {apiKey("k2")});
    QVERIFY2(wrong.status == 403, wrong.describe());
    QCOMPARE(wrong.errorCode(), QStringLiteral("forbidden"));
    // With k2's own tenant the acme node simply is not there.
    const Reply other
        = server.post(kRehydrate, withInput({{"node_ids", QJsonArray{id}}}), {apiKey("k2")});
    REQUIRE_OK(other);
    QCOMPARE(other.json.value("tenant_id").toString(), QStringLiteral("globex"));
    QCOMPARE(strings(other.json.value("rehydrated").toObject().value("missing_node_ids")),
             QStringList{id});
    QVERIFY(other.json.value("commit_id").isNull());
    const Reply otherActivate
        = server.post(kActivate, withInput({{"client_ids", QJsonArray{"a"}}}), {apiKey("k2")});
    QVERIFY2(otherActivate.status == 400, otherActivate.describe());
    QCOMPARE(otherActivate.errorCode(), QStringLiteral("nodes_activate_no_resolved_nodes"));
    // No key at all.
    const Reply anonymous = server.post(kActivate, withInput({{"node_ids", QJsonArray{id}}}));
    QVERIFY2(anonymous.status == 401, anonymous.describe());

    QCOMPARE(server.nodes("acme").first().tier, QStringLiteral("archive"));
    const Reply mine
        = server.post(kRehydrate, withInput({{"node_ids", QJsonArray{id}}}), {apiKey("k1")});
    REQUIRE_OK(mine);
    QCOMPARE(mine.json.value("tenant_id").toString(), QStringLiteral("acme"));
    QCOMPARE(mine.json.value("rehydrated").toObject().value("moved_nodes").toInt(), 1);
    QCOMPARE(server.commits("acme").first().actor, QStringLiteral("agent-a"));
    QCOMPARE(server.nodes("acme").first().tier, QStringLiteral("warm"));
}

QTEST_GUILESS_MAIN(tst_HttpLifecycle)
#include "tst_httplifecycle.moc"
