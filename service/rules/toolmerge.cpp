#include "service/rules/toolmerge.h"

#include "service/rules/jsonsemantics.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>

namespace MemoryGraph::Rules {

namespace {

struct Contribution
{
    const MatchedRule *rule = nullptr;
    QStringList allow;
    QStringList deny;
    QStringList prefer;
};

QJsonObject conflict(const QString &code, const QString &message, const QJsonArray &details,
                     const QString &winner)
{
    return {{QStringLiteral("code"), code},
            {QStringLiteral("message"), message},
            {QStringLiteral("details"), details},
            {QStringLiteral("winner_rule_node_id"),
             winner.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(winner)}};
}

QJsonObject contributionJson(const Contribution &c)
{
    const RuleRank &rank = c.rule->rank;
    return {{QStringLiteral("rule_node_id"), c.rule->ruleNodeId},
            {QStringLiteral("score"), rank.score},
            {QStringLiteral("evidence_score"), rank.evidenceScore},
            {QStringLiteral("priority"), rank.priority},
            {QStringLiteral("weight"), rank.weight},
            {QStringLiteral("specificity"), rank.specificity},
            {QStringLiteral("allow_n"), c.allow.size()},
            {QStringLiteral("deny_n"), c.deny.size()},
            {QStringLiteral("prefer_n"), c.prefer.size()},
            {QStringLiteral("first_prefer"),
             c.prefer.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(c.prefer.first())}};
}

QStringList intersectAllowLists(const QVector<const Contribution *> &allowRules)
{
    QStringList result = allowRules.first()->allow;
    for (const Contribution *c : allowRules) {
        const QSet<QString> set(c->allow.begin(), c->allow.end());
        result.erase(std::remove_if(result.begin(), result.end(),
                                    [&](const QString &t) { return !set.contains(t); }),
                     result.end());
    }
    std::sort(result.begin(), result.end(), localeLess);
    return result;
}

void mergeAllow(const QVector<Contribution> &contributions, QJsonObject *tool,
                QJsonArray *conflicts)
{
    QVector<const Contribution *> allowRules;
    for (const Contribution &c : contributions) {
        if (!c.allow.isEmpty())
            allowRules.append(&c);
    }
    if (allowRules.isEmpty())
        return;
    const QStringList allow = intersectAllowLists(allowRules);
    tool->insert(QStringLiteral("allow"), QJsonArray::fromStringList(allow));

    QJsonArray details;
    for (const Contribution *c : allowRules)
        details.append(QJsonObject{{QStringLiteral("rule_node_id"), c->rule->ruleNodeId},
                                   {QStringLiteral("score"), c->rule->rank.score},
                                   {QStringLiteral("allow_n"), c->allow.size()}});
    // Always reported, even for one rule, so callers can see an allowlist is in force.
    conflicts->append(conflict(
        QStringLiteral("allow_intersection"),
        QStringLiteral("effective allowlist is intersection of %1 rule allowlists (size=%2)")
            .arg(allowRules.size())
            .arg(allow.size()),
        details, QString()));
    if (allow.isEmpty())
        conflicts->append(conflict(
            QStringLiteral("allow_intersection_empty"),
            QStringLiteral("allowlists of %1 rules have no tool in common; the allowlist admits "
                           "no candidate")
                .arg(allowRules.size()),
            details, QString()));
}

void mergeDeny(const QVector<Contribution> &contributions, QJsonObject *tool,
               QJsonObject *denyByTool)
{
    QStringList deny;
    for (const Contribution &c : contributions) {
        for (const QString &name : c.deny) {
            // Contributions are in score-descending order: the first denier ranks highest.
            if (!denyByTool->contains(name)) {
                denyByTool->insert(name, c.rule->ruleNodeId);
                deny.append(name);
            }
        }
    }
    if (deny.isEmpty())
        return;
    std::sort(deny.begin(), deny.end(), localeLess);
    tool->insert(QStringLiteral("deny"), QJsonArray::fromStringList(deny));
}

void mergePrefer(const QVector<Contribution> &contributions, QJsonObject *tool,
                 QJsonObject *preferByTool, QJsonArray *conflicts)
{
    QStringList prefer;
    QStringList topChoices;
    QJsonArray details;
    const Contribution *winner = nullptr;
    for (const Contribution &c : contributions) {
        if (c.prefer.isEmpty())
            continue;
        if (!winner)
            winner = &c;
        if (!topChoices.contains(c.prefer.first()))
            topChoices.append(c.prefer.first());
        details.append(QJsonObject{{QStringLiteral("rule_node_id"), c.rule->ruleNodeId},
                                   {QStringLiteral("score"), c.rule->rank.score},
                                   {QStringLiteral("first_prefer"), c.prefer.first()}});
        for (const QString &name : c.prefer) {
            if (!preferByTool->contains(name)) {
                preferByTool->insert(name, c.rule->ruleNodeId);
                prefer.append(name);
            }
        }
    }
    if (prefer.isEmpty())
        return;
    tool->insert(QStringLiteral("prefer"), QJsonArray::fromStringList(prefer));
    if (topChoices.size() > 1)
        conflicts->append(conflict(
            QStringLiteral("prefer_competing_top_choice"),
            QStringLiteral("rules prefer different top tools (%1); the highest-ranked rule's "
                           "choice comes first")
                .arg(topChoices.join(QStringLiteral(", "))),
            details, winner->rule->ruleNodeId));
}

} // namespace

bool rankAscending(const MatchedRule &a, const MatchedRule &b)
{
    if (a.rank.score != b.rank.score)
        return a.rank.score < b.rank.score;
    return a.ruleNodeId < b.ruleNodeId;
}

bool rankDescending(const MatchedRule &a, const MatchedRule &b)
{
    if (a.rank.score != b.rank.score)
        return a.rank.score > b.rank.score;
    return a.ruleNodeId < b.ruleNodeId;
}

ToolPolicyMerge mergeToolPolicy(const QVector<MatchedRule> &matches)
{
    QVector<const MatchedRule *> ordered;
    for (const MatchedRule &rule : matches)
        ordered.append(&rule);
    std::sort(ordered.begin(), ordered.end(),
              [](const MatchedRule *a, const MatchedRule *b) { return rankDescending(*a, *b); });

    QVector<Contribution> contributions;
    for (const MatchedRule *rule : ordered) {
        const QJsonObject tool = rule->patch.value(u"tool").toObject();
        Contribution c;
        c.rule = rule;
        c.allow = normalizedNames(tool.value(u"allow").toArray());
        c.deny = normalizedNames(tool.value(u"deny").toArray());
        c.prefer = normalizedNames(tool.value(u"prefer").toArray());
        if (!c.allow.isEmpty() || !c.deny.isEmpty() || !c.prefer.isEmpty())
            contributions.append(c);
    }

    ToolPolicyMerge result;
    QJsonArray conflicts;
    QJsonObject preferByTool;
    QJsonObject denyByTool;
    mergeAllow(contributions, &result.tool, &conflicts);
    mergeDeny(contributions, &result.tool, &denyByTool);
    mergePrefer(contributions, &result.tool, &preferByTool, &conflicts);

    QJsonArray contributionsJson;
    for (const Contribution &c : contributions)
        contributionsJson.append(contributionJson(c));
    const QString note
        = result.tool.contains(u"allow")
              ? QStringLiteral(
                  "allowlist enforced: a candidate must appear in the allowlist of every "
                  "matched rule that has one (intersection)")
              : QStringLiteral(
                  "no allowlist enforced: every candidate not on a deny list is allowed");
    result.explain
        = {{QStringLiteral("notes"), QJsonArray{note}},
           {QStringLiteral("contributions"), contributionsJson},
           {QStringLiteral("winners"), QJsonObject{{QStringLiteral("prefer_by_tool"), preferByTool},
                                                   {QStringLiteral("deny_by_tool"), denyByTool}}},
           {QStringLiteral("conflicts"), conflicts}};
    return result;
}

} // namespace MemoryGraph::Rules
