// POST /v1/memory/write over real HTTP (spec §4.2, §1.10, §5.4, §7; DESIGN decisions 1, 3, 4, 5).

#include "service/core/requestlog.h"
#include "tests/http/httptestserver.h"

#include <QCryptographicHash>
#include <QSet>
#include <QTest>
#include <QUuid>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

const QString kWritePath = QStringLiteral("/v1/memory/write");
const QString kDefault = QStringLiteral("default");

QString sha256Of(const QString &text)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QString uriOf(const QString &tenant, const QString &scope, const QString &kind, const QString &id)
{
    return QStringLiteral("memorygraph://%1/%2/%3/%4").arg(tenant, scope, kind, id);
}

QJsonArray embeddingOf(int size, double start = 0.25)
{
    QJsonArray v;
    for (int i = 0; i < size; ++i)
        v.append(start + double(i % 97) / 1000.0);
    return v;
}

QJsonArray array(std::initializer_list<QJsonValue> items)
{
    return QJsonArray(items);
}

QJsonObject with(QJsonObject object, const QString &key, const QJsonValue &value)
{
    object.insert(key, value);
    return object;
}

QJsonObject without(QJsonObject object, const QString &key)
{
    object.remove(key);
    return object;
}

QJsonObject nodeAt(const Reply &reply, int index)
{
    return reply.json.value(QStringLiteral("nodes")).toArray().at(index).toObject();
}

QJsonObject edgeAt(const Reply &reply, int index)
{
    return reply.json.value(QStringLiteral("edges")).toArray().at(index).toObject();
}

QString nodeIdAt(const Reply &reply, int index)
{
    return nodeAt(reply, index).value(QStringLiteral("id")).toString();
}

QString str(const Reply &reply, const char *key)
{
    return reply.json.value(QLatin1String(key)).toString();
}

QStringList writeResponseKeys()
{
    return keyList({"request_id", "tenant_id", "scope", "commit_id", "commit_uri", "commit_hash",
                    "nodes", "edges"});
}

QStringList errorKeysWithDetails()
{
    return keyList({"error", "message", "details", "request_id"});
}

} // namespace

class tst_HttpWrite : public QObject
{
    Q_OBJECT

private slots:
    // Happy paths and the response contract
    void singleNode();
    void nodesAndEdgesByClientId();
    void edgeToExistingNodeInLaterWrite();
    void responseIsWhitelisted();
    void inputSha256Only();
    void uriSegmentsArePercentEncoded();

    // Identity of nodes and commits
    void clientIdIsStable();
    void identicalResendReturnsSameCommit_data();
    void identicalResendReturnsSameCommit();
    void changedContentUpdatesNode();
    void changedTextIsReembedded();
    void commitsFormHashChain();
    void concurrentWritesKeepOneChain();

    // Lanes and ownership
    void defaultLanePrivateOwnedByLocalUser();
    void lanesAndOwnersFromRequest();
    void localAgentIdFromEnvironment();

    // Warnings and deployment rules
    void writeNoNodesWarning();
    void writeNodesRequired();
    void privateRuleNeedsOwner();

    // Validation and the error envelope
    void validationErrorsNameTheField_data();
    void validationErrorsNameTheField();
    void unparsableBodies_data();
    void unparsableBodies();
    void unknownRoute();
    void wrongMethod();
    void bodyOverLimit();

    // Request id and request log
    void requestIdEchoed();
    void requestIdGenerated();
    void requestLogEntries();

    // Isolation
    void tenantIsolation();
    void scopeIsolation();
};

#define REQUIRE_SERVER(server) QVERIFY2((server).isReady(), qPrintable((server).errorText()))

// ---------------------------------------------------------------------------------------------

void tst_HttpWrite::singleNode()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply r
        = server.write(writeBody({writeNode(QStringLiteral("n1"), QStringLiteral("event"),
                                            QStringLiteral("The deploy finished at 10:00"))}));
    QVERIFY2(r.status == 200, r.describe());
    QVERIFY(r.isJsonObject);
    QCOMPARE(r.header("content-type"), QByteArrayLiteral("application/json"));
    QCOMPARE(keysOf(r.json), writeResponseKeys());
    QCOMPARE(str(r, "tenant_id"), kDefault);
    QCOMPARE(str(r, "scope"), kDefault);

    const QString commitId = str(r, "commit_id");
    QVERIFY2(isLowerUuid(commitId), qPrintable(commitId));
    QCOMPARE(str(r, "commit_uri"), uriOf(kDefault, kDefault, QStringLiteral("commit"), commitId));
    QVERIFY2(isHex64(str(r, "commit_hash")), qPrintable(str(r, "commit_hash")));

    const QJsonArray nodes = r.json.value(QStringLiteral("nodes")).toArray();
    QCOMPARE(nodes.size(), 1);
    const QJsonObject n = nodes.at(0).toObject();
    QCOMPARE(keysOf(n), keyList({"id", "uri", "client_id", "type"}));
    const QString id = n.value(QStringLiteral("id")).toString();
    QVERIFY2(isLowerUuid(id), qPrintable(id));
    QCOMPARE(n.value(QStringLiteral("client_id")).toString(), QStringLiteral("n1"));
    QCOMPARE(n.value(QStringLiteral("type")).toString(), QStringLiteral("event"));
    QCOMPARE(n.value(QStringLiteral("uri")).toString(),
             uriOf(kDefault, kDefault, QStringLiteral("event"), id));
    QCOMPARE(r.json.value(QStringLiteral("edges")).toArray().size(), 0);

    // What the service stored.
    auto detail = server.service()->nodeDetail(kDefault, kDefault, id);
    QVERIFY2(detail.ok(), qPrintable(detail.ok() ? QString() : detail.error().message));
    const NodeRecord &stored = detail.value().node;
    QCOMPARE(stored.clientId, QStringLiteral("n1"));
    QCOMPARE(stored.type, QStringLiteral("event"));
    QCOMPARE(stored.textSummary, QStringLiteral("The deploy finished at 10:00"));
    QCOMPARE(stored.tier, QStringLiteral("hot"));
    QCOMPARE(stored.commitId, commitId);
    QCOMPARE(stored.salience, 0.5);
    QCOMPARE(stored.importance, 0.5);
    QCOMPARE(stored.confidence, 0.5);

    const auto commits = server.commits();
    QCOMPARE(commits.size(), 1);
    QCOMPARE(commits.at(0).id, commitId);
    QCOMPARE(commits.at(0).commitHash, str(r, "commit_hash"));
    QCOMPARE(commits.at(0).kind, QStringLiteral("write"));
    QCOMPARE(commits.at(0).inputSha256, sha256Of(QStringLiteral("test input")));
}

