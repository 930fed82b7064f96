#include "service/http/ratelimiter.h"

#include <QMutexLocker>

#include <algorithm>
#include <cmath>
#include <utility>

namespace MemoryGraph {

namespace {
constexpr int kMinBuckets = 8; // room for every bucket one request can use, with headroom
}

double TokenBucket::tokensAt(qint64 nowMs) const
{
    return std::min(limit.burst, tokens + limit.rps * double(nowMs - lastMs) / 1000.0);
}

BucketTable::BucketTable(int maxBuckets) : m_maxBuckets(std::max(kMinBuckets, maxBuckets)) { }

TokenBucket &BucketTable::refilled(const QString &key, const RateLimit &limit, qint64 nowMs)
{
    auto it = m_buckets.find(key);
    if (it == m_buckets.end())
        it = m_buckets.insert(key, TokenBucket{limit.burst, nowMs, limit});
    it->tokens = it->tokensAt(nowMs);
    it->lastMs = nowMs;
    it->limit = limit;
    return *it;
}

TokenBucket *BucketTable::find(const QString &key)
{
    auto it = m_buckets.find(key);
    return it == m_buckets.end() ? nullptr : &*it;
}

void BucketTable::makeRoomFor(const QStringList &keys, qint64 nowMs)
{
    const int missing = int(std::count_if(
        keys.begin(), keys.end(), [this](const QString &k) { return !m_buckets.contains(k); }));
    if (size() + missing <= m_maxBuckets)
        return;
    // Refilled buckets carry no state: dropping them changes nothing for their callers.
    for (auto it = m_buckets.begin(); it != m_buckets.end();) {
        if (it->tokensAt(nowMs) >= it->limit.burst)
            it = m_buckets.erase(it);
        else
            ++it;
    }
    // Still crowded: forget the least recently used down to a low-water mark, so this sort
    // runs at most once per quarter of the table's capacity of new keys.
    const int target = std::max(0, m_maxBuckets * 3 / 4 - missing);
    if (size() <= target)
        return;
    QVector<std::pair<qint64, QString>> byAge;
    byAge.reserve(size());
    for (auto it = m_buckets.cbegin(); it != m_buckets.cend(); ++it)
        byAge.append({it->lastMs, it.key()});
    const auto cut = byAge.begin() + (size() - target);
    std::nth_element(byAge.begin(), cut, byAge.end());
    for (auto it = byAge.begin(); it != cut; ++it)
        m_buckets.remove(it->second);
}

RateLimiter::RateLimiter(const RateLimits &limits, int maxBuckets, Clock clock)
    : m_limits(limits), m_addressBuckets(maxBuckets), m_tenantBuckets(maxBuckets),
      m_clock(std::move(clock))
{
    m_elapsed.start();
}

qint64 RateLimiter::now() const
{
    return m_clock ? m_clock() : m_elapsed.elapsed();
}

int RateLimiter::addressBucketCount() const
{
    QMutexLocker lock(&m_mutex);
    return m_addressBuckets.size();
}

int RateLimiter::tenantBucketCount() const
{
    QMutexLocker lock(&m_mutex);
    return m_tenantBuckets.size();
}

QVector<RateLimiter::Take> RateLimiter::addressTakes(const RateCharge &charge,
                                                     const QString &callerAddress,
                                                     bool loopback) const
{
    QVector<Take> takes;
    if (!m_limits.classLimitsEnabled || (loopback && m_limits.bypassLoopback))
        return takes;
    const bool recall = charge.routeClass == RouteClass::Recall;
    const QString ip = QStringLiteral(":ip:") + callerAddress;
    takes.append(
        {(recall ? QStringLiteral("recall") : QStringLiteral("write")) + ip,
         recall ? m_limits.recall : m_limits.write,
         recall ? QStringLiteral("rate_limited_recall") : QStringLiteral("rate_limited_write"),
         false});
    if (charge.debugEmbeddings)
        takes.append({QStringLiteral("debug_embeddings") + ip, m_limits.debugEmbeddings,
                      QStringLiteral("rate_limited_debug_embeddings"), false});
    if (charge.textEmbedding)
        takes.append({QStringLiteral("recall_text_embed") + ip, m_limits.textEmbed,
                      QStringLiteral("rate_limited_recall_text_embed"), false});
    return takes;
}

QVector<RateLimiter::Take> RateLimiter::tenantTakes(const RateCharge &charge,
                                                    const QString &tenantId) const
{
    QVector<Take> takes;
    if (!m_limits.tenantQuotaEnabled || tenantId.isEmpty() || charge.routeClass == RouteClass::None)
        return takes;
    const bool recall = charge.routeClass == RouteClass::Recall;
    const QString t = QStringLiteral("tenant:") + tenantId + QLatin1Char(':');
    takes.append({t + (recall ? QStringLiteral("recall") : QStringLiteral("write")),
                  recall ? m_limits.tenantRecall : m_limits.tenantWrite,
                  recall ? QStringLiteral("tenant_rate_limited_recall")
                         : QStringLiteral("tenant_rate_limited_write"),
                  true});
    if (charge.debugEmbeddings)
        takes.append({t + QStringLiteral("debug_embeddings"), m_limits.tenantDebugEmbeddings,
                      QStringLiteral("tenant_rate_limited_debug_embeddings"), true});
    if (charge.textEmbedding)
        takes.append({t + QStringLiteral("recall_text_embed"), m_limits.tenantTextEmbed,
                      QStringLiteral("tenant_rate_limited_recall_text_embed"), true});
    return takes;
}

std::optional<Error> RateLimiter::admit(const RateCharge &charge, const QString &callerAddress,
                                        bool loopback, const QString &tenantId)
{
    if (charge.routeClass == RouteClass::None)
        return std::nullopt;
    const QVector<Take> takes
        = addressTakes(charge, callerAddress, loopback) + tenantTakes(charge, tenantId);
    if (takes.isEmpty())
        return std::nullopt;

    QMutexLocker lock(&m_mutex);
    const qint64 nowMs = now();
    auto tableOf = [this](const Take &t) -> BucketTable & {
        return t.tenant ? m_tenantBuckets : m_addressBuckets;
    };
    // Room first: no bucket this request uses may be dropped between its check and its debit.
    QStringList addressKeys, tenantKeys;
    for (const Take &t : takes)
        (t.tenant ? tenantKeys : addressKeys).append(t.key);
    m_addressBuckets.makeRoomFor(addressKeys, nowMs);
    m_tenantBuckets.makeRoomFor(tenantKeys, nowMs);

    for (const Take &t : takes) {
        const TokenBucket &b = tableOf(t).refilled(t.key, t.limit, nowMs);
        if (b.tokens < 1.0) {
            const qint64 retryMs = qint64(std::ceil((1.0 - b.tokens) / t.limit.rps * 1000.0));
            QJsonObject details{
                {QStringLiteral("retry_after_ms"), retryMs},
                {QStringLiteral("retry_after_sec"), qMax<qint64>(1, (retryMs + 999) / 1000)}};
            if (t.tenant)
                details.insert(QStringLiteral("tenant_id"), tenantId);
            return Error::make(429, t.code, QStringLiteral("rate limit exceeded; retry later"),
                               details);
        }
    }
    for (const Take &t : takes)
        tableOf(t).find(t.key)->tokens -= 1.0;
    return std::nullopt;
}

void RateLimiter::refundTenant(const RateCharge &charge, const QString &tenantId)
{
    const QVector<Take> takes = tenantTakes(charge, tenantId);
    QMutexLocker lock(&m_mutex);
    for (const Take &t : takes) {
        if (TokenBucket *b = m_tenantBuckets.find(t.key))
            b->tokens = std::min(b->limit.burst, b->tokens + 1.0);
    }
}

} // namespace MemoryGraph
