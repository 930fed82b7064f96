// The listener bounds what one client can hold (issue "trust boundaries" §4; DESIGN trust
// model): oversized declared bodies and header blocks are refused from the header block, idle
// and slow connections time out, connections are capped with 503 + Retry-After.
//
// The server runs in-process on the test thread, so the raw clients below never block: every
// wait spins the event loop (QTRY_*, QTest::qWaitFor) while the server answers.

#include "service/embedding/embeddingprovider.h"
#include "tests/http/httptestserver.h"

#include <QFile>
#include <QHostAddress>
#include <QNetworkProxy>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <vector>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace Qt::StringLiterals;

namespace {

const QString kHealth = u"/health"_s;
const QString kWrite = u"/v1/memory/write"_s;

/// One HTTP/1.1 response read off a raw connection.
struct RawResponse
{
    int status = 0;
    QHash<QByteArray, QByteArray> headers; ///< lower-case names
    QByteArray body;
    QJsonObject json;

    QByteArray header(const QByteArray &lowerName) const { return headers.value(lowerName); }
    QString errorCode() const { return json.value(u"error"_s).toString(); }
};

/// The complete responses at the start of `bytes`, in order (a trailing partial one is left out).
QList<RawResponse> parseResponses(QByteArray bytes)
{
    QList<RawResponse> out;
    for (;;) {
        const qsizetype headEnd = bytes.indexOf("\r\n\r\n");
        if (headEnd < 0)
            return out;
        RawResponse response;
        const QList<QByteArray> lines = bytes.left(headEnd).split('\n');
        response.status = lines.value(0).split(' ').value(1).toInt();
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon > 0)
                response.headers.insert(line.left(colon).trimmed().toLower(),
                                        line.mid(colon + 1).trimmed());
        }
        const qsizetype length = response.header("content-length").toLongLong();
        if (bytes.size() < headEnd + 4 + length)
            return out;
        response.body = bytes.mid(headEnd + 4, length);
        response.json = QJsonDocument::fromJson(response.body).object();
        out.append(response);
        bytes.remove(0, headEnd + 4 + length);
    }
}

/// A raw TCP client of the server under test, driven by the test thread's event loop.
class RawClient
{
public:
    explicit RawClient(quint16 port) : m_port(port)
    {
        m_socket.setProxy(QNetworkProxy::NoProxy);
        QObject::connect(&m_socket, &QTcpSocket::readyRead, &m_socket,
                         [this] { m_received += m_socket.readAll(); });
        QObject::connect(&m_socket, &QTcpSocket::disconnected, &m_socket, [this] {
            if (m_socket.isOpen())
                m_received += m_socket.readAll();
            m_closed = true;
        });
        m_socket.connectToHost(QHostAddress(QHostAddress::LocalHost), port);
    }

    ~RawClient()
    {
        m_socket.disconnect(); // the handlers use members destroyed before the socket
        m_socket.abort();
    }

    RawClient(const RawClient &) = delete;
    RawClient &operator=(const RawClient &) = delete;

    bool waitConnected(int timeoutMs = 5000)
    {
        return QTest::qWaitFor(
            [this] { return m_socket.state() == QAbstractSocket::ConnectedState; }, timeoutMs);
    }

    void send(const QByteArray &bytes) { m_socket.write(bytes); }

    /// A request with the headers every well-behaved client sends (Host names the listener).
    QByteArray request(const QByteArray &method, const QString &path, const QByteArray &body = {},
                       const QByteArray &extraHeaders = {}) const
    {
        QByteArray head = method + ' ' + path.toLatin1() + " HTTP/1.1\r\nHost: 127.0.0.1:"
                          + QByteArray::number(m_port) + "\r\n" + extraHeaders;
        if (method == "POST")
            head += "Content-Type: application/json\r\nContent-Length: "
                    + QByteArray::number(body.size()) + "\r\n";
        return head + "\r\n" + body;
    }

