// Class limiters and tenant quotas over real HTTP (spec §4.2.5, §4.3.2.7, §4.3.3, §5.5, §7, §8;
// reference-behaviour §9.4): 429 codes, the Retry-After header, per-tenant and per-address buckets,
// loopback bypass, and that a refused request changes nothing. Quotas are charged to the tenant
// of the authenticated request after the tenant check (a 401/403 spends nothing), and the bucket
// tables keyed by caller-chosen strings stay bounded.

#include "service/http/ratelimiter.h"
#include "tests/http/rulestestdata.h"

#include <QTest>
#include <QThread>

#include <cmath>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace MemoryGraph::Test::Rules;

namespace {

constexpr int kDim = 1536;
const QString kWrite = QStringLiteral("/v1/memory/write");
const QString kRecall = QStringLiteral("/v1/memory/recall");
const QString kEvaluate = QStringLiteral("/v1/memory/rules/evaluate");

QJsonObject noteBody(int i, const QJsonObject &extra = {})
{
    return merged(
        writeBody({writeNode(s("note-%1").arg(i), s("event"), s("note number %1").arg(i))}, {},
                  s("write %1").arg(i)),
        extra);
}

QJsonArray axis(int dimension)
{
    QJsonArray v;
    for (int i = 0; i < kDim; ++i)
        v.append(i == dimension ? 1.0 : 0.0);
    return v;
}

QJsonObject recallBody(const QJsonObject &extra = {})
{
    return merged(obj({{"query_embedding", axis(0)}, {"limit", 5}}), extra);
}

QPair<QByteArray, QByteArray> tenantHeader(const QByteArray &tenant)
{
    return {QByteArrayLiteral("X-Tenant-Id"), tenant};
}

/// The checks every 429 shares: the code, a Retry-After header of whole seconds (>= 1) that
/// agrees with details.retry_after_ms, and the error envelope.
void verifyRateLimited(const Reply &r, const QString &code)
{
    QVERIFY2(r.status == 429, r.describe().constData());
    QCOMPARE(r.errorCode(), code);
    QCOMPARE(keysOf(r.json), keyList({"error", "message", "details", "request_id"}));
    QCOMPARE(r.json.value(s("request_id")).toString(),
             QString::fromLatin1(r.header("x-request-id")));
    const QByteArray retryAfter = r.header("retry-after");
    QVERIFY2(!retryAfter.isEmpty(), r.describe().constData());
    bool numeric = false;
    const int seconds = retryAfter.toInt(&numeric);
    QVERIFY2(numeric && seconds >= 1, retryAfter.constData());
    const double retryMs
        = r.json.value(s("details")).toObject().value(s("retry_after_ms")).toDouble();
    QVERIFY2(retryMs > 0, r.describe().constData());
    QCOMPARE(seconds, qMax(1, int(std::ceil(retryMs / 1000.0))));
}

/// Two credentials: agent a of tenant p, agent b of tenant q.
QProcessEnvironment twoTenantKeys(std::initializer_list<QPair<const char *, QString>> quota)
{
    QProcessEnvironment env = environment(quota);
    env.insert(s("MEMORY_AUTH_MODE"), s("api_key"));
    env.insert(
        s("MEMORY_API_KEYS_JSON"),
        s(R"({"key-p":{"tenant_id":"p","agent_id":"agent-a"},"key-q":{"tenant_id":"q","agent_id":"agent-b"}})"));
    env.insert(s("TENANT_QUOTA_ENABLED"), s("true"));
    return env;
}

QPair<QByteArray, QByteArray> apiKey(const QByteArray &key)
{
    return {QByteArrayLiteral("X-Api-Key"), key};
}

/// A limiter whose clock the test moves by hand.
struct ManualClock
{
    std::shared_ptr<qint64> nowMs = std::make_shared<qint64>(1);
    RateLimiter::Clock clock() const
    {
        return [now = nowMs] { return *now; };
    }
};

RateCharge chargeOf(RouteClass routeClass)
{
    RateCharge charge;
    charge.routeClass = routeClass;
    return charge;
}

QString tenantOf(const Reply &r)
{
    return r.json.value(s("details")).toObject().value(s("tenant_id")).toString();
}

int nodeCount(const HttpTestServer &server, const QString &tenant = s("default"))
{
    return int(server.nodes(tenant, s("default")).size());
}

int commitCount(const HttpTestServer &server, const QString &tenant = s("default"))
{
    return int(server.commits(tenant, s("default")).size());
}

} // namespace

