#pragma once

// Outcomes of rehydrate, nodes/activate and the operator's node edit and forget.

#include "service/api/callscopetypes.h"
#include "service/api/writerequest.h"
#include "service/core/records.h"

#include <QStringList>
#include <QVector>

#include <optional>

namespace MemoryGraph {

/// How the node_ids / client_ids of a call resolved within its scope (reference §6.1).
struct TargetResolution
{
    int requestedNodeIds = 0;
    int requestedClientIds = 0;
    int resolvedNodeIds = 0;    ///< node_ids plus the ids the client_ids resolved to
    QStringList missingNodeIds; ///< not in this (tenant, scope)
    QStringList missingClientIds;
    QVector<NodeRecord> found; ///< resolved nodes that exist, in request order
};

struct RehydrateOutcome
{
    CallScope scope;
    QString targetTier;
    std::optional<CommitRecord> commit; ///< none when nothing moved
    TargetResolution targets;
    QStringList movedIds;
    QStringList noopIds;
};

struct NodesActivateOutcome
{
    CallScope scope;
    std::optional<CommitRecord> commit; ///< none when no node was found
    TargetResolution targets;
    QStringList updatedIds;
    QString outcome;
    bool activate = true;
};

struct NodeEditOutcome
{
    CallScope scope;
    std::optional<CommitRecord> commit; ///< none when the edit changed nothing
    NodeRecord node;                    ///< the node as stored after the edit
    QStringList changedFields;
    bool reembedding = false; ///< the embedded text changed: a new vector follows
    QVector<EmbeddingChange> embeddingChanges;
};

struct NodeForgetOutcome
{
    CallScope scope;
    CommitRecord commit;
    NodeRecord node; ///< the node as it was before removal
    QStringList removedEdgeIds;
    QVector<EmbeddingChange> embeddingChanges;
};

} // namespace MemoryGraph
