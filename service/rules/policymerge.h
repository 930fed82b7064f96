#pragma once

#include "service/rules/rulerank.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

/// Merging the patches of matched rules into one policy (reference §2.4, §2.5).
namespace MemoryGraph::Rules {

/// A rule that passed scope, lane and condition filtering, with its validated then_json.
struct MatchedRule
{
    QString ruleNodeId;
    QString state;     ///< "active" or "shadow"
    QString commitId;  ///< rule-definition commit; empty is emitted as null
    QJsonObject patch; ///< validated then_json (see validatePolicyPatch)
    RuleRank rank;
};

struct MergedPolicy
{
    QJsonObject policy;   ///< always has "tool" (computed by the tool semantics)
    QJsonArray sources;   ///< merge order: {rule_node_id, state, commit_id, touched_paths, rank}
    QJsonArray conflicts; ///< {path, winner_rule_node_id}
    QJsonArray conflictExplain; ///< at most 50: {path, winner, losers, reason}
    QJsonObject toolExplain;    ///< {notes, contributions, winners, conflicts}

    /// {policy, sources, conflicts, conflict_explain, tool_explain}, each key prefixed with
    /// keyPrefix (e.g. "shadow_") so active and shadow results can share one applied object.
    QJsonObject toJson(const QString &keyPrefix = QString()) const;
};

/// Merges in ascending rank (score, then rule id), so the highest-ranked rule applies last and
/// wins scalar conflicts; arrays are unioned. policy.tool is then replaced by the tool semantics:
/// allow = intersection (sorted), deny = union (sorted), prefer = concatenation by score desc.
/// With no matches the policy is exactly {"tool":{}}.
MergedPolicy mergePolicies(const QVector<MatchedRule> &matches);

/// At most 5 lines "[code] message (winner=id)" from toolExplain.conflicts, each cut to 200
/// characters (197 + "...").
QStringList toolConflictsSummary(const QJsonObject &toolExplain);

} // namespace MemoryGraph::Rules
