#include "service/tools/nodefeedback.h"
#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;

namespace {

constexpr int kDim = 1536;

/// A unit vector along axis `axis`, so every test node has its own direction.
QJsonArray axisVector(int axis)
{
    QJsonArray a;
    for (int i = 0; i < kDim; ++i)
        a.append(i == axis ? 1.0 : 0.0);
    return a;
}

QVector<float> axisQuery(int axis)
{
    QVector<float> q(kDim, 0.0f);
    q[axis] = 1.0f;
    return q;
}

QJsonObject node(const QString &clientId, const QString &tier, int axis = -1,
                 const QJsonObject &extra = {})
{
    QJsonObject n{{QStringLiteral("client_id"), clientId},
                  {QStringLiteral("type"), QStringLiteral("event")},
                  {QStringLiteral("text_summary"), QStringLiteral("summary of ") + clientId},
                  {QStringLiteral("memory_lane"), QStringLiteral("shared")},
                  {QStringLiteral("tier"), tier}};
    if (axis >= 0)
        n.insert(QStringLiteral("embedding"), axisVector(axis));
    for (auto it = extra.begin(); it != extra.end(); ++it)
        n.insert(it.key(), it.value());
    return n;
}

QJsonObject edge(const QString &src, const QString &dst)
{
    return {{QStringLiteral("type"), QStringLiteral("related_to")},
            {QStringLiteral("src"), QJsonObject{{QStringLiteral("client_id"), src}}},
            {QStringLiteral("dst"), QJsonObject{{QStringLiteral("client_id"), dst}}}};
}

Result<WriteResult> write(MemoryService *svc, const QJsonArray &nodes, const QJsonArray &edges = {},
                          const QJsonObject &extra = {})
{
    QJsonObject body = Test::writeBody(nodes, edges);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        body.insert(it.key(), it.value());
    auto req = WriteRequest::fromJson(body);
    if (!req)
        return req.error();
    return svc->write(req.value(), {});
}

QString idOf(const Result<WriteResult> &w, const QString &clientId)
{
    for (const auto &n : w.value().nodes) {
        if (n.clientId == clientId)
            return n.id;
    }
    return {};
}

NodeRecord fetch(MemoryService *svc, const QString &id,
                 const QString &tenant = QStringLiteral("default"))
{
    auto d = svc->nodeDetail(tenant, QStringLiteral("default"), id);
    return d ? d.value().node : NodeRecord();
}

qint64 commitCount(MemoryService *svc)
{
    auto c = svc->listCommits(QStringLiteral("default"), QStringLiteral("default"), 0, 10000);
    return c ? c.value().size() : -1;
}

Result<RehydrateOutcome> rehydrate(MemoryService *svc, const QJsonObject &fields,
                                   RequestMeta meta = {})
{
    QJsonObject body = fields;
    if (!body.contains(QStringLiteral("input_text")))
        body.insert(QStringLiteral("input_text"), QStringLiteral("bring it back"));
    auto req = RehydrateRequest::fromJson(body, 8000);
    if (!req)
        return req.error();
    return svc->rehydrate(req.value(), meta);
}

Result<NodesActivateOutcome> activate(MemoryService *svc, const QJsonObject &fields)
{
    QJsonObject body = fields;
    body.insert(QStringLiteral("input_text"), QStringLiteral("used it"));
    auto req = NodesActivateRequest::fromJson(body, 8000);
    if (!req)
        return req.error();
    return svc->activateNodes(req.value(), {});
}

QJsonArray ids(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

QStringList seedIds(const Result<RecallOutcome> &r)
{
    QStringList out;
    for (const RecallSeed &s : r.value().seeds)
        out << s.node.id;
    return out;
}

RecallRequest recallFor(int axis)
{
    QJsonArray a;
    for (float f : axisQuery(axis))
        a.append(double(f));
    return RecallRequest::fromJson({{QStringLiteral("query_embedding"), a}}, false, 8000).value();
}

} // namespace

class tst_Lifecycle : public QObject
{
    Q_OBJECT

private slots:
    void tierTransitionTable_data();
    void tierTransitionTable();
    void rehydrateCountersAndIds();
    void rehydrateNothingToMoveMakesNoCommit();
    void rehydrateWithNoResolvedNodeIsRejected();
    void rehydrateCommitAndSignal();
    void recallSeesRehydratedNode();
    void feedbackQualityFormula();
    void activationUpdatesSlotsAndCounters();
    void activationGarbagePriors();
    void lastActivatedOnlyWhenActivate();
    void activationWithNothingFoundMakesNoCommit();
    void editChangesFieldsInOneCommit();
    void editReembedsAndIsRecallableByNewText();
    void editRejectsPrivateRuleWithoutOwner();
    void editWithoutChangeMakesNoCommit();
    void forgetRemovesNodeEdgesAndVector();
    void forgetRuleDropsItsRuleState();
    void forgottenLabelIsNeverReused();
    void tenantIsolation();
};

void tst_Lifecycle::tierTransitionTable_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("target");
    QTest::addColumn<bool>("moves");
    const QStringList tiers{QStringLiteral("archive"), QStringLiteral("cold"),
                            QStringLiteral("warm"), QStringLiteral("hot")};
    for (int t = 2; t < 4; ++t) {
        for (int f = 0; f < 4; ++f)
            QTest::addRow("%s->%s", qPrintable(tiers[f]), qPrintable(tiers[t]))
                << tiers[f] << tiers[t] << (f < t);
    }
}

