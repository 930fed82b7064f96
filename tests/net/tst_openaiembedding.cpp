#include "service/core/vocabulary.h"
#include "service/net/embeddingfactory.h"
#include "service/net/embeddingwire.h"
#include "service/net/openaiembeddingprovider.h"
#include "service/net/upstreamembeddingerrors.h"
#include "tests/net/fakeupstream.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QtConcurrent>

#include <optional>

using namespace MemoryGraph;
using MemoryGraph::Test::FakeUpstream;
using MemoryGraph::Test::UpstreamReply;
using MemoryGraph::Test::UpstreamRequest;

namespace {

const QString kApiKey = QStringLiteral("sk-test-SECRET-4242-do-not-log");
const QString kModel = QStringLiteral("text-embedding-3-small");
constexpr int kDim = Vocabulary::kEmbeddingDimension;

using EmbedResult = Result<QVector<Embedding>>;

ServiceConfig openAiConfig(const QString &baseUrl, int timeoutMs = 5000,
                           const QString &key = kApiKey)
{
    ServiceConfig config;
    config.embeddingProvider = QStringLiteral("openai");
    config.embeddingBaseUrl = baseUrl;
    config.embeddingModel = kModel;
    config.embeddingApiKey = key;
    config.embeddingTimeoutMs = timeoutMs;
    return config;
}

std::unique_ptr<EmbeddingProvider> makeProvider(const ServiceConfig &config)
{
    auto provider = makeEmbeddingProvider(config);
    if (!provider) {
        qWarning("provider: %s", qPrintable(provider.error().message));
        return nullptr;
    }
    return std::move(provider).value();
}

// The provider blocks, and the fake upstream needs this thread's event loop: embed on a pool
// thread (as recall_text handlers do) and spin events here until it is done.
EmbedResult embedOffThread(EmbeddingProvider &provider, const QStringList &texts)
{
    std::optional<EmbedResult> out;
    QFuture<void> done = QtConcurrent::run([&] { out.emplace(provider.embed(texts)); });
    if (!QTest::qWaitFor([&] { return done.isFinished(); }, 30000))
        qWarning("embed() still running after 30 s");
    done.waitForFinished(); // the provider's own timeout bounds this
    return std::move(*out);
}

// A vector whose first component records which input it belongs to.
QJsonArray vectorTagged(double tag, int dim = kDim)
{
    QJsonArray v;
    v.append(tag);
    for (int i = 1; i < dim; ++i)
        v.append(0.001 * (i % 7));
    return v;
}

QJsonObject item(int index, const QJsonArray &embedding)
{
    return {{QStringLiteral("object"), QStringLiteral("embedding")},
            {QStringLiteral("index"), index},
            {QStringLiteral("embedding"), embedding}};
}

QByteArray dataBody(const QJsonArray &items)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("object"), QStringLiteral("list")},
                                     {QStringLiteral("data"), items},
                                     {QStringLiteral("model"), kModel}})
        .toJson(QJsonDocument::Compact);
}

QStringList inputsOf(const UpstreamRequest &request)
{
    QStringList out;
    const QJsonArray input
        = QJsonDocument::fromJson(request.body).object().value(QStringLiteral("input")).toArray();
    for (const QJsonValue &v : input)
        out.append(v.toString());
    return out;
}

// Answers like a well-behaved provider, in reverse order, tagging vectors with the number in
// each "t<n>" input.
UpstreamReply echoReversed(const UpstreamRequest &request)
{
    const QStringList inputs = inputsOf(request);
    QJsonArray items;
    for (qsizetype i = inputs.size() - 1; i >= 0; --i)
        items.append(item(int(i), vectorTagged(inputs.at(i).mid(1).toDouble())));
    return {200, dataBody(items), {}, 0};
}

UpstreamReply fixed(int status, const QByteArray &body,
                    const QList<QPair<QByteArray, QByteArray>> &headers = {})
{
    return {status, body, headers, 0};
}

bool leaksKey(const Error &error)
{
    return error.message.contains(kApiKey)
           || QJsonDocument(error.details).toJson().contains(kApiKey.toUtf8());
}

} // namespace