    /// Closed by the server (or by abort()).
    bool isClosed() const
    {
        return m_closed || m_socket.state() == QAbstractSocket::UnconnectedState;
    }
    QTcpSocket &socket() { return m_socket; }
    QByteArray received() const { return m_received; }
    QList<RawResponse> responses() const { return parseResponses(m_received); }
    bool waitResponses(int count, int timeoutMs)
    {
        return QTest::qWaitFor([this, count] { return responses().size() >= count; }, timeoutMs);
    }
    bool waitClosed(int timeoutMs)
    {
        return QTest::qWaitFor([this] { return isClosed(); }, timeoutMs);
    }

private:
    quint16 m_port;
    QTcpSocket m_socket;
    QByteArray m_received;
    bool m_closed = false;
};

/// Resident memory of this process (server and clients), in bytes; 0 where unknown.
qint64 residentBytes()
{
    QFile status(u"/proc/self/status"_s);
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong() * 1024;
    }
    return 0;
}

/// Headers padding a request to about `bytes`.
QByteArray paddingHeaders(int bytes)
{
    QByteArray out;
    for (int i = 0; out.size() < bytes; ++i)
        out += "X-Pad-" + QByteArray::number(i) + ": " + QByteArray(1000, 'p') + "\r\n";
    return out;
}

QByteArray oneWriteBody(const QString &clientId)
{
    return compactJson(writeBody({writeNode(clientId, u"event"_s, u"note "_s + clientId)}));
}

/// What a refusal written by the listener must look like: a well-formed JSON error envelope,
/// Connection: close, and a fresh request id in both header and body.
void verifyListenerEnvelope(const RawResponse &r, int status, const QString &code)
{
    QCOMPARE(r.status, status);
    QCOMPARE(r.errorCode(), code);
    QCOMPARE(keysOf(r.json), keyList({"error", "message", "details", "request_id"}));
    QVERIFY(!r.json.value(u"message"_s).toString().isEmpty());
    QCOMPARE(r.header("content-type"), QByteArrayLiteral("application/json"));
    QCOMPARE(r.header("connection"), QByteArrayLiteral("close"));
    QCOMPARE(r.header("content-length").toInt(), r.body.size());
    QVERIFY2(isLowerUuid(QString::fromLatin1(r.header("x-request-id"))),
             r.header("x-request-id").constData());
    QCOMPARE(r.json.value(u"request_id"_s).toString(),
             QString::fromLatin1(r.header("x-request-id")));
}

/// Wraps an embedding provider and holds every call back: a slow handler.
class SlowEmbeddings : public EmbeddingProvider
{
public:
    SlowEmbeddings(std::unique_ptr<EmbeddingProvider> inner, int delayMs)
        : m_inner(std::move(inner)), m_delayMs(delayMs)
    {
    }
    QString name() const override { return m_inner->name(); }
    QString model() const override { return m_inner->model(); }
    Result<QVector<Embedding>> embed(const QStringList &texts) override
    {
        QThread::msleep(m_delayMs); // runs on an HTTP worker thread
        return m_inner->embed(texts);
    }

private:
    std::unique_ptr<EmbeddingProvider> m_inner;
    int m_delayMs;
};

/// A service whose embedding calls take `delayMs`, served on 127.0.0.1.
class SlowServer
{
public:
    SlowServer(const QProcessEnvironment &env, int delayMs)
    {
        auto config = ServiceConfig::fromEnvironment(env);
        if (!config || !m_dir.isValid()) {
            m_error = config ? u"no temporary directory"_s : config.error().message;
            return;
        }
        ServiceConfig c = config.value();
        c.dataDir = m_dir.path();
        auto inner = makeOfflineEmbeddingProvider(c);
        if (!inner || !inner.value()) {
            m_error = u"no offline embedding provider"_s;
            return;
        }
        auto opened = MemoryService::open(
            c, std::make_unique<SlowEmbeddings>(std::move(inner).value(), delayMs));
        if (!opened) {
            m_error = opened.error().message;
            return;
        }
        m_service = std::move(opened).value();
        m_host = std::make_unique<HttpServerHost>(m_service.get());
        m_host->start(u"127.0.0.1"_s, 0);
        if (m_host->port() == 0)
            m_error = u"HTTP server did not start"_s;
    }
    ~SlowServer()
    {
        if (m_host)
            m_host->stop();
        m_host.reset();
        m_service.reset();
    }
    SlowServer(const SlowServer &) = delete;
    SlowServer &operator=(const SlowServer &) = delete;