void tst_Lifecycle::tierTransitionTable()
{
    QFETCH(QString, from);
    QFETCH(QString, target);
    QFETCH(bool, moves);
    TempService svc;
    auto w = write(svc.service(), {node(QStringLiteral("n"), from)});
    QVERIFY(w);
    const QString id = idOf(w, QStringLiteral("n"));
    const qint64 before = commitCount(svc.service());
    auto r = rehydrate(
        svc.service(),
        {{"node_ids", ids({id})}, {"target_tier", target}, {"reason", "  needed   again "}});
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    const NodeRecord n = fetch(svc.service(), id);
    QCOMPARE(r.value().movedIds, moves ? QStringList{id} : QStringList());
    QCOMPARE(r.value().noopIds, moves ? QStringList() : QStringList{id});
    QCOMPARE(n.tier, moves ? target : from);
    QCOMPARE(r.value().commit.has_value(), moves);
    QCOMPARE(commitCount(svc.service()), before + (moves ? 1 : 0));
    QCOMPARE(n.lastActivated.isValid(), moves);
    if (moves) {
        QCOMPARE(n.commitId, r.value().commit->id);
        QCOMPARE(n.slotData.value("last_rehydrated_job").toString(),
                 QStringLiteral("archive_rehydrate"));
        QCOMPARE(n.slotData.value("last_rehydrated_from_tier").toString(), from);
        QCOMPARE(n.slotData.value("last_rehydrated_to_tier").toString(), target);
        QCOMPARE(n.slotData.value("last_rehydrated_reason").toString(),
                 QStringLiteral("needed again"));
        QCOMPARE(n.slotData.value("last_rehydrated_input_sha256").toString(),
                 r.value().commit->inputSha256);
        QVERIFY(QDateTime::fromString(n.slotData.value("last_rehydrated_at").toString(),
                                      Qt::ISODateWithMs)
                    .isValid());
    } else {
        QVERIFY(!n.slotData.contains("last_rehydrated_at"));
    }
}

void tst_Lifecycle::rehydrateCountersAndIds()
{
    TempService svc;
    auto w = write(svc.service(), {node("a", "archive"), node("b", "cold"), node("c", "hot")});
    QVERIFY(w);
    const QString a = idOf(w, "a"), b = idOf(w, "b"), c = idOf(w, "c");
    const QString absent = QStringLiteral("00000000-0000-4000-8000-000000000001");
    auto r = rehydrate(svc.service(), {{"node_ids", ids({a.toUpper(), a, absent})},
                                       {"client_ids", ids({" b ", "b", "c", "nope", "a"})}});
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    const RehydrateOutcome &o = r.value();
    QCOMPARE(o.targetTier, QStringLiteral("warm"));
    QCOMPARE(o.targets.requestedNodeIds, 2);   // a (deduplicated after lower-casing), absent
    QCOMPARE(o.targets.requestedClientIds, 4); // b, c, nope, a
    QCOMPARE(o.targets.resolvedNodeIds, 4);    // a, absent, b, c
    QCOMPARE(o.targets.found.size(), 3);
    QCOMPARE(o.movedIds, (QStringList{a, b}));
    QCOMPARE(o.noopIds, QStringList{c});
    QCOMPARE(o.targets.missingNodeIds, QStringList{absent});
    QCOMPARE(o.targets.missingClientIds, QStringList{"nope"});
}

