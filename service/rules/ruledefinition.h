#pragma once

#include "service/core/records.h"
#include "service/core/result.h"

#include <QJsonValue>

namespace MemoryGraph {

/// A rule as written in a rule node's slots (spec §2.7): condition, patch, exceptions, scope.
/// Accepts slots.if / then / exceptions and the *_json spellings.
struct RuleDefinition
{
    QJsonValue ifJson; ///< undefined when absent
    QJsonValue thenJson;
    QJsonValue exceptionsJson;
    QString ruleScope; ///< global | team | agent
    QString targetAgentId;
    QString targetTeamId;

    static RuleDefinition fromNode(const NodeRecord &node);
    static RuleDefinition fromSlots(const QJsonObject &ruleSlots);

    /// Write-time checks of the rule slots (spec §2.7): scope value and its target id,
    /// rule_meta.priority -100..100 (integer), rule_meta.weight 0..2. pathPrefix names the node.
    static Result<void> validateSlots(const QJsonObject &ruleSlots, const QString &pathPrefix);
};

} // namespace MemoryGraph