class tst_HttpQuota : public QObject
{
    Q_OBJECT

private slots:
    void tenantWriteQuota();
    void tenantWriteQuotaCoversWriteLikeRoutes();
    void tenantWriteQuotaUnderConcurrency();
    void tenantRecallQuota();
    void tenantDebugEmbeddingsQuota();
    void tenantQuotaRefills();
    void tenantQuotaDisabledByDefault();
    void classWriteLimiter();
    void classRecallLimiter();
    void classLimitersDisabled();
    void loopbackBypassedByDefault();
    void debugQuotaOnlyForDebugEmbeddingRoutes();
    void otherTenantsCallsSpendNothing();
    void identityMismatchSpendsNothing();
    void tenantBucketsStayBounded();
    void addressBucketsStayBounded();
    void refilledBucketsAreForgottenFirst();
    void refundRestoresOnlyWhatWasTaken();
};

void tst_HttpQuota::tenantWriteQuota()
{
    HttpTestServer server(environment({{"TENANT_QUOTA_ENABLED", s("true")},
                                       {"TENANT_WRITE_RATE_LIMIT_RPS", s("0.001")},
                                       {"TENANT_WRITE_RATE_LIMIT_BURST", s("2")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));

    QCOMPARE(server.write(noteBody(1)).status, 200);
    QCOMPARE(server.write(noteBody(2)).status, 200);
    const Reply refused = server.write(noteBody(3));
    verifyRateLimited(refused, s("tenant_rate_limited_write"));
    QCOMPARE(tenantOf(refused), s("default"));
    QVERIFY(refused.header("retry-after").toInt() <= 1000); // 1 token at 0.001/s
    // The refused write wrote nothing.
    QCOMPARE(nodeCount(server), 2);
    QCOMPARE(commitCount(server), 2);
    verifyRateLimited(server.write(noteBody(4)), s("tenant_rate_limited_write"));

    // Another tenant has its own bucket, by header or by body.
    QCOMPARE(server.write(noteBody(5), {tenantHeader("other")}).status, 200);
    QCOMPARE(server.write(noteBody(6), {tenantHeader("other")}).status, 200);
    const Reply otherRefused = server.write(noteBody(7), {tenantHeader("other")});
    verifyRateLimited(otherRefused, s("tenant_rate_limited_write"));
    QCOMPARE(tenantOf(otherRefused), s("other"));
    QCOMPARE(nodeCount(server, s("other")), 2);
    const Reply third = server.write(noteBody(8, obj({{"tenant_id", s("third")}})));
    QCOMPARE(third.status, 200);
    QCOMPARE(third.json.value(s("tenant_id")).toString(), s("third"));
    // The body's tenant_id wins over the header for the quota, as it does for storage.
    const Reply bodyWins
        = server.write(noteBody(9, obj({{"tenant_id", s("third")}})), {tenantHeader("default")});
    QCOMPARE(bodyWins.status, 200);
    QCOMPARE(nodeCount(server, s("third")), 2);
    QCOMPARE(nodeCount(server), 2);

    // Recall-class routes use the recall quota, which is not exhausted.
    QCOMPARE(server.post(kEvaluate, obj({{"context", QJsonObject()}})).status, 200);
    QCOMPARE(server.post(kRecall, recallBody()).status, 200);
}

void tst_HttpQuota::tenantWriteQuotaCoversWriteLikeRoutes()
{
    HttpTestServer server(environment({{"TENANT_QUOTA_ENABLED", s("true")},
                                       {"TENANT_WRITE_RATE_LIMIT_RPS", s("0.001")},
                                       {"TENANT_WRITE_RATE_LIMIT_BURST", s("2")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString ruleId
        = api.write({RuleNode(s("r")).then(obj({{"tool", obj({{"prefer", strs({"t1"})}})}}))})
              .value(s("r"));
    QVERIFY2(!ruleId.isEmpty(), api.last.describe());
    QCOMPARE(api.setState(ruleId, s("ACTIVE")).status, 200);
    const int commits = commitCount(server);
    QCOMPARE(commits, 2);

    verifyRateLimited(api.setState(ruleId, s("SHADOW")), s("tenant_rate_limited_write"));
    verifyRateLimited(api.feedback(QJsonObject(), strs({"t1"}), s("t1"), s("positive")),
                      s("tenant_rate_limited_write"));
    QCOMPARE(commitCount(server), commits);
    // The rule is still active and its statistics did not move.
    const Reply evaluated = api.evaluate(QJsonObject());
    QCOMPARE(evaluated.status, 200);
    QCOMPARE(ruleIdsOf(evaluated.json.value(s("active"))), QStringList{ruleId});
    QCOMPARE(jsonText(matchById(evaluated.json.value(s("active")), ruleId).value(s("stats"))),
             jsonText(obj({{"positive", 0}, {"negative", 0}})));
    // tools/select is recall-class.
    QCOMPARE(api.select(QJsonObject(), strs({"t1"})).status, 200);
}

void tst_HttpQuota::tenantWriteQuotaUnderConcurrency()
{
    HttpTestServer server(environment({{"TENANT_QUOTA_ENABLED", s("true")},
                                       {"TENANT_WRITE_RATE_LIMIT_RPS", s("0.001")},
                                       {"TENANT_WRITE_RATE_LIMIT_BURST", s("3")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QList<QByteArray> bodies;
    for (int i = 0; i < 8; ++i)
        bodies << compactJson(noteBody(i));
    const QVector<Reply> replies = server.postConcurrently(kWrite, bodies);
    int admitted = 0, limited = 0;
    for (const Reply &r : replies) {
        if (r.status == 200)
            ++admitted;
        else if (r.status == 429 && r.errorCode() == QLatin1String("tenant_rate_limited_write"))
            ++limited;
        else
            QFAIL(r.describe().constData());
    }
    QCOMPARE(admitted, 3);
    QCOMPARE(limited, 5);
    QCOMPARE(nodeCount(server), 3);
    QCOMPARE(commitCount(server), 3);
}

void tst_HttpQuota::tenantRecallQuota()
{
    HttpTestServer server(environment({{"TENANT_QUOTA_ENABLED", s("true")},
                                       {"TENANT_RECALL_RATE_LIMIT_RPS", s("0.001")},
                                       {"TENANT_RECALL_RATE_LIMIT_BURST", s("2")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);

    QCOMPARE(server.post(kEvaluate, obj({{"context", QJsonObject()}})).status, 200);
    QCOMPARE(server.post(kRecall, recallBody()).status, 200);
    const Reply refused = server.post(kEvaluate, obj({{"context", QJsonObject()}}));
    verifyRateLimited(refused, s("tenant_rate_limited_recall"));
    QCOMPARE(tenantOf(refused), s("default"));
    // Every recall-class route shares the tenant's recall bucket.
    verifyRateLimited(server.post(kRecall, recallBody()), s("tenant_rate_limited_recall"));
    verifyRateLimited(api.select(QJsonObject(), strs({"t1"}), obj({{"run_id", s("run-q")}})),
                      s("tenant_rate_limited_recall"));
    verifyRateLimited(api.decision(obj({{"run_id", s("run-q")}})), s("tenant_rate_limited_recall"));
    verifyRateLimited(api.run(obj({{"run_id", s("run-q")}})), s("tenant_rate_limited_recall"));

    // The refused select persisted no decision (checked behind the HTTP layer).
    ToolRunRequest runRequest;
    runRequest.runId = s("run-q");
    const auto run = server.service()->toolRun(runRequest, RequestMeta());
    QVERIFY(!run);
    QCOMPARE(run.error().status, 404);

    // Another tenant is admitted; writes use the write quota.
    const Reply other
        = server.post(kEvaluate, obj({{"context", QJsonObject()}}), {tenantHeader("other")});
    QCOMPARE(other.status, 200);
    QCOMPARE(other.json.value(s("tenant_id")).toString(), s("other"));
    QCOMPARE(api.select(QJsonObject(), strs({"t1"}), obj({{"tenant_id", s("other")}})).status, 200);
    QCOMPARE(server.write(noteBody(1)).status, 200);
}

void tst_HttpQuota::tenantDebugEmbeddingsQuota()
{
    HttpTestServer server(environment({{"TENANT_QUOTA_ENABLED", s("true")},
                                       {"TENANT_DEBUG_EMBED_RATE_LIMIT_RPS", s("0.001")},
                                       {"TENANT_DEBUG_EMBED_RATE_LIMIT_BURST", s("1")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QJsonObject node = writeNode(s("seed"), s("event"), s("a seed"));
    node.insert(s("embedding"), axis(0));
    node.insert(s("memory_lane"), s("shared"));
    QCOMPARE(server.write(writeBody({node})).status, 200);

    const QJsonObject debug = obj({{"return_debug", true}, {"include_embeddings", true}});
    const Reply first = server.post(kRecall, recallBody(debug));
    QCOMPARE(first.status, 200);
    QVERIFY2(first.json.value(s("debug")).toObject().contains(s("embeddings")), first.describe());

    const Reply refused = server.post(kRecall, recallBody(debug));
    verifyRateLimited(refused, s("tenant_rate_limited_debug_embeddings"));
    QCOMPARE(tenantOf(refused), s("default"));

    // Only requests asking for debug embeddings draw on that quota.
    QCOMPARE(server.post(kRecall, recallBody()).status, 200);
    const Reply debugOnly = server.post(kRecall, recallBody(obj({{"return_debug", true}})));
    QCOMPARE(debugOnly.status, 200);
    QVERIFY(!debugOnly.json.value(s("debug")).toObject().contains(s("embeddings")));
    const Reply embeddingsOnly
        = server.post(kRecall, recallBody(obj({{"include_embeddings", true}})));
    QVERIFY2(embeddingsOnly.status != 429, embeddingsOnly.describe());
    const Reply falseFlags = server.post(
        kRecall, recallBody(obj({{"return_debug", false}, {"include_embeddings", true}})));
    QVERIFY2(falseFlags.status != 429, falseFlags.describe());

    // Another tenant has its own debug bucket.
    const Reply other = server.post(kRecall, recallBody(debug), {tenantHeader("other")});
    QCOMPARE(other.status, 200);
    verifyRateLimited(server.post(kRecall, recallBody(debug), {tenantHeader("other")}),
                      s("tenant_rate_limited_debug_embeddings"));
}

void tst_HttpQuota::tenantQuotaRefills()
{
    HttpTestServer server(environment({{"TENANT_QUOTA_ENABLED", s("true")},
                                       {"TENANT_WRITE_RATE_LIMIT_RPS", s("4")},
                                       {"TENANT_WRITE_RATE_LIMIT_BURST", s("1")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Reply refused;
    int i = 0;
    for (; i < 20 && refused.status != 429; ++i) {
        const Reply r = server.write(noteBody(i));
        if (r.status == 429)
            refused = r;
        else
            QCOMPARE(r.status, 200);
    }
    verifyRateLimited(refused, s("tenant_rate_limited_write"));
    const double retryMs
        = refused.json.value(s("details")).toObject().value(s("retry_after_ms")).toDouble();
    QVERIFY2(retryMs <= 250, refused.describe().constData()); // one token at 4/s
    QCOMPARE(refused.header("retry-after"), QByteArray("1"));
    QThread::msleep(ulong(retryMs) + 60);
    QCOMPARE(server.write(noteBody(100)).status, 200);
}

void tst_HttpQuota::tenantQuotaDisabledByDefault()
{
    HttpTestServer server(environment({{"TENANT_WRITE_RATE_LIMIT_RPS", s("0.001")},
                                       {"TENANT_WRITE_RATE_LIMIT_BURST", s("1")},
                                       {"TENANT_RECALL_RATE_LIMIT_RPS", s("0.001")},
                                       {"TENANT_RECALL_RATE_LIMIT_BURST", s("1")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    for (int i = 0; i < 5; ++i) {
        QCOMPARE(server.write(noteBody(i)).status, 200);
        QCOMPARE(server.post(kEvaluate, obj({{"context", QJsonObject()}})).status, 200);
    }
}

void tst_HttpQuota::classWriteLimiter()
{
    HttpTestServer server(environment({{"RATE_LIMIT_BYPASS_LOOPBACK", s("false")},
                                       {"WRITE_RATE_LIMIT_RPS", s("0.001")},
                                       {"WRITE_RATE_LIMIT_BURST", s("2")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QCOMPARE(server.write(noteBody(1)).status, 200);
    QCOMPARE(server.write(noteBody(2)).status, 200);
    const Reply refused = server.write(noteBody(3));
    verifyRateLimited(refused, s("rate_limited_write"));
    QVERIFY(!refused.json.value(s("details")).toObject().contains(s("tenant_id")));
    QCOMPARE(nodeCount(server), 2);
    QCOMPARE(commitCount(server), 2);

    // The class limiter is per caller address: another tenant from the same address is refused.
    verifyRateLimited(server.write(noteBody(4), {tenantHeader("other")}), s("rate_limited_write"));
    QCOMPARE(nodeCount(server, s("other")), 0);
    verifyRateLimited(RuleApi(server).feedback(QJsonObject(), strs({"t1"}), s("t1"), s("positive")),
                      s("rate_limited_write"));
    QCOMPARE(commitCount(server), 2);
    // The recall class has its own bucket.
    QCOMPARE(server.post(kEvaluate, obj({{"context", QJsonObject()}})).status, 200);
    QCOMPARE(server.post(kRecall, recallBody()).status, 200);
}

void tst_HttpQuota::classRecallLimiter()
{
    HttpTestServer server(environment({{"RATE_LIMIT_BYPASS_LOOPBACK", s("false")},
                                       {"RECALL_RATE_LIMIT_RPS", s("0.001")},
                                       {"RECALL_RATE_LIMIT_BURST", s("2")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QCOMPARE(api.evaluate(QJsonObject()).status, 200);
    QCOMPARE(api.select(QJsonObject(), strs({"t1"}), obj({{"run_id", s("run-c")}})).status, 200);
    verifyRateLimited(api.run(obj({{"run_id", s("run-c")}})), s("rate_limited_recall"));
    verifyRateLimited(server.post(kRecall, recallBody()), s("rate_limited_recall"));
    const Reply selectRefused
        = api.select(QJsonObject(), strs({"t1"}), obj({{"run_id", s("run-c")}}));
    verifyRateLimited(selectRefused, s("rate_limited_recall"));
    // Only the first select persisted a decision.
    ToolRunRequest runRequest;
    runRequest.runId = s("run-c");
    const auto run = server.service()->toolRun(runRequest, RequestMeta());
    QVERIFY(run);
    QCOMPARE(run.value().decisionCount, 1);
    QCOMPARE(server.write(noteBody(1)).status, 200);
}

void tst_HttpQuota::classLimitersDisabled()
{
    HttpTestServer server(environment({{"RATE_LIMIT_ENABLED", s("false")},
                                       {"RATE_LIMIT_BYPASS_LOOPBACK", s("false")},
                                       {"WRITE_RATE_LIMIT_RPS", s("0.001")},
                                       {"WRITE_RATE_LIMIT_BURST", s("1")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    for (int i = 0; i < 5; ++i)
        QCOMPARE(server.write(noteBody(i)).status, 200);
}

void tst_HttpQuota::loopbackBypassedByDefault()
{
    {
        HttpTestServer server;
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        for (int i = 0; i < 50; ++i) {
            const Reply r = server.write(noteBody(i));
            QVERIFY2(r.status == 200, r.describe().constData());
        }
        QCOMPARE(nodeCount(server), 50);
        for (int i = 0; i < 30; ++i)
            QCOMPARE(server.post(kEvaluate, obj({{"context", QJsonObject()}})).status, 200);
    }
    {
        // Tiny class limits do not apply to loopback callers while the bypass is on.
        HttpTestServer server(environment(
            {{"WRITE_RATE_LIMIT_RPS", s("0.001")}, {"WRITE_RATE_LIMIT_BURST", s("1")}}));
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        for (int i = 0; i < 10; ++i)
            QCOMPARE(server.write(noteBody(i)).status, 200);
    }
}

// Product bug: the limiter charges the debug-embeddings buckets for any request whose body has
// return_debug=true and include_embeddings=true, whatever the route. A write (which has no debug
// embeddings) drains the tenant's debug quota, so the next real debug recall is refused
// (spec §4.3.3: debug-embedding requests count against that quota).
void tst_HttpQuota::debugQuotaOnlyForDebugEmbeddingRoutes()
{
    HttpTestServer server(environment({{"TENANT_QUOTA_ENABLED", s("true")},
                                       {"TENANT_DEBUG_EMBED_RATE_LIMIT_RPS", s("0.001")},
                                       {"TENANT_DEBUG_EMBED_RATE_LIMIT_BURST", s("1")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QJsonObject debug = obj({{"return_debug", true}, {"include_embeddings", true}});
    QCOMPARE(server.write(noteBody(1, debug)).status, 200);
    const Reply evaluated
        = server.post(kEvaluate, merged(obj({{"context", QJsonObject()}}), debug));
    QVERIFY2(evaluated.status == 200, evaluated.describe().constData());
    const Reply recall = server.post(kRecall, recallBody(debug));
    QVERIFY2(recall.status == 200, recall.describe().constData());
}

// Agent a (a key for tenant p) names tenant q: refused before any quota is touched, so q's own
// key still gets its whole burst.
void tst_HttpQuota::otherTenantsCallsSpendNothing()
{
    HttpTestServer server(twoTenantKeys({{"TENANT_RECALL_RATE_LIMIT_RPS", s("0.001")},
                                         {"TENANT_RECALL_RATE_LIMIT_BURST", s("3")},
                                         {"TENANT_WRITE_RATE_LIMIT_RPS", s("0.001")},
                                         {"TENANT_WRITE_RATE_LIMIT_BURST", s("2")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QJsonObject evaluate = obj({{"context", QJsonObject()}});
    for (int i = 0; i < 8; ++i) {
        const Reply byBody = server.post(kEvaluate, merged(evaluate, obj({{"tenant_id", s("q")}})),
                                         {apiKey("key-p")});
        QVERIFY2(byBody.status == 403, byBody.describe().constData());
        QCOMPARE(byBody.errorCode(), s("forbidden"));
        QCOMPARE(byBody.json.value(s("message")).toString(),
                 s("tenant_id does not match the tenant of the credential"));
        QCOMPARE(tenantOf(byBody), s("q"));
        const Reply byHeader
            = server.post(kRecall, recallBody(), {apiKey("key-p"), tenantHeader("q")});
        QVERIFY2(byHeader.status == 403, byHeader.describe().constData());
        const Reply write
            = server.write(noteBody(i, obj({{"tenant_id", s("q")}})), {apiKey("key-p")});
        QVERIFY2(write.status == 403, write.describe().constData());
    }
    QCOMPARE(nodeCount(server, s("q")), 0);

    // q's first burst is whole, then its quota applies as usual.
    for (int i = 0; i < 3; ++i) {
        const Reply r = server.post(kEvaluate, evaluate, {apiKey("key-q")});
        QVERIFY2(r.status == 200, r.describe().constData());
    }
    verifyRateLimited(server.post(kEvaluate, evaluate, {apiKey("key-q")}),
                      s("tenant_rate_limited_recall"));
    QCOMPARE(server.write(noteBody(1), {apiKey("key-q")}).status, 200);
    QCOMPARE(server.write(noteBody(2), {apiKey("key-q")}).status, 200);
    verifyRateLimited(server.write(noteBody(3), {apiKey("key-q")}), s("tenant_rate_limited_write"));
    // And p's own quota was not spent by its refused calls either.
    QCOMPARE(server.post(kEvaluate, evaluate, {apiKey("key-p")}).status, 200);
}

// A call the handler refuses as identity_mismatch gives its tenant tokens back.
void tst_HttpQuota::identityMismatchSpendsNothing()
{
    HttpTestServer server(twoTenantKeys(
        {{"TENANT_WRITE_RATE_LIMIT_RPS", s("0.001")}, {"TENANT_WRITE_RATE_LIMIT_BURST", s("2")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QJsonObject impersonating = writeNode(s("n"), s("event"), s("claims to be agent z"));
    impersonating.insert(s("producer_agent_id"), s("agent-z"));
    for (int i = 0; i < 6; ++i) {
        const Reply r = server.write(writeBody({impersonating}), {apiKey("key-p")});
        QVERIFY2(r.status == 403, r.describe().constData());
        QCOMPARE(r.errorCode(), s("identity_mismatch"));
    }
    QCOMPARE(server.write(noteBody(1), {apiKey("key-p")}).status, 200);
    QCOMPARE(server.write(noteBody(2), {apiKey("key-p")}).status, 200);
    verifyRateLimited(server.write(noteBody(3), {apiKey("key-p")}), s("tenant_rate_limited_write"));
    QCOMPARE(nodeCount(server, s("p")), 2);
}

// Tenant names are the caller's choice (auth off): the table never grows past its cap.
void tst_HttpQuota::tenantBucketsStayBounded()
{
    RateLimits limits;
    limits.tenantQuotaEnabled = true;
    limits.tenantRecall = {0.001, 5};
    ManualClock time;
    RateLimiter limiter(limits, 64, time.clock());
    for (int i = 0; i < 5000; ++i) {
        QVERIFY(!limiter.admit(chargeOf(RouteClass::Recall), s("127.0.0.1"), true,
                               s("tenant-%1").arg(i)));
        QVERIFY2(limiter.tenantBucketCount() <= 64,
                 qPrintable(QString::number(limiter.tenantBucketCount())));
    }
    QVERIFY(limiter.tenantBucketCount() > 0);
    // The active tenant keeps its state: the most recent bucket survives a clean-up.
    QVERIFY(!limiter.admit(chargeOf(RouteClass::Recall), s("127.0.0.1"), true, s("tenant-4999")));
    for (int i = 0; i < 3; ++i)
        QVERIFY(
            !limiter.admit(chargeOf(RouteClass::Recall), s("127.0.0.1"), true, s("tenant-4999")));
    QVERIFY(limiter.admit(chargeOf(RouteClass::Recall), s("127.0.0.1"), true, s("tenant-4999")));
}

void tst_HttpQuota::addressBucketsStayBounded()
{
    RateLimits limits;
    limits.bypassLoopback = false;
    limits.write = {0.001, 5};
    limits.textEmbed = {0.001, 5};
    ManualClock time;
    RateLimiter limiter(limits, 32, time.clock());
    RateCharge charge = chargeOf(RouteClass::Write);
    charge.textEmbedding = true;
    for (int i = 0; i < 2000; ++i) {
        QVERIFY(
            !limiter.admit(charge, s("10.0.%1.%2").arg(i / 256).arg(i % 256), false, QString()));
        QVERIFY2(limiter.addressBucketCount() <= 32,
                 qPrintable(QString::number(limiter.addressBucketCount())));
    }
    QCOMPARE(limiter.tenantBucketCount(), 0);
}

// A bucket that has refilled completely is the same as a fresh one, so a crowded table drops
// those before a throttled caller's state, however old that state is.
void tst_HttpQuota::refilledBucketsAreForgottenFirst()
{
    RateLimits limits;
    limits.tenantQuotaEnabled = true;
    limits.tenantRecall = {0.001, 1}; // the throttled tenant stays empty
    limits.tenantWrite = {1000, 1};   // one write bucket refills within a millisecond
    ManualClock time;
    RateLimiter limiter(limits, 8, time.clock());
    QVERIFY(!limiter.admit(chargeOf(RouteClass::Recall), s("127.0.0.1"), true, s("throttled")));
    QVERIFY(limiter.admit(chargeOf(RouteClass::Recall), s("127.0.0.1"), true, s("throttled")));
    for (int i = 0; i < 100; ++i) {
        *time.nowMs += 10;
        QVERIFY(!limiter.admit(chargeOf(RouteClass::Write), s("127.0.0.1"), true,
                               s("passer-%1").arg(i)));
    }
    QVERIFY(limiter.tenantBucketCount() <= 8);
    // The oldest bucket of all is the throttled one, and it is still throttled.
    const auto refused
        = limiter.admit(chargeOf(RouteClass::Recall), s("127.0.0.1"), true, s("throttled"));
    QVERIFY(refused);
    QCOMPARE(refused->code, s("tenant_rate_limited_recall"));
}

void tst_HttpQuota::refundRestoresOnlyWhatWasTaken()
{
    RateLimits limits;
    limits.tenantQuotaEnabled = true;
    limits.tenantWrite = {0.001, 2};
    ManualClock time;
    RateLimiter limiter(limits, 64, time.clock());
    const RateCharge write = chargeOf(RouteClass::Write);
    // Refunds never lift a bucket above its burst.
    limiter.refundTenant(write, s("t"));
    QVERIFY(!limiter.admit(write, s("127.0.0.1"), true, s("t")));
    limiter.refundTenant(write, s("t"));
    limiter.refundTenant(write, s("t"));
    QVERIFY(!limiter.admit(write, s("127.0.0.1"), true, s("t")));
    QVERIFY(!limiter.admit(write, s("127.0.0.1"), true, s("t")));
    QVERIFY(limiter.admit(write, s("127.0.0.1"), true, s("t")));
    // A refund gives exactly one token back.
    limiter.refundTenant(write, s("t"));
    QVERIFY(!limiter.admit(write, s("127.0.0.1"), true, s("t")));
    QVERIFY(limiter.admit(write, s("127.0.0.1"), true, s("t")));
}

QTEST_GUILESS_MAIN(tst_HttpQuota)
#include "tst_httpquota.moc"