void tst_Lifecycle::rehydrateNothingToMoveMakesNoCommit()
{
    TempService svc;
    auto w = write(svc.service(), {node("h", "hot")});
    QVERIFY(w);
    const qint64 before = commitCount(svc.service());
    auto r = rehydrate(svc.service(), {{"client_ids", ids({"h"})}, {"target_tier", "hot"}});
    QVERIFY(r);
    QVERIFY(!r.value().commit);
    QCOMPARE(r.value().noopIds.size(), 1);
    QCOMPARE(commitCount(svc.service()), before);
    // Only unknown node ids: resolved (by id) but not found, so no error and no commit either.
    auto missing
        = rehydrate(svc.service(), {{"node_ids", ids({"00000000-0000-4000-8000-00000000000a"})}});
    QVERIFY(missing);
    QCOMPARE(missing.value().targets.resolvedNodeIds, 1);
    QCOMPARE(missing.value().targets.found.size(), 0);
    QVERIFY(!missing.value().commit);
    QCOMPARE(commitCount(svc.service()), before);
}

void tst_Lifecycle::rehydrateWithNoResolvedNodeIsRejected()
{
    TempService svc;
    QVERIFY(write(svc.service(), {node("x", "archive")}));
    const qint64 before = commitCount(svc.service());
    auto r = rehydrate(svc.service(), {{"client_ids", ids({"ghost"})}});
    QVERIFY(!r);
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().code, QStringLiteral("rehydrate_no_resolved_nodes"));
    QCOMPARE(commitCount(svc.service()), before);

    auto noTargets = RehydrateRequest::fromJson({{"input_text", "x"}}, 8000);
    QVERIFY(!noTargets);
    QCOMPARE(noTargets.error()
                 .details.value("issues")
                 .toArray()
                 .at(0)
                 .toObject()
                 .value("path")
                 .toString(),
             QStringLiteral("node_ids"));
    auto badId = RehydrateRequest::fromJson(
        {{"input_text", "x"}, {"node_ids", ids({"not-a-uuid"})}}, 8000);
    QVERIFY(!badId);
    QCOMPARE(
        badId.error().details.value("issues").toArray().at(0).toObject().value("path").toString(),
        QStringLiteral("node_ids[0]"));
    auto badTier = RehydrateRequest::fromJson(
        {{"input_text", "x"}, {"client_ids", ids({"x"})}, {"target_tier", "cold"}}, 8000);
    QVERIFY(!badTier);
    QCOMPARE(
        badTier.error().details.value("issues").toArray().at(0).toObject().value("path").toString(),
        QStringLiteral("target_tier"));
    auto noInput = RehydrateRequest::fromJson({{"client_ids", ids({"x"})}}, 8000);
    QVERIFY(!noInput);
    QCOMPARE(
        noInput.error().details.value("issues").toArray().at(0).toObject().value("path").toString(),
        QStringLiteral("input_text"));
}

void tst_Lifecycle::rehydrateCommitAndSignal()
{
    TempService svc;
    QVERIFY(write(svc.service(), {node("a", "cold")}));
    QSignalSpy spy(svc.service(), &MemoryService::committed);
    auto r = rehydrate(svc.service(), {{"client_ids", ids({"a"})}, {"actor", "ops"}});
    QVERIFY(r && r.value().commit);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(2).toString(), r.value().commit->id);
    auto commits = svc->listCommits("default", "default", 0, 1);
    QVERIFY(commits);
    const CommitRecord &c = commits.value().first();
    QCOMPARE(c.kind, QStringLiteral("archive_rehydrate"));
    QCOMPARE(c.actor, QStringLiteral("ops"));
    QCOMPARE(c.diff.value("moved_ids").toArray().size(), 1);
    QCOMPARE(
        c.diff.value("resolved_by_client").toArray().at(0).toObject().value("client_id").toString(),
        QStringLiteral("a"));
    QCOMPARE(c.diff.value("target_tier").toString(), QStringLiteral("warm"));
}

