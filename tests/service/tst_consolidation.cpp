#include "service/lifecycle/consolidationjob.h"
#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;

namespace {

const QString kTenant = QStringLiteral("default");
const QString kScope = QStringLiteral("default");

QProcessEnvironment quietEnv()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    return env;
}

/// A 1536-dimension vector along axis 0 with `tilt` on axis 1: cosine to e0 is 1/sqrt(1+tilt^2).
QJsonArray vector(double tilt)
{
    QJsonArray v;
    for (int i = 0; i < 1536; ++i)
        v.append(i == 0 ? 1.0 : i == 1 ? tilt : 0.0);
    return v;
}

QJsonObject node(const QString &clientId, const QString &type, const QString &title,
                 const QString &summary, const QJsonObject &extra = {})
{
    QJsonObject n{{QStringLiteral("client_id"), clientId},
                  {QStringLiteral("type"), type},
                  {QStringLiteral("title"), title},
                  {QStringLiteral("text_summary"), summary}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        n.insert(it.key(), it.value());
    return n;
}

/// One write per node, a little apart, so creation order is unambiguous.
bool writeInOrder(MemoryService *svc, const QJsonArray &nodes)
{
    for (const QJsonValue &n : nodes) {
        auto req = WriteRequest::fromJson(Test::writeBody({n}));
        if (!req)
            return false;
        auto r = svc->write(req.value(), RequestMeta());
        if (!r) {
            qWarning() << r.error().message;
            return false;
        }
        QTest::qWait(3);
    }
    return true;
}

NodeRecord byClientId(MemoryService *svc, const QString &clientId)
{
    NodeQuery q;
    q.tenantId = kTenant;
    q.scope = kScope;
    q.text = clientId;
    auto page = svc->listNodes(q);
    if (page) {
        for (const NodeRecord &n : page.value().nodes) {
            if (n.clientId == clientId)
                return n;
        }
    }
    return {};
}

qint64 commitCount(MemoryService *svc)
{
    auto commits = svc->listCommits(kTenant, kScope, 0, 1000);
    return commits ? commits.value().size() : -1;
}

QStringList toStrings(const QJsonValue &array)
{
    QStringList out;
    for (const QJsonValue &v : array.toArray())
        out << v.toString();
    return out;
}

} // namespace

class tst_Consolidation : public QObject
{
    Q_OBJECT

private slots:
    void negationAndNormalisation();
    void dryRunReportsWithoutWriting();
    void applyMarksDuplicateAndCanonical();
    void rerunIsIdempotentAndAppendsNewDuplicates();
    void embeddingsAboveThresholdAreDuplicates();
    void contradictoryTopicsAreSkipped();
    void differentPolarityIsContradictory();
    void recallReturnsConsolidationSlots();
    void progressNamesTheStages();
    void cancelledApplyWritesNothing();
};

void tst_Consolidation::negationAndNormalisation()
{
    QCOMPARE(Consolidation::normalisedText(QStringLiteral("  Paris, the  CAPITAL!  ")),
             QStringLiteral("paris the capital"));
    QVERIFY(Consolidation::hasNegation(QStringLiteral("Deploys never happen on Fridays")));
    QVERIFY(Consolidation::hasNegation(QStringLiteral("The cache isn't shared")));
    QVERIFY(Consolidation::hasNegation(QStringLiteral("The cache isn\u2019t shared")));
    QVERIFY(Consolidation::hasNegation(QStringLiteral("No retries")));
    QVERIFY(Consolidation::hasNegation(QStringLiteral("do NOT page on-call")));
    QVERIFY(!Consolidation::hasNegation(QStringLiteral("Notes are stored nightly")));
    QVERIFY(!Consolidation::hasNegation(QStringLiteral("Deploys happen on Fridays")));
}

