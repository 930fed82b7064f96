// recall_text and context/assemble check the tenant and the caller's identity before they call
// the embedding provider, so a refused call never spends an embedding (issue: trust boundaries §3).

#include "service/embedding/fakeembeddingprovider.h"
#include "service/memoryservice.h"
#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <memory>

using namespace MemoryGraph;

namespace {

const QString kQuery = QStringLiteral("where is the release checklist");

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

/// Synthetic vectors, counting the calls that embed the test query (the backfill worker may
/// embed stored nodes on its own; those calls are not counted).
class CountingProvider final : public EmbeddingProvider
{
public:
    explicit CountingProvider(std::shared_ptr<std::atomic<int>> queryCalls)
        : m_queryCalls(std::move(queryCalls))
    {
    }

    QString name() const override { return m_inner.name(); }
    QString model() const override { return m_inner.model(); }
    Result<QVector<Embedding>> embed(const QStringList &texts) override
    {
        if (texts.contains(kQuery))
            ++*m_queryCalls;
        return m_inner.embed(texts);
    }

private:
    FakeEmbeddingProvider m_inner;
    std::shared_ptr<std::atomic<int>> m_queryCalls;
};

RequestMeta as(const QString &agent, const QString &team)
{
    return Test::credentialAs(agent, team);
}

using MemoryGraph::Test::describe;
using MemoryGraph::Test::why;

} // namespace

Q_DECLARE_METATYPE(RequestMeta)

class tst_EmbeddingAdmission : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void refusedRecallTextSpendsNoEmbedding_data();
    void refusedRecallTextSpendsNoEmbedding();
    void refusedAssembleSpendsNoEmbedding_data();
    void refusedAssembleSpendsNoEmbedding();
    void admittedCallsEmbedOnce();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<MemoryService> m_service;
    std::shared_ptr<std::atomic<int>> m_calls;
};

void tst_EmbeddingAdmission::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    QProcessEnvironment env;
    env.insert(s("MEMORY_AUTH_MODE"), s("api_key"));
    env.insert(s("MEMORY_API_KEYS_JSON"), s(R"({"unused":{"tenant_id":"acme"}})"));
    auto config = ServiceConfig::fromEnvironment(env);
    QVERIFY2(config.ok(), why(config));
    ServiceConfig c = config.value();
    c.dataDir = m_dir->path();
    m_calls = std::make_shared<std::atomic<int>>(0);
    auto opened = MemoryService::open(c, std::make_unique<CountingProvider>(m_calls));
    QVERIFY2(opened.ok(), why(opened));
    m_service = std::move(opened).value();
}

void tst_EmbeddingAdmission::cleanup()
{
    m_service.reset();
    m_dir.reset();
}

void tst_EmbeddingAdmission::refusedRecallTextSpendsNoEmbedding_data()
{
    QTest::addColumn<QJsonObject>("fields");
    QTest::addColumn<RequestMeta>("meta");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    const RequestMeta a = as(s("agent-a"), s("team-a"));
    QTest::newRow("another tenant")
        << QJsonObject{{s("tenant_id"), s("globex")}} << a << 403 << s("forbidden");
    QTest::newRow("another agent") << QJsonObject{{s("consumer_agent_id"), s("agent-b")}} << a
                                   << 403 << s("identity_mismatch");
    QTest::newRow("agent-only claims a team")
        << QJsonObject{{s("consumer_team_id"), s("team-b")}} << as(s("agent-c"), QString()) << 403
        << s("identity_mismatch");
    QTest::newRow("rules_context of another agent")
        << QJsonObject{{s("rules_context"), QJsonObject{{s("agent_id"), s("agent-b")}}}} << a << 403
        << s("identity_mismatch");
}

void tst_EmbeddingAdmission::refusedRecallTextSpendsNoEmbedding()
{
    QFETCH(QJsonObject, fields);
    QFETCH(RequestMeta, meta);
    QFETCH(int, status);
    QFETCH(QString, code);
    fields.insert(s("query_text"), kQuery);
    auto req = RecallRequest::fromJson(fields, true, 8000);
    QVERIFY2(req.ok(), why(req));
    auto outcome = m_service->recallText(req.value(), meta);
    QVERIFY(!outcome.ok());
    QCOMPARE(outcome.error().status, status);
    QCOMPARE(outcome.error().code, code);
    QCOMPARE(m_calls->load(), 0);
}

void tst_EmbeddingAdmission::refusedAssembleSpendsNoEmbedding_data()
{
    QTest::addColumn<QJsonObject>("fields");
    QTest::addColumn<RequestMeta>("meta");
    QTest::addColumn<QString>("code");
    const RequestMeta a = as(s("agent-a"), s("team-a"));
    QTest::newRow("another tenant")
        << QJsonObject{{s("tenant_id"), s("globex")}} << a << s("forbidden");
    QTest::newRow("consumer_agent_id of another agent")
        << QJsonObject{{s("consumer_agent_id"), s("agent-b")}} << a << s("identity_mismatch");
    QTest::newRow("agent-only claims consumer_team_id")
        << QJsonObject{{s("consumer_team_id"), s("team-b")}} << as(s("agent-c"), QString())
        << s("identity_mismatch");
    QTest::newRow("context of another agent")
        << QJsonObject{{s("context"),
                        QJsonObject{{s("agent"), QJsonObject{{s("id"), s("agent-b")}}}}}}
        << a << s("identity_mismatch");
    QTest::newRow("agent-only claims context.team_id")
        << QJsonObject{{s("context"), QJsonObject{{s("team_id"), s("team-b")}}}}
        << as(s("agent-c"), QString()) << s("identity_mismatch");
}

void tst_EmbeddingAdmission::refusedAssembleSpendsNoEmbedding()
{
    QFETCH(QJsonObject, fields);
    QFETCH(RequestMeta, meta);
    QFETCH(QString, code);
    fields.insert(s("query_text"), kQuery);
    auto req = AssembleRequest::fromJson(fields, 8000);
    QVERIFY2(req.ok(), why(req));
    auto outcome = m_service->assembleContext(req.value(), meta);
    QVERIFY(!outcome.ok());
    QCOMPARE(outcome.error().status, 403);
    QCOMPARE(outcome.error().code, code);
    QCOMPARE(m_calls->load(), 0);
}

void tst_EmbeddingAdmission::admittedCallsEmbedOnce()
{
    const RequestMeta a = as(s("agent-a"), s("team-a"));
    auto recall = RecallRequest::fromJson(QJsonObject{{s("query_text"), kQuery}}, true, 8000);
    QVERIFY(recall.ok());
    auto recalled = m_service->recallText(recall.value(), a);
    QVERIFY2(recalled.ok(), why(recalled));
    QCOMPARE(m_calls->load(), 1);

    auto assemble = AssembleRequest::fromJson(QJsonObject{{s("query_text"), kQuery}}, 8000);
    QVERIFY(assemble.ok());
    auto assembled = m_service->assembleContext(assemble.value(), a);
    QVERIFY2(assembled.ok(), why(assembled));
    QCOMPARE(m_calls->load(), 2);
}

QTEST_GUILESS_MAIN(tst_EmbeddingAdmission)
#include "tst_embeddingadmission.moc"
