#pragma once

#include "service/core/result.h"

#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace MemoryGraph {

/// The nodes an archive/rehydrate or nodes/activate call names (spec §4.5, §4.6).
struct NodeTargets
{
    QStringList nodeIds;   ///< lower-cased UUIDs, de-duplicated, in request order
    QStringList clientIds; ///< trimmed, de-duplicated, in request order
};

/// POST /v1/memory/archive/rehydrate (spec §4.5).
struct RehydrateRequest
{
    QString tenantId;
    QString scope;
    QString actor;
    NodeTargets targets;
    QString targetTier = QStringLiteral("warm"); ///< warm | hot
    QString reason;
    QString inputText;
    QString inputSha256;
    static Result<RehydrateRequest> fromJson(const QJsonObject &body, int maxTextLength);
};

/// POST /v1/memory/nodes/activate (spec §4.6).
struct NodesActivateRequest
{
    QString tenantId;
    QString scope;
    QString actor;
    NodeTargets targets;
    QString runId;
    QString outcome = QStringLiteral("neutral"); ///< positive | negative | neutral
    bool activate = true;
    QString reason;
    QString inputText;
    QString inputSha256;
    static Result<NodesActivateRequest> fromJson(const QJsonObject &body, int maxTextLength);
};

/// An operator's edit of one node (DESIGN decision 4). Unset fields keep their stored value;
/// an empty owner id clears that owner.
struct NodeEditRequest
{
    QString tenantId;
    QString scope;
    QString actor;
    QString nodeId;
    std::optional<QString> title;
    std::optional<QString> textSummary;
    std::optional<QString> tier;
    std::optional<QString> memoryLane;
    std::optional<QString> ownerAgentId;
    std::optional<QString> ownerTeamId;
    std::optional<double> salience;
    std::optional<double> importance;
    std::optional<double> confidence;
    std::optional<QJsonObject> slotData;
    QString reason;
    QString inputText; ///< what the operator did, audited as the commit input
};

/// An operator's removal of one node with its edges and vector (DESIGN decision 4); also
/// POST /v1/memory/forget and the MCP forget tool.
struct NodeForgetRequest
{
    QString tenantId;
    QString scope;
    QString actor;
    QString nodeId;
    QString reason;
    QString inputText;
    QString inputSha256;
    static Result<NodeForgetRequest> fromJson(const QJsonObject &body, int maxTextLength);
};

} // namespace MemoryGraph
