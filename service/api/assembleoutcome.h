#pragma once

// What one context assembly produced (spec §4.13); the HTTP layer whitelists it.

#include "service/api/assemblerequest.h"
#include "service/api/callscopetypes.h"
#include "service/api/layeredcontexttypes.h"
#include "service/api/recalloutcome.h"
#include "service/api/tooloutcomes.h"

#include <QJsonObject>

#include <optional>

namespace MemoryGraph {

/// Everything one context assembly produced; the HTTP layer whitelists it into the response.
struct AssembleOutcome
{
    CallScope scope;
    RecallRequest recallRequest; ///< as run (after identity defaults)
    RecallOutcome recall;
    std::optional<RulesEvaluateOutcome> rules;     ///< when include_rules
    std::optional<ToolSelectOutcome> tools;        ///< when tool_candidates were given
    QJsonObject continuity;                        ///< execution_* objects as sent
    QString packetSourceMode;                      ///< none | packet_input | state_first
    std::optional<LayeredContext::Output> layered; ///< when return_layered_context
    bool includeRules = true;
    QString optimizationProfile;
};

} // namespace MemoryGraph
