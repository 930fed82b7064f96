#include "ui/widgets/graphcanvas.h"

#include "ui/displayformat.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/graphlayout.h"
#include "ui/widgets/graphstyle.h"

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QGraphicsSceneHoverEvent>
#include <QGraphicsSceneMouseEvent>
#include <QKeyEvent>
#include <QLineF>
#include <QPainter>
#include <QPainterPath>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>
#include <QTimer>
#include <QWheelEvent>
#include <QtMath>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace MemoryGraph::Ui {

namespace {

constexpr qreal IdealEdgeLength = 120.0;
constexpr qreal NodeRadius = 12.0;
constexpr qreal HighlightedRadius = 16.0;
constexpr qreal LabelMaxWidth = 150.0; // screen pixels
constexpr qreal MinZoom = 0.05;
constexpr qreal MaxZoom = 6.0;
constexpr qreal MaxFitZoom = 1.5;
constexpr qreal MinLabelZoom = 0.28; // below this only selected and highlighted nodes are named
constexpr int FreshIterations = 300;
constexpr int ExpandIterations = 160;
constexpr int LabelDelayMs = 30;

enum ZLayer {
    EdgeLayer = 1,
    NodeLayer = 2,
    HoveredNodeLayer = 3,
    LabelLayer = 4,
    HoveredLabelLayer = 5,
    MarkerLayer = 10
};

QString displayTitle(const NodeRecord &n)
{
    if (!n.title.isEmpty())
        return n.title;
    if (!n.textSummary.isEmpty())
        return n.textSummary;
    return n.id;
}

} // namespace

/// Shared look of all items; owned by the canvas, refreshed when its palette or font changes.
struct GraphItemStyle
{
    QPalette palette;
    QFont labelFont;
    std::function<void()> geometryChanged; ///< a node moved: labels need placing again

    QColor edgeColor() const
    {
        QColor c = palette.color(QPalette::Text);
        c.setAlpha(120);
        return c;
    }
};

// --- items -----------------------------------------------------------------------------------

/// The node's name under its circle, drawn at a constant screen size (it ignores the zoom) and
/// top-level so no other node can cover it.
class GraphLabelItem : public QGraphicsItem
{
public:
    GraphLabelItem(GraphNodeItem *node, const QString &text, const GraphItemStyle *style)
        : m_node(node), m_style(style)
    {
        setFlag(ItemIgnoresTransformations);
        setZValue(LabelLayer);
        setAcceptedMouseButtons(Qt::LeftButton);
        setText(text);
    }

    int type() const override { return GraphCanvas::LabelItemType; }
    GraphNodeItem *node() const { return m_node; }

    void setText(const QString &full)
    {
        prepareGeometryChange();
        const QFontMetricsF fm(m_style->labelFont);
        m_text = fm.elidedText(full, Qt::ElideRight, LabelMaxWidth);
        const qreal w = fm.horizontalAdvance(m_text) + 8.0;
        const qreal h = fm.height() + 2.0;
        m_rect = QRectF(-w / 2.0, 0.0, w, h);
    }

    QRectF boundingRect() const override { return m_rect; }

    void paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) override
    {
        painter->setRenderHint(QPainter::Antialiasing);
        QColor paper = m_style->palette.color(QPalette::Base);
        paper.setAlpha(215);
        painter->setPen(Qt::NoPen);
        painter->setBrush(paper);
        painter->drawRoundedRect(m_rect, 3.0, 3.0);
        painter->setFont(m_style->labelFont);
        painter->setPen(m_style->palette.color(QPalette::Text));
        painter->drawText(m_rect, Qt::AlignCenter, m_text);
    }

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;

private:
    GraphNodeItem *m_node;
    const GraphItemStyle *m_style;
    QString m_text;
    QRectF m_rect;
};

