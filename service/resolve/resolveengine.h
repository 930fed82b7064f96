#pragma once

#include "service/api/resolverequest.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/core/result.h"

#include <QJsonObject>

#include <optional>

namespace MemoryGraph {

class Database;

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