    bool isReady() const { return m_error.isEmpty(); }
    QString errorText() const { return m_error; }
    quint16 port() const { return m_host ? m_host->port() : 0; }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MemoryService> m_service;
    std::unique_ptr<HttpServerHost> m_host;
    QString m_error;
};

} // namespace

#define REQUIRE_SERVER(server) QVERIFY2((server).isReady(), qPrintable((server).errorText()))

class tst_HttpListener : public QObject
{
    Q_OBJECT

private slots:
    // Refused from the header block.
    void hugeDeclaredBodyIsRefusedAtTheHeaders();
    void hugeDeclaredBodyWithBodyBytesFollowing();
    void oversizedHeaderBlockIsRefused();
    void endlessHeaderBlockIsRefused();
    void framingRefusals_data();
    void framingRefusals();
    void bodiesWithinTheLimitAreServed();
    void keepAliveAndPipelinedRequestsStillWork();

    // Time-outs.
    void halfRequestLineTimesOut();
    void trickledHeadersTimeOut();
    void idleKeepAliveConnectionCloses();
    void slowHandlerIsNotCutOff();

    // Connection cap.
    void connectionsOverTheCapGet503();
    void normalClientIsServedWhileSlowClientsHoldConnections();

    // Lifetime.
    void stopsCleanlyOnTheServerThread();
};

void tst_HttpListener::hugeDeclaredBodyIsRefusedAtTheHeaders()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    QSignalSpy served(server.host(), &HttpServerHost::requestServed);
    RawClient client(server.port());
    QVERIFY(client.waitConnected());

    client.send("POST /v1/memory/write HTTP/1.1\r\nHost: 127.0.0.1:"
                + QByteArray::number(server.port())
                + "\r\nContent-Type: application/json\r\nContent-Length: 10737418240\r\n\r\n");
    QVERIFY2(client.waitResponses(1, 1000), client.received().constData());
    const RawResponse r = client.responses().constFirst();
    verifyListenerEnvelope(r, 413, u"payload_too_large"_s);
    QCOMPARE(r.json.value(u"details"_s).toObject().value(u"max_bytes"_s).toInteger(),
             server.service()->config().maxBodyBytes);
    QVERIFY2(client.waitClosed(1000), "the server kept the connection open");

    // The request log shows the refusal like any other answer.
    QTRY_COMPARE(served.size(), 1);
    const auto entry = qvariant_cast<RequestLogEntry>(served.at(0).at(0));
    QCOMPARE(entry.status, 413);
    QCOMPARE(entry.method, u"POST"_s);
    QCOMPARE(entry.path, kWrite);
    QCOMPARE(entry.errorCode, u"payload_too_large"_s);
}

void tst_HttpListener::hugeDeclaredBodyWithBodyBytesFollowing()
{
    // A client that does not wait for an answer still reads the 413 before the connection
    // closes (the server drains what it keeps sending instead of resetting the connection).
    HttpTestServer server;
    REQUIRE_SERVER(server);
    RawClient client(server.port());
    QVERIFY(client.waitConnected());
    client.send("POST /v1/memory/write HTTP/1.1\r\nHost: 127.0.0.1:"
                + QByteArray::number(server.port())
                + "\r\nContent-Type: application/json\r\nContent-Length: 10737418240\r\n\r\n"
                + QByteArray(256 * 1024, '{'));
    QVERIFY2(client.waitResponses(1, 2000), client.received().left(300).constData());
    verifyListenerEnvelope(client.responses().constFirst(), 413, u"payload_too_large"_s);
    QVERIFY(client.waitClosed(5000));
    QCOMPARE(client.responses().size(), 1);
}

