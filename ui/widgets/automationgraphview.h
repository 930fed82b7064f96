#pragma once

#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QRectF>
#include <QStringList>
#include <QWidget>

namespace MemoryGraph::Ui {

/// An automation's graph drawn left to right: one column per dependency depth, nodes coloured
/// by kind with their position in the topological order, edges as arrows, and validation
/// issues marked on the nodes they name (a red outline and a "!" badge; the tooltip says why).
/// With node states (a run) each node also shows its state or outcome.
class AutomationGraphView : public QWidget
{
    Q_OBJECT
public:
    explicit AutomationGraphView(QWidget *parent = nullptr);

    /// The graph ({nodes, edges}), the issues of its validation and its topological order.
    void setGraph(const QJsonObject &graph, const QJsonArray &issues = {},
                  const QStringList &order = {});
    /// Run state per node id ("succeeded", "paused_for_approval", ...); empty = none.
    void setNodeStates(const QHash<QString, QString> &states);
    void clear();

    QStringList nodeIds() const { return m_ids; }
    /// Node ids an issue names.
    QStringList flaggedNodeIds() const { return m_issues.keys(); }
    /// Where a node is drawn (widget coordinates); null when it is not.
    QRectF nodeRect(const QString &nodeId) const;

    QSize sizeHint() const override { return {520, 260}; }

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    void layoutNodes();

    QStringList m_ids;
    QHash<QString, QString> m_kinds;
    QList<QPair<QString, QString>> m_edges;
    QStringList m_order;
    QHash<QString, QStringList> m_issues; ///< node id → issue codes
    QStringList m_graphIssues;            ///< issues naming no node
    QHash<QString, QString> m_states;
    QHash<QString, QPointF> m_cells; ///< node id → (column, row)
    int m_columns = 0;
    int m_rows = 0;
};

} // namespace MemoryGraph::Ui