void tst_Consolidation::dryRunReportsWithoutWriting()
{
    TempService svc(quietEnv());
    QVERIFY(writeInOrder(svc.service(),
                         {node(QStringLiteral("a"), QStringLiteral("entity"),
                               QStringLiteral("Paris"), QStringLiteral("Capital of France.")),
                          node(QStringLiteral("b"), QStringLiteral("entity"),
                               QStringLiteral("paris"), QStringLiteral("capital of  France")),
                          node(QStringLiteral("c"), QStringLiteral("event"),
                               QStringLiteral("Paris"), QStringLiteral("Capital of France."))}));
    const qint64 commits = commitCount(svc.service());
    QSignalSpy committed(svc.service(), &MemoryService::committed);

    auto report = svc->consolidate(kTenant, kScope, false);
    QVERIFY(report);
    QVERIFY(!report.value().apply);
    QCOMPARE(report.value().nodesScanned, 3);
    QCOMPARE(report.value().merges.size(), 1); // c has another type
    const ConsolidationMerge merge = report.value().merges.first();
    QCOMPARE(merge.canonicalId, byClientId(svc.service(), QStringLiteral("a")).id);
    QCOMPARE(merge.duplicateId, byClientId(svc.service(), QStringLiteral("b")).id);
    QCOMPARE(merge.basis, QStringLiteral("text"));
    QVERIFY(report.value().commitId.isEmpty());

    QCOMPARE(commitCount(svc.service()), commits);
    QCOMPARE(committed.count(), 0);
    QVERIFY(!byClientId(svc.service(), QStringLiteral("b"))
                 .slotData.contains(QStringLiteral("alias_of")));
    QVERIFY(!byClientId(svc.service(), QStringLiteral("a"))
                 .slotData.contains(QStringLiteral("merged_from")));
    QCOMPARE(report.value().toJson().value(QStringLiteral("dry_run")).toBool(), true);
}

void tst_Consolidation::applyMarksDuplicateAndCanonical()
{
    TempService svc(quietEnv());
    QVERIFY(writeInOrder(
        svc.service(),
        {node(QStringLiteral("a"), QStringLiteral("entity"), QStringLiteral("Paris"),
              QStringLiteral("Capital of France."), {{QStringLiteral("salience"), 0.2}}),
         node(QStringLiteral("b"), QStringLiteral("entity"), QStringLiteral("Paris"),
              QStringLiteral("Capital of France."), {{QStringLiteral("salience"), 0.9}})}));
    const qint64 commits = commitCount(svc.service());
    QSignalSpy committed(svc.service(), &MemoryService::committed);

    auto report = svc->consolidate(kTenant, kScope, true);
    QVERIFY(report);
    QVERIFY(!report.value().commitId.isEmpty());
    QCOMPARE(commitCount(svc.service()), commits + 1);
    QCOMPARE(committed.count(), 1);
    QCOMPARE(committed.first().at(2).toString(), report.value().commitId);

    // The oldest wins even against a more salient duplicate.
    const NodeRecord a = byClientId(svc.service(), QStringLiteral("a"));
    const NodeRecord b = byClientId(svc.service(), QStringLiteral("b"));
    QCOMPARE(b.slotData.value(QStringLiteral("alias_of")).toString(), a.id);
    QCOMPARE(b.slotData.value(QStringLiteral("superseded_by")).toString(), a.id);
    QCOMPARE(toStrings(a.slotData.value(QStringLiteral("merged_from"))), QStringList{b.id});
    QCOMPARE(a.slotData.value(QStringLiteral("merged_count")).toInt(), 1);
    QCOMPARE(a.commitId, report.value().commitId);
    QCOMPARE(b.commitId, report.value().commitId);

    auto latest = svc->listCommits(kTenant, kScope, 0, 1);
    QVERIFY(latest && !latest.value().isEmpty());
    QCOMPARE(latest.value().first().kind, QStringLiteral("consolidation"));
    const QJsonArray merges = latest.value().first().diff.value(QStringLiteral("merges")).toArray();
    QCOMPARE(merges.size(), 1);
    QCOMPARE(merges.first().toObject().value(QStringLiteral("duplicate_id")).toString(), b.id);
    auto chain = svc->verifyChain(kTenant, kScope);
    QVERIFY(chain && chain.value().ok);
}

