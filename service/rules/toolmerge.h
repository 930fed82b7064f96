#pragma once

#include "service/rules/policymerge.h"

#include <QJsonObject>
#include <QVector>

/// The tool.* part of the merge (reference §2.5), which does not follow the generic merge.
namespace MemoryGraph::Rules {

struct ToolPolicyMerge
{
    QJsonObject tool; ///< {allow?, deny?, prefer?}; allow present (maybe empty) iff any rule allows
    QJsonObject explain; ///< tool_explain
};

/// Considers the matches whose patch has a non-empty tool.allow, deny or prefer (lists trimmed,
/// empties dropped, de-duplicated), by score descending, ties rule id ascending.
ToolPolicyMerge mergeToolPolicy(const QVector<MatchedRule> &matches);

/// Ascending merge order: score, then rule id.
bool rankAscending(const MatchedRule &a, const MatchedRule &b);

/// Explanation order: score descending, ties rule id ascending.
bool rankDescending(const MatchedRule &a, const MatchedRule &b);

} // namespace MemoryGraph::Rules
