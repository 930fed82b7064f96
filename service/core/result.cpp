#include "service/core/result.h"

namespace MemoryGraph {

Error Error::invalidField(const QString &path, const QString &message)
{
    QJsonObject issue{{QStringLiteral("path"), path}, {QStringLiteral("message"), message}};
    return make(400, QStringLiteral("invalid_request"),
                path.isEmpty() ? message : path + QStringLiteral(": ") + message,
                {{QStringLiteral("issues"), QJsonArray{issue}}});
}

Error Error::make(int status, const QString &code, const QString &message,
                  const QJsonObject &details)
{
    Error e;
    e.status = status;
    e.code = code;
    e.message = message;
    e.details = details;
    return e;
}

Error Error::notFound(const QString &message, const QJsonObject &details)
{
    return make(404, QStringLiteral("not_found"), message, details);
}

Error Error::internal(const QString &message)
{
    return make(500, QStringLiteral("internal_error"), message);
}

Error Error::cancelled(const QString &message)
{
    // 499: the caller went away or asked to stop (no response is owed to it).
    return make(499, QStringLiteral("cancelled"), message);
}

} // namespace MemoryGraph
