#include "service/http/ratelimiter.h"

#include <cmath>

namespace MemoryGraph {

namespace {
constexpr int kMaxBuckets = 100000;   // addresses come and go; never grow without bound
constexpr qint64 kIdleForgetMs = 60000;
}

RateLimiter::RateLimiter(const RateLimits &limits) : m_limits(limits)
{
    m_clock.start();
}

double RateLimiter::refill(Bucket &b, const RateLimit &limit, qint64 nowMs)
{
    if (b.lastMs == 0 && b.tokens == 0)
        b.tokens = limit.burst;   // a new bucket starts full
    else
        b.tokens = std::min(limit.burst, b.tokens + limit.rps * double(nowMs - b.lastMs) / 1000.0);
    b.lastMs = nowMs;
    return b.tokens;
}

std::optional<Error> RateLimiter::admit(const RateCharge &charge, const QString &callerAddress,
                                        bool loopback, const QString &tenantId)
{
    if (charge.routeClass == RouteClass::None)
        return std::nullopt;
    QVector<Take> takes;
    const bool recall = charge.routeClass == RouteClass::Recall;
    if (m_limits.classLimitsEnabled && !(loopback && m_limits.bypassLoopback)) {
        const QString ip = QStringLiteral(":ip:") + callerAddress;
        takes.append({(recall ? QStringLiteral("recall") : QStringLiteral("write")) + ip,
                      recall ? m_limits.recall : m_limits.write,
                      recall ? QStringLiteral("rate_limited_recall") : QStringLiteral("rate_limited_write"), false});
        if (charge.debugEmbeddings)
            takes.append({QStringLiteral("debug_embeddings") + ip, m_limits.debugEmbeddings,
                          QStringLiteral("rate_limited_debug_embeddings"), false});
        if (charge.textEmbedding)
            takes.append({QStringLiteral("recall_text_embed") + ip, m_limits.textEmbed,
                          QStringLiteral("rate_limited_recall_text_embed"), false});
    }
    if (m_limits.tenantQuotaEnabled) {
        const QString t = QStringLiteral("tenant:") + tenantId + QLatin1Char(':');
        takes.append({t + (recall ? QStringLiteral("recall") : QStringLiteral("write")),
                      recall ? m_limits.tenantRecall : m_limits.tenantWrite,
                      recall ? QStringLiteral("tenant_rate_limited_recall") : QStringLiteral("tenant_rate_limited_write"), true});
        if (charge.debugEmbeddings)
            takes.append({t + QStringLiteral("debug_embeddings"), m_limits.tenantDebugEmbeddings,
                          QStringLiteral("tenant_rate_limited_debug_embeddings"), true});
        if (charge.textEmbedding)
            takes.append({t + QStringLiteral("recall_text_embed"), m_limits.tenantTextEmbed,
                          QStringLiteral("tenant_rate_limited_recall_text_embed"), true});
    }
    if (takes.isEmpty())
        return std::nullopt;

    QMutexLocker lock(&m_mutex);
    const qint64 now = m_clock.elapsed() + 1;
    if (m_buckets.size() > kMaxBuckets) {
        // Forget idle buckets only: an active, throttled caller keeps its state.
        for (auto it = m_buckets.begin(); it != m_buckets.end();) {
            if (now - it->lastMs > kIdleForgetMs)
                it = m_buckets.erase(it);
            else
                ++it;
        }
    }
    for (const Take &t : takes) {
        Bucket &b = m_buckets[t.key];
        if (refill(b, t.limit, now) < 1.0) {
            const qint64 retryMs = qint64(std::ceil((1.0 - b.tokens) / t.limit.rps * 1000.0));
            QJsonObject details{{QStringLiteral("retry_after_ms"), retryMs},
                                {QStringLiteral("retry_after_sec"), qMax<qint64>(1, (retryMs + 999) / 1000)}};
            if (t.tenant)
                details.insert(QStringLiteral("tenant_id"), tenantId);
            return Error::make(429, t.code, QStringLiteral("rate limit exceeded; retry later"), details);
        }
    }
    for (const Take &t : takes)
        m_buckets[t.key].tokens -= 1.0;
    return std::nullopt;
}

} // namespace MemoryGraph
