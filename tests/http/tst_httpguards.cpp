// Browser guards over real HTTP (DESIGN "Trust model"): a web page in the operator's browser
// cannot reach the loopback service. Every POST must be JSON (no cross-site "simple" request),
// Host must name the listener (DNS rebinding), a foreign Origin is refused and CORS is off unless
// configured. Also: every error the dispatcher answers itself carries the full envelope.
//
// QNetworkAccessManager writes Host itself, so requests with another Host go through raw sockets.

#include "tests/http/httptestserver.h"

#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

const QByteArray kWrite = QByteArrayLiteral("/v1/memory/write");
const QByteArray kHealth = QByteArrayLiteral("/health");

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QByteArray noteBody(const QString &clientId = s("n1"))
{
    return compactJson(writeBody({writeNode(clientId, s("event"), s("a note from somewhere"))}));
}

QPair<QByteArray, QByteArray> header(const QByteArray &name, const QByteArray &value)
{
    return {name, value};
}

QPair<QByteArray, QByteArray> jsonType()
{
    return header("Content-Type", "application/json");
}

/// The full error envelope with an object details and the request id of the X-Request-Id header.
void verifyEnvelope(const Reply &r, int status, const QString &code)
{
    QVERIFY2(r.status == status, r.describe().constData());
    QCOMPARE(r.errorCode(), code);
    QCOMPARE(keysOf(r.json), keyList({"error", "message", "details", "request_id"}));
    QVERIFY(r.json.value(s("details")).isObject());
    QVERIFY(!r.json.value(s("message")).toString().isEmpty());
    QVERIFY(!r.header("x-request-id").isEmpty());
    QCOMPARE(r.json.value(s("request_id")).toString(),
             QString::fromLatin1(r.header("x-request-id")));
}

QString detail(const Reply &r, const char *key)
{
    return r.json.value(s("details")).toObject().value(QLatin1String(key)).toString();
}

/// Response header names starting with access-control-.
QList<QByteArray> corsHeaderNames(const Reply &r)
{
    QList<QByteArray> names;
    for (auto it = r.headers.cbegin(); it != r.headers.cend(); ++it) {
        if (it.key().startsWith("access-control-"))
            names.append(it.key());
    }
    return names;
}

qint64 storedCommits(const HttpTestServer &server)
{
    return server.service()->health().commits;
}

} // namespace

class tst_HttpGuards : public QObject
{
    Q_OBJECT

private slots:
    // Content-Type
    void textPlainWriteRefused();
    void nonJsonMediaTypesRefused_data();
    void nonJsonMediaTypesRefused();
    void missingContentTypeRefused();
    void jsonMediaTypeWithParametersAccepted_data();
    void jsonMediaTypeWithParametersAccepted();

    // Host
    void foreignHostRefused_data();
    void foreignHostRefused();
    void foreignHostWritesNothing();
    void loopbackHostsAccepted_data();
    void loopbackHostsAccepted();
    void allowedHostsAddNames();

    // Origin and CORS
    void foreignOriginRefused_data();
    void foreignOriginRefused();
    void foreignOriginWritesNothing();
    void loopbackOriginAccepted_data();
    void loopbackOriginAccepted();
    void noCorsHeadersByDefault();
    void configuredOriginGetsCors();
    void preflightFromOtherOriginsRefused();

    // Envelopes of the dispatcher's own answers
    void unknownRouteEnvelope();
    void dispatcherErrorsCarryEnvelope();
};

// --- Content-Type ------------------------------------------------------------------------------

void tst_HttpGuards::textPlainWriteRefused()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));

    // What fetch(url, {mode: "no-cors", headers: {"Content-Type": "text/plain"}, body}) sends.
    const Reply r = server.post(s("/v1/memory/write"), noteBody(),
                                {header("Content-Type", "text/plain;charset=UTF-8"),
                                 header("Origin", "http://localhost:8000")});
    verifyEnvelope(r, 415, s("unsupported_media_type"));
    QCOMPARE(detail(r, "content_type"), s("text/plain;charset=UTF-8"));
    QCOMPARE(detail(r, "expected"), s("application/json"));
    QCOMPARE(storedCommits(server), qint64(0));
    QVERIFY(server.nodes().isEmpty());
}

