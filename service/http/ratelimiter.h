#pragma once

#include "service/core/config.h"
#include "service/core/result.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>
#include <QStringList>
#include <QVector>

#include <functional>
#include <optional>

namespace MemoryGraph {

/// Which limiter class a route belongs to (spec §8).
enum class RouteClass { None, Recall, Write };

/// What one request costs: its class, and whether it asks for debug embeddings or for a text
/// embedding (recall_text).
struct RateCharge
{
    RouteClass routeClass = RouteClass::None;
    bool debugEmbeddings = false;
    bool textEmbedding = false;
};

/// One token bucket: refill rate x elapsed time, capacity burst.
struct TokenBucket
{
    double tokens = 0;
    qint64 lastMs = 0;
    RateLimit limit;

    /// Tokens at nowMs, without changing the bucket.
    double tokensAt(qint64 nowMs) const;
};

/// Token buckets keyed by caller-chosen strings (addresses, tenant ids), never more than
/// maxBuckets of them. A bucket that has refilled completely is the same as a fresh one, so those
/// go first; only if that is not enough do the least recently used ones go.
class BucketTable
{
public:
    explicit BucketTable(int maxBuckets);

    /// Drops buckets until the keys not yet present fit; call before refilled() so that no
    /// bucket a request is about to use disappears under it.
    void makeRoomFor(const QStringList &keys, qint64 nowMs);
    /// The bucket for key, refilled to nowMs (a new bucket starts full). Never drops a bucket.
    TokenBucket &refilled(const QString &key, const RateLimit &limit, qint64 nowMs);
    /// The bucket for key if there is one.
    TokenBucket *find(const QString &key);
    int size() const { return int(m_buckets.size()); }

private:
    int m_maxBuckets;
    QHash<QString, TokenBucket> m_buckets;
};

/// Token buckets per caller address and class (rate_limited_*) and per tenant and class
/// (tenant_rate_limited_*, when TENANT_QUOTA_ENABLED). Refill rate x elapsed, capacity burst,
/// cost 1; a refusal carries retry_after_ms / retry_after_sec. Thread-safe.
class RateLimiter
{
public:
    /// Monotonic milliseconds.
    using Clock = std::function<qint64()>;
    static constexpr int kDefaultMaxBuckets = 50000;

    /// maxBuckets bounds each table (addresses, tenants); clock defaults to a steady timer.
    explicit RateLimiter(const RateLimits &limits, int maxBuckets = kDefaultMaxBuckets,
                         Clock clock = {});

    /// Takes one token from every bucket the request uses, or none at all when one is empty.
    /// tenantId: the tenant the call is authorised for; empty charges no tenant quota.
    std::optional<Error> admit(const RateCharge &charge, const QString &callerAddress,
                               bool loopback, const QString &tenantId);

    /// Gives back the tenant tokens admit() took for a request that was then refused (401/403):
    /// a refused request spends nothing of the tenant's quota.
    void refundTenant(const RateCharge &charge, const QString &tenantId);

    int addressBucketCount() const;
    int tenantBucketCount() const;

private:
    struct Take
    {
        QString key;
        RateLimit limit;
        QString code;
        bool tenant;
    };

    QVector<Take> addressTakes(const RateCharge &charge, const QString &callerAddress,
                               bool loopback) const;
    QVector<Take> tenantTakes(const RateCharge &charge, const QString &tenantId) const;
    qint64 now() const;

    RateLimits m_limits;
    mutable QMutex m_mutex;
    BucketTable m_addressBuckets;
    BucketTable m_tenantBuckets;
    QElapsedTimer m_elapsed;
    Clock m_clock;
};

} // namespace MemoryGraph
