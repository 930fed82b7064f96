#pragma once

#include "service/core/result.h"
#include "service/memoryservice.h"

#include <QJsonObject>

namespace MemoryGraph::Dto {

// Every outward body is built here from an explicit list of fields (spec §1.10 B, §9).

/// {"error", "message", "details", "request_id"}; details is {} when there are none (DESIGN
/// decision 1).
QJsonObject error(const Error &error, const QString &requestId);

QJsonObject writeResult(const WriteResult &result, const QString &requestId);

/// Which optional NodeDTO fields a caller asked for (spec §2.1).
struct NodeView
{
    bool meta = false;
    bool fullSlots = false;
    bool slotsPreview = false;
    int slotsPreviewKeys = 10;
};

QJsonObject node(const NodeRecord &node, const NodeView &view);
QJsonObject edge(const EdgeRecord &edge, bool includeMeta);

/// /recall and /recall_text. requestId is put in the body only when non-empty.
QJsonObject recall(const RecallOutcome &outcome, const RecallRequest &request,
                   const QString &requestId);

/// ISO 8601 UTC with milliseconds, or null.
QJsonValue timestamp(const QDateTime &time);

/// GET /health; counts only when the caller may see them (auth off or admin).
QJsonObject health(const HealthInfo &info, bool includeCounts);

} // namespace MemoryGraph::Dto
