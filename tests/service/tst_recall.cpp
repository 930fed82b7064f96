#include "service/core/ids.h"
#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <cmath>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;

namespace {

/// A unit vector pointing mostly along axis `axis`, tilted slightly towards `tilt`.
QJsonArray vec(int axis, int tilt = -1, double amount = 0.0)
{
    QJsonArray a;
    for (int i = 0; i < 1536; ++i)
        a.append(i == axis ? 1.0 : i == tilt ? amount : 0.0);
    return a;
}

QVector<float> query(int axis, int tilt = -1, double amount = 0.0)
{
    QVector<float> q(1536, 0.0f);
    q[axis] = 1.0f;
    if (tilt >= 0)
        q[tilt] = float(amount);
    return q;
}

QJsonObject vnode(const QString &cid, const QString &type, const QString &summary,
                  const QJsonArray &v, const QJsonObject &extra = {})
{
    QJsonObject n{{QStringLiteral("client_id"), cid},
                  {QStringLiteral("type"), type},
                  {QStringLiteral("text_summary"), summary},
                  {QStringLiteral("title"), cid},
                  {QStringLiteral("embedding"), v},
                  {QStringLiteral("memory_lane"), QStringLiteral("shared")}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        n.insert(it.key(), it.value());
    return n;
}

QJsonObject link(const QString &type, const QString &a, const QString &b, double w = 0.9,
                 double c = 0.9)
{
    return {{QStringLiteral("type"), type},
            {QStringLiteral("src"), QJsonObject{{QStringLiteral("client_id"), a}}},
            {QStringLiteral("dst"), QJsonObject{{QStringLiteral("client_id"), b}}},
            {QStringLiteral("weight"), w},
            {QStringLiteral("confidence"), c}};
}

bool write(MemoryService *svc, const QJsonArray &nodes, const QJsonArray &edges = {},
           RequestMeta meta = {})
{
    auto req = WriteRequest::fromJson(Test::writeBody(nodes, edges));
    if (!req)
        return false;
    auto r = svc->write(req.value(), meta);
    if (!r)
        qWarning() << r.error().message;
    return r.ok();
}

RecallRequest request(const QVector<float> &q, const QJsonObject &extra = {})
{
    QJsonArray a;
    for (float f : q)
        a.append(double(f));
    QJsonObject body = extra;
    body.insert(QStringLiteral("query_embedding"), a);
    auto r = RecallRequest::fromJson(body, false, 8000);
    if (!r)
        qWarning() << r.error().message;
    return r.value();
}

QStringList seedTitles(const RecallOutcome &o)
{
    QStringList t;
    for (const RecallSeed &s : o.seeds)
        t << s.node.title;
    return t;
}

QStringList nodeTitles(const RecallOutcome &o)
{
    QStringList t;
    for (const NodeRecord &n : o.nodes)
        t << n.title;
    return t;
}

} // namespace

class tst_Recall : public QObject
{
    Q_OBJECT

private slots:
    void seedsAreOrderedBySimilarity();
    void onlyHotAndWarmReadyNodesSeed();
    void privateNodesFollowLaneVisibility();
    void neighboursAreActivatedThroughEdges();
    void edgeFloorsFilterNeighbourhood();
    void draftTopicsAreNotScoredButJoinTheSubgraph();
    void subgraphRespectsCaps();
    void contextTextHasSectionsAndCitations();
    void compressionRollupReplacesCitedEvents();
    void budgetCompactsTextButKeepsItems();
    void profilesAndPolicyResolveKnobs();
    void debugEmbeddingsNeedAuthorisationAndSmallLimit();
    void recallTextEmbedsTheQuery();
    void recallTextWithoutProviderIsRejected();
    void tenantsDoNotSeeEachOther();
    void indexSurvivesRestart();
};

void tst_Recall::seedsAreOrderedBySimilarity()
{
    TempService svc;
    QVERIFY(
        write(svc.service(), {vnode("a", "event", "A", vec(0)), vnode("b", "event", "B", vec(1)),
                              vnode("ab", "event", "AB", vec(0, 1, 0.5))}));
    auto r = svc->recall(request(query(0)), {});
    QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
    QCOMPARE(seedTitles(r.value()).mid(0, 2), (QStringList{"a", "ab"}));
    QVERIFY(std::abs(r.value().seeds.first().similarity - 1.0) < 1e-4);
    QVERIFY(r.value().seeds.at(1).similarity < 1.0 && r.value().seeds.at(1).similarity > 0.8);
}

void tst_Recall::onlyHotAndWarmReadyNodesSeed()
{
    TempService svc;
    QVERIFY(
        write(svc.service(), {vnode("hot", "event", "h", vec(0)),
                              vnode("warm", "event", "w", vec(0, 1, 0.1), {{"tier", "warm"}}),
                              vnode("cold", "event", "c", vec(0, 2, 0.1), {{"tier", "cold"}}),
                              vnode("arch", "event", "x", vec(0, 3, 0.1), {{"tier", "archive"}}),
                              vnode("ev", "evidence", "e", vec(0, 4, 0.1))}));
    auto r = svc->recall(request(query(0)), {});
    QVERIFY(r.ok());
    QStringList seeds = seedTitles(r.value());
    seeds.sort();
    QCOMPARE(seeds, (QStringList{"hot", "warm"}));
}

void tst_Recall::privateNodesFollowLaneVisibility()
{
    TempService svc;
    QVERIFY(write(
        svc.service(),
        {vnode("shared", "event", "s", vec(0)),
         vnode("mine", "event", "m", vec(0, 1, 0.1),
               {{"memory_lane", "private"}, {"owner_agent_id", "agent-a"}}),
         vnode("team", "event", "t", vec(0, 2, 0.1),
               {{"memory_lane", "private"}, {"owner_agent_id", "x"}, {"owner_team_id", "blue"}})}));
    const auto seen = [&svc](const QJsonObject &who) {
        auto r = svc->recall(request(query(0), who), {});
        QStringList t = r ? seedTitles(r.value()) : QStringList{QStringLiteral("error")};
        t.sort();
        return t;
    };
    QCOMPARE(seen({{"consumer_agent_id", "agent-a"}}), (QStringList{"mine", "shared"}));
    QCOMPARE(seen({{"consumer_agent_id", "agent-b"}}), (QStringList{"shared"}));
    QCOMPARE(seen({{"consumer_agent_id", "agent-b"}, {"consumer_team_id", "blue"}}),
             (QStringList{"shared", "team"}));
}

void tst_Recall::neighboursAreActivatedThroughEdges()
{
    TempService svc;
    QVERIFY(write(svc.service(),
                  {vnode("seed", "event", "s", vec(0)), vnode("near", "entity", "n", vec(5)),
                   vnode("far", "entity", "f", vec(6))},
                  {link("derived_from", "seed", "near"), link("related_to", "near", "far")}));
    auto r = svc->recall(request(query(0), {{"limit", 1}}), {});
    QVERIFY(r.ok());
    const RecallOutcome &o = r.value();
    QCOMPARE(seedTitles(o), (QStringList{"seed"}));
    QCOMPARE(nodeTitles(o), (QStringList{"seed", "near", "far"}));
    QCOMPARE(o.ranked.size(), 3);
    // a(seed) = 0.75*1 + 0.25*0.5; a(near) = a(seed)*1.0*0.81*0.5; a(far) = a(near)*0.6*0.81*0.5
    const double aSeed = 0.875;
    const double aNear = aSeed * 0.81 * 0.5;
    QVERIFY(std::abs(o.ranked.at(0).activation - aSeed) < 1e-6);
    QVERIFY(std::abs(o.ranked.at(1).activation - aNear) < 1e-6);
    QVERIFY(std::abs(o.ranked.at(2).activation - aNear * 0.6 * 0.81 * 0.5) < 1e-6);
    QVERIFY(std::abs(o.ranked.at(0).score - (0.7 * aSeed + 0.15 * 0.5 + 0.15 * 0.5)) < 1e-6);
    QCOMPARE(o.edges.size(), 2);
    // One hop stops at the direct neighbour.
    auto oneHop = svc->recall(request(query(0), {{"limit", 1}, {"neighborhood_hops", 1}}), {});
    QCOMPARE(nodeTitles(oneHop.value()), (QStringList{"seed", "near"}));
}

void tst_Recall::edgeFloorsFilterNeighbourhood()
{
    TempService svc;
    QVERIFY(write(svc.service(),
                  {vnode("seed", "event", "s", vec(0)), vnode("weak", "entity", "w", vec(5))},
                  {link("part_of", "seed", "weak", 0.1, 0.9)}));
    auto strict = svc->recall(request(query(0), {{"limit", 1}}), {}); // strict_edges: 0.2 floors
    QCOMPARE(nodeTitles(strict.value()), (QStringList{"seed"}));
    auto loose = svc->recall(request(query(0), {{"limit", 1}, {"min_edge_weight", 0.05}}), {});
    QCOMPARE(nodeTitles(loose.value()), (QStringList{"seed", "weak"}));
}

void tst_Recall::draftTopicsAreNotScoredButJoinTheSubgraph()
{
    TempService svc;
    QVERIFY(write(svc.service(),
                  {vnode("seed", "event", "s", vec(0)),
                   vnode("draft", "topic", "d", vec(0, 1, 0.2),
                         {{"slots", QJsonObject{{"topic_state", "draft"}}}})},
                  {link("part_of", "seed", "draft")}));
    auto r = svc->recall(request(query(0)), {});
    QVERIFY(r.ok());
    QCOMPARE(seedTitles(r.value()), (QStringList{"seed"}));
    QCOMPARE(r.value().ranked.size(), 1);
    QCOMPARE(nodeTitles(r.value()), (QStringList{"seed", "draft"}));
}

void tst_Recall::subgraphRespectsCaps()
{
    TempService svc;
    QJsonArray nodes{vnode("hub", "event", "hub", vec(0))};
    QJsonArray edges;
    for (int i = 0; i < 30; ++i) {
        const QString id = QStringLiteral("leaf%1").arg(i);
        nodes.append(vnode(id, "entity", id, vec(10 + i)));
        edges.append(link("related_to", "hub", id, 0.5 + i / 100.0, 0.9));
    }
    QVERIFY(write(svc.service(), nodes, edges));
    auto r = svc->recall(
        request(query(0), {{"limit", 1}, {"max_nodes", 10}, {"max_edges", 5}, {"ranked_limit", 7}}),
        {});
    QVERIFY(r.ok());
    QCOMPARE(r.value().nodes.size(), 10);
    QCOMPARE(r.value().edges.size(), 5);
    QCOMPARE(r.value().ranked.size(), 7);
    // The strongest edges win.
    QVERIFY(r.value().edges.first().weight >= r.value().edges.last().weight);
    QCOMPARE(r.value().edges.first().weight, 0.79);
}

void tst_Recall::contextTextHasSectionsAndCitations()
{
    TempService svc;
    QVERIFY(write(
        svc.service(),
        {vnode("Billing", "topic", "payments and invoices", vec(0)),
         vnode("Acme", "entity", "a customer", vec(0, 1, 0.3)),
         vnode("incident", "event", "invoice email bounced", vec(0, 2, 0.3),
               {{"raw_ref", "log://1"}}),
         vnode("rule1", "rule", "retry emails", vec(0, 3, 0.3),
               {{"slots",
                 QJsonObject{
                     {"if_json", QJsonObject{{"intent", "email"}}},
                     {"then_json",
                      QJsonObject{{"tool", QJsonObject{{"prefer", QJsonArray{"mailer"}}}}}}}}})}));
    auto r = svc->recall(request(query(0)), {});
    QVERIFY(r.ok());
    const QString text = r.value().context.text;
    const QStringList blocks = text.split(QStringLiteral("\n\n"));
    QCOMPARE(blocks.size(), 4);
    QVERIFY(blocks.at(0).startsWith(
        QStringLiteral("# Topics / Concepts\n- Billing: payments and invoices (node:")));
    QVERIFY(blocks.at(1).startsWith(QStringLiteral("# Entities\n- Acme: a customer (node:")));
    QVERIFY(blocks.at(2).contains(QStringLiteral("- invoice email bounced (node:")));
    QVERIFY(blocks.at(2).contains(QStringLiteral(", raw_ref=log://1)")));
    // A new rule is in shadow; its state comes from the rule's status, not from slots.
    QVERIFY2(
        blocks.at(3).startsWith(QStringLiteral("# Applicable Rules (Shadow/Active)\n- state=shadow "
                                               "scope=global pos=0 neg=0 summary=retry emails")),
        qPrintable(blocks.at(3)));
    QVERIFY(blocks.at(3).contains(QStringLiteral("\n  if={\"intent\":\"email\"}")));
    QVERIFY(!text.endsWith(QLatin1Char('\n')));
    // Activating the rule shows up in the next recall's context.
    const QString ruleId
        = r.value().context.items.last().toObject().value(QStringLiteral("node_id")).toString();
    RuleStateRequest activate;
    activate.ruleNodeId = ruleId;
    activate.state = QStringLiteral("active");
    activate.inputText = QStringLiteral("activate");
    QVERIFY(svc->setRuleState(activate, {}).ok());
    auto again = svc->recall(request(query(0)), {});
    QVERIFY(again.ok());
    QVERIFY2(again.value().context.text.contains(QStringLiteral("- state=active scope=global")),
             qPrintable(again.value().context.text));
    QCOMPARE(
        again.value().context.items.last().toObject().value(QStringLiteral("state")).toString(),
        QStringLiteral("active"));

    QCOMPARE(r.value().context.items.size(), 4);
    QCOMPARE(r.value().context.citations.size(), 4);
    QCOMPARE(r.value().context.items.at(0).toObject().value("kind").toString(),
             QStringLiteral("topic"));
    QCOMPARE(r.value().context.items.at(3).toObject().value("kind").toString(),
             QStringLiteral("rule"));
}

void tst_Recall::compressionRollupReplacesCitedEvents()
{
    TempService svc;
    QVERIFY(write(svc.service(), {vnode("e1", "event", "first event", vec(0, 1, 0.1)),
                                  vnode("e2", "event", "second event", vec(0, 2, 0.1)),
                                  vnode("e3", "event", "third event", vec(0, 3, 0.1))}));
    const QString e1 = stableUuid(QStringLiteral("default:node:e1"));
    const QString e2 = stableUuid(QStringLiteral("default:node:e2"));
    const QJsonArray citations{QJsonObject{{"node_id", e1}}, QJsonObject{{"node_id", e2}}};
    QJsonObject rollup{{"summary_kind", "compression_rollup"},
                       {"source_event_count", 2},
                       {"citations", citations}};
    QJsonObject extra;
    extra.insert(QStringLiteral("slots"), rollup);
    QVERIFY(write(svc.service(), {vnode("rollup", "concept", "two events", vec(0), extra)}));
    auto r = svc->recall(request(query(0)), {});
    QVERIFY(r.ok());
    const QString text = r.value().context.text;
    QVERIFY2(text.contains(QStringLiteral("(node:%1, compression, covers=2)")
                               .arg(stableUuid(QStringLiteral("default:node:rollup")))),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("  evidence_node=") + e1));
    QVERIFY(!text.contains(QStringLiteral("first event")));
    QVERIFY(text.contains(QStringLiteral("third event")));
}

