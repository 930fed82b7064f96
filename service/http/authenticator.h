#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/result.h"

#include <QByteArray>
#include <QList>

#include <optional>

namespace MemoryGraph {

/// Turns the credentials of one request into a Principal according to MEMORY_AUTH_MODE
/// (spec §5). Immutable after construction, so one instance can serve all handler threads.
class Authenticator
{
public:
    explicit Authenticator(const ServiceConfig &config);

    AuthMode mode() const { return m_mode; }

    /// apiKeyHeader is the X-Api-Key value and authorizationHeader the Authorization value;
    /// either may be empty. Returns std::nullopt when auth is off, the caller's Principal on
    /// success, and a 401 `unauthorized` Error otherwise (details.reason says why).
    Result<std::optional<Principal>> authenticate(const QByteArray &apiKeyHeader,
                                                  const QByteArray &authorizationHeader,
                                                  qint64 nowSecs) const;

    /// True when `token` equals ADMIN_TOKEN (constant time). False when ADMIN_TOKEN is unset.
    bool adminTokenMatches(const QByteArray &token) const;

private:
    struct KeyEntry
    {
        QByteArray digest; ///< SHA-256 of the key; the plain key is not kept
        KeyIdentity identity;
    };

    std::optional<Principal> lookupApiKey(const QByteArray &presented) const;
    Result<Principal> verifyBearer(const QByteArray &token, qint64 nowSecs) const;

    AuthMode m_mode;
    QList<KeyEntry> m_keys;
    QByteArray m_jwtSecret;
    int m_clockSkewSec;
    bool m_requireExp;
    QByteArray m_adminDigest; ///< empty when ADMIN_TOKEN is unset
};

} // namespace MemoryGraph
