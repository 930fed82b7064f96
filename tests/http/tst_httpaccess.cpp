// Lanes, owners and credential identities over real HTTP with MEMORY_AUTH_MODE=api_key
// (DESIGN trust model; issue: trust boundaries §2 and the embedding item of §3).

#include "service/core/ids.h"
#include "service/net/embeddingfactory.h"
#include "tests/http/httptestserver.h"
#include "tests/net/fakeupstream.h"
#include "tests/support/recalltesting.h"

#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

const QString kTenant = QStringLiteral("acme");
const QString kScope = QStringLiteral("default");

const QString kKeys
    = QStringLiteral(R"({"key-a":{"tenant_id":"acme","agent_id":"agent-a","team_id":"team-a"},)"
                     R"("key-b":{"tenant_id":"acme","agent_id":"agent-b","team_id":"team-b"},)"
                     R"("key-t":{"tenant_id":"acme","team_id":"team-t"},)"
                     R"("key-c":{"tenant_id":"acme","agent_id":"agent-c"},)"
                     R"("key-s":{"tenant_id":"acme","role":"ingest"}})");

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

QProcessEnvironment apiKeyEnvironment()
{
    QProcessEnvironment env;
    env.insert(s("MEMORY_AUTH_MODE"), s("api_key"));
    env.insert(s("MEMORY_API_KEYS_JSON"), kKeys);
    env.insert(s("EMBEDDING_PROVIDER"), s("none"));
    return env;
}

HttpHeaders key(const char *name)
{
    return {{QByteArrayLiteral("X-Api-Key"), QByteArray(name)}};
}

QJsonObject ruleNode(const QString &clientId)
{
    return {
        {s("client_id"), clientId},
        {s("type"), s("rule")},
        {s("text_summary"), s("never run rm")},
        {s("slots"),
         QJsonObject{{s("then"),
                      QJsonObject{{s("tool"), QJsonObject{{s("deny"), QJsonArray{s("rm")}}}}}}}}};
}

QString firstNodeId(const Reply &r)
{
    return r.json.value(s("nodes")).toArray().at(0).toObject().value(s("id")).toString();
}

std::optional<NodeRecord> storedNode(HttpTestServer &server, const QString &id)
{
    for (const NodeRecord &n : server.nodes(kTenant, kScope)) {
        if (n.id == id)
            return n;
    }
    return std::nullopt;
}

QString ruleState(HttpTestServer &server, const QString &ruleId)
{
    auto rules = server.service()->listRules(kTenant, kScope);
    if (rules) {
        for (const RuleSummary &r : rules.value()) {
            if (r.node.id == ruleId)
                return r.status.state;
        }
    }
    return {};
}

QJsonObject with(QJsonObject object, const QString &key, const QJsonValue &value)
{
    object.insert(key, value);
    return object;
}

QJsonObject commitInput(QJsonObject body)
{
    body.insert(s("input_text"), s("test input"));
    return body;
}

QByteArray embeddingsBody(const QJsonArray &vector)
{
    const QJsonObject item{
        {s("object"), s("embedding")}, {s("index"), 0}, {s("embedding"), vector}};
    return compactJson(QJsonObject{{s("object"), s("list")},
                                   {s("data"), QJsonArray{item}},
                                   {s("model"), s("test-embed-1536")}});
}

/// An api_key server whose embedding provider is the OpenAI-compatible client pointed at a
/// fake upstream, so the test can count the upstream calls.
class UpstreamAuthServer
{
public:
    explicit UpstreamAuthServer(const QString &baseUrl)
    {
        auto config = ServiceConfig::fromEnvironment(apiKeyEnvironment());
        if (!config || !m_dir.isValid()) {
            m_error = config ? s("no temporary directory") : config.error().message;
            return;
        }
        ServiceConfig c = config.value();
        c.dataDir = m_dir.path();
        c.embeddingProvider = s("openai");
        c.embeddingBaseUrl = baseUrl;
        c.embeddingModel = s("test-embed-1536");
        c.embeddingApiKey = s("sk-test-0123456789");
        c.embeddingTimeoutMs = 5000;
        auto provider = makeEmbeddingProvider(c);
        if (!provider) {
            m_error = provider.error().message;
            return;
        }
        auto opened = MemoryService::open(c, std::move(provider).value());
        if (!opened) {
            m_error = opened.error().message;
            return;
        }
        m_service = std::move(opened).value();
        m_host = std::make_unique<HttpServerHost>(m_service.get());
        m_host->start(s("127.0.0.1"), 0);
        if (m_host->port() == 0) {
            m_error = s("HTTP server did not start");
            return;
        }
        m_nam = std::make_unique<QNetworkAccessManager>();
        m_nam->setProxy(QNetworkProxy::NoProxy);
    }