class tst_OpenAiEmbedding : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void endpoint_data();
    void endpoint();
    void createRejectsBadConfiguration();
    void nameAndModel();
    void factoryDelegatesOfflineProviders();

    void succeedsWithOutOfOrderIndexes();
    void sendsNoAuthorizationWithoutKey();
    void splitsLargeInputsIntoBatches();
    void servesConcurrentCallers();
    void rejectsEmptyTextWithoutCallingUpstream();

    void rateLimitedHonoursRetryAfter();
    void rateLimitedDefaultsRetryAfter_data();
    void rateLimitedDefaultsRetryAfter();
    void serverErrorIsUnavailable();
    void unreachablePortIsUnavailable();
    void slowUpstreamTimesOut();
    void badResponses_data();
    void badResponses();
    void clientErrorIsBadResponseWithoutKey();

    void retryAfterParsing_data();
    void retryAfterParsing();

private:
    std::unique_ptr<FakeUpstream> m_upstream;
};

void tst_OpenAiEmbedding::init()
{
    m_upstream = std::make_unique<FakeUpstream>();
    QVERIFY(m_upstream->listen());
}

void tst_OpenAiEmbedding::cleanup()
{
    m_upstream.reset();
}

void tst_OpenAiEmbedding::endpoint_data()
{
    QTest::addColumn<QString>("base");
    QTest::addColumn<QString>("expected");

    QTest::newRow("openai") << QStringLiteral("https://api.openai.com")
                            << QStringLiteral("https://api.openai.com/v1/embeddings");
    QTest::newRow("trailing slash") << QStringLiteral("https://api.openai.com/")
                                    << QStringLiteral("https://api.openai.com/v1/embeddings");
    QTest::newRow("ollama /v1") << QStringLiteral("http://localhost:11434/v1")
                                << QStringLiteral("http://localhost:11434/v1/embeddings");
    QTest::newRow("/v1/") << QStringLiteral("http://localhost:1234/v1/")
                          << QStringLiteral("http://localhost:1234/v1/embeddings");
    QTest::newRow("prefix") << QStringLiteral("http://gateway/openai")
                            << QStringLiteral("http://gateway/openai/v1/embeddings");
    QTest::newRow("full") << QStringLiteral("http://gateway/v1/embeddings")
                          << QStringLiteral("http://gateway/v1/embeddings");
    QTest::newRow("ftp") << QStringLiteral("ftp://example.com") << QString();
    QTest::newRow("no host") << QStringLiteral("http://") << QString();
    QTest::newRow("not a url") << QStringLiteral("api.openai.com") << QString();
    QTest::newRow("empty") << QString() << QString();
}

void tst_OpenAiEmbedding::endpoint()
{
    QFETCH(QString, base);
    QFETCH(QString, expected);
    const QUrl url = EmbeddingWire::endpoint(base);
    if (expected.isEmpty())
        QVERIFY(!url.isValid());
    else
        QCOMPARE(url.toString(), expected);
}

void tst_OpenAiEmbedding::createRejectsBadConfiguration()
{
    auto badUrl = makeEmbeddingProvider(openAiConfig(QStringLiteral("ftp://example.com")));
    QVERIFY(!badUrl.ok());
    QCOMPARE(badUrl.error().code, QStringLiteral("invalid_configuration"));
    QCOMPARE(badUrl.error().details.value(QStringLiteral("variable")).toString(),
             QStringLiteral("EMBEDDING_BASE_URL"));

    ServiceConfig noModel = openAiConfig(m_upstream->baseUrl());
    noModel.embeddingModel = QStringLiteral("  ");
    QVERIFY(!makeEmbeddingProvider(noModel).ok());

    const QString badKey = QStringLiteral("sk-line\r\nX-Injected: 1");
    auto injected = makeEmbeddingProvider(openAiConfig(m_upstream->baseUrl(), 5000, badKey));
    QVERIFY(!injected.ok());
    QVERIFY(!injected.error().message.contains(QStringLiteral("sk-line")));
}

void tst_OpenAiEmbedding::nameAndModel()
{
    auto provider = makeProvider(openAiConfig(m_upstream->baseUrl()));
    QVERIFY(provider);
    QCOMPARE(provider->name(), QStringLiteral("openai:text-embedding-3-small"));
    QCOMPARE(provider->model(), kModel);
}

