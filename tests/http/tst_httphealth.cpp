// GET /health over real HTTP (spec §4.1; DESIGN decision 1).

#include "tests/http/httptestserver.h"

#include <QRegularExpression>
#include <QTest>

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

} // namespace

class tst_HttpHealth : public QObject
{
    Q_OBJECT

private slots:
    void shape();
    void countsReflectWrites();
    void wrongMethod();
    void requestIdEchoed();
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
        {writeEdge(QStringLiteral("part_of"), byClientId(QStringLiteral("a")), byClientId(QStringLiteral("b")))}));
    QVERIFY2(w.status == 200, w.describe());
    const Reply afterFirst = server.get(kHealth);
    QVERIFY2(afterFirst.status == 200, afterFirst.describe());
    QCOMPARE(countsOf(afterFirst), expectedCounts(2, 1, 1, 1));

    QJsonObject other = writeBody({writeNode(QStringLiteral("a"), QStringLiteral("event"), QStringLiteral("alpha"))});
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

    const Reply given = server.get(kHealth, {{QByteArrayLiteral("X-Request-Id"), QByteArrayLiteral("probe-1")}});
    QVERIFY2(given.status == 200, given.describe());
    QCOMPARE(given.header("x-request-id"), QByteArrayLiteral("probe-1"));

    const Reply fresh = server.get(kHealth);
    QVERIFY2(fresh.status == 200, fresh.describe());
    QVERIFY2(isLowerUuid(QString::fromLatin1(fresh.header("x-request-id"))), fresh.header("x-request-id").constData());
}

QTEST_GUILESS_MAIN(tst_HttpHealth)
#include "tst_httphealth.moc"
