#pragma once

#include "service/core/records.h"
#include "service/core/result.h"

#include <QHash>
#include <QSqlDatabase>

#include <functional>

namespace MemoryGraph::RuleStore {

/// Creates the rule's state row (shadow) if it has none.
Result<void> ensureRuleDef(QSqlDatabase &db, const NodeRecord &rule);
Result<QHash<QString, RuleStatus>> statuses(QSqlDatabase &db, const QStringList &ruleIds);

struct StoredRule
{
    NodeRecord node;
    RuleStatus status;
};

/// Rules of the scope in the given states, most recently updated first, at most limit.
Result<QVector<StoredRule>> rules(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                  const QStringList &states, int limit);
Result<void> setState(QSqlDatabase &db, const QString &ruleId, const QString &state,
                      const QString &commitId);
/// Adds one to positive or negative (neutral changes nothing) and stamps the rule.
Result<void> recordOutcome(QSqlDatabase &db, const QString &ruleId, const QString &outcome);
Result<void> markMatched(QSqlDatabase &db, const QStringList &ruleIds);

Result<void> insertDecision(QSqlDatabase &db, const DecisionRecord &decision);
Result<void> updateDecisionLink(QSqlDatabase &db, const QString &decisionId, const QString &runId,
                                const QString &commitId);
Result<std::optional<DecisionRecord>> decision(QSqlDatabase &db, const QString &tenantId,
                                               const QString &scope, const QString &decisionId);
/// Newest first.
Result<QVector<DecisionRecord>> decisionsForRun(QSqlDatabase &db, const QString &tenantId,
                                                const QString &scope, const QString &runId,
                                                int limit);
Result<qint64> decisionCountForRun(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                                   const QString &runId);
/// Newest decisions with this tool and context hash (candidates are compared by the caller).
Result<QVector<DecisionRecord>> decisionsLike(QSqlDatabase &db, const QString &tenantId,
                                              const QString &scope, const QString &selectedTool,
                                              const QString &contextSha256, qint64 sinceMs,
                                              int limit);

struct DecisionFilter
{
    QString tenantId;
    QString scope;
    QString runId;      ///< exact; empty = any
    QString tool;       ///< exact selected tool; empty = any
    qint64 sinceMs = 0; ///< created at or after; 0 = any
    int limit = 200;
};
Result<QVector<DecisionRecord>> listDecisions(QSqlDatabase &db, const DecisionFilter &filter);

struct RunFilter
{
    QString tenantId;
    QString scope;
    QString status;       ///< decision_recorded | feedback_linked; empty = any
    QString selectedTool; ///< the latest decision's tool; empty = any
    qint64 sinceMs = 0;   ///< latest decision at or after; 0 = any
    qint64 untilMs = 0;   ///< latest decision before; 0 = any
    qint64 afterMs = 0;   ///< keyset: only runs ordered after (afterMs, afterSeq); 0 = from top
    qint64 afterSeq = 0;
    int limit = 20;
};
/// The scope's runs (distinct run_ids of its decisions) with decision and feedback counts,
/// latest decision first (ties: the newer decision row first), at most limit.
Result<QVector<RunSummary>> runSummaries(QSqlDatabase &db, const RunFilter &filter);

Result<void> insertFeedback(QSqlDatabase &db, const FeedbackRecord &feedback);
/// Newest first.
Result<QVector<FeedbackRecord>> feedbackWhere(QSqlDatabase &db, const QString &tenantId,
                                              const QString &scope, const QString &column,
                                              const QString &value, int limit);
Result<qint64> feedbackCount(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                             const QString &column, const QString &value,
                             const QString &extra = {});

// Streaming reads for the scope export: visitors return false to stop the walk early.

/// A scope's rule state rows in creation order, with their created_at.
Result<void> visitRuleStates(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                             const std::function<bool(const QString &ruleNodeId, const RuleStatus &,
                                                      const QDateTime &)> &visit);
/// A scope's decisions, oldest first (their recording order).
Result<void> visitDecisions(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                            const std::function<bool(const DecisionRecord &)> &visit);
/// A scope's rule feedback rows, oldest first.
Result<void> visitFeedback(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                           const std::function<bool(const FeedbackRecord &)> &visit);

} // namespace MemoryGraph::RuleStore