void tst_OpenAiEmbedding::factoryDelegatesOfflineProviders()
{
    ServiceConfig config;
    config.embeddingProvider = QStringLiteral("none");
    auto none = makeEmbeddingProvider(config);
    QVERIFY(none.ok());
    QVERIFY(none.value() == nullptr);

    config.embeddingProvider = QStringLiteral("local");
    auto local = makeEmbeddingProvider(config);
    QVERIFY(local.ok() && local.value());
    QCOMPARE(local.value()->name(), QStringLiteral("local:hashing-v2"));

    config.embeddingProvider = QStringLiteral("fake");
    auto fake = makeEmbeddingProvider(config);
    QVERIFY(fake.ok() && fake.value());
    QCOMPARE(fake.value()->name(), QStringLiteral("fake:deterministic"));
}

void tst_OpenAiEmbedding::succeedsWithOutOfOrderIndexes()
{
    m_upstream->handler = [](const UpstreamRequest &request) {
        const QStringList inputs = inputsOf(request);
        // Indexes 2, 0, 1: the provider must sort by index, not by position.
        QJsonArray items{item(2, vectorTagged(20)), item(0, vectorTagged(0)),
                         item(1, vectorTagged(10))};
        return inputs.size() == 3 ? fixed(200, dataBody(items)) : fixed(400, "{}");
    };
    auto provider = makeProvider(openAiConfig(m_upstream->baseUrl()));
    QVERIFY(provider);

    const QStringList texts{QStringLiteral("alpha"), QStringLiteral("beta"),
                            QStringLiteral("gamma ünïcode")};
    const EmbedResult result = embedOffThread(*provider, texts);
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().message));
    QCOMPARE(result.value().size(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(result.value().at(i).size(), kDim);
        QCOMPARE(result.value().at(i).first(), float(10 * i));
    }

    QCOMPARE(m_upstream->requests.size(), 1);
    const UpstreamRequest &request = m_upstream->requests.first();
    QCOMPARE(request.method, QByteArray("POST"));
    QCOMPARE(request.path, QByteArray("/v1/embeddings"));
    QCOMPARE(request.headers.value("authorization"), "Bearer " + kApiKey.toUtf8());
    QVERIFY(request.headers.value("content-type").startsWith("application/json"));
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    QCOMPARE(body.value(QStringLiteral("model")).toString(), kModel);
    QCOMPARE(inputsOf(request), texts);
}

void tst_OpenAiEmbedding::sendsNoAuthorizationWithoutKey()
{
    m_upstream->handler = echoReversed;
    auto provider = makeProvider(
        openAiConfig(m_upstream->baseUrl() + QStringLiteral("/v1"), 5000, QString()));
    QVERIFY(provider);
    const EmbedResult result = embedOffThread(*provider, {QStringLiteral("t1")});
    QVERIFY(result.ok());
    QCOMPARE(m_upstream->requests.size(), 1);
    QCOMPARE(m_upstream->requests.first().path, QByteArray("/v1/embeddings")); // no /v1/v1
    QVERIFY(!m_upstream->requests.first().headers.contains("authorization"));
}

void tst_OpenAiEmbedding::splitsLargeInputsIntoBatches()
{
    m_upstream->handler = echoReversed;
    auto provider = makeProvider(openAiConfig(m_upstream->baseUrl()));
    QVERIFY(provider);

    QStringList texts;
    for (int i = 0; i < 130; ++i)
        texts.append(QStringLiteral("t%1").arg(i));
    const EmbedResult result = embedOffThread(*provider, texts);
    QVERIFY(result.ok());
    QCOMPARE(result.value().size(), 130);
    for (int i = 0; i < 130; ++i)
        QCOMPARE(result.value().at(i).first(), float(i));

    QCOMPARE(m_upstream->requests.size(), 3);
    QCOMPARE(inputsOf(m_upstream->requests.at(0)).size(), 64);
    QCOMPARE(inputsOf(m_upstream->requests.at(1)).size(), 64);
    QCOMPARE(inputsOf(m_upstream->requests.at(2)).size(), 2);
}

