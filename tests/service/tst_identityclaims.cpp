// A credential binds the identity it carries (spec §5.1.4-5, DESIGN trust model): an agent-only
// credential cannot claim a team, a team-only one cannot claim an agent, a tenant-only one is a
// service account that may name both; commits record the credential's identity as the actor.

#include "service/core/ids.h"
#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <functional>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;

namespace {

const QString kTenant = QStringLiteral("acme");
const QString kScope = QStringLiteral("default");
constexpr int kDim = 1536;

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

RequestMeta as(const QString &agent, const QString &team, const QString &tenant = kTenant)
{
    return Test::credentialAs(agent, team, tenant);
}

RequestMeta agentOnly()
{
    return as(s("agent-c"), QString());
}

RequestMeta teamOnly()
{
    return as(QString(), s("team-t"));
}

RequestMeta serviceAccount()
{
    return as(QString(), QString());
}

QJsonArray axis(int index)
{
    QJsonArray a;
    for (int i = 0; i < kDim; ++i)
        a.append(i == index ? 1.0 : 0.0);
    return a;
}

QJsonObject privateTeamNode()
{
    return {{s("client_id"), s("team-b-plan")},
            {s("type"), s("event")},
            {s("text_summary"), s("team b private plan")},
            {s("owner_team_id"), s("team-b")},
            {s("embedding"), axis(7)}};
}

Result<WriteResult> write(MemoryService *svc, const RequestMeta &meta, const QJsonObject &body)
{
    auto req = WriteRequest::fromJson(body);
    if (!req)
        return req.error();
    return svc->write(req.value(), meta);
}

Result<WriteResult> writeNodes(MemoryService *svc, const RequestMeta &meta, const QJsonArray &nodes,
                               const QJsonObject &extra = {})
{
    QJsonObject body = Test::writeBody(nodes);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        body.insert(it.key(), it.value());
    return write(svc, meta, body);
}

QJsonObject note(const QString &clientId, const QJsonObject &extra = {})
{
    QJsonObject n{{s("client_id"), clientId},
                  {s("type"), s("event")},
                  {s("text_summary"), clientId + s(" text")}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        n.insert(it.key(), it.value());
    return n;
}

using MemoryGraph::Test::describe;
using MemoryGraph::Test::why;

/// One facade call made with `meta`, reduced to its error (or none).
using Call = std::function<std::optional<Error>(MemoryService *, const RequestMeta &)>;

template<typename T> std::optional<Error> errorOf(const Result<T> &r)
{
    return r ? std::nullopt : std::optional<Error>(r.error());
}

Call recallCall(const QJsonObject &fields)
{
    return [fields](MemoryService *svc, const RequestMeta &meta) -> std::optional<Error> {
        QJsonObject body = fields;
        body.insert(s("query_embedding"), axis(7));
        auto req = RecallRequest::fromJson(body, false, 8000);
        if (!req)
            return req.error();
        return errorOf(svc->recall(req.value(), meta));
    };
}

Call resolveCall(const QJsonObject &fields)
{
    return [fields](MemoryService *svc, const RequestMeta &meta) -> std::optional<Error> {
        QJsonObject body = fields;
        body.insert(s("uri"), recordUri(kTenant, kScope, s("event"), randomUuid()));
        auto req = ResolveRequest::fromJson(body);
        if (!req)
            return req.error();
        auto r = svc->resolveUri(req.value(), meta);
        // An absent node is fine here: only an identity refusal counts.
        if (!r && r.error().status == 404)
            return std::nullopt;
        return errorOf(r);
    };
}

Call writeCall(const QJsonObject &topLevel, const QJsonObject &nodeFields = {})
{
    return [topLevel, nodeFields](MemoryService *svc, const RequestMeta &meta) {
        return errorOf(writeNodes(svc, meta, {note(s("claim"), nodeFields)}, topLevel));
    };
}

Call evaluateCall(const QJsonObject &context)
{
    return [context](MemoryService *svc, const RequestMeta &meta) -> std::optional<Error> {
        auto req = RulesEvaluateRequest::fromJson(QJsonObject{{s("context"), context}});
        if (!req)
            return req.error();
        return errorOf(svc->evaluateRules(req.value(), meta));
    };
}

Call toolFeedbackCall(const QJsonObject &context)
{
    return [context](MemoryService *svc, const RequestMeta &meta) -> std::optional<Error> {
        auto req = ToolFeedbackRequest::fromJson(
            QJsonObject{{s("context"), context},
                        {s("candidates"), QJsonArray{s("rm"), s("trash")}},
                        {s("selected_tool"), s("trash")},
                        {s("outcome"), s("positive")},
                        {s("input_text"), s("worked")}},
            8000);
        if (!req)
            return req.error();
        return errorOf(svc->toolFeedback(req.value(), meta));
    };
}

Call replayGetCall(const QJsonObject &fields)
{
    return [fields](MemoryService *svc, const RequestMeta &meta) -> std::optional<Error> {
        QJsonObject body = fields;
        body.insert(s("run_id"), randomUuid());
        auto req = ReplayRunGetRequest::fromJson(body);
        if (!req)
            return req.error();
        auto r = svc->replayRunGet(req.value(), meta);
        if (!r && r.error().status == 404)
            return std::nullopt;
        return errorOf(r);
    };
}

CommitRecord latestCommit(MemoryService *svc)
{
    auto commits = svc->listCommits(kTenant, kScope, 0, 1);
    return commits && !commits.value().isEmpty() ? commits.value().first() : CommitRecord();
}

} // namespace

Q_DECLARE_METATYPE(Call)

class tst_IdentityClaims : public QObject
{
    Q_OBJECT

private slots:
    void agentOnlyCredentialCannotClaimATeam_data();
    void agentOnlyCredentialCannotClaimATeam();
    void agentOnlyCredentialCannotReadAnotherTeamsPrivateNode();
    void teamOnlyCredentialCannotClaimAnAgent_data();
    void teamOnlyCredentialCannotClaimAnAgent();
    void serviceAccountMayNameAgentsAndTeams();
    void commitActorIsTheCredentialIdentity();
    void commitActorOfEveryStateChange();
    void callerWithoutCredentialKeepsItsActor();
};

#define OPEN_SERVICE(name) \
    TempService name(Test::apiKeyTestEnvironment()); \
    QVERIFY2(name.isValid(), qPrintable(name.errorText()))

void tst_IdentityClaims::agentOnlyCredentialCannotClaimATeam_data()
{
    QTest::addColumn<Call>("call");
    QTest::addColumn<QString>("field");
    const QJsonObject team{{s("team_id"), s("team-b")}};
    QTest::newRow("recall consumer_team_id")
        << recallCall({{s("consumer_team_id"), s("team-b")}}) << s("consumer_team_id");
    QTest::newRow("resolve consumer_team_id")
        << resolveCall({{s("consumer_team_id"), s("team-b")}}) << s("consumer_team_id");
    QTest::newRow("replay get consumer_team_id")
        << replayGetCall({{s("consumer_team_id"), s("team-b")}}) << s("consumer_team_id");
    QTest::newRow("write owner_team_id")
        << writeCall({{s("owner_team_id"), s("team-b")}}) << s("owner_team_id");
    QTest::newRow("write node owner_team_id")
        << writeCall({}, {{s("owner_team_id"), s("team-b")}}) << s("nodes[0].owner_team_id");
    QTest::newRow("evaluate context.team_id") << evaluateCall(team) << s("context.team_id");
    QTest::newRow("evaluate context.agent.team_id")
        << evaluateCall({{s("agent"), QJsonObject{{s("team_id"), s("team-b")}}}})
        << s("context.agent.team_id");
    QTest::newRow("tools/feedback context.team_id")
        << toolFeedbackCall(team) << s("context.team_id");
    QTest::newRow("recall rules_context team")
        << recallCall({{s("rules_context"), team}}) << s("context.team_id");
}

void tst_IdentityClaims::agentOnlyCredentialCannotClaimATeam()
{
    QFETCH(Call, call);
    QFETCH(QString, field);
    OPEN_SERVICE(svc);
    const auto refused = call(svc.service(), agentOnly());
    QVERIFY2(refused, "the claim was accepted");
    QCOMPARE(refused->status, 403);
    QCOMPARE(refused->code, s("identity_mismatch"));
    QCOMPARE(refused->details.value(s("field")).toString(), field);
    // The same call without the claim is fine, and a service account may make the claim.
    const auto asService = call(svc.service(), serviceAccount());
    QVERIFY2(!asService, asService ? describe(*asService).constData() : "");
}

void tst_IdentityClaims::agentOnlyCredentialCannotReadAnotherTeamsPrivateNode()
{
    OPEN_SERVICE(svc);
    auto written = writeNodes(svc.service(), as(s("agent-b"), s("team-b")), {privateTeamNode()});
    QVERIFY2(written.ok(), why(written));
    const QString id = written.value().nodes.first().id;

    auto req = ResolveRequest::fromJson(
        QJsonObject{{s("uri"), recordUri(kTenant, kScope, s("event"), id)},
                    {s("consumer_team_id"), s("team-b")}});
    QVERIFY(req.ok());
    auto read = svc->resolveUri(req.value(), agentOnly());
    QVERIFY2(!read.ok(), "an agent-only credential read another team's private node");
    QCOMPARE(read.error().status, 403);
    QCOMPARE(read.error().code, s("identity_mismatch"));

    auto recallReq = RecallRequest::fromJson(
        QJsonObject{{s("query_embedding"), axis(7)}, {s("consumer_team_id"), s("team-b")}}, false,
        8000);
    QVERIFY(recallReq.ok());
    auto recalled = svc->recall(recallReq.value(), agentOnly());
    QVERIFY(!recalled.ok());
    QCOMPARE(recalled.error().code, s("identity_mismatch"));
}

void tst_IdentityClaims::teamOnlyCredentialCannotClaimAnAgent_data()
{
    QTest::addColumn<Call>("call");
    QTest::addColumn<QString>("field");
    QTest::newRow("recall consumer_agent_id")
        << recallCall({{s("consumer_agent_id"), s("agent-b")}}) << s("consumer_agent_id");
    QTest::newRow("write producer_agent_id")
        << writeCall({{s("producer_agent_id"), s("agent-b")}}) << s("producer_agent_id");
    QTest::newRow("write owner_agent_id")
        << writeCall({{s("owner_agent_id"), s("agent-b")}}) << s("owner_agent_id");
    QTest::newRow("write node owner_agent_id")
        << writeCall({}, {{s("owner_agent_id"), s("agent-b")}}) << s("nodes[0].owner_agent_id");
    QTest::newRow("evaluate context.agent.id")
        << evaluateCall({{s("agent"), QJsonObject{{s("id"), s("agent-b")}}}})
        << s("context.agent.id");
    QTest::newRow("evaluate context.agent_id")
        << evaluateCall({{s("agent_id"), s("agent-b")}}) << s("context.agent_id");
}

void tst_IdentityClaims::teamOnlyCredentialCannotClaimAnAgent()
{
    QFETCH(Call, call);
    QFETCH(QString, field);
    OPEN_SERVICE(svc);
    const auto refused = call(svc.service(), teamOnly());
    QVERIFY2(refused, "the claim was accepted");
    QCOMPARE(refused->status, 403);
    QCOMPARE(refused->code, s("identity_mismatch"));
    QCOMPARE(refused->details.value(s("field")).toString(), field);
    const auto asService = call(svc.service(), serviceAccount());
    QVERIFY2(!asService, asService ? describe(*asService).constData() : "");
}

void tst_IdentityClaims::serviceAccountMayNameAgentsAndTeams()
{
    OPEN_SERVICE(svc);
    auto written = writeNodes(svc.service(), serviceAccount(), {privateTeamNode()},
                              {{s("producer_agent_id"), s("agent-b")}});
    QVERIFY2(written.ok(), why(written));
    const QString id = written.value().nodes.first().id;
    auto req = ResolveRequest::fromJson(
        QJsonObject{{s("uri"), recordUri(kTenant, kScope, s("event"), id)},
                    {s("consumer_team_id"), s("team-b")}});
    QVERIFY(req.ok());
    auto read = svc->resolveUri(req.value(), serviceAccount());
    QVERIFY2(read.ok(), why(read));
    QCOMPARE(read.value().node->ownerTeamId, s("team-b"));
}

void tst_IdentityClaims::commitActorIsTheCredentialIdentity()
{
    OPEN_SERVICE(svc);
    auto impersonating = writeNodes(svc.service(), as(s("agent-a"), s("team-a")), {note(s("n1"))},
                                    {{s("actor"), s("agent-b")}});
    QVERIFY2(impersonating.ok(), why(impersonating));
    CommitRecord c = latestCommit(svc.service());
    QCOMPARE(c.actor, s("agent-a"));
    QCOMPARE(c.diff.value(s("actor_label")).toString(), s("agent-b"));

    auto plain = writeNodes(svc.service(), as(s("agent-a"), s("team-a")), {note(s("n2"))});
    QVERIFY2(plain.ok(), why(plain));
    c = latestCommit(svc.service());
    QCOMPARE(c.actor, s("agent-a"));
    QVERIFY(!c.diff.contains(s("actor_label")));

    auto team
        = writeNodes(svc.service(), teamOnly(), {note(s("n3"))}, {{s("actor"), s("deploy-bot")}});
    QVERIFY2(team.ok(), why(team));
    c = latestCommit(svc.service());
    QCOMPARE(c.actor, s("team:team-t"));
    QCOMPARE(c.diff.value(s("actor_label")).toString(), s("deploy-bot"));

    auto service = writeNodes(svc.service(), serviceAccount(), {note(s("n4"))});
    QVERIFY2(service.ok(), why(service));
    QCOMPARE(latestCommit(svc.service()).actor, s("tenant:acme"));

    // The label is covered by the hash chain like the rest of the diff.
    auto chain = svc->verifyChain(kTenant, kScope);
    QVERIFY(chain.ok());
    QVERIFY(chain.value().ok);
}

void tst_IdentityClaims::commitActorOfEveryStateChange()
{
    OPEN_SERVICE(svc);
    const RequestMeta a = as(s("agent-a"), s("team-a"));
    auto rule = writeNodes(
        svc.service(), a,
        {QJsonObject{
            {s("client_id"), s("r1")},
            {s("type"), s("rule")},
            {s("text_summary"), s("deny rm")},
            {s("slots"),
             QJsonObject{
                 {s("then"),
                  QJsonObject{{s("tool"), QJsonObject{{s("deny"), QJsonArray{s("rm")}}}}}}}}}});
    QVERIFY2(rule.ok(), why(rule));
    const QString ruleId = rule.value().nodes.first().id;

    auto state = RuleStateRequest::fromJson(QJsonObject{{s("rule_node_id"), ruleId},
                                                        {s("state"), s("ACTIVE")},
                                                        {s("actor"), s("agent-b")},
                                                        {s("input_text"), s("go")}});
    QVERIFY(state.ok());
    QVERIFY(svc->setRuleState(state.value(), a).ok());
    QCOMPARE(latestCommit(svc.service()).actor, s("agent-a"));
    QCOMPARE(latestCommit(svc.service()).diff.value(s("actor_label")).toString(), s("agent-b"));

    auto feedback = RuleFeedbackRequest::fromJson(QJsonObject{{s("rule_node_id"), ruleId},
                                                              {s("outcome"), s("positive")},
                                                              {s("actor"), s("agent-b")},
                                                              {s("input_text"), s("ok")}},
                                                  8000);
    QVERIFY(feedback.ok());
    QVERIFY(svc->ruleFeedback(feedback.value(), a).ok());
    QCOMPARE(latestCommit(svc.service()).actor, s("agent-a"));

    auto activate = NodesActivateRequest::fromJson(QJsonObject{{s("node_ids"), QJsonArray{ruleId}},
                                                               {s("actor"), s("agent-b")},
                                                               {s("input_text"), s("used")}},
                                                   8000);
    QVERIFY(activate.ok());
    QVERIFY(svc->activateNodes(activate.value(), a).ok());
    const CommitRecord activation = latestCommit(svc.service());
    QCOMPARE(activation.actor, s("agent-a"));
    QCOMPARE(activation.diff.value(s("actor")).toString(), s("agent-a"));
    QCOMPARE(activation.diff.value(s("actor_label")).toString(), s("agent-b"));

    auto tools
        = ToolFeedbackRequest::fromJson(QJsonObject{{s("context"), QJsonObject()},
                                                    {s("candidates"), QJsonArray{s("rm"), s("ls")}},
                                                    {s("selected_tool"), s("ls")},
                                                    {s("outcome"), s("positive")},
                                                    {s("actor"), s("agent-b")},
                                                    {s("input_text"), s("ls worked")}},
                                        8000);
    QVERIFY(tools.ok());
    QVERIFY(svc->toolFeedback(tools.value(), a).ok());
    QCOMPARE(latestCommit(svc.service()).actor, s("agent-a"));

    auto run = ReplayRunStartRequest::fromJson(QJsonObject{{s("goal"), s("release")}});
    QVERIFY(run.ok());
    QVERIFY(svc->replayRunStart(run.value(), a).ok());
    QCOMPARE(latestCommit(svc.service()).actor, s("agent-a"));
    QCOMPARE(latestCommit(svc.service()).diff.value(s("actor_label")).toString(), s("replay_api"));
}

void tst_IdentityClaims::callerWithoutCredentialKeepsItsActor()
{
    TempService svc; // auth off: the local operator names the actor
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    auto written
        = writeNodes(svc.service(), RequestMeta(), {note(s("n1"))}, {{s("actor"), s("ops")}});
    QVERIFY2(written.ok(), why(written));
    auto commits = svc->listCommits(s("default"), kScope, 0, 1);
    QVERIFY(commits.ok());
    QCOMPARE(commits.value().first().actor, s("ops"));
    QVERIFY(!commits.value().first().diff.contains(s("actor_label")));
}

QTEST_GUILESS_MAIN(tst_IdentityClaims)
#include "tst_identityclaims.moc"
