#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>
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
    QJsonObject slotData; ///< the node's "slots" object ("slots" is a Qt keyword)
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
    QDateTime lastActivated; ///< invalid when never activated
    QDateTime occurredAt;    ///< when the content happened, if the writer said; invalid otherwise
    QString commitId;
    qint64 vectorLabel = 0;      ///< key in the scope's vector index
    qint64 embeddingVersion = 0; ///< store-wide counter value of the last embedding change

    /// slots.topic_state for topics ("active" when unset), empty for other types.
    QString topicState() const;
    /// occurred_at as people write it: "2025-03-03" for a day (midnight UTC), else the ISO
    /// date-time in UTC; empty when unset.
    QString occurredText() const;
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
    qint64 sequence = 0; ///< order within the scope's chain, from 1
    QString parentId;
    QString parentHash;
    QString inputSha256;
    QString diffSha256;
    QString actor;
    QString kind; ///< write, ...
    QString commitHash;
    QString uri;
    QDateTime createdAt;
    QJsonObject diff;
};

/// A rule node's evaluation state and feedback statistics.
struct RuleStatus
{
    QString state = QStringLiteral("shadow"); ///< draft | shadow | active | disabled (lower case)
    qint64 positive = 0;
    qint64 negative = 0;
    QDateTime lastMatchedAt;
    QString stateCommitId;
    QDateTime updatedAt;
};

/// A tools run (the distinct run_id of decisions) with decision and feedback counts
/// (reference §3.5).
struct RunSummary
{
    QString runId;
    QString status; ///< decision_recorded | feedback_linked
    qint64 decisionCount = 0;
    qint64 feedbackTotal = 0; ///< rule-feedback rows of the run (one per attributed rule)
    qint64 positive = 0;
    qint64 negative = 0;
    qint64 neutral = 0;
    QDateTime latestDecisionAt;
    QDateTime latestFeedbackAt; ///< invalid = no feedback
    QString latestSelectedTool; ///< empty = the latest decision selected nothing
    qint64 latestSeq = 0;       ///< the latest decision's sequence number (paging keyset)
};

/// A persisted tool-selection decision (spec §2.10).
struct DecisionRecord
{
    QString id;
    QString tenantId;
    QString scope;
    QString kind; ///< tools_select | feedback_derived
    QString runId;
    QString selectedTool; ///< empty = none selected
    QStringList candidates;
    QString contextSha256;
    QString policySha256;
    QStringList sourceRuleIds;
    QJsonObject metadata;
    QString commitId;
    QDateTime createdAt;
};

/// One feedback row attributed to a rule.
struct FeedbackRecord
{
    QString id;
    QString tenantId;
    QString scope;
    QString ruleNodeId;
    QString runId;
    QString outcome;
    QString note;
    QString source; ///< tools_feedback | rule_feedback
    QString decisionId;
    QString commitId;
    QDateTime createdAt;
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
