// A 500 never carries SQLite's text or a file path: the caller gets the error code and the
// request id, the server log gets the original under the same request id.
//
// The store is broken for real: a second SQLite connection drops a table under the running
// service, so the next write fails inside the storage layer.

#include "tests/http/httptestserver.h"

#include <QMutex>
#include <QMutexLocker>
#include <QTest>

#include <sqlite3.h>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

/// Everything logged while it is alive, from any thread.
class LogCapture
{
public:
    LogCapture() { s_previous = qInstallMessageHandler(&LogCapture::handle); }
    ~LogCapture() { qInstallMessageHandler(s_previous); }

    static QStringList lines()
    {
        QMutexLocker lock(&s_mutex);
        return s_lines;
    }

private:
    static void handle(QtMsgType type, const QMessageLogContext &context, const QString &message)
    {
        {
            QMutexLocker lock(&s_mutex);
            s_lines.append(QString::fromLatin1(context.category ? context.category : "")
                           + QLatin1String(": ") + message);
        }
        if (s_previous)
            s_previous(type, context, message);
    }

    static inline QtMessageHandler s_previous = nullptr;
    static inline QMutex s_mutex;
    static inline QStringList s_lines;
};

/// Runs sql on the database file through a connection of its own; empty on success.
QString executeBehindTheService(const QString &databaseFile, const QByteArray &sql)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(databaseFile.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE, nullptr)
        != SQLITE_OK) {
        const QString error = QString::fromUtf8(sqlite3_errmsg(db));
        sqlite3_close(db);
        return error;
    }
    sqlite3_busy_timeout(db, 5000);
    char *message = nullptr;
    QString error;
    if (sqlite3_exec(db, sql.constData(), nullptr, nullptr, &message) != SQLITE_OK)
        error = QString::fromUtf8(message ? message : "sqlite3_exec failed");
    sqlite3_free(message);
    sqlite3_close(db);
    return error;
}

QJsonObject note(const QString &clientId)
{
    return writeBody({writeNode(clientId, s("event"), s("a note"))});
}

} // namespace

class tst_HttpInternalError : public QObject
{
    Q_OBJECT

private slots:
    void storageFailureIsConcealed();
};

void tst_HttpInternalError::storageFailureIsConcealed()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply before = server.write(note(s("n1")));
    QVERIFY2(before.status == 200, before.describe().constData());

    const QString databaseFile = server.dataDir() + QLatin1String("/memorygraph.sqlite");
    const QString dropped = executeBehindTheService(databaseFile, "DROP TABLE commits");
    QVERIFY2(dropped.isEmpty(), qPrintable(dropped));

    LogCapture log;
    const Reply r = server.write(
        note(s("n2")), {{QByteArrayLiteral("X-Request-Id"), QByteArrayLiteral("broken-store-1")}});
    QVERIFY2(r.status == 500, r.describe().constData());
    QCOMPARE(keysOf(r.json), keyList({"error", "message", "details", "request_id"}));
    QVERIFY(!r.errorCode().isEmpty());
    QCOMPARE(r.json.value(s("message")).toString(),
             s("internal error; see the server log for request broken-store-1"));
    QCOMPARE(r.json.value(s("details")).toObject(), QJsonObject());
    QCOMPARE(r.json.value(s("request_id")).toString(), s("broken-store-1"));

    const QString body = QString::fromUtf8(r.body);
    QVERIFY2(!body.contains(s("sql"), Qt::CaseInsensitive), r.body.constData());
    QVERIFY2(!body.contains(s("no such table"), Qt::CaseInsensitive), r.body.constData());
    QVERIFY2(!body.contains(server.dataDir()), r.body.constData());
    QVERIFY2(!body.contains(QLatin1Char('/')), r.body.constData()); // no path of any kind

    // The log keeps what the caller did not see, under the same request id.
    const QStringList lines = LogCapture::lines();
    const bool logged = std::any_of(lines.cbegin(), lines.cend(), [](const QString &line) {
        return line.startsWith(QLatin1String("memorygraph.http:"))
               && line.contains(QLatin1String("broken-store-1"))
               && line.contains(QLatin1String("no such table"));
    });
    QVERIFY2(logged, qPrintable(lines.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(tst_HttpInternalError)
#include "tst_httpinternalerror.moc"
