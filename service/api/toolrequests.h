#pragma once

#include "service/core/result.h"

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

/// POST /v1/memory/rules/state: move a rule between SHADOW and ACTIVE (audited).
struct RuleStateRequest
{
    QString tenantId;
    QString scope;
    QString ruleNodeId;
    QString state; ///< shadow | active (lower case)
    QString actor;
    QString inputText;
    QString inputSha256;
    static Result<RuleStateRequest> fromJson(const QJsonObject &body);
};

} // namespace MemoryGraph
