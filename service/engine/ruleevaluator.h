#pragma once

#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/core/result.h"
#include "service/engine/ruledefinition.h"
#include "service/rules/policymerge.h"
#include "service/rules/rulerank.h"

#include <QJsonArray>
#include <QJsonObject>

class QSqlDatabase;

#include <optional>

namespace MemoryGraph {

/// A rule whose scope, lane and condition matched the context.
struct RuleMatch
{
    NodeRecord node;
    RuleStatus status;
    RuleDefinition definition;
    QJsonObject patch;            ///< validated then_json
    Rules::RuleRank rank;
    QStringList conditionPaths;
};

/// The outcome of evaluating a scope's rules against a context (spec §4.7).
struct RuleEvaluation
{
    int considered = 0;
    int skippedInvalidThen = 0;
    QJsonArray invalidThenSample;
    QJsonObject visibility;       ///< agent_visibility_summary
    QVector<RuleMatch> active;    ///< score DESC, id ASC
    QVector<RuleMatch> shadow;
    Rules::MergedPolicy applied;
    std::optional<Rules::MergedPolicy> shadowApplied;   ///< when shadow rules were included

    int matched() const { return int(active.size() + shadow.size()); }
};

namespace RuleEvaluator {

/// Scope filter, lane filter, condition, then_json schema; ranks and merges the matches.
Result<RuleEvaluation> evaluate(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                const QJsonValue &context, bool includeShadow, int limit);

/// Spec §5.1.4-5: fills context.agent.id / context.agent.team_id from the credential and
/// rejects a context naming another identity, or one the credential does not carry unless it is
/// a service account (403 identity_mismatch; see checkClaim).
Result<QJsonValue> withCallerIdentity(const QJsonValue &context, const RequestMeta &meta);

} // namespace RuleEvaluator
} // namespace MemoryGraph