class GraphNodeItem : public QGraphicsItem
{
public:
    GraphNodeItem(const NodeRecord &node, bool highlighted, const GraphItemStyle *style)
        : m_node(node), m_style(style), m_highlighted(highlighted),
          m_baseRadius(highlighted ? HighlightedRadius : NodeRadius), m_radius(m_baseRadius)
    {
        setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges);
        setAcceptHoverEvents(true);
        setZValue(NodeLayer);
        setCursor(Qt::PointingHandCursor);
        QString tip = QStringLiteral("<b>%1</b><br>").arg(displayTitle(node).toHtmlEscaped());
        tip += GraphCanvas::tr("Type: %1 \u00b7 Tier: %2 \u00b7 Lane: %3")
                   .arg(node.type, orDash(node.tier), orDash(node.memoryLane));
        tip += QStringLiteral("<br>")
               + GraphCanvas::tr("Salience %1 \u00b7 Confidence %2")
                     .arg(formatScore(node.salience), formatScore(node.confidence));
        tip += QStringLiteral("<br><small>%1</small>").arg(node.id.toHtmlEscaped());
        setToolTip(tip);
    }

    int type() const override { return GraphCanvas::NodeItemType; }
    const NodeRecord &record() const { return m_node; }
    QString id() const { return m_node.id; }
    qreal radius() const { return m_radius; }
    /// The radius drawn at `zoom`: the scene radius, or more when that would be too small to
    /// see or click on screen.
    qreal radiusAt(qreal zoom, qreal minScreenRadius) const
    {
        return std::max(m_baseRadius, minScreenRadius / std::max(zoom, 1e-6));
    }
    /// Follows the view's zoom (see radiusAt); moves the label and the edge ends along.
    void setViewZoom(qreal zoom, qreal minScreenRadius)
    {
        const qreal r = radiusAt(zoom, minScreenRadius);
        if (qFuzzyCompare(r, m_radius))
            return;
        prepareGeometryChange();
        m_radius = r;
        placeLabel();
        adjustEdges();
    }
    void adjustEdges();
    bool isHighlighted() const { return m_highlighted; }
    void setHighlighted(bool on)
    {
        if (on == m_highlighted)
            return;
        prepareGeometryChange();
        m_highlighted = on;
        m_baseRadius = on ? HighlightedRadius : NodeRadius;
        m_radius = m_baseRadius; // the canvas applies its zoom minimum again
        placeLabel();
        adjustEdges();
        update();
    }
    bool isHovered() const { return m_hovered; }
    GraphLabelItem *label() const { return m_label; }
    void setLabel(GraphLabelItem *label)
    {
        m_label = label;
        placeLabel();
    }
    void addEdge(GraphEdgeItem *edge) { m_edges.append(edge); }

    QRectF boundingRect() const override
    {
        // Circle, selection ring and the lock badge in the top-right corner.
        const qreal k = m_radius / NodeRadius; // rings and badge grow with the circle
        const qreal r = m_radius + 8.0 * k;
        return QRectF(-r, -r - 4.0 * k, 2 * r + 4.0 * k, 2 * r + 4.0 * k);
    }

    QPainterPath shape() const override
    {
        QPainterPath path;
        path.addEllipse(QPointF(), m_radius * 1.15, m_radius * 1.15);
        return path;
    }

    void paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) override
    {
        painter->setRenderHint(QPainter::Antialiasing);
        const QColor fill = GraphStyle::typeColor(m_node.type);
        const qreal k = m_radius / NodeRadius;
        if (isSelected()) {
            painter->setPen(QPen(m_style->palette.color(QPalette::Highlight), 3.0 * k));
            painter->setBrush(Qt::NoBrush);
            painter->drawEllipse(QPointF(), m_radius + 5.0 * k, m_radius + 5.0 * k);
        } else if (m_highlighted || m_hovered) {
            QColor halo = fill;
            halo.setAlpha(m_hovered ? 110 : 70);
            painter->setPen(Qt::NoPen);
            painter->setBrush(halo);
            painter->drawEllipse(QPointF(), m_radius + 6.0 * k, m_radius + 6.0 * k);
        }
        GraphStyle::paintNodeGlyph(painter, QPointF(), m_radius, m_node.type, m_node.tier,
                                   m_node.memoryLane == QLatin1String("private"), m_style->palette);
    }

    /// Names go under the circle, or above it when the space below is taken.
    void setLabelAbove(bool above)
    {
        m_labelAbove = above;
        placeLabel(); // also when unchanged: "above" depends on the zoom
    }
    QPointF labelPosition(bool above) const
    {
        if (!m_label)
            return pos();
        if (!above)
            return pos() + QPointF(0.0, m_radius + 3.0);
        // The label ignores the zoom, so its height is in pixels; convert through the view.
        const qreal zoom = scene() && !scene()->views().isEmpty()
                               ? scene()->views().constFirst()->transform().m11()
                               : 1.0;
        return pos() - QPointF(0.0, m_radius + 3.0 + m_label->boundingRect().height() / zoom);
    }
    void placeLabel()
    {
        if (m_label)
            m_label->setPos(labelPosition(m_labelAbove));
    }

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant &value) override;

    void hoverEnterEvent(QGraphicsSceneHoverEvent *event) override
    {
        m_hovered = true;
        setZValue(HoveredNodeLayer);
        if (m_label) {
            m_label->setZValue(HoveredLabelLayer);
            m_label->setVisible(true);
        }
        update();
        QGraphicsItem::hoverEnterEvent(event);
    }

    void hoverLeaveEvent(QGraphicsSceneHoverEvent *event) override
    {
        m_hovered = false;
        setZValue(NodeLayer);
        if (m_label)
            m_label->setZValue(LabelLayer);
        update();
        if (m_style->geometryChanged)
            m_style->geometryChanged(); // the label may have to hide again
        QGraphicsItem::hoverLeaveEvent(event);
    }

private:
    NodeRecord m_node;
    const GraphItemStyle *m_style;
    bool m_highlighted;
    bool m_hovered = false;
    qreal m_baseRadius;
    qreal m_radius;
    GraphLabelItem *m_label = nullptr;
    bool m_labelAbove = false;
    QVector<GraphEdgeItem *> m_edges;
};

