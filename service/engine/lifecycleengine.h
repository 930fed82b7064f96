#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/engine/callscope.h"
#include "service/engine/lifecyclerequests.h"
#include "service/engine/writerequest.h"

#include <optional>

namespace MemoryGraph {

class Database;

/// How the node_ids / client_ids of a call resolved within its scope (reference §6.1).
struct TargetResolution
{
    int requestedNodeIds = 0;
    int requestedClientIds = 0;
    int resolvedNodeIds = 0;       ///< node_ids plus the ids the client_ids resolved to
    QStringList missingNodeIds;    ///< not in this (tenant, scope)
    QStringList missingClientIds;
    QVector<NodeRecord> found;     ///< resolved nodes that exist, in request order
};

struct RehydrateOutcome
{
    CallScope scope;
    QString targetTier;
    std::optional<CommitRecord> commit;   ///< none when nothing moved
    TargetResolution targets;
    QStringList movedIds;
    QStringList noopIds;
};

struct NodesActivateOutcome
{
    CallScope scope;
    std::optional<CommitRecord> commit;   ///< none when no node was found
    TargetResolution targets;
    QStringList updatedIds;
    QString outcome;
    bool activate = true;
};

struct NodeEditOutcome
{
    CallScope scope;
    std::optional<CommitRecord> commit;   ///< none when the edit changed nothing
    NodeRecord node;                      ///< the node as stored after the edit
    QStringList changedFields;
    bool reembedding = false;             ///< the embedded text changed: a new vector follows
    QVector<EmbeddingChange> embeddingChanges;
};

struct NodeForgetOutcome
{
    CallScope scope;
    CommitRecord commit;
    NodeRecord node;                      ///< the node as it was before removal
    QStringList removedEdgeIds;
    QVector<EmbeddingChange> embeddingChanges;
};

/// Node lifecycle: archive rehydrate, activation signals (spec §4.5, §4.6) and the operator's
/// edit and forget (DESIGN decision 4). Each change is one transaction with one commit.
class LifecycleEngine
{
public:
    /// canAutoEmbed: an embedding provider is configured, so an edited text becomes pending.
    LifecycleEngine(Database &db, const ServiceConfig &config, bool canAutoEmbed);

    Result<RehydrateOutcome> rehydrate(const RehydrateRequest &request, const RequestMeta &meta);
    Result<NodesActivateOutcome> activate(const NodesActivateRequest &request, const RequestMeta &meta);
    Result<NodeEditOutcome> edit(const NodeEditRequest &request, const RequestMeta &meta);
    Result<NodeForgetOutcome> forget(const NodeForgetRequest &request, const RequestMeta &meta);

private:
    Database &m_db;
    const ServiceConfig &m_config;
    bool m_canAutoEmbed;
};

} // namespace MemoryGraph