void tst_Lifecycle::recallSeesRehydratedNode()
{
    TempService svc;
    auto w = write(svc.service(), {node("old", "archive", 7)});
    QVERIFY(w);
    const QString id = idOf(w, "old");
    auto before = svc->recall(recallFor(7), {});
    QVERIFY(before);
    QVERIFY(!seedIds(before).contains(id));
    QVERIFY(rehydrate(svc.service(), {{"node_ids", ids({id})}}));
    auto after = svc->recall(recallFor(7), {});
    QVERIFY(after);
    QCOMPARE(seedIds(after).value(0), id);
}

void tst_Lifecycle::feedbackQualityFormula()
{
    using namespace NodeFeedback;
    QCOMPARE(nextQuality(0.0, "positive"), 0.2);
    QCOMPARE(nextQuality(0.2, "positive"), 0.36);
    QCOMPARE(nextQuality(0.0, "negative"), -0.2);
    QCOMPARE(nextQuality(0.5, "neutral"), 0.5);
    QCOMPARE(nextQuality(1.0, "positive"), 1.0);
    QCOMPARE(nextQuality(0.123456, "neutral"), 0.1235);
    QCOMPARE(nextQuality(0.33333, "positive"), 0.4667);
    QCOMPARE(priorQuality(QJsonValue("abc")), 0.0);
    QCOMPARE(priorQuality(QJsonValue(7)), 1.0);
    QCOMPARE(priorQuality(QJsonValue(-3)), -1.0);
    QCOMPARE(priorQuality(QJsonValue()), 0.0);
    QCOMPARE(counter(QJsonValue(-2)), qint64(0));
    QCOMPARE(counter(QJsonValue("x")), qint64(0));
    QCOMPARE(counter(QJsonValue(3.7)), qint64(3));
    QCOMPARE(counter(QJsonValue("4")), qint64(4));
    QCOMPARE(counter(QJsonValue(QJsonArray{1})), qint64(0));
}

void tst_Lifecycle::activationUpdatesSlotsAndCounters()
{
    TempService svc;
    auto w = write(svc.service(), {node("a", "cold"), node("b", "hot")});
    QVERIFY(w);
    const QString a = idOf(w, "a"), b = idOf(w, "b");
    auto r1 = activate(svc.service(), {{"client_ids", ids({"a", "b", "gone"})},
                                       {"outcome", "positive"},
                                       {"run_id", "run-1"},
                                       {"reason", "helped"}});
    QVERIFY2(r1, qPrintable(r1 ? QString() : r1.error().message));
    QVERIFY(r1.value().commit);
    QCOMPARE(r1.value().updatedIds, (QStringList{a, b}));
    QCOMPARE(r1.value().targets.missingClientIds, QStringList{"gone"});
    QCOMPARE(r1.value().outcome, QStringLiteral("positive"));
    auto r2 = activate(svc.service(), {{"node_ids", ids({a})}, {"outcome", "positive"}});
    QVERIFY(r2);
    auto r3 = activate(svc.service(), {{"node_ids", ids({a})}, {"outcome", "negative"}});
    QVERIFY(r3);
    auto r4 = activate(svc.service(), {{"node_ids", ids({a})}}); // neutral by default
    QVERIFY(r4);
    QCOMPARE(r4.value().outcome, QStringLiteral("neutral"));

    const NodeRecord na = fetch(svc.service(), a);
    QCOMPARE(na.slotData.value("feedback_positive").toInt(), 2);
    QCOMPARE(na.slotData.value("feedback_negative").toInt(), 1);
    // 0 -> 0.2 -> 0.36 -> 0.088 -> 0.088 (neutral)
    QCOMPARE(na.slotData.value("feedback_quality").toDouble(), 0.088);
    QCOMPARE(na.slotData.value("last_feedback_outcome").toString(), QStringLiteral("neutral"));
    QVERIFY(na.slotData.value("last_feedback_run_id").isNull());
    QVERIFY(na.slotData.value("last_feedback_reason").isNull());
    QCOMPARE(na.slotData.value("last_feedback_input_sha256").toString(),
             r4.value().commit->inputSha256);
    QCOMPARE(na.commitId, r4.value().commit->id);
    QCOMPARE(na.tier, QStringLiteral("cold")); // activation never moves tiers

    const NodeRecord nb = fetch(svc.service(), b);
    QCOMPARE(nb.slotData.value("feedback_quality").toDouble(), 0.2);
    QCOMPARE(nb.slotData.value("last_feedback_run_id").toString(), QStringLiteral("run-1"));
    QCOMPARE(nb.slotData.value("last_feedback_reason").toString(), QStringLiteral("helped"));

    auto commits = svc->listCommits("default", "default", 0, 1);
    QCOMPARE(commits.value().first().kind, QStringLiteral("nodes_activate"));
}