void tst_HttpWrite::nodesAndEdgesByClientId()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    QJsonObject edge = writeEdge(QStringLiteral("part_of"), byClientId(QStringLiteral("step")),
                                 byClientId(QStringLiteral("run")));
    edge.insert(QStringLiteral("weight"), 0.8);
    edge.insert(QStringLiteral("confidence"), 0.9);
    const Reply r = server.write(writeBody(
        {writeNode(QStringLiteral("run"), QStringLiteral("topic"), QStringLiteral("Release 4.2")),
         writeNode(QStringLiteral("step"), QStringLiteral("event"),
                   QStringLiteral("Tagged the build"))},
        {edge}));
    QVERIFY2(r.status == 200, r.describe());
    QCOMPARE(keysOf(r.json), writeResponseKeys());

    const QString runId = nodeIdAt(r, 0);
    const QString stepId = nodeIdAt(r, 1);
    QCOMPARE(nodeAt(r, 0).value(QStringLiteral("client_id")).toString(), QStringLiteral("run"));
    QCOMPARE(nodeAt(r, 1).value(QStringLiteral("client_id")).toString(), QStringLiteral("step"));
    QCOMPARE(nodeAt(r, 0).value(QStringLiteral("uri")).toString(),
             uriOf(kDefault, kDefault, QStringLiteral("topic"), runId));
    QVERIFY(runId != stepId);

    const QJsonArray edges = r.json.value(QStringLiteral("edges")).toArray();
    QCOMPARE(edges.size(), 1);
    const QJsonObject e = edges.at(0).toObject();
    QCOMPARE(keysOf(e), keyList({"id", "uri", "type", "src_id", "dst_id"}));
    const QString edgeId = e.value(QStringLiteral("id")).toString();
    QVERIFY2(isLowerUuid(edgeId), qPrintable(edgeId));
    QCOMPARE(e.value(QStringLiteral("type")).toString(), QStringLiteral("part_of"));
    QCOMPARE(e.value(QStringLiteral("src_id")).toString(), stepId);
    QCOMPARE(e.value(QStringLiteral("dst_id")).toString(), runId);
    QCOMPARE(e.value(QStringLiteral("uri")).toString(),
             uriOf(kDefault, kDefault, QStringLiteral("edge"), edgeId));

    auto detail = server.service()->nodeDetail(kDefault, kDefault, runId);
    QVERIFY(detail.ok());
    QCOMPARE(detail.value().edges.size(), 1);
    const EdgeRecord &stored = detail.value().edges.at(0);
    QCOMPARE(stored.id, edgeId);
    QCOMPARE(stored.fromId, stepId);
    QCOMPARE(stored.toId, runId);
    QCOMPARE(stored.type, QStringLiteral("part_of"));
    QCOMPARE(stored.weight, 0.8);
    QCOMPARE(stored.confidence, 0.9);
    QCOMPARE(stored.commitId, str(r, "commit_id"));
}

void tst_HttpWrite::edgeToExistingNodeInLaterWrite()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply first = server.write(writeBody({writeNode(
        QStringLiteral("doc"), QStringLiteral("entity"), QStringLiteral("Design doc"))}));
    QVERIFY2(first.status == 200, first.describe());
    const QString docId = nodeIdAt(first, 0);

    // By id.
    const Reply second
        = server.write(writeBody({writeNode(QStringLiteral("note"), QStringLiteral("evidence"),
                                            QStringLiteral("Quoted section 3"))},
                                 {writeEdge(QStringLiteral("derived_from"),
                                            byClientId(QStringLiteral("note")), byId(docId))},
                                 QStringLiteral("second input")));
    QVERIFY2(second.status == 200, second.describe());
    const QString noteId = nodeIdAt(second, 0);
    QCOMPARE(second.json.value(QStringLiteral("nodes")).toArray().size(), 1);
    QCOMPARE(edgeAt(second, 0).value(QStringLiteral("src_id")).toString(), noteId);
    QCOMPARE(edgeAt(second, 0).value(QStringLiteral("dst_id")).toString(), docId);
    QCOMPARE(edgeAt(second, 0).value(QStringLiteral("type")).toString(),
             QStringLiteral("derived_from"));

    // By client_id of a node stored by an earlier write.
    const Reply third = server.write(writeBody(
        {writeNode(QStringLiteral("topic"), QStringLiteral("topic"), QStringLiteral("Docs"))},
        {writeEdge(QStringLiteral("related_to"), byClientId(QStringLiteral("doc")),
                   byClientId(QStringLiteral("topic")))},
        QStringLiteral("third input")));
    QVERIFY2(third.status == 200, third.describe());
    QCOMPARE(edgeAt(third, 0).value(QStringLiteral("src_id")).toString(), docId);
    QCOMPARE(edgeAt(third, 0).value(QStringLiteral("dst_id")).toString(), nodeIdAt(third, 0));

    auto detail = server.service()->nodeDetail(kDefault, kDefault, docId);
    QVERIFY(detail.ok());
    QCOMPARE(detail.value().edges.size(), 2);
    QCOMPARE(server.commits().size(), 3);
    // The earlier node was only referenced, not rewritten.
    QCOMPARE(detail.value().node.commitId, str(first, "commit_id"));
}

void tst_HttpWrite::responseIsWhitelisted()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    QJsonObject rich = writeNode(QStringLiteral("rich"), QStringLiteral("entity"),
                                 QStringLiteral("Payments service"));
    rich.insert(QStringLiteral("title"), QStringLiteral("payments"));
    rich.insert(QStringLiteral("tier"), QStringLiteral("warm"));
    rich.insert(QStringLiteral("memory_lane"), QStringLiteral("shared"));
    rich.insert(QStringLiteral("slots"),
                QJsonObject{{QStringLiteral("owner"), QStringLiteral("team-pay")}});
    rich.insert(QStringLiteral("raw_ref"), QStringLiteral("s3://bucket/raw/1"));
    rich.insert(QStringLiteral("evidence_ref"), QStringLiteral("ticket-77"));
    rich.insert(QStringLiteral("embedding"), embeddingOf(1536));
    rich.insert(QStringLiteral("embedding_model"), QStringLiteral("test-embedder"));
    rich.insert(QStringLiteral("salience"), 0.9);
    rich.insert(QStringLiteral("importance"), 0.8);
    rich.insert(QStringLiteral("confidence"), 0.7);
    QJsonObject other
        = writeNode(QStringLiteral("other"), QStringLiteral("concept"), QStringLiteral("Billing"));
    other.insert(QStringLiteral("embedding"), embeddingOf(1536, 0.5));
    QJsonObject edge = writeEdge(QStringLiteral("related_to"), byClientId(QStringLiteral("rich")),
                                 byClientId(QStringLiteral("other")));
    edge.insert(QStringLiteral("weight"), 0.6);
    QJsonObject body = writeBody({rich, other}, {edge});
    body.insert(QStringLiteral("auto_embed"), true);
    body.insert(QStringLiteral("actor"), QStringLiteral("importer"));

    const Reply r = server.write(body);
    QVERIFY2(r.status == 200, r.describe());

    // spec §1.10 A/B: exactly the listed fields, never an embedding.
    QCOMPARE(keysOf(r.json), writeResponseKeys());
    const QJsonArray nodes = r.json.value(QStringLiteral("nodes")).toArray();
    QCOMPARE(nodes.size(), 2);
    for (const QJsonValue &n : nodes)
        QCOMPARE(keysOf(n.toObject()), keyList({"id", "uri", "client_id", "type"}));
    const QJsonArray edges = r.json.value(QStringLiteral("edges")).toArray();
    QCOMPARE(edges.size(), 1);
    QCOMPARE(keysOf(edges.at(0).toObject()), keyList({"id", "uri", "type", "src_id", "dst_id"}));
    QVERIFY(!containsKeyDeep(r.json, QStringLiteral("embedding")));
    QVERIFY(!r.body.contains("embedding"));
    QVERIFY(!r.body.contains("0.271")); // one of the vector's values

    // The vector is stored, not echoed.
    auto detail = server.service()->nodeDetail(kDefault, kDefault, nodeIdAt(r, 0));
    QVERIFY(detail.ok());
    const NodeRecord &n = detail.value().node;
    QCOMPARE(n.embeddingStatus, QStringLiteral("ready"));
    QCOMPARE(n.embeddingModel, QStringLiteral("test-embedder"));
    QCOMPARE(n.tier, QStringLiteral("warm"));
    QCOMPARE(n.memoryLane, QStringLiteral("shared"));
    QCOMPARE(n.title, QStringLiteral("payments"));
    QCOMPARE(n.slotData, (QJsonObject{{QStringLiteral("owner"), QStringLiteral("team-pay")}}));
    QCOMPARE(n.rawRef, QStringLiteral("s3://bucket/raw/1"));
    QCOMPARE(n.evidenceRef, QStringLiteral("ticket-77"));
    QCOMPARE(n.salience, 0.9);
    QCOMPARE(n.importance, 0.8);
    QCOMPARE(n.confidence, 0.7);
    QCOMPARE(server.commits().at(0).actor, QStringLiteral("importer"));

    auto otherDetail = server.service()->nodeDetail(kDefault, kDefault, nodeIdAt(r, 1));
    QVERIFY(otherDetail.ok());
    QCOMPARE(otherDetail.value().node.embeddingModel, QStringLiteral("client"));
}

