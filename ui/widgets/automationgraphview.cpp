#include "ui/widgets/automationgraphview.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <QTransform>

#include <cmath>

namespace MemoryGraph::Ui {

namespace {

constexpr qreal NodeWidth = 150;
constexpr qreal NodeHeight = 46;
constexpr qreal Margin = 16;
constexpr qreal LegendHeight = 22;

QColor kindColour(const QString &kind)
{
    if (kind == QLatin1String("playbook"))
        return QColor(0x4c, 0x78, 0xa8);
    if (kind == QLatin1String("approval"))
        return QColor(0xe4, 0x9b, 0x2f);
    if (kind == QLatin1String("condition"))
        return QColor(0x59, 0xa1, 0x4f);
    if (kind == QLatin1String("artifact_gate"))
        return QColor(0x8e, 0x6b, 0xb8);
    return QColor(0x88, 0x88, 0x88);
}

QColor stateColour(const QString &state)
{
    if (state == QLatin1String("succeeded") || state == QLatin1String("compensated"))
        return QColor(0x2e, 0x7d, 0x32);
    if (state == QLatin1String("failed") || state == QLatin1String("rejected"))
        return QColor(0xc6, 0x28, 0x28);
    if (state.startsWith(QLatin1String("paused")))
        return QColor(0xef, 0x6c, 0x00);
    return QColor(0x60, 0x60, 0x60);
}

} // namespace

AutomationGraphView::AutomationGraphView(QWidget *parent) : QWidget(parent)
{
    setMinimumSize(320, 180);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void AutomationGraphView::clear()
{
    setGraph({});
}

void AutomationGraphView::setGraph(const QJsonObject &graph, const QJsonArray &issues,
                                   const QStringList &order)
{
    m_ids.clear();
    m_kinds.clear();
    m_edges.clear();
    m_issues.clear();
    m_graphIssues.clear();
    m_states.clear();
    m_order = order;
    for (const QJsonValue &v : graph.value(QStringLiteral("nodes")).toArray()) {
        const QJsonObject n = v.toObject();
        const QString id = n.value(QStringLiteral("node_id")).toString();
        if (id.isEmpty() || m_ids.contains(id))
            continue;
        m_ids << id;
        m_kinds.insert(id, n.value(QStringLiteral("kind")).toString());
    }
    for (const QJsonValue &v : graph.value(QStringLiteral("edges")).toArray()) {
        const QJsonObject e = v.toObject();
        m_edges.append(
            {e.value(QStringLiteral("from")).toString(), e.value(QStringLiteral("to")).toString()});
    }
    for (const QJsonValue &v : issues) {
        const QJsonObject i = v.toObject();
        const QString code = i.value(QStringLiteral("code")).toString();
        QStringList named;
        for (const char *key : {"node_id", "from", "to"}) {
            const QString id = i.value(QLatin1String(key)).toString();
            if (m_ids.contains(id) && !named.contains(id))
                named << id;
        }
        for (const QJsonValue &id : i.value(QStringLiteral("node_ids")).toArray()) {
            if (m_ids.contains(id.toString()) && !named.contains(id.toString()))
                named << id.toString();
        }
        if (named.isEmpty())
            m_graphIssues << code;
        for (const QString &id : named)
            m_issues[id] << code;
    }
    layoutNodes();
    update();
}

void AutomationGraphView::setNodeStates(const QHash<QString, QString> &states)
{
    m_states = states;
    update();
}

void AutomationGraphView::layoutNodes()
{
    // Depth = the longest path from a start node; nodes in a cycle go to a last column.
    QHash<QString, int> depth;
    QStringList order = m_order;
    for (const QString &id : std::as_const(m_ids)) {
        if (!order.contains(id))
            order << id;
    }
    const bool ordered = !m_order.isEmpty();
    for (const QString &id : std::as_const(order)) {
        int d = 0;
        for (const auto &[from, to] : std::as_const(m_edges)) {
            if (to == id && depth.contains(from) && from != id)
                d = qMax(d, depth.value(from) + 1);
        }
        depth.insert(id, ordered && !m_order.contains(id) ? -1 : d);
    }
    int maxDepth = 0;
    for (int d : std::as_const(depth))
        maxDepth = qMax(maxDepth, d);
    QHash<int, int> rowsUsed;
    m_cells.clear();
    m_rows = 0;
    for (const QString &id : std::as_const(order)) {
        int column = depth.value(id);
        if (column < 0)
            column = maxDepth + 1;
        const int row = rowsUsed.value(column);
        rowsUsed.insert(column, row + 1);
        m_cells.insert(id, QPointF(column, row));
        m_columns = qMax(m_columns, column + 1);
        m_rows = qMax(m_rows, row + 1);
    }
    m_columns = 0;
    for (const QPointF &c : std::as_const(m_cells))
        m_columns = qMax(m_columns, int(c.x()) + 1);
}

QRectF AutomationGraphView::nodeRect(const QString &nodeId) const
{
    if (!m_cells.contains(nodeId) || m_columns == 0)
        return {};
    const QPointF cell = m_cells.value(nodeId);
    const qreal usableW = width() - 2 * Margin;
    const qreal usableH = height() - 2 * Margin - LegendHeight;
    const qreal colW = usableW / m_columns;
    const qreal rowH = usableH / qMax(1, m_rows);
    const qreal w = qMin(NodeWidth, colW - 16);
    const qreal h = qMin(NodeHeight, rowH - 10);
    const qreal x = Margin + cell.x() * colW + (colW - w) / 2;
    const qreal y = Margin + cell.y() * rowH + (rowH - h) / 2;
    return QRectF(x, y, w, h);
}

void AutomationGraphView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    if (m_ids.isEmpty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No graph"));
        return;
    }
    // Edges under the nodes.
    for (const auto &[from, to] : std::as_const(m_edges)) {
        const QRectF a = nodeRect(from), b = nodeRect(to);
        if (a.isNull() || b.isNull() || from == to)
            continue;
        const bool backwards = b.left() <= a.left();
        QPointF start(a.right(), a.center().y());
        QPointF end(b.left(), b.center().y());
        QPainterPath path(start);
        if (backwards) {
            // A back edge (a cycle) arcs over the nodes into the target's top.
            start = QPointF(a.center().x(), a.top());
            end = QPointF(b.center().x() + 12, b.top());
            const qreal lift = qMin(a.top(), b.top()) - 36;
            path = QPainterPath(start);
            path.cubicTo(QPointF(start.x(), lift), QPointF(end.x(), lift), end);
        } else {
            const qreal dx = qMax<qreal>(30, std::abs(end.x() - start.x()) / 2);
            path.cubicTo(start + QPointF(dx, 0), end - QPointF(dx, 0), end);
        }
        p.setPen(QPen(backwards ? QColor(0xc6, 0x28, 0x28) : palette().color(QPalette::Mid), 1.6));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        // The arrow head points along the path's last direction.
        const qreal angle = path.angleAtPercent(1.0);
        QTransform turn;
        turn.translate(end.x(), end.y());
        turn.rotate(-angle);
        QPolygonF head;
        head << turn.map(QPointF(0, 0)) << turn.map(QPointF(-8, -4)) << turn.map(QPointF(-8, 4));
        p.setBrush(p.pen().color());
        p.drawPolygon(head);
    }
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    QFont small = base;
    small.setPointSizeF(qMax(6.0, base.pointSizeF() * 0.85));
    for (const QString &id : std::as_const(m_ids)) {
        const QRectF r = nodeRect(id);
        const QColor colour = kindColour(m_kinds.value(id));
        const bool flagged = m_issues.contains(id);
        p.setPen(QPen(flagged ? QColor(0xd3, 0x2f, 0x2f) : colour.darker(130), flagged ? 3 : 1.2));
        p.setBrush(colour.lighter(165));
        p.drawRoundedRect(r, 7, 7);
        p.fillRect(QRectF(r.left() + 1, r.top() + 6, 5, r.height() - 12), colour);
        const int position = m_order.indexOf(id);
        const QString title
            = (position >= 0 ? QStringLiteral("%1. ").arg(position + 1) : QString()) + id;
        p.setPen(Qt::black);
        p.setFont(bold);
        p.drawText(r.adjusted(10, 3, -4, -r.height() / 2), Qt::AlignLeft | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(title, Qt::ElideRight, int(r.width() - 14)));
        p.setFont(small);
        QString second = m_kinds.value(id);
        if (m_states.contains(id))
            second = m_states.value(id);
        p.setPen(m_states.contains(id) ? stateColour(m_states.value(id))
                                       : QColor(0x40, 0x40, 0x40));
        p.drawText(r.adjusted(10, r.height() / 2, -4, -3), Qt::AlignLeft | Qt::AlignVCenter,
                   p.fontMetrics().elidedText(second, Qt::ElideRight, int(r.width() - 14)));
        if (flagged) {
            const QRectF badge(r.right() - 10, r.top() - 8, 18, 18);
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(0xd3, 0x2f, 0x2f));
            p.drawEllipse(badge);
            p.setPen(Qt::white);
            p.setFont(bold);
            p.drawText(badge, Qt::AlignCenter, QStringLiteral("!"));
        }
    }
    // Legend: kinds, and the issues that name no node.
    p.setFont(small);
    qreal x = Margin;
    const qreal y = height() - LegendHeight;
    for (const char *kind : {"playbook", "approval", "condition", "artifact_gate"}) {
        const QString k = QLatin1String(kind);
        p.setPen(Qt::NoPen);
        p.setBrush(kindColour(k));
        p.drawRoundedRect(QRectF(x, y + 5, 12, 12), 3, 3);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QPointF(x + 16, y + 15), k);
        x += 24 + p.fontMetrics().horizontalAdvance(k);
    }
    if (!m_graphIssues.isEmpty()) {
        p.setPen(QColor(0xd3, 0x2f, 0x2f));
        p.drawText(QPointF(x + 8, y + 15),
                   tr("graph: %1").arg(m_graphIssues.join(QStringLiteral(", "))));
    }
}

bool AutomationGraphView::event(QEvent *e)
{
    if (e->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(e);
        for (const QString &id : std::as_const(m_ids)) {
            if (nodeRect(id).contains(help->pos())) {
                QString text = QStringLiteral("%1 (%2)").arg(id, m_kinds.value(id));
                if (m_states.contains(id))
                    text += QStringLiteral("\n") + m_states.value(id);
                for (const QString &code : m_issues.value(id))
                    text += QStringLiteral("\n! ") + code;
                QToolTip::showText(help->globalPos(), text, this);
                return true;
            }
        }
        QToolTip::hideText();
        e->ignore();
        return true;
    }
    return QWidget::event(e);
}

} // namespace MemoryGraph::Ui
