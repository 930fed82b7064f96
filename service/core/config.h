#pragma once

#include "service/core/result.h"

#include <QHash>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace MemoryGraph {

enum class AuthMode { Off, ApiKey, Jwt, ApiKeyOrJwt };

QString authModeName(AuthMode mode);

/// Identity bound to an API key in MEMORY_API_KEYS_JSON (spec §5.1).
struct KeyIdentity
{
    QString tenantId;
    QString agentId;
    QString teamId;
    QString role;
};

/// A token bucket's refill rate (per second) and capacity.
struct RateLimit
{
    double rps = 10;
    double burst = 20;
};

/// Class limiters (per caller address) and tenant quotas (spec §8).
struct RateLimits
{
    bool classLimitsEnabled = true;        ///< RATE_LIMIT_ENABLED
    bool bypassLoopback = true;            ///< RATE_LIMIT_BYPASS_LOOPBACK (never in production)
    RateLimit recall{10, 20};              ///< RECALL_RATE_LIMIT_RPS / _BURST
    RateLimit write{5, 10};                ///< WRITE_RATE_LIMIT_RPS / _BURST
    RateLimit debugEmbeddings{0.2, 2};     ///< DEBUG_EMBED_RATE_LIMIT_RPS / _BURST
    RateLimit textEmbed{4, 8};             ///< RECALL_TEXT_EMBED_RATE_LIMIT_RPS / _BURST
    bool tenantQuotaEnabled = false;       ///< TENANT_QUOTA_ENABLED
    RateLimit tenantRecall{30, 60};        ///< TENANT_RECALL_RATE_LIMIT_RPS / _BURST
    RateLimit tenantWrite{10, 20};         ///< TENANT_WRITE_RATE_LIMIT_RPS / _BURST
    RateLimit tenantDebugEmbeddings{1, 4}; ///< TENANT_DEBUG_EMBED_RATE_LIMIT_RPS / _BURST
    RateLimit tenantTextEmbed{8, 16};      ///< TENANT_RECALL_TEXT_EMBED_RATE_LIMIT_RPS / _BURST
};

/// What the HTTP listener lets one client hold (issue: trust boundaries, listener exhaustion).
struct ListenerLimits
{
    int idleTimeoutMs = 30000;  ///< MEMORY_HTTP_IDLE_TIMEOUT_MS: idle or stalled connection closes
    int maxConnections = 128;   ///< MEMORY_HTTP_MAX_CONNECTIONS: open connections at once
    int maxHeaderBytes = 32768; ///< MEMORY_HTTP_MAX_HEADER_BYTES: request line + headers
    int maxQueuedRequests = 64; ///< MEMORY_HTTP_MAX_QUEUED_REQUESTS: requests waiting for a worker
};

/// Every setting the service reads, with the defaults of the spec and the reference.
struct ServiceConfig
{
    QString dataDir;                                     ///< where memorygraph.sqlite lives
    QString defaultTenant = QStringLiteral("default");   ///< MEMORY_TENANT_ID
    QString defaultScope = QStringLiteral("default");    ///< MEMORY_SCOPE
    QString localAgentId = QStringLiteral("local-user"); ///< MEMORY_LOCAL_AGENT_ID (auth off)
    AuthMode authMode = AuthMode::Off;                   ///< MEMORY_AUTH_MODE
    QHash<QString, KeyIdentity> apiKeys;                 ///< MEMORY_API_KEYS_JSON
    QByteArray jwtSecret;                                ///< MEMORY_JWT_HS256_SECRET
    int jwtClockSkewSec = 30;                            ///< MEMORY_JWT_CLOCK_SKEW_SEC
    QString adminToken;                                  ///< ADMIN_TOKEN (empty = unset)
    bool writeRequireNodes = false;                      ///< MEMORY_WRITE_REQUIRE_NODES
    bool production = false;                             ///< APP_ENV=prod or NODE_ENV=production
    qint64 maxBodyBytes = 5 * 1024 * 1024;               ///< MEMORY_MAX_BODY_BYTES
    /// MEMORY_MAX_IMPORT_BODY_BYTES: the larger cap of POST /v1/admin/import (an export file)
    qint64 maxImportBodyBytes = qint64(256) * 1024 * 1024;
    int maxTextLength = 8000; ///< MAX_TEXT_LEN

    // Browser guards (DESIGN trust model): extra Host names and Origins the listener accepts.
    QStringList allowedHosts;   ///< MEMORY_ALLOWED_HOSTS (comma-separated)
    QStringList allowedOrigins; ///< MEMORY_ALLOWED_ORIGINS (comma-separated)
    ListenerLimits listener;

    // Embeddings (DESIGN decision 6).
    QString embeddingProvider
        = QStringLiteral("local"); ///< EMBEDDING_PROVIDER: none|fake|local|openai
    QString embeddingBaseUrl = QStringLiteral("https://api.openai.com"); ///< EMBEDDING_BASE_URL
    QString embeddingModel = QStringLiteral("text-embedding-3-small");   ///< EMBEDDING_MODEL
    QString embeddingApiKey;        ///< EMBEDDING_API_KEY (or OPENAI_API_KEY)
    int embeddingTimeoutMs = 15000; ///< EMBEDDING_TIMEOUT_MS

    // Recall (spec §4.3.1, §4.4).
    QString recallProfile = QStringLiteral("strict_edges"); ///< MEMORY_RECALL_PROFILE
    QJsonObject recallProfilePolicy;                        ///< MEMORY_RECALL_PROFILE_POLICY_JSON
    bool adaptiveDowngrade = false; ///< MEMORY_RECALL_ADAPTIVE_DOWNGRADE_ENABLED
    int adaptiveWaitMs = 200;       ///< MEMORY_RECALL_ADAPTIVE_WAIT_MS
    QString adaptiveTargetProfile
        = QStringLiteral("strict_edges"); ///< MEMORY_RECALL_ADAPTIVE_TARGET_PROFILE
    int recallTextTokenBudgetDefault = 0; ///< MEMORY_RECALL_TEXT_CONTEXT_TOKEN_BUDGET_DEFAULT
    /// MEMORY_RECALL_SEED_CHANNELS: where text recalls find seeds. hybrid (the default) fuses
    /// the vector, lexical, concept and time channels; vector, lexical or concept use one alone.
    QString recallSeedChannels = QStringLiteral("hybrid");

    RateLimits rateLimits;

    // Maintenance jobs (adaptive decay, reference §6.3). Bad values fall back to the defaults.
    bool adaptiveDecayEnabled = true;   ///< MEMORY_ADAPTIVE_DECAY_ENABLED (false: uniform decay)
    int adaptiveRecentDays = 7;         ///< MEMORY_ADAPTIVE_RECENT_DAYS
    double salienceDecayFactor = 0.995; ///< MEMORY_SALIENCE_DECAY_FACTOR (per run, 0..1)
    int scopeHotNodeBudget = 0;         ///< MEMORY_SCOPE_HOT_NODE_BUDGET (0 = off)
    int scopeActiveNodeBudget = 0;      ///< MEMORY_SCOPE_ACTIVE_NODE_BUDGET (0 = off)
    int decayIntervalHours = 24;        ///< MEMORY_DECAY_INTERVAL_HOURS (0 = no schedule)
    int mcpSessionIdleSec = 3600;       ///< MEMORY_MCP_SESSION_IDLE_SEC: an idle MCP session ends

    /// Reads the environment; an unparsable value is an error naming the variable.
    static Result<ServiceConfig> fromEnvironment(const QProcessEnvironment &env);
};

} // namespace MemoryGraph
