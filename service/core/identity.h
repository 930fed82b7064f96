#pragma once

#include <QString>

#include <optional>

namespace MemoryGraph {

/// Who is calling, as established by the transport's authentication (spec §5).
struct Principal
{
    QString tenantId;
    QString agentId;
    QString teamId;
    QString role;
    QString method; ///< "api_key" or "jwt"
};

/// Facts about one call that the core needs besides the body.
struct RequestMeta
{
    QString requestId;
    QString headerTenant;               ///< X-Tenant-Id, used when the body names no tenant
    std::optional<Principal> principal; ///< set when auth is on and the caller authenticated
    bool loopback = true;               ///< caller on 127.0.0.1 / ::1
    bool adminAuthorized = false;       ///< X-Admin-Token matched ADMIN_TOKEN
    double queueWaitMs = 0.0;           ///< time the request waited for a worker (adaptive recall)
};

} // namespace MemoryGraph
