#include "service/tools/nodefeedback.h"

#include "service/core/slotvalues.h"

#include <QtGlobal>

#include <cmath>
#include <optional>

namespace MemoryGraph::NodeFeedback {

qint64 counter(const QJsonValue &stored)
{
    const auto n = slotNumber(stored);
    if (!n || *n < 0 || *n > 9.0e15)
        return 0;
    return qint64(std::floor(*n));
}

double priorQuality(const QJsonValue &stored)
{
    const auto q = slotNumber(stored);
    return q ? qBound(-1.0, *q, 1.0) : 0.0;
}

double nextQuality(double prior, const QString &outcome)
{
    double next = prior;
    if (outcome == QLatin1String("positive"))
        next = qBound(-1.0, 0.8 * prior + 0.2, 1.0);
    else if (outcome == QLatin1String("negative"))
        next = qBound(-1.0, 0.8 * prior - 0.2, 1.0);
    return std::round(next * 10000.0) / 10000.0;
}

} // namespace MemoryGraph::NodeFeedback