void tst_Recall::budgetCompactsTextButKeepsItems()
{
    TempService svc;
    QJsonArray nodes;
    for (int i = 0; i < 10; ++i)
        nodes.append(
            vnode(QStringLiteral("event%1").arg(i), "event",
                  QStringLiteral("a fairly long event summary number %1 with details").arg(i),
                  vec(0, 20 + i, 0.1)));
    nodes.append(vnode("topic", "topic", "the topic", vec(0)));
    QVERIFY(write(svc.service(), nodes));
    auto full = svc->recall(request(query(0), {{"return_debug", true}}), {});
    auto compact = svc->recall(
        request(query(0), {{"return_debug", true}, {"context_char_budget", 300}}), {});
    QVERIFY(full.ok() && compact.ok());
    QVERIFY(full.value().context.text.size() > 300);
    QVERIFY(compact.value().context.text.size() <= 300);
    QVERIFY(compact.value().context.text.contains(
        QStringLiteral("# Topics / Concepts"))); // topics kept first
    QCOMPARE(compact.value().context.items.size(), full.value().context.items.size());
    QCOMPARE(compact.value().context.citations.size(), full.value().context.citations.size());
    const QJsonObject stats = compact.value().context.compaction;
    QCOMPARE(stats.value("applied").toBool(), true);
    QCOMPARE(stats.value("char_budget").toInt(), 300);
    QVERIFY(stats.value("dropped_lines").toInt() > 0);
    QCOMPARE(stats.value("dropped_by_section").toObject().value("events").toInt(),
             stats.value("dropped_lines").toInt());
    QCOMPARE(stats.value("after_chars").toInt(), compact.value().context.text.size());
    // A token budget below the floor uses 160 characters.
    auto tiny
        = svc->recall(request(query(0), {{"return_debug", true}, {"context_token_budget", 1}}), {});
    QCOMPARE(tiny.value().context.compaction.value("char_budget").toInt(), 160);
}

