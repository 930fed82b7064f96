#include "service/storage/database.h"
#include "service/storage/schema.h"
#include "tests/support/tempservice.h"

#include <QFileInfo>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent>

using namespace MemoryGraph;

class tst_Database : public QObject
{
    Q_OBJECT

private slots:
    void openCreatesSchemaAtLatestVersion();
    void reopenKeepsDataAndDoesNotRemigrate();
    void usesWriteAheadLogAndForeignKeys();
    void rowsWithoutLaneReadAsShared();
    void failedWriteRollsBack();
    void readersRunWhileWriterCommits();
    void refusesNewerSchema();
    void cachedStatementsAreResetAfterUse();
    void cachedStatementOutlivesItsDatabase();
    void commitsReachTheFileWithoutAWriterCheckpointing();
};

void tst_Database::openCreatesSchemaAtLatestVersion()
{
    QTemporaryDir dir;
    auto db = Database::open(dir.filePath(QStringLiteral("a.sqlite")));
    QVERIFY2(db.ok(), qPrintable(db ? QString() : db.error().message));
    QCOMPARE(db.value()->schemaVersion(), int(schemaMigrations().size()));
    auto conn = db.value()->connection();
    QVERIFY(conn.ok());
    QSqlDatabase c = conn.value();
    for (const char *table : {"nodes", "edges", "commits", "schema_migrations"})
        QVERIFY2(c.tables().contains(QString::fromLatin1(table)), table);
}

void tst_Database::reopenKeepsDataAndDoesNotRemigrate()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("a.sqlite"));
    {
        auto db = Database::open(path);
        QVERIFY(db.ok());
        auto w = db.value()->write([](QSqlDatabase &c) -> Result<void> {
            auto r = runSql(
                c,
                QStringLiteral("INSERT INTO commits (id, tenant_id, scope, seq,"
                               " parent_hash, input_sha256, diff_sha256, diff, actor,"
                               " kind, commit_hash, created_at) VALUES"
                               " ('c1','default','default',1,'','x','y','{}','a','write','h1',0)"));
            if (!r)
                return r.error();
            return {};
        });
        QVERIFY(w.ok());
    }
    auto db = Database::open(path);
    QVERIFY(db.ok());
    auto conn = db.value()->connection();
    QSqlQuery q(conn.value());
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM commits")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM schema_migrations")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), int(schemaMigrations().size()));
}