void tst_HttpListener::oversizedHeaderBlockIsRefused()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    QSignalSpy served(server.host(), &HttpServerHost::requestServed);
    RawClient client(server.port());
    QVERIFY(client.waitConnected());

    // A complete 40 KB GET: QtHttpServer would serve it; the listener must answer first and
    // keep QtHttpServer from reading it at all (only one response, and it is the 431).
    client.send(client.request("GET", kHealth, {}, paddingHeaders(40 * 1024)));
    QVERIFY2(client.waitResponses(1, 2000), client.received().constData());
    const RawResponse r = client.responses().constFirst();
    verifyListenerEnvelope(r, 431, u"request_header_fields_too_large"_s);
    QCOMPARE(r.json.value(u"details"_s).toObject().value(u"max_bytes"_s).toInt(),
             server.service()->config().listener.maxHeaderBytes);
    QVERIFY(client.waitClosed(2000));
    QTest::qWait(100);
    QCOMPARE(client.responses().size(), 1);
    QCOMPARE(served.size(), 1);
    QCOMPARE(qvariant_cast<RequestLogEntry>(served.at(0).at(0)).status, 431);

    // The limit is the setting: a smaller cap refuses a block the default accepts.
    HttpTestServer small(environment({{"MEMORY_HTTP_MAX_HEADER_BYTES", u"2048"_s}}));
    REQUIRE_SERVER(small);
    RawClient fits(small.port());
    QVERIFY(fits.waitConnected());
    fits.send(fits.request("GET", kHealth, {}, paddingHeaders(900)));
    QVERIFY(fits.waitResponses(1, 5000));
    QCOMPARE(fits.responses().constFirst().status, 200);
    RawClient tooBig(small.port());
    QVERIFY(tooBig.waitConnected());
    tooBig.send(tooBig.request("GET", kHealth, {}, paddingHeaders(3000)));
    QVERIFY(tooBig.waitResponses(1, 5000));
    QCOMPARE(tooBig.responses().constFirst().status, 431);
}

void tst_HttpListener::endlessHeaderBlockIsRefused()
{
    // No blank line ever comes: refused as soon as the block passes the cap.
    HttpTestServer server;
    REQUIRE_SERVER(server);
    RawClient client(server.port());
    QVERIFY(client.waitConnected());
    client.send("GET /health HTTP/1.1\r\nX-Endless: " + QByteArray(40 * 1024, 'x'));
    QVERIFY2(client.waitResponses(1, 2000), client.received().constData());
    verifyListenerEnvelope(client.responses().constFirst(), 431,
                           u"request_header_fields_too_large"_s);
    QVERIFY(client.waitClosed(2000));
}

void tst_HttpListener::framingRefusals_data()
{
    QTest::addColumn<QByteArray>("headers");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");

    QByteArray manyFields;
    for (int i = 0; i < 101; ++i)
        manyFields += "X-F" + QByteArray::number(i) + ": v\r\n";

    // QtHttpServer 6.4 decodes a chunked body into memory without any bound.
    QTest::newRow("chunked body") << QByteArrayLiteral("Transfer-Encoding: chunked\r\n")
                                  << QByteArrayLiteral("5\r\n{}{}{\r\n0\r\n\r\n") << 411
                                  << u"length_required"_s;
    // QtHttpServer would read these as "no body" and parse the body as the next request.
    QTest::newRow("Content-Length not a number")
        << QByteArrayLiteral("Content-Length: zz\r\n") << QByteArrayLiteral("{}") << 400
        << u"invalid_request"_s;
    QTest::newRow("negative Content-Length")
        << QByteArrayLiteral("Content-Length: -5\r\n") << QByteArrayLiteral("{}") << 400
        << u"invalid_request"_s;
    QTest::newRow("two different Content-Lengths")
        << QByteArrayLiteral("Content-Length: 2\r\nContent-Length: 3\r\n")
        << QByteArrayLiteral("{}") << 400 << u"invalid_request"_s;
    QTest::newRow("header line without a name")
        << QByteArrayLiteral("no colon here\r\nContent-Length: 2\r\n") << QByteArrayLiteral("{}")
        << 400 << u"invalid_request"_s;
    QTest::newRow("more than 100 fields")
        << (manyFields + "Content-Length: 2\r\n") << QByteArrayLiteral("{}") << 431
        << u"request_header_fields_too_large"_s;
}