void tst_Consolidation::rerunIsIdempotentAndAppendsNewDuplicates()
{
    TempService svc(quietEnv());
    QVERIFY(writeInOrder(
        svc.service(),
        {node(QStringLiteral("a"), QStringLiteral("concept"), QStringLiteral("Blue-green deploys"),
              QStringLiteral("Two identical environments.")),
         node(QStringLiteral("b"), QStringLiteral("concept"), QStringLiteral("Blue green deploys"),
              QStringLiteral("Two identical environments"))}));
    QVERIFY(svc->consolidate(kTenant, kScope, true));
    const qint64 commits = commitCount(svc.service());

    auto again = svc->consolidate(kTenant, kScope, true);
    QVERIFY(again);
    QVERIFY(again.value().merges.isEmpty());
    QVERIFY(again.value().commitId.isEmpty());
    QCOMPARE(commitCount(svc.service()), commits);

    QVERIFY(writeInOrder(svc.service(), {node(QStringLiteral("c"), QStringLiteral("concept"),
                                              QStringLiteral("BLUE GREEN DEPLOYS"),
                                              QStringLiteral("two identical environments!"))}));
    auto third = svc->consolidate(kTenant, kScope, true);
    QVERIFY(third);
    QCOMPARE(third.value().merges.size(), 1);
    const NodeRecord a = byClientId(svc.service(), QStringLiteral("a"));
    QCOMPARE(toStrings(a.slotData.value(QStringLiteral("merged_from"))),
             (QStringList{byClientId(svc.service(), QStringLiteral("b")).id,
                          byClientId(svc.service(), QStringLiteral("c")).id}));
    QCOMPARE(a.slotData.value(QStringLiteral("merged_count")).toInt(), 2);
}

void tst_Consolidation::embeddingsAboveThresholdAreDuplicates()
{
    TempService svc(quietEnv());
    QVERIFY(writeInOrder(
        svc.service(),
        {node(QStringLiteral("a"), QStringLiteral("concept"), QStringLiteral("Rollback plan"),
              QStringLiteral("How we undo a release"),
              {{QStringLiteral("embedding"), vector(0.0)}}),
         node(QStringLiteral("near"), QStringLiteral("concept"), QStringLiteral("Release rollback"),
              QStringLiteral("Undoing a deploy"), {{QStringLiteral("embedding"), vector(0.1)}}),
         node(QStringLiteral("far"), QStringLiteral("concept"), QStringLiteral("Release notes"),
              QStringLiteral("What changed"), {{QStringLiteral("embedding"), vector(0.5)}}),
         node(QStringLiteral("other-type"), QStringLiteral("event"), QStringLiteral("Rolled back"),
              QStringLiteral("We undid 1.2"), {{QStringLiteral("embedding"), vector(0.0)}})}));
    auto report = svc->consolidate(kTenant, kScope, false);
    QVERIFY(report);
    QCOMPARE(report.value().merges.size(), 1);
    const ConsolidationMerge m = report.value().merges.first();
    QCOMPARE(m.canonicalId, byClientId(svc.service(), QStringLiteral("a")).id);
    QCOMPARE(m.duplicateId, byClientId(svc.service(), QStringLiteral("near")).id);
    QCOMPARE(m.basis, QStringLiteral("embedding"));
    QVERIFY(m.similarity >= ConsolidationJob::kCosineThreshold);
    QVERIFY(m.similarity < 1.0);
}

