// POST /v1/memory/recall_text with the OpenAI-compatible embedding provider against a fake
// upstream (spec §4.4 "Upstream embedding failures", §7; DESIGN decision 6; reference §4.11).
//
// The service runs in-process with makeEmbeddingProvider(); its route handlers run on the HTTP
// worker pool and block on the upstream call, while the fake upstream is served by this thread's
// event loop, which spins while the test waits for the HTTP reply.

#include "service/net/embeddingfactory.h"
#include "tests/http/httptestserver.h"
#include "tests/net/fakeupstream.h"

#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace Qt::StringLiterals;

namespace {

const QString kRecall = u"/v1/memory/recall"_s;
const QString kRecallText = u"/v1/memory/recall_text"_s;
const QString kModel = u"test-embed-1536"_s;
const QString kApiKey = u"sk-test-upstream-key-0123456789"_s;
constexpr int kDim = 1536;
constexpr int kUpstreamTimeoutMs = 500;

QJsonArray axis(int dimension, int size = kDim)
{
    QJsonArray out;
    for (int i = 0; i < size; ++i)
        out.append(i == dimension ? 1.0 : 0.0);
    return out;
}

/// An OpenAI /v1/embeddings success body.
QByteArray embeddingsBody(const QJsonArray &data)
{
    return compactJson(
        QJsonObject{{u"object"_s, u"list"_s},
                    {u"data"_s, data},
                    {u"model"_s, kModel},
                    {u"usage"_s, QJsonObject{{u"prompt_tokens"_s, 5}, {u"total_tokens"_s, 5}}}});
}

QJsonObject embeddingItem(int index, const QJsonArray &vector)
{
    return QJsonObject{
        {u"object"_s, u"embedding"_s}, {u"index"_s, index}, {u"embedding"_s, vector}};
}

QByteArray vectorBody(const QJsonArray &vector)
{
    return embeddingsBody(QJsonArray{embeddingItem(0, vector)});
}

/// A MemoryService whose embedding provider is the OpenAI-compatible client pointed at baseUrl,
/// served over HTTP on 127.0.0.1, with a synchronous client like HttpTestServer's.
class UpstreamRecallServer
{
public:
    UpstreamRecallServer(const QString &baseUrl, int timeoutMs)
    {
        if (!m_dir.isValid()) {
            m_error = u"no temporary directory"_s;
            return;
        }
        auto config = ServiceConfig::fromEnvironment(QProcessEnvironment());
        if (!config) {
            m_error = config.error().message;
            return;
        }
        ServiceConfig c = config.value();
        c.dataDir = m_dir.path();
        c.embeddingProvider = u"openai"_s;
        c.embeddingBaseUrl = baseUrl;
        c.embeddingModel = kModel;
        c.embeddingApiKey = kApiKey;
        c.embeddingTimeoutMs = timeoutMs;
        auto provider = makeEmbeddingProvider(c);
        if (!provider) {
            m_error = u"provider: "_s + provider.error().message;
            return;
        }
        auto opened = MemoryService::open(c, std::move(provider).value());
        if (!opened) {
            m_error = u"service: "_s + opened.error().message;
            return;
        }
        m_service = std::move(opened).value();
        m_host = std::make_unique<HttpServerHost>(m_service.get());
        m_host->start(u"127.0.0.1"_s, 0);
        if (m_host->port() == 0) {
            m_error = u"HTTP server did not start"_s;
            return;
        }
        m_nam = std::make_unique<QNetworkAccessManager>();
        m_nam->setProxy(QNetworkProxy::NoProxy);
    }

    ~UpstreamRecallServer()
    {
        m_nam.reset();
        if (m_host)
            m_host->stop();
        m_host.reset();
        m_service.reset();
    }

    UpstreamRecallServer(const UpstreamRecallServer &) = delete;
    UpstreamRecallServer &operator=(const UpstreamRecallServer &) = delete;

    bool isReady() const { return m_nam != nullptr; }
    QString errorText() const { return m_error; }
    MemoryService *service() const { return m_service.get(); }