void tst_Recall::profilesAndPolicyResolveKnobs()
{
    ServiceConfig c;
    RecallRequest none;
    QCOMPARE(resolveRecallKnobs(none, "t", "recall", c, 0).knobs.limit, 24);
    c.recallProfile = QStringLiteral("legacy");
    QCOMPARE(resolveRecallKnobs(none, "t", "recall", c, 0).knobs.maxNodes, 50);
    c.recallProfilePolicy = QJsonDocument::fromJson(R"({"endpoint":{"recall_text":"quality_first"},
        "tenant_default":{"acme":"strict_edges"},"tenant_endpoint":{"acme":{"recall":"quality_first"}}})")
                                .object();
    QCOMPARE(resolveRecallKnobs(none, "acme", "recall", c, 0).profile,
             QStringLiteral("quality_first"));
    QCOMPARE(resolveRecallKnobs(none, "acme", "recall", c, 0).profileSource,
             QStringLiteral("tenant_endpoint"));
    QCOMPARE(resolveRecallKnobs(none, "acme", "recall_text", c, 0).profile,
             QStringLiteral("strict_edges"));
    QCOMPARE(resolveRecallKnobs(none, "other", "recall_text", c, 0).profile,
             QStringLiteral("quality_first"));
    QCOMPARE(resolveRecallKnobs(none, "other", "recall", c, 0).profile, QStringLiteral("legacy"));
    // Adaptive downgrade only under queue pressure and only without pinned knobs.
    c.adaptiveDowngrade = true;
    c.adaptiveWaitMs = 100;
    c.adaptiveTargetProfile = QStringLiteral("strict_edges");
    QCOMPARE(resolveRecallKnobs(none, "other", "recall", c, 150).profile,
             QStringLiteral("strict_edges"));
    QVERIFY(resolveRecallKnobs(none, "other", "recall", c, 150).adaptiveApplied);
    QCOMPARE(resolveRecallKnobs(none, "other", "recall", c, 50).profile, QStringLiteral("legacy"));
    RecallRequest pinned;
    pinned.limit = 7;
    const ResolvedKnobs p = resolveRecallKnobs(pinned, "other", "recall", c, 150);
    QCOMPARE(p.profile, QStringLiteral("legacy"));
    QCOMPARE(p.knobs.limit, 7);
    QCOMPARE(p.knobs.maxNodes, 50);
}

