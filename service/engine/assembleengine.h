#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/engine/assemblerequest.h"
#include "service/engine/callscope.h"
#include "service/engine/layeredcontext.h"
#include "service/engine/recallengine.h"
#include "service/engine/toolengine.h"

#include <optional>

namespace MemoryGraph {

class Database;
class EmbeddingProvider;
class IndexManager;
class RecallAudit;

/// Everything one context assembly produced; the HTTP layer whitelists it into the response.
struct AssembleOutcome
{
    CallScope scope;
    RecallRequest recallRequest;                 ///< as run (after identity defaults)
    RecallOutcome recall;
    std::optional<RulesEvaluateOutcome> rules;   ///< when include_rules
    std::optional<ToolSelectOutcome> tools;      ///< when tool_candidates were given
    QJsonObject continuity;                      ///< execution_* objects as sent
    QString packetSourceMode;                    ///< none | packet_input | state_first
    std::optional<LayeredContext::Output> layered;   ///< when return_layered_context
    bool includeRules = true;
    QString optimizationProfile;
};

/// POST /v1/memory/context/assemble (spec §4.13, reference §7.3): embed the query, recall,
/// evaluate rules against the runtime context, optionally select a tool (which persists a
/// decision), then build the layered context.
class AssembleEngine
{
public:
    AssembleEngine(Database &db, IndexManager &indexes, RecallAudit &audit,
                   EmbeddingProvider *provider, const ServiceConfig &config);

    Result<AssembleOutcome> assemble(const AssembleRequest &request, const RequestMeta &meta);

private:
    Database &m_db;
    IndexManager &m_indexes;
    RecallAudit &m_audit;
    EmbeddingProvider *m_provider;
    const ServiceConfig &m_config;
};

} // namespace MemoryGraph
