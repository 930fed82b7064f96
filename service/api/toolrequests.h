#pragma once

#include "service/core/result.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <optional>

namespace MemoryGraph {

/// POST /v1/memory/rules/evaluate (spec §4.7).
struct RulesEvaluateRequest
{
    QString tenantId;
    QString scope;
    QJsonValue context;
    bool includeShadow = true;
    int limit = 50;
    static Result<RulesEvaluateRequest> fromJson(const QJsonObject &body);
};

/// Continuity fields a resumed run carries (spec §4.8, §4.13): passed through unchanged.
struct Continuity
{
    QJsonObject fields; ///< only the keys that were sent
    static bool read(const QJsonObject &body, Continuity *out, class JsonReader &reader);
};

/// POST /v1/memory/tools/select (spec §4.8).
struct ToolSelectRequest
{
    QString tenantId;
    QString scope;
    QString runId;
    QJsonObject context;
    QStringList candidates; ///< trimmed, de-duplicated, 1..200
    bool includeShadow = false;
    int rulesLimit = 50;
    bool strict = true;
    Continuity continuity;
    static Result<ToolSelectRequest> fromJson(const QJsonObject &body);
};

/// POST /v1/memory/tools/feedback (spec §4.9).
struct ToolFeedbackRequest
{
    QString tenantId;
    QString scope;
    QString actor;
    QString runId;
    QString decisionId;
    QString decisionUri;
    QJsonValue context;
    QStringList candidates;
    QString selectedTool;
    QString outcome;
    QString target = QStringLiteral("tool");
    bool includeShadow = false;
    int rulesLimit = 50;
    QString note;
    QString inputText;
    QString inputSha256;
    static Result<ToolFeedbackRequest> fromJson(const QJsonObject &body, int maxTextLength);
};

/// POST /v1/memory/tools/decision (spec §4.10).
struct ToolDecisionRequest
{
    QString tenantId;
    QString scope;
    QString decisionId;
    QString decisionUri;
    QString runId;
    static Result<ToolDecisionRequest> fromJson(const QJsonObject &body);
};

/// POST /v1/memory/tools/run (spec §4.11).
struct ToolRunRequest
{
    QString tenantId;
    QString scope;
    QString runId;
    int decisionLimit = 10;
    bool includeFeedback = true;
    int feedbackLimit = 50;
    static Result<ToolRunRequest> fromJson(const QJsonObject &body);
};

/// POST /v1/memory/tools/runs/list (reference §3.5, plus filters and keyset paging): the scope's
/// runs (distinct run_ids of its decisions), latest decision first.
struct ToolRunsListRequest
{
    QString tenantId;
    QString scope;
    int limit = 20;
    QString status;       ///< decision_recorded | feedback_linked; empty = any
    QString selectedTool; ///< the run's latest selected tool; empty = any
    QDateTime since;      ///< latest decision at or after; invalid = any
    QDateTime until;      ///< latest decision before; invalid = any
    qint64 afterMs = 0;   ///< from cursor: the page starts after (afterMs, afterSeq)
    qint64 afterSeq = 0;  ///< 0 = first page
    static Result<ToolRunsListRequest> fromJson(const QJsonObject &body);
    /// The opaque next_cursor that continues after a run with this latest decision.
    static QString cursorFor(qint64 latestMs, qint64 seq);
};

/// POST /v1/memory/rules/state: move a rule to DRAFT, SHADOW, ACTIVE or DISABLED (audited).
/// Only shadow and active rules are ever evaluated (reference §2.6).
struct RuleStateRequest
{
    QString tenantId;
    QString scope;
    QString ruleNodeId;
    QString state; ///< draft | shadow | active | disabled (lower case)
    QString actor;
    QString inputText;
    QString inputSha256;
    static Result<RuleStateRequest> fromJson(const QJsonObject &body);
};

} // namespace MemoryGraph
