#include "service/rules/ruleevaluator.h"

#include "service/access/callscope.h"
#include "service/core/jsonvalues.h"
#include "service/core/vocabulary.h"
#include "service/rules/conditionmatcher.h"
#include "service/rules/policypatch.h"
#include "service/storage/rulestore.h"

#include <algorithm>

namespace MemoryGraph::RuleEvaluator {

namespace {

QString contextAgentId(const QJsonObject &c)
{
    const QString nested = c.value(QStringLiteral("agent"))
                               .toObject()
                               .value(QStringLiteral("id"))
                               .toString()
                               .trimmed();
    return nested.isEmpty() ? c.value(QStringLiteral("agent_id")).toString().trimmed() : nested;
}

QString contextTeamId(const QJsonObject &c)
{
    const QString nested = c.value(QStringLiteral("agent"))
                               .toObject()
                               .value(QStringLiteral("team_id"))
                               .toString()
                               .trimmed();
    return nested.isEmpty() ? c.value(QStringLiteral("team_id")).toString().trimmed() : nested;
}

/// Who the context names: agent- and team-scoped rules and private lanes are judged against it.
struct ContextIdentity
{
    QString agent;
    QString team;

    explicit ContextIdentity(const QJsonObject &context)
        : agent(contextAgentId(context)), team(contextTeamId(context))
    {
    }

    /// spec §4.7.2-3: lanes are enforced only when the context names an agent or a team.
    bool laneApplied() const { return !agent.isEmpty() || !team.isEmpty(); }