    Reply post(const QString &path, const QJsonObject &body, const HttpHeaders &headers = {})
    {
        Reply out;
        if (!isReady()) {
            out.networkError = u"server not ready: "_s + m_error;
            return out;
        }
        QNetworkRequest request(QUrl(u"http://127.0.0.1:%1%2"_s.arg(m_host->port()).arg(path)));
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QByteArrayLiteral("application/json"));
        for (const auto &[name, value] : headers)
            request.setRawHeader(name, value);
        QNetworkReply *reply = m_nam->post(request, compactJson(body));
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            done.wait(HttpTestServer::kDefaultTimeoutMs);
        out.finished = reply->isFinished();
        if (!out.finished)
            reply->abort();
        out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        for (const auto &[name, value] : reply->rawHeaderPairs())
            out.headers.insert(name.toLower(), value);
        out.body = reply->readAll();
        if (reply->error() != QNetworkReply::NoError && out.status == 0)
            out.networkError = reply->errorString();
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(out.body, &parseError);
        if (parseError.error == QJsonParseError::NoError && doc.isObject()) {
            out.isJsonObject = true;
            out.json = doc.object();
        }
        reply->deleteLater();
        return out;
    }

    /// Two shared nodes with client vectors: "a" on axis 0, "b" on axis 1. Returns their ids.
    QStringList writeTwoNodes()
    {
        QJsonArray nodes;
        for (const auto &[clientId, dimension] : {std::pair(u"a"_s, 0), std::pair(u"b"_s, 1)}) {
            QJsonObject n = writeNode(clientId, u"event"_s, u"node "_s + clientId);
            n.insert(u"embedding"_s, axis(dimension));
            n.insert(u"memory_lane"_s, u"shared"_s);
            nodes.append(n);
        }
        const Reply r = post(u"/v1/memory/write"_s, writeBody(nodes));
        QStringList ids;
        for (const QJsonValue &n : r.json.value(u"nodes"_s).toArray())
            ids << n.toObject().value(u"id"_s).toString();
        return ids;
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MemoryService> m_service;
    std::unique_ptr<HttpServerHost> m_host;
    std::unique_ptr<QNetworkAccessManager> m_nam;
    QString m_error;
};

QStringList seedIds(const Reply &r)
{
    QStringList out;
    for (const QJsonValue &s : r.json.value(u"seeds"_s).toArray())
        out << s.toObject().value(u"id"_s).toString();
    return out;
}

/// A base URL on which nothing listens.
QString closedPortUrl()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return u"http://127.0.0.1:9"_s;
    const quint16 port = probe.serverPort();
    probe.close();
    return u"http://127.0.0.1:%1"_s.arg(port);
}

} // namespace

#define REQUIRE_SERVER(server) QVERIFY2((server).isReady(), qPrintable((server).errorText()))
#define REQUIRE_OK(reply) \
    QVERIFY2((reply).status == 200 && (reply).isJsonObject, (reply).describe().constData())

class tst_HttpRecallUpstream : public QObject
{
    Q_OBJECT

private slots:
    void successReturnsSeeds();
    void upstreamFailureMapping_data();
    void upstreamFailureMapping();
    void recallDoesNotNeedTheUpstream();
    void validationBeforeUpstreamCall();
};

void tst_HttpRecallUpstream::successReturnsSeeds()
{
    FakeUpstream upstream;
    QVERIFY(upstream.listen());
    upstream.handler = [](const UpstreamRequest &) {
        return UpstreamReply{200, vectorBody(axis(0)), {}, 0};
    };
    UpstreamRecallServer server(upstream.baseUrl(), kUpstreamTimeoutMs);
    REQUIRE_SERVER(server);
    const QStringList ids = server.writeTwoNodes();
    QCOMPARE(ids.size(), 2);

    const Reply r = server.post(
        kRecallText, QJsonObject{{u"query_text"_s, u"  where did   the deploy\n fail "_s}});
    REQUIRE_OK(r);
    QCOMPARE(seedIds(r), ids);
    const double similarity
        = r.json.value(u"seeds"_s).toArray().at(0).toObject().value(u"similarity"_s).toDouble();
    QVERIFY2(std::abs(similarity - 1.0) < 1e-5, qPrintable(QString::number(similarity)));
    QCOMPARE(r.json.value(u"query"_s).toObject(),
             (QJsonObject{{u"text"_s, u"where did the deploy fail"_s},
                          {u"embedding_provider"_s, u"openai:"_s + kModel}}));
    QCOMPARE(r.json.value(u"request_id"_s).toString(),
             QString::fromLatin1(r.header("x-request-id")));
    QVERIFY(!r.body.contains(kApiKey.toLatin1()));

    // What the provider was asked: the normalised text, once, with the key as a bearer token.
    QCOMPARE(upstream.requests.size(), 1);
    const UpstreamRequest &sent = upstream.requests.constFirst();
    QCOMPARE(sent.method, QByteArrayLiteral("POST"));
    QCOMPARE(sent.path, QByteArrayLiteral("/v1/embeddings"));
    QCOMPARE(sent.headers.value("authorization"),
             QByteArrayLiteral("Bearer ") + kApiKey.toLatin1());
    const QJsonObject payload = QJsonDocument::fromJson(sent.body).object();
    QCOMPARE(payload.value(u"model"_s).toString(), kModel);
    QCOMPARE(payload.value(u"input"_s).toArray(), QJsonArray{u"where did the deploy fail"_s});
}

