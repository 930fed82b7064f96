#pragma once

#include "service/core/config.h"
#include "service/core/result.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMutex>

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

/// Token buckets per caller address and class (rate_limited_*) and per tenant and class
/// (tenant_rate_limited_*, when TENANT_QUOTA_ENABLED). Refill rate x elapsed, capacity burst,
/// cost 1; a refusal carries retry_after_ms / retry_after_sec. Thread-safe.
class RateLimiter
{
public:
    explicit RateLimiter(const RateLimits &limits);

    /// Takes one token from every bucket the request uses, or none at all when one is empty.
    std::optional<Error> admit(const RateCharge &charge, const QString &callerAddress,
                               bool loopback, const QString &tenantId);

private:
    struct Bucket
    {
        double tokens = 0;
        qint64 lastMs = 0;
    };
    struct Take
    {
        QString key;
        RateLimit limit;
        QString code;
        bool tenant;
    };

    double refill(Bucket &bucket, const RateLimit &limit, qint64 nowMs);

    RateLimits m_limits;
    QMutex m_mutex;
    QHash<QString, Bucket> m_buckets;
    QElapsedTimer m_clock;
};

} // namespace MemoryGraph