void tst_HttpGuards::nonJsonMediaTypesRefused_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("contentType");
    const QStringList paths{s("/v1/memory/write"), s("/v1/memory/recall"),
                            s("/v1/memory/rules/state"), s("/v1/memory/not-a-route")};
    const QList<QByteArray> types{"application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x",
                                  "text/plain",
                                  "application/jsonp",
                                  "application/json-patch+json",
                                  "json",
                                  "application/ json"};
    for (const QString &path : paths) {
        for (const QByteArray &type : types)
            QTest::newRow(qPrintable(path + QLatin1Char(' ') + QString::fromLatin1(type)))
                << path << type;
    }
}

void tst_HttpGuards::nonJsonMediaTypesRefused()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, contentType);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply r = server.post(path, noteBody(), {header("Content-Type", contentType)});
    verifyEnvelope(r, 415, s("unsupported_media_type"));
    QCOMPARE(storedCommits(server), qint64(0));
}

void tst_HttpGuards::missingContentTypeRefused()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply r = server.sendRaw(
        rawRequest("POST", kWrite, {header("Host", server.hostHeader())}, noteBody()));
    verifyEnvelope(r, 415, s("unsupported_media_type"));
    QVERIFY(r.json.value(s("details")).toObject().value(s("content_type")).isNull());
    QCOMPARE(storedCommits(server), qint64(0));
}

void tst_HttpGuards::jsonMediaTypeWithParametersAccepted_data()
{
    QTest::addColumn<QByteArray>("contentType");
    QTest::newRow("charset") << QByteArray("application/json; charset=utf-8");
    QTest::newRow("no space") << QByteArray("application/json;charset=UTF-8");
    QTest::newRow("upper case") << QByteArray("Application/JSON");
    QTest::newRow("padded") << QByteArray("  application/json  ");
}

void tst_HttpGuards::jsonMediaTypeWithParametersAccepted()
{
    QFETCH(QByteArray, contentType);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply r = server.sendRaw(rawRequest(
        "POST", kWrite, {header("Host", server.hostHeader()), header("Content-Type", contentType)},
        noteBody()));
    QVERIFY2(r.status == 200, r.describe().constData());
    QCOMPARE(storedCommits(server), qint64(1));
}

// --- Host --------------------------------------------------------------------------------------

void tst_HttpGuards::foreignHostRefused_data()
{
    QTest::addColumn<QByteArray>(
        "host"); // "<port>" stands for the listener's port, "<other>" for another
    QTest::addColumn<bool>("present");
    QTest::newRow("attacker name") << QByteArray("attacker.example") << true;
    QTest::newRow("attacker name with the port") << QByteArray("attacker.example:<port>") << true;
    QTest::newRow("localhost, wrong port") << QByteArray("localhost:<other>") << true;
    QTest::newRow("127.0.0.1, wrong port") << QByteArray("127.0.0.1:<other>") << true;
    QTest::newRow("[::1], wrong port") << QByteArray("[::1]:<other>") << true;
    QTest::newRow("look-alike name") << QByteArray("127.0.0.1.attacker.example:<port>") << true;
    QTest::newRow("localhost subdomain") << QByteArray("localhost.attacker.example") << true;
    QTest::newRow("other loopback address") << QByteArray("127.0.0.2:<port>") << true;
    QTest::newRow("unbracketed ::1") << QByteArray("::1") << true;
    QTest::newRow("port not a number") << QByteArray("localhost:http") << true;
    QTest::newRow("empty") << QByteArray("") << true;
    QTest::newRow("missing") << QByteArray() << false;
}

void tst_HttpGuards::foreignHostRefused()
{
    QFETCH(QByteArray, host);
    QFETCH(bool, present);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    host.replace("<port>", QByteArray::number(server.port()));
    host.replace("<other>", QByteArray::number(server.port() == 65535 ? 1 : server.port() + 1));
    const HttpHeaders headers = present ? HttpHeaders{header("Host", host)} : HttpHeaders{};

    const Reply r = server.sendRaw(rawRequest("GET", kHealth, headers));
    verifyEnvelope(r, 421, s("misdirected_request"));
    QCOMPARE(detail(r, "reason"), present ? s("unknown_host") : s("missing_host"));
    if (present)
        QCOMPARE(detail(r, "host"), QString::fromLatin1(host.trimmed()));
    // An unknown route is refused the same way: the guard runs before routing.
    verifyEnvelope(server.sendRaw(rawRequest("GET", "/nowhere", headers)), 421,
                   s("misdirected_request"));
}