void tst_Recall::debugEmbeddingsNeedAuthorisationAndSmallLimit()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("ADMIN_TOKEN"), QStringLiteral("secret"));
    TempService svc(env);
    QVERIFY(write(svc.service(), {vnode("a", "event", "A", vec(0, 1, 0.25))}));
    const QJsonObject ask{{"return_debug", true}, {"include_embeddings", true}, {"limit", 5}};
    RequestMeta anon;
    auto refused = svc->recall(request(query(0), ask), anon);
    QVERIFY(!refused.ok());
    QCOMPARE(refused.error().code, QStringLiteral("debug_embeddings_not_allowed"));
    RequestMeta admin;
    admin.adminAuthorized = true;
    auto ok = svc->recall(request(query(0), ask), admin);
    QVERIFY(ok.ok());
    QCOMPARE(ok.value().debugEmbeddings.size(), 1);
    const QJsonObject e = ok.value().debugEmbeddings.first().toObject();
    QCOMPARE(e.value("preview").toArray().size(), 16);
    QCOMPARE(e.value("preview").toArray().at(1).toDouble(), 0.25);
    QCOMPARE(e.value("sha256").toString().size(), 64);
    QCOMPARE(e.value("dims").toInt(), 1536);
    QJsonObject big = ask;
    big.insert("limit", 21);
    QCOMPARE(svc->recall(request(query(0), big), admin).error().code,
             QStringLiteral("debug_embeddings_limit_too_high"));
    QJsonObject noDebug{{"include_embeddings", true}};
    QCOMPARE(svc->recall(request(query(0), noDebug), admin).error().code,
             QStringLiteral("debug_embeddings_requires_return_debug"));
}

