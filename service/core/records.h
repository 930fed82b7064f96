#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>

#include <optional>

namespace MemoryGraph {

/// A stored memory node, as the core sees it (embedding vector excluded).
struct NodeRecord
{
    QString id;
    QString tenantId;
    QString scope;
    QString clientId;
    QString type;
    QString tier;
    QString memoryLane;
    QString producerAgentId;
    QString ownerAgentId;
    QString ownerTeamId;
    QString title;
    QString textSummary;
    QJsonObject slotData;   ///< the node's "slots" object ("slots" is a Qt keyword)
    QString rawRef;
    QString evidenceRef;
    QString embeddingStatus;
    QString embeddingModel;
    QString embeddingError;
    double salience = 0.5;
    double importance = 0.5;
    double confidence = 0.5;
    QDateTime createdAt;
    QDateTime updatedAt;
    QDateTime lastActivated;   ///< invalid when never activated
    QString commitId;
    qint64 vectorLabel = 0;      ///< key in the scope's vector index
    qint64 embeddingVersion = 0; ///< store-wide counter value of the last embedding change

    /// slots.topic_state for topics ("active" when unset), empty for other types.
    QString topicState() const;
    /// slots.member_count for topics, if present.
    std::optional<int> memberCount() const;
    /// The text an embedding provider embeds for this node (title first for named things).
    QString embedText() const;
};

struct EdgeRecord
{
    QString id;
    QString tenantId;
    QString scope;
    QString type;
    QString fromId;
    QString toId;
    double weight = 0.5;
    double confidence = 0.5;
    double decayRate = 0.01;
    QString commitId;
    QDateTime createdAt;
};

struct CommitRecord
{
    QString id;
    QString tenantId;
    QString scope;
    qint64 sequence = 0;      ///< order within the scope's chain, from 1
    QString parentId;
    QString parentHash;
    QString inputSha256;
    QString diffSha256;
    QString actor;
    QString kind;             ///< write, ...
    QString commitHash;
    QString uri;
    QDateTime createdAt;
    QJsonObject diff;
};

/// One (tenant, scope) pair with its record counts.
struct ScopeSummary
{
    QString tenantId;
    QString scope;
    qint64 nodeCount = 0;
    qint64 edgeCount = 0;
    qint64 commitCount = 0;
};

} // namespace MemoryGraph
