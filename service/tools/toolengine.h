#pragma once

#include "service/access/callscope.h"
#include "service/api/tooloutcomes.h"
#include "service/api/toolrequests.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/rules/ruleevaluator.h"
#include "service/rules/toolpolicy.h"

namespace MemoryGraph {

class Database;

/// Rules evaluation, tool selection with persisted decisions, feedback attribution, decision
/// and run reads, and rule state changes (spec §4.7-4.11).
class ToolEngine
{
public:
    ToolEngine(Database &db, const ServiceConfig &config);

    Result<RulesEvaluateOutcome> evaluate(const RulesEvaluateRequest &request,
                                          const RequestMeta &meta);
    Result<ToolSelectOutcome> select(const ToolSelectRequest &request, const RequestMeta &meta);
    Result<ToolFeedbackOutcome> feedback(const ToolFeedbackRequest &request,
                                         const RequestMeta &meta);
    Result<DecisionLookup> decision(const ToolDecisionRequest &request, const RequestMeta &meta);
    Result<RunOutcome> run(const ToolRunRequest &request, const RequestMeta &meta);
    Result<RunListOutcome> listRuns(const ToolRunsListRequest &request, const RequestMeta &meta);
    Result<RuleStateOutcome> setRuleState(const RuleStateRequest &request, const RequestMeta &meta);

private:
    Database &m_db;
    const ServiceConfig &m_config;
};

} // namespace MemoryGraph
