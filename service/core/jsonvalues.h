#pragma once

#include <QJsonValue>
#include <QString>

namespace MemoryGraph {

/// How optional text is written to JSON: an empty string as null, otherwise the string.
inline QJsonValue nullable(const QString &s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}

} // namespace MemoryGraph
