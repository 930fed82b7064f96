#pragma once

// POST /v1/memory/resolve: a memorygraph:// URI and the record it names.

#include "service/core/records.h"
#include "service/core/result.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace MemoryGraph {

/// POST /v1/memory/resolve: a memorygraph:// URI (DESIGN decision 5) back to its record.
struct ResolveRequest
{
    QString tenantId;
    QString scope;
    QString uri;
    QString consumerAgentId;
    QString consumerTeamId;
    bool includeSlots = false;
    bool includeMeta = false;
    static Result<ResolveRequest> fromJson(const QJsonObject &body);
};

/// The resolved record; exactly one of node, edge, commit and decision is set.
struct ResolveOutcome
{
    QString tenantId; ///< the URI's tenant (always the caller's)
    QString scope;    ///< the URI's scope
    QString uri;
    QString kind; ///< node type, edge, commit or decision
    bool includeSlots = false;
    bool includeMeta = false;
    std::optional<NodeRecord> node;
    std::optional<EdgeRecord> edge;
    std::optional<CommitRecord> commit;
    std::optional<DecisionRecord> decision;
    /// resolve_summary (reference §10.2, resolve_summary_v1).
    QJsonObject summary;
};

} // namespace MemoryGraph
