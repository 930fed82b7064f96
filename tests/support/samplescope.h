#pragma once

#include "service/memoryservice.h"

#include <QString>

namespace MemoryGraph::Test {

/// What fillSampleScope() wrote, to compare a copy of the scope against.
struct SampleScope
{
    QString runId;      ///< the replay run, also the run of the tool decision
    QString ruleId;     ///< the active rule node
    QString decisionId; ///< the tool decision of the run
    QString privateId;  ///< the private node owned by agent "alice-agent"
};

/// Writes, into (tenant, scope), every kind of record an export carries: shared and private
/// nodes with owners (one without a client id), edges, an active rule with feedback, a tool
/// decision, and a replay run with one step that ended with success.
Result<SampleScope> fillSampleScope(MemoryService *service, const QString &tenant,
                                    const QString &scope);

} // namespace MemoryGraph::Test
