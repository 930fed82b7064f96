#pragma once

// Queries and pages of the operator console's browsing reads.

#include "service/core/records.h"

#include <QDateTime>
#include <QStringList>
#include <QVector>

namespace MemoryGraph {

/// Filter and page for the node browser.
struct NodeQuery
{
    QString tenantId;
    QString scope;
    QString text; ///< substring of title, summary or client_id; empty = all
    QString type; ///< exact type; empty = all
    QString tier; ///< exact tier; empty = all
    QString lane; ///< exact lane; empty = all
    int offset = 0;
    int limit = 100;
};

struct NodePage
{
    QVector<NodeRecord> nodes;
    qint64 total = 0;
};

/// A node with the edges that touch it.
struct NodeDetail
{
    NodeRecord node;
    QVector<EdgeRecord> edges;
};

/// Nodes around some centre nodes, for the graph view.
struct GraphNeighbourhood
{
    QVector<NodeRecord> nodes; ///< centres first, then by hop distance
    QVector<EdgeRecord> edges; ///< edges among the returned nodes
    bool truncated = false;    ///< more nodes were reachable than maxNodes
};

/// A batch of a scope's most salient nodes, for the graph view's overview.
struct SalientNodePage
{
    QVector<NodeRecord> nodes; ///< most salient first
    /// Edges from the batch to itself and to the nodes ranked before it, so batches drawn one
    /// after another show every edge among the nodes drawn.
    QVector<EdgeRecord> edges;
    qint64 total = 0; ///< nodes in the scope
};

/// A rule with its state and statistics, for the rules table.
struct RuleSummary
{
    NodeRecord node;
    RuleStatus status;
};

/// Filter for the decisions view.
struct DecisionQuery
{
    QString tenantId;
    QString scope;
    QString runId;
    QString tool;
    QDateTime since;
    int limit = 500;
};

struct HealthInfo
{
    QString version;
    QString storageBackend;
    QString authMode;
    qint64 nodes = 0;
    qint64 edges = 0;
    qint64 commits = 0;
    qint64 scopes = 0;
};

} // namespace MemoryGraph
