#pragma once

#include "service/api/callscopetypes.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/result.h"

#include <optional>

namespace MemoryGraph {

/// Tenant: body, else X-Tenant-Id, else MEMORY_TENANT_ID; it must match an authenticated
/// principal's tenant (403 forbidden). Scope: body, else MEMORY_SCOPE.
Result<CallScope> resolveCallScope(const QString &bodyTenant, const QString &bodyScope,
                                   const RequestMeta &meta, const ServiceConfig &config);

/// With a credential the actor is the credential's identity (credentialActor) and a given actor
/// is only a label, so a caller cannot sign commits as someone else. Without one (auth off: the
/// local operator) the given actor stands, else the local agent, else "system".
CommitActor commitActor(const QString &given, const RequestMeta &meta, const ServiceConfig &config);

/// A credential's identity as a commit actor: its agent, else "team:<team>", else (a
/// tenant-only credential, a service account) "tenant:<tenant>".
QString credentialActor(const Principal &principal);

/// A tenant-only credential: it carries neither an agent nor a team and may name both.
bool isServiceAccount(const Principal &principal);

/// A credential binds the identity it carries: a field naming an agent or team must equal the
/// credential's value, also when the credential carries none (an agent-only key cannot claim a
/// team). Only a service account may name any identity. Empty `given` is no claim.
std::optional<Error> checkClaim(const Principal &principal, const QString &field,
                                const QString &given, const QString &bound);

/// 403 identity_mismatch naming the field (spec §5.1.5); `expected` null when the credential
/// carries no value for it.
Error identityMismatch(const QString &field, const QString &provided, const QString &expected);

} // namespace MemoryGraph
