#pragma once

#include "service/core/jsonbody.h"
#include "service/core/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>

#include <optional>

namespace MemoryGraph {

struct WriteNodeInput
{
    QJsonObject raw; ///< the node object as sent (used for content-derived ids)
    QString id;      ///< without client_id: an existing node of the scope to update
    QString clientId;
    QString scope; ///< optional; must equal the request scope
    QString type;
    QString tier;       ///< empty: hot
    QString memoryLane; ///< empty: request lane
    QString producerAgentId;
    QString ownerAgentId;
    QString ownerTeamId;
    QString title;
    QString textSummary;
    QString rawRef;
    QString evidenceRef;
    QString embeddingModel;
    QJsonObject slotData; ///< the node's "slots" object ("slots" is a Qt keyword)
    std::optional<double> salience;
    std::optional<double> importance;
    std::optional<double> confidence;
    QVector<float> embedding; ///< empty, or exactly 1536 finite numbers
    QDateTime occurredAt;     ///< occurred_at: when the content happened (UTC); invalid = not given
};

struct EdgeEndpoint
{
    QString id;
    QString clientId;
};

struct WriteEdgeInput
{
    QString id; ///< optional; must repeat the id of the edge being written
    QString type;
    EdgeEndpoint src;
    EdgeEndpoint dst;
    std::optional<double> weight;
    std::optional<double> confidence;
    std::optional<double> decayRate;
};

/// A validated POST /v1/memory/write body (spec §4.2).
struct WriteRequest
{
    QJsonObject raw; ///< the body as sent, minus tenant and scope (identifies a re-send)
    QString tenantId;
    QString scope;
    QString actor;
    QString inputText;
    QString inputSha256;
    QString memoryLane;
    QString producerAgentId;
    QString ownerAgentId;
    QString ownerTeamId;
    std::optional<bool> autoEmbed;
    bool nodesGiven = false;
    QVector<WriteNodeInput> nodes;
    QVector<WriteEdgeInput> edges;

    /// Validates field types, enums and bounds; the error names the first bad field.
    /// `vectors`: the embeddings parseJsonBody() decoded from the same body.
    static Result<WriteRequest> fromJson(const QJsonObject &body, int maxTextLength = 8000,
                                         const DecodedVectors *vectors = nullptr);
};

struct WarningInfo
{
    QString code;
    QString message;
    QJsonObject details;
};

struct WrittenNode
{
    QString id;
    QString uri;
    QString clientId;
    QString type;
};

struct WrittenEdge
{
    QString id;
    QString uri;
    QString type;
    QString srcId;
    QString dstId;
};

/// A vector that changed in a commit, to be mirrored into the scope's index.
struct EmbeddingChange
{
    QString tenantId;
    QString scope;
    qint64 label = 0;
    qint64 version = 0;
    QByteArray vector; ///< float32; empty = removed
};

struct WriteResult
{
    QString tenantId;
    QString scope;
    QString commitId;
    QString commitUri;
    QString commitHash;
    bool replayed = false; ///< identical re-send: the earlier commit was returned, nothing written
    QVector<WrittenNode> nodes;
    QVector<WrittenEdge> edges;
    int pendingEmbeddings = 0;
    QVector<WarningInfo> warnings;
    QVector<EmbeddingChange> embeddingChanges; ///< internal: not part of the response
};

} // namespace MemoryGraph