void tst_HttpListener::framingRefusals()
{
    QFETCH(QByteArray, headers);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, code);

    HttpTestServer server;
    REQUIRE_SERVER(server);
    RawClient client(server.port());
    QVERIFY(client.waitConnected());
    client.send("POST /v1/memory/write HTTP/1.1\r\nHost: 127.0.0.1:"
                + QByteArray::number(server.port()) + "\r\nContent-Type: application/json\r\n"
                + headers + "\r\n" + body);
    QVERIFY2(client.waitResponses(1, 5000), client.received().constData());
    const RawResponse r = client.responses().constFirst();
    verifyListenerEnvelope(r, status, code);
    QVERIFY(client.waitClosed(5000));
    QCOMPARE(client.responses().size(), 1);
    QVERIFY(server.commits().isEmpty());
}

void tst_HttpListener::bodiesWithinTheLimitAreServed()
{
    // The cap is MEMORY_MAX_BODY_BYTES itself: a body of exactly that size is served, one byte
    // more is refused from the header alone.
    const int cap = 2048;
    HttpTestServer server(environment({{"MEMORY_MAX_BODY_BYTES", QString::number(cap)}}));
    REQUIRE_SERVER(server);
    QByteArray body = oneWriteBody(u"edge"_s);
    body += QByteArray(cap - body.size(), ' ');
    QCOMPARE(body.size(), cap);

    RawClient exact(server.port());
    QVERIFY(exact.waitConnected());
    exact.send(exact.request("POST", kWrite, body));
    QVERIFY(exact.waitResponses(1, 5000));
    QCOMPARE(exact.responses().constFirst().status, 200);
    QVERIFY(!exact.isClosed());

    RawClient over(server.port());
    QVERIFY(over.waitConnected());
    over.send(over.request("POST", kWrite, body + ' '));
    QVERIFY(over.waitResponses(1, 5000));
    verifyListenerEnvelope(over.responses().constFirst(), 413, u"payload_too_large"_s);
    QCOMPARE(server.commits().size(), 1);
}

void tst_HttpListener::keepAliveAndPipelinedRequestsStillWork()
{
    HttpTestServer server;
    REQUIRE_SERVER(server);
    RawClient client(server.port());
    QVERIFY(client.waitConnected());

    // Two requests in one segment, then a third in pieces: the listener follows the framing
    // across reads exactly as QtHttpServer does.
    client.send(client.request("POST", kWrite, oneWriteBody(u"p1"_s))
                + client.request("GET", kHealth));
    QVERIFY2(client.waitResponses(2, 5000), client.received().constData());
    const QByteArray third = client.request("POST", kWrite, oneWriteBody(u"p2"_s));
    for (qsizetype i = 0; i < third.size(); i += 7) {
        client.send(third.mid(i, 7));
        QTest::qWait(1);
    }
    QVERIFY2(client.waitResponses(3, 5000), client.received().constData());
    QList<int> statuses;
    for (const RawResponse &r : client.responses())
        statuses.append(r.status);
    QCOMPARE(statuses, (QList<int>{200, 200, 200}));
    QVERIFY(!client.isClosed());
    QCOMPARE(server.commits().size(), 2);
}

void tst_HttpListener::halfRequestLineTimesOut()
{
    HttpTestServer server(environment({{"MEMORY_HTTP_IDLE_TIMEOUT_MS", u"500"_s}}));
    REQUIRE_SERVER(server);
    RawClient client(server.port());
    QVERIFY(client.waitConnected());
    client.send("GET /hea");
    QTest::qWait(150);
    QVERIFY2(!client.isClosed(), "closed before the idle timeout");
    QVERIFY2(client.waitClosed(5000), "a stalled request was never timed out");
    const QList<RawResponse> responses = client.responses();
    QCOMPARE(responses.size(), 1);
    verifyListenerEnvelope(responses.constFirst(), 408, u"request_timeout"_s);
}

void tst_HttpListener::trickledHeadersTimeOut()
{
    // A header line every 100 ms keeps bytes flowing, but the header block must arrive within
    // one timeout of its first byte.
    HttpTestServer server(environment({{"MEMORY_HTTP_IDLE_TIMEOUT_MS", u"500"_s}}));
    REQUIRE_SERVER(server);
    RawClient client(server.port());
    QVERIFY(client.waitConnected());
    client.send("GET /health HTTP/1.1\r\n");
    QElapsedTimer elapsed;
    elapsed.start();
    for (int i = 0; i < 60 && !client.isClosed(); ++i) {
        client.send("X-Trickle-" + QByteArray::number(i) + ": 1\r\n");
        QTest::qWait(100);
    }
    QVERIFY2(client.isClosed(), "slow headers kept the connection open for 6 s");
    QVERIFY2(elapsed.elapsed() < 5000, QByteArray::number(elapsed.elapsed()).constData());
    QCOMPARE(client.responses().value(0).status, 408);
}

