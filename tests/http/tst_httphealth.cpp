// GET /health over real HTTP (spec §4.1; DESIGN decision 1).

#include "service/api/lifecyclerequests.h"
#include "tests/http/httptestserver.h"

#include <QDir>
#include <QMutex>
#include <QRegularExpression>
#include <QTest>

#include <atomic>
#include <sqlite3.h>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

const QString kHealth = QStringLiteral("/health");

QJsonObject countsOf(const Reply &reply)
{
    return reply.json.value(QStringLiteral("counts")).toObject();
}

QJsonObject expectedCounts(int nodes, int edges, int commits, int scopes)
{
    return {{QStringLiteral("nodes"), nodes},
            {QStringLiteral("edges"), edges},
            {QStringLiteral("commits"), commits},
            {QStringLiteral("scopes"), scopes}};
}

/// Every SQL statement any connection of this process runs while recording is on. Installed as
/// an SQLite auto-extension, so it reaches the connections the service opens on its threads.
struct StatementRecorder
{
    static StatementRecorder &instance()
    {
        static StatementRecorder recorder;
        return recorder;
    }

    std::atomic_bool recording{false};
    QMutex mutex;
    QStringList statements;

    static int onTrace(unsigned type, void *, void *, void *sqlText)
    {
        StatementRecorder &r = instance();
        if (type == SQLITE_TRACE_STMT && r.recording.load()) {
            const QString sql = QString::fromUtf8(static_cast<const char *>(sqlText));
            if (!sql.startsWith(QLatin1String("--"))) { // "-- TRIGGER ..." lines
                QMutexLocker lock(&r.mutex);
                r.statements.append(sql);
            }
        }
        return 0;
    }

    static int attach(sqlite3 *db, const char **, const sqlite3_api_routines *)
    {
        sqlite3_trace_v2(db, SQLITE_TRACE_STMT, &StatementRecorder::onTrace, nullptr);
        return SQLITE_OK;
    }

    static void install()
    {
        sqlite3_auto_extension(reinterpret_cast<void (*)()>(&StatementRecorder::attach));
    }
    static void uninstall()
    {
        sqlite3_cancel_auto_extension(reinterpret_cast<void (*)()>(&StatementRecorder::attach));
    }

    QStringList take()
    {
        QMutexLocker lock(&mutex);
        QStringList taken = statements;
        statements.clear();
        return taken;
    }
};

/// The EXPLAIN QUERY PLAN lines of sql on the database file, or an error line.
QStringList queryPlan(const QString &databaseFile, const QString &sql)
{
    sqlite3 *db = nullptr;
    QStringList lines;
    if (sqlite3_open_v2(QFile::encodeName(databaseFile).constData(), &db, SQLITE_OPEN_READONLY,
                        nullptr)
        != SQLITE_OK) {
        sqlite3_close(db);
        return {QStringLiteral("cannot open ") + databaseFile};
    }
    sqlite3_stmt *stmt = nullptr;
    const QByteArray explain = "EXPLAIN QUERY PLAN " + sql.toUtf8();
    if (sqlite3_prepare_v2(db, explain.constData(), -1, &stmt, nullptr) != SQLITE_OK) {
        lines << QStringLiteral("cannot explain: ") + QString::fromUtf8(sqlite3_errmsg(db));
    } else {
        while (sqlite3_step(stmt) == SQLITE_ROW)
            lines << QString::fromUtf8(
                reinterpret_cast<const char *>(sqlite3_column_text(stmt, 3)));
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return lines;
}

} // namespace

class tst_HttpHealth : public QObject
{
    Q_OBJECT

private slots:
    void shape();
    void countsReflectWrites();
    void wrongMethod();
    void requestIdEchoed();
    void healthScansNoTable();
    void countsFollowDeletes();
};

#define REQUIRE_SERVER(server) QVERIFY2((server).isReady(), qPrintable((server).errorText()))

void tst_HttpHealth::shape()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply r = server.get(kHealth);
    QVERIFY2(r.status == 200, r.describe());
    QVERIFY(r.isJsonObject);
    QCOMPARE(r.header("content-type"), QByteArrayLiteral("application/json"));
    QCOMPARE(keysOf(r.json), keyList({"ok", "version", "storage", "auth_mode", "counts"}));
    QCOMPARE(r.json.value(QStringLiteral("ok")), QJsonValue(true));
    const QString version = r.json.value(QStringLiteral("version")).toString();
    QVERIFY2(QRegularExpression(QStringLiteral("^\\d+\\.\\d+\\.\\d+")).match(version).hasMatch(),
             qPrintable(version));
    QCOMPARE(r.json.value(QStringLiteral("storage")).toObject(),
             (QJsonObject{{QStringLiteral("backend"), QStringLiteral("sqlite")}}));
    QCOMPARE(r.json.value(QStringLiteral("auth_mode")).toString(), QStringLiteral("off"));
    QCOMPARE(countsOf(r), expectedCounts(0, 0, 0, 0));
}