    ~UpstreamAuthServer()
    {
        m_nam.reset(); // close client connections before the server goes away
        if (m_host)
            m_host->stop();
        m_host.reset();
        m_service.reset();
    }

    UpstreamAuthServer(const UpstreamAuthServer &) = delete;
    UpstreamAuthServer &operator=(const UpstreamAuthServer &) = delete;

    bool isReady() const { return m_nam != nullptr; }
    QString errorText() const { return m_error; }

    /// POST and wait; the fake upstream is served by this thread's event loop meanwhile.
    Reply post(const QString &path, const QJsonObject &body, const HttpHeaders &headers)
    {
        QNetworkRequest request(
            QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(m_host->port()).arg(path)));
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
        for (const auto &[name, value] : headers)
            request.setRawHeader(name, value);
        QNetworkReply *reply = m_nam->post(request, compactJson(body));
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            done.wait(HttpTestServer::kDefaultTimeoutMs);
        Reply out;
        out.finished = reply->isFinished();
        if (!out.finished)
            reply->abort();
        out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        out.body = reply->readAll();
        const QJsonDocument doc = QJsonDocument::fromJson(out.body);
        out.isJsonObject = doc.isObject();
        out.json = doc.object();
        reply->deleteLater();
        return out;
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MemoryService> m_service;
    std::unique_ptr<HttpServerHost> m_host;
    std::unique_ptr<QNetworkAccessManager> m_nam;
    QString m_error;
};

} // namespace

class tst_HttpAccess : public QObject
{
    Q_OBJECT

private slots:
    void rewriteOfAnotherAgentsPrivateNodeIsRefused();
    void explicitIdOfAnotherAgentsNodeIsAnsweredLikeAnUnknownId();
    void activatingAnotherAgentsPrivateRuleCountsItMissing();
    void ruleStateAndFeedbackOnAnotherAgentsRuleAreNotFound();
    void agentOnlyCredentialNamingATeamIsRefused_data();
    void agentOnlyCredentialNamingATeamIsRefused();
    void teamOnlyCredentialNamingAnAgentIsRefused();
    void serviceAccountMayNameAgentsAndTeams();
    void replayClientIdsAreRefusedOnWrite();
    void commitActorIsTheKeysIdentity();
    void refusedTextCallsMakeNoUpstreamCall_data();
    void refusedTextCallsMakeNoUpstreamCall();
};

#define REQUIRE_SERVER(server) QVERIFY2((server).isReady(), qPrintable((server).errorText()))

void tst_HttpAccess::rewriteOfAnotherAgentsPrivateNodeIsRefused()
{
    HttpTestServer server(apiKeyEnvironment());
    REQUIRE_SERVER(server);
    const Reply b = server.write(writeBody({writeNode(s("plan"), s("event"), s("b private plan"))}),
                                 key("key-b"));
    QCOMPARE(b.status, 200);
    const QString id = firstNodeId(b);
    const qsizetype commits = server.commits(kTenant).size();

    QJsonObject hijack = writeNode(s("plan"), s("event"), s("hijacked by a"));
    hijack.insert(s("memory_lane"), s("shared"));
    const Reply a = server.write(writeBody({hijack}), key("key-a"));
    QCOMPARE(a.status, 409);
    QCOMPARE(a.errorCode(), s("client_id_conflict"));
    QCOMPARE(a.issuePath(), s("nodes[0].client_id"));
    QVERIFY2(!a.body.contains("agent-b") && !a.body.contains("private")
                 && !a.body.contains(id.toUtf8()),
             a.describe().constData());

    const auto node = storedNode(server, id);
    QVERIFY(node);
    QCOMPARE(node->ownerAgentId, s("agent-b"));
    QCOMPARE(node->memoryLane, s("private"));
    QCOMPARE(node->textSummary, s("b private plan"));
    QCOMPARE(server.commits(kTenant).size(), commits);

    const Reply read = server.post(
        s("/v1/memory/resolve"),
        QJsonObject{{s("uri"), recordUri(kTenant, kScope, s("event"), id)}}, key("key-a"));
    QCOMPARE(read.status, 404);
}