void tst_OpenAiEmbedding::servesConcurrentCallers()
{
    m_upstream->handler = [](const UpstreamRequest &request) {
        UpstreamReply reply = echoReversed(request);
        reply.delayMs = 50; // keep several calls in flight at once
        return reply;
    };
    auto provider = makeProvider(openAiConfig(m_upstream->baseUrl()));
    QVERIFY(provider);

    QThreadPool pool;
    pool.setMaxThreadCount(4);
    QList<QFuture<bool>> calls;
    for (int caller = 0; caller < 8; ++caller) {
        calls.append(QtConcurrent::run(&pool, [&provider, caller] {
            const QString text = QStringLiteral("t%1").arg(caller);
            const EmbedResult r = provider->embed({text, text});
            return r.ok() && r.value().size() == 2 && r.value().at(1).first() == float(caller);
        }));
    }
    QVERIFY(QTest::qWaitFor([&] { return pool.waitForDone(0); }, 30000));
    for (QFuture<bool> &call : calls)
        QVERIFY(call.result());
    QCOMPARE(m_upstream->requests.size(), 8);
}

void tst_OpenAiEmbedding::rejectsEmptyTextWithoutCallingUpstream()
{
    m_upstream->handler = echoReversed;
    auto provider = makeProvider(openAiConfig(m_upstream->baseUrl()));
    QVERIFY(provider);
    const EmbedResult result
        = embedOffThread(*provider, {QStringLiteral("t1"), QStringLiteral(" ")});
    QVERIFY(!result.ok());
    QCOMPARE(result.error().status, 400);
    QCOMPARE(result.error().code, QStringLiteral("invalid_request"));
    QVERIFY(m_upstream->requests.isEmpty());

    const EmbedResult none = embedOffThread(*provider, {});
    QVERIFY(none.ok());
    QVERIFY(none.value().isEmpty());
    QVERIFY(m_upstream->requests.isEmpty());
}

void tst_OpenAiEmbedding::rateLimitedHonoursRetryAfter()
{
    m_upstream->handler = [](const UpstreamRequest &) {
        return fixed(429, R"({"error":{"message":"slow down","type":"requests"}})",
                     {{"Retry-After", "7"}});
    };
    auto provider = makeProvider(openAiConfig(m_upstream->baseUrl()));
    QVERIFY(provider);
    const EmbedResult result = embedOffThread(*provider, {QStringLiteral("t1")});
    QVERIFY(!result.ok());
    QCOMPARE(result.error().status, 429);
    QCOMPARE(result.error().code, QStringLiteral("upstream_embedding_rate_limited"));
    QCOMPARE(result.error().details.value(QStringLiteral("retry_after_sec")).toInt(), 7);
    QVERIFY(!leaksKey(result.error()));
}

void tst_OpenAiEmbedding::rateLimitedDefaultsRetryAfter_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");

    QTest::newRow("429 without header") << 429 << QByteArray("{}");
    // Some gateways throttle with another status; the wording gives it away (reference §4.11).
    QTest::newRow("400 rate limit text")
        << 400 << QByteArray(R"({"error":{"message":"Rate limit reached for requests"}})");
    QTest::newRow("503 too many requests") << 503 << QByteArray(R"({"error":"Too Many Requests"})");
}

void tst_OpenAiEmbedding::rateLimitedDefaultsRetryAfter()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    m_upstream->handler = [status, body](const UpstreamRequest &) { return fixed(status, body); };
    auto provider = makeProvider(openAiConfig(m_upstream->baseUrl()));
    QVERIFY(provider);
    const EmbedResult result = embedOffThread(*provider, {QStringLiteral("t1")});
    QVERIFY(!result.ok());
    QCOMPARE(result.error().status, 429);
    QCOMPARE(result.error().code, QStringLiteral("upstream_embedding_rate_limited"));
    QCOMPARE(result.error().details.value(QStringLiteral("retry_after_sec")).toInt(), 2);
}

