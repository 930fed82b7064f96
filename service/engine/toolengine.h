#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/engine/callscope.h"
#include "service/engine/ruleevaluator.h"
#include "service/engine/toolrequests.h"
#include "service/rules/toolpolicy.h"

namespace MemoryGraph {

class Database;

struct RulesEvaluateOutcome
{
    CallScope scope;
    RuleEvaluation evaluation;
};

struct ToolSelectOutcome
{
    CallScope scope;
    QStringList candidates;                      ///< after control-profile filtering
    Rules::ToolSelection selection;
    RuleEvaluation rules;
    QStringList toolConflictsSummary;
    std::optional<Rules::ToolSelection> shadowSelection;
    QStringList shadowToolConflictsSummary;
    DecisionRecord decision;
    QJsonObject executionKernel;
    QJsonObject selectionSummary;
    QJsonObject continuity;
};

struct ToolFeedbackOutcome
{
    CallScope scope;
    QStringList ruleIds;
    CommitRecord commit;
    DecisionRecord decision;
    QString linkMode;   ///< provided | inferred | created_from_feedback
};

struct DecisionLookup
{
    CallScope scope;
    QString lookupMode;   ///< decision_id | decision_uri | run_id
    DecisionRecord decision;
};

struct RunOutcome
{
    CallScope scope;
    QString runId;
    QString status;       ///< decision_recorded | feedback_linked
    qint64 decisionCount = 0;
    QVector<DecisionRecord> decisions;
    bool includeFeedback = true;
    int decisionLimit = 10;
    int feedbackLimit = 50;
    qint64 feedbackTotal = 0;
    qint64 positive = 0;
    qint64 negative = 0;
    qint64 neutral = 0;
    qint64 linkedDecisionCount = 0;
    qint64 toolsFeedbackCount = 0;
    QVector<FeedbackRecord> recentFeedback;
    QDateTime latestDecisionAt;
    QDateTime latestFeedbackAt;
};

struct RuleStateOutcome
{
    CallScope scope;
    CommitRecord commit;
    QString state;
};

/// Rules evaluation, tool selection with persisted decisions, feedback attribution, decision
/// and run reads, and rule state changes (spec §4.7-4.11).
class ToolEngine
{
public:
    ToolEngine(Database &db, const ServiceConfig &config);

    Result<RulesEvaluateOutcome> evaluate(const RulesEvaluateRequest &request, const RequestMeta &meta);
    Result<ToolSelectOutcome> select(const ToolSelectRequest &request, const RequestMeta &meta);
    Result<ToolFeedbackOutcome> feedback(const ToolFeedbackRequest &request, const RequestMeta &meta);
    Result<DecisionLookup> decision(const ToolDecisionRequest &request, const RequestMeta &meta);
    Result<RunOutcome> run(const ToolRunRequest &request, const RequestMeta &meta);
    Result<RuleStateOutcome> setRuleState(const RuleStateRequest &request, const RequestMeta &meta);

private:
    Database &m_db;
    const ServiceConfig &m_config;
};

} // namespace MemoryGraph
