#pragma once

// Outcomes of rules evaluation, tool selection, feedback, decision and run reads (spec §4.7-4.11).

#include "service/api/callscopetypes.h"
#include "service/api/ruleevaluation.h"
#include "service/core/records.h"
#include "service/rules/toolpolicy.h"

#include <QDateTime>
#include <QJsonObject>

#include <optional>

namespace MemoryGraph {

struct RulesEvaluateOutcome
{
    CallScope scope;
    RuleEvaluation evaluation;
};

struct ToolSelectOutcome
{
    CallScope scope;
    QStringList candidates; ///< after control-profile filtering
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
    QString linkMode; ///< provided | inferred | created_from_feedback
};

struct DecisionLookup
{
    CallScope scope;
    QString lookupMode; ///< decision_id | decision_uri | run_id
    DecisionRecord decision;
};

struct RunOutcome
{
    CallScope scope;
    QString runId;
    QString status; ///< decision_recorded | feedback_linked
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

struct RunListOutcome
{
    CallScope scope;
    QVector<RunSummary> items;
    QString nextCursor; ///< empty on the last page
};

struct RuleStateOutcome
{
    CallScope scope;
    CommitRecord commit;
    QString state;
};

} // namespace MemoryGraph