class GraphEdgeItem : public QGraphicsItem
{
public:
    GraphEdgeItem(const EdgeRecord &edge, GraphNodeItem *from, GraphNodeItem *to,
                  const GraphItemStyle *style)
        : m_edge(edge), m_from(from), m_to(to), m_style(style)
    {
        setZValue(EdgeLayer);
        setAcceptHoverEvents(true);
        setAcceptedMouseButtons(Qt::NoButton); // clicks fall through to pan the view
        setToolTip(
            GraphCanvas::tr("<b>%1</b> \u00b7 weight %2 \u00b7 confidence %3<br>%4 \u2192 %5")
                .arg(edge.type.toHtmlEscaped(), formatScore(edge.weight),
                     formatScore(edge.confidence), displayTitle(from->record()).toHtmlEscaped(),
                     displayTitle(to->record()).toHtmlEscaped()));
        adjust();
    }

    int type() const override { return GraphCanvas::EdgeItemType; }
    const EdgeRecord &record() const { return m_edge; }

    qreal penWidth() const { return 0.8 + 2.6 * std::clamp(m_edge.weight, 0.0, 1.0); }

    void adjust()
    {
        prepareGeometryChange();
        const QPointF a = m_from->pos();
        const QPointF b = m_to->pos();
        m_path = QPainterPath();
        m_arrow.clear();
        if (m_from == m_to) {
            // A self-reference: a small loop above the node.
            const qreal r = m_from->radius();
            m_path.addEllipse(QRectF(a.x(), a.y() - r * 1.9, r * 1.4, r * 1.4));
            return;
        }
        const QLineF line(a, b);
        const qreal length = line.length();
        if (length < m_from->radius() + m_to->radius() + 1.0)
            return; // touching: nothing sensible to draw
        const QPointF unit = (b - a) / length;
        const QPointF start = a + unit * (m_from->radius() + 1.0);
        const QPointF tip = b - unit * (m_to->radius() + 2.0);
        const qreal arrowSize = 7.0 + penWidth() * 1.5;
        const QPointF normal(-unit.y(), unit.x());
        const QPointF base = tip - unit * arrowSize;
        m_path.moveTo(start);
        m_path.lineTo(base + unit * 1.0);
        m_arrow << tip << base + normal * arrowSize * 0.5 << base - normal * arrowSize * 0.5;
    }

    QRectF boundingRect() const override
    {
        const qreal margin = penWidth() + 10.0;
        return m_path.boundingRect()
            .united(m_arrow.boundingRect())
            .adjusted(-margin, -margin, margin, margin);
    }

    QPainterPath shape() const override
    {
        QPainterPathStroker stroker;
        stroker.setWidth(std::max(8.0, penWidth() + 4.0));
        QPainterPath path = stroker.createStroke(m_path);
        path.addPolygon(m_arrow);
        return path;
    }

    void paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) override
    {
        if (m_path.isEmpty())
            return;
        painter->setRenderHint(QPainter::Antialiasing);
        const bool emphasised = m_hovered || m_from->isSelected() || m_to->isSelected();
        const QColor colour
            = emphasised ? m_style->palette.color(QPalette::Highlight) : m_style->edgeColor();
        painter->setPen(QPen(colour, penWidth(), Qt::SolidLine, Qt::RoundCap));
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(m_path);
        if (!m_arrow.isEmpty()) {
            painter->setPen(Qt::NoPen);
            painter->setBrush(colour);
            painter->drawPolygon(m_arrow);
        }
    }

protected:
    void hoverEnterEvent(QGraphicsSceneHoverEvent *event) override
    {
        m_hovered = true;
        update();
        QGraphicsItem::hoverEnterEvent(event);
    }
    void hoverLeaveEvent(QGraphicsSceneHoverEvent *event) override
    {
        m_hovered = false;
        update();
        QGraphicsItem::hoverLeaveEvent(event);
    }

private:
    EdgeRecord m_edge;
    GraphNodeItem *m_from;
    GraphNodeItem *m_to;
    const GraphItemStyle *m_style;
    QPainterPath m_path;
    QPolygonF m_arrow;
    bool m_hovered = false;
};

/// "+N more": pinned to the view's bottom-left corner by the canvas, constant screen size.
class GraphMoreMarkerItem : public QGraphicsItem
{
public:
    explicit GraphMoreMarkerItem(const GraphItemStyle *style) : m_style(style)
    {
        setFlag(ItemIgnoresTransformations);
        setZValue(MarkerLayer);
        setAcceptedMouseButtons(Qt::NoButton);
    }

    int type() const override { return GraphCanvas::MoreMarkerItemType; }
    QString text() const { return m_text; }

    void setText(const QString &text)
    {
        prepareGeometryChange();
        m_text = text;
        QFont font = m_style->labelFont;
        font.setBold(true);
        const QFontMetricsF fm(font);
        const qreal w = fm.horizontalAdvance(text) + 20.0;
        const qreal h = fm.height() + 10.0;
        m_rect = QRectF(0.0, -h, w, h); // anchored at its bottom-left corner
    }