void tst_HttpRecallUpstream::upstreamFailureMapping_data()
{
    QTest::addColumn<QString>("mode"); // reply | slow | unreachable
    QTest::addColumn<int>("upstreamStatus");
    QTest::addColumn<QByteArray>("upstreamBody");
    QTest::addColumn<QByteArray>("upstreamRetryAfter");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QByteArray>("retryAfter"); // empty: the header must be absent

    const QByteArray throttled
        = R"({"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}})";
    const QByteArray keyEcho
        = "{\"error\":{\"message\":\"Incorrect API key provided: " + kApiKey.toLatin1()
          + "\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}";
    const QString limited = u"upstream_embedding_rate_limited"_s;
    const QString unavailable = u"upstream_embedding_unavailable"_s;
    const QString bad = u"upstream_embedding_bad_response"_s;

    QTest::newRow("provider throttled: 429 with Retry-After 7")
        << u"reply"_s << 429 << throttled << QByteArrayLiteral("7") << 429 << limited
        << QByteArrayLiteral("7");
    QTest::newRow("provider throttled: 429 without Retry-After")
        << u"reply"_s << 429 << throttled << QByteArray() << 429 << limited
        << QByteArrayLiteral("2");
    QTest::newRow("provider throttled: 403 whose message says rate limit")
        << u"reply"_s << 403 << throttled << QByteArray() << 429 << limited
        << QByteArrayLiteral("2");
    QTest::newRow("provider unavailable: 500")
        << u"reply"_s << 500 << QByteArrayLiteral(R"({"error":{"message":"boom"}})") << QByteArray()
        << 503 << unavailable << QByteArrayLiteral("1");
    QTest::newRow("provider unavailable: 502 from a gateway")
        << u"reply"_s << 502 << QByteArrayLiteral("<html>bad gateway</html>") << QByteArray() << 503
        << unavailable << QByteArrayLiteral("1");
    QTest::newRow("provider unavailable: 503 with Retry-After 30")
        << u"reply"_s << 503 << QByteArrayLiteral("{}") << QByteArrayLiteral("30") << 503
        << unavailable << QByteArrayLiteral("30");
    QTest::newRow("provider timeout") << u"slow"_s << 200 << vectorBody(axis(0)) << QByteArray()
                                      << 503 << unavailable << QByteArrayLiteral("1");
    QTest::newRow("provider unreachable") << u"unreachable"_s << 0 << QByteArray() << QByteArray()
                                          << 503 << unavailable << QByteArrayLiteral("1");
    QTest::newRow("provider response malformed: wrong dimension 1535")
        << u"reply"_s << 200 << vectorBody(axis(0, 1535)) << QByteArray() << 502 << bad
        << QByteArray();
    QTest::newRow("provider response malformed: wrong dimension 3072")
        << u"reply"_s << 200 << vectorBody(axis(0, 3072)) << QByteArray() << 502 << bad
        << QByteArray();
    QTest::newRow("provider response malformed: not JSON")
        << u"reply"_s << 200 << QByteArrayLiteral("this is not json") << QByteArray() << 502 << bad
        << QByteArray();
    QTest::newRow("provider response malformed: no data array")
        << u"reply"_s << 200 << QByteArrayLiteral(R"({"object":"list"})") << QByteArray() << 502
        << bad << QByteArray();
    QTest::newRow("provider response malformed: two vectors for one text")
        << u"reply"_s << 200
        << embeddingsBody(QJsonArray{embeddingItem(0, axis(0)), embeddingItem(1, axis(1))})
        << QByteArray() << 502 << bad << QByteArray();
    QJsonArray nonNumber = axis(0);
    nonNumber[5] = u"x"_s;
    QTest::newRow("provider response malformed: non-number component")
        << u"reply"_s << 200 << vectorBody(nonNumber) << QByteArray() << 502 << bad << QByteArray();
    QTest::newRow("provider rejects the request: 400")
        << u"reply"_s << 400
        << QByteArrayLiteral(R"({"error":{"message":"bad input","type":"invalid_request_error"}})")
        << QByteArray() << 502 << bad << QByteArray();
    QTest::newRow("provider rejects the key: 401 echoing it")
        << u"reply"_s << 401 << keyEcho << QByteArray() << 502 << bad << QByteArray();
}

