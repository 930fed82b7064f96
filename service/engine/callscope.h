#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/result.h"

namespace MemoryGraph {

/// The (tenant, scope) a call is isolated to.
struct CallScope
{
    QString tenantId;
    QString scope;
    QString key;  ///< tenant-aware scope key used in hashes and derived ids (spec §5.4)
};

/// Tenant: body, else X-Tenant-Id, else MEMORY_TENANT_ID; it must match an authenticated
/// principal's tenant (403 forbidden). Scope: body, else MEMORY_SCOPE.
Result<CallScope> resolveCallScope(const QString &bodyTenant, const QString &bodyScope,
                                   const RequestMeta &meta, const ServiceConfig &config);

/// The actor a commit is attributed to: the one given, else the credential's agent, else the
/// local agent when auth is off, else "system".
QString defaultActor(const QString &given, const RequestMeta &meta, const ServiceConfig &config);

/// 403 identity_mismatch naming the field (spec §5.1.5).
Error identityMismatch(const QString &field, const QString &provided, const QString &expected);

} // namespace MemoryGraph