    QRectF boundingRect() const override { return m_rect.adjusted(-1, -1, 1, 1); }

    void paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *) override
    {
        painter->setRenderHint(QPainter::Antialiasing);
        QColor paper = m_style->palette.color(QPalette::Window);
        paper.setAlpha(235);
        painter->setPen(QPen(m_style->palette.color(QPalette::Highlight), 1.5));
        painter->setBrush(paper);
        painter->drawRoundedRect(m_rect, 6.0, 6.0);
        QFont font = m_style->labelFont;
        font.setBold(true);
        painter->setFont(font);
        painter->setPen(m_style->palette.color(QPalette::WindowText));
        painter->drawText(m_rect, Qt::AlignCenter, m_text);
    }

private:
    const GraphItemStyle *m_style;
    QString m_text;
    QRectF m_rect;
};

void GraphLabelItem::mousePressEvent(QGraphicsSceneMouseEvent *event)
{
    // Clicking a name selects its node, like clicking the circle; a circle under the name (a
    // forced label can overlap one) wins, so every node stays clickable.
    GraphNodeItem *target = m_node;
    if (scene()) {
        const QList<QGraphicsItem *> under = scene()->items(event->scenePos());
        for (QGraphicsItem *item : under) {
            if (item->type() == GraphCanvas::NodeItemType) {
                target = static_cast<GraphNodeItem *>(item);
                break;
            }
        }
        scene()->clearSelection();
    }
    target->setSelected(true);
    event->accept();
}

void GraphNodeItem::adjustEdges()
{
    for (GraphEdgeItem *edge : std::as_const(m_edges))
        edge->adjust();
}

QVariant GraphNodeItem::itemChange(GraphicsItemChange change, const QVariant &value)
{
    if (change == ItemPositionHasChanged) {
        adjustEdges();
        placeLabel();
        if (m_style->geometryChanged)
            m_style->geometryChanged();
    } else if (change == ItemSelectedHasChanged) {
        for (GraphEdgeItem *edge : std::as_const(m_edges))
            edge->update();
        if (m_style->geometryChanged)
            m_style->geometryChanged(); // the selected node's label always shows
    }
    return QGraphicsItem::itemChange(change, value);
}

// --- canvas ----------------------------------------------------------------------------------

GraphCanvas::GraphCanvas(UiExecutor *executor, QWidget *parent)
    : QGraphicsView(parent), m_executor(executor), m_style(std::make_unique<GraphItemStyle>())
{
    Q_ASSERT(m_executor);
    m_scene = new QGraphicsScene(this);
    setScene(m_scene);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The marker follows the viewport; a full update keeps it free of trails.
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(220, 160);
    setAccessibleName(tr("Graph"));
    setAccessibleDescription(tr("Memory graph. Wheel or +/- to zoom, 0 to fit, drag to pan, "
                                "Enter opens the selected node."));

    m_labelTimer = new QTimer(this);
    m_labelTimer->setSingleShot(true);
    m_labelTimer->setInterval(LabelDelayMs);
    connect(m_labelTimer, &QTimer::timeout, this, &GraphCanvas::updateLabels);
    m_style->geometryChanged = [this]() {
        if (!m_rebuilding)
            m_labelTimer->start();
    };

    refreshStyle();
    connect(m_scene, &QGraphicsScene::selectionChanged, this,
            &GraphCanvas::onSceneSelectionChanged);
    m_placeholder = tr("Nothing to show yet.");
}

GraphCanvas::~GraphCanvas()
{
    // Items refer to the style; make sure they go first.
    m_rebuilding = true;
    m_scene->clear();
}

void GraphCanvas::refreshStyle()
{
    m_style->palette = palette();
    QFont font = this->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    m_style->labelFont = font;
    for (GraphNodeItem *item : std::as_const(m_nodeItems)) {
        if (item->label())
            item->label()->setText(displayTitle(item->record()));
    }
    if (m_moreMarker)
        m_moreMarker->setText(m_moreMarker->text());
    m_scene->update();
    viewport()->update();
}

void GraphCanvas::changeEvent(QEvent *event)
{
    QGraphicsView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        refreshStyle();
}

void GraphCanvas::setGraph(const QVector<NodeRecord> &nodes, const QVector<EdgeRecord> &edges,
                           bool truncated)
{
    m_nodes.clear();
    m_nodeIndex.clear();
    m_edges.clear();
    m_edgeIds.clear();
    QSet<QString> seen;
    for (const NodeRecord &n : nodes) {
        if (n.id.isEmpty() || seen.contains(n.id))
            continue;
        seen.insert(n.id);
        if (m_nodes.size() >= MaxNodes)
            continue; // callers list the most important nodes first
        m_nodeIndex.insert(n.id, int(m_nodes.size()));
        m_nodes.append(n);
    }
    // Distinct ids that did not fit; duplicates are not "more".
    m_hiddenCount = int(seen.size()) - int(m_nodes.size());
    m_truncated = truncated || m_hiddenCount > 0;
    appendNewEdges(edges);
    m_autoFit = true;
    startLayout(QString(), false);
}

