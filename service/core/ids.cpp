#include "service/core/ids.h"

#include <QRegularExpression>
#include <QUrl>
#include <QUuid>

namespace MemoryGraph {

namespace {
const QUuid &productNamespace()
{
    static const QUuid ns(QStringLiteral("{6f1d7c2e-3b0a-5e49-9d47-4d656d477261}"));
    return ns;
}

QString encodeSegment(const QString &segment)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(segment));
}
} // namespace

QString stableUuid(const QString &name)
{
    return QUuid::createUuidV5(productNamespace(), name).toString(QUuid::WithoutBraces);
}

QString randomUuid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

bool isUuid(const QString &text)
{
    static const QRegularExpression re(QStringLiteral(
        "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"));
    return re.match(text).hasMatch();
}

QString scopeKey(const QString &tenantId, const QString &scope, const QString &defaultTenant)
{
    if (tenantId == defaultTenant)
        return scope;
    return QStringLiteral("tenant:") + tenantId + QStringLiteral("::scope:") + scope;
}

QString recordUri(const QString &tenantId, const QString &scope, const QString &kind,
                  const QString &id)
{
    return QStringLiteral("memorygraph://") + encodeSegment(tenantId) + QLatin1Char('/')
           + encodeSegment(scope) + QLatin1Char('/') + encodeSegment(kind) + QLatin1Char('/')
           + encodeSegment(id);
}

std::optional<RecordUri> parseRecordUri(const QString &uri)
{
    const QString prefix = QStringLiteral("memorygraph://");
    if (!uri.startsWith(prefix))
        return std::nullopt;
    const QStringList parts = uri.mid(prefix.size()).split(QLatin1Char('/'));
    if (parts.size() != 4)
        return std::nullopt;
    RecordUri r;
    r.tenantId = QUrl::fromPercentEncoding(parts.at(0).toUtf8());
    r.scope = QUrl::fromPercentEncoding(parts.at(1).toUtf8());
    r.kind = QUrl::fromPercentEncoding(parts.at(2).toUtf8());
    r.id = QUrl::fromPercentEncoding(parts.at(3).toUtf8());
    if (r.tenantId.isEmpty() || r.scope.isEmpty() || r.kind.isEmpty() || r.id.isEmpty())
        return std::nullopt;
    return r;
}

} // namespace MemoryGraph
