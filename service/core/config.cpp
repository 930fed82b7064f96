#include "service/core/config.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <tuple>

namespace MemoryGraph {

namespace {

Error badVariable(const QString &name, const QString &why)
{
    return Error::make(400, QStringLiteral("invalid_configuration"),
                       name + QStringLiteral(": ") + why, {{QStringLiteral("variable"), name}});
}

Result<bool> readBool(const QProcessEnvironment &env, const QString &name, bool fallback)
{
    const QString raw = env.value(name).trimmed().toLower();
    if (raw.isEmpty())
        return fallback;
    if (raw == QLatin1String("true") || raw == QLatin1String("1") || raw == QLatin1String("yes"))
        return true;
    if (raw == QLatin1String("false") || raw == QLatin1String("0") || raw == QLatin1String("no"))
        return false;
    return badVariable(name, QStringLiteral("expected true or false"));
}

Result<qint64> readInt(const QProcessEnvironment &env, const QString &name, qint64 fallback,
                       qint64 min, qint64 max)
{
    const QString raw = env.value(name).trimmed();
    if (raw.isEmpty())
        return fallback;
    bool ok = false;
    const qint64 v = raw.toLongLong(&ok);
    if (!ok || v < min || v > max)
        return badVariable(name, QStringLiteral("expected an integer in %1..%2").arg(min).arg(max));
    return v;
}

Result<double> readNumber(const QProcessEnvironment &env, const QString &name, double fallback,
                          double min, double max)
{
    const QString raw = env.value(name).trimmed();
    if (raw.isEmpty())
        return fallback;
    bool ok = false;
    const double v = raw.toDouble(&ok);
    if (!ok || v < min || v > max)
        return badVariable(name, QStringLiteral("expected a number in %1..%2").arg(min).arg(max));
    return v;
}

Result<void> readLimit(const QProcessEnvironment &env, const char *prefix, RateLimit *limit)
{
    const QString p = QString::fromLatin1(prefix);
    auto rps = readNumber(env, p + QStringLiteral("_RPS"), limit->rps, 0.001, 1e6);
    if (!rps)
        return rps.error();
    auto burst = readNumber(env, p + QStringLiteral("_BURST"), limit->burst, 1, 1e7);
    if (!burst)
        return burst.error();
    limit->rps = rps.value();
    limit->burst = burst.value();
    return {};
}

Result<QHash<QString, KeyIdentity>> readApiKeys(const QString &raw)
{
    QHash<QString, KeyIdentity> keys;
    if (raw.trimmed().isEmpty())
        return keys;
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(raw.toUtf8(), &err);
    const QString name = QStringLiteral("MEMORY_API_KEYS_JSON");
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return badVariable(name,
                           QStringLiteral("expected a JSON object of key -> {tenant_id,...}"));
    const QJsonObject obj = doc.object();
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        if (!it.value().isObject())
            return badVariable(name, QStringLiteral("entry for a key is not an object"));
        const QJsonObject e = it.value().toObject();
        KeyIdentity id;
        id.tenantId = e.value(QStringLiteral("tenant_id")).toString().trimmed();
        id.agentId = e.value(QStringLiteral("agent_id")).toString().trimmed();
        id.teamId = e.value(QStringLiteral("team_id")).toString().trimmed();
        id.role = e.value(QStringLiteral("role")).toString().trimmed();
        if (id.tenantId.isEmpty())
            return badVariable(name, QStringLiteral("every key needs a tenant_id"));
        keys.insert(it.key(), id);
    }
    return keys;
}

/// Maintenance settings are advisory: an unusable value keeps the default instead of failing
/// start-up.
bool lenientBool(const QProcessEnvironment &env, const char *name, bool fallback)
{
    auto v = readBool(env, QString::fromLatin1(name), fallback);
    return v ? v.value() : fallback;
}

qint64 lenientInt(const QProcessEnvironment &env, const char *name, qint64 fallback, qint64 min,
                  qint64 max)
{
    auto v = readInt(env, QString::fromLatin1(name), fallback, min, max);
    return v ? v.value() : fallback;
}

double lenientNumber(const QProcessEnvironment &env, const char *name, double fallback, double min,
                     double max)
{
    auto v = readNumber(env, QString::fromLatin1(name), fallback, min, max);
    return v ? v.value() : fallback;
}

/// A text setting, trimmed; unset or blank keeps the fallback.
QString textSetting(const QProcessEnvironment &env, const char *name, const QString &fallback)
{
    const QString v = env.value(QString::fromLatin1(name)).trimmed();
    return v.isEmpty() ? fallback : v;
}

/// A comma-separated list, trimmed and lower-cased, blanks dropped.
QStringList listSetting(const QProcessEnvironment &env, const char *name)
{
    QStringList items;
    for (const QString &item : env.value(QString::fromLatin1(name)).split(QLatin1Char(',')))
        if (!item.trimmed().isEmpty())
            items.append(item.trimmed().toLower());
    return items;
}

/// The tenant, scope and local agent a call defaults to, and the admin token.
void readDefaults(const QProcessEnvironment &env, ServiceConfig &c)
{
    c.defaultTenant = textSetting(env, "MEMORY_TENANT_ID", c.defaultTenant);
    c.defaultScope = textSetting(env, "MEMORY_SCOPE", c.defaultScope);
    c.localAgentId = textSetting(env, "MEMORY_LOCAL_AGENT_ID", c.localAgentId);
    c.adminToken = env.value(QStringLiteral("ADMIN_TOKEN"));
}

/// How callers prove who they are: auth mode, API keys, the JWT secret and clock skew.
Result<void> readAuth(const QProcessEnvironment &env, ServiceConfig &c)
{
    c.jwtSecret = env.value(QStringLiteral("MEMORY_JWT_HS256_SECRET")).toUtf8();
    const QString mode = textSetting(env, "MEMORY_AUTH_MODE", QStringLiteral("off")).toLower();
    if (mode == QLatin1String("off"))
        c.authMode = AuthMode::Off;
    else if (mode == QLatin1String("api_key"))
        c.authMode = AuthMode::ApiKey;
    else if (mode == QLatin1String("jwt"))
        c.authMode = AuthMode::Jwt;
    else if (mode == QLatin1String("api_key_or_jwt"))
        c.authMode = AuthMode::ApiKeyOrJwt;
    else
        return badVariable(QStringLiteral("MEMORY_AUTH_MODE"),
                           QStringLiteral("expected off, api_key, jwt or api_key_or_jwt"));

    auto keys = readApiKeys(env.value(QStringLiteral("MEMORY_API_KEYS_JSON")));
    if (!keys)
        return keys.error();
    c.apiKeys = keys.value();

    if ((c.authMode == AuthMode::Jwt || c.authMode == AuthMode::ApiKeyOrJwt)
        && c.jwtSecret.isEmpty())
        return badVariable(QStringLiteral("MEMORY_JWT_HS256_SECRET"),
                           QStringLiteral("required when MEMORY_AUTH_MODE uses jwt"));

    auto skew
        = readInt(env, QStringLiteral("MEMORY_JWT_CLOCK_SKEW_SEC"), c.jwtClockSkewSec, 0, 3600);
    if (!skew)
        return skew.error();
    c.jwtClockSkewSec = int(skew.value());
    return {};
}

/// Size bounds of a request: body bytes and text length.
Result<void> readRequestLimits(const QProcessEnvironment &env, ServiceConfig &c)
{
    auto body = readInt(env, QStringLiteral("MEMORY_MAX_BODY_BYTES"), c.maxBodyBytes, 1024,
                        qint64(1) << 30);
    if (!body)
        return body.error();
    c.maxBodyBytes = body.value();
    auto importBody = readInt(env, QStringLiteral("MEMORY_MAX_IMPORT_BODY_BYTES"),
                              c.maxImportBodyBytes, 1024, qint64(4) << 30);
    if (!importBody)
        return importBody.error();
    c.maxImportBodyBytes = importBody.value();

    auto textLen = readInt(env, QStringLiteral("MAX_TEXT_LEN"), c.maxTextLength, 100, 1000000);
    if (!textLen)
        return textLen.error();
    c.maxTextLength = int(textLen.value());
    return {};
}

/// The HTTP listener: browser guards (hosts, origins) and what one client may hold.
Result<void> readListener(const QProcessEnvironment &env, ServiceConfig &c)
{
    c.allowedHosts = listSetting(env, "MEMORY_ALLOWED_HOSTS");
    c.allowedOrigins = listSetting(env, "MEMORY_ALLOWED_ORIGINS");
    const std::tuple<const char *, int *, qint64, qint64> listenerSettings[]
        = {{"MEMORY_HTTP_IDLE_TIMEOUT_MS", &c.listener.idleTimeoutMs, 100, 3600000},
           {"MEMORY_HTTP_MAX_CONNECTIONS", &c.listener.maxConnections, 1, 100000},
           {"MEMORY_HTTP_MAX_HEADER_BYTES", &c.listener.maxHeaderBytes, 1024, 1048576},
           {"MEMORY_HTTP_MAX_QUEUED_REQUESTS", &c.listener.maxQueuedRequests, 1, 100000}};
    for (const auto &[name, field, min, max] : listenerSettings) {
        auto v = readInt(env, QString::fromLatin1(name), *field, min, max);
        if (!v)
            return v.error();
        *field = int(v.value());
    }
    return {};
}

/// Whether a write must carry nodes.
Result<void> readWritePolicy(const QProcessEnvironment &env, ServiceConfig &c)
{
    auto requireNodes = readBool(env, QStringLiteral("MEMORY_WRITE_REQUIRE_NODES"), false);
    if (!requireNodes)
        return requireNodes.error();
    c.writeRequireNodes = requireNodes.value();
    return {};
}

/// The embedding provider and how to reach it.
Result<void> readEmbedding(const QProcessEnvironment &env, ServiceConfig &c)
{
    c.embeddingProvider = textSetting(env, "EMBEDDING_PROVIDER", c.embeddingProvider).toLower();
    static const QStringList providers{QStringLiteral("none"), QStringLiteral("fake"),
                                       QStringLiteral("local"), QStringLiteral("openai")};
    if (!providers.contains(c.embeddingProvider))
        return badVariable(QStringLiteral("EMBEDDING_PROVIDER"),
                           QStringLiteral("expected none, fake, local or openai"));
    c.embeddingBaseUrl = textSetting(env, "EMBEDDING_BASE_URL", c.embeddingBaseUrl);
    c.embeddingModel = textSetting(env, "EMBEDDING_MODEL", c.embeddingModel);
    c.embeddingApiKey
        = textSetting(env, "EMBEDDING_API_KEY", env.value(QStringLiteral("OPENAI_API_KEY")));
    auto timeout
        = readInt(env, QStringLiteral("EMBEDDING_TIMEOUT_MS"), c.embeddingTimeoutMs, 100, 600000);
    if (!timeout)
        return timeout.error();
    c.embeddingTimeoutMs = int(timeout.value());
    return {};
}

/// The recall profiles, their policy override, adaptive downgrade and the text token budget.
Result<void> readRecall(const QProcessEnvironment &env, ServiceConfig &c)
{
    static const QStringList profiles{QStringLiteral("strict_edges"),
                                      QStringLiteral("quality_first"), QStringLiteral("legacy")};
    c.recallProfile = textSetting(env, "MEMORY_RECALL_PROFILE", c.recallProfile);
    if (!profiles.contains(c.recallProfile))
        return badVariable(QStringLiteral("MEMORY_RECALL_PROFILE"),
                           QStringLiteral("expected strict_edges, quality_first or legacy"));
    c.adaptiveTargetProfile
        = textSetting(env, "MEMORY_RECALL_ADAPTIVE_TARGET_PROFILE", c.adaptiveTargetProfile);
    if (!profiles.contains(c.adaptiveTargetProfile))
        return badVariable(QStringLiteral("MEMORY_RECALL_ADAPTIVE_TARGET_PROFILE"),
                           QStringLiteral("expected strict_edges, quality_first or legacy"));
    const QString policy = env.value(QStringLiteral("MEMORY_RECALL_PROFILE_POLICY_JSON")).trimmed();
    if (!policy.isEmpty()) {
        QJsonParseError err{};
        const QJsonDocument doc = QJsonDocument::fromJson(policy.toUtf8(), &err);
        if (err.error != QJsonParseError::NoError || !doc.isObject())
            return badVariable(QStringLiteral("MEMORY_RECALL_PROFILE_POLICY_JSON"),
                               QStringLiteral("expected a JSON object"));
        c.recallProfilePolicy = doc.object();
    }
    auto adaptive
        = readBool(env, QStringLiteral("MEMORY_RECALL_ADAPTIVE_DOWNGRADE_ENABLED"), false);
    if (!adaptive)
        return adaptive.error();
    c.adaptiveDowngrade = adaptive.value();
    auto waitMs = readInt(env, QStringLiteral("MEMORY_RECALL_ADAPTIVE_WAIT_MS"), c.adaptiveWaitMs,
                          0, 600000);
    if (!waitMs)
        return waitMs.error();
    c.adaptiveWaitMs = int(waitMs.value());
    auto budget = readInt(env, QStringLiteral("MEMORY_RECALL_TEXT_CONTEXT_TOKEN_BUDGET_DEFAULT"),
                          c.recallTextTokenBudgetDefault, 0, 10000000);
    if (!budget)
        return budget.error();
    c.recallTextTokenBudgetDefault = int(budget.value());
    static const QStringList channels{QStringLiteral("hybrid"), QStringLiteral("vector"),
                                      QStringLiteral("lexical"), QStringLiteral("concept")};
    c.recallSeedChannels = textSetting(env, "MEMORY_RECALL_SEED_CHANNELS", c.recallSeedChannels);
    if (!channels.contains(c.recallSeedChannels))
        return badVariable(QStringLiteral("MEMORY_RECALL_SEED_CHANNELS"),
                           QStringLiteral("expected hybrid, vector, lexical or concept"));
    return {};
}

/// APP_ENV or NODE_ENV naming production: it turns off the loopback rate-limit bypass.
bool isProduction(const QProcessEnvironment &env)
{
    const QString appEnv = env.value(QStringLiteral("APP_ENV")).trimmed().toLower();
    const QString nodeEnv = env.value(QStringLiteral("NODE_ENV")).trimmed().toLower();
    return appEnv == QLatin1String("prod") || appEnv == QLatin1String("production")
           || nodeEnv == QLatin1String("production");
}

/// Class limiters and tenant quotas; production never bypasses them for loopback.
Result<void> readRateLimits(const QProcessEnvironment &env, ServiceConfig &c)
{
    RateLimits &rl = c.rateLimits;
    auto classLimits = readBool(env, QStringLiteral("RATE_LIMIT_ENABLED"), true);
    if (!classLimits)
        return classLimits.error();
    rl.classLimitsEnabled = classLimits.value();
    // Loopback callers skip the class limiters outside production (spec §5.5).
    auto bypass = readBool(env, QStringLiteral("RATE_LIMIT_BYPASS_LOOPBACK"), !c.production);
    if (!bypass)
        return bypass.error();
    rl.bypassLoopback = bypass.value() && !c.production;
    auto quota = readBool(env, QStringLiteral("TENANT_QUOTA_ENABLED"), false);
    if (!quota)
        return quota.error();
    rl.tenantQuotaEnabled = quota.value();
    const std::pair<const char *, RateLimit *> limits[]
        = {{"RECALL_RATE_LIMIT", &rl.recall},
           {"WRITE_RATE_LIMIT", &rl.write},
           {"DEBUG_EMBED_RATE_LIMIT", &rl.debugEmbeddings},
           {"RECALL_TEXT_EMBED_RATE_LIMIT", &rl.textEmbed},
           {"TENANT_RECALL_RATE_LIMIT", &rl.tenantRecall},
           {"TENANT_WRITE_RATE_LIMIT", &rl.tenantWrite},
           {"TENANT_DEBUG_EMBED_RATE_LIMIT", &rl.tenantDebugEmbeddings},
           {"TENANT_RECALL_TEXT_EMBED_RATE_LIMIT", &rl.tenantTextEmbed}};
    for (const auto &[prefix, limit] : limits) {
        if (auto r = readLimit(env, prefix, limit); !r)
            return r.error();
    }
    return {};
}

/// Adaptive decay and scope budgets of the maintenance jobs (lenient: never fails start-up).
void readDecay(const QProcessEnvironment &env, ServiceConfig &c)
{
    c.adaptiveDecayEnabled
        = lenientBool(env, "MEMORY_ADAPTIVE_DECAY_ENABLED", c.adaptiveDecayEnabled);
    c.adaptiveRecentDays
        = int(lenientInt(env, "MEMORY_ADAPTIVE_RECENT_DAYS", c.adaptiveRecentDays, 0, 3650));
    c.salienceDecayFactor
        = lenientNumber(env, "MEMORY_SALIENCE_DECAY_FACTOR", c.salienceDecayFactor, 0, 1);
    c.scopeHotNodeBudget
        = int(lenientInt(env, "MEMORY_SCOPE_HOT_NODE_BUDGET", c.scopeHotNodeBudget, 0, 100000000));
    c.scopeActiveNodeBudget = int(
        lenientInt(env, "MEMORY_SCOPE_ACTIVE_NODE_BUDGET", c.scopeActiveNodeBudget, 0, 100000000));
    c.decayIntervalHours
        = int(lenientInt(env, "MEMORY_DECAY_INTERVAL_HOURS", c.decayIntervalHours, 0, 24 * 365));
    c.mcpSessionIdleSec
        = int(lenientInt(env, "MEMORY_MCP_SESSION_IDLE_SEC", c.mcpSessionIdleSec, 1, 7 * 86400));
}

} // namespace

QString authModeName(AuthMode mode)
{
    switch (mode) {
    case AuthMode::Off: return QStringLiteral("off");
    case AuthMode::ApiKey: return QStringLiteral("api_key");
    case AuthMode::Jwt: return QStringLiteral("jwt");
    case AuthMode::ApiKeyOrJwt: return QStringLiteral("api_key_or_jwt");
    }
    return QStringLiteral("off");
}

Result<ServiceConfig> ServiceConfig::fromEnvironment(const QProcessEnvironment &env)
{
    ServiceConfig c;
    readDefaults(env, c);
    c.production = isProduction(env);
    // Strict groups, in the order their errors are reported: the first bad variable wins.
    for (auto readGroup : {readAuth, readRequestLimits, readListener, readWritePolicy,
                           readEmbedding, readRecall, readRateLimits}) {
        if (auto r = readGroup(env, c); !r)
            return r.error();
    }
    readDecay(env, c);
    return c;
}

} // namespace MemoryGraph