void tst_Database::usesWriteAheadLogAndForeignKeys()
{
    QTemporaryDir dir;
    auto db = Database::open(dir.filePath(QStringLiteral("a.sqlite")));
    QVERIFY(db.ok());
    QSqlQuery q(db.value()->connection().value());
    QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
    QVERIFY(q.exec(QStringLiteral("PRAGMA foreign_keys")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 1);
    QVERIFY(q.exec(QStringLiteral("PRAGMA synchronous")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 2); // FULL
}

void tst_Database::rowsWithoutLaneReadAsShared()
{
    // spec §3.2: rows that predate lanes are treated as shared.
    Test::TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    {
        auto db = Database::open(svc.dataDir() + QStringLiteral("/memorygraph.sqlite"));
        QVERIFY(db.ok());
        auto w = db.value()->write([](QSqlDatabase &c) -> Result<void> {
            auto r = runSql(
                c, QStringLiteral("INSERT INTO nodes (id, tenant_id, scope, type, title,"
                                  " created_at, updated_at, commit_id) VALUES"
                                  " ('n-legacy','default','default','event','old',0,0,'c0')"));
            if (!r)
                return r.error();
            return {};
        });
        QVERIFY(w.ok());
    }
    auto detail = svc->nodeDetail(QStringLiteral("default"), QStringLiteral("default"),
                                  QStringLiteral("n-legacy"));
    QVERIFY(detail.ok());
    QCOMPARE(detail.value().node.memoryLane, QStringLiteral("shared"));
}

void tst_Database::failedWriteRollsBack()
{
    QTemporaryDir dir;
    auto db = Database::open(dir.filePath(QStringLiteral("a.sqlite")));
    QVERIFY(db.ok());
    auto w = db.value()->write([](QSqlDatabase &c) -> Result<void> {
        auto r = runSql(
            c, QStringLiteral("INSERT INTO commits (id, tenant_id, scope, seq,"
                              " parent_hash, input_sha256, diff_sha256, diff, actor,"
                              " kind, commit_hash, created_at) VALUES"
                              " ('c1','default','default',1,'','x','y','{}','a','write','h1',0)"));
        if (!r)
            return r.error();
        return Error::invalidField(QStringLiteral("x"), QStringLiteral("late failure"));
    });
    QVERIFY(!w.ok());
    QCOMPARE(w.error().code, QStringLiteral("invalid_request"));
    QSqlQuery q(db.value()->connection().value());
    QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM commits")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toInt(), 0);
}

void tst_Database::readersRunWhileWriterCommits()
{
    QTemporaryDir dir;
    auto opened = Database::open(dir.filePath(QStringLiteral("a.sqlite")));
    QVERIFY(opened.ok());
    Database *db = opened.value().get();
    QThreadPool pool;
    pool.setMaxThreadCount(4);
    auto writer = QtConcurrent::run(&pool, [db] {
        int ok = 0;
        for (int i = 0; i < 200; ++i) {
            auto w = db->write([i](QSqlDatabase &c) -> Result<void> {
                auto r
                    = runSql(c,
                             QStringLiteral("INSERT INTO commits (id, tenant_id, scope, seq,"
                                            " parent_hash, input_sha256, diff_sha256, diff,"
                                            " actor, kind, commit_hash, created_at) VALUES"
                                            " (?, 'default', 'default', ?, '', 'x', 'y', '{}',"
                                            " 'a', 'write', ?, 0)"),
                             {QStringLiteral("c%1").arg(i), i + 1, QStringLiteral("h%1").arg(i)});
                if (!r)
                    return r.error();
                return {};
            });
            ok += w.ok() ? 1 : 0;
        }
        return ok;
    });
    auto reader = [db] {
        int reads = 0;
        for (int i = 0; i < 300; ++i) {
            auto conn = db->connection();
            if (!conn)
                return -1;
            QSqlQuery q(conn.value());
            if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM commits")) || !q.next())
                return -1;
            ++reads;
        }
        return reads;
    };
    auto r1 = QtConcurrent::run(&pool, reader);
    auto r2 = QtConcurrent::run(&pool, reader);
    QCOMPARE(writer.result(), 200);
    QCOMPARE(r1.result(), 300);
    QCOMPARE(r2.result(), 300);
}

void tst_Database::refusesNewerSchema()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("a.sqlite"));
    {
        auto db = Database::open(path);
        QVERIFY(db.ok());
        auto w = db.value()->write([](QSqlDatabase &c) -> Result<void> {
            auto r = runSql(
                c, QStringLiteral("INSERT INTO schema_migrations VALUES (999, 'future', 0)"));
            if (!r)
                return r.error();
            return {};
        });
        QVERIFY(w.ok());
    }
    auto db = Database::open(path);
    QVERIFY(!db.ok());
    QCOMPARE(db.error().code, QStringLiteral("schema_too_new"));
}

namespace {

/// Counts how many commits a fresh connection of another thread sees.
qint64 commitsSeenElsewhere(Database &db)
{
    return QtConcurrent::run([&db]() -> qint64 {
               auto conn = db.connection();
               if (!conn)
                   return -1;
               QSqlQuery q(conn.value());
               if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM commits")) || !q.next())
                   return -1;
               return q.value(0).toLongLong();
           })
        .result();
}

Result<void> insertCommitRow(QSqlDatabase &c, int n)
{
    return runCachedSql(c,
                        QStringLiteral("INSERT INTO commits (id, tenant_id, scope, seq,"
                                       " parent_hash, input_sha256, diff_sha256, diff, actor,"
                                       " kind, commit_hash, created_at) VALUES"
                                       " (?,'default','default',?,'','x','y','{}','a','write',?,0)"
                                       " RETURNING seq"),
                        {QStringLiteral("c%1").arg(n), n, QStringLiteral("h%1").arg(n)},
                        [](QSqlQuery &q) { q.next(); }); // reads the one row, not to the end
}

} // namespace

