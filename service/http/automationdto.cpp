#include "service/http/automationdto.h"

namespace MemoryGraph::Dto {

QJsonObject automation(const QString &path, const QJsonObject &outcome)
{
    QJsonObject body = outcome;
    // validate and graph/validate answer the validation at the top level (reference §8.2);
    // the nested copy is for the facade's other callers.
    if (path == QLatin1String("graph/validate"))
        body.remove(QStringLiteral("validation"));
    return body;
}

} // namespace MemoryGraph::Dto
