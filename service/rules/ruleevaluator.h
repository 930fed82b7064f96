#pragma once

#include "service/api/ruleevaluation.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/core/result.h"
#include "service/rules/policymerge.h"
#include "service/rules/ruledefinition.h"
#include "service/rules/rulerank.h"

#include <QJsonArray>
#include <QJsonObject>

class QSqlDatabase;

#include <optional>

namespace MemoryGraph {

namespace RuleEvaluator {

/// Scope filter, lane filter, condition, then_json schema; ranks and merges the matches.
Result<RuleEvaluation> evaluate(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                const QJsonValue &context, bool includeShadow, int limit);

/// evaluation_summary (reference §10.2, rules_evaluation_summary_v1): the counts, the lane
/// verdict and the effective tool policy in one flat object a caller can log.
QJsonObject evaluationSummary(const RuleEvaluation &evaluation);

/// Spec §5.1.4-5: fills context.agent.id / context.agent.team_id from the credential and
/// rejects a context naming another identity, or one the credential does not carry unless it is
/// a service account (403 identity_mismatch; see checkClaim).
Result<QJsonValue> withCallerIdentity(const QJsonValue &context, const RequestMeta &meta);

} // namespace RuleEvaluator
} // namespace MemoryGraph
