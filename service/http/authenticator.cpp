#include "service/http/authenticator.h"

#include "service/http/jwt.h"

#include <QCryptographicHash>
#include <QJsonObject>
#include <QJsonValue>

namespace MemoryGraph {

namespace {

const QString kMethodApiKey = QStringLiteral("api_key");
const QString kMethodJwt = QStringLiteral("jwt");

QByteArray digestOf(const QByteArray &secret)
{
    return QCryptographicHash::hash(secret, QCryptographicHash::Sha256);
}

Error unauthorized(const QString &reason, const QString &message)
{
    return Error::make(401, QStringLiteral("unauthorized"), message,
                       {{QStringLiteral("reason"), reason}});
}

QString reasonOf(const Error &error)
{
    return error.details.value(QStringLiteral("reason")).toString();
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t';
}

// "Bearer <token>" with a case-insensitive scheme; anything else (other schemes, no token)
// counts as no bearer credential at all.
QByteArray bearerToken(const QByteArray &authorizationHeader)
{
    const QByteArray value = authorizationHeader.trimmed();
    qsizetype split = 0;
    while (split < value.size() && !isSpace(value.at(split)))
        ++split;
    if (value.left(split).compare("bearer", Qt::CaseInsensitive) != 0)
        return {};
    return value.mid(split).trimmed();
}

// An absent or null claim reads as empty; a claim of the wrong type is rejected rather than
// silently ignored so a confused issuer is noticed.
Result<QString> stringClaim(const QJsonObject &claims, const QString &name)
{
    const QJsonValue v = claims.value(name);
    if (v.isUndefined() || v.isNull())
        return QString();
    if (!v.isString())
        return unauthorized(QStringLiteral("invalid_claims"),
                            QStringLiteral("JWT claim %1 must be a string").arg(name));
    return v.toString().trimmed();
}

} // namespace

Authenticator::Authenticator(const ServiceConfig &config)
    : m_mode(config.authMode), m_jwtSecret(config.jwtSecret),
      m_clockSkewSec(config.jwtClockSkewSec), m_requireExp(config.production),
      m_adminDigest(config.adminToken.isEmpty() ? QByteArray()
                                                : digestOf(config.adminToken.toUtf8()))
{
    m_keys.reserve(config.apiKeys.size());
    for (auto it = config.apiKeys.cbegin(); it != config.apiKeys.cend(); ++it)
        m_keys.append({digestOf(it.key().toUtf8()), it.value()});
}

std::optional<Principal> Authenticator::lookupApiKey(const QByteArray &presented) const
{
    if (presented.isEmpty())
        return std::nullopt;
    // Compare fixed-size digests against every entry without stopping early, so neither the
    // key bytes nor the position of a match show up in the timing.
    const QByteArray digest = digestOf(presented);
    const KeyEntry *match = nullptr;
    for (const KeyEntry &entry : m_keys) {
        if (constantTimeEquals(entry.digest, digest))
            match = &entry;
    }
    if (!match)
        return std::nullopt;
    const KeyIdentity &id = match->identity;
    return Principal{id.tenantId, id.agentId, id.teamId, id.role, kMethodApiKey};
}

Result<Principal> Authenticator::verifyBearer(const QByteArray &token, qint64 nowSecs) const
{
    auto claims = verifyHs256Jwt(token, m_jwtSecret, nowSecs, m_clockSkewSec, m_requireExp);
    if (!claims)
        return claims.error();
    const QJsonObject &c = claims.value();

    Principal p;
    p.method = kMethodJwt;
    for (const char *name : {"tenant_id", "tenant"}) {
        auto v = stringClaim(c, QString::fromLatin1(name));
        if (!v)
            return v.error();
        if (p.tenantId.isEmpty())
            p.tenantId = v.value();
    }
    if (p.tenantId.isEmpty())
        return unauthorized(QStringLiteral("invalid_claims"),
                            QStringLiteral("JWT must carry a tenant_id (or tenant) claim"));
    for (const char *name : {"agent_id", "sub"}) {
        auto v = stringClaim(c, QString::fromLatin1(name));
        if (!v)
            return v.error();
        if (p.agentId.isEmpty())
            p.agentId = v.value();
    }
    auto team = stringClaim(c, QStringLiteral("team_id"));
    if (!team)
        return team.error();
    p.teamId = team.value();
    auto role = stringClaim(c, QStringLiteral("role"));
    if (!role)
        return role.error();
    p.role = role.value();
    return p;
}

Result<std::optional<Principal>> Authenticator::authenticate(const QByteArray &apiKeyHeader,
                                                             const QByteArray &authorizationHeader,
                                                             qint64 nowSecs) const
{
    const QByteArray key = apiKeyHeader.trimmed();

    switch (m_mode) {
    case AuthMode::Off: return std::optional<Principal>();

    case AuthMode::ApiKey: {
        if (auto p = lookupApiKey(key))
            return std::optional<Principal>(std::move(*p));
        return unauthorized(key.isEmpty() ? QStringLiteral("missing_api_key")
                                          : QStringLiteral("invalid_api_key"),
                            QStringLiteral("valid X-Api-Key is required"));
    }

    case AuthMode::Jwt: {
        const QByteArray token = bearerToken(authorizationHeader);
        if (token.isEmpty())
            return unauthorized(QStringLiteral("missing_bearer"),
                                QStringLiteral("Authorization: Bearer <jwt> is required"));
        auto p = verifyBearer(token, nowSecs);
        if (!p)
            return p.error();
        return std::optional<Principal>(std::move(p).value());
    }

    case AuthMode::ApiKeyOrJwt: {
        // A known key wins; an unknown or missing key falls through to the bearer token.
        if (auto p = lookupApiKey(key))
            return std::optional<Principal>(std::move(*p));
        const QString message
            = QStringLiteral("valid X-Api-Key or Authorization: Bearer <jwt> is required");
        const QByteArray token = bearerToken(authorizationHeader);
        if (token.isEmpty())
            return unauthorized(key.isEmpty() ? QStringLiteral("missing_credentials")
                                              : QStringLiteral("invalid_api_key"),
                                message);
        auto p = verifyBearer(token, nowSecs);
        if (!p)
            return unauthorized(reasonOf(p.error()),
                                message + QStringLiteral(" (bearer token rejected: ")
                                    + p.error().message + QLatin1Char(')'));
        return std::optional<Principal>(std::move(p).value());
    }
    }
    return unauthorized(QStringLiteral("misconfigured"), QStringLiteral("unknown auth mode"));
}

bool Authenticator::adminTokenMatches(const QByteArray &token) const
{
    if (m_adminDigest.isEmpty() || token.isEmpty())
        return false;
    return constantTimeEquals(m_adminDigest, digestOf(token));
}

} // namespace MemoryGraph