void tst_Lifecycle::activationGarbagePriors()
{
    TempService svc;
    const QJsonObject garbage{{"slots", QJsonObject{{"feedback_positive", "lots"},
                                                    {"feedback_negative", -4},
                                                    {"feedback_quality", "great"}}}};
    const QJsonObject high{
        {"slots", QJsonObject{{"feedback_positive", 2.9}, {"feedback_quality", 5}}}};
    auto w = write(svc.service(), {node("g", "warm", -1, garbage), node("h", "warm", -1, high)});
    QVERIFY(w);
    QVERIFY(activate(svc.service(), {{"client_ids", ids({"g", "h"})}, {"outcome", "negative"}}));
    const NodeRecord g = fetch(svc.service(), idOf(w, "g"));
    QCOMPARE(g.slotData.value("feedback_positive").toInt(), 0);
    QCOMPARE(g.slotData.value("feedback_negative").toInt(), 1);
    QCOMPARE(g.slotData.value("feedback_quality").toDouble(), -0.2);
    const NodeRecord h = fetch(svc.service(), idOf(w, "h"));
    QCOMPARE(h.slotData.value("feedback_positive").toInt(), 2);
    QCOMPARE(h.slotData.value("feedback_quality").toDouble(), 0.6); // clamp(5)=1 -> 0.8 - 0.2
    QVERIFY(activate(svc.service(), {{"client_ids", ids({"g"})}, {"outcome", "neutral"}}));
    QCOMPARE(fetch(svc.service(), idOf(w, "g")).slotData.value("feedback_quality").toDouble(),
             -0.2);
}

void tst_Lifecycle::lastActivatedOnlyWhenActivate()
{
    TempService svc;
    auto w = write(svc.service(), {node("a", "warm")});
    QVERIFY(w);
    const QString a = idOf(w, "a");
    QVERIFY(!fetch(svc.service(), a).lastActivated.isValid());
    auto off = activate(svc.service(), {{"node_ids", ids({a})}, {"activate", false}});
    QVERIFY(off);
    QVERIFY(!off.value().activate);
    QVERIFY(!fetch(svc.service(), a).lastActivated.isValid());
    QVERIFY(fetch(svc.service(), a).slotData.contains("last_feedback_at"));
    QVERIFY(activate(svc.service(), {{"node_ids", ids({a})}}));
    QVERIFY(fetch(svc.service(), a).lastActivated.isValid());
}

void tst_Lifecycle::activationWithNothingFoundMakesNoCommit()
{
    TempService svc;
    QVERIFY(write(svc.service(), {node("a", "warm")}));
    const qint64 before = commitCount(svc.service());
    auto r = activate(svc.service(), {{"node_ids", ids({"00000000-0000-4000-8000-0000000000ff"})}});
    QVERIFY(r);
    QVERIFY(!r.value().commit);
    QVERIFY(r.value().updatedIds.isEmpty());
    QCOMPARE(commitCount(svc.service()), before);
    auto none = activate(svc.service(), {{"client_ids", ids({"nobody"})}});
    QVERIFY(!none);
    QCOMPARE(none.error().code, QStringLiteral("nodes_activate_no_resolved_nodes"));
}

