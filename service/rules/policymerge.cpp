#include "service/rules/policymerge.h"

#include "service/core/hashing.h"
#include "service/rules/toolmerge.h"

#include <QHash>
#include <QSet>

#include <algorithm>

namespace MemoryGraph::Rules {

namespace {

constexpr int kMaxConflictExplain = 50;
constexpr int kMaxLosers = 5;
constexpr int kMaxSummaryLines = 5;
constexpr int kMaxSummaryLength = 200;

QString childPath(const QString &path, const QString &key)
{
    return path == u"$" ? key : path + u'.' + key;
}

QJsonValue nullIfEmpty(const QString &text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

QJsonArray unionArrays(const QJsonArray &base, const QJsonArray &patch)
{
    QJsonArray out;
    QSet<QByteArray> seen;
    for (const QJsonArray *list : {&base, &patch}) {
        for (const QJsonValue &v : *list) {
            const QByteArray key = stableJson(v);
            if (!seen.contains(key)) {
                seen.insert(key);
                out.append(v);
            }
        }
    }
    return out;
}

// merge(base, patch): a missing side yields the other, arrays union, objects recurse, anything
// else is replaced by the patch and recorded as a conflict when the value actually changes.
QJsonValue mergeValue(const QJsonValue &base, const QJsonValue &patch, const QString &path,
                      const QString &ruleId, QJsonArray *conflicts)
{
    if (base.isUndefined())
        return patch;
    if (patch.isUndefined())
        return base;
    if (base.isArray() && patch.isArray())
        return unionArrays(base.toArray(), patch.toArray());
    if (base.isObject() && patch.isObject()) {
        const QJsonObject b = base.toObject();
        const QJsonObject p = patch.toObject();
        QJsonObject out = b;
        for (auto it = p.begin(); it != p.end(); ++it)
            out.insert(it.key(), mergeValue(b.value(it.key()), it.value(),
                                            childPath(path, it.key()), ruleId, conflicts));
        return out;
    }
    if (stableJson(base) != stableJson(patch))
        conflicts->append(QJsonObject{{QStringLiteral("path"), path},
                                      {QStringLiteral("winner_rule_node_id"), ruleId}});
    return patch;
}

// Leaf paths of a patch: arrays, primitives and empty objects are leaves.
void collectLeafPaths(const QJsonObject &object, const QString &prefix, QStringList *out)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QString path = prefix.isEmpty() ? it.key() : prefix + u'.' + it.key();
        if (it.value().isObject() && !it.value().toObject().isEmpty())
            collectLeafPaths(it.value().toObject(), path, out);
        else
            out->append(path);
    }
}

QJsonObject conflictExplainEntry(const QJsonObject &conflict,
                                 const QHash<QString, const MatchedRule *> &byId,
                                 const QVector<MatchedRule> &ordered,
                                 const QVector<QStringList> &touched)
{
    const QString path = conflict.value(u"path").toString();
    const QString winnerId = conflict.value(u"winner_rule_node_id").toString();
    const MatchedRule *winner = byId.value(winnerId);
    QJsonObject winnerJson{{QStringLiteral("rule_node_id"), winnerId}};
    if (winner) {
        winnerJson.insert(QStringLiteral("score"), winner->rank.score);
        winnerJson.insert(QStringLiteral("priority"), winner->rank.priority);
        winnerJson.insert(QStringLiteral("weight"), winner->rank.weight);
        winnerJson.insert(QStringLiteral("evidence_score"), winner->rank.evidenceScore);
        winnerJson.insert(QStringLiteral("specificity"), winner->rank.specificity);
    }
    QVector<MatchedRule> losers;
    for (qsizetype i = 0; i < ordered.size(); ++i) {
        if (ordered.at(i).ruleNodeId != winnerId && touched.at(i).contains(path))
            losers.append(ordered.at(i));
    }
    std::sort(losers.begin(), losers.end(), rankDescending);
    QJsonArray losersJson;
    for (qsizetype i = 0; i < losers.size() && i < kMaxLosers; ++i)
        losersJson.append(QJsonObject{{QStringLiteral("rule_node_id"), losers.at(i).ruleNodeId},
                                      {QStringLiteral("score"), losers.at(i).rank.score}});
    return {
        {QStringLiteral("path"), path},
        {QStringLiteral("winner"), winnerJson},
        {QStringLiteral("losers"), losersJson},
        {QStringLiteral("reason"),
         QStringLiteral("higher rank wins (priority > evidence*weight > condition_specificity)")}};
}

} // namespace

QJsonObject MergedPolicy::toJson(const QString &keyPrefix) const
{
    return {{keyPrefix + QStringLiteral("policy"), policy},
            {keyPrefix + QStringLiteral("sources"), sources},
            {keyPrefix + QStringLiteral("conflicts"), conflicts},
            {keyPrefix + QStringLiteral("conflict_explain"), conflictExplain},
            {keyPrefix + QStringLiteral("tool_explain"), toolExplain}};
}

MergedPolicy mergePolicies(const QVector<MatchedRule> &matches)
{
    QVector<MatchedRule> ordered = matches;
    std::sort(ordered.begin(), ordered.end(), rankAscending);

    MergedPolicy merged;
    QJsonValue policy(QJsonValue::Undefined);
    QVector<QStringList> touched;
    QHash<QString, const MatchedRule *> byId;
    for (const MatchedRule &rule : ordered) {
        policy = mergeValue(policy, rule.patch, QStringLiteral("$"), rule.ruleNodeId,
                            &merged.conflicts);
        QStringList paths;
        collectLeafPaths(rule.patch, QString(), &paths);
        std::sort(paths.begin(), paths.end());
        touched.append(paths);
        byId.insert(rule.ruleNodeId, &rule);
        merged.sources.append(
            QJsonObject{{QStringLiteral("rule_node_id"), rule.ruleNodeId},
                        {QStringLiteral("state"), rule.state},
                        {QStringLiteral("commit_id"), nullIfEmpty(rule.commitId)},
                        {QStringLiteral("touched_paths"), QJsonArray::fromStringList(paths)},
                        {QStringLiteral("rank"), rule.rank.toJson()}});
    }

    for (qsizetype i = 0; i < merged.conflicts.size() && i < kMaxConflictExplain; ++i)
        merged.conflictExplain.append(
            conflictExplainEntry(merged.conflicts.at(i).toObject(), byId, ordered, touched));

    // The generic union of tool lists is not what tools/select enforces; replace it.
    const ToolPolicyMerge tool = mergeToolPolicy(ordered);
    merged.policy = policy.toObject();
    merged.policy.insert(QStringLiteral("tool"), tool.tool);
    merged.toolExplain = tool.explain;
    return merged;
}

QStringList toolConflictsSummary(const QJsonObject &toolExplain)
{
    QStringList lines;
    const QJsonArray conflicts = toolExplain.value(u"conflicts").toArray();
    for (const QJsonValue &value : conflicts) {
        if (lines.size() >= kMaxSummaryLines)
            break;
        const QJsonObject conflict = value.toObject();
        QString line = u'[' + conflict.value(u"code").toString() + QStringLiteral("] ")
                       + conflict.value(u"message").toString();
        const QString winner = conflict.value(u"winner_rule_node_id").toString();
        if (!winner.isEmpty())
            line += QStringLiteral(" (winner=") + winner + u')';
        if (line.size() > kMaxSummaryLength)
            line = line.left(kMaxSummaryLength - 3) + QStringLiteral("...");
        lines.append(line);
    }
    return lines;
}

} // namespace MemoryGraph::Rules