/// Adds the edges not drawn yet whose both ends are drawn; returns how many it added.
int GraphCanvas::appendNewEdges(const QVector<EdgeRecord> &edges)
{
    int added = 0;
    for (const EdgeRecord &e : edges) {
        const QString key = e.id.isEmpty()
                                ? e.fromId + QLatin1Char('>') + e.toId + QLatin1Char(':') + e.type
                                : e.id;
        if (m_edgeIds.contains(key) || !m_nodeIndex.contains(e.fromId)
            || !m_nodeIndex.contains(e.toId))
            continue;
        m_edgeIds.insert(key);
        m_edges.append(e);
        ++added;
    }
    return added;
}

void GraphCanvas::mergeGraph(const QVector<NodeRecord> &nodes, const QVector<EdgeRecord> &edges,
                             bool truncated, const QString &anchorId)
{
    int dropped = 0;
    int added = 0;
    for (const NodeRecord &n : nodes) {
        if (n.id.isEmpty() || m_nodeIndex.contains(n.id))
            continue;
        if (m_nodes.size() >= MaxNodes) {
            ++dropped;
            continue;
        }
        m_nodeIndex.insert(n.id, int(m_nodes.size()));
        m_nodes.append(n);
        ++added;
    }
    m_hiddenCount = dropped;
    m_truncated = m_truncated || truncated || dropped > 0;
    added += appendNewEdges(edges);
    if (added == 0 && !isLayoutPending()) {
        // Nothing new (a leaf, or everything already drawn): keep the picture as it is.
        for (GraphNodeItem *item : std::as_const(m_nodeItems))
            item->setHighlighted(m_highlighted.contains(item->id()));
        applyNodeScale();
        updateMoreMarker();
        updateLabels();
        Q_EMIT graphChanged();
        return;
    }
    m_autoFit = true;
    startLayout(anchorId, true);
}

void GraphCanvas::clearGraph()
{
    m_nodes.clear();
    m_nodeIndex.clear();
    m_edges.clear();
    m_edgeIds.clear();
    m_highlighted.clear();
    m_truncated = false;
    m_hiddenCount = 0;
    m_autoFit = true;
    startLayout(QString(), false);
}

void GraphCanvas::setHighlightedNodes(const QStringList &ids)
{
    m_highlighted = QSet<QString>(ids.cbegin(), ids.cend());
}

void GraphCanvas::setPlaceholderText(const QString &text)
{
    m_placeholder = text;
    viewport()->update();
}

void GraphCanvas::startLayout(const QString &anchorId, bool incremental)
{
    const quint64 generation = ++m_layoutGeneration;

    GraphLayoutInput input;
    input.idealLength = IdealEdgeLength;
    input.anchorId = anchorId;
    input.iterations = incremental ? ExpandIterations : FreshIterations;
    if (incremental)
        input.startTemperature = IdealEdgeLength * 1.5;
    input.ids.reserve(m_nodes.size());
    for (const NodeRecord &n : std::as_const(m_nodes)) {
        input.ids.append(n.id);
        if (incremental) {
            if (const GraphNodeItem *item = m_nodeItems.value(n.id))
                input.initial.insert(n.id, item->pos());
        }
    }
    for (const EdgeRecord &e : std::as_const(m_edges))
        input.links.append({m_nodeIndex.value(e.fromId), m_nodeIndex.value(e.toId), e.weight});

    auto compute = [input, generation]() {
        QElapsedTimer timer;
        timer.start();
        LayoutResult result;
        result.generation = generation;
        result.ids = input.ids;
        result.positions = computeForceLayout(input);
        result.elapsedMs = timer.elapsed();
        return result;
    };

    if (m_nodes.size() <= AsyncLayoutThreshold) {
        applyLayout(compute());
        return;
    }
    viewport()->update(); // shows "Laying out ..." over the previous picture
    m_executor->run(this, std::move(compute),
                    [this](const LayoutResult &result) { applyLayout(result); });
}

void GraphCanvas::applyLayout(const LayoutResult &result)
{
    if (result.generation != m_layoutGeneration)
        return; // a newer graph is on its way
    m_appliedGeneration = result.generation;
    m_lastLayoutMs = result.elapsedMs;
    QHash<QString, QPointF> positions;
    for (int i = 0; i < result.ids.size() && i < result.positions.size(); ++i)
        positions.insert(result.ids.at(i), result.positions.at(i));
    rebuildItems(positions);
    updateMoreMarker();
    fitToView();
    viewport()->update();
    Q_EMIT graphChanged();
}

