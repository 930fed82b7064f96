#pragma once

#include <QDateTime>
#include <QMetaType>
#include <QString>

namespace MemoryGraph {

/// One served HTTP request, for the live request log.
struct RequestLogEntry
{
    QDateTime at;
    QString method;
    QString path;
    int status = 0;
    double latencyMs = 0.0;
    QString tenantId;
    QString requestId;
    QString errorCode; ///< empty on success
    QString detail;    ///< what the call did beyond its path (MCP: "tools/call remember")
};

} // namespace MemoryGraph

Q_DECLARE_METATYPE(MemoryGraph::RequestLogEntry)