void tst_Lifecycle::editChangesFieldsInOneCommit()
{
    TempService svc;
    auto w = write(svc.service(), {node("a", "hot")});
    QVERIFY(w);
    NodeEditRequest e;
    e.nodeId = idOf(w, "a");
    e.actor = QStringLiteral("operator");
    e.tier = QStringLiteral("cold");
    e.salience = 0.9;
    e.slotData = QJsonObject{{"pin", true}};
    e.title = QStringLiteral("New title");
    e.inputText = QStringLiteral("operator edit");
    const qint64 before = commitCount(svc.service());
    auto r = svc->editNode(e, {});
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QVERIFY(r.value().commit);
    QCOMPARE(commitCount(svc.service()), before + 1);
    QCOMPARE(r.value().changedFields, (QStringList{"title", "tier", "salience", "slots"}));
    const NodeRecord n = fetch(svc.service(), e.nodeId);
    QCOMPARE(n.tier, QStringLiteral("cold"));
    QCOMPARE(n.salience, 0.9);
    QCOMPARE(n.title, QStringLiteral("New title"));
    QCOMPARE(n.slotData, (QJsonObject{{"pin", true}}));
    QCOMPARE(n.commitId, r.value().commit->id);
    const CommitRecord c = svc->listCommits("default", "default", 0, 1).value().first();
    QCOMPARE(c.kind, QStringLiteral("node_edit"));
    QCOMPARE(c.actor, QStringLiteral("operator"));
    const QJsonObject tier = c.diff.value("changes").toObject().value("tier").toObject();
    QCOMPARE(tier.value("old").toString(), QStringLiteral("hot"));
    QCOMPARE(tier.value("new").toString(), QStringLiteral("cold"));

    NodeEditRequest bad = e;
    bad.salience = 1.5;
    auto rejected = svc->editNode(bad, {});
    QVERIFY(!rejected);
    QCOMPARE(rejected.error()
                 .details.value("issues")
                 .toArray()
                 .at(0)
                 .toObject()
                 .value("path")
                 .toString(),
             QStringLiteral("salience"));
    QCOMPARE(commitCount(svc.service()), before + 1);
}

void tst_Lifecycle::editReembedsAndIsRecallableByNewText()
{
    TempService svc; // local provider
    const QJsonObject shared{{"memory_lane", "shared"}, {"type", "event"}};
    QJsonObject a = shared, b = shared;
    a.insert("client_id", "a");
    a.insert("text_summary", "the user prefers dark mode in the editor");
    b.insert("client_id", "b");
    b.insert("text_summary", "deploy the service to the staging cluster");
    auto w = write(svc.service(), {a, b});
    QVERIFY(w);
    QVERIFY(svc->waitForEmbeddings(10000));
    const QString id = idOf(w, "a");
    QCOMPARE(fetch(svc.service(), id).embeddingStatus, QStringLiteral("ready"));

    NodeEditRequest e;
    e.nodeId = id;
    e.textSummary = QStringLiteral("quarterly revenue grew strongly in Europe");
    e.inputText = QStringLiteral("operator edit");
    auto r = svc->editNode(e, {});
    QVERIFY(r);
    QVERIFY(r.value().reembedding);
    QCOMPARE(r.value().node.embeddingStatus, QStringLiteral("pending"));
    QVERIFY(svc->waitForEmbeddings(10000));
    QCOMPARE(fetch(svc.service(), id).embeddingStatus, QStringLiteral("ready"));

    auto req
        = RecallRequest::fromJson({{"query_text", "how did revenue grow in Europe"}}, true, 8000);
    auto found = svc->recallText(req.value(), {});
    QVERIFY(found);
    QCOMPARE(seedIds(found).value(0), id);
    auto old = RecallRequest::fromJson({{"query_text", "dark mode editor preference"}}, true, 8000);
    auto stale = svc->recallText(old.value(), {});
    QVERIFY(stale);
    for (const RecallSeed &s : stale.value().seeds) {
        if (s.node.id == id)
            QVERIFY2(s.similarity < 0.5, "the old text's vector must be gone");
    }
}