void tst_HttpAccess::explicitIdOfAnotherAgentsNodeIsAnsweredLikeAnUnknownId()
{
    HttpTestServer server(apiKeyEnvironment());
    REQUIRE_SERVER(server);
    const Reply b = server.write(writeBody({writeNode(s("plan"), s("event"), s("b private plan"))}),
                                 key("key-b"));
    QCOMPARE(b.status, 200);
    const QString id = firstNodeId(b);
    const auto byId = [&](const QString &nodeId) {
        return server.write(
            writeBody({QJsonObject{
                {s("id"), nodeId}, {s("type"), s("event")}, {s("text_summary"), s("taken")}}}),
            key("key-a"));
    };
    const Reply invisible = byId(id);
    const Reply unknown = byId(randomUuid());
    QCOMPARE(invisible.status, 400);
    QCOMPARE(unknown.status, 400);
    QCOMPARE(invisible.issuePath(), s("nodes[0].id"));
    QJsonObject left = invisible.json, right = unknown.json;
    left.remove(s("request_id"));
    right.remove(s("request_id"));
    QCOMPARE(left, right);
    QCOMPARE(storedNode(server, id)->textSummary, s("b private plan"));
}

void tst_HttpAccess::activatingAnotherAgentsPrivateRuleCountsItMissing()
{
    HttpTestServer server(apiKeyEnvironment());
    REQUIRE_SERVER(server);
    const Reply b = server.write(writeBody({ruleNode(s("b-rule"))}), key("key-b"));
    QCOMPARE(b.status, 200);
    const QString ruleId = firstNodeId(b);

    const Reply a = server.post(
        s("/v1/memory/nodes/activate"),
        commitInput({{s("node_ids"), QJsonArray{ruleId}}, {s("outcome"), s("positive")}}),
        key("key-a"));
    QCOMPARE(a.status, 200);
    const QJsonObject activated = a.json.value(s("activated")).toObject();
    QCOMPARE(activated.value(s("missing_node_ids")).toArray(), QJsonArray{ruleId});
    QCOMPARE(activated.value(s("found_nodes")).toInt(), 0);
    QVERIFY(a.json.value(s("commit_id")).isNull());

    const Reply unknown = server.post(
        s("/v1/memory/nodes/activate"),
        commitInput({{s("node_ids"), QJsonArray{randomUuid()}}, {s("outcome"), s("positive")}}),
        key("key-a"));
    QCOMPARE(unknown.status, 200);
    QCOMPARE(keysOf(unknown.json.value(s("activated")).toObject()), keysOf(activated));

    const auto rule = storedNode(server, ruleId);
    QVERIFY(rule);
    QVERIFY(!rule->slotData.contains(s("feedback_positive")));
    QVERIFY(!rule->lastActivated.isValid());

    const Reply rehydrate
        = server.post(s("/v1/memory/archive/rehydrate"),
                      commitInput({{s("node_ids"), QJsonArray{ruleId}}}), key("key-a"));
    QCOMPARE(rehydrate.status, 200);
    QCOMPARE(
        rehydrate.json.value(s("rehydrated")).toObject().value(s("missing_node_ids")).toArray(),
        QJsonArray{ruleId});
}

