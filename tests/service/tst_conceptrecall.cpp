// The concept seed channel: an FTS5 index of each node's WordNet concepts, kept with the nodes
// (write, edit, forget, upgrade), walled by tenant and scope, fused with the others.
#include "service/api/lifecyclerequests.h"
#include "service/api/writerequest.h"
#include "service/memoryservice.h"
#include "tests/support/recalltesting.h"
#include "tests/support/tempservice.h"

#include <QDir>
#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

constexpr int kFiller = 30;

const QString kCat = QStringLiteral("Mara keeps a tabby cat called Biscuit");
const QString kFelines = QStringLiteral("Who looks after felines?");

/// A shared memory whose vector points nowhere near any text, so only words or concepts find
/// it. Its title is its client id: short codes no concept stands for.
QJsonObject memory(const QString &clientId, const QString &summary, int vectorAxis)
{
    return {{QStringLiteral("client_id"), clientId},
            {QStringLiteral("type"), QStringLiteral("event")},
            {QStringLiteral("title"), clientId},
            {QStringLiteral("text_summary"), summary},
            {QStringLiteral("embedding"), axis(vectorAxis)},
            {QStringLiteral("memory_lane"), QStringLiteral("shared")}};
}

QJsonArray filler()
{
    QJsonArray nodes;
    for (int i = 0; i < kFiller; ++i)
        nodes.append(memory(QStringLiteral("f%1").arg(i),
                            QStringLiteral("Routine note %1 about the weekly budget review").arg(i),
                            i + 1));
    return nodes;
}

} // namespace

class tst_ConceptRecall : public QObject
{
    Q_OBJECT

private slots:
    void aSharedConceptFindsTheMemory();
    void theConceptChannelAlone();
    void tenantsAndScopesAreWalls();
    void editsReindexAndForgetRemoves();
    void anUpgradedStoreGainsTheIndex();
};

void tst_ConceptRecall::aSharedConceptFindsTheMemory()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    QVERIFY(writeNodes(svc.service(), {memory(QStringLiteral("n1"), kCat, 900)}));
    // "felines" and "cat" share no word, no stem and no trigram: only the concept links them.
    auto recalled = recallText(svc.service(), kFelines);
    QVERIFY2(recalled, why(recalled));
    QCOMPARE(recalled.value().seedChannels, QStringLiteral("hybrid"));
    const RecallSeed *seed = seedOf(recalled.value(), QStringLiteral("n1"));
    QVERIFY2(seed, "the concept feline must make the cat a seed");
    QCOMPARE(seed->conceptRank, 1);
    QCOMPARE(seed->lexicalRank, 0);
    QCOMPARE(recalled.value().seeds.first().node.clientId, QStringLiteral("n1"));
    QVERIFY(recalled.value().conceptCandidates >= 1);
}

void tst_ConceptRecall::theConceptChannelAlone()
{
    TempService svc(localEmbedder(QStringLiteral("concept")));
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    QVERIFY(writeNodes(svc.service(), {memory(QStringLiteral("n1"), kCat, 900)}));
    auto recalled = recallText(svc.service(), kFelines);
    QVERIFY2(recalled, why(recalled));
    QCOMPARE(recalled.value().seedChannels, QStringLiteral("concept"));
    QCOMPARE(recalled.value().stage1Mode, QStringLiteral("concept"));
    QCOMPARE(recalled.value().seeds.size(), 1);
    const RecallSeed &seed = recalled.value().seeds.first();
    QCOMPARE(seed.node.clientId, QStringLiteral("n1"));
    QCOMPARE(seed.conceptRank, 1);
    QCOMPARE(seed.vectorRank, 0);
    QCOMPARE(seed.lexicalRank, 0);
}

void tst_ConceptRecall::tenantsAndScopesAreWalls()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    QVERIFY(writeNodes(svc.service(), {memory(QStringLiteral("scoped"), kCat, 901)},
                       QStringLiteral("other-scope")));
    QVERIFY(writeNodes(svc.service(), {memory(QStringLiteral("tenanted"), kCat, 902)}, {},
                       QStringLiteral("other-tenant")));
    auto recalled = recallText(svc.service(), kFelines, 20);
    QVERIFY2(recalled, why(recalled));
    QCOMPARE(recalled.value().conceptCandidates, 0);
    for (const RecallSeed &s : recalled.value().seeds)
        QVERIFY2(s.conceptRank == 0, qPrintable(s.node.clientId + QStringLiteral(" leaked")));
}

void tst_ConceptRecall::editsReindexAndForgetRemoves()
{
    TempService svc(localEmbedder(QStringLiteral("concept")));
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    QVERIFY(writeNodes(svc.service(), {memory(QStringLiteral("n1"), kCat, 950)}));
    QVERIFY(writeNodes(
        svc.service(),
        {memory(QStringLiteral("n1"), QStringLiteral("Mara walks her terrier daily"), 950)}));
    // Only the old text meant a domestic cat (a terrier and a cat are both carnivores).
    auto old = recallText(svc.service(), QStringLiteral("a house cat"));
    QVERIFY2(old, why(old));
    QCOMPARE(old.value().conceptCandidates, 0);
    auto edited = recallText(svc.service(), QStringLiteral("Who has a dog?"));
    QVERIFY2(edited, why(edited));
    const RecallSeed *seed = seedOf(edited.value(), QStringLiteral("n1"));
    QVERIFY(seed && seed->conceptRank == 1);

    const QString file = storeFile(svc);
    const QString rowOf = QStringLiteral("SELECT COUNT(*) FROM node_concepts WHERE rowid ="
                                         " (SELECT rowid FROM nodes WHERE client_id = 'n1')");
    QCOMPARE(storeScalar(file, rowOf), 1);
    const qint64 indexed = storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_concepts"));
    QCOMPARE(indexed, kFiller + 1);

    NodeForgetRequest forget;
    forget.nodeId = seed->node.id;
    forget.reason = QStringLiteral("test");
    forget.inputText = QStringLiteral("forget the dog");
    auto forgotten = svc->forgetNode(forget, RequestMeta{});
    QVERIFY2(forgotten, why(forgotten));
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_concepts")), indexed - 1);
    auto after = recallText(svc.service(), QStringLiteral("Who has a dog?"));
    QVERIFY2(after, why(after));
    QCOMPARE(after.value().conceptCandidates, 0);
}

void tst_ConceptRecall::anUpgradedStoreGainsTheIndex()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), filler()));
    QJsonObject withSlots = memory(QStringLiteral("old"), QStringLiteral("A note"), 960);
    withSlots.insert(QStringLiteral("slots"),
                     QJsonObject{{QStringLiteral("pet"), QStringLiteral("a ginger cat")}});
    QVERIFY(writeNodes(svc.service(), {withSlots}));
    // Back to the schema before the concept index, rows in place.
    const QString file = storeFile(svc);
    const QString failed = runSqlOnFile(file, undoConceptIndexSql());
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    QVERIFY2(svc.reopen(), qPrintable(svc.errorText()));
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_concepts")), kFiller + 1);
    // Slot text was indexed by the upgrade.
    auto recalled = recallText(svc.service(), kFelines);
    QVERIFY2(recalled, why(recalled));
    const RecallSeed *seed = seedOf(recalled.value(), QStringLiteral("old"));
    QVERIFY(seed && seed->conceptRank == 1);
}

QTEST_GUILESS_MAIN(tst_ConceptRecall)
#include "tst_conceptrecall.moc"
