#include "service/mcp/mcpprotocol.h"

#include <QJsonArray>

namespace MemoryGraph::Mcp {

const QStringList &legacyRevisions()
{
    static const QStringList v{kRevision20251125, kRevision20250618, kRevision20250326};
    return v;
}

const QStringList &supportedRevisions()
{
    static const QStringList v{kRevision20260728, kRevision20251125, kRevision20250618,
                               kRevision20250326};
    return v;
}

bool isLegacyRevision(const QString &revision)
{
    return legacyRevisions().contains(revision);
}

bool isStatelessRevision(const QString &revision)
{
    return revision == kRevision20260728;
}

bool allowsBatches(const QString &revision)
{
    return revision == kRevision20250326;
}

QJsonObject errorResponse(const QJsonValue &id, int code, const QString &message,
                          const QJsonValue &data)
{
    QJsonObject error{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isUndefined())
        error.insert(QStringLiteral("data"), data);
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id.isUndefined() ? QJsonValue() : id},
            {QStringLiteral("error"), error}};
}

QJsonObject resultResponse(const QJsonValue &id, const QJsonObject &result)
{
    return {{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("result"), result}};
}

QJsonObject unsupportedVersion(const QJsonValue &id, const QString &requested)
{
    return errorResponse(
        id, UnsupportedProtocolVersion, QStringLiteral("Unsupported protocol version"),
        QJsonObject{{QStringLiteral("supported"), QJsonArray::fromStringList(supportedRevisions())},
                    {QStringLiteral("requested"), requested}});
}

} // namespace MemoryGraph::Mcp