void tst_Lifecycle::editRejectsPrivateRuleWithoutOwner()
{
    TempService svc;
    QJsonObject rule{{"client_id", "r"},
                     {"type", "rule"},
                     {"text_summary", "prefer tool a"},
                     {"memory_lane", "shared"},
                     {"slots", QJsonObject{{"if", QJsonObject{}}, {"then", QJsonObject{}}}}};
    auto w = write(svc.service(), {rule});
    QVERIFY2(w, qPrintable(w ? QString() : w.error().message));
    NodeEditRequest e;
    e.nodeId = idOf(w, "r");
    e.memoryLane = QStringLiteral("private");
    e.ownerAgentId = QString();
    e.ownerTeamId = QString();
    e.inputText = QStringLiteral("operator edit");
    const qint64 before = commitCount(svc.service());
    auto r = svc->editNode(e, {});
    QVERIFY(!r);
    QCOMPARE(r.error().code, QStringLiteral("invalid_private_rule_owner"));
    QCOMPARE(commitCount(svc.service()), before);
    QCOMPARE(fetch(svc.service(), e.nodeId).memoryLane, QStringLiteral("shared"));
}

void tst_Lifecycle::editWithoutChangeMakesNoCommit()
{
    TempService svc;
    auto w = write(svc.service(), {node("a", "hot")});
    QVERIFY(w);
    NodeEditRequest e;
    e.nodeId = idOf(w, "a");
    e.tier = QStringLiteral("hot");
    e.inputText = QStringLiteral("operator edit");
    const qint64 before = commitCount(svc.service());
    auto r = svc->editNode(e, {});
    QVERIFY(r);
    QVERIFY(!r.value().commit);
    QVERIFY(r.value().changedFields.isEmpty());
    QCOMPARE(commitCount(svc.service()), before);
}

void tst_Lifecycle::forgetRemovesNodeEdgesAndVector()
{
    TempService svc;
    auto w = write(svc.service(), {node("a", "hot", 3), node("b", "hot", 4), node("c", "hot", 5)},
                   {edge("a", "b"), edge("c", "a"), edge("b", "c")});
    QVERIFY(w);
    const QString a = idOf(w, "a");
    auto first = svc->recall(recallFor(3), {});
    QVERIFY(first);
    QCOMPARE(seedIds(first).value(0), a);
    const qint64 indexed = svc->indexedVectorCount("default", "default");
    QCOMPARE(indexed, qint64(3));

    NodeForgetRequest f;
    f.nodeId = a;
    f.reason = QStringLiteral("wrong fact");
    f.inputText = QStringLiteral("operator forget");
    QSignalSpy spy(svc.service(), &MemoryService::committed);
    auto r = svc->forgetNode(f, {});
    QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(r.value().removedEdgeIds.size(), 2);
    QCOMPARE(svc->nodeDetail("default", "default", a).error().status, 404);
    QCOMPARE(svc->indexedVectorCount("default", "default"), indexed - 1);
    auto b = svc->nodeDetail("default", "default", idOf(w, "b"));
    QVERIFY(b);
    QCOMPARE(b.value().edges.size(), 1); // only b -> c is left
    auto again = svc->recall(recallFor(3), {});
    QVERIFY(again);
    QVERIFY(!seedIds(again).contains(a));
    for (const NodeRecord &n : again.value().nodes)
        QVERIFY(n.id != a);

    const CommitRecord c = svc->listCommits("default", "default", 0, 1).value().first();
    QCOMPARE(c.kind, QStringLiteral("node_forget"));
    QCOMPARE(c.diff.value("node_id").toString(), a);
    QCOMPARE(c.diff.value("client_id").toString(), QStringLiteral("a"));
    QCOMPARE(c.diff.value("removed_edge_ids").toArray().size(), 2);
    QCOMPARE(c.diff.value("reason").toString(), QStringLiteral("wrong fact"));
    QVERIFY(!c.diff.contains("text_summary"));

    // Forgetting twice finds nothing; a restart keeps the node gone.
    QCOMPARE(svc->forgetNode(f, {}).error().status, 404);
    QVERIFY(svc.reopen());
    auto afterRestart = svc->recall(recallFor(3), {});
    QVERIFY(afterRestart);
    QVERIFY(!seedIds(afterRestart).contains(a));
}