void tst_HttpAccess::ruleStateAndFeedbackOnAnotherAgentsRuleAreNotFound()
{
    HttpTestServer server(apiKeyEnvironment());
    REQUIRE_SERVER(server);
    const Reply b = server.write(writeBody({ruleNode(s("b-rule"))}), key("key-b"));
    QCOMPARE(b.status, 200);
    const QString ruleId = firstNodeId(b);

    const Reply state = server.post(
        s("/v1/memory/rules/state"),
        commitInput({{s("rule_node_id"), ruleId}, {s("state"), s("ACTIVE")}}), key("key-a"));
    const Reply unknownState = server.post(
        s("/v1/memory/rules/state"),
        commitInput({{s("rule_node_id"), randomUuid()}, {s("state"), s("ACTIVE")}}), key("key-a"));
    QCOMPARE(state.status, 404);
    QCOMPARE(state.errorCode(), s("not_found"));
    QCOMPARE(state.json.value(s("message")), unknownState.json.value(s("message")));
    QCOMPARE(state.json.value(s("details")), unknownState.json.value(s("details")));
    QCOMPARE(ruleState(server, ruleId), s("shadow"));

    const Reply feedback = server.post(
        s("/v1/memory/feedback"),
        commitInput({{s("rule_node_id"), ruleId}, {s("outcome"), s("negative")}}), key("key-a"));
    QCOMPARE(feedback.status, 404);
}

void tst_HttpAccess::agentOnlyCredentialNamingATeamIsRefused_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("field");
    QTest::newRow("recall consumer_team_id")
        << s("/v1/memory/recall")
        << QJsonObject{{s("query_embedding"), axis(3)}, {s("consumer_team_id"), s("team-b")}}
        << s("consumer_team_id");
    QTest::newRow("write owner_team_id")
        << s("/v1/memory/write")
        << with(writeBody({writeNode(s("n"), s("event"), s("x"))}), s("owner_team_id"), s("team-b"))
        << s("owner_team_id");
    QTest::newRow("rules/evaluate context.team_id")
        << s("/v1/memory/rules/evaluate")
        << QJsonObject{{s("context"), QJsonObject{{s("team_id"), s("team-b")}}}}
        << s("context.team_id");
    QTest::newRow("rules/evaluate context.agent.team_id")
        << s("/v1/memory/rules/evaluate")
        << QJsonObject{{s("context"),
                        QJsonObject{{s("agent"), QJsonObject{{s("team_id"), s("team-b")}}}}}}
        << s("context.agent.team_id");
}

void tst_HttpAccess::agentOnlyCredentialNamingATeamIsRefused()
{
    QFETCH(QString, path);
    QFETCH(QJsonObject, body);
    QFETCH(QString, field);
    HttpTestServer server(apiKeyEnvironment());
    REQUIRE_SERVER(server);
    QJsonObject teamNode = writeNode(s("team-b-plan"), s("event"), s("team b private plan"));
    teamNode.insert(s("embedding"), axis(3));
    teamNode.insert(s("owner_team_id"), s("team-b"));
    QCOMPARE(server.write(writeBody({teamNode}), key("key-b")).status, 200);

    const Reply r = server.post(path, body, key("key-c"));
    QCOMPARE(r.status, 403);
    QCOMPARE(r.errorCode(), s("identity_mismatch"));
    QCOMPARE(r.json.value(s("details")).toObject().value(s("field")).toString(), field);
    QVERIFY2(!r.body.contains("team b private plan"), r.describe().constData());
}

void tst_HttpAccess::teamOnlyCredentialNamingAnAgentIsRefused()
{
    HttpTestServer server(apiKeyEnvironment());
    REQUIRE_SERVER(server);
    const Reply recall = server.post(
        s("/v1/memory/recall"),
        QJsonObject{{s("query_embedding"), axis(3)}, {s("consumer_agent_id"), s("agent-b")}},
        key("key-t"));
    QCOMPARE(recall.status, 403);
    QCOMPARE(recall.errorCode(), s("identity_mismatch"));
    QJsonObject body = writeBody({writeNode(s("n"), s("event"), s("x"))});
    body.insert(s("producer_agent_id"), s("agent-b"));
    const Reply write = server.write(body, key("key-t"));
    QCOMPARE(write.status, 403);
    QCOMPARE(write.errorCode(), s("identity_mismatch"));
}

