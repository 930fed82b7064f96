#pragma once

#include "service/tools/toolengine.h"

#include <QJsonObject>

namespace MemoryGraph::Dto {

// Whitelisted bodies for rules and tools (spec §2.6, §4.7-4.11).
QJsonObject ruleMatch(const RuleMatch &match);
QJsonObject rulesEvaluate(const RulesEvaluateOutcome &outcome);
/// The `rules` block of a recall with rules_context (spec §4.3).
QJsonObject recallRules(const QString &scope, const RuleEvaluation &evaluation);
QJsonObject decisionBody(const DecisionRecord &decision);
QJsonObject toolSelect(const ToolSelectOutcome &outcome, const QString &requestId);
QJsonObject toolFeedback(const ToolFeedbackOutcome &outcome);
QJsonObject toolDecision(const DecisionLookup &lookup, const QString &requestId);
QJsonObject toolRun(const RunOutcome &outcome, const QString &requestId);
/// tools/runs/list: {tenant_id, scope, items[{run_id, status, decision_count, feedback_total,
/// feedback_by_outcome, latest_decision_at, latest_feedback_at, latest_selected_tool}],
/// next_cursor}.
QJsonObject toolRunsList(const RunListOutcome &outcome);
QJsonObject ruleState(const RuleStateOutcome &outcome);

} // namespace MemoryGraph::Dto
