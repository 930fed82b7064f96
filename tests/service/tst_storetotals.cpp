// The store totals behind /health (schema step "row_counts") are seeded from the existing rows
// when a database is upgraded, then kept by triggers.

#include "service/api/writerequest.h"
#include "service/memoryservice.h"
#include "tests/support/tempservice.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

QJsonObject node(const QString &clientId)
{
    return {{QStringLiteral("client_id"), clientId},
            {QStringLiteral("type"), QStringLiteral("event")},
            {QStringLiteral("text_summary"), QStringLiteral("about ") + clientId}};
}

bool write(MemoryService *service, const QString &scope, const QJsonArray &nodes,
           const QJsonArray &edges = {})
{
    QJsonObject body = writeBody(nodes, edges);
    body.insert(QStringLiteral("scope"), scope);
    auto request = WriteRequest::fromJson(body);
    return request && service->write(request.value(), RequestMeta{});
}

/// COUNT(*) per table, the slow way the totals replace.
QList<qint64> countedRows(const QString &databaseFile)
{
    QList<qint64> counts;
    {
        QSqlDatabase db
            = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("count"));
        db.setDatabaseName(databaseFile);
        if (db.open()) {
            for (const char *sql : {"SELECT COUNT(*) FROM nodes", "SELECT COUNT(*) FROM edges",
                                    "SELECT COUNT(*) FROM commits",
                                    "SELECT COUNT(*) FROM (SELECT tenant_id, scope FROM commits"
                                    " UNION SELECT tenant_id, scope FROM nodes)"}) {
                QSqlQuery q(db);
                counts << ((q.exec(QString::fromLatin1(sql)) && q.next()) ? q.value(0).toLongLong()
                                                                          : -1);
            }
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("count"));
    return counts;
}

QList<qint64> healthTotals(MemoryService *service)
{
    const HealthInfo h = service->health();
    return {h.nodes, h.edges, h.commits, h.scopes};
}

} // namespace

class tst_StoreTotals : public QObject
{
    Q_OBJECT

private slots:
    void upgradeSeedsTotalsFromExistingRows();
};

void tst_StoreTotals::upgradeSeedsTotalsFromExistingRows()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    TempService svc(env);
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(write(svc.service(), QStringLiteral("one"),
                  {node(QStringLiteral("a")), node(QStringLiteral("b"))},
                  {QJsonObject{{QStringLiteral("type"), QStringLiteral("part_of")},
                               {QStringLiteral("src"),
                                QJsonObject{{QStringLiteral("client_id"), QStringLiteral("a")}}},
                               {QStringLiteral("dst"), QJsonObject{{QStringLiteral("client_id"),
                                                                    QStringLiteral("b")}}}}}));
    QVERIFY(write(svc.service(), QStringLiteral("two"), {node(QStringLiteral("c"))}));
    const QString file = QDir(svc.dataDir()).filePath(QStringLiteral("memorygraph.sqlite"));
    QCOMPARE(healthTotals(svc.service()), countedRows(file));

    // Back to the schema before the totals existed, with the rows in place.
    QStringList downgrade = undoNodeVectorsSql();
    for (const char *trigger :
         {"nodes_counted", "nodes_uncounted", "edges_counted", "edges_uncounted", "commits_counted",
          "commits_uncounted", "known_scopes_counted"})
        downgrade << QStringLiteral("DROP TRIGGER %1").arg(QLatin1String(trigger));
    // The steps after it go too, as they did not exist then either.
    for (const char *trigger : {"node_text_added", "node_text_changed", "node_text_removed"})
        downgrade << QStringLiteral("DROP TRIGGER IF EXISTS %1").arg(QLatin1String(trigger));
    downgrade << QStringLiteral("DROP TABLE node_text")
              << QStringLiteral("DROP INDEX nodes_occurred_at")
              << QStringLiteral("ALTER TABLE nodes DROP COLUMN occurred_at")
              << QStringLiteral("DROP TABLE row_counts")
              << QStringLiteral("DROP TABLE known_scopes")
              << QStringLiteral("DROP TABLE automation_run_nodes")
              << QStringLiteral("DROP TABLE automation_runs")
              << QStringLiteral("DROP TABLE automation_versions")
              << QStringLiteral("DROP TABLE automation_defs")
              << QStringLiteral("DROP TABLE automation_reviews")
              << QStringLiteral("DROP TABLE automation_compensation_actions")
              << QStringLiteral("DROP TABLE automation_shadow_requests")
              << QStringLiteral("DROP INDEX nodes_scope_salience")
              << QStringLiteral(
                     "DELETE FROM schema_migrations WHERE name IN ('row_counts', 'lexical_index', "
                     "'node_occurred_at', 'automations', 'nodes_salience_order')");
    const QString failed = runSqlOnFile(file, downgrade);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));

    QVERIFY2(svc.reopen(), qPrintable(svc.errorText()));
    const QList<qint64> expected{3, 1, 2, 2};
    QCOMPARE(countedRows(file), expected);
    QCOMPARE(healthTotals(svc.service()), expected);

    // And kept from there on.
    QVERIFY(write(svc.service(), QStringLiteral("three"), {node(QStringLiteral("d"))}));
    QCOMPARE(healthTotals(svc.service()), countedRows(file));
}

QTEST_GUILESS_MAIN(tst_StoreTotals)
#include "tst_storetotals.moc"