void tst_OpenAiEmbedding::serverErrorIsUnavailable()
{
    m_upstream->handler
        = [](const UpstreamRequest &) { return fixed(500, R"({"error":{"message":"internal"}})"); };
    auto provider = makeProvider(openAiConfig(m_upstream->baseUrl()));
    QVERIFY(provider);
    const EmbedResult result = embedOffThread(*provider, {QStringLiteral("t1")});
    QVERIFY(!result.ok());
    QCOMPARE(result.error().status, 503);
    QCOMPARE(result.error().code, QStringLiteral("upstream_embedding_unavailable"));
    QCOMPARE(result.error().details.value(QStringLiteral("retry_after_sec")).toInt(), 1);
    QCOMPARE(result.error().details.value(QStringLiteral("upstream_status")).toInt(), 500);
    QVERIFY(!leaksKey(result.error()));
}

void tst_OpenAiEmbedding::unreachablePortIsUnavailable()
{
    // Bind a port, then free it: nothing listens there any more, so the connect is refused.
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        port = probe.serverPort();
    }
    auto provider = makeProvider(openAiConfig(QStringLiteral("http://127.0.0.1:%1").arg(port)));
    QVERIFY(provider);
    const EmbedResult result = embedOffThread(*provider, {QStringLiteral("t1")});
    QVERIFY(!result.ok());
    QCOMPARE(result.error().status, 503);
    QCOMPARE(result.error().code, QStringLiteral("upstream_embedding_unavailable"));
    QCOMPARE(result.error().details.value(QStringLiteral("retry_after_sec")).toInt(), 1);
    QCOMPARE(result.error().details.value(QStringLiteral("reason")).toString(),
             QStringLiteral("connection_refused"));
    QVERIFY(!leaksKey(result.error()));
}

void tst_OpenAiEmbedding::slowUpstreamTimesOut()
{
    m_upstream->handler = [](const UpstreamRequest &request) {
        UpstreamReply reply = echoReversed(request);
        reply.delayMs = 3000;
        return reply;
    };
    auto provider = makeProvider(openAiConfig(m_upstream->baseUrl(), 300));
    QVERIFY(provider);
    QElapsedTimer clock;
    clock.start();
    const EmbedResult result = embedOffThread(*provider, {QStringLiteral("t1")});
    const qint64 elapsed = clock.elapsed();
    QVERIFY(!result.ok());
    QCOMPARE(result.error().status, 503);
    QCOMPARE(result.error().code, QStringLiteral("upstream_embedding_unavailable"));
    QCOMPARE(result.error().details.value(QStringLiteral("reason")).toString(),
             QStringLiteral("timeout"));
    QCOMPARE(result.error().details.value(QStringLiteral("retry_after_sec")).toInt(), 1);
    QVERIFY2(elapsed >= 250 && elapsed < 2500, qPrintable(QString::number(elapsed)));
}

void tst_OpenAiEmbedding::badResponses_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("reason");

    QTest::newRow("wrong dimension")
        << 200 << dataBody({item(0, vectorTagged(1, 768))}) << QStringLiteral("wrong_dimension");
    QTest::newRow("malformed json")
        << 200 << QByteArray("{\"data\": [") << QStringLiteral("malformed_json");
    QTest::newRow("html") << 200 << QByteArray("<html>oops</html>")
                          << QStringLiteral("malformed_json");
    QTest::newRow("no data") << 200 << QByteArray("{\"object\":\"list\"}")
                             << QStringLiteral("missing_data");
    QTest::newRow("wrong count") << 200
                                 << dataBody({item(0, vectorTagged(1)), item(1, vectorTagged(2))})
                                 << QStringLiteral("wrong_count");
    QTest::newRow("index out of range")
        << 200 << dataBody({item(3, vectorTagged(1))}) << QStringLiteral("bad_index");

    QJsonArray text = vectorTagged(1);
    text[5] = QStringLiteral("0.5");
    QTest::newRow("string component")
        << 200 << dataBody({item(0, text)}) << QStringLiteral("non_finite");
    QJsonArray huge = vectorTagged(1);
    huge[9] = 1e300; // finite as a double, infinite as a float
    QTest::newRow("overflows float")
        << 200 << dataBody({item(0, huge)}) << QStringLiteral("non_finite");

    QTest::newRow("404") << 404 << QByteArray("{}") << QStringLiteral("upstream_status");
    QTest::newRow("redirect is not followed")
        << 307 << QByteArray() << QStringLiteral("upstream_status");
}

