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
    /// canAutoEmbed: an embedding provider is configured, so text-only nodes become pending.
    WriteEngine(Database &db, const ServiceConfig &config, bool canAutoEmbed);

    Result<WriteResult> write(const WriteRequest &request, const RequestMeta &meta);

private:
    Database &m_db;
    const ServiceConfig &m_config;
    bool m_canAutoEmbed;
};

} // namespace MemoryGraph
