#pragma once

#include "service/api/writerequest.h"
#include "service/core/config.h"
#include "service/core/identity.h"

namespace MemoryGraph {

class Database;

/// Who hands a write in: a caller of /v1/memory/write (or the console), or the replay routes,
/// which alone may use the reserved "replay:" client ids.
enum class WriteOrigin { Api, Replay };

/// Applies a validated write: resolves ids and identities, upserts nodes and edges, and records
/// one commit chained to the scope's previous commit, all in one transaction. A writer with an
/// agent or team credential can only re-write, address by id, or link to nodes it can see
/// (DESIGN trust model); an explicit node id must name such a node, an explicit edge id the
/// edge being written.
class WriteEngine
{
public:
    /// canAutoEmbed: an embedding provider is configured, so text-only nodes become pending.
    WriteEngine(Database &db, const ServiceConfig &config, bool canAutoEmbed);

    /// validate -> resolve ids -> diff -> commit -> index; diff and commit share one transaction.
    Result<WriteResult> write(const WriteRequest &request, const RequestMeta &meta,
                              WriteOrigin origin);

private:
    Database &m_db;
    const ServiceConfig &m_config;
    bool m_canAutoEmbed;
};

} // namespace MemoryGraph