void tst_HttpHealth::countsReflectWrites()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply w = server.write(writeBody(
        {writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha")),
         writeNode(QStringLiteral("b"), QStringLiteral("entity"), QStringLiteral("beta"))},
        {writeEdge(QStringLiteral("part_of"), byClientId(QStringLiteral("a")),
                   byClientId(QStringLiteral("b")))}));
    QVERIFY2(w.status == 200, w.describe());
    const Reply afterFirst = server.get(kHealth);
    QVERIFY2(afterFirst.status == 200, afterFirst.describe());
    QCOMPARE(countsOf(afterFirst), expectedCounts(2, 1, 1, 1));

    QJsonObject other = writeBody(
        {writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha"))});
    other.insert(QStringLiteral("scope"), QStringLiteral("elsewhere"));
    const Reply w2 = server.write(other);
    QVERIFY2(w2.status == 200, w2.describe());
    const Reply afterSecond = server.get(kHealth);
    QCOMPARE(countsOf(afterSecond), expectedCounts(3, 1, 2, 2));

    // A rejected write changes nothing.
    const Reply bad = server.write(QJsonObject{{QStringLiteral("nodes"), QJsonArray()}});
    QVERIFY2(bad.status == 400, bad.describe());
    QCOMPARE(countsOf(server.get(kHealth)), expectedCounts(3, 1, 2, 2));
}

void tst_HttpHealth::wrongMethod()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply r = server.post(kHealth, QByteArrayLiteral("{}"));
    QVERIFY2(r.status == 405, r.describe());
    QCOMPARE(r.header("allow"), QByteArrayLiteral("GET"));
    QCOMPARE(r.errorCode(), QStringLiteral("method_not_allowed"));
}

void tst_HttpHealth::requestIdEchoed()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);

    const Reply given
        = server.get(kHealth, {{QByteArrayLiteral("X-Request-Id"), QByteArrayLiteral("probe-1")}});
    QVERIFY2(given.status == 200, given.describe());
    QCOMPARE(given.header("x-request-id"), QByteArrayLiteral("probe-1"));

    const Reply fresh = server.get(kHealth);
    QVERIFY2(fresh.status == 200, fresh.describe());
    QVERIFY2(isLowerUuid(QString::fromLatin1(fresh.header("x-request-id"))),
             fresh.header("x-request-id").constData());
}

void tst_HttpHealth::healthScansNoTable()
{
    // /health answers every caller as often as it likes: the statements it runs must look rows
    // up, never scan (count) nodes, edges or commits, which grow without bound.
    StatementRecorder::install();
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Reply w = server.write(writeBody(
        {writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha")),
         writeNode(QStringLiteral("b"), QStringLiteral("entity"), QStringLiteral("beta"))},
        {writeEdge(QStringLiteral("part_of"), byClientId(QStringLiteral("a")),
                   byClientId(QStringLiteral("b")))}));
    QVERIFY2(w.status == 200, w.describe());
    QVERIFY(server.service()->waitForEmbeddings(10000)); // no background statements below

    StatementRecorder::instance().take();
    StatementRecorder::instance().recording = true;
    const Reply r = server.get(kHealth);
    StatementRecorder::instance().recording = false;
    StatementRecorder::uninstall();
    QVERIFY2(r.status == 200, r.describe());
    QCOMPARE(countsOf(r), expectedCounts(2, 1, 1, 1));

    const QStringList statements = StatementRecorder::instance().take();
    const QString databaseFile
        = QDir(server.service()->config().dataDir).filePath(QStringLiteral("memorygraph.sqlite"));
    static const QRegularExpression tableScan(QStringLiteral("^SCAN (nodes|edges|commits)\\b"));
    bool sawQuery = false;
    for (const QString &sql : statements) {
        if (sql.startsWith(QLatin1String("PRAGMA")))
            continue; // a worker thread opening its connection
        sawQuery = true;
        const QStringList plan = queryPlan(databaseFile, sql);
        for (const QString &line : plan) {
            QVERIFY2(!line.startsWith(QLatin1String("cannot")), qPrintable(line));
            QVERIFY2(!tableScan.match(line).hasMatch(),
                     qPrintable(QStringLiteral("%1\n  plan: %2").arg(sql, line)));
        }
    }
    QVERIFY2(sawQuery, "no statement was recorded for the health call");
}

void tst_HttpHealth::countsFollowDeletes()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    const Reply w = server.write(writeBody(
        {writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha")),
         writeNode(QStringLiteral("b"), QStringLiteral("entity"), QStringLiteral("beta"))},
        {writeEdge(QStringLiteral("part_of"), byClientId(QStringLiteral("a")),
                   byClientId(QStringLiteral("b")))}));
    QVERIFY2(w.status == 200, w.describe());
    const QJsonObject written = w.json.value(QStringLiteral("nodes")).toArray().first().toObject();

    // Re-sending a changed node updates it in place: no new row.
    QJsonObject changed = writeBody({writeNode(QStringLiteral("a"), QStringLiteral("event"),
                                               QStringLiteral("alpha, changed"))});
    const Reply update = server.write(changed);
    QVERIFY2(update.status == 200, update.describe());
    QCOMPARE(countsOf(server.get(kHealth)), expectedCounts(2, 1, 2, 1));

    // Forgetting a node removes it and, by cascade, its edge; the forget is itself a commit.
    NodeForgetRequest forget;
    forget.tenantId = w.json.value(QStringLiteral("tenant_id")).toString();
    forget.scope = w.json.value(QStringLiteral("scope")).toString();
    forget.nodeId = written.value(QStringLiteral("id")).toString();
    forget.actor = QStringLiteral("operator");
    forget.reason = QStringLiteral("test");
    forget.inputText = QStringLiteral("forget a");
    const auto forgotten = server.service()->forgetNode(forget, RequestMeta{});
    QVERIFY2(forgotten.ok(), forgotten.ok() ? "" : qPrintable(forgotten.error().message));
    QCOMPARE(countsOf(server.get(kHealth)), expectedCounts(1, 0, 3, 1));
}

QTEST_GUILESS_MAIN(tst_HttpHealth)
#include "tst_httphealth.moc"
