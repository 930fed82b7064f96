#pragma once

#include <QJsonArray>
#include <QWidget>

namespace MemoryGraph::Ui {

/// Automation telemetry over time (automations/telemetry "series"): success rate, pause rate
/// and p95 duration per bucket, one panel each, with the SLO target as a dashed line (success
/// rate) and the window's p95 as a reference line. Buckets without runs leave a gap.
class AutomationTelemetryChart : public QWidget
{
    Q_OBJECT
public:
    explicit AutomationTelemetryChart(QWidget *parent = nullptr);

    /// series: [{bucket_start, total, success_rate, pause_rate, p95_duration_seconds}].
    void setData(const QJsonArray &series, double successTarget, double windowP95Seconds);
    int bucketCount() const { return int(m_series.size()); }

    QSize sizeHint() const override { return {640, 420}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void paintPanel(class QPainter &p, const QRectF &area, const QString &title, const char *key,
                    double maxValue, double line, const QString &lineLabel, bool percent);

    QJsonArray m_series;
    double m_successTarget = 0.95;
    double m_windowP95 = -1;
};

} // namespace MemoryGraph::Ui