void tst_HttpRecallUpstream::upstreamFailureMapping()
{
    QFETCH(QString, mode);
    QFETCH(int, upstreamStatus);
    QFETCH(QByteArray, upstreamBody);
    QFETCH(QByteArray, upstreamRetryAfter);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QByteArray, retryAfter);

    FakeUpstream upstream;
    QVERIFY(upstream.listen());
    UpstreamReply answer{
        upstreamStatus, upstreamBody, {}, mode == "slow"_L1 ? 10 * kUpstreamTimeoutMs : 0};
    if (!upstreamRetryAfter.isEmpty())
        answer.headers.append({QByteArrayLiteral("Retry-After"), upstreamRetryAfter});
    upstream.handler = [answer](const UpstreamRequest &) { return answer; };
    UpstreamRecallServer server(mode == "unreachable"_L1 ? closedPortUrl() : upstream.baseUrl(),
                                kUpstreamTimeoutMs);
    REQUIRE_SERVER(server);
    QCOMPARE(server.writeTwoNodes().size(), 2);

    const Reply r
        = server.post(kRecallText, QJsonObject{{u"query_text"_s, u"where did the deploy fail"_s}},
                      {{QByteArrayLiteral("X-Request-Id"), QByteArrayLiteral("upstream-case-1")}});
    QVERIFY2(r.status == status && r.isJsonObject, r.describe().constData());
    QCOMPARE(r.errorCode(), code);
    QCOMPARE(keysOf(r.json), keyList({"error", "message", "details", "request_id"}));
    QCOMPARE(r.json.value(u"request_id"_s).toString(), u"upstream-case-1"_s);
    QCOMPARE(r.header("retry-after"), retryAfter);
    // Whatever the provider said, the caller never sees the provider's key.
    QVERIFY2(!r.body.contains(kApiKey.toLatin1()), r.body.constData());
    if (mode != "unreachable"_L1)
        QVERIFY(!upstream.requests.isEmpty());
}

void tst_HttpRecallUpstream::recallDoesNotNeedTheUpstream()
{
    FakeUpstream upstream;
    QVERIFY(upstream.listen());
    upstream.handler = [](const UpstreamRequest &) {
        return UpstreamReply{500, QByteArrayLiteral("{}"), {}, 0};
    };
    UpstreamRecallServer server(upstream.baseUrl(), kUpstreamTimeoutMs);
    REQUIRE_SERVER(server);
    const QStringList ids = server.writeTwoNodes();
    QCOMPARE(ids.size(), 2);

    const Reply r = server.post(kRecall, QJsonObject{{u"query_embedding"_s, axis(1)}});
    REQUIRE_OK(r);
    QCOMPARE(seedIds(r), (QStringList{ids.at(1), ids.at(0)}));
    QCOMPARE(upstream.requests.size(), 0);
}

void tst_HttpRecallUpstream::validationBeforeUpstreamCall()
{
    FakeUpstream upstream;
    QVERIFY(upstream.listen());
    upstream.handler = [](const UpstreamRequest &) {
        return UpstreamReply{200, vectorBody(axis(0)), {}, 0};
    };
    UpstreamRecallServer server(upstream.baseUrl(), kUpstreamTimeoutMs);
    REQUIRE_SERVER(server);

    Reply r
        = server.post(kRecallText, QJsonObject{{u"query_text"_s, u"deploy"_s}, {u"limit"_s, 201}});
    QVERIFY2(r.status == 400, r.describe().constData());
    QCOMPARE(r.errorCode(), u"invalid_request"_s);
    QCOMPARE(r.issuePath(), u"limit"_s);
    r = server.post(kRecallText, QJsonObject{{u"query_text"_s, u"   "_s}});
    QVERIFY2(r.status == 400, r.describe().constData());
    QCOMPARE(r.issuePath(), u"query_text"_s);
    QCOMPARE(upstream.requests.size(), 0);
}

QTEST_GUILESS_MAIN(tst_HttpRecallUpstream)
#include "tst_httprecallupstream.moc"
