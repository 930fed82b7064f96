// The graph view's overview read, MemoryService::salientNodes: a scope's most salient nodes in
// batches (most salient first, then the most recently changed), the edges among what the
// batches drew, walls between tenants and scopes, and every lane (the operator's view, as the
// other console reads).

#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QSet>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;
using MemoryGraph::Test::why;

namespace {

const QString kTenant = QStringLiteral("acme");
const QString kScope = QStringLiteral("default");

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

QJsonObject node(const QString &clientId, double salience, const QJsonObject &extra = {})
{
    QJsonObject n{{s("client_id"), clientId}, {s("type"), s("event")},
                  {s("title"), clientId},     {s("text_summary"), s("about ") + clientId},
                  {s("salience"), salience},  {s("memory_lane"), s("shared")}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        n.insert(it.key(), it.value());
    return n;
}

QJsonObject edge(const QString &from, const QString &to)
{
    return {{s("type"), s("related_to")},
            {s("src"), QJsonObject{{s("client_id"), from}}},
            {s("dst"), QJsonObject{{s("client_id"), to}}}};
}

Result<WriteResult> write(MemoryService *svc, const RequestMeta &meta, const QJsonArray &nodes,
                          const QJsonArray &edges = {}, const QString &scope = kScope)
{
    QJsonObject body = Test::writeBody(nodes, edges);
    body.insert(s("scope"), scope);
    auto request = WriteRequest::fromJson(body);
    if (!request)
        return request.error();
    return svc->write(request.value(), meta);
}

const RequestMeta &alice()
{
    static const RequestMeta meta = Test::credentialAs(s("alice"), s("team-a"));
    return meta;
}

QStringList clientIds(const SalientNodePage &page)
{
    QStringList ids;
    for (const NodeRecord &n : page.nodes)
        ids << n.clientId;
    return ids;
}

/// Edges as "from>to" by client id, sorted.
QStringList edgeNames(MemoryService *svc, const SalientNodePage &page)
{
    QStringList names;
    for (const EdgeRecord &e : page.edges) {
        const auto from = svc->nodeDetail(e.tenantId, e.scope, e.fromId);
        const auto to = svc->nodeDetail(e.tenantId, e.scope, e.toId);
        names << (from ? from.value().node.clientId : e.fromId) + QLatin1Char('>')
                     + (to ? to.value().node.clientId : e.toId);
    }
    names.sort();
    return names;
}

} // namespace

#define OPEN_SERVICE(name) \
    TempService name(Test::apiKeyTestEnvironment()); \
    QVERIFY2(name.isValid(), qPrintable(name.errorText()))

class tst_SalientNodes : public QObject
{
    Q_OBJECT

private slots:
    void mostSalientComeFirst();
    void batchesFollowOneAnotherUpToTheEnd();
    void edgesJoinABatchToWhatIsDrawn();
    void otherTenantsAndScopesStayOut();
    void everyLaneIsListed();
    void emptyScopeHasNoNodes();
};

void tst_SalientNodes::mostSalientComeFirst()
{
    OPEN_SERVICE(svc);
    auto first = write(svc.service(), alice(),
                       {node(s("low"), 0.1), node(s("top"), 0.95), node(s("mid"), 0.5),
                        node(s("tie-old"), 0.7), node(s("high"), 0.8)});
    QVERIFY2(first.ok(), why(first));
    // Written later with the same salience: the more recently changed node ranks first.
    auto later = write(svc.service(), alice(), {node(s("tie-new"), 0.7)});
    QVERIFY2(later.ok(), why(later));

    const auto page = svc->salientNodes(kTenant, kScope, 0, 25);
    QVERIFY2(page.ok(), why(page));
    QCOMPARE(page.value().total, qint64(6));
    QCOMPARE(clientIds(page.value()),
             (QStringList{s("top"), s("high"), s("tie-new"), s("tie-old"), s("mid"), s("low")}));
    const QVector<NodeRecord> &nodes = page.value().nodes;
    for (int i = 1; i < nodes.size(); ++i)
        QVERIFY(nodes.at(i - 1).salience >= nodes.at(i).salience);
}

void tst_SalientNodes::batchesFollowOneAnotherUpToTheEnd()
{
    OPEN_SERVICE(svc);
    QJsonArray nodes;
    for (int i = 0; i < 30; ++i)
        nodes.append(node(QStringLiteral("n%1").arg(i, 2, 10, QLatin1Char('0')), 0.01 * (i + 1)));
    auto written = write(svc.service(), alice(), nodes);
    QVERIFY2(written.ok(), why(written));

    const auto first = svc->salientNodes(kTenant, kScope, 0, 25);
    QVERIFY2(first.ok(), why(first));
    QCOMPARE(first.value().nodes.size(), 25);
    QCOMPARE(first.value().total, qint64(30));
    QCOMPARE(first.value().nodes.first().clientId, s("n29"));
    QCOMPARE(first.value().nodes.last().clientId, s("n05"));

    const auto second = svc->salientNodes(kTenant, kScope, 25, 25);
    QVERIFY2(second.ok(), why(second));
    QCOMPARE(clientIds(second.value()),
             (QStringList{s("n04"), s("n03"), s("n02"), s("n01"), s("n00")}));
    QCOMPARE(second.value().total, qint64(30));

    const auto past = svc->salientNodes(kTenant, kScope, 30, 25);
    QVERIFY2(past.ok(), why(past));
    QVERIFY(past.value().nodes.isEmpty());
    QVERIFY(past.value().edges.isEmpty());

    // The batch size is clamped: never zero, never above the facade's cap.
    const auto atLeastOne = svc->salientNodes(kTenant, kScope, 0, 0);
    QVERIFY2(atLeastOne.ok(), why(atLeastOne));
    QCOMPARE(clientIds(atLeastOne.value()), QStringList{s("n29")});
    const auto negative = svc->salientNodes(kTenant, kScope, -5, 2);
    QVERIFY2(negative.ok(), why(negative));
    QCOMPARE(clientIds(negative.value()), (QStringList{s("n29"), s("n28")}));
}

void tst_SalientNodes::edgesJoinABatchToWhatIsDrawn()
{
    OPEN_SERVICE(svc);
    // Ranks: a b c d e (salience descending).
    auto written = write(svc.service(), alice(),
                         {node(s("a"), 0.9), node(s("b"), 0.8), node(s("c"), 0.7),
                          node(s("d"), 0.6), node(s("e"), 0.5)},
                         {edge(s("a"), s("b")), edge(s("c"), s("a")), edge(s("c"), s("d")),
                          edge(s("d"), s("e")), edge(s("b"), s("e"))});
    QVERIFY2(written.ok(), why(written));

    const auto first = svc->salientNodes(kTenant, kScope, 0, 2);
    QVERIFY2(first.ok(), why(first));
    QCOMPARE(edgeNames(svc.service(), first.value()), QStringList{s("a>b")});

    // The next batch brings its own edges and those back to the first batch, not those to e.
    const auto second = svc->salientNodes(kTenant, kScope, 2, 2);
    QVERIFY2(second.ok(), why(second));
    QCOMPARE(clientIds(second.value()), (QStringList{s("c"), s("d")}));
    QCOMPARE(edgeNames(svc.service(), second.value()), (QStringList{s("c>a"), s("c>d")}));

    const auto last = svc->salientNodes(kTenant, kScope, 4, 2);
    QVERIFY2(last.ok(), why(last));
    QCOMPARE(edgeNames(svc.service(), last.value()), (QStringList{s("b>e"), s("d>e")}));

    // One batch over everything has every edge once.
    const auto all = svc->salientNodes(kTenant, kScope, 0, 25);
    QVERIFY2(all.ok(), why(all));
    QCOMPARE(all.value().edges.size(), 5);
}

void tst_SalientNodes::otherTenantsAndScopesStayOut()
{
    OPEN_SERVICE(svc);
    auto mine = write(svc.service(), alice(), {node(s("mine"), 0.2), node(s("also-mine"), 0.3)},
                      {edge(s("mine"), s("also-mine"))});
    QVERIFY2(mine.ok(), why(mine));
    // More salient nodes elsewhere, with the same client ids and edges of their own.
    auto otherScope
        = write(svc.service(), alice(), {node(s("mine"), 0.99), node(s("elsewhere"), 0.98)},
                {edge(s("mine"), s("elsewhere"))}, s("other"));
    QVERIFY2(otherScope.ok(), why(otherScope));
    const RequestMeta globex = Test::credentialAs(s("agent-g"), QString(), s("globex"));
    auto otherTenant
        = write(svc.service(), globex, {node(s("mine"), 0.97), node(s("foreign"), 0.96)},
                {edge(s("mine"), s("foreign"))});
    QVERIFY2(otherTenant.ok(), why(otherTenant));

    const auto page = svc->salientNodes(kTenant, kScope, 0, 25);
    QVERIFY2(page.ok(), why(page));
    QCOMPARE(page.value().total, qint64(2));
    QCOMPARE(clientIds(page.value()), (QStringList{s("also-mine"), s("mine")}));
    for (const NodeRecord &n : page.value().nodes) {
        QCOMPARE(n.tenantId, kTenant);
        QCOMPARE(n.scope, kScope);
    }
    QCOMPARE(page.value().edges.size(), 1);
    QCOMPARE(page.value().edges.first().scope, kScope);
    QCOMPARE(page.value().edges.first().tenantId, kTenant);

    const auto foreign = svc->salientNodes(s("globex"), kScope, 0, 25);
    QVERIFY2(foreign.ok(), why(foreign));
    QCOMPARE(clientIds(foreign.value()), (QStringList{s("mine"), s("foreign")}));
}

void tst_SalientNodes::everyLaneIsListed()
{
    OPEN_SERVICE(svc);
    // Private to alice, to bob, to bob's team, and shared: the operator console sees them all,
    // as the Memory page's table and the neighbourhood do.
    auto aliceWrites
        = write(svc.service(), alice(),
                {node(s("alice-private"), 0.9,
                      {{s("memory_lane"), s("private")}, {s("owner_agent_id"), s("alice")}}),
                 node(s("shared"), 0.6)});
    QVERIFY2(aliceWrites.ok(), why(aliceWrites));
    const RequestMeta bob = Test::credentialAs(s("bob"), s("team-b"));
    auto bobWrites
        = write(svc.service(), bob,
                {node(s("bob-private"), 0.8,
                      {{s("memory_lane"), s("private")}, {s("owner_agent_id"), s("bob")}}),
                 node(s("bob-team"), 0.7,
                      {{s("memory_lane"), s("private")}, {s("owner_team_id"), s("team-b")}})});
    QVERIFY2(bobWrites.ok(), why(bobWrites));

    const auto page = svc->salientNodes(kTenant, kScope, 0, 25);
    QVERIFY2(page.ok(), why(page));
    QCOMPARE(clientIds(page.value()),
             (QStringList{s("alice-private"), s("bob-private"), s("bob-team"), s("shared")}));
    QSet<QString> lanes;
    for (const NodeRecord &n : page.value().nodes)
        lanes.insert(n.memoryLane);
    QCOMPARE(lanes, (QSet<QString>{s("private"), s("shared")}));

    // The same nodes as the node table lists for the scope.
    NodeQuery query;
    query.tenantId = kTenant;
    query.scope = kScope;
    const auto listed = svc->listNodes(query);
    QVERIFY2(listed.ok(), why(listed));
    QCOMPARE(listed.value().total, page.value().total);
}

void tst_SalientNodes::emptyScopeHasNoNodes()
{
    OPEN_SERVICE(svc);
    const auto page = svc->salientNodes(kTenant, kScope, 0, 25);
    QVERIFY2(page.ok(), why(page));
    QCOMPARE(page.value().total, qint64(0));
    QVERIFY(page.value().nodes.isEmpty());
    QVERIFY(page.value().edges.isEmpty());
}

QTEST_GUILESS_MAIN(tst_SalientNodes)
#include "tst_salientnodes.moc"