void tst_HttpAccess::serviceAccountMayNameAgentsAndTeams()
{
    HttpTestServer server(apiKeyEnvironment());
    REQUIRE_SERVER(server);
    QJsonObject teamNode = writeNode(s("team-b-plan"), s("event"), s("team b private plan"));
    teamNode.insert(s("embedding"), axis(3));
    teamNode.insert(s("owner_team_id"), s("team-b"));
    const Reply written = server.write(writeBody({teamNode}), key("key-s"));
    QCOMPARE(written.status, 200);
    const Reply recall = server.post(
        s("/v1/memory/recall"),
        QJsonObject{{s("query_embedding"), axis(3)}, {s("consumer_team_id"), s("team-b")}},
        key("key-s"));
    QCOMPARE(recall.status, 200);
    QVERIFY2(recall.body.contains("team b private plan"), recall.describe().constData());
    QCOMPARE(server.commits(kTenant).first().actor, s("tenant:acme"));
}

void tst_HttpAccess::replayClientIdsAreRefusedOnWrite()
{
    HttpTestServer server(apiKeyEnvironment());
    REQUIRE_SERVER(server);
    const Reply r = server.write(
        writeBody({writeNode(s("replay:run:6a1f"), s("event"), s("forged"))}), key("key-a"));
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), s("invalid_request"));
    QCOMPARE(r.issuePath(), s("nodes[0].client_id"));
    QVERIFY(server.nodes(kTenant).isEmpty());

    const Reply run = server.post(s("/v1/memory/replay/run/start"),
                                  QJsonObject{{s("goal"), s("ship")}}, key("key-a"));
    QCOMPARE(run.status, 200);
}

void tst_HttpAccess::commitActorIsTheKeysIdentity()
{
    HttpTestServer server(apiKeyEnvironment());
    REQUIRE_SERVER(server);
    QJsonObject body = writeBody({writeNode(s("n"), s("event"), s("x"))});
    body.insert(s("actor"), s("agent-b"));
    QCOMPARE(server.write(body, key("key-a")).status, 200);
    const CommitRecord c = server.commits(kTenant).first();
    QCOMPARE(c.actor, s("agent-a"));
    QCOMPARE(c.diff.value(s("actor_label")).toString(), s("agent-b"));
}

void tst_HttpAccess::refusedTextCallsMakeNoUpstreamCall_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QJsonObject>("fields");
    QTest::addColumn<QByteArray>("apiKey");
    QTest::addColumn<QString>("code");
    for (const char *path : {"/v1/memory/recall_text", "/v1/memory/context/assemble"}) {
        const QString p = s(path);
        QTest::addRow("%s another tenant", path) << p << QJsonObject{{s("tenant_id"), s("globex")}}
                                                 << QByteArray("key-a") << s("forbidden");
        QTest::addRow("%s another agent", path)
            << p << QJsonObject{{s("consumer_agent_id"), s("agent-b")}} << QByteArray("key-a")
            << s("identity_mismatch");
        QTest::addRow("%s agent-only claims a team", path)
            << p << QJsonObject{{s("consumer_team_id"), s("team-b")}} << QByteArray("key-c")
            << s("identity_mismatch");
    }
}

void tst_HttpAccess::refusedTextCallsMakeNoUpstreamCall()
{
    QFETCH(QString, path);
    QFETCH(QJsonObject, fields);
    QFETCH(QByteArray, apiKey);
    QFETCH(QString, code);
    FakeUpstream upstream;
    QVERIFY(upstream.listen());
    upstream.handler = [](const UpstreamRequest &) {
        return UpstreamReply{200, embeddingsBody(axis(5)), {}, 0};
    };
    UpstreamAuthServer server(upstream.baseUrl());
    REQUIRE_SERVER(server);

    fields.insert(s("query_text"), s("release checklist"));
    const Reply refused = server.post(path, fields, key(apiKey.constData()));
    QCOMPARE(refused.status, 403);
    QCOMPARE(refused.json.value(s("error")).toString(), code);
    QCOMPARE(upstream.requests.size(), 0);

    // The same call within the credential's identity spends exactly one upstream call.
    const Reply admitted = server.post(path, QJsonObject{{s("query_text"), s("release checklist")}},
                                       key(apiKey.constData()));
    QVERIFY2(admitted.status == 200, admitted.describe().constData());
    QCOMPARE(upstream.requests.size(), 1);
}

QTEST_GUILESS_MAIN(tst_HttpAccess)
#include "tst_httpaccess.moc"
