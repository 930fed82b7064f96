#pragma once

#include "service/access/callscope.h"
#include "service/api/lifecycleoutcomes.h"
#include "service/api/lifecyclerequests.h"
#include "service/api/writerequest.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"

#include <optional>

namespace MemoryGraph {

class Database;

/// Node lifecycle: archive rehydrate, activation signals (spec §4.5, §4.6) and the operator's
/// edit and forget (DESIGN decision 4). Each change is one transaction with one commit.
class LifecycleEngine
{
public:
    /// canAutoEmbed: an embedding provider is configured, so an edited text becomes pending.
    LifecycleEngine(Database &db, const ServiceConfig &config, bool canAutoEmbed);

    Result<RehydrateOutcome> rehydrate(const RehydrateRequest &request, const RequestMeta &meta);
    Result<NodesActivateOutcome> activate(const NodesActivateRequest &request,
                                          const RequestMeta &meta);
    Result<NodeEditOutcome> edit(const NodeEditRequest &request, const RequestMeta &meta);
    Result<NodeForgetOutcome> forget(const NodeForgetRequest &request, const RequestMeta &meta);

private:
    Database &m_db;
    const ServiceConfig &m_config;
    bool m_canAutoEmbed;
};

} // namespace MemoryGraph