void tst_OpenAiEmbedding::badResponses()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(QString, reason);
    m_upstream->handler = [status, body](const UpstreamRequest &) {
        return fixed(status, body, {{"Location", "http://127.0.0.1:9/elsewhere"}});
    };
    auto provider = makeProvider(openAiConfig(m_upstream->baseUrl()));
    QVERIFY(provider);
    const EmbedResult result = embedOffThread(*provider, {QStringLiteral("t1")});
    QVERIFY(!result.ok());
    QCOMPARE(result.error().status, 502);
    QCOMPARE(result.error().code, QStringLiteral("upstream_embedding_bad_response"));
    QCOMPARE(result.error().details.value(QStringLiteral("reason")).toString(), reason);
    QVERIFY(!result.error().details.contains(QStringLiteral("retry_after_sec")));
    QCOMPARE(m_upstream->requests.size(), 1);
    QVERIFY(!leaksKey(result.error()));
}

void tst_OpenAiEmbedding::clientErrorIsBadResponseWithoutKey()
{
    // OpenAI echoes (part of) a rejected key in its message; none of that may reach our error.
    m_upstream->handler = [](const UpstreamRequest &) {
        const QJsonObject error{
            {QStringLiteral("message"), QStringLiteral("Incorrect API key provided: ") + kApiKey},
            {QStringLiteral("type"), QStringLiteral("invalid_request_error")},
            {QStringLiteral("code"), QStringLiteral("invalid_api_key")}};
        return fixed(400, QJsonDocument(QJsonObject{{QStringLiteral("error"), error}}).toJson());
    };
    auto provider = makeProvider(openAiConfig(m_upstream->baseUrl()));
    QVERIFY(provider);
    const EmbedResult result = embedOffThread(*provider, {QStringLiteral("t1")});
    QVERIFY(!result.ok());
    QCOMPARE(result.error().status, 502);
    QCOMPARE(result.error().code, QStringLiteral("upstream_embedding_bad_response"));
    QCOMPARE(result.error().details.value(QStringLiteral("upstream_status")).toInt(), 400);
    QCOMPARE(result.error().details.value(QStringLiteral("upstream_error_code")).toString(),
             QStringLiteral("invalid_api_key"));
    QVERIFY(!leaksKey(result.error()));

    // The same key inside any error is scrubbed, whatever produced it.
    Error echoed = Error::make(502, QStringLiteral("x"), QStringLiteral("key ") + kApiKey,
                               {{QStringLiteral("nested"), QJsonArray{kApiKey}}});
    QVERIFY(!leaksKey(UpstreamEmbedding::redacted(echoed, kApiKey)));
}

void tst_OpenAiEmbedding::retryAfterParsing_data()
{
    QTest::addColumn<QByteArray>("retryAfter");
    QTest::addColumn<QByteArray>("retryAfterMs");
    QTest::addColumn<int>("expected");

    QTest::newRow("seconds") << QByteArray("7") << QByteArray() << 7;
    QTest::newRow("fraction rounds up") << QByteArray("1.2") << QByteArray() << 2;
    QTest::newRow("zero means soon") << QByteArray("0") << QByteArray() << 1;
    QTest::newRow("clamped") << QByteArray("999999") << QByteArray() << 3600;
    QTest::newRow("http date") << QByteArray("Tue, 14 Nov 2023 22:13:50 GMT") << QByteArray() << 30;
    QTest::newRow("milliseconds") << QByteArray() << QByteArray("1500") << 2;
    QTest::newRow("garbage") << QByteArray("soon") << QByteArray() << -1;
    QTest::newRow("absent") << QByteArray() << QByteArray() << -1;
}

void tst_OpenAiEmbedding::retryAfterParsing()
{
    QFETCH(QByteArray, retryAfter);
    QFETCH(QByteArray, retryAfterMs);
    QFETCH(int, expected);
    const QDateTime now = QDateTime::fromSecsSinceEpoch(1700000000, Qt::UTC); // 22:13:20 GMT
    QCOMPARE(UpstreamEmbedding::retryAfterSeconds(retryAfter, retryAfterMs, -1, now), expected);
}

QTEST_GUILESS_MAIN(tst_OpenAiEmbedding)
#include "tst_openaiembedding.moc"
