#pragma once

// An automation's graph (reference §8.1, §8.2): parsing its shape, the validation issues, the
// topological order runs follow, and the `$nodes.<id>.<path>` / `$params.<path>` bindings.

#include "service/core/result.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <QVector>

namespace MemoryGraph {

struct AutomationGraphNode
{
    QString nodeId;
    QString kind; ///< playbook | approval | condition | artifact_gate
    QJsonObject raw;
};

struct AutomationGraphEdge
{
    QString from;
    QString to;
    QString type; ///< depends_on | on_success | on_failure (the last is reported unsupported)
};

struct AutomationGraph
{
    QVector<AutomationGraphNode> nodes;
    QVector<AutomationGraphEdge> edges;
    QJsonObject raw; ///< the graph as given (normalised edge types)

    const AutomationGraphNode *node(const QString &id) const;
    /// Nodes a node waits for (edge sources into it), sorted.
    QStringList dependenciesOf(const QString &id) const;
};

struct AutomationGraphCheck
{
    QStringList nodeIds;
    QStringList startNodeIds;
    QStringList topologicalOrder;
    QJsonArray issues; ///< [{code, message, node_id?, edge_index?, ...}]

    bool valid() const { return issues.isEmpty(); }
    /// {node_ids, start_node_ids, topological_order, issues}
    QJsonObject toJson() const;
    /// 400 automation_graph_invalid with details.issues (and the partial order).
    Error error() const;
};

namespace AutomationGraphs {

const QStringList &nodeKinds();
const QStringList &edgeTypes();
const QStringList &playbookModes();

/// The graph's shape: field errors are 400 invalid_request naming the field
/// ("graph.nodes[1].kind").
Result<AutomationGraph> parse(const QJsonValue &graph,
                              const QString &path = QStringLiteral("graph"));

/// Every issue of reference §8.2; the order is Kahn's with alphabetical ties.
AutomationGraphCheck check(const AutomationGraph &graph);

/// Node ids a value's `$nodes.<id>...` bindings name (any depth).
QStringList boundNodeIds(const QJsonValue &value);

/// Replaces every binding string (any depth) by the value it names: `$params.<path>` in params,
/// `$nodes.<id>[.<path>]` in that node's output. An unresolved binding becomes null.
QJsonValue bind(const QJsonValue &value, const QJsonObject &params,
                const QHash<QString, QJsonObject> &outputs);

/// The value at a dotted path ("a.b.0.c") in value; undefined when absent.
QJsonValue valueAt(const QJsonValue &value, const QString &path);

} // namespace AutomationGraphs
} // namespace MemoryGraph