void tst_HttpGuards::foreignHostWritesNothing()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    // A DNS-rebinding page: its own name, the listener's port, a proper JSON body.
    const QByteArray host = "attacker.example:" + QByteArray::number(server.port());
    const Reply r = server.sendRaw(
        rawRequest("POST", kWrite, {header("Host", host), jsonType()}, noteBody()));
    verifyEnvelope(r, 421, s("misdirected_request"));
    QCOMPARE(storedCommits(server), qint64(0));
}

void tst_HttpGuards::loopbackHostsAccepted_data()
{
    QTest::addColumn<QByteArray>("host");
    QTest::newRow("127.0.0.1:port") << QByteArray("127.0.0.1:<port>");
    QTest::newRow("127.0.0.1") << QByteArray("127.0.0.1");
    QTest::newRow("localhost") << QByteArray("localhost");
    QTest::newRow("localhost:port") << QByteArray("localhost:<port>");
    QTest::newRow("LOCALHOST:port") << QByteArray("LOCALHOST:<port>");
    // Only a header here: the connection itself stays on 127.0.0.1.
    QTest::newRow("[::1]:port") << QByteArray("[::1]:<port>");
    QTest::newRow("[::1]") << QByteArray("[::1]");
}

void tst_HttpGuards::loopbackHostsAccepted()
{
    QFETCH(QByteArray, host);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    host.replace("<port>", QByteArray::number(server.port()));
    const Reply health = server.sendRaw(rawRequest("GET", kHealth, {header("Host", host)}));
    QVERIFY2(health.status == 200, health.describe().constData());
    const Reply write = server.sendRaw(
        rawRequest("POST", kWrite, {header("Host", host), jsonType()}, noteBody()));
    QVERIFY2(write.status == 200, write.describe().constData());
    QCOMPARE(storedCommits(server), qint64(1));
}