void tst_Database::cachedStatementsAreResetAfterUse()
{
    QTemporaryDir dir;
    auto db = Database::open(dir.filePath(QStringLiteral("a.sqlite")));
    QVERIFY(db.ok());
    // A statement left mid-step would make COMMIT fail ("SQL statements in progress").
    for (int n = 1; n <= 3; ++n) {
        auto w = db.value()->write([n](QSqlDatabase &c) { return insertCommitRow(c, n); });
        QVERIFY2(w.ok(), qPrintable(w ? QString() : w.error().message));
    }
    // A lookup read to its first row only must not pin this connection's read snapshot.
    auto conn = db.value()->connection();
    QVERIFY(conn.ok());
    qint64 first = -1;
    auto read = runCachedSql(conn.value(), QStringLiteral("SELECT seq FROM commits ORDER BY seq"),
                             {}, [&first](QSqlQuery &q) {
                                 if (q.next())
                                     first = q.value(0).toLongLong();
                             });
    QVERIFY(read.ok());
    QCOMPARE(first, qint64(1));
    // Written on another thread's connection: a pinned snapshot here would still count 3.
    const bool written
        = QtConcurrent::run([&db]() {
              return db.value()->write([](QSqlDatabase &c) { return insertCommitRow(c, 4); }).ok();
          }).result();
    QVERIFY(written);
    QSqlQuery count(conn.value());
    QVERIFY(count.exec(QStringLiteral("SELECT COUNT(*) FROM commits")) && count.next());
    QCOMPARE(count.value(0).toLongLong(), qint64(4));
    QCOMPARE(commitsSeenElsewhere(*db.value()), qint64(4));
    // A failing run reports the SQL error and leaves the statement usable.
    auto duplicate = db.value()->write([](QSqlDatabase &c) { return insertCommitRow(c, 4); });
    QVERIFY(!duplicate.ok());
    QVERIFY(db.value()->write([](QSqlDatabase &c) { return insertCommitRow(c, 5); }).ok());
}

void tst_Database::cachedStatementOutlivesItsDatabase()
{
    // This thread keeps the statements of a store it closed; a new store at the same path
    // must prepare its own and both must close cleanly.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("a.sqlite"));
    for (int round = 1; round <= 2; ++round) {
        auto db = Database::open(path);
        QVERIFY(db.ok());
        auto w = db.value()->write([round](QSqlDatabase &c) { return insertCommitRow(c, round); });
        QVERIFY2(w.ok(), qPrintable(w ? QString() : w.error().message));
        QCOMPARE(commitsSeenElsewhere(*db.value()), qint64(round));
    }
}

void tst_Database::commitsReachTheFileWithoutAWriterCheckpointing()
{
    // About 4 MB of commits, below the automatic checkpoint's bound: only the background
    // checkpoint moves them from the WAL into the database file.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("a.sqlite"));
    auto db = Database::open(path);
    QVERIFY(db.ok());
    db.value()->waitForCheckpoint();
    const qint64 before = QFileInfo(path).size();
    const QString padding(2000, QLatin1Char('x'));
    for (int batch = 0; batch < 20; ++batch) {
        auto w = db.value()->write([&](QSqlDatabase &c) -> Result<void> {
            for (int i = 0; i < 100; ++i) {
                const int n = batch * 100 + i + 1;
                auto r = runCachedSql(
                    c,
                    QStringLiteral("INSERT INTO commits (id, tenant_id, scope, seq, parent_hash,"
                                   " input_sha256, diff_sha256, diff, actor, kind, commit_hash,"
                                   " created_at) VALUES (?,'default','default',?,'','x','y',?,"
                                   "'a','write',?,0)"),
                    {QStringLiteral("c%1").arg(n), n, padding, QStringLiteral("h%1").arg(n)});
                if (!r)
                    return r;
            }
            return {};
        });
        QVERIFY2(w.ok(), qPrintable(w ? QString() : w.error().message));
    }
    db.value()->waitForCheckpoint();
    QVERIFY2(QFileInfo(path).size() > before + 3 * 1024 * 1024,
             qPrintable(QStringLiteral("%1 -> %2 bytes").arg(before).arg(QFileInfo(path).size())));
}

QTEST_GUILESS_MAIN(tst_Database)
#include "tst_database.moc"