void tst_Lifecycle::forgetRuleDropsItsRuleState()
{
    TempService svc;
    QJsonObject rule{{"client_id", "r"},
                     {"type", "rule"},
                     {"text_summary", "prefer tool a"},
                     {"memory_lane", "shared"},
                     {"slots", QJsonObject{{"if", QJsonObject{}}, {"then", QJsonObject{}}}}};
    auto w = write(svc.service(), {rule});
    QVERIFY(w);
    QCOMPARE(svc->listRules("default", "default").value().size(), 1);
    NodeForgetRequest f;
    f.nodeId = idOf(w, "r");
    f.inputText = QStringLiteral("operator forget");
    QVERIFY(svc->forgetNode(f, {}));
    QCOMPARE(svc->listRules("default", "default").value().size(), 0);
}

void tst_Lifecycle::forgottenLabelIsNeverReused()
{
    TempService svc;
    auto w = write(svc.service(), {node("a", "hot"), node("b", "hot")});
    QVERIFY(w);
    const qint64 newest = fetch(svc.service(), idOf(w, "b"), "default").vectorLabel;
    QVERIFY(newest > fetch(svc.service(), idOf(w, "a"), "default").vectorLabel);
    NodeForgetRequest f;
    f.nodeId = idOf(w, "b");
    f.inputText = QStringLiteral("operator forget");
    QVERIFY(svc->forgetNode(f, {}));
    auto c = write(svc.service(), {node("c", "hot")});
    QVERIFY(c);
    // A reused label could let a saved index serve the forgotten node's vector for "c".
    QVERIFY(fetch(svc.service(), idOf(c, "c"), "default").vectorLabel > newest);
    // Updating a node keeps its label.
    auto again = write(svc.service(), {node("a", "warm")});
    QVERIFY(again);
    QCOMPARE(fetch(svc.service(), idOf(w, "a"), "default").vectorLabel,
             fetch(svc.service(), idOf(again, "a"), "default").vectorLabel);
}

void tst_Lifecycle::tenantIsolation()
{
    TempService svc;
    auto w = write(svc.service(), {node("a", "archive")}, {}, {{"tenant_id", "acme"}});
    QVERIFY(w);
    const QString id = idOf(w, "a");
    auto other = rehydrate(svc.service(), {{"tenant_id", "globex"}, {"node_ids", ids({id})}});
    QVERIFY(other);
    QCOMPARE(other.value().targets.missingNodeIds, QStringList{id});
    QVERIFY(!other.value().commit);
    auto byClient = rehydrate(svc.service(), {{"tenant_id", "globex"}, {"client_ids", ids({"a"})}});
    QVERIFY(!byClient);
    QCOMPARE(byClient.error().code, QStringLiteral("rehydrate_no_resolved_nodes"));
    QCOMPARE(fetch(svc.service(), id, "acme").tier, QStringLiteral("archive"));

    NodeEditRequest e;
    e.tenantId = QStringLiteral("globex");
    e.nodeId = id;
    e.tier = QStringLiteral("hot");
    e.inputText = QStringLiteral("edit");
    QCOMPARE(svc->editNode(e, {}).error().status, 404);
    NodeForgetRequest f;
    f.tenantId = QStringLiteral("globex");
    f.nodeId = id;
    f.inputText = QStringLiteral("forget");
    QCOMPARE(svc->forgetNode(f, {}).error().status, 404);
    QCOMPARE(fetch(svc.service(), id, "acme").tier, QStringLiteral("archive"));

    // A principal of another tenant is refused outright.
    RequestMeta meta;
    meta.principal = Principal{
        QStringLiteral("globex"), QStringLiteral("agent"), {}, {}, QStringLiteral("api_key")};
    auto forbidden
        = rehydrate(svc.service(), {{"tenant_id", "acme"}, {"node_ids", ids({id})}}, meta);
    QVERIFY(!forbidden);
    QCOMPARE(forbidden.error().status, 403);

    auto ok = rehydrate(svc.service(), {{"tenant_id", "acme"}, {"node_ids", ids({id})}});
    QVERIFY(ok && ok.value().commit);
    QCOMPARE(fetch(svc.service(), id, "acme").tier, QStringLiteral("warm"));
}

QTEST_GUILESS_MAIN(tst_Lifecycle)
#include "tst_lifecycle.moc"