void tst_Recall::recallTextEmbedsTheQuery()
{
    TempService svc; // local provider
    const auto textNode = [](const char *cid, const char *summary) {
        return QJsonObject{{"client_id", cid},
                           {"type", "event"},
                           {"text_summary", summary},
                           {"memory_lane", "shared"}};
    };
    QVERIFY(
        write(svc.service(), {textNode("dark", "the user prefers dark mode in the editor"),
                              textNode("revenue", "quarterly revenue grew in Europe"),
                              textNode("deploy", "deploy the service to the staging cluster")}));
    QVERIFY(svc->waitForEmbeddings(10000));
    auto req = RecallRequest::fromJson(
        {{"query_text", "  which editor theme does the user like,  dark? "}}, true, 8000);
    QVERIFY(req.ok());
    auto r = svc->recallText(req.value(), {});
    QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
    QVERIFY(!r.value().seeds.isEmpty());
    QCOMPARE(r.value().seeds.first().node.textSummary,
             QStringLiteral("the user prefers dark mode in the editor"));
    QCOMPARE(r.value().queryText, QStringLiteral("which editor theme does the user like, dark?"));
    QCOMPARE(r.value().embeddingProvider, QStringLiteral("local:hashing-v2"));
}

void tst_Recall::recallTextWithoutProviderIsRejected()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    TempService svc(env);
    auto req = RecallRequest::fromJson({{"query_text", "anything"}}, true, 8000);
    auto r = svc->recallText(req.value(), {});
    QVERIFY(!r.ok());
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().code, QStringLiteral("no_embedding_provider"));
}

