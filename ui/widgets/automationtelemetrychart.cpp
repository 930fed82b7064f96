#include "ui/widgets/automationtelemetrychart.h"

#include <QDateTime>
#include <QJsonObject>
#include <QPainter>
#include <QPainterPath>

namespace MemoryGraph::Ui {

AutomationTelemetryChart::AutomationTelemetryChart(QWidget *parent) : QWidget(parent)
{
    setMinimumSize(360, 300);
}

void AutomationTelemetryChart::setData(const QJsonArray &series, double successTarget,
                                       double windowP95Seconds)
{
    m_series = series;
    m_successTarget = successTarget;
    m_windowP95 = windowP95Seconds;
    update();
}

void AutomationTelemetryChart::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    const qreal panelH = height() / 3.0;
    double maxP95 = m_windowP95 > 0 ? m_windowP95 : 0;
    for (const QJsonValue &v : std::as_const(m_series))
        maxP95
            = qMax(maxP95, v.toObject().value(QStringLiteral("p95_duration_seconds")).toDouble());
    if (maxP95 <= 0)
        maxP95 = 1;
    paintPanel(p, QRectF(0, 0, width(), panelH), tr("Success rate"), "success_rate", 1.0,
               m_successTarget, tr("SLO %1%").arg(m_successTarget * 100, 0, 'f', 0), true);
    paintPanel(p, QRectF(0, panelH, width(), panelH), tr("Pause rate"), "pause_rate", 1.0, -1, {},
               true);
    paintPanel(p, QRectF(0, 2 * panelH, width(), panelH), tr("p95 duration (s)"),
               "p95_duration_seconds", maxP95 * 1.15, m_windowP95,
               m_windowP95 > 0 ? tr("window p95 %1 s").arg(m_windowP95, 0, 'f', 2) : QString(),
               false);
}

void AutomationTelemetryChart::paintPanel(QPainter &p, const QRectF &area, const QString &title,
                                          const char *key, double maxValue, double line,
                                          const QString &lineLabel, bool percent)
{
    const QRectF plot = area.adjusted(52, 22, -14, -22);
    p.setPen(palette().color(QPalette::Text));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QPointF(area.left() + 8, area.top() + 15), title);
    p.setFont(font());
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(plot);
    const auto yOf = [&](double v) { return plot.bottom() - (v / maxValue) * plot.height(); };
    // Axis labels: 0 and the top.
    p.setPen(palette().color(QPalette::PlaceholderText));
    const auto label = [&](double v) {
        return percent ? QStringLiteral("%1%").arg(v * 100, 0, 'f', 0) : QString::number(v, 'g', 3);
    };
    p.drawText(QRectF(area.left(), yOf(0) - 8, 48, 16), Qt::AlignRight | Qt::AlignVCenter,
               label(0));
    p.drawText(QRectF(area.left(), yOf(maxValue) - 8, 48, 16), Qt::AlignRight | Qt::AlignVCenter,
               label(maxValue));
    const int n = int(m_series.size());
    if (n > 0) {
        const auto at = [&](int i) {
            return QDateTime::fromString(
                       m_series.at(i).toObject().value(QStringLiteral("bucket_start")).toString(),
                       Qt::ISODateWithMs)
                .toLocalTime();
        };
        p.drawText(QRectF(plot.left(), plot.bottom() + 2, 120, 16), Qt::AlignLeft,
                   at(0).toString(QStringLiteral("MM-dd HH:mm")));
        // The right edge is where the last bucket ends.
        const QDateTime last = at(n - 1);
        const QDateTime end = n > 1 ? last.addSecs(at(n - 2).secsTo(last)) : last;
        p.drawText(QRectF(plot.right() - 120, plot.bottom() + 2, 120, 16), Qt::AlignRight,
                   end.toString(QStringLiteral("MM-dd HH:mm")));
    }
    if (line >= 0) {
        QPen dashed(QColor(0xd3, 0x2f, 0x2f), 1.4, Qt::DashLine);
        p.setPen(dashed);
        const qreal y = yOf(line);
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.drawText(QRectF(plot.right() - 170, y - 17, 166, 15), Qt::AlignRight | Qt::AlignVCenter,
                   lineLabel);
    }
    if (n == 0)
        return;
    const qreal step = plot.width() / n; // each bucket plotted at its middle
    const QColor colour = percent && QLatin1String(key) == QLatin1String("success_rate")
                              ? QColor(0x2e, 0x7d, 0x32)
                          : percent ? QColor(0xef, 0x6c, 0x00)
                                    : QColor(0x4c, 0x78, 0xa8);
    p.setPen(QPen(colour, 2));
    QPainterPath path;
    bool drawing = false;
    for (int i = 0; i < n; ++i) {
        const QJsonValue v = m_series.at(i).toObject().value(QLatin1String(key));
        const qreal x = plot.left() + (i + 0.5) * step;
        if (!v.isDouble()) {
            drawing = false;
            continue;
        }
        const QPointF point(x, yOf(v.toDouble()));
        if (drawing)
            path.lineTo(point);
        else
            path.moveTo(point);
        drawing = true;
        p.setBrush(colour);
        p.drawEllipse(point, 2.8, 2.8);
    }
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
}

} // namespace MemoryGraph::Ui
