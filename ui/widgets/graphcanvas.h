#pragma once

#include "service/core/records.h"

#include <QGraphicsItem>
#include <QGraphicsView>
#include <QHash>
#include <QPointer>
#include <QSet>
#include <QVector>

#include <memory>

class QTimer;

namespace MemoryGraph::Ui {

class GraphEdgeItem;
class GraphLabelItem;
class GraphMoreMarkerItem;
class GraphNodeItem;
class UiExecutor;
struct GraphItemStyle;

/// Draws a memory (sub)graph: nodes as circles coloured by type with the tier as outline and a
/// lock badge for the private lane, edges as arrows whose thickness follows their weight.
///
/// The layout is a deterministic force-directed one (graphlayout.h): the same nodes and edges
/// always give the same picture. Graphs over AsyncLayoutThreshold nodes are laid out on a
/// worker thread; the previous picture stays until the new one is ready, then graphChanged()
/// fires. At most MaxNodes nodes are drawn; when the data had more (or the caller says it was
/// truncated) a "+N more" marker stays pinned to the bottom-left corner of the view.
///
/// Mouse: wheel zooms around the pointer, dragging the background pans, dragging a node moves
/// it, a click selects (nodeSelected), a double-click activates (nodeActivated).
/// Keys: +/- zoom, 0 fits, Enter activates the selected node, Escape clears the selection.
class GraphCanvas : public QGraphicsView
{
    Q_OBJECT
public:
    static constexpr int MaxNodes = 300;
    static constexpr int AsyncLayoutThreshold = 50;

    /// Scene item types, so callers (and tests) can tell the items apart.
    enum ItemType {
        NodeItemType = QGraphicsItem::UserType + 1,
        EdgeItemType,
        LabelItemType,
        MoreMarkerItemType
    };

    /// Large layouts are computed on `executor`, which must outlive the canvas.
    explicit GraphCanvas(UiExecutor *executor, QWidget *parent = nullptr);
    ~GraphCanvas() override;

    /// Replaces the graph. Nodes beyond MaxNodes are dropped (callers list the most important
    /// first); `truncated` says the source already held more back. Edges whose ends are not
    /// drawn are ignored.
    void setGraph(const QVector<NodeRecord> &nodes, const QVector<EdgeRecord> &edges,
                  bool truncated = false);
    /// Adds nodes and edges to what is shown (expanding around `anchorId`), keeping the
    /// positions of the nodes already there. Still capped at MaxNodes.
    void mergeGraph(const QVector<NodeRecord> &nodes, const QVector<EdgeRecord> &edges,
                    bool truncated, const QString &anchorId);
    void clearGraph();

    /// Nodes drawn larger with a ring: the centres of a neighbourhood, the seeds of a recall.
    void setHighlightedNodes(const QStringList &ids);
    /// Shown in the middle of an empty canvas.
    void setPlaceholderText(const QString &text);
    QString placeholderText() const { return m_placeholder; }

    int nodeCount() const { return int(m_nodeItems.size()); }
    int edgeCount() const { return int(m_edgeItems.size()); }
    QStringList nodeIds() const;
    bool containsNode(const QString &id) const { return m_nodeItems.contains(id); }
    /// The node as given to setGraph()/mergeGraph(); default-constructed if not drawn.
    NodeRecord node(const QString &id) const;
    /// Titles of the drawn nodes by id (for inspectors naming edge ends).
    QHash<QString, QString> nodeTitles() const;
    /// Scene position of a drawn node's centre; a null point if it is not drawn.
    QPointF nodePosition(const QString &id) const;
    QGraphicsItem *nodeItem(const QString &id) const;
    /// Fill colour the node is drawn with.
    QColor nodeFillColor(const QString &id) const;

    /// True while a "+N more" marker is shown.
    bool hasMoreMarker() const;
    QString moreMarkerText() const;
    /// Nodes the canvas itself left out because of MaxNodes (0 when only `truncated` was set).
    int hiddenNodeCount() const { return m_hiddenCount; }

    /// A layout is running on the worker thread; graphChanged() follows.
    bool isLayoutPending() const { return m_layoutGeneration != m_appliedGeneration; }
    /// Milliseconds the last layout computation took (excluding building the items).
    qint64 lastLayoutMs() const { return m_lastLayoutMs; }

    QString selectedNodeId() const;
    qreal zoomFactor() const;
    /// Labels currently drawn; labels that would overlap one already placed are hidden.
    int visibleLabelCount() const;

public Q_SLOTS:
    /// Selects (and scrolls to) a drawn node; clears the selection for an unknown id.
    void selectNode(const QString &id);
    void zoomIn();
    void zoomOut();
    /// Zooms and scrolls so the whole graph is visible (never magnifies beyond 150 %).
    void fitToView();

Q_SIGNALS:
    void nodeSelected(const QString &id);
    void selectionCleared();
    void nodeActivated(const QString &id);
    /// New items are in the scene (after setGraph, mergeGraph or clearGraph).
    void graphChanged();

protected:
    void wheelEvent(QWheelEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void drawForeground(QPainter *painter, const QRectF &rect) override;
    void scrollContentsBy(int dx, int dy) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    struct LayoutResult
    {
        quint64 generation = 0;
        QStringList ids;
        QVector<QPointF> positions;
        qint64 elapsedMs = 0;
    };

    int appendNewEdges(const QVector<EdgeRecord> &edges);
    void startLayout(const QString &anchorId, bool incremental);
    void applyLayout(const LayoutResult &result);
    void rebuildItems(const QHash<QString, QPointF> &positions);
    void updateMoreMarker();
    void placeMoreMarker();
    void applyZoom(qreal factor);
    void onSceneSelectionChanged();
    void refreshStyle();
    void updateLabels();
    void applyNodeScale();
    QRectF graphBounds() const;

    QGraphicsScene *m_scene = nullptr;
    UiExecutor *m_executor;
    std::unique_ptr<GraphItemStyle> m_style;
    QTimer *m_labelTimer = nullptr;

    // The model: what should be drawn. Items follow once the layout is applied.
    QVector<NodeRecord> m_nodes;
    QHash<QString, int> m_nodeIndex;
    QVector<EdgeRecord> m_edges;
    QSet<QString> m_edgeIds;
    QSet<QString> m_highlighted;
    bool m_truncated = false;
    int m_hiddenCount = 0;

    // The view: items in the scene.
    QHash<QString, GraphNodeItem *> m_nodeItems;
    QVector<GraphEdgeItem *> m_edgeItems;
    GraphMoreMarkerItem *m_moreMarker = nullptr;

    quint64 m_layoutGeneration = 0;
    quint64 m_appliedGeneration = 0;
    qint64 m_lastLayoutMs = 0;
    bool m_rebuilding = false;     ///< selection signals are the canvas's own doing
    bool m_autoFit = true;         ///< refit on resize until the operator zooms
    qreal m_minScreenRadius = 7.5; ///< nodes never shrink below this many pixels
    QString m_placeholder;
};

} // namespace MemoryGraph::Ui