void tst_HttpListener::idleKeepAliveConnectionCloses()
{
    HttpTestServer server(environment({{"MEMORY_HTTP_IDLE_TIMEOUT_MS", u"500"_s}}));
    REQUIRE_SERVER(server);
    RawClient client(server.port());
    QVERIFY(client.waitConnected());
    client.send(client.request("GET", kHealth));
    QVERIFY(client.waitResponses(1, 5000));
    QCOMPARE(client.responses().constFirst().status, 200);
    QVERIFY2(client.waitClosed(5000), "an idle keep-alive connection was never closed");
    // Nothing to answer on an idle connection: it just closes.
    QCOMPARE(client.responses().size(), 1);
}

void tst_HttpListener::slowHandlerIsNotCutOff()
{
    // The timeout waits for client bytes only: a request the server is still working on (here
    // an embedding call that takes 4 timeouts) is answered, then the connection idles out.
    const QProcessEnvironment env = environment(
        {{"MEMORY_HTTP_IDLE_TIMEOUT_MS", u"300"_s}, {"EMBEDDING_PROVIDER", u"fake"_s}});
    SlowServer server(env, 1200);
    REQUIRE_SERVER(server);
    RawClient client(server.port());
    QVERIFY(client.waitConnected());
    client.send(client.request("POST", u"/v1/memory/recall_text"_s,
                               compactJson(QJsonObject{{u"query_text"_s, u"slow question"_s}})));
    QVERIFY2(client.waitResponses(1, 15000), client.received().constData());
    const RawResponse r = client.responses().constFirst();
    QVERIFY2(r.status == 200, r.body.constData());
    QVERIFY2(client.waitClosed(5000), "the connection did not idle out after the answer");
    QCOMPARE(client.responses().size(), 1);
}

void tst_HttpListener::connectionsOverTheCapGet503()
{
    const int cap = 8;
    const int clients = 20;
    HttpTestServer server(environment({{"MEMORY_HTTP_MAX_CONNECTIONS", QString::number(cap)}}));
    REQUIRE_SERVER(server);

    std::vector<std::unique_ptr<RawClient>> slow;
    for (int i = 0; i < clients; ++i) {
        slow.push_back(std::make_unique<RawClient>(server.port()));
        QVERIFY(slow.back()->waitConnected());
        slow.back()->send("GET /health HTTP/1.1\r\n"); // and never more
    }
    const auto refused = [&slow] {
        int count = 0;
        for (const auto &c : slow)
            count += c->isClosed() && !c->responses().isEmpty() ? 1 : 0;
        return count;
    };
    QTRY_COMPARE_WITH_TIMEOUT(refused(), clients - cap, 10000);

    int held = 0;
    for (const auto &c : slow) {
        if (c->responses().isEmpty()) {
            QVERIFY(!c->isClosed());
            ++held;
            continue;
        }
        const RawResponse r = c->responses().constFirst();
        verifyListenerEnvelope(r, 503, u"server_busy"_s);
        QCOMPARE(r.header("retry-after"), QByteArrayLiteral("1"));
        QCOMPARE(r.json.value(u"details"_s).toObject().value(u"max_connections"_s).toInt(), cap);
    }
    QCOMPARE(held, cap);

    // Freed slots are reused: once the slow clients go, a normal client is served again.
    slow.clear();
    QTRY_VERIFY_WITH_TIMEOUT(server.send("GET", kHealth, {}, {}, 2000).status == 200, 10000);
}

