#include "ui/models/replayrunlistmodel.h"

#include "ui/displayformat.h"

#include <QBrush>
#include <QColor>

namespace MemoryGraph::Ui {

namespace {

constexpr int ShortIdLength = 8;

} // namespace

ReplayRunListModel::ReplayRunListModel(QObject *parent) : QAbstractTableModel(parent) {}

int ReplayRunListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

int ReplayRunListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QColor ReplayRunListModel::statusColour(const QString &status)
{
    if (status == QLatin1String("success"))
        return QColor(0x3f, 0xa3, 0x5b);
    if (status == QLatin1String("failed"))
        return QColor(0xd9, 0x4f, 0x4f);
    if (status == QLatin1String("partial") || status == QLatin1String("skipped"))
        return QColor(0xd0, 0x8c, 0x20);
    return QColor(0x4a, 0x90, 0xd9);   // in_progress, pending
}

QVariant ReplayRunListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ReplayRunSummary &r = m_runs.at(index.row());
    const auto column = Column(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return displayText(r, column);
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
    case RunIdRole:
        return r.runId;
    case FilterTextRole:
        // The filter matches the full run id, the goal and the status.
        return r.runId + QLatin1Char(' ') + r.goal + QLatin1Char(' ') + r.status;
    default:
        return {};
    }
}

QVariant ReplayRunListModel::displayText(const ReplayRunSummary &r, Column column) const
{
    switch (column) {
    case Column::Run:
        return r.runId.left(ShortIdLength);
    case Column::Goal:
        return r.goal;
    case Column::Status:
        return r.status;
    case Column::Started:
        return formatDateTime(r.startedAt);
    case Column::Ended:
        return formatDateTime(r.endedAt);
    case Column::Steps:
        return r.stepCount;
    case Column::Count:
        break;
    }
    return {};
}

QVariant ReplayRunListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Column::Run:
        return tr("Run");
    case Column::Goal:
        return tr("Goal");
    case Column::Status:
        return tr("Status");
    case Column::Started:
        return tr("Started");
    case Column::Ended:
        return tr("Ended");
    case Column::Steps:
        return tr("Steps");
    case Column::Count:
        break;
    }
    return {};
}

void ReplayRunListModel::setRuns(const QVector<ReplayRunSummary> &runs)
{
    beginResetModel();
    m_runs = runs;
    endResetModel();
}

int ReplayRunListModel::rowOf(const QString &runId) const
{
    for (int i = 0; i < m_runs.size(); ++i) {
        if (m_runs[i].runId == runId)
            return i;
    }
    return -1;
}

} // namespace MemoryGraph::Ui
