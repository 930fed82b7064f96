// A node's words and senses enter their FTS5 indexes once per write, from a queue the triggers
// fill: one index segment per write and index, not one per node; the queue is empty after every
// commit, and a node another program queued is indexed when the store opens.
#include "service/api/writerequest.h"
#include "service/memoryservice.h"
#include "tests/support/recalltesting.h"
#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

constexpr int kNodes = 40;

QJsonArray notes(int count, const QString &prefix)
{
    QJsonArray nodes;
    for (int i = 0; i < count; ++i)
        nodes.append(
            QJsonObject{{QStringLiteral("client_id"), QStringLiteral("%1%2").arg(prefix).arg(i)},
                        {QStringLiteral("type"), QStringLiteral("event")},
                        {QStringLiteral("title"), QStringLiteral("%1 note %2").arg(prefix).arg(i)},
                        {QStringLiteral("text_summary"),
                         QStringLiteral("The gardener planted %1 tulips by the river").arg(i)},
                        {QStringLiteral("embedding"), axis(i + 1)},
                        {QStringLiteral("memory_lane"), QStringLiteral("shared")}});
    return nodes;
}

/// Index segments of an FTS5 table (its %_idx table has rows per segment).
qint64 segments(const QString &file, const QString &table)
{
    return storeScalar(file, QStringLiteral("SELECT COUNT(DISTINCT segid) FROM %1_idx").arg(table));
}

} // namespace

class tst_TextIndexQueue : public QObject
{
    Q_OBJECT

private slots:
    void aWriteAddsOneSegmentPerIndex();
    void aNodeAnotherProgramQueuedIsIndexedAtStart();
};

void tst_TextIndexQueue::aWriteAddsOneSegmentPerIndex()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), notes(kNodes, QStringLiteral("a"))));
    const QString file = storeFile(svc);
    // Indexed node by node, FTS5 made a segment per node and merged them four at a time.
    QCOMPARE(segments(file, QStringLiteral("node_text")), 1);
    QCOMPARE(segments(file, QStringLiteral("node_concepts")), 1);
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_text")), kNodes);
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_concepts")), kNodes);
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM text_index_queue")), 0);
    auto recalled = recallText(svc.service(), QStringLiteral("tulips by the river"));
    QVERIFY2(recalled, why(recalled));
    QCOMPARE(recalled.value().seeds.size(), 5);
}

void tst_TextIndexQueue::aNodeAnotherProgramQueuedIsIndexedAtStart()
{
    TempService svc(localEmbedder());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeNodes(svc.service(), notes(kNodes, QStringLiteral("a"))));
    QVERIFY(
        writeNodes(svc.service(),
                   {QJsonObject{{QStringLiteral("client_id"), QStringLiteral("zz")},
                                {QStringLiteral("type"), QStringLiteral("event")},
                                {QStringLiteral("title"), QStringLiteral("Zeppelin hangar lease")},
                                {QStringLiteral("embedding"), axis(900)},
                                {QStringLiteral("memory_lane"), QStringLiteral("shared")}}}));
    // Another program (the sqlite3 shell, which lacks the concept function) takes the node out
    // of both indexes and queues it, as its triggers would on an edit.
    const QString file = storeFile(svc);
    const qint64 rowid
        = storeScalar(file, QStringLiteral("SELECT rowid FROM nodes WHERE client_id = 'zz'"));
    QVERIFY(rowid > 0);
    const QString failed = runSqlOnFile(
        file, {QStringLiteral("DELETE FROM node_text WHERE rowid = %1").arg(rowid),
               QStringLiteral("DELETE FROM node_concepts WHERE rowid = %1").arg(rowid),
               QStringLiteral("INSERT INTO text_index_queue (node_rowid) VALUES (%1)").arg(rowid)});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    QVERIFY2(svc.reopen(), qPrintable(svc.errorText()));
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM text_index_queue")), 0);
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_concepts")), kNodes + 1);
    auto recalled = recallText(svc.service(), QStringLiteral("zeppelin"));
    QVERIFY2(recalled, why(recalled));
    const RecallSeed *seed = seedOf(recalled.value(), QStringLiteral("zz"));
    QVERIFY(seed && seed->lexicalRank == 1);
}

QTEST_GUILESS_MAIN(tst_TextIndexQueue)
#include "tst_textindexqueue.moc"