void tst_HttpListener::normalClientIsServedWhileSlowClientsHoldConnections()
{
    const int slowClients = 24;
    HttpTestServer server(environment(
        {{"MEMORY_HTTP_MAX_CONNECTIONS", u"32"_s}, {"MEMORY_HTTP_IDLE_TIMEOUT_MS", u"1500"_s}}));
    REQUIRE_SERVER(server);
    QCOMPARE(server.get(kHealth).status, 200); // warm up before the baseline
    const qint64 rssBefore = residentBytes();

    // Slowloris clients: each sends part of a header block, then a byte now and then.
    std::vector<std::unique_ptr<RawClient>> slow;
    for (int i = 0; i < slowClients; ++i) {
        slow.push_back(std::make_unique<RawClient>(server.port()));
        QVERIFY(slow.back()->waitConnected());
        slow.back()->send("POST /v1/memory/write HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    }

    // One client declares a 10 GB body and streams it as fast as it can, 1 MB at a time.
    RawClient huge(server.port());
    QVERIFY(huge.waitConnected());
    huge.send(
        huge.request("POST", kWrite).replace("Content-Length: 0", "Content-Length: 10737418240"));
    const QByteArray chunk(1024 * 1024, '[');
    qint64 streamed = 0;
    QObject::connect(&huge.socket(), &QTcpSocket::bytesWritten, &huge.socket(), [&] {
        if (huge.socket().bytesToWrite() < qint64(chunk.size())
            && streamed < 64 * qint64(chunk.size()) && !huge.isClosed()) {
            huge.send(chunk);
            streamed += chunk.size();
        }
    });

    // Meanwhile the normal client keeps getting answers.
    for (int round = 0; round < 5; ++round) {
        const Reply health = server.get(kHealth);
        QVERIFY2(health.status == 200, health.describe());
        const Reply written
            = server.post(kWrite, oneWriteBody(u"normal-"_s + QString::number(round)));
        QVERIFY2(written.status == 200, written.describe());
        for (const auto &c : slow)
            c->send("X");
    }
    QVERIFY2(huge.waitResponses(1, 5000), huge.received().left(300).constData());
    QCOMPARE(huge.responses().constFirst().status, 413);
    QVERIFY(huge.waitClosed(10000));

    // The slow clients time out; the normal client is still served.
    for (const auto &c : slow)
        QVERIFY2(c->waitClosed(10000), "a slow client was never timed out");
    QCOMPARE(server.get(kHealth).status, 200);
    QCOMPARE(server.post(kWrite, oneWriteBody(u"after"_s)).status, 200);
    QCOMPARE(server.commits().size(), 6);

    const qint64 grown = residentBytes() - rssBefore;
    QVERIFY2(grown < 50 * 1024 * 1024,
             qPrintable(u"resident memory grew by %1 MB (streamed %2 MB)"_s.arg(grown / 1048576)
                            .arg(streamed / 1048576)));
}

void tst_HttpListener::stopsCleanlyOnTheServerThread()
{
    // As in the app: the host lives on its own thread and is stopped from outside while
    // connections are open, timers armed and a refusal is still closing. Not one warning.
    QTest::failOnWarning(QRegularExpression(u".*"_s));
    TempService service(environment({{"MEMORY_HTTP_MAX_CONNECTIONS", u"2"_s}}));
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    QThread thread;
    auto *host = new HttpServerHost(service.service());
    host->moveToThread(&thread);
    QObject::connect(&thread, &QThread::finished, host, &QObject::deleteLater);
    thread.start();
    QMetaObject::invokeMethod(
        host, [host] { host->start(u"127.0.0.1"_s, 0); }, Qt::BlockingQueuedConnection);
    const quint16 port = host->port();
    QVERIFY(port != 0);

    RawClient partial(port);
    QVERIFY(partial.waitConnected());
    partial.send("GET /hea");
    RawClient served(port);
    QVERIFY(served.waitConnected());
    served.send(served.request("GET", kHealth));
    QVERIFY(served.waitResponses(1, 5000));
    RawClient over(port);
    QVERIFY(over.waitResponses(1, 5000));
    QCOMPARE(over.responses().constFirst().status, 503);

    QMetaObject::invokeMethod(host, &HttpServerHost::stop, Qt::BlockingQueuedConnection);
    thread.quit();
    QVERIFY(thread.wait(10000));
    QVERIFY(partial.waitClosed(5000));
    QVERIFY(served.waitClosed(5000));
}

QTEST_GUILESS_MAIN(tst_HttpListener)
#include "tst_httplistener.moc"
