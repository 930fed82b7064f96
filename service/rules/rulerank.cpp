#include "service/rules/rulerank.h"

#include "service/rules/jsonsemantics.h"

#include <algorithm>
#include <cmath>

namespace MemoryGraph::Rules {

namespace {

// JS `rule_meta[key] ?? slots[key]`: null and missing both fall through.
QJsonValue rankKnob(const QJsonObject &ruleSlots, const QString &key)
{
    const QJsonValue meta = ruleSlots.value(u"rule_meta").toObject().value(key);
    if (!meta.isUndefined() && !meta.isNull())
        return meta;
    return ruleSlots.value(key);
}

double knobNumber(const QJsonValue &value, double fallback)
{
    return (value.isUndefined() || value.isNull()) ? fallback : toJsNumber(value);
}

} // namespace

QJsonObject RuleRank::toJson() const
{
    return {{QStringLiteral("score"), score},
            {QStringLiteral("evidence_score"), evidenceScore},
            {QStringLiteral("priority"), priority},
            {QStringLiteral("weight"), weight},
            {QStringLiteral("specificity"), specificity}};
}

RuleRank computeRank(const QJsonObject &ruleSlots, int positive, int negative, int specificity)
{
    RuleRank rank;
    const double priority = knobNumber(rankKnob(ruleSlots, QStringLiteral("priority")), 0);
    rank.priority
        = std::isfinite(priority) ? int(std::trunc(std::clamp(priority, -100.0, 100.0))) : 0;
    const double weight = knobNumber(rankKnob(ruleSlots, QStringLiteral("weight")), 1);
    rank.weight = std::isfinite(weight) ? std::clamp(weight, 0.0, 2.0) : 1.0;
    rank.evidenceScore = positive - negative;
    rank.specificity = specificity;
    rank.score
        = rank.priority * 1000.0 + rank.evidenceScore * 100.0 * rank.weight + rank.specificity;
    return rank;
}

} // namespace MemoryGraph::Rules
