#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/core/result.h"

#include <QJsonObject>

#include <optional>

namespace MemoryGraph {

class Database;

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
    QString tenantId;   ///< the URI's tenant (always the caller's)
    QString scope;      ///< the URI's scope
    QString uri;
    QString kind;       ///< node type, edge, commit or decision
    bool includeSlots = false;
    bool includeMeta = false;
    std::optional<NodeRecord> node;
    std::optional<EdgeRecord> edge;
    std::optional<CommitRecord> commit;
    std::optional<DecisionRecord> decision;
};

/// Every URI kind the service issues: node types, edge, commit, decision. The URI's tenant must
/// be the caller's (403 forbidden); another scope of that tenant is fine. Nodes, and edges through
/// their endpoints, obey lane visibility like recall: what the caller may not see is 404.
class ResolveEngine
{
public:
    ResolveEngine(Database &db, const ServiceConfig &config);
    Result<ResolveOutcome> resolve(const ResolveRequest &request, const RequestMeta &meta);

private:
    Database &m_db;
    const ServiceConfig &m_config;
};

} // namespace MemoryGraph
