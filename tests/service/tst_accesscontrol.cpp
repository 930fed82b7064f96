// Lanes and owners as access control on writes and state changes, through the facade with
// authenticated callers (DESIGN trust model): a caller cannot re-write, link to, activate,
// rehydrate, give feedback on or change the state of a node it cannot see, and an invisible
// node is answered exactly like an absent one.

#include "service/core/ids.h"
#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;

namespace {

const QString kTenant = QStringLiteral("acme");
const QString kScope = QStringLiteral("default");

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

/// A call made with an authenticated credential of tenant `tenant`.
RequestMeta as(const QString &agent, const QString &team, const QString &tenant = kTenant)
{
    return Test::credentialAs(agent, team, tenant);
}

const RequestMeta &agentA()
{
    static const RequestMeta m = as(s("agent-a"), s("team-a"));
    return m;
}

const RequestMeta &agentB()
{
    static const RequestMeta m = as(s("agent-b"), s("team-b"));
    return m;
}

const RequestMeta &serviceAccount()
{
    static const RequestMeta m = as(QString(), QString());
    return m;
}

QJsonObject eventNode(const QString &clientId, const QString &text, const QJsonObject &extra = {})
{
    QJsonObject n{{s("client_id"), clientId}, {s("type"), s("event")}, {s("text_summary"), text}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        n.insert(it.key(), it.value());
    return n;
}

QJsonObject ruleNode(const QString &clientId)
{
    return {
        {s("client_id"), clientId},
        {s("type"), s("rule")},
        {s("text_summary"), s("never run rm")},
        {s("slots"),
         QJsonObject{{s("if"), QJsonObject{{s("intent"), s("cleanup")}}},
                     {s("then"),
                      QJsonObject{{s("tool"), QJsonObject{{s("deny"), QJsonArray{s("rm")}}}}}}}}};
}

QJsonObject edgeBetween(const QJsonObject &src, const QJsonObject &dst,
                        const QJsonObject &extra = {})
{
    QJsonObject e{{s("type"), s("related_to")}, {s("src"), src}, {s("dst"), dst}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        e.insert(it.key(), it.value());
    return e;
}

QJsonObject byId(const QString &id)
{
    return {{s("id"), id}};
}

QJsonObject byClientId(const QString &clientId)
{
    return {{s("client_id"), clientId}};
}

Result<WriteResult> write(MemoryService *svc, const RequestMeta &meta, const QJsonArray &nodes,
                          const QJsonArray &edges = {}, const QJsonObject &extra = {})
{
    QJsonObject body = Test::writeBody(nodes, edges);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        body.insert(it.key(), it.value());
    auto req = WriteRequest::fromJson(body);
    if (!req)
        return req.error();
    return svc->write(req.value(), meta);
}

QString firstNodeId(const Result<WriteResult> &w)
{
    return w && !w.value().nodes.isEmpty() ? w.value().nodes.first().id : QString();
}

std::optional<NodeRecord> stored(MemoryService *svc, const QString &id,
                                 const QString &tenant = kTenant, const QString &scope = kScope)
{
    auto d = svc->nodeDetail(tenant, scope, id);
    if (!d)
        return std::nullopt;
    return d.value().node;
}

QVector<EdgeRecord> edgesOf(MemoryService *svc, const QString &id)
{
    auto d = svc->nodeDetail(kTenant, kScope, id);
    return d ? d.value().edges : QVector<EdgeRecord>();
}

qint64 commitCount(MemoryService *svc, const QString &tenant = kTenant)
{
    auto commits = svc->listCommits(tenant, kScope, 0, 100000);
    return commits ? commits.value().size() : -1;
}

RuleStatus ruleStatus(MemoryService *svc, const QString &ruleId)
{
    auto rules = svc->listRules(kTenant, kScope);
    if (rules) {
        for (const RuleSummary &r : rules.value()) {
            if (r.node.id == ruleId)
                return r.status;
        }
    }
    return {};
}

Result<RuleStateOutcome> setState(MemoryService *svc, const RequestMeta &meta,
                                  const QString &ruleId, const QString &state)
{
    auto req = RuleStateRequest::fromJson(QJsonObject{
        {s("rule_node_id"), ruleId}, {s("state"), state}, {s("input_text"), s("state change")}});
    if (!req)
        return req.error();
    return svc->setRuleState(req.value(), meta);
}

Result<RuleFeedbackOutcome> ruleFeedback(MemoryService *svc, const RequestMeta &meta,
                                         const QString &ruleId)
{
    auto req = RuleFeedbackRequest::fromJson(QJsonObject{{s("rule_node_id"), ruleId},
                                                         {s("outcome"), s("positive")},
                                                         {s("input_text"), s("it helped")}},
                                             8000);
    if (!req)
        return req.error();
    return svc->ruleFeedback(req.value(), meta);
}

Result<NodesActivateOutcome> activate(MemoryService *svc, const RequestMeta &meta,
                                      const QJsonObject &targets)
{
    QJsonObject body = targets;
    body.insert(s("outcome"), s("positive"));
    body.insert(s("input_text"), s("used it"));
    auto req = NodesActivateRequest::fromJson(body, 8000);
    if (!req)
        return req.error();
    return svc->activateNodes(req.value(), meta);
}

Result<RehydrateOutcome> rehydrate(MemoryService *svc, const RequestMeta &meta,
                                   const QJsonObject &targets)
{
    QJsonObject body = targets;
    body.insert(s("target_tier"), s("hot"));
    body.insert(s("input_text"), s("bring it back"));
    auto req = RehydrateRequest::fromJson(body, 8000);
    if (!req)
        return req.error();
    return svc->rehydrate(req.value(), meta);
}

Result<ResolveOutcome> resolveNode(MemoryService *svc, const RequestMeta &meta, const QString &id,
                                   const QString &type = s("event"))
{
    auto req
        = ResolveRequest::fromJson(QJsonObject{{s("uri"), recordUri(kTenant, kScope, type, id)}});
    if (!req)
        return req.error();
    return svc->resolveUri(req.value(), meta);
}

QString issuePath(const Error &e)
{
    return e.details.value(s("issues")).toArray().first().toObject().value(s("path")).toString();
}

/// Two refusals are indistinguishable to the caller: same status, code, message and details.
bool sameAnswer(const Error &a, const Error &b)
{
    return a.status == b.status && a.code == b.code && a.message == b.message
           && a.details == b.details;
}

using MemoryGraph::Test::describe;
using MemoryGraph::Test::why;

QString freshId()
{
    return randomUuid();
}

} // namespace

class tst_AccessControl : public QObject
{
    Q_OBJECT

private slots:
    void rewriteOfAnInvisibleNodeByClientIdIsRefused();
    void rewriteOfAnInvisibleNodeByIdIsAnsweredLikeAnUnknownId();
    void visibleNodesMayBeRewritten();
    void contentDerivedIdsNeverReachAnotherWritersNode();
    void edgesToInvisibleNodesAreAnsweredLikeAbsentOnes();
    void idsOfOtherTenantsAndScopesAreAnsweredLikeUnknownIds();
    void replayClientIdsAreReservedForTheReplayRoutes();
    void ruleStateActsOnlyOnVisibleRules();
    void ruleFeedbackActsOnlyOnVisibleRules();
    void activateCountsInvisibleNodesAsMissing();
    void rehydrateCountsInvisibleNodesAsMissing();
    void toolFeedbackAttributesOnlyVisibleRules();
    void replayRecordsActOnlyOnVisibleRuns();
    void editAndForgetActOnlyOnVisibleNodes();
    void serviceAccountAndOperatorActOnEveryNode();
};

#define OPEN_SERVICE(name) \
    TempService name(Test::apiKeyTestEnvironment()); \
    QVERIFY2(name.isValid(), qPrintable(name.errorText()))

void tst_AccessControl::rewriteOfAnInvisibleNodeByClientIdIsRefused()
{
    OPEN_SERVICE(svc);
    auto mine = write(svc.service(), agentB(), {eventNode(s("plan"), s("b private plan"))});
    QVERIFY2(mine.ok(), why(mine));
    const QString id = firstNodeId(mine);
    const qint64 commits = commitCount(svc.service());

    auto hijack = write(svc.service(), agentA(),
                        {eventNode(s("plan"), s("hijacked"), {{s("memory_lane"), s("shared")}})});
    QVERIFY(!hijack.ok());
    QCOMPARE(hijack.error().status, 409);
    QCOMPARE(hijack.error().code, s("client_id_conflict"));
    QCOMPARE(issuePath(hijack.error()), s("nodes[0].client_id"));
    // The answer says nothing about the other node: no owner, lane, text or id.
    const QByteArray answer = describe(hijack.error());
    for (const char *secret : {"agent-b", "team-b", "private", "b private plan"})
        QVERIFY2(!answer.contains(secret), answer.constData());
    QVERIFY2(!answer.contains(id.toUtf8()), answer.constData());

    const auto node = stored(svc.service(), id);
    QVERIFY(node);
    QCOMPARE(node->ownerAgentId, s("agent-b"));
    QCOMPARE(node->memoryLane, s("private"));
    QCOMPARE(node->textSummary, s("b private plan"));
    QCOMPARE(commitCount(svc.service()), commits);

    auto read = resolveNode(svc.service(), agentA(), id);
    QVERIFY(!read.ok());
    QCOMPARE(read.error().status, 404);

    // The owner keeps writing it as before.
    auto again
        = write(svc.service(), agentB(), {eventNode(s("plan"), s("b private plan, revised"))});
    QVERIFY2(again.ok(), why(again));
    QCOMPARE(stored(svc.service(), id)->textSummary, s("b private plan, revised"));
}

void tst_AccessControl::rewriteOfAnInvisibleNodeByIdIsAnsweredLikeAnUnknownId()
{
    OPEN_SERVICE(svc);
    auto theirs = write(svc.service(), agentB(), {eventNode(s("plan"), s("b private plan"))});
    QVERIFY2(theirs.ok(), why(theirs));
    const QString id = firstNodeId(theirs);
    const qint64 commits = commitCount(svc.service());

    const auto byExplicitId = [&](const QString &nodeId) {
        return write(svc.service(), agentA(),
                     {QJsonObject{{s("id"), nodeId},
                                  {s("type"), s("event")},
                                  {s("text_summary"), s("taken over")},
                                  {s("memory_lane"), s("shared")}}});
    };
    auto invisible = byExplicitId(id);
    auto unknown = byExplicitId(freshId());
    QVERIFY(!invisible.ok());
    QVERIFY(!unknown.ok());
    QVERIFY2(sameAnswer(invisible.error(), unknown.error()),
             describe(invisible.error()) + " vs " + describe(unknown.error()));
    QCOMPARE(invisible.error().status, 400);
    QCOMPARE(issuePath(invisible.error()), s("nodes[0].id"));

    QCOMPARE(stored(svc.service(), id)->textSummary, s("b private plan"));
    QCOMPARE(stored(svc.service(), id)->memoryLane, s("private"));
    QCOMPARE(commitCount(svc.service()), commits);
}

void tst_AccessControl::visibleNodesMayBeRewritten()
{
    OPEN_SERVICE(svc);
    // Shared nodes are visible to every agent of the scope.
    auto shared
        = write(svc.service(), agentB(),
                {eventNode(s("board"), s("shared board"), {{s("memory_lane"), s("shared")}})});
    QVERIFY2(shared.ok(), why(shared));
    auto edit = write(
        svc.service(), agentA(),
        {eventNode(s("board"), s("shared board, edited by a"), {{s("memory_lane"), s("shared")}})});
    QVERIFY2(edit.ok(), why(edit));
    QCOMPARE(stored(svc.service(), firstNodeId(shared))->textSummary,
             s("shared board, edited by a"));

    // A team's private node is visible to the other members of the team.
    const RequestMeta teammate = as(s("agent-a2"), s("team-a"));
    auto team = write(
        svc.service(), teammate,
        {eventNode(s("team-notes"), s("team a notes"), {{s("owner_team_id"), s("team-a")}})});
    QVERIFY2(team.ok(), why(team));
    auto teamEdit
        = write(svc.service(), agentA(), {eventNode(s("team-notes"), s("team a notes, edited"))});
    QVERIFY2(teamEdit.ok(), why(teamEdit));

    // An explicit id of a visible node updates it.
    auto own = write(svc.service(), agentA(), {eventNode(s("own"), s("own note"))});
    QVERIFY2(own.ok(), why(own));
    auto byId = write(svc.service(), agentA(),
                      {QJsonObject{{s("id"), firstNodeId(own)},
                                   {s("type"), s("event")},
                                   {s("text_summary"), s("own note, by id")}}});
    QVERIFY2(byId.ok(), why(byId));
    QCOMPARE(firstNodeId(byId), firstNodeId(own));
    QCOMPARE(stored(svc.service(), firstNodeId(own))->textSummary, s("own note, by id"));
}

void tst_AccessControl::contentDerivedIdsNeverReachAnotherWritersNode()
{
    OPEN_SERVICE(svc);
    const QJsonObject same{{s("type"), s("event")},
                           {s("text_summary"), s("the launch code is 1234")}};
    auto theirs = write(svc.service(), agentB(), {same});
    QVERIFY2(theirs.ok(), why(theirs));
    // Writing the same content does not touch (or confirm) the other agent's private node.
    auto mine = write(svc.service(), agentA(), {same});
    QVERIFY2(mine.ok(), why(mine));
    QVERIFY(firstNodeId(mine) != firstNodeId(theirs));
    QCOMPARE(stored(svc.service(), firstNodeId(theirs))->ownerAgentId, s("agent-b"));
    QCOMPARE(stored(svc.service(), firstNodeId(mine))->ownerAgentId, s("agent-a"));
    // The id stays stable for its writer: an identical re-send is the same node.
    auto resend = write(svc.service(), agentA(), {same});
    QVERIFY2(resend.ok(), why(resend));
    QCOMPARE(firstNodeId(resend), firstNodeId(mine));
}

void tst_AccessControl::edgesToInvisibleNodesAreAnsweredLikeAbsentOnes()
{
    OPEN_SERVICE(svc);
    auto theirs = write(svc.service(), agentB(), {eventNode(s("secret"), s("b private"))});
    QVERIFY2(theirs.ok(), why(theirs));
    const QString secretId = firstNodeId(theirs);
    auto mine = write(svc.service(), agentA(), {eventNode(s("mine"), s("a note"))});
    QVERIFY2(mine.ok(), why(mine));
    const qint64 commits = commitCount(svc.service());

    const auto link = [&](const QJsonObject &dst) {
        return write(svc.service(), agentA(), {}, {edgeBetween(byClientId(s("mine")), dst)});
    };
    auto toInvisibleId = link(byId(secretId));
    auto toUnknownId = link(byId(freshId()));
    QVERIFY(!toInvisibleId.ok());
    QVERIFY(!toUnknownId.ok());
    QVERIFY2(sameAnswer(toInvisibleId.error(), toUnknownId.error()),
             describe(toInvisibleId.error()) + " vs " + describe(toUnknownId.error()));
    QCOMPARE(issuePath(toInvisibleId.error()), s("edges[0].dst.id"));

    auto toInvisibleClientId = link(byClientId(s("secret")));
    auto toUnknownClientId = link(byClientId(s("no-such-node")));
    QVERIFY(!toInvisibleClientId.ok());
    QVERIFY(!toUnknownClientId.ok());
    QCOMPARE(toInvisibleClientId.error().status, toUnknownClientId.error().status);
    QCOMPARE(toInvisibleClientId.error().code, toUnknownClientId.error().code);
    QCOMPARE(toInvisibleClientId.error().message, toUnknownClientId.error().message);
    QCOMPARE(issuePath(toInvisibleClientId.error()), s("edges[0].dst.client_id"));

    // The source side is checked the same way.
    auto fromInvisible
        = write(svc.service(), agentA(), {}, {edgeBetween(byId(secretId), byClientId(s("mine")))});
    QVERIFY(!fromInvisible.ok());
    QCOMPARE(issuePath(fromInvisible.error()), s("edges[0].src.id"));

    QVERIFY(edgesOf(svc.service(), secretId).isEmpty());
    QCOMPARE(commitCount(svc.service()), commits);
}

void tst_AccessControl::idsOfOtherTenantsAndScopesAreAnsweredLikeUnknownIds()
{
    OPEN_SERVICE(svc);
    const RequestMeta globex = as(s("agent-g"), QString(), s("globex"));
    auto foreign = write(svc.service(), globex,
                         {eventNode(s("g1"), s("globex one"), {{s("memory_lane"), s("shared")}}),
                          eventNode(s("g2"), s("globex two"), {{s("memory_lane"), s("shared")}})},
                         {edgeBetween(byClientId(s("g1")), byClientId(s("g2")))});
    QVERIFY2(foreign.ok(), why(foreign));
    const QString foreignNode = foreign.value().nodes.first().id;
    const QString foreignEdge = foreign.value().edges.first().id;
    auto otherScope = write(svc.service(), agentA(), {eventNode(s("o1"), s("other scope"))}, {},
                            {{s("scope"), s("elsewhere")}});
    QVERIFY2(otherScope.ok(), why(otherScope));
    const QString otherScopeNode = firstNodeId(otherScope);

    const auto nodeWithId = [&](const QString &id) {
        return write(svc.service(), agentA(),
                     {QJsonObject{{s("id"), id},
                                  {s("type"), s("event")},
                                  {s("text_summary"), s("collide")}}});
    };
    auto unknown = nodeWithId(freshId());
    QVERIFY(!unknown.ok());
    for (const QString &id : {foreignNode, otherScopeNode}) {
        auto answer = nodeWithId(id);
        QVERIFY(!answer.ok());
        QVERIFY2(sameAnswer(answer.error(), unknown.error()),
                 describe(answer.error()) + " vs " + describe(unknown.error()));
    }

    auto own = write(svc.service(), agentA(),
                     {eventNode(s("a1"), s("a one")), eventNode(s("a2"), s("a two"))});
    QVERIFY2(own.ok(), why(own));
    const auto edgeWithId = [&](const QString &id) {
        return write(svc.service(), agentA(), {},
                     {edgeBetween(byClientId(s("a1")), byClientId(s("a2")), {{s("id"), id}})});
    };
    auto unknownEdge = edgeWithId(freshId());
    auto foreignEdgeAnswer = edgeWithId(foreignEdge);
    QVERIFY(!unknownEdge.ok());
    QVERIFY(!foreignEdgeAnswer.ok());
    QVERIFY2(sameAnswer(foreignEdgeAnswer.error(), unknownEdge.error()),
             describe(foreignEdgeAnswer.error()) + " vs " + describe(unknownEdge.error()));
    QCOMPARE(issuePath(unknownEdge.error()), s("edges[0].id"));

    // The foreign records are untouched.
    QCOMPARE(stored(svc.service(), foreignNode, s("globex"))->textSummary, s("globex one"));
    QCOMPARE(stored(svc.service(), otherScopeNode, kTenant, s("elsewhere"))->textSummary,
             s("other scope"));

    // An edge id that names the edge being written is accepted (a re-send).
    auto created = write(svc.service(), agentA(), {},
                         {edgeBetween(byClientId(s("a1")), byClientId(s("a2")))});
    QVERIFY2(created.ok(), why(created));
    auto resent = edgeWithId(created.value().edges.first().id);
    QVERIFY2(resent.ok(), why(resent));
}

void tst_AccessControl::replayClientIdsAreReservedForTheReplayRoutes()
{
    OPEN_SERVICE(svc);
    auto node = write(svc.service(), agentA(), {eventNode(s("replay:run:0e2a"), s("forged run"))});
    QVERIFY(!node.ok());
    QCOMPARE(node.error().code, s("invalid_request"));
    QCOMPARE(issuePath(node.error()), s("nodes[0].client_id"));

    auto own = write(svc.service(), agentA(), {eventNode(s("a1"), s("a one"))});
    QVERIFY2(own.ok(), why(own));
    auto edge = write(svc.service(), agentA(), {},
                      {edgeBetween(byClientId(s("a1")), byClientId(s("replay:run:0e2a")))});
    QVERIFY(!edge.ok());
    QCOMPARE(edge.error().code, s("invalid_request"));
    QCOMPARE(issuePath(edge.error()), s("edges[0].dst.client_id"));

    // The replay routes still write their records.
    auto req = ReplayRunStartRequest::fromJson(QJsonObject{{s("goal"), s("ship it")}});
    QVERIFY(req.ok());
    auto run = svc->replayRunStart(req.value(), agentA());
    QVERIFY2(run.ok(), why(run));
}

void tst_AccessControl::ruleStateActsOnlyOnVisibleRules()
{
    OPEN_SERVICE(svc);
    auto rule = write(svc.service(), agentB(), {ruleNode(s("b-rule"))});
    QVERIFY2(rule.ok(), why(rule));
    const QString ruleId = firstNodeId(rule);
    const qint64 commits = commitCount(svc.service());

    auto invisible = setState(svc.service(), agentA(), ruleId, s("ACTIVE"));
    auto unknown = setState(svc.service(), agentA(), freshId(), s("ACTIVE"));
    QVERIFY(!invisible.ok());
    QVERIFY(!unknown.ok());
    QCOMPARE(invisible.error().status, 404);
    QVERIFY2(sameAnswer(invisible.error(), unknown.error()),
             describe(invisible.error()) + " vs " + describe(unknown.error()));
    QCOMPARE(ruleStatus(svc.service(), ruleId).state, s("shadow"));
    QCOMPARE(commitCount(svc.service()), commits);

    auto owner = setState(svc.service(), agentB(), ruleId, s("ACTIVE"));
    QVERIFY2(owner.ok(), why(owner));
    QCOMPARE(ruleStatus(svc.service(), ruleId).state, s("active"));
}

void tst_AccessControl::ruleFeedbackActsOnlyOnVisibleRules()
{
    OPEN_SERVICE(svc);
    auto rule = write(svc.service(), agentB(), {ruleNode(s("b-rule"))});
    QVERIFY2(rule.ok(), why(rule));
    const QString ruleId = firstNodeId(rule);
    const qint64 commits = commitCount(svc.service());

    auto invisible = ruleFeedback(svc.service(), agentA(), ruleId);
    auto unknown = ruleFeedback(svc.service(), agentA(), freshId());
    QVERIFY(!invisible.ok());
    QVERIFY(!unknown.ok());
    QCOMPARE(invisible.error().status, 404);
    QVERIFY2(sameAnswer(invisible.error(), unknown.error()),
             describe(invisible.error()) + " vs " + describe(unknown.error()));
    QCOMPARE(ruleStatus(svc.service(), ruleId).positive, 0);
    QCOMPARE(commitCount(svc.service()), commits);

    auto owner = ruleFeedback(svc.service(), agentB(), ruleId);
    QVERIFY2(owner.ok(), why(owner));
    QCOMPARE(ruleStatus(svc.service(), ruleId).positive, 1);
}

void tst_AccessControl::activateCountsInvisibleNodesAsMissing()
{
    OPEN_SERVICE(svc);
    auto rule = write(svc.service(), agentB(), {ruleNode(s("b-rule"))});
    QVERIFY2(rule.ok(), why(rule));
    const QString ruleId = firstNodeId(rule);
    auto own = write(svc.service(), agentA(), {eventNode(s("a1"), s("a one"))});
    QVERIFY2(own.ok(), why(own));
    const QString ownId = firstNodeId(own);

    const QString unknownId = freshId();
    auto invisible
        = activate(svc.service(), agentA(), {{s("node_ids"), QJsonArray{ruleId, ownId}}});
    auto absent
        = activate(svc.service(), agentA(), {{s("node_ids"), QJsonArray{unknownId, ownId}}});
    QVERIFY2(invisible.ok(), why(invisible));
    QVERIFY2(absent.ok(), why(absent));
    QCOMPARE(invisible.value().targets.missingNodeIds, QStringList{ruleId});
    QCOMPARE(invisible.value().updatedIds, QStringList{ownId});
    QCOMPARE(invisible.value().targets.resolvedNodeIds, absent.value().targets.resolvedNodeIds);
    QCOMPARE(invisible.value().targets.found.size(), absent.value().targets.found.size());

    // Only the invisible node: nothing found, no commit, exactly like an unknown id.
    const qint64 commits = commitCount(svc.service());
    auto onlyInvisible = activate(svc.service(), agentA(), {{s("node_ids"), QJsonArray{ruleId}}});
    QVERIFY2(onlyInvisible.ok(), why(onlyInvisible));
    QVERIFY(!onlyInvisible.value().commit);
    QCOMPARE(onlyInvisible.value().targets.missingNodeIds, QStringList{ruleId});
    QCOMPARE(commitCount(svc.service()), commits);

    // By client_id as well.
    auto byClient = activate(svc.service(), agentA(), {{s("client_ids"), QJsonArray{s("b-rule")}}});
    auto byUnknownClient
        = activate(svc.service(), agentA(), {{s("client_ids"), QJsonArray{s("no-such")}}});
    QVERIFY(!byClient.ok());
    QVERIFY(!byUnknownClient.ok());
    QCOMPARE(byClient.error().code, byUnknownClient.error().code);
    QCOMPARE(byClient.error().message, byUnknownClient.error().message);

    const auto rule0 = stored(svc.service(), ruleId);
    QVERIFY(rule0);
    QVERIFY(!rule0->slotData.contains(s("feedback_positive")));
    QVERIFY(!rule0->lastActivated.isValid());
    QCOMPARE(commitCount(svc.service()), commits);
}

void tst_AccessControl::rehydrateCountsInvisibleNodesAsMissing()
{
    OPEN_SERVICE(svc);
    auto theirs = write(svc.service(), agentB(),
                        {eventNode(s("b-old"), s("b archived"), {{s("tier"), s("cold")}})});
    QVERIFY2(theirs.ok(), why(theirs));
    const QString theirId = firstNodeId(theirs);
    const qint64 commits = commitCount(svc.service());

    auto invisible = rehydrate(svc.service(), agentA(), {{s("node_ids"), QJsonArray{theirId}}});
    QVERIFY2(invisible.ok(), why(invisible));
    QCOMPARE(invisible.value().targets.missingNodeIds, QStringList{theirId});
    QVERIFY(invisible.value().movedIds.isEmpty());
    QVERIFY(!invisible.value().commit);

    auto byClient = rehydrate(svc.service(), agentA(), {{s("client_ids"), QJsonArray{s("b-old")}}});
    auto byUnknownClient
        = rehydrate(svc.service(), agentA(), {{s("client_ids"), QJsonArray{s("no-such")}}});
    QVERIFY(!byClient.ok());
    QVERIFY(!byUnknownClient.ok());
    QCOMPARE(byClient.error().code, byUnknownClient.error().code);

    QCOMPARE(stored(svc.service(), theirId)->tier, s("cold"));
    QCOMPARE(commitCount(svc.service()), commits);

    auto owner = rehydrate(svc.service(), agentB(), {{s("node_ids"), QJsonArray{theirId}}});
    QVERIFY2(owner.ok(), why(owner));
    QCOMPARE(owner.value().movedIds, QStringList{theirId});
}

void tst_AccessControl::toolFeedbackAttributesOnlyVisibleRules()
{
    OPEN_SERVICE(svc);
    auto theirs = write(svc.service(), agentB(), {ruleNode(s("b-rule"))});
    QVERIFY2(theirs.ok(), why(theirs));
    auto mine = write(svc.service(), agentA(), {ruleNode(s("a-rule"))});
    QVERIFY2(mine.ok(), why(mine));
    const QString theirRule = firstNodeId(theirs);
    const QString myRule = firstNodeId(mine);
    QVERIFY(setState(svc.service(), agentB(), theirRule, s("ACTIVE")).ok());
    QVERIFY(setState(svc.service(), agentA(), myRule, s("ACTIVE")).ok());

    auto req = ToolFeedbackRequest::fromJson(
        QJsonObject{{s("context"), QJsonObject{{s("intent"), s("cleanup")}}},
                    {s("candidates"), QJsonArray{s("rm"), s("trash")}},
                    {s("selected_tool"), s("trash")},
                    {s("outcome"), s("positive")},
                    {s("input_text"), s("trash worked")}},
        8000);
    QVERIFY(req.ok());
    auto feedback = svc->toolFeedback(req.value(), agentA());
    QVERIFY2(feedback.ok(), why(feedback));
    QCOMPARE(feedback.value().ruleIds, QStringList{myRule});
    QCOMPARE(ruleStatus(svc.service(), theirRule).positive, 0);
    QCOMPARE(ruleStatus(svc.service(), myRule).positive, 1);
}

void tst_AccessControl::replayRecordsActOnlyOnVisibleRuns()
{
    OPEN_SERVICE(svc);
    auto startReq = ReplayRunStartRequest::fromJson(QJsonObject{{s("goal"), s("b's private run")}});
    QVERIFY(startReq.ok());
    auto run = svc->replayRunStart(startReq.value(), agentB());
    QVERIFY2(run.ok(), why(run));
    const QString runId = run.value().runId;
    const qint64 commits = commitCount(svc.service());

    auto before = ReplayStepBeforeRequest::fromJson(
        QJsonObject{{s("run_id"), runId}, {s("step_index"), 1}, {s("tool_name"), s("rm")}});
    QVERIFY(before.ok());
    auto step = svc->replayStepBefore(before.value(), agentA());
    QVERIFY(!step.ok());
    QCOMPARE(step.error().status, 404);

    auto after = ReplayStepAfterRequest::fromJson(QJsonObject{
        {s("run_id"), runId}, {s("step_id"), randomUuid()}, {s("status"), s("success")}});
    QVERIFY(after.ok());
    auto result = svc->replayStepAfter(after.value(), agentA());
    QVERIFY(!result.ok());
    QCOMPARE(result.error().status, 404);

    auto endReq = ReplayRunEndRequest::fromJson(
        QJsonObject{{s("run_id"), runId}, {s("status"), s("success")}});
    QVERIFY(endReq.ok());
    auto ended = svc->replayRunEnd(endReq.value(), agentA());
    QVERIFY(!ended.ok());
    QCOMPARE(ended.error().status, 404);

    auto restart = ReplayRunStartRequest::fromJson(
        QJsonObject{{s("goal"), s("take over")}, {s("run_id"), runId}});
    QVERIFY(restart.ok());
    auto restarted = svc->replayRunStart(restart.value(), agentA());
    QVERIFY(!restarted.ok());
    QCOMPARE(commitCount(svc.service()), commits);
}

void tst_AccessControl::editAndForgetActOnlyOnVisibleNodes()
{
    OPEN_SERVICE(svc);
    auto theirs = write(svc.service(), agentB(), {eventNode(s("b1"), s("b one"))});
    QVERIFY2(theirs.ok(), why(theirs));
    const QString id = firstNodeId(theirs);

    NodeEditRequest edit;
    edit.nodeId = id;
    edit.textSummary = s("edited by a");
    edit.inputText = s("edit");
    auto edited = svc->editNode(edit, agentA());
    QVERIFY(!edited.ok());
    QCOMPARE(edited.error().status, 404);

    NodeForgetRequest forget;
    forget.nodeId = id;
    forget.inputText = s("forget");
    auto forgotten = svc->forgetNode(forget, agentA());
    QVERIFY(!forgotten.ok());
    QCOMPARE(forgotten.error().status, 404);
    QCOMPARE(stored(svc.service(), id)->textSummary, s("b one"));
}

void tst_AccessControl::serviceAccountAndOperatorActOnEveryNode()
{
    OPEN_SERVICE(svc);
    auto theirs = write(svc.service(), agentB(), {eventNode(s("b1"), s("b one"))});
    QVERIFY2(theirs.ok(), why(theirs));
    const QString id = firstNodeId(theirs);

    // A tenant-only credential is a service account of its tenant.
    auto activated = activate(svc.service(), serviceAccount(), {{s("node_ids"), QJsonArray{id}}});
    QVERIFY2(activated.ok(), why(activated));
    QCOMPARE(activated.value().updatedIds, QStringList{id});
    auto rewritten
        = write(svc.service(), serviceAccount(), {eventNode(s("b1"), s("b one, curated"))});
    QVERIFY2(rewritten.ok(), why(rewritten));
    QCOMPARE(stored(svc.service(), id)->ownerAgentId, s("agent-b"));

    // The operator's console (no credential) edits any node.
    NodeEditRequest edit;
    edit.tenantId = kTenant;
    edit.nodeId = id;
    edit.textSummary = s("fixed by the operator");
    edit.inputText = s("edit");
    auto edited = svc->editNode(edit, RequestMeta());
    QVERIFY2(edited.ok(), why(edited));
}

QTEST_GUILESS_MAIN(tst_AccessControl)
#include "tst_accesscontrol.moc"
