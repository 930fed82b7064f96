#pragma once

#include "service/core/result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <optional>

namespace MemoryGraph {

class JsonReader;

/// Who reads replay records: lane visibility follows recall's consumer rules (spec §4.3.2.3).
struct ReplayConsumer
{
    QString agentId; ///< consumer_agent_id
    QString teamId;  ///< consumer_team_id
    bool read(JsonReader &reader);
};

/// Fields every replay write shares: where, who, and the identity the written nodes carry.
/// input_text / input_sha256 are optional here: when both are absent the engine derives an
/// input_text from the record (goal, tool name, status), as the reference does.
struct ReplayWriteCommon
{
    QString tenantId;
    QString scope;
    QString actor; ///< default replay_api
    QString inputText;
    QString inputSha256;
    QString memoryLane; ///< private | shared; empty = the write path's default
    QString producerAgentId;
    QString ownerAgentId;
    QString ownerTeamId;
    ReplayConsumer consumer;
    bool read(JsonReader &reader, int maxTextLength);
};

/// POST /v1/memory/replay/run/start (reference §7.1).
struct ReplayRunStartRequest
{
    ReplayWriteCommon common;
    QString runId; ///< empty = a new random UUID
    QString goal;
    QString contextSnapshotRef;
    QString contextSnapshotHash; ///< 64 lower-case hex digits
    QJsonObject metadata;
    static Result<ReplayRunStartRequest> fromJson(const QJsonObject &body,
                                                  int maxTextLength = 8000);
};

/// POST /v1/memory/replay/step/before.
struct ReplayStepBeforeRequest
{
    ReplayWriteCommon common;
    QString runId;
    QString stepId; ///< empty = a new random UUID
    QString decisionId;
    int stepIndex = 1;
    QString toolName;
    QJsonValue toolInput; ///< any JSON; null when absent
    QJsonValue expectedOutputSignature;
    QJsonArray preconditions; ///< objects, at most 200
    QJsonObject retryPolicy;
    bool retryPolicyGiven = false;
    QString safetyLevel = QStringLiteral("needs_confirm");
    QJsonObject metadata;
    static Result<ReplayStepBeforeRequest> fromJson(const QJsonObject &body,
                                                    int maxTextLength = 8000);
};

/// POST /v1/memory/replay/step/after.
struct ReplayStepAfterRequest
{
    ReplayWriteCommon common;
    QString runId;
    QString stepId; ///< this or stepIndex names the step
    std::optional<int> stepIndex;
    QString status; ///< success | failed | skipped | partial
    QJsonValue outputSignature;
    QJsonArray postconditions; ///< objects, at most 200
    QStringList artifactRefs;  ///< at most 200
    bool repairApplied = false;
    QString repairNote;
    QString error;
    QJsonObject metadata;
    static Result<ReplayStepAfterRequest> fromJson(const QJsonObject &body,
                                                   int maxTextLength = 8000);
};

/// POST /v1/memory/replay/run/end.
struct ReplayRunEndRequest
{
    ReplayWriteCommon common;
    QString runId;
    QString status; ///< success | failed | partial
    QString summary;
    QJsonObject successCriteria;
    QJsonObject metrics;
    QJsonObject metadata;
    static Result<ReplayRunEndRequest> fromJson(const QJsonObject &body, int maxTextLength = 8000);
};

/// POST /v1/memory/replay/runs/get (spec §4.12).
struct ReplayRunGetRequest
{
    QString tenantId;
    QString scope;
    QString runId;
    bool includeSteps = true;
    bool includeArtifacts = true;
    ReplayConsumer consumer;
    static Result<ReplayRunGetRequest> fromJson(const QJsonObject &body);
};

namespace ReplayVocabulary {
const QStringList &safetyLevels();
const QStringList &stepStatuses();
const QStringList &runEndStatuses();
constexpr int kMaxConditions = 200;
constexpr int kMaxArtifactRefs = 200;
} // namespace ReplayVocabulary

} // namespace MemoryGraph
