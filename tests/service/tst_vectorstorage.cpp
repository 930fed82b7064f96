// Where a node's vector is stored: a row of node_vectors keyed by the node's label, not a blob in
// the node row (which spilled every node onto overflow pages). Kept with the node through
// write, re-embedding, forget and the upgrade of a store that still holds vectors in its rows.
#include "service/api/lifecyclerequests.h"
#include "service/api/recallrequest.h"
#include "service/api/writerequest.h"
#include "service/memoryservice.h"
#include "tests/support/recalltesting.h"
#include "tests/support/tempservice.h"

#include <QDir>
#include <QJsonArray>
#include <QProcessEnvironment>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

constexpr int kNodes = 24; ///< enough rows that a page per row is told from packed rows

QJsonObject memory(const QString &clientId, int vectorAxis)
{
    return {{QStringLiteral("client_id"), clientId},
            {QStringLiteral("type"), QStringLiteral("event")},
            {QStringLiteral("title"), clientId},
            {QStringLiteral("text_summary"), QStringLiteral("memory ") + clientId},
            {QStringLiteral("embedding"), axis(vectorAxis)},
            {QStringLiteral("memory_lane"), QStringLiteral("shared")}};
}

bool write(MemoryService *service, const QJsonArray &nodes)
{
    auto request = WriteRequest::fromJson(writeBody(nodes));
    return request && service->write(request.value(), RequestMeta{}).ok();
}

/// The client id of the best seed of a vector recall along `vectorAxis`.
QString nearest(MemoryService *service, int vectorAxis)
{
    auto request
        = RecallRequest::fromJson(QJsonObject{{QStringLiteral("query_embedding"), axis(vectorAxis)},
                                              {QStringLiteral("limit"), 3}},
                                  false, 8000);
    if (!request)
        return QStringLiteral("bad request: ") + request.error().message;
    auto recalled = service->recall(request.value(), RequestMeta{});
    if (!recalled)
        return QStringLiteral("recall failed: ") + recalled.error().message;
    if (recalled.value().seeds.isEmpty())
        return {};
    return recalled.value().seeds.first().node.clientId;
}

} // namespace

class tst_VectorStorage : public QObject
{
    Q_OBJECT

private slots:
    void aNodeRowHoldsNoVector();
    void forgettingANodeRemovesItsVector();
    void anUpgradedStoreMovesItsVectorsOutOfTheRows();
};

void tst_VectorStorage::aNodeRowHoldsNoVector()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(write(svc.service(), {memory(QStringLiteral("a"), 1), memory(QStringLiteral("b"), 2)}));
    const QString file = storeFile(svc);
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM pragma_table_info('nodes')"
                                              " WHERE name = 'embedding'")),
             0);
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_vectors JOIN nodes"
                                              " ON vector_label = label")),
             2);
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT MAX(length(embedding)) FROM node_vectors")),
             qint64(kVectorDim * sizeof(float)));
    QCOMPARE(nearest(svc.service(), 2), QStringLiteral("b"));

    // A new vector replaces the old one in place.
    QVERIFY(write(svc.service(), {memory(QStringLiteral("b"), 7)}));
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_vectors")), 2);
    QCOMPARE(nearest(svc.service(), 7), QStringLiteral("b"));
}

void tst_VectorStorage::forgettingANodeRemovesItsVector()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(
        write(svc.service(), {memory(QStringLiteral("keep"), 1), memory(QStringLiteral("go"), 2)}));
    const QString file = storeFile(svc);
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_vectors")), 2);

    NodeForgetRequest forget;
    {
        QSqlDatabase db
            = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("id"));
        db.setDatabaseName(file);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("SELECT id FROM nodes WHERE client_id = 'go'")) && q.next());
        forget.nodeId = q.value(0).toString();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("id"));
    forget.reason = QStringLiteral("test");
    forget.inputText = QStringLiteral("forget it");
    auto forgotten = svc->forgetNode(forget, RequestMeta{});
    QVERIFY2(forgotten, why(forgotten));
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_vectors")), 1);
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_vectors JOIN nodes"
                                              " ON vector_label = label WHERE client_id = 'keep'")),
             1);
}

void tst_VectorStorage::anUpgradedStoreMovesItsVectorsOutOfTheRows()
{
    // Its own service over its own folder: the store must be closed (indexes saved) before
    // the schema is taken back, as an older build leaves it.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto config = ServiceConfig::fromEnvironment(QProcessEnvironment());
    QVERIFY(config);
    ServiceConfig c = config.value();
    c.dataDir = dir.path();
    auto opened = MemoryService::open(c);
    QVERIFY2(opened, why(opened));
    QJsonArray nodes;
    for (int i = 1; i <= kNodes; ++i)
        nodes.append(memory(QString(QChar(u'a' + i - 1)), i));
    QVERIFY(write(opened.value().get(), nodes));
    opened.value().reset();

    const QString file = QDir(dir.path()).filePath(QStringLiteral("memorygraph.sqlite"));
    // The steps after it go too, as they did not exist then either.
    const QString failed = runSqlOnFile(
        file, undoNodeVectorsSql()
                  << QStringLiteral("DROP INDEX nodes_scope_salience")
                  << QStringLiteral(
                         "DELETE FROM schema_migrations WHERE name = 'nodes_salience_order'"));
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    QCOMPARE(
        storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM nodes WHERE embedding IS NOT NULL")),
        kNodes);
    // Without the saved index files the vectors must come from the moved rows.
    QVERIFY(QDir(QDir(dir.path()).filePath(QStringLiteral("index"))).removeRecursively());

    auto reopened = MemoryService::open(c);
    QVERIFY2(reopened, why(reopened));
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM pragma_table_info('nodes')"
                                              " WHERE name = 'embedding'")),
             0);
    QCOMPARE(storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM node_vectors JOIN nodes"
                                              " ON vector_label = label")),
             kNodes);
    // Compacted: the node rows, a page each while they held their vectors, are packed again.
    QCOMPARE(storeScalar(file, QStringLiteral("PRAGMA freelist_count")), 0);
    const qint64 nodePages
        = storeScalar(file, QStringLiteral("SELECT COUNT(*) FROM dbstat WHERE name = 'nodes'"));
    QVERIFY2(nodePages > 0 && nodePages < kNodes / 2, qPrintable(QString::number(nodePages)));
    QCOMPARE(nearest(reopened.value().get(), 3), QStringLiteral("c"));
    QCOMPARE(nearest(reopened.value().get(), 1), QStringLiteral("a"));
}

QTEST_GUILESS_MAIN(tst_VectorStorage)
#include "tst_vectorstorage.moc"
