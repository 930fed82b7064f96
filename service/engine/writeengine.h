#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/engine/writerequest.h"

namespace MemoryGraph {

class Database;

/// Applies a validated write: resolves ids and identities, upserts nodes and edges, and records
/// one commit chained to the scope's previous commit, all in one transaction.
class WriteEngine
{
public:
    WriteEngine(Database &db, const ServiceConfig &config);

    Result<WriteResult> write(const WriteRequest &request, const RequestMeta &meta);

private:
    Database &m_db;
    const ServiceConfig &m_config;
};

} // namespace MemoryGraph
