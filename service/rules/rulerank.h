#pragma once

#include <QJsonObject>

/// Rule ranking (spec §4.8 rule 1, reference §2.3).
namespace MemoryGraph::Rules {

struct RuleRank
{
    int priority = 0;      ///< -100..100
    double weight = 1;     ///< 0..2
    int evidenceScore = 0; ///< positive - negative feedback
    int specificity = 0;   ///< number of condition paths
    double score = 0;      ///< priority*1000 + evidence*100*weight + specificity

    /// {score, evidence_score, priority, weight, specificity}
    QJsonObject toJson() const;
};

/// Reads priority from slots.rule_meta.priority ?? slots.priority (JS Number(), clamped to
/// -100..100, truncated, non-finite → 0) and weight from rule_meta.weight ?? slots.weight
/// (default 1, clamped to 0..2, non-finite → 1), then applies the score formula.
RuleRank computeRank(const QJsonObject &ruleSlots, int positive, int negative, int specificity);

} // namespace MemoryGraph::Rules