void tst_HttpGuards::allowedHostsAddNames()
{
    HttpTestServer server(
        environment({{"MEMORY_ALLOWED_HOSTS", s("memory.example.com, Other.Example:8443")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QByteArray port = QByteArray::number(server.port());
    auto healthWith = [&server](const QByteArray &host) {
        return server.sendRaw(rawRequest("GET", kHealth, {header("Host", host)}));
    };
    QCOMPARE(healthWith("memory.example.com").status, 200);
    QCOMPARE(healthWith("Memory.Example.COM:" + port).status, 200);
    QCOMPARE(healthWith("other.example:8443").status, 200); // listed with its port
    QCOMPARE(healthWith("localhost:" + port).status, 200);  // loopback names still work
    verifyEnvelope(healthWith("memory.example.com:1"), 421, s("misdirected_request"));
    verifyEnvelope(healthWith("other.example"), 421, s("misdirected_request"));
    verifyEnvelope(healthWith("attacker.example"), 421, s("misdirected_request"));
}

// --- Origin and CORS ---------------------------------------------------------------------------

void tst_HttpGuards::foreignOriginRefused_data()
{
    QTest::addColumn<QByteArray>("origin");
    QTest::newRow("attacker") << QByteArray("https://attacker.example");
    QTest::newRow("null") << QByteArray("null");
    QTest::newRow("localhost subdomain") << QByteArray("http://localhost.attacker.example");
    QTest::newRow("look-alike") << QByteArray("http://127.0.0.1.attacker.example:80");
    QTest::newRow("other scheme") << QByteArray("file://localhost");
    QTest::newRow("with a path") << QByteArray("http://localhost:1234/page");
}

void tst_HttpGuards::foreignOriginRefused()
{
    QFETCH(QByteArray, origin);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply r = server.get(s("/health"), {header("Origin", origin)});
    verifyEnvelope(r, 403, s("forbidden_origin"));
    QCOMPARE(detail(r, "origin"), QString::fromLatin1(origin));
    QVERIFY(corsHeaderNames(r).isEmpty());
}

void tst_HttpGuards::foreignOriginWritesNothing()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply r = server.post(s("/v1/memory/write"), noteBody(),
                                {header("Origin", "https://attacker.example")});
    verifyEnvelope(r, 403, s("forbidden_origin"));
    QCOMPARE(storedCommits(server), qint64(0));
    QVERIFY(server.nodes().isEmpty());
}

void tst_HttpGuards::loopbackOriginAccepted_data()
{
    QTest::addColumn<QByteArray>("origin");
    QTest::newRow("localhost:1234") << QByteArray("http://localhost:1234");
    QTest::newRow("localhost") << QByteArray("http://localhost");
    QTest::newRow("127.0.0.1 https") << QByteArray("https://127.0.0.1:8443");
    QTest::newRow("[::1]") << QByteArray("http://[::1]:3000");
}

void tst_HttpGuards::loopbackOriginAccepted()
{
    QFETCH(QByteArray, origin);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply health = server.get(s("/health"), {header("Origin", origin)});
    QVERIFY2(health.status == 200, health.describe().constData());
    const Reply write = server.post(s("/v1/memory/write"), noteBody(), {header("Origin", origin)});
    QVERIFY2(write.status == 200, write.describe().constData());
    // Served, but no CORS grant: origins are not configured.
    QVERIFY(corsHeaderNames(health).isEmpty());
    QVERIFY(corsHeaderNames(write).isEmpty());
}

void tst_HttpGuards::noCorsHeadersByDefault()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QByteArray host = server.hostHeader();
    const QList<Reply> replies{
        server.get(s("/health")),
        server.post(s("/v1/memory/write"), noteBody()),
        server.post(s("/v1/memory/write"), noteBody(), {header("Origin", "http://localhost:5173")}),
        server.get(s("/nowhere"), {header("Origin", "http://localhost:5173")}),
        server.post(s("/v1/memory/write"), QByteArray("{"),
                    {header("Origin", "http://localhost:5173")}),
        server.sendRaw(rawRequest("OPTIONS", kWrite,
                                  {header("Host", host), header("Origin", "http://localhost:5173"),
                                   header("Access-Control-Request-Method", "POST"),
                                   header("Access-Control-Request-Headers", "content-type")})),
        server.sendRaw(
            rawRequest("OPTIONS", kWrite,
                       {header("Host", host), header("Origin", "https://attacker.example"),
                        header("Access-Control-Request-Method", "POST")})),
    };
    for (const Reply &r : replies) {
        QVERIFY2(r.status != 0, r.describe().constData());
        QVERIFY2(corsHeaderNames(r).isEmpty(), r.describe().constData());
    }
    // A preflight is refused even from a loopback origin while none is configured.
    verifyEnvelope(replies.at(5), 403, s("forbidden_origin"));
}

void tst_HttpGuards::configuredOriginGetsCors()
{
    HttpTestServer server(environment({{"MEMORY_ALLOWED_ORIGINS", s("https://app.example.com")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QByteArray origin = "https://app.example.com";

    const Reply preflight = server.sendRaw(
        rawRequest("OPTIONS", kWrite,
                   {header("Host", server.hostHeader()), header("Origin", origin),
                    header("Access-Control-Request-Method", "POST"),
                    header("Access-Control-Request-Headers", "content-type,x-api-key")}));
    QVERIFY2(preflight.status == 204, preflight.describe().constData());
    QCOMPARE(preflight.header("access-control-allow-origin"), origin);
    QCOMPARE(preflight.header("vary"), QByteArray("Origin"));
    QCOMPARE(preflight.header("access-control-allow-methods"), QByteArray("GET, POST, DELETE"));
    QCOMPARE(preflight.header("access-control-allow-headers"),
             QByteArray("Content-Type, X-Api-Key, Authorization, X-Tenant-Id, X-Request-Id, "
                        "X-Admin-Token, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, "
                        "Mcp-Name"));
    QCOMPARE(preflight.header("access-control-max-age"), QByteArray("600"));
    QVERIFY(preflight.body.isEmpty());
    QCOMPARE(storedCommits(server), qint64(0));

    const Reply write = server.post(s("/v1/memory/write"), noteBody(), {header("Origin", origin)});
    QVERIFY2(write.status == 200, write.describe().constData());
    QCOMPARE(write.header("access-control-allow-origin"), origin);
    QCOMPARE(write.header("vary"), QByteArray("Origin"));
    QCOMPARE(storedCommits(server), qint64(1));
    // Errors carry the grant too, so the page can read them.
    const Reply missing = server.get(s("/nowhere"), {header("Origin", origin)});
    verifyEnvelope(missing, 404, s("not_found"));
    QCOMPARE(missing.header("access-control-allow-origin"), origin);

    // Other origins get nothing, and foreign ones are still refused.
    const Reply loopback = server.get(s("/health"), {header("Origin", "http://localhost:3000")});
    QCOMPARE(loopback.status, 200);
    QVERIFY(corsHeaderNames(loopback).isEmpty());
    const Reply foreign = server.get(s("/health"), {header("Origin", "https://attacker.example")});
    verifyEnvelope(foreign, 403, s("forbidden_origin"));
    QVERIFY(corsHeaderNames(foreign).isEmpty());
}

void tst_HttpGuards::preflightFromOtherOriginsRefused()
{
    HttpTestServer server(environment({{"MEMORY_ALLOWED_ORIGINS", s("https://app.example.com")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    for (const QByteArray &origin :
         {QByteArray("https://attacker.example"), QByteArray("http://localhost:3000"),
          QByteArray("null"), QByteArray("https://app.example.com.attacker.example")}) {
        const Reply r = server.sendRaw(
            rawRequest("OPTIONS", kWrite,
                       {header("Host", server.hostHeader()), header("Origin", origin),
                        header("Access-Control-Request-Method", "POST")}));
        verifyEnvelope(r, 403, s("forbidden_origin"));
        QCOMPARE(detail(r, "reason"), s("preflight_not_allowed"));
        QVERIFY(corsHeaderNames(r).isEmpty());
    }
}

// --- Envelopes ---------------------------------------------------------------------------------

void tst_HttpGuards::unknownRouteEnvelope()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply r = server.get(s("/v1/memory/nope"), {header("X-Request-Id", "route-1")});
    verifyEnvelope(r, 404, s("not_found"));
    QCOMPARE(r.json.value(s("request_id")).toString(), s("route-1"));
    const QJsonObject details = r.json.value(s("details")).toObject();
    QCOMPARE(details.value(s("reason")).toString(), s("unknown_route"));
    QCOMPARE(details.value(s("method")).toString(), s("GET"));
    QCOMPARE(details.value(s("path")).toString(), s("/v1/memory/nope"));

    const Reply post = server.post(s("/sse"), QByteArray("{}"));
    verifyEnvelope(post, 404, s("not_found"));
    QCOMPARE(post.json.value(s("details")).toObject().value(s("method")).toString(), s("POST"));
}

void tst_HttpGuards::dispatcherErrorsCarryEnvelope()
{
    HttpTestServer server(environment({{"MEMORY_MAX_BODY_BYTES", s("1024")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));

    const Reply wrongMethod = server.get(s("/v1/memory/write"));
    verifyEnvelope(wrongMethod, 405, s("method_not_allowed"));
    QCOMPARE(wrongMethod.header("allow"), QByteArray("POST"));
    verifyEnvelope(server.post(s("/v1/memory/write"), QByteArray(2048, ' ')), 413,
                   s("payload_too_large"));
    verifyEnvelope(
        server.post(s("/v1/memory/write"), noteBody(), {header("Content-Type", "text/plain")}), 415,
        s("unsupported_media_type"));
    verifyEnvelope(server.sendRaw(rawRequest("GET", kHealth, {header("Host", "attacker.example")})),
                   421, s("misdirected_request"));
    verifyEnvelope(server.get(s("/health"), {header("Origin", "https://attacker.example")}), 403,
                   s("forbidden_origin"));
    // Errors from the pipeline after routing keep the same envelope.
    const Reply malformed = server.post(s("/v1/memory/write"), QByteArray("{"));
    verifyEnvelope(malformed, 400, s("invalid_request"));
}

QTEST_GUILESS_MAIN(tst_HttpGuards)
#include "tst_httpguards.moc"
