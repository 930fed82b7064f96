#pragma once

#include "service/access/callscope.h"
#include "service/api/assembleoutcome.h"
#include "service/api/assemblerequest.h"
#include "service/assemble/layeredcontext.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/recall/recallengine.h"
#include "service/tools/toolengine.h"

#include <optional>

namespace MemoryGraph {

class Database;
class EmbeddingProvider;
class IndexManager;
class RecallAudit;

/// POST /v1/memory/context/assemble (spec §4.13, reference §7.3): embed the query, recall,
/// evaluate rules against the runtime context, optionally select a tool (which persists a
/// decision), then build the layered context.
class AssembleEngine
{
public:
    AssembleEngine(Database &db, IndexManager &indexes, RecallAudit &audit,
                   QThreadPool &textChannels, EmbeddingProvider *provider,
                   const ServiceConfig &config);

    Result<AssembleOutcome> assemble(const AssembleRequest &request, const RequestMeta &meta);

private:
    Database &m_db;
    IndexManager &m_indexes;
    RecallAudit &m_audit;
    QThreadPool &m_textChannels; ///< RecallEngine's
    EmbeddingProvider *m_provider;
    const ServiceConfig &m_config;
};

} // namespace MemoryGraph
