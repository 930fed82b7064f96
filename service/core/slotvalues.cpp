#include "service/core/slotvalues.h"

#include <QString>

#include <cmath>

namespace MemoryGraph {

std::optional<double> slotNumber(const QJsonValue &v)
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

} // namespace MemoryGraph
