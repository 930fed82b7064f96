#include "service/engine/callscope.h"

#include "service/core/ids.h"

#include <QRegularExpression>

namespace MemoryGraph {

Result<CallScope> resolveCallScope(const QString &bodyTenant, const QString &bodyScope,
                                   const RequestMeta &meta, const ServiceConfig &config)
{
    static const QRegularExpression tenantPattern(QStringLiteral("^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$"));
    CallScope s;
    const QString headerTenant = meta.headerTenant.trimmed();
    s.tenantId = !bodyTenant.isEmpty() ? bodyTenant
                 : !headerTenant.isEmpty() ? headerTenant
                 : meta.principal ? meta.principal->tenantId
                                  : config.defaultTenant;
    if (!tenantPattern.match(s.tenantId).hasMatch()) {
        const QString field = bodyTenant.isEmpty() ? QStringLiteral("X-Tenant-Id")
                                                   : QStringLiteral("tenant_id");
        return Error::invalidField(field, QStringLiteral("must match ^[a-zA-Z0-9][a-zA-Z0-9._-]{0,63}$"));
    }
    if (meta.principal && meta.principal->tenantId != s.tenantId)
        return Error::make(403, QStringLiteral("forbidden"),
                           QStringLiteral("tenant_id does not match the tenant of the credential"),
                           {{QStringLiteral("tenant_id"), s.tenantId}});
    s.scope = bodyScope.isEmpty() ? config.defaultScope : bodyScope;
    if (s.scope.startsWith(QLatin1String("tenant:")))
        return Error::invalidField(QStringLiteral("scope"), QStringLiteral("must not start with 'tenant:'"));
    s.key = scopeKey(s.tenantId, s.scope, config.defaultTenant);
    return s;
}

QString defaultActor(const QString &given, const RequestMeta &meta, const ServiceConfig &config)
{
    return !given.isEmpty() ? given
           : meta.principal && !meta.principal->agentId.isEmpty() ? meta.principal->agentId
           : config.authMode == AuthMode::Off ? config.localAgentId
                                               : QStringLiteral("system");
}

Error identityMismatch(const QString &field, const QString &provided, const QString &expected)
{
    return Error::make(403, QStringLiteral("identity_mismatch"),
                       field + QStringLiteral(" differs from the identity of the credential"),
                       {{QStringLiteral("field"), field},
                        {QStringLiteral("provided"), provided},
                        {QStringLiteral("expected"), expected}});
}

} // namespace MemoryGraph
