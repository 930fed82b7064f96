#pragma once

#include "service/core/result.h"
#include "service/engine/memoryservice.h"

#include <QJsonObject>

namespace MemoryGraph::Dto {

// Every outward body is built here from an explicit list of fields (spec §1.10 B, §9).

/// {"error", "message", "details"?, "request_id"} (DESIGN decision 1).
QJsonObject error(const Error &error, const QString &requestId);

QJsonObject writeResult(const WriteResult &result, const QString &requestId);

/// GET /health; counts only when the caller may see them (auth off or admin).
QJsonObject health(const HealthInfo &info, bool includeCounts);

} // namespace MemoryGraph::Dto