void tst_Consolidation::contradictoryTopicsAreSkipped()
{
    TempService svc(quietEnv());
    QVERIFY(writeInOrder(
        svc.service(),
        {node(QStringLiteral("yes"), QStringLiteral("topic"), QStringLiteral("Friday deploys"),
              QStringLiteral("Deploys happen on Fridays"),
              {{QStringLiteral("embedding"), vector(0.0)}}),
         node(QStringLiteral("no"), QStringLiteral("topic"), QStringLiteral("Friday deploys"),
              QStringLiteral("Deploys never happen on Fridays"),
              {{QStringLiteral("embedding"), vector(0.05)}})}));
    auto report = svc->consolidate(kTenant, kScope, true);
    QVERIFY(report);
    QVERIFY(report.value().merges.isEmpty());
    QVERIFY(report.value().commitId.isEmpty());
    QCOMPARE(report.value().skipped.size(), 1);
    const ConsolidationSkip skip = report.value().skipped.first();
    QCOMPARE(skip.reason, QStringLiteral("contradictory_candidate"));
    QCOMPARE(skip.nodeId, byClientId(svc.service(), QStringLiteral("no")).id);
    QCOMPARE(skip.otherId, byClientId(svc.service(), QStringLiteral("yes")).id);
    QVERIFY(!byClientId(svc.service(), QStringLiteral("no"))
                 .slotData.contains(QStringLiteral("alias_of")));
    QCOMPARE(report.value()
                 .toJson()
                 .value(QStringLiteral("skipped"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(QStringLiteral("reason"))
                 .toString(),
             QStringLiteral("contradictory_candidate"));
}

void tst_Consolidation::differentPolarityIsContradictory()
{
    TempService svc(quietEnv());
    QVERIFY(writeInOrder(
        svc.service(),
        {node(QStringLiteral("pro"), QStringLiteral("concept"), QStringLiteral("Monorepo"),
              QStringLiteral("One repository for all services"),
              {{QStringLiteral("slots"),
                QJsonObject{{QStringLiteral("stance"), QStringLiteral("for")}}}}),
         node(QStringLiteral("con"), QStringLiteral("concept"), QStringLiteral("Monorepo"),
              QStringLiteral("One repository for all services"),
              {{QStringLiteral("slots"),
                QJsonObject{{QStringLiteral("stance"), QStringLiteral("against")}}}}),
         // Events are not topic/concept: identical ones merge whatever they say.
         node(QStringLiteral("e1"), QStringLiteral("event"), QStringLiteral("Build"),
              QStringLiteral("Build passed"),
              {{QStringLiteral("slots"), QJsonObject{{QStringLiteral("polarity"), 1}}}}),
         node(QStringLiteral("e2"), QStringLiteral("event"), QStringLiteral("Build"),
              QStringLiteral("Build passed"),
              {{QStringLiteral("slots"), QJsonObject{{QStringLiteral("polarity"), -1}}}})}));
    auto report = svc->consolidate(kTenant, kScope, false);
    QVERIFY(report);
    QCOMPARE(report.value().skipped.size(), 1);
    QCOMPARE(report.value().skipped.first().nodeId,
             byClientId(svc.service(), QStringLiteral("con")).id);
    QCOMPARE(report.value().merges.size(), 1);
    QCOMPARE(report.value().merges.first().duplicateId,
             byClientId(svc.service(), QStringLiteral("e2")).id);
}

void tst_Consolidation::recallReturnsConsolidationSlots()
{
    TempService svc(quietEnv());
    QVERIFY(
        writeInOrder(svc.service(),
                     {node(QStringLiteral("a"), QStringLiteral("concept"),
                           QStringLiteral("Rollback plan"), QStringLiteral("How we undo a release"),
                           {{QStringLiteral("embedding"), vector(0.0)}}),
                      node(QStringLiteral("b"), QStringLiteral("concept"),
                           QStringLiteral("Rollback plan"), QStringLiteral("How we undo a release"),
                           {{QStringLiteral("embedding"), vector(0.01)}})}));
    QVERIFY(svc->consolidate(kTenant, kScope, true));

    QJsonObject body{{QStringLiteral("query_embedding"), vector(0.0)},
                     {QStringLiteral("include_slots"), true}};
    auto request = RecallRequest::fromJson(body, false, 8000);
    QVERIFY(request);
    auto outcome = svc->recall(request.value(), RequestMeta());
    QVERIFY(outcome);
    QHash<QString, NodeRecord> byId;
    for (const NodeRecord &n : outcome.value().nodes)
        byId.insert(n.id, n);
    const QString a = byClientId(svc.service(), QStringLiteral("a")).id;
    const QString b = byClientId(svc.service(), QStringLiteral("b")).id;
    QVERIFY(byId.contains(a) && byId.contains(b));
    QCOMPARE(byId.value(b).slotData.value(QStringLiteral("alias_of")).toString(), a);
    QCOMPARE(toStrings(byId.value(a).slotData.value(QStringLiteral("merged_from"))),
             QStringList{b});
}

namespace {

/// Text duplicates plus embedded nodes, so every stage of the job has work.
bool writeDuplicatesWithEmbeddings(MemoryService *svc)
{
    return writeInOrder(
        svc,
        {node(QStringLiteral("a"), QStringLiteral("entity"), QStringLiteral("Paris"),
              QStringLiteral("Capital of France."), {{QStringLiteral("embedding"), vector(0.0)}}),
         node(QStringLiteral("b"), QStringLiteral("entity"), QStringLiteral("Paris"),
              QStringLiteral("Capital of France."), {{QStringLiteral("embedding"), vector(0.3)}}),
         node(QStringLiteral("c"), QStringLiteral("entity"), QStringLiteral("Lyon"),
              QStringLiteral("A city."), {{QStringLiteral("embedding"), vector(0.6)}})});
}

} // namespace

void tst_Consolidation::progressNamesTheStages()
{
    TempService svc(quietEnv());
    QVERIFY(writeDuplicatesWithEmbeddings(svc.service()));
    QStringList stages;
    qint64 comparedTotal = 0;
    auto report = svc->consolidate(kTenant, kScope, true, [&](const Progress &p) {
        if (stages.isEmpty() || stages.last() != p.stage)
            stages << p.stage;
        if (p.stage == QLatin1String("comparing embeddings"))
            comparedTotal = p.total;
        return true;
    });
    QVERIFY(report);
    QCOMPARE(report.value().merges.size(), 1);
    QCOMPARE(stages,
             (QStringList{QStringLiteral("reading nodes"), QStringLiteral("comparing embeddings"),
                          QStringLiteral("applying")}));
    QCOMPARE(comparedTotal, qint64(3));
}

void tst_Consolidation::cancelledApplyWritesNothing()
{
    TempService svc(quietEnv());
    QVERIFY(writeDuplicatesWithEmbeddings(svc.service()));
    const qint64 commits = commitCount(svc.service());
    QSignalSpy committed(svc.service(), &MemoryService::committed);
    // Cancelled at each stage in turn: never a commit, never a marked node.
    for (const QString &stopAt :
         {QStringLiteral("reading nodes"), QStringLiteral("comparing embeddings"),
          QStringLiteral("applying")}) {
        auto report = svc->consolidate(kTenant, kScope, true,
                                       [&stopAt](const Progress &p) { return p.stage != stopAt; });
        QVERIFY2(!report, qPrintable(stopAt));
        QCOMPARE(report.error().code, QStringLiteral("cancelled"));
        QCOMPARE(commitCount(svc.service()), commits);
        QCOMPARE(committed.count(), 0);
        const NodeRecord b = byClientId(svc.service(), QStringLiteral("b"));
        QVERIFY(!b.slotData.contains(QStringLiteral("alias_of")));
    }
    // Not cancelled, the same job applies.
    auto report = svc->consolidate(kTenant, kScope, true);
    QVERIFY(report && !report.value().commitId.isEmpty());
}

QTEST_GUILESS_MAIN(tst_Consolidation)
#include "tst_consolidation.moc"