void GraphCanvas::rebuildItems(const QHash<QString, QPointF> &positions)
{
    const QString selected = selectedNodeId();
    m_rebuilding = true;
    m_scene->clear();
    m_nodeItems.clear();
    m_edgeItems.clear();
    m_moreMarker = nullptr;

    for (const NodeRecord &n : std::as_const(m_nodes)) {
        auto *item = new GraphNodeItem(n, m_highlighted.contains(n.id), m_style.get());
        item->setPos(positions.value(n.id));
        m_scene->addItem(item);
        auto *label = new GraphLabelItem(item, displayTitle(n), m_style.get());
        m_scene->addItem(label);
        item->setLabel(label);
        m_nodeItems.insert(n.id, item);
    }
    for (const EdgeRecord &e : std::as_const(m_edges)) {
        GraphNodeItem *from = m_nodeItems.value(e.fromId);
        GraphNodeItem *to = m_nodeItems.value(e.toId);
        if (!from || !to)
            continue;
        auto *edge = new GraphEdgeItem(e, from, to, m_style.get());
        m_scene->addItem(edge);
        from->addEdge(edge);
        if (to != from)
            to->addEdge(edge);
        m_edgeItems.append(edge);
    }

    // Small graphs get bigger dots; big ones must leave room between them.
    m_minScreenRadius = m_nodeItems.size() > 100 ? 4.5 : m_nodeItems.size() > 40 ? 6.0 : 7.5;
    applyNodeScale();

    // Generous scene rect, so the graph can be panned away from the edges of the view.
    const QRectF bounds = graphBounds();
    const qreal margin = std::max({bounds.width(), bounds.height(), 800.0});
    m_scene->setSceneRect(bounds.adjusted(-margin, -margin, margin, margin));

    if (GraphNodeItem *item = m_nodeItems.value(selected))
        item->setSelected(true);
    m_rebuilding = false;
    if (!selected.isEmpty() && !m_nodeItems.contains(selected))
        Q_EMIT selectionCleared();
}

QRectF GraphCanvas::graphBounds() const
{
    QRectF bounds;
    for (const GraphNodeItem *item : m_nodeItems) {
        const qreal r = item->radius();
        bounds = bounds.united(QRectF(item->pos() - QPointF(r, r), QSizeF(2 * r, 2 * r)));
    }
    return bounds;
}

void GraphCanvas::updateMoreMarker()
{
    if (!m_truncated) {
        if (m_moreMarker) {
            m_scene->removeItem(m_moreMarker);
            delete m_moreMarker;
            m_moreMarker = nullptr;
        }
        return;
    }
    if (!m_moreMarker) {
        m_moreMarker = new GraphMoreMarkerItem(m_style.get());
        m_scene->addItem(m_moreMarker);
    }
    if (m_hiddenCount > 0) {
        m_moreMarker->setText(tr("+%1 more", "nodes not drawn").arg(m_hiddenCount));
        m_moreMarker->setToolTip(tr("%1 more nodes were found but not drawn: the graph shows at "
                                    "most %2 nodes.")
                                     .arg(m_hiddenCount)
                                     .arg(MaxNodes));
    } else {
        m_moreMarker->setText(tr("+ more"));
        m_moreMarker->setToolTip(tr("More nodes are reachable than were loaded (at most %1). "
                                    "Double-click a node to expand around it.")
                                     .arg(MaxNodes));
    }
    placeMoreMarker();
}

void GraphCanvas::placeMoreMarker()
{
    if (!m_moreMarker)
        return;
    const QPoint corner(10, viewport()->height() - 10);
    m_moreMarker->setPos(mapToScene(corner));
}

bool GraphCanvas::hasMoreMarker() const
{
    return m_moreMarker != nullptr && m_moreMarker->isVisible();
}

QString GraphCanvas::moreMarkerText() const
{
    return m_moreMarker ? m_moreMarker->text() : QString();
}

QStringList GraphCanvas::nodeIds() const
{
    QStringList ids;
    ids.reserve(m_nodeItems.size());
    for (const NodeRecord &n : m_nodes) {
        if (m_nodeItems.contains(n.id))
            ids.append(n.id);
    }
    return ids;
}

NodeRecord GraphCanvas::node(const QString &id) const
{
    const GraphNodeItem *item = m_nodeItems.value(id);
    return item ? item->record() : NodeRecord();
}

QHash<QString, QString> GraphCanvas::nodeTitles() const
{
    QHash<QString, QString> titles;
    for (const GraphNodeItem *item : m_nodeItems)
        titles.insert(item->id(), item->record().title);
    return titles;
}

QPointF GraphCanvas::nodePosition(const QString &id) const
{
    const GraphNodeItem *item = m_nodeItems.value(id);
    return item ? item->pos() : QPointF();
}

QGraphicsItem *GraphCanvas::nodeItem(const QString &id) const
{
    return m_nodeItems.value(id);
}

QColor GraphCanvas::nodeFillColor(const QString &id) const
{
    const GraphNodeItem *item = m_nodeItems.value(id);
    return item ? GraphStyle::typeColor(item->record().type) : QColor();
}

QString GraphCanvas::selectedNodeId() const
{
    const QList<QGraphicsItem *> selected = m_scene->selectedItems();
    for (QGraphicsItem *item : selected) {
        if (item->type() == NodeItemType)
            return static_cast<GraphNodeItem *>(item)->id();
    }
    return {};
}