void tst_HttpWrite::inputSha256Only()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const QString digest = sha256Of(QStringLiteral("raw transcript kept elsewhere"));
    QJsonObject body = without(writeBody({writeNode(QStringLiteral("a"), QStringLiteral("event"),
                                                    QStringLiteral("alpha"))}),
                               QStringLiteral("input_text"));
    body.insert(QStringLiteral("input_sha256"), digest.toUpper());
    const Reply r = server.write(body);
    QVERIFY2(r.status == 200, r.describe());
    const auto commits = server.commits();
    QCOMPARE(commits.size(), 1);
    QCOMPARE(commits.at(0).inputSha256, digest);
}

void tst_HttpWrite::uriSegmentsArePercentEncoded()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const QString scope = QStringLiteral("proj/alpha beta");
    QJsonObject body
        = writeBody({writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("x"))});
    body.insert(QStringLiteral("scope"), scope);
    const Reply r = server.write(body);
    QVERIFY2(r.status == 200, r.describe());
    QCOMPARE(str(r, "scope"), scope);
    QCOMPARE(str(r, "commit_uri"),
             QStringLiteral("memorygraph://default/proj%2Falpha%20beta/commit/")
                 + str(r, "commit_id"));
    QCOMPARE(nodeAt(r, 0).value(QStringLiteral("uri")).toString(),
             QStringLiteral("memorygraph://default/proj%2Falpha%20beta/event/") + nodeIdAt(r, 0));
}

// ---------------------------------------------------------------------------------------------

void tst_HttpWrite::clientIdIsStable()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply first = server.write(writeBody({writeNode(
        QStringLiteral("person:ada"), QStringLiteral("entity"), QStringLiteral("Ada"))}));
    QVERIFY2(first.status == 200, first.describe());
    const Reply second = server.write(writeBody(
        {writeNode(QStringLiteral("other"), QStringLiteral("event"), QStringLiteral("Met Ada")),
         writeNode(QStringLiteral("person:ada"), QStringLiteral("entity"),
                   QStringLiteral("Ada Lovelace"))},
        {}, QStringLiteral("another input")));
    QVERIFY2(second.status == 200, second.describe());

    QCOMPARE(nodeIdAt(second, 1), nodeIdAt(first, 0));
    QVERIFY(nodeIdAt(second, 0) != nodeIdAt(first, 0));
    QCOMPARE(server.nodes().size(), 2);
}

void tst_HttpWrite::identicalResendReturnsSameCommit_data()
{
    QTest::addColumn<QString>("provider");
    QTest::addColumn<bool>("clientEmbeddings");

    QTest::newRow("DESIGN 4 identical re-send, no embedding provider")
        << QStringLiteral("none") << false;
    QTest::newRow("DESIGN 4 identical re-send, client-supplied embeddings")
        << QStringLiteral("local") << true;
    QTest::newRow("DESIGN 4 identical re-send after the embedding backfill finished")
        << QStringLiteral("local") << false;
}

void tst_HttpWrite::identicalResendReturnsSameCommit()
{
    QFETCH(QString, provider);
    QFETCH(bool, clientEmbeddings);

    HttpTestServer server(environment({{"EMBEDDING_PROVIDER", provider}}));
    REQUIRE_SERVER(server);

    QJsonObject a = writeNode(QStringLiteral("a"), QStringLiteral("event"),
                              QStringLiteral("Deployment of the billing service finished"));
    QJsonObject b = writeNode(QStringLiteral("b"), QStringLiteral("entity"),
                              QStringLiteral("Billing service owned by the payments team"));
    if (clientEmbeddings) {
        a.insert(QStringLiteral("embedding"), embeddingOf(1536, 0.1));
        b.insert(QStringLiteral("embedding"), embeddingOf(1536, 0.2));
    }
    const QJsonObject body = writeBody(
        {a, b}, {writeEdge(QStringLiteral("related_to"), byClientId(QStringLiteral("a")),
                           byClientId(QStringLiteral("b")))});
    const Reply first = server.write(body);
    QVERIFY2(first.status == 200, first.describe());

    // Let background embedding settle so the re-send meets the stored state, as a client retrying
    // a few seconds later would.
    QVERIFY(server.service()->waitForEmbeddings(20000));
    const QString expectedStatus
        = provider == QLatin1String("none") ? QStringLiteral("failed") : QStringLiteral("ready");
    for (int i = 0; i < 2; ++i) {
        auto detail = server.service()->nodeDetail(kDefault, kDefault, nodeIdAt(first, i));
        QVERIFY(detail.ok());
        QCOMPARE(detail.value().node.embeddingStatus, expectedStatus);
    }

    const Reply again = server.write(body);
    QVERIFY2(again.status == 200, again.describe());

    QCOMPARE(str(again, "commit_id"), str(first, "commit_id"));
    QCOMPARE(str(again, "commit_hash"), str(first, "commit_hash"));
    QCOMPARE(str(again, "commit_uri"), str(first, "commit_uri"));
    QCOMPARE(again.json.value(QStringLiteral("nodes")), first.json.value(QStringLiteral("nodes")));
    QCOMPARE(again.json.value(QStringLiteral("edges")), first.json.value(QStringLiteral("edges")));
    QVERIFY(str(again, "request_id") != str(first, "request_id"));
    QCOMPARE(server.commits().size(), 1);
    QCOMPARE(server.service()->health().commits, qint64(1));
    QCOMPARE(server.service()->health().nodes, qint64(2));
    QCOMPARE(server.service()->health().edges, qint64(1));
}

void tst_HttpWrite::changedContentUpdatesNode()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply first = server.write(writeBody({writeNode(
        QStringLiteral("status"), QStringLiteral("event"), QStringLiteral("Build is red"))}));
    QVERIFY2(first.status == 200, first.describe());
    const Reply second = server.write(writeBody({writeNode(
        QStringLiteral("status"), QStringLiteral("event"), QStringLiteral("Build is green"))}));
    QVERIFY2(second.status == 200, second.describe());

    QCOMPARE(nodeIdAt(second, 0), nodeIdAt(first, 0));
    QVERIFY(str(second, "commit_id") != str(first, "commit_id"));
    QVERIFY(str(second, "commit_hash") != str(first, "commit_hash"));
    QCOMPARE(server.commits().size(), 2);

    auto detail = server.service()->nodeDetail(kDefault, kDefault, nodeIdAt(first, 0));
    QVERIFY(detail.ok());
    QCOMPARE(detail.value().node.textSummary, QStringLiteral("Build is green"));
    QCOMPARE(detail.value().node.commitId, str(second, "commit_id"));
    QCOMPARE(server.nodes().size(), 1);
}