    QString laneReason() const
    {
        return !laneApplied()                        ? QStringLiteral("missing_agent_context")
               : !agent.isEmpty() && !team.isEmpty() ? QStringLiteral("enforced_agent_team")
               : !agent.isEmpty()                    ? QStringLiteral("enforced_agent_only")
                                                     : QStringLiteral("enforced_team_only");
    }
};

/// Why rules were left out, reported in the visibility block.
struct FilterCounts
{
    int byScope = 0;
    int byLane = 0;
    int byCondition = 0;
    int unownedPrivate = 0;
};

/// A rule scoped to an agent or a team applies only when the context names that one.
bool outsideRuleScope(const RuleDefinition &def, const ContextIdentity &who)
{
    return (def.ruleScope == QLatin1String("agent")
            && (who.agent.isEmpty() || who.agent != def.targetAgentId))
           || (def.ruleScope == QLatin1String("team")
               && (who.team.isEmpty() || who.team != def.targetTeamId));
}

/// A private rule is seen only by its owners once lanes apply; unowned ones are counted for
/// the legacy report either way.
bool hiddenByLane(const NodeRecord &node, const ContextIdentity &who, FilterCounts &counts)
{
    if (node.memoryLane != QLatin1String("private"))
        return false;
    const bool unowned = node.ownerAgentId.isEmpty() && node.ownerTeamId.isEmpty();
    if (unowned)
        ++counts.unownedPrivate;
    const bool visible = !unowned
                         && ((!who.agent.isEmpty() && node.ownerAgentId == who.agent)
                             || (!who.team.isEmpty() && node.ownerTeamId == who.team));
    return who.laneApplied() && !visible;
}

/// A matching rule whose then_json fails the schema is skipped, with a sample kept for the report.
void noteInvalidThen(const RuleStore::StoredRule &r, const Error &error, RuleEvaluation &out)
{
    ++out.skippedInvalidThen;
    if (out.invalidThenSample.size() < 5)
        out.invalidThenSample.append(
            QJsonObject{{QStringLiteral("rule_node_id"), r.node.id},
                        {QStringLiteral("state"), r.status.state.toUpper()},
                        {QStringLiteral("commit_id"), r.node.commitId},
                        {QStringLiteral("error"), error.message}});
}

/// Runs one stored rule through the scope, lane, condition and then_json filters and files a
/// match under active or shadow.
void considerRule(const RuleStore::StoredRule &r, const ContextIdentity &who,
                  const QJsonValue &context, bool includeShadow, RuleEvaluation &out,
                  FilterCounts &counts)
{
    const RuleDefinition def = RuleDefinition::fromNode(r.node);
    if (outsideRuleScope(def, who)) {
        ++counts.byScope;
        return;
    }
    if (hiddenByLane(r.node, who, counts)) {
        ++counts.byLane;
        return;
    }
    if (!Rules::ruleMatchesContext(def.ifJson, def.exceptionsJson, context)) {
        ++counts.byCondition;
        return;
    }
    auto patch = Rules::validatePolicyPatch(def.thenJson.isUndefined() ? QJsonValue(QJsonObject())
                                                                       : def.thenJson);
    if (!patch) {
        noteInvalidThen(r, patch.error(), out);
        return;
    }
    RuleMatch m;
    m.node = r.node;
    m.status = r.status;
    m.definition = def;
    m.patch = patch.value();
    m.conditionPaths = Rules::conditionPaths(def.ifJson);
    m.rank = Rules::computeRank(r.node.slotData, int(r.status.positive), int(r.status.negative),
                                int(m.conditionPaths.size()));
    if (r.status.state == QLatin1String("active"))
        out.active.append(m);
    else if (includeShadow)
        out.shadow.append(m);
}

/// The visibility block: who the context named and why each rule was left out.
QJsonObject visibilityReport(const RuleEvaluation &out, const ContextIdentity &who,
                             const FilterCounts &counts)
{
    const bool laneApplied = who.laneApplied();
    return QJsonObject{
        {QStringLiteral("agent"), QJsonObject{{QStringLiteral("id"), nullable(who.agent)},
                                              {QStringLiteral("team_id"), nullable(who.team)}}},
        {QStringLiteral("rule_scope"),
         QJsonObject{{QStringLiteral("scanned"), out.considered},
                     {QStringLiteral("filtered_by_scope"), counts.byScope},
                     {QStringLiteral("filtered_by_lane"), counts.byLane},
                     {QStringLiteral("filtered_by_condition"), counts.byCondition},
                     {QStringLiteral("skipped_invalid_then"), out.skippedInvalidThen},
                     {QStringLiteral("matched_active"), out.active.size()},
                     {QStringLiteral("matched_shadow"), out.shadow.size()}}},
        {QStringLiteral("lane"),
         QJsonObject{{QStringLiteral("applied"), laneApplied},
                     {QStringLiteral("reason"), who.laneReason()},
                     {QStringLiteral("legacy_unowned_private_visible"),
                      laneApplied ? 0 : counts.unownedPrivate},
                     {QStringLiteral("legacy_unowned_private_detected"), counts.unownedPrivate}}}};
}

bool ranksBefore(const RuleMatch &a, const RuleMatch &b)
{
    return a.rank.score > b.rank.score || (a.rank.score == b.rank.score && a.node.id < b.node.id);
}

QVector<Rules::MatchedRule> forMerge(const QVector<RuleMatch> &matches, const QString &state)
{
    QVector<Rules::MatchedRule> out;
    for (const RuleMatch &m : matches)
        out.append({m.node.id, state, m.node.commitId, m.patch, m.rank});
    return out;
}

} // namespace

Result<QJsonValue> withCallerIdentity(const QJsonValue &context, const RequestMeta &meta)
{
    if (!meta.principal)
        return context;
    const Principal &p = *meta.principal;
    // A context that is not an object still gets the caller's identity, so lanes are enforced.
    QJsonObject c = context.isObject() ? context.toObject() : QJsonObject();
    if (!context.isObject() && !context.isUndefined() && !context.isNull())
        c.insert(QStringLiteral("input"), context);
    QJsonObject agentObject = c.value(QStringLiteral("agent")).toObject();
    // Every spelling of an identity field must agree with the credential.
    const std::pair<QString, QString> agentForms[]
        = {{QStringLiteral("context.agent.id"),
            agentObject.value(QStringLiteral("id")).toString().trimmed()},
           {QStringLiteral("context.agent_id"),
            c.value(QStringLiteral("agent_id")).toString().trimmed()}};
    const std::pair<QString, QString> teamForms[]
        = {{QStringLiteral("context.agent.team_id"),
            agentObject.value(QStringLiteral("team_id")).toString().trimmed()},
           {QStringLiteral("context.team_id"),
            c.value(QStringLiteral("team_id")).toString().trimmed()}};
    for (const auto &[field, given] : agentForms) {
        if (auto refused = checkClaim(p, field, given, p.agentId))
            return *refused;
    }
    for (const auto &[field, given] : teamForms) {
        if (auto refused = checkClaim(p, field, given, p.teamId))
            return *refused;
    }
    if (!p.agentId.isEmpty()) {
        agentObject.insert(QStringLiteral("id"), p.agentId);
        c.insert(QStringLiteral("agent_id"), p.agentId);
    }
    if (!p.teamId.isEmpty()) {
        agentObject.insert(QStringLiteral("team_id"), p.teamId);
        c.insert(QStringLiteral("team_id"), p.teamId);
    }
    if (!agentObject.isEmpty())
        c.insert(QStringLiteral("agent"), agentObject);
    return QJsonValue(c);
}

QJsonObject evaluationSummary(const RuleEvaluation &e)
{
    const QJsonObject ruleScope = e.visibility.value(QStringLiteral("rule_scope")).toObject();
    const QJsonObject lane = e.visibility.value(QStringLiteral("lane")).toObject();
    const QJsonObject tool = e.applied.policy.value(QStringLiteral("tool")).toObject();
    const QJsonArray allow = tool.value(QStringLiteral("allow")).toArray();
    const QJsonArray prefer = tool.value(QStringLiteral("prefer")).toArray();
    // The tool a selection over these rules would lead with: first preferred, else first allowed.
    const QJsonValue selected = !prefer.isEmpty()  ? prefer.first()
                                : !allow.isEmpty() ? allow.first()
                                                   : QJsonValue();
    return {
        {QStringLiteral("summary_version"), QStringLiteral("rules_evaluation_summary_v1")},
        {QStringLiteral("considered"), e.considered},
        {QStringLiteral("matched"), e.matched()},
        {QStringLiteral("active_count"), e.active.size()},
        {QStringLiteral("shadow_count"), e.shadow.size()},
        {QStringLiteral("skipped_invalid_then"), e.skippedInvalidThen},
        {QStringLiteral("filtered_by_scope"), ruleScope.value(QStringLiteral("filtered_by_scope"))},
        {QStringLiteral("filtered_by_lane"), ruleScope.value(QStringLiteral("filtered_by_lane"))},
        {QStringLiteral("filtered_by_condition"),
         ruleScope.value(QStringLiteral("filtered_by_condition"))},
        {QStringLiteral("lane_enforced"), lane.value(QStringLiteral("applied"))},
        {QStringLiteral("lane_reason"), lane.value(QStringLiteral("reason"))},
        {QStringLiteral("selected_tool"), selected},
        {QStringLiteral("allowed_tool_count"), allow.size()},
        {QStringLiteral("denied_tool_count"), tool.value(QStringLiteral("deny")).toArray().size()},
        {QStringLiteral("preferred_tool_count"), prefer.size()},
        {QStringLiteral("tool_conflicts"),
         QJsonArray::fromStringList(Rules::toolConflictsSummary(e.applied.toolExplain).mid(0, 3))}};
}

Result<RuleEvaluation> evaluate(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                const QJsonValue &context, bool includeShadow, int limit)
{
    // Draft and disabled rules are never evaluated (reference §2.6).
    auto loaded = RuleStore::rules(db, tenantId, scope, Vocabulary::evaluatedRuleStates(), limit);
    if (!loaded)
        return loaded.error();
    const ContextIdentity who(context.toObject());

    RuleEvaluation out;
    out.considered = int(loaded.value().size());
    FilterCounts counts;
    for (const RuleStore::StoredRule &r : loaded.value())
        considerRule(r, who, context, includeShadow, out, counts);
    std::sort(out.active.begin(), out.active.end(), ranksBefore);
    std::sort(out.shadow.begin(), out.shadow.end(), ranksBefore);
    out.applied = Rules::mergePolicies(forMerge(out.active, QStringLiteral("ACTIVE")));
    if (includeShadow)
        out.shadowApplied = Rules::mergePolicies(forMerge(out.shadow, QStringLiteral("SHADOW")));
    out.visibility = visibilityReport(out, who, counts);
    return out;
}

} // namespace MemoryGraph::RuleEvaluator
