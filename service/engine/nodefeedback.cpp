#include "service/engine/nodefeedback.h"

#include <QtGlobal>

#include <cmath>
#include <optional>

namespace MemoryGraph::NodeFeedback {

namespace {

std::optional<double> numeric(const QJsonValue &v)
{
    if (v.isDouble())
        return std::isfinite(v.toDouble()) ? std::optional<double>(v.toDouble()) : std::nullopt;
    if (v.isString()) {
        bool ok = false;
        const double d = v.toString().trimmed().toDouble(&ok);
        if (ok && std::isfinite(d))
            return d;
    }
    return std::nullopt;
}

} // namespace

qint64 counter(const QJsonValue &stored)
{
    const auto n = numeric(stored);
    if (!n || *n < 0 || *n > 9.0e15)
        return 0;
    return qint64(std::floor(*n));
}

double priorQuality(const QJsonValue &stored)
{
    const auto q = numeric(stored);
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