void tst_Recall::tenantsDoNotSeeEachOther()
{
    TempService svc;
    RequestMeta a;
    a.headerTenant = QStringLiteral("a");
    RequestMeta b;
    b.headerTenant = QStringLiteral("b");
    QVERIFY(write(svc.service(), {vnode("x", "event", "tenant a", vec(0))}, {}, a));
    auto fromB = svc->recall(request(query(0)), b);
    QVERIFY(fromB.ok());
    QCOMPARE(fromB.value().seeds.size(), 0);
    QCOMPARE(fromB.value().context.text, QString());
    auto fromA = svc->recall(request(query(0)), a);
    QCOMPARE(fromA.value().seeds.size(), 1);
}

void tst_Recall::indexSurvivesRestart()
{
    TempService svc;
    QJsonArray nodes;
    for (int i = 0; i < 50; ++i)
        nodes.append(
            vnode(QStringLiteral("n%1").arg(i), "event", QStringLiteral("n%1").arg(i), vec(i)));
    QVERIFY(write(svc.service(), nodes));
    QVERIFY(svc->recall(request(query(7)), {}).ok());
    QVERIFY(svc.reopen()); // saves the index on close, loads it on first use
    auto r = svc->recall(request(query(7)), {});
    QVERIFY(r.ok());
    QCOMPARE(r.value().seeds.first().node.title, QStringLiteral("n7"));
    // A write after the restart is recallable at once.
    QVERIFY(write(svc.service(), {vnode("late", "event", "late", vec(100))}));
    auto late = svc->recall(request(query(100)), {});
    QCOMPARE(late.value().seeds.first().node.title, QStringLiteral("late"));
}

QTEST_GUILESS_MAIN(tst_Recall)
#include "tst_recall.moc"