void tst_HttpWrite::changedTextIsReembedded()
{
    HttpTestServer server; // default provider: the offline local embedder
    REQUIRE_SERVER(server);
    const auto stored = [&server](const QString &id) {
        auto detail = server.service()->nodeDetail(kDefault, kDefault, id);
        return detail ? detail.value().node : NodeRecord();
    };

    QJsonObject node = writeNode(QStringLiteral("status"), QStringLiteral("event"),
                                 QStringLiteral("Nightly build failed on the linux runner"));
    const Reply first = server.write(writeBody({node}));
    QVERIFY2(first.status == 200, first.describe());
    const QString id = nodeIdAt(first, 0);
    QVERIFY(server.service()->waitForEmbeddings(20000));
    const NodeRecord embedded = stored(id);
    QCOMPARE(embedded.embeddingStatus, QStringLiteral("ready"));
    QVERIFY(embedded.embeddingVersion > 0);

    // DESIGN decision 4: a text change re-embeds the node.
    node.insert(QStringLiteral("text_summary"),
                QStringLiteral("Nightly build recovered after the compiler upgrade"));
    const Reply changed = server.write(writeBody({node}, {}, QStringLiteral("second input")));
    QVERIFY2(changed.status == 200, changed.describe());
    QVERIFY(server.service()->waitForEmbeddings(20000));
    const NodeRecord reembedded = stored(id);
    QCOMPARE(reembedded.embeddingStatus, QStringLiteral("ready"));
    QVERIFY2(reembedded.embeddingVersion > embedded.embeddingVersion,
             qPrintable(QStringLiteral("%1 -> %2")
                            .arg(embedded.embeddingVersion)
                            .arg(reembedded.embeddingVersion)));

    // A change that leaves the text alone keeps the vector.
    node.insert(QStringLiteral("salience"), 0.95);
    const Reply salience = server.write(writeBody({node}, {}, QStringLiteral("third input")));
    QVERIFY2(salience.status == 200, salience.describe());
    QVERIFY(str(salience, "commit_id") != str(changed, "commit_id"));
    QVERIFY(server.service()->waitForEmbeddings(20000));
    const NodeRecord kept = stored(id);
    QCOMPARE(kept.salience, 0.95);
    QCOMPARE(kept.embeddingStatus, QStringLiteral("ready"));
    QCOMPARE(kept.embeddingVersion, reembedded.embeddingVersion);
    QCOMPARE(server.commits().size(), 3);
}

void tst_HttpWrite::commitsFormHashChain()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply first = server.write(
        writeBody({writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("one"))},
                  {}, QStringLiteral("first")));
    QVERIFY2(first.status == 200, first.describe());
    const Reply second = server.write(
        writeBody({writeNode(QStringLiteral("b"), QStringLiteral("event"), QStringLiteral("two"))},
                  {}, QStringLiteral("second")));
    QVERIFY2(second.status == 200, second.describe());

    const auto commits = server.commits(); // newest first
    QCOMPARE(commits.size(), 2);
    const CommitRecord &older = commits.at(1);
    const CommitRecord &newer = commits.at(0);
    QCOMPARE(older.id, str(first, "commit_id"));
    QCOMPARE(older.commitHash, str(first, "commit_hash"));
    QCOMPARE(older.sequence, qint64(1));
    QVERIFY(older.parentHash.isEmpty());
    QVERIFY(older.parentId.isEmpty());
    QCOMPARE(newer.id, str(second, "commit_id"));
    QCOMPARE(newer.commitHash, str(second, "commit_hash"));
    QCOMPARE(newer.sequence, qint64(2));
    QCOMPARE(newer.parentHash, older.commitHash);
    QCOMPARE(newer.parentId, older.id);
    QCOMPARE(newer.inputSha256, sha256Of(QStringLiteral("second")));
}

void tst_HttpWrite::concurrentWritesKeepOneChain()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    constexpr int kWrites = 12;
    QList<QByteArray> bodies;
    for (int i = 0; i < kWrites; ++i)
        bodies.append(compactJson(
            writeBody({writeNode(QStringLiteral("item-%1").arg(i), QStringLiteral("event"),
                                 QStringLiteral("Concurrent observation number %1").arg(i))},
                      {}, QStringLiteral("input %1").arg(i))));
    const QVector<Reply> replies = server.postConcurrently(kWritePath, bodies);
    QCOMPARE(replies.size(), kWrites);
    QSet<QString> commitIds;
    for (const Reply &r : replies) {
        QVERIFY2(r.status == 200, r.describe());
        commitIds.insert(str(r, "commit_id"));
    }
    QCOMPARE(commitIds.size(), kWrites);

    // One linear chain: sequences 1..n, each commit's parent is the one before it.
    const auto commits = server.commits(); // newest first
    QCOMPARE(commits.size(), kWrites);
    for (int i = 0; i < kWrites; ++i) {
        const CommitRecord &c = commits.at(kWrites - 1 - i);
        QCOMPARE(c.sequence, qint64(i + 1));
        QVERIFY(commitIds.contains(c.id));
        if (i == 0) {
            QVERIFY(c.parentHash.isEmpty());
        } else {
            QCOMPARE(c.parentHash, commits.at(kWrites - i).commitHash);
            QCOMPARE(c.parentId, commits.at(kWrites - i).id);
        }
    }
    QCOMPARE(server.nodes().size(), kWrites);
}

// ---------------------------------------------------------------------------------------------

void tst_HttpWrite::defaultLanePrivateOwnedByLocalUser()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply r = server.write(
        writeBody({writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha")),
                   writeNode(QStringLiteral("rule"), QStringLiteral("rule"),
                             QStringLiteral("Prefer JSON output"))}));
    QVERIFY2(r.status == 200, r.describe());
    for (int i = 0; i < 2; ++i) {
        auto detail = server.service()->nodeDetail(kDefault, kDefault, nodeIdAt(r, i));
        QVERIFY(detail.ok());
        const NodeRecord &n = detail.value().node;
        QCOMPARE(n.memoryLane, QStringLiteral("private"));
        QCOMPARE(n.producerAgentId, QStringLiteral("local-user"));
        QCOMPARE(n.ownerAgentId, QStringLiteral("local-user"));
        QCOMPARE(n.ownerTeamId, QString());
    }
    QCOMPARE(server.commits().at(0).actor, QStringLiteral("local-user"));
}

void tst_HttpWrite::lanesAndOwnersFromRequest()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    QJsonObject privateNode = writeNode(QStringLiteral("p"), QStringLiteral("event"),
                                        QStringLiteral("Personal reminder about invoices"));
    privateNode.insert(QStringLiteral("memory_lane"), QStringLiteral("private"));
    privateNode.insert(QStringLiteral("owner_agent_id"), QStringLiteral("agent-n"));
    QJsonObject body = writeBody({writeNode(QStringLiteral("s"), QStringLiteral("event"),
                                            QStringLiteral("Shared release checklist")),
                                  privateNode});
    body.insert(QStringLiteral("memory_lane"), QStringLiteral("shared"));
    body.insert(QStringLiteral("producer_agent_id"), QStringLiteral("agent-top"));
    body.insert(QStringLiteral("owner_team_id"), QStringLiteral("team-q"));
    const Reply r = server.write(body);
    QVERIFY2(r.status == 200, r.describe());

    auto shared = server.service()->nodeDetail(kDefault, kDefault, nodeIdAt(r, 0));
    QVERIFY(shared.ok());
    QCOMPARE(shared.value().node.memoryLane, QStringLiteral("shared"));
    QCOMPARE(shared.value().node.producerAgentId, QStringLiteral("agent-top"));
    QCOMPARE(shared.value().node.ownerTeamId, QStringLiteral("team-q"));

    auto own = server.service()->nodeDetail(kDefault, kDefault, nodeIdAt(r, 1));
    QVERIFY(own.ok());
    QCOMPARE(own.value().node.memoryLane, QStringLiteral("private"));
    QCOMPARE(own.value().node.producerAgentId, QStringLiteral("agent-top"));
    QCOMPARE(own.value().node.ownerAgentId, QStringLiteral("agent-n"));
    QCOMPARE(own.value().node.ownerTeamId, QStringLiteral("team-q"));
}

