#include "service/access/callscope.h"

#include "service/core/ids.h"

#include <QRegularExpression>

namespace MemoryGraph {

Result<CallScope> resolveCallScope(const QString &bodyTenant, const QString &bodyScope,
                                   const RequestMeta &meta, const ServiceConfig &config)
{
    static const QRegularExpression tenantPattern(
        QStringLiteral("^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$"));
    CallScope s;
    const QString headerTenant = meta.headerTenant.trimmed();
    s.tenantId = !bodyTenant.isEmpty()     ? bodyTenant
                 : !headerTenant.isEmpty() ? headerTenant
                 : meta.principal          ? meta.principal->tenantId
                                           : config.defaultTenant;
    if (!tenantPattern.match(s.tenantId).hasMatch()) {
        const QString field
            = bodyTenant.isEmpty() ? QStringLiteral("X-Tenant-Id") : QStringLiteral("tenant_id");
        return Error::invalidField(field,
                                   QStringLiteral("must match ^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$"));
    }
    if (meta.principal && meta.principal->tenantId != s.tenantId)
        return Error::make(403, QStringLiteral("forbidden"),
                           QStringLiteral("tenant_id does not match the tenant of the credential"),
                           {{QStringLiteral("tenant_id"), s.tenantId}});
    s.scope = bodyScope.isEmpty() ? config.defaultScope : bodyScope;
    if (s.scope.startsWith(QLatin1String("tenant:")))
        return Error::invalidField(QStringLiteral("scope"),
                                   QStringLiteral("must not start with 'tenant:'"));
    s.key = scopeKey(s.tenantId, s.scope, config.defaultTenant);
    return s;
}

CommitActor commitActor(const QString &given, const RequestMeta &meta, const ServiceConfig &config)
{
    if (meta.principal) {
        const QString id = credentialActor(*meta.principal);
        return {id, given == id ? QString() : given};
    }
    return {!given.isEmpty()                   ? given
            : config.authMode == AuthMode::Off ? config.localAgentId
                                               : QStringLiteral("system"),
            QString()};
}

QString credentialActor(const Principal &principal)
{
    if (!principal.agentId.isEmpty())
        return principal.agentId;
    if (!principal.teamId.isEmpty())
        return QStringLiteral("team:") + principal.teamId;
    return QStringLiteral("tenant:") + principal.tenantId;
}

bool isServiceAccount(const Principal &principal)
{
    return principal.agentId.isEmpty() && principal.teamId.isEmpty();
}

std::optional<Error> checkClaim(const Principal &principal, const QString &field,
                                const QString &given, const QString &bound)
{
    if (given.isEmpty() || given == bound || isServiceAccount(principal))
        return std::nullopt;
    return identityMismatch(field, given, bound);
}

Error identityMismatch(const QString &field, const QString &provided, const QString &expected)
{
    return Error::make(
        403, QStringLiteral("identity_mismatch"),
        field + QStringLiteral(" differs from the identity of the credential"),
        {{QStringLiteral("field"), field},
         {QStringLiteral("provided"), provided},
         {QStringLiteral("expected"), expected.isEmpty() ? QJsonValue() : QJsonValue(expected)}});
}

} // namespace MemoryGraph
