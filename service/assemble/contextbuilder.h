#pragma once

#include "service/api/contextresult.h"
#include "service/core/records.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QVector>

#include <optional>

namespace MemoryGraph {

struct ContextOptions
{
    std::optional<int> tokenBudget;               ///< <= 0 means none
    std::optional<int> charBudget;                ///< <= 0 means none; wins over the token budget
    QString profile = QStringLiteral("balanced"); ///< balanced | aggressive
    /// State and feedback counts of the rule nodes among the ranked nodes, by node id; rules
    /// without an entry render as state=unknown.
    QHash<QString, RuleStatus> ruleStatuses;
};

/// Prompt-ready context from nodes in rank order (spec §2.5, §4.3.2.5-6; reference §4.7-4.8):
/// sections Topics / Concepts, Entities, Supporting Events / Evidence, Applicable Rules.
/// Compaction drops low-priority lines of the text only; items and citations stay whole.
ContextResult buildContext(const QVector<NodeRecord> &rankedNodes, const ContextOptions &options);

} // namespace MemoryGraph