void tst_HttpWrite::localAgentIdFromEnvironment()
{
    HttpTestServer server(environment({{"MEMORY_LOCAL_AGENT_ID", QStringLiteral("desk-7")}}));
    REQUIRE_SERVER(server);

    const Reply r = server.write(writeBody(
        {writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha"))}));
    QVERIFY2(r.status == 200, r.describe());
    auto detail = server.service()->nodeDetail(kDefault, kDefault, nodeIdAt(r, 0));
    QVERIFY(detail.ok());
    QCOMPARE(detail.value().node.producerAgentId, QStringLiteral("desk-7"));
    QCOMPARE(detail.value().node.ownerAgentId, QStringLiteral("desk-7"));
}

// ---------------------------------------------------------------------------------------------

void tst_HttpWrite::writeNoNodesWarning()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const QJsonObject bodies[] = {
        QJsonObject{{QStringLiteral("input_text"), QStringLiteral("only a transcript")}},
        QJsonObject{{QStringLiteral("input_text"), QStringLiteral("empty node list")},
                    {QStringLiteral("nodes"), QJsonArray()}},
    };
    int expectedCommits = 0;
    for (const QJsonObject &body : bodies) {
        const Reply r = server.write(body);
        QVERIFY2(r.status == 200, r.describe());
        QStringList expected = writeResponseKeys();
        expected.append(QStringLiteral("warnings"));
        expected.sort();
        QCOMPARE(keysOf(r.json), expected);
        QCOMPARE(r.json.value(QStringLiteral("nodes")).toArray().size(), 0);
        QCOMPARE(r.json.value(QStringLiteral("edges")).toArray().size(), 0);
        const QJsonArray warnings = r.json.value(QStringLiteral("warnings")).toArray();
        QCOMPARE(warnings.size(), 1);
        const QJsonObject w = warnings.at(0).toObject();
        QCOMPARE(keysOf(w), keyList({"code", "message", "details"}));
        QCOMPARE(w.value(QStringLiteral("code")).toString(), QStringLiteral("write_no_nodes"));
        QVERIFY(!w.value(QStringLiteral("message")).toString().isEmpty());
        const QJsonObject details = w.value(QStringLiteral("details")).toObject();
        QCOMPARE(details.value(QStringLiteral("tenant_id")).toString(), kDefault);
        QCOMPARE(details.value(QStringLiteral("scope")).toString(), kDefault);
        QCOMPARE(details.value(QStringLiteral("edge_count")).toInt(-1), 0);
        // spec §4.2 rule 1: no recallable node, the input is still audited as a commit.
        ++expectedCommits;
        QCOMPARE(server.commits().size(), expectedCommits);
        QCOMPARE(server.nodes().size(), 0);
    }

    // A write with nodes carries no warnings key at all.
    const Reply withNodes = server.write(writeBody(
        {writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha"))}));
    QVERIFY2(withNodes.status == 200, withNodes.describe());
    QVERIFY(!withNodes.json.contains(QStringLiteral("warnings")));
}

void tst_HttpWrite::writeNodesRequired()
{
    HttpTestServer server(environment({{"MEMORY_WRITE_REQUIRE_NODES", QStringLiteral("true")}}));
    REQUIRE_SERVER(server);

    const QJsonObject bodies[] = {
        QJsonObject{{QStringLiteral("input_text"), QStringLiteral("only a transcript")}},
        QJsonObject{{QStringLiteral("input_text"), QStringLiteral("empty node list")},
                    {QStringLiteral("nodes"), QJsonArray()}},
    };
    for (const QJsonObject &body : bodies) {
        const Reply r = server.write(body);
        QVERIFY2(r.status == 400, r.describe());
        QCOMPARE(r.errorCode(), QStringLiteral("write_nodes_required"));
        QCOMPARE(keysOf(r.json), errorKeysWithDetails());
        const QJsonObject details = r.json.value(QStringLiteral("details")).toObject();
        QCOMPARE(details.value(QStringLiteral("tenant_id")).toString(), kDefault);
        QCOMPARE(details.value(QStringLiteral("scope")).toString(), kDefault);
        QCOMPARE(details.value(QStringLiteral("node_count")).toInt(-1), 0);
        QCOMPARE(details.value(QStringLiteral("edge_count")).toInt(-1), 0);
    }
    QCOMPARE(server.service()->health().commits, qint64(0));

    const Reply ok = server.write(writeBody(
        {writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha"))}));
    QVERIFY2(ok.status == 200, ok.describe());
    QCOMPARE(server.commits().size(), 1);
}

void tst_HttpWrite::privateRuleNeedsOwner()
{
    // A key bound to a tenant only: nothing fills an owner for the rule.
    HttpTestServer server(
        environment({{"MEMORY_AUTH_MODE", QStringLiteral("api_key")},
                     {"MEMORY_API_KEYS_JSON", QStringLiteral(R"({"k0":{"tenant_id":"acme"}})")}}));
    REQUIRE_SERVER(server);
    const HttpHeaders key{{QByteArrayLiteral("X-Api-Key"), QByteArrayLiteral("k0")}};
    const QString acme = QStringLiteral("acme");

    const QJsonObject rule = writeNode(QStringLiteral("r1"), QStringLiteral("rule"),
                                       QStringLiteral("Always cite sources"));
    const Reply r = server.write(writeBody({writeNode(QStringLiteral("e1"), QStringLiteral("event"),
                                                      QStringLiteral("fine on its own")),
                                            rule}),
                                 key);
    QVERIFY2(r.status == 400, r.describe());
    QCOMPARE(r.errorCode(), QStringLiteral("invalid_private_rule_owner"));
    QCOMPARE(keysOf(r.json), errorKeysWithDetails());
    const QJsonObject details = r.json.value(QStringLiteral("details")).toObject();
    QCOMPARE(details.value(QStringLiteral("path")).toString(), QStringLiteral("nodes[1]"));
    QCOMPARE(details.value(QStringLiteral("type")).toString(), QStringLiteral("rule"));
    QCOMPARE(details.value(QStringLiteral("memory_lane")).toString(), QStringLiteral("private"));
    QCOMPARE(details.value(QStringLiteral("client_id")).toString(), QStringLiteral("r1"));
    // Nothing of the batch was written.
    QCOMPARE(server.commits(acme).size(), 0);
    QCOMPARE(server.nodes(acme).size(), 0);
    QCOMPARE(server.service()->health().commits, qint64(0));

    // An explicit private lane is rejected the same way.
    const Reply explicitPrivate = server.write(
        writeBody({with(rule, QStringLiteral("memory_lane"), QStringLiteral("private"))}), key);
    QVERIFY2(explicitPrivate.status == 400, explicitPrivate.describe());
    QCOMPARE(explicitPrivate.errorCode(), QStringLiteral("invalid_private_rule_owner"));

    // A shared rule needs no owner.
    const Reply shared = server.write(
        writeBody({with(rule, QStringLiteral("memory_lane"), QStringLiteral("shared"))}), key);
    QVERIFY2(shared.status == 200, shared.describe());
    QCOMPARE(server.commits(acme).size(), 1);
}

// ---------------------------------------------------------------------------------------------

void tst_HttpWrite::validationErrorsNameTheField_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QByteArray>("tenantHeader");
    QTest::addColumn<QString>("path");

    const QJsonObject a
        = writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha"));
    const QJsonObject b
        = writeNode(QStringLiteral("b"), QStringLiteral("entity"), QStringLiteral("beta"));
    const QJsonObject valid = writeBody({a, b});
    const auto withNode = [&valid](const QJsonObject &node) {
        return with(valid, QStringLiteral("nodes"), array({node}));
    };
    const auto withEdge = [&valid](const QJsonObject &edge) {
        return with(valid, QStringLiteral("edges"), array({edge}));
    };
    const QJsonObject abEdge = writeEdge(QStringLiteral("part_of"), byClientId(QStringLiteral("a")),
                                         byClientId(QStringLiteral("b")));
    QJsonArray badVector = embeddingOf(1536);
    badVector.replace(5, QStringLiteral("0.1"));

    QTest::newRow("§4.2 input_text or input_sha256 required")
        << without(valid, QStringLiteral("input_text")) << QByteArray()
        << QStringLiteral("input_text");
    QTest::newRow("§4.2 input_sha256 must be 64 hex digits")
        << with(without(valid, QStringLiteral("input_text")), QStringLiteral("input_sha256"),
                QString(64, QLatin1Char('g')))
        << QByteArray() << QStringLiteral("input_sha256");
    QTest::newRow("§4.2 input_text must be a string")
        << with(valid, QStringLiteral("input_text"), 42) << QByteArray()
        << QStringLiteral("input_text");
    QTest::newRow("§4.2 nodes must be an array")
        << with(valid, QStringLiteral("nodes"), QJsonObject{}) << QByteArray()
        << QStringLiteral("nodes");
    QTest::newRow("§4.2 edges must be an array")
        << with(valid, QStringLiteral("edges"), QStringLiteral("a->b")) << QByteArray()
        << QStringLiteral("edges");
    QTest::newRow("§4.2 a node must be an object")
        << with(valid, QStringLiteral("nodes"), array({QStringLiteral("a")})) << QByteArray()
        << QStringLiteral("nodes[0]");
    QTest::newRow("§2.1 node type required") << withNode(without(a, QStringLiteral("type")))
                                             << QByteArray() << QStringLiteral("nodes[0].type");
    QTest::newRow("§2.1 node type outside the enum")
        << withNode(with(a, QStringLiteral("type"), QStringLiteral("memo"))) << QByteArray()
        << QStringLiteral("nodes[0].type");
    QTest::newRow("§3.1 node memory_lane outside the enum")
        << withNode(with(a, QStringLiteral("memory_lane"), QStringLiteral("public")))
        << QByteArray() << QStringLiteral("nodes[0].memory_lane");
    QTest::newRow("§3.1 request memory_lane outside the enum")
        << with(valid, QStringLiteral("memory_lane"), QStringLiteral("public")) << QByteArray()
        << QStringLiteral("memory_lane");
    QTest::newRow("§3.1 node tier outside the enum")
        << withNode(with(a, QStringLiteral("tier"), QStringLiteral("lukewarm"))) << QByteArray()
        << QStringLiteral("nodes[0].tier");
    QTest::newRow("§2.1 salience 2 is out of range")
        << withNode(with(a, QStringLiteral("salience"), 2)) << QByteArray()
        << QStringLiteral("nodes[0].salience");
    QTest::newRow("§2.1 confidence must be a number")
        << withNode(with(a, QStringLiteral("confidence"), QStringLiteral("high"))) << QByteArray()
        << QStringLiteral("nodes[0].confidence");
    QTest::newRow("§2.1 slots must be an object")
        << withNode(with(a, QStringLiteral("slots"), QJsonArray{})) << QByteArray()
        << QStringLiteral("nodes[0].slots");
    QTest::newRow("§2.1 text_summary must be a string")
        << withNode(with(a, QStringLiteral("text_summary"), 7)) << QByteArray()
        << QStringLiteral("nodes[0].text_summary");
    QTest::newRow("§2.1 node id must be a UUID")
        << withNode(with(a, QStringLiteral("id"), QStringLiteral("node-1"))) << QByteArray()
        << QStringLiteral("nodes[0].id");
    QTest::newRow("§8 embedding wrong length")
        << withNode(with(a, QStringLiteral("embedding"), embeddingOf(3))) << QByteArray()
        << QStringLiteral("nodes[0].embedding");
    QTest::newRow("§8 embedding with a string")
        << withNode(with(a, QStringLiteral("embedding"), badVector)) << QByteArray()
        << QStringLiteral("nodes[0].embedding[5]");
    QTest::newRow("§4.2 auto_embed must be a boolean")
        << with(valid, QStringLiteral("auto_embed"), QStringLiteral("yes")) << QByteArray()
        << QStringLiteral("auto_embed");
    QTest::newRow("§4.2 client_id twice in one write")
        << with(valid, QStringLiteral("nodes"),
                array({a, with(b, QStringLiteral("client_id"), QStringLiteral("a"))}))
        << QByteArray() << QStringLiteral("nodes[1].client_id");
    QTest::newRow("§5.4 node scope differing from the request scope")
        << with(valid, QStringLiteral("nodes"),
                array({a, with(b, QStringLiteral("scope"), QStringLiteral("elsewhere"))}))
        << QByteArray() << QStringLiteral("nodes[1].scope");
    QTest::newRow("§2.2 edge type outside the enum")
        << withEdge(with(abEdge, QStringLiteral("type"), QStringLiteral("likes"))) << QByteArray()
        << QStringLiteral("edges[0].type");
    QTest::newRow("§2.2 edge missing src") << withEdge(without(abEdge, QStringLiteral("src")))
                                           << QByteArray() << QStringLiteral("edges[0].src");
    QTest::newRow("§2.2 edge endpoint without id or client_id")
        << withEdge(with(abEdge, QStringLiteral("dst"), QJsonObject{})) << QByteArray()
        << QStringLiteral("edges[0].dst");
    QTest::newRow("§2.2 edge with unknown client_id")
        << withEdge(with(abEdge, QStringLiteral("dst"), byClientId(QStringLiteral("ghost"))))
        << QByteArray() << QStringLiteral("edges[0].dst.client_id");
    QTest::newRow("§2.2 edge with unknown id")
        << withEdge(with(abEdge, QStringLiteral("src"),
                         byId(QStringLiteral("0b5c4bde-4f5e-4d8e-9d0a-2f6f6f1f0c11"))))
        << QByteArray() << QStringLiteral("edges[0].src.id");
    QTest::newRow("§2.2 edge weight out of range")
        << withEdge(with(abEdge, QStringLiteral("weight"), 1.5)) << QByteArray()
        << QStringLiteral("edges[0].weight");
    QTest::newRow("§2.2 edge from a node to itself")
        << withEdge(with(abEdge, QStringLiteral("dst"), byClientId(QStringLiteral("a"))))
        << QByteArray() << QStringLiteral("edges[0]");
    QTest::newRow("§5.4 tenant_id with invalid characters")
        << with(valid, QStringLiteral("tenant_id"), QStringLiteral("acme corp!")) << QByteArray()
        << QStringLiteral("tenant_id");
    QTest::newRow("§4.0 X-Tenant-Id with invalid characters")
        << valid << QByteArrayLiteral("acme/corp") << QStringLiteral("X-Tenant-Id");
    QTest::newRow("§5.4 scope starting with tenant:")
        << with(valid, QStringLiteral("scope"), QStringLiteral("tenant:acme")) << QByteArray()
        << QStringLiteral("scope");
}

void tst_HttpWrite::validationErrorsNameTheField()
{
    QFETCH(QJsonObject, body);
    QFETCH(QByteArray, tenantHeader);
    QFETCH(QString, path);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    HttpHeaders headers;
    if (!tenantHeader.isEmpty())
        headers.append({QByteArrayLiteral("X-Tenant-Id"), tenantHeader});

    const Reply r = server.write(body, headers);
    QVERIFY2(r.status == 400, r.describe());
    QCOMPARE(r.errorCode(), QStringLiteral("invalid_request"));
    QCOMPARE(keysOf(r.json), errorKeysWithDetails());
    QVERIFY(!str(r, "message").isEmpty());
    QCOMPARE(str(r, "request_id"), QString::fromLatin1(r.header("x-request-id")));
    const QJsonArray issues = r.json.value(QStringLiteral("details"))
                                  .toObject()
                                  .value(QStringLiteral("issues"))
                                  .toArray();
    QVERIFY2(!issues.isEmpty(), r.describe());
    QCOMPARE(keysOf(issues.at(0).toObject()), keyList({"path", "message"}));
    QCOMPARE(r.issuePath(), path);
    QVERIFY(!issues.at(0).toObject().value(QStringLiteral("message")).toString().isEmpty());

    const HealthInfo health = server.service()->health();
    QCOMPARE(health.commits, qint64(0));
    QCOMPARE(health.nodes, qint64(0));
    QCOMPARE(health.edges, qint64(0));
}

void tst_HttpWrite::unparsableBodies_data()
{
    QTest::addColumn<QByteArray>("body");

    QTest::newRow("§7 malformed JSON") << QByteArrayLiteral(R"({"input_text": "x",)");
    QTest::newRow("§7 empty body") << QByteArray();
    QTest::newRow("§7 whitespace body") << QByteArrayLiteral("  \n ");
    QTest::newRow("§7 JSON array body") << QByteArrayLiteral(R"([{"input_text":"x"}])");
    QTest::newRow("§7 trailing garbage") << QByteArrayLiteral(R"({"input_text":"x"} tail)");
}

void tst_HttpWrite::unparsableBodies()
{
    QFETCH(QByteArray, body);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Reply r = server.post(kWritePath, body);
    QVERIFY2(r.status == 400, r.describe());
    QVERIFY(r.isJsonObject);
    QCOMPARE(r.errorCode(), QStringLiteral("invalid_request"));
    QCOMPARE(keysOf(r.json), errorKeysWithDetails());
    QVERIFY(!str(r, "message").isEmpty());
    QCOMPARE(str(r, "request_id"), QString::fromLatin1(r.header("x-request-id")));
    QCOMPARE(r.json.value(QStringLiteral("details"))
                 .toObject()
                 .value(QStringLiteral("issues"))
                 .toArray()
                 .size(),
             1);
    QCOMPARE(r.issuePath(), QString());
    QCOMPARE(server.service()->health().commits, qint64(0));
}

void tst_HttpWrite::unknownRoute()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply post = server.post(QStringLiteral("/v1/memory/nope"), QByteArrayLiteral("{}"));
    QVERIFY2(post.status == 404, post.describe());
    QCOMPARE(post.header("content-type"), QByteArrayLiteral("application/json"));
    QCOMPARE(post.errorCode(), QStringLiteral("not_found"));
    QCOMPARE(keysOf(post.json), keyList({"error", "message", "details", "request_id"}));
    QVERIFY(!str(post, "message").isEmpty());
    QVERIFY2(isLowerUuid(str(post, "request_id")), post.describe());
    QCOMPARE(str(post, "request_id"), QString::fromLatin1(post.header("x-request-id")));

    const Reply get = server.get(
        QStringLiteral("/"), {{QByteArrayLiteral("X-Request-Id"), QByteArrayLiteral("root-1")}});
    QVERIFY2(get.status == 404, get.describe());
    QCOMPARE(get.errorCode(), QStringLiteral("not_found"));
    QCOMPARE(str(get, "request_id"), QStringLiteral("root-1"));
    QCOMPARE(get.header("x-request-id"), QByteArrayLiteral("root-1"));
}

void tst_HttpWrite::wrongMethod()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    for (const QByteArray &method :
         {QByteArrayLiteral("GET"), QByteArrayLiteral("PUT"), QByteArrayLiteral("DELETE")}) {
        const QByteArray body
            = method == "PUT" ? compactJson(writeBody({writeNode(
                  QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha"))}))
                              : QByteArray();
        const Reply r = server.send(method, kWritePath, body);
        QVERIFY2(r.status == 405, (method + ": " + r.describe()).constData());
        QCOMPARE(r.header("allow"), QByteArrayLiteral("POST"));
        QCOMPARE(r.errorCode(), QStringLiteral("method_not_allowed"));
        QCOMPARE(keysOf(r.json), errorKeysWithDetails());
        QCOMPARE(r.json.value(QStringLiteral("details"))
                     .toObject()
                     .value(QStringLiteral("allow"))
                     .toString(),
                 QStringLiteral("POST"));
        QCOMPARE(str(r, "request_id"), QString::fromLatin1(r.header("x-request-id")));
    }
    QCOMPARE(server.service()->health().commits, qint64(0));
}

void tst_HttpWrite::bodyOverLimit()
{
    HttpTestServer server(environment({{"MEMORY_MAX_BODY_BYTES", QStringLiteral("2048")}}));
    REQUIRE_SERVER(server);

    // 10 KB of otherwise valid JSON.
    const QJsonObject big = writeBody({writeNode(QStringLiteral("big"), QStringLiteral("event"),
                                                 QString(10 * 1024, QLatin1Char('x')))});
    const Reply r = server.write(big);
    QVERIFY2(r.status == 413, r.describe());
    QCOMPARE(r.errorCode(), QStringLiteral("payload_too_large"));
    QCOMPARE(keysOf(r.json), errorKeysWithDetails());
    QCOMPARE(r.json.value(QStringLiteral("details"))
                 .toObject()
                 .value(QStringLiteral("max_bytes"))
                 .toInt(),
             2048);
    QCOMPARE(str(r, "request_id"), QString::fromLatin1(r.header("x-request-id")));
    QCOMPARE(server.service()->health().commits, qint64(0));

    // The limit is inclusive: exactly 2048 bytes pass, 2049 do not.
    const QByteArray prefix = QByteArrayLiteral(
        R"({"nodes":[{"client_id":"b","type":"event","text_summary":"edge"}],"input_text":")");
    const QByteArray suffix = QByteArrayLiteral(R"("})");
    const QByteArray exact
        = prefix + QByteArray(2048 - prefix.size() - suffix.size(), 'y') + suffix;
    QCOMPARE(exact.size(), 2048);
    const Reply atLimit = server.post(kWritePath, exact);
    QVERIFY2(atLimit.status == 200, atLimit.describe());

    const QByteArray over = prefix + QByteArray(2049 - prefix.size() - suffix.size(), 'z') + suffix;
    const Reply overLimit = server.post(kWritePath, over);
    QVERIFY2(overLimit.status == 413, overLimit.describe());
    QCOMPARE(server.commits().size(), 1);
}

// ---------------------------------------------------------------------------------------------

void tst_HttpWrite::requestIdEchoed()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const HttpHeaders headers{
        {QByteArrayLiteral("X-Request-Id"), QByteArrayLiteral("trace-42.abc")}};

    const Reply ok = server.write(writeBody({writeNode(QStringLiteral("a"), QStringLiteral("event"),
                                                       QStringLiteral("alpha"))}),
                                  headers);
    QVERIFY2(ok.status == 200, ok.describe());
    QCOMPARE(ok.header("x-request-id"), QByteArrayLiteral("trace-42.abc"));
    QCOMPARE(str(ok, "request_id"), QStringLiteral("trace-42.abc"));

    const Reply bad = server.write(QJsonObject{{QStringLiteral("nodes"), 1}}, headers);
    QVERIFY2(bad.status == 400, bad.describe());
    QCOMPARE(bad.header("x-request-id"), QByteArrayLiteral("trace-42.abc"));
    QCOMPARE(str(bad, "request_id"), QStringLiteral("trace-42.abc"));
}

void tst_HttpWrite::requestIdGenerated()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply first = server.write(writeBody(
        {writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha"))}));
    const Reply second = server.write(writeBody(
        {writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha"))}));
    for (const Reply *r : {&first, &second}) {
        QVERIFY2(r->status == 200, r->describe());
        const QString header = QString::fromLatin1(r->header("x-request-id"));
        QVERIFY2(isLowerUuid(header), qPrintable(header));
        QVERIFY(!QUuid::fromString(header).isNull());
        QCOMPARE(str(*r, "request_id"), header);
    }
    QVERIFY(str(first, "request_id") != str(second, "request_id"));
}

void tst_HttpWrite::requestLogEntries()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    QSignalSpy served(server.host(), &HttpServerHost::requestServed);

    const Reply ok = server.write(writeBody({writeNode(QStringLiteral("a"), QStringLiteral("event"),
                                                       QStringLiteral("alpha"))}),
                                  {{QByteArrayLiteral("X-Tenant-Id"), QByteArrayLiteral("acme")}});
    QVERIFY2(ok.status == 200, ok.describe());
    const Reply missing = server.get(QStringLiteral("/v1/nothing"));
    QVERIFY2(missing.status == 404, missing.describe());

    QTRY_COMPARE(served.size(), 2);
    const auto first = qvariant_cast<RequestLogEntry>(served.at(0).at(0));
    QCOMPARE(first.method, QStringLiteral("POST"));
    QCOMPARE(first.path, kWritePath);
    QCOMPARE(first.status, 200);
    QCOMPARE(first.tenantId, QStringLiteral("acme"));
    QCOMPARE(first.requestId, str(ok, "request_id"));
    QCOMPARE(first.errorCode, QString());
    QVERIFY(first.latencyMs >= 0.0);
    const auto second = qvariant_cast<RequestLogEntry>(served.at(1).at(0));
    QCOMPARE(second.method, QStringLiteral("GET"));
    QCOMPARE(second.path, QStringLiteral("/v1/nothing"));
    QCOMPARE(second.status, 404);
    QCOMPARE(second.errorCode, QStringLiteral("not_found"));
    QCOMPARE(second.requestId, str(missing, "request_id"));
}

// ---------------------------------------------------------------------------------------------

void tst_HttpWrite::tenantIsolation()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QString tenantA = QStringLiteral("tenant-a");
    const QString tenantB = QStringLiteral("tenant-b");

    const Reply a
        = server.write(writeBody({writeNode(QStringLiteral("same"), QStringLiteral("event"),
                                            QStringLiteral("Written by tenant alpha"))}),
                       {{QByteArrayLiteral("X-Tenant-Id"), tenantA.toLatin1()}});
    QVERIFY2(a.status == 200, a.describe());
    QCOMPARE(str(a, "tenant_id"), tenantA);
    QCOMPARE(str(a, "commit_uri"),
             uriOf(tenantA, kDefault, QStringLiteral("commit"), str(a, "commit_id")));

    const Reply b
        = server.write(with(writeBody({writeNode(QStringLiteral("same"), QStringLiteral("event"),
                                                 QStringLiteral("Written by tenant beta"))}),
                            QStringLiteral("tenant_id"), tenantB));
    QVERIFY2(b.status == 200, b.describe());
    QCOMPARE(str(b, "tenant_id"), tenantB);

    const QString idA = nodeIdAt(a, 0);
    const QString idB = nodeIdAt(b, 0);
    QVERIFY(idA != idB);

    const auto nodesA = server.nodes(tenantA);
    QCOMPARE(nodesA.size(), 1);
    QCOMPARE(nodesA.at(0).id, idA);
    QCOMPARE(nodesA.at(0).textSummary, QStringLiteral("Written by tenant alpha"));
    const auto nodesB = server.nodes(tenantB);
    QCOMPARE(nodesB.size(), 1);
    QCOMPARE(nodesB.at(0).id, idB);
    QCOMPARE(server.nodes(kDefault).size(), 0);
    QCOMPARE(server.commits(tenantA).size(), 1);
    QCOMPARE(server.commits(tenantB).size(), 1);
    QCOMPARE(server.commits(kDefault).size(), 0);
    QVERIFY(!server.service()->nodeDetail(tenantA, kDefault, idB).ok());

    // The body's tenant_id wins over the header.
    const Reply bodyWins
        = server.write(with(writeBody({writeNode(QStringLiteral("same"), QStringLiteral("event"),
                                                 QStringLiteral("Written by tenant beta"))}),
                            QStringLiteral("tenant_id"), tenantB),
                       {{QByteArrayLiteral("X-Tenant-Id"), tenantA.toLatin1()}});
    QVERIFY2(bodyWins.status == 200, bodyWins.describe());
    QCOMPARE(str(bodyWins, "tenant_id"), tenantB);
    QCOMPARE(nodeIdAt(bodyWins, 0), idB);

    // An edge cannot reach into another tenant, and the failed write leaves nothing behind.
    const Reply cross
        = server.write(writeBody({writeNode(QStringLiteral("probe"), QStringLiteral("event"),
                                            QStringLiteral("probe"))},
                                 {writeEdge(QStringLiteral("related_to"),
                                            byClientId(QStringLiteral("probe")), byId(idB))},
                                 QStringLiteral("cross")),
                       {{QByteArrayLiteral("X-Tenant-Id"), tenantA.toLatin1()}});
    QVERIFY2(cross.status == 400, cross.describe());
    QCOMPARE(cross.errorCode(), QStringLiteral("invalid_request"));
    QCOMPARE(cross.issuePath(), QStringLiteral("edges[0].dst.id"));
    QCOMPARE(server.nodes(tenantA).size(), 1);
    QCOMPARE(server.commits(tenantA).size(), 1);
}

void tst_HttpWrite::scopeIsolation()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const QString s1 = QStringLiteral("project-1");
    const QString s2 = QStringLiteral("project-2");

    const Reply one
        = server.write(with(writeBody({writeNode(QStringLiteral("same"), QStringLiteral("event"),
                                                 QStringLiteral("in one"))}),
                            QStringLiteral("scope"), s1));
    QVERIFY2(one.status == 200, one.describe());
    QCOMPARE(str(one, "scope"), s1);
    const Reply two
        = server.write(with(writeBody({writeNode(QStringLiteral("same"), QStringLiteral("event"),
                                                 QStringLiteral("in two"))}),
                            QStringLiteral("scope"), s2));
    QVERIFY2(two.status == 200, two.describe());
    QCOMPARE(str(two, "scope"), s2);

    QVERIFY(nodeIdAt(one, 0) != nodeIdAt(two, 0));
    const auto nodes1 = server.nodes(kDefault, s1);
    QCOMPARE(nodes1.size(), 1);
    QCOMPARE(nodes1.at(0).id, nodeIdAt(one, 0));
    QCOMPARE(nodes1.at(0).textSummary, QStringLiteral("in one"));
    const auto nodes2 = server.nodes(kDefault, s2);
    QCOMPARE(nodes2.size(), 1);
    QCOMPARE(nodes2.at(0).id, nodeIdAt(two, 0));
    QCOMPARE(server.nodes(kDefault, kDefault).size(), 0);
    QCOMPARE(server.commits(kDefault, s1).size(), 1);
    QCOMPARE(server.commits(kDefault, s2).size(), 1);
    // Each scope has its own chain.
    QVERIFY(server.commits(kDefault, s2).at(0).parentHash.isEmpty());

    const Reply cross = server.write(with(
        writeBody(
            {writeNode(QStringLiteral("probe"), QStringLiteral("event"), QStringLiteral("probe"))},
            {writeEdge(QStringLiteral("related_to"), byClientId(QStringLiteral("probe")),
                       byId(nodeIdAt(two, 0)))},
            QStringLiteral("cross")),
        QStringLiteral("scope"), s1));
    QVERIFY2(cross.status == 400, cross.describe());
    QCOMPARE(cross.issuePath(), QStringLiteral("edges[0].dst.id"));
    QCOMPARE(server.nodes(kDefault, s1).size(), 1);
}

QTEST_GUILESS_MAIN(tst_HttpWrite)
#include "tst_httpwrite.moc"