qreal GraphCanvas::zoomFactor() const
{
    return transform().m11();
}

int GraphCanvas::visibleLabelCount() const
{
    int count = 0;
    for (const GraphNodeItem *item : m_nodeItems) {
        if (item->label() && item->label()->isVisible())
            ++count;
    }
    return count;
}

void GraphCanvas::selectNode(const QString &id)
{
    if (selectedNodeId() == id && !id.isEmpty())
        return;
    GraphNodeItem *item = m_nodeItems.value(id);
    m_rebuilding = true; // the intermediate "nothing selected" is not news
    m_scene->clearSelection();
    m_rebuilding = false;
    if (!item) {
        Q_EMIT selectionCleared();
        return;
    }
    item->setSelected(true);
    ensureVisible(item, 60, 60);
    placeMoreMarker();
}

void GraphCanvas::onSceneSelectionChanged()
{
    if (m_rebuilding)
        return;
    const QString id = selectedNodeId();
    if (id.isEmpty())
        Q_EMIT selectionCleared();
    else
        Q_EMIT nodeSelected(id);
}

void GraphCanvas::zoomIn()
{
    applyZoom(1.25);
}

void GraphCanvas::zoomOut()
{
    applyZoom(1.0 / 1.25);
}

void GraphCanvas::applyZoom(qreal factor)
{
    const qreal current = zoomFactor();
    const qreal target = std::clamp(current * factor, MinZoom, MaxZoom);
    if (qFuzzyCompare(target, current))
        return;
    m_autoFit = false;
    scale(target / current, target / current);
    applyNodeScale();
    placeMoreMarker();
    updateLabels();
}

void GraphCanvas::fitToView()
{
    if (m_nodeItems.isEmpty()) {
        resetTransform();
        centerOn(0.0, 0.0);
        placeMoreMarker();
        return;
    }
    // Labels keep their screen size whatever the zoom, so how much room they need depends on
    // the zoom itself: find the largest zoom at which every circle and every label fits.
    const QRectF area = QRectF(viewport()->rect()).adjusted(10.0, 10.0, -10.0, -10.0);
    const qreal labelHeight = QFontMetricsF(m_style->labelFont).height() + 2.0;
    const auto extent = [this, labelHeight](qreal zoom) {
        qreal left = std::numeric_limits<qreal>::max();
        qreal right = std::numeric_limits<qreal>::lowest();
        qreal top = left;
        qreal bottom = right;
        for (const GraphNodeItem *item : std::as_const(m_nodeItems)) {
            const QPointF p = item->pos() * zoom;
            const qreal radius = item->radiusAt(zoom, m_minScreenRadius);
            const qreal r = radius * (1.0 + 6.0 / NodeRadius) * zoom;
            const qreal halfLabel
                = item->label() ? item->label()->boundingRect().width() / 2.0 : 0.0;
            const qreal half = std::max(r, halfLabel);
            left = std::min(left, p.x() - half);
            right = std::max(right, p.x() + half);
            top = std::min(top, p.y() - std::max(r, (radius + 3.0) * zoom + labelHeight));
            bottom = std::max(bottom, p.y() + (radius + 3.0) * zoom + labelHeight);
        }
        return QRectF(QPointF(left, top), QPointF(right, bottom));
    };
    const auto fits = [&extent, &area](qreal zoom) {
        const QRectF e = extent(zoom);
        return e.width() <= area.width() && e.height() <= area.height();
    };
    qreal zoom = MaxFitZoom;
    if (!fits(zoom)) {
        qreal low = MinZoom;
        qreal high = MaxFitZoom;
        for (int i = 0; i < 24; ++i) {
            const qreal mid = (low + high) / 2.0;
            (fits(mid) ? low : high) = mid;
        }
        zoom = low;
    }
    resetTransform();
    scale(zoom, zoom);
    applyNodeScale();
    centerOn(extent(zoom).center() / zoom);
    placeMoreMarker();
    updateLabels();
}

void GraphCanvas::applyNodeScale()
{
    const qreal zoom = zoomFactor();
    for (GraphNodeItem *item : std::as_const(m_nodeItems))
        item->setViewZoom(zoom, m_minScreenRadius);
}

