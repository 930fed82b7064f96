#include "ui/models/replayrunlistmodel.h"

#include "ui/displayformat.h"

#include <QBrush>
#include <QColor>

namespace MemoryGraph::Ui {

namespace {

constexpr int ShortIdLength = 8;

} // namespace

ReplayRunListModel::ReplayRunListModel(QObject *parent)
    : RecordTableModel(
        {tr("Run"), tr("Goal"), tr("Status"), tr("Started"), tr("Ended"), tr("Steps")}, parent)
{
}

QColor ReplayRunListModel::statusColour(const QString &status)
{
    if (status == QLatin1String("success"))
        return QColor(0x3f, 0xa3, 0x5b);
    if (status == QLatin1String("failed"))
        return QColor(0xd9, 0x4f, 0x4f);
    if (status == QLatin1String("partial") || status == QLatin1String("skipped"))
        return QColor(0xd0, 0x8c, 0x20);
    return QColor(0x4a, 0x90, 0xd9); // in_progress, pending
}

QVariant ReplayRunListModel::cellData(const ReplayRunSummary &r, int, int columnIndex,
                                      int role) const
{
    const auto column = Column(columnIndex);
    switch (role) {
    case Qt::DisplayRole: return displayText(r, column);
    case Qt::ToolTipRole:
        if (column == Column::Run)
            return r.runId;
        if (column == Column::Goal)
            return r.goal;
        return {};
    case Qt::ForegroundRole:
        if (column == Column::Status)
            return QBrush(statusColour(r.status));
        return {};
    case Qt::TextAlignmentRole:
        if (column == Column::Steps)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case RunIdRole: return r.runId;
    case FilterTextRole:
        // The filter matches the full run id, the goal and the status.
        return r.runId + QLatin1Char(' ') + r.goal + QLatin1Char(' ') + r.status;
    default: return {};
    }
}

QVariant ReplayRunListModel::displayText(const ReplayRunSummary &r, Column column) const
{
    switch (column) {
    case Column::Run: return r.runId.left(ShortIdLength);
    case Column::Goal: return r.goal;
    case Column::Status: return r.status;
    case Column::Started: return formatDateTime(r.startedAt);
    case Column::Ended: return formatDateTime(r.endedAt);
    case Column::Steps: return r.stepCount;
    case Column::Count: break;
    }
    return {};
}

} // namespace MemoryGraph::Ui
