// The queue cap: when MEMORY_HTTP_MAX_QUEUED_REQUESTS requests already wait for a worker thread,
// the next one is answered 503 server_busy with Retry-After at once instead of queuing.
//
// Handlers are made slow for real: /recall_text calls an embedding provider, here an
// OpenAI-compatible fake served by this thread that holds every answer back. Requests are sent one
// by one; each one either reaches the upstream (a worker took it) or does not (it waits in the
// queue), until the cap is reached and the next request is refused.

#include "service/net/embeddingfactory.h"
#include "tests/http/httptestserver.h"
#include "tests/net/fakeupstream.h"

#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <memory>
#include <tuple>
#include <vector>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

constexpr int kDim = 1536;
constexpr int kMaxQueued = 2;
constexpr int kUpstreamDelayMs = 3000;
constexpr int kPickUpWaitMs = 300; // a free worker reaches the upstream well within this

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QByteArray embeddingAnswer()
{
    QJsonArray vector;
    for (int i = 0; i < kDim; ++i)
        vector.append(i == 0 ? 1.0 : 0.0);
    const QJsonObject item{
        {s("object"), s("embedding")}, {s("index"), 0}, {s("embedding"), vector}};
    return compactJson(
        QJsonObject{{s("object"), s("list")},
                    {s("data"), QJsonArray{item}},
                    {s("model"), s("test-embed")},
                    {s("usage"), QJsonObject{{s("prompt_tokens"), 1}, {s("total_tokens"), 1}}}});
}

/// A service whose embedding provider is the fake upstream, served on 127.0.0.1.
class SlowEmbeddingServer
{
public:
    explicit SlowEmbeddingServer(const QString &upstreamUrl)
    {
        QProcessEnvironment env;
        env.insert(s("MEMORY_HTTP_MAX_QUEUED_REQUESTS"), QString::number(kMaxQueued));
        auto config = ServiceConfig::fromEnvironment(env);
        if (!config) {
            m_error = config.error().message;
            return;
        }
        ServiceConfig c = config.value();
        c.dataDir = m_dir.path();
        c.embeddingProvider = s("openai");
        c.embeddingBaseUrl = upstreamUrl;
        c.embeddingModel = s("test-embed");
        c.embeddingApiKey = s("sk-test-queue");
        c.embeddingTimeoutMs = 30000;
        auto provider = makeEmbeddingProvider(c);
        if (!provider) {
            m_error = provider.error().message;
            return;
        }
        auto opened = MemoryService::open(c, std::move(provider).value());
        if (!opened) {
            m_error = opened.error().message;
            return;
        }
        m_service = std::move(opened).value();
        m_host = std::make_unique<HttpServerHost>(m_service.get());
        m_host->start(s("127.0.0.1"), 0);
        if (m_host->port() == 0)
            m_error = s("HTTP server did not start");
    }

    ~SlowEmbeddingServer()
    {
        if (m_host)
            m_host->stop();
    }

    bool isReady() const { return m_error.isEmpty(); }
    QString errorText() const { return m_error; }
    quint16 port() const { return m_host ? m_host->port() : 0; }

    QByteArray recallText(int i) const
    {
        const QByteArray body
            = compactJson(QJsonObject{{s("query_text"), s("question %1").arg(i)}});
        return rawRequest("POST", "/v1/memory/recall_text",
                          {{"Host", "127.0.0.1:" + QByteArray::number(port())},
                           {"Content-Type", "application/json"}},
                          body);
    }

private:
    QTemporaryDir m_dir;
    std::unique_ptr<MemoryService> m_service;
    std::unique_ptr<HttpServerHost> m_host;
    QString m_error;
};

} // namespace

class tst_HttpQueue : public QObject
{
    Q_OBJECT

private slots:
    void overTheQueueCapIsBusy();
};

void tst_HttpQueue::overTheQueueCapIsBusy()
{
    FakeUpstream upstream;
    upstream.handler = [](const UpstreamRequest &) {
        return UpstreamReply{200, embeddingAnswer(), {}, kUpstreamDelayMs};
    };
    QVERIFY(upstream.listen());
    SlowEmbeddingServer server(upstream.baseUrl());
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));

    std::vector<std::unique_ptr<RawHttpExchange>> exchanges;
    // However the test ends, let every admitted request finish (the upstream answers while this
    // thread spins) before the server and the upstream go away.
    const auto drain = qScopeGuard([&exchanges] {
        std::ignore = QTest::qWaitFor(
            [&exchanges] {
                return std::all_of(exchanges.begin(), exchanges.end(),
                                   [](const auto &e) { return e->answered(); });
            },
            60000);
    });
    Reply busy;
    int waitingInARow = 0; // sent requests no worker picked up
    qsizetype runningAtBusy = 0;
    // Without a cap every extra request would just wait: give up once clearly more than the cap
    // wait.
    while (busy.status == 0 && waitingInARow <= kMaxQueued + 2 && exchanges.size() < 300) {
        const qsizetype running = upstream.requests.size();
        exchanges.push_back(std::make_unique<RawHttpExchange>(
            server.port(), server.recallText(int(exchanges.size()))));
        RawHttpExchange &latest = *exchanges.back();
        std::ignore = QTest::qWaitFor(
            [&] { return upstream.requests.size() > running || latest.answered(); },
            kPickUpWaitMs); // either way, look below
        if (latest.answered()) {
            busy = latest.wait(0);
            runningAtBusy = upstream.requests.size();
        } else if (upstream.requests.size() > running) {
            waitingInARow = 0;
        } else {
            ++waitingInARow;
        }
    }

    QVERIFY2(busy.status == 503,
             qPrintable(QStringLiteral("no 503 after %1 requests, %2 reached the upstream: %3")
                            .arg(exchanges.size())
                            .arg(upstream.requests.size())
                            .arg(QString::fromUtf8(busy.describe()))));
    QCOMPARE(busy.errorCode(), s("server_busy"));
    QCOMPARE(busy.header("retry-after"), QByteArray("1"));
    QCOMPARE(keysOf(busy.json), keyList({"error", "message", "details", "request_id"}));
    QCOMPARE(busy.json.value(s("details")).toObject().value(s("max_queued_requests")).toInt(),
             kMaxQueued);
    // The refusal came only once the cap was full: at least kMaxQueued requests were waiting.
    const qsizetype admitted = qsizetype(exchanges.size()) - 1;
    QVERIFY2(
        admitted - runningAtBusy >= kMaxQueued,
        qPrintable(QStringLiteral("%1 admitted, %2 running").arg(admitted).arg(runningAtBusy)));

    // Everything admitted is answered once the upstream answers: the queue drained, nothing hung.
    for (qsizetype i = 0; i < admitted; ++i) {
        const Reply r = exchanges.at(size_t(i))->wait(4 * kUpstreamDelayMs + 15000);
        QVERIFY2(r.status == 200, r.describe().constData());
    }
    // And the server takes new work again.
    RawHttpExchange after(server.port(), server.recallText(1000));
    const Reply again = after.wait(2 * kUpstreamDelayMs + 15000);
    QVERIFY2(again.status == 200, again.describe().constData());
}

QTEST_GUILESS_MAIN(tst_HttpQueue)
#include "tst_httpqueue.moc"