void GraphCanvas::updateLabels()
{
    m_labelTimer->stop();
    // Greedy placement in screen space: the selection first, then highlighted nodes, then the
    // rest in the caller's order (most important first). A label that would overlap one already
    // placed stays hidden; hovering a node shows its label anyway.
    const qreal zoom = zoomFactor();
    QVector<GraphNodeItem *> order;
    order.reserve(m_nodeItems.size());
    for (const NodeRecord &n : std::as_const(m_nodes)) {
        if (GraphNodeItem *item = m_nodeItems.value(n.id))
            order.append(item);
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const GraphNodeItem *a, const GraphNodeItem *b) {
                         const int ra = a->isSelected() ? 0 : a->isHighlighted() ? 1 : 2;
                         const int rb = b->isSelected() ? 0 : b->isHighlighted() ? 1 : 2;
                         return ra < rb;
                     });

    // Circles are obstacles too: a label must not hide (or catch the clicks for) another node.
    QHash<const GraphNodeItem *, QRectF> circles;
    for (const GraphNodeItem *item : std::as_const(order)) {
        const QPointF centre = mapFromScene(item->pos());
        const qreal r = item->radius() * zoom + 2.0;
        circles.insert(item, QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r));
    }

    QVector<QRectF> placed;
    placed.reserve(order.size());
    for (GraphNodeItem *item : std::as_const(order)) {
        GraphLabelItem *label = item->label();
        if (!label)
            continue;
        const bool forced = item->isSelected() || item->isHovered();
        if (!forced && zoom < MinLabelZoom && !item->isHighlighted()) {
            label->setVisible(false);
            continue;
        }
        const auto rectAt = [this, item, label](bool above) {
            const QPointF anchor = mapFromScene(item->labelPosition(above));
            return label->boundingRect().translated(anchor).adjusted(-2, -1, 2, 1);
        };
        const auto collides = [&placed, &circles, item](const QRectF &rect) {
            if (std::any_of(placed.cbegin(), placed.cend(),
                            [&rect](const QRectF &r) { return r.intersects(rect); }))
                return true;
            for (auto it = circles.cbegin(); it != circles.cend(); ++it) {
                if (it.key() != item && it.value().intersects(rect))
                    return true;
            }
            return false;
        };
        // Below first, then above; a selected or hovered node is named even if both collide.
        QRectF rect = rectAt(false);
        bool above = false;
        if (collides(rect)) {
            const QRectF up = rectAt(true);
            if (!collides(up)) {
                rect = up;
                above = true;
            } else if (!forced) {
                label->setVisible(false);
                continue;
            }
        }
        item->setLabelAbove(above);
        label->setVisible(true);
        placed.append(rect);
    }
}

void GraphCanvas::wheelEvent(QWheelEvent *event)
{
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    applyZoom(std::pow(1.0015, delta));
    event->accept();
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton) {
        // A circle wins over a label lying on top of it.
        const QList<QGraphicsItem *> under = items(event->position().toPoint());
        QGraphicsItem *item = nullptr;
        for (QGraphicsItem *candidate : under) {
            if (candidate->type() == NodeItemType) {
                item = candidate;
                break;
            }
            if (!item && candidate->type() == LabelItemType)
                item = static_cast<GraphLabelItem *>(candidate)->node();
        }
        if (item && item->type() == NodeItemType) {
            auto *nodeItem = static_cast<GraphNodeItem *>(item);
            if (!nodeItem->isSelected())
                selectNode(nodeItem->id());
            Q_EMIT nodeActivated(nodeItem->id());
            event->accept();
            return;
        }
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void GraphCanvas::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal: zoomIn(); return;
    case Qt::Key_Minus: zoomOut(); return;
    case Qt::Key_0:
        m_autoFit = true;
        fitToView();
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter: {
        const QString id = selectedNodeId();
        if (!id.isEmpty()) {
            Q_EMIT nodeActivated(id);
            return;
        }
        break;
    }
    case Qt::Key_Escape:
        if (!selectedNodeId().isEmpty()) {
            m_scene->clearSelection();
            return;
        }
        break;
    default: break;
    }
    QGraphicsView::keyPressEvent(event);
}

void GraphCanvas::drawForeground(QPainter *painter, const QRectF &rect)
{
    QGraphicsView::drawForeground(painter, rect);
    const bool empty = m_nodeItems.isEmpty();
    const bool pending = isLayoutPending();
    if (!empty && !pending)
        return;
    painter->save();
    painter->resetTransform();
    const QRect area = viewport()->rect();
    if (pending) {
        const QString text = tr("Laying out %1 nodes\u2026").arg(m_nodes.size());
        QFont font = this->font();
        font.setBold(true);
        painter->setFont(font);
        const QFontMetrics fm(font);
        const QRect box(12, 12, fm.horizontalAdvance(text) + 20, fm.height() + 10);
        QColor paper = palette().color(QPalette::Window);
        paper.setAlpha(235);
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(QPen(palette().color(QPalette::Highlight), 1.5));
        painter->setBrush(paper);
        painter->drawRoundedRect(box, 6, 6);
        painter->setPen(palette().color(QPalette::WindowText));
        painter->drawText(box, Qt::AlignCenter, text);
    } else if (!m_placeholder.isEmpty()) {
        painter->setPen(palette().color(QPalette::PlaceholderText));
        painter->drawText(area.adjusted(24, 24, -24, -24), Qt::AlignCenter | Qt::TextWordWrap,
                          m_placeholder);
    }
    painter->restore();
}

void GraphCanvas::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    placeMoreMarker();
}

void GraphCanvas::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    if (m_autoFit)
        fitToView();
    else
        placeMoreMarker();
}

} // namespace MemoryGraph::Ui
