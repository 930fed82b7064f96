#pragma once

// What evaluating a scope's rules against a context produced (spec §4.7).

#include "service/core/records.h"
#include "service/rules/policymerge.h"
#include "service/rules/ruledefinition.h"
#include "service/rules/rulerank.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

namespace MemoryGraph {

/// A rule whose scope, lane and condition matched the context.
struct RuleMatch
{
    NodeRecord node;
    RuleStatus status;
    RuleDefinition definition;
    QJsonObject patch; ///< validated then_json
    Rules::RuleRank rank;
    QStringList conditionPaths;
};

/// The outcome of evaluating a scope's rules against a context (spec §4.7).
struct RuleEvaluation
{
    int considered = 0;
    int skippedInvalidThen = 0;
    QJsonArray invalidThenSample;
    QJsonObject visibility;    ///< agent_visibility_summary
    QVector<RuleMatch> active; ///< score DESC, id ASC
    QVector<RuleMatch> shadow;
    Rules::MergedPolicy applied;
    std::optional<Rules::MergedPolicy> shadowApplied; ///< when shadow rules were included

    int matched() const { return int(active.size() + shadow.size()); }
};

} // namespace MemoryGraph
