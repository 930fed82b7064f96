#include "service/rules/ruledefinition.h"

#include <cmath>

namespace MemoryGraph {

namespace {
QJsonValue either(const QJsonObject &o, const char *a, const char *b)
{
    const QJsonValue v = o.value(QLatin1String(a));
    return v.isUndefined() ? o.value(QLatin1String(b)) : v;
}
} // namespace

RuleDefinition RuleDefinition::fromSlots(const QJsonObject &s)
{
    RuleDefinition d;
    d.ifJson = either(s, "if", "if_json");
    d.thenJson = either(s, "then", "then_json");
    d.exceptionsJson = either(s, "exceptions", "exceptions_json");
    const QString scope = s.value(QStringLiteral("rule_scope")).toString().trimmed().toLower();
    d.ruleScope = (scope == QLatin1String("team") || scope == QLatin1String("agent"))
                      ? scope
                      : QStringLiteral("global");
    d.targetAgentId = s.value(QStringLiteral("target_agent_id")).toString().trimmed();
    d.targetTeamId = s.value(QStringLiteral("target_team_id")).toString().trimmed();
    return d;
}

RuleDefinition RuleDefinition::fromNode(const NodeRecord &node)
{
    return fromSlots(node.slotData);
}

Result<void> RuleDefinition::validateSlots(const QJsonObject &s, const QString &prefix)
{
    const QString base = prefix + QStringLiteral(".slots.");
    const QJsonValue scope = s.value(QStringLiteral("rule_scope"));
    if (!scope.isUndefined() && !scope.isNull()) {
        const QString v = scope.toString().trimmed().toLower();
        if (!scope.isString()
            || (v != QLatin1String("global") && v != QLatin1String("team")
                && v != QLatin1String("agent")))
            return Error::invalidField(base + QStringLiteral("rule_scope"),
                                       QStringLiteral("must be global, team or agent"));
        if (v == QLatin1String("team")
            && s.value(QStringLiteral("target_team_id")).toString().trimmed().isEmpty())
            return Error::invalidField(base + QStringLiteral("target_team_id"),
                                       QStringLiteral("is required when rule_scope is team"));
        if (v == QLatin1String("agent")
            && s.value(QStringLiteral("target_agent_id")).toString().trimmed().isEmpty())
            return Error::invalidField(base + QStringLiteral("target_agent_id"),
                                       QStringLiteral("is required when rule_scope is agent"));
    }
    const QJsonValue meta = s.value(QStringLiteral("rule_meta"));
    if (meta.isUndefined() || meta.isNull())
        return {};
    if (!meta.isObject())
        return Error::invalidField(base + QStringLiteral("rule_meta"),
                                   QStringLiteral("must be an object"));
    const QJsonValue priority = meta.toObject().value(QStringLiteral("priority"));
    if (!priority.isUndefined() && !priority.isNull()
        && (!priority.isDouble() || priority.toDouble() < -100 || priority.toDouble() > 100
            || std::floor(priority.toDouble()) != priority.toDouble()))
        return Error::invalidField(base + QStringLiteral("rule_meta.priority"),
                                   QStringLiteral("must be an integer between -100 and 100"));
    const QJsonValue weight = meta.toObject().value(QStringLiteral("weight"));
    if (!weight.isUndefined() && !weight.isNull()
        && (!weight.isDouble() || weight.toDouble() < 0 || weight.toDouble() > 2))
        return Error::invalidField(base + QStringLiteral("rule_meta.weight"),
                                   QStringLiteral("must be a number between 0 and 2"));
    return {};
}

} // namespace MemoryGraph
