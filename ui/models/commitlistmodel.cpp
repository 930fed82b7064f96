#include "ui/models/commitlistmodel.h"

#include "ui/displayformat.h"

namespace MemoryGraph::Ui {

CommitListModel::CommitListModel(QObject *parent) : QAbstractTableModel(parent) {}

int CommitListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_commits.size());
}

int CommitListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant CommitListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CommitRecord &c = m_commits.at(index.row());
    const auto column = Column(index.column());

    if (role == CommitIdRole)
        return c.id;
    if (role == Qt::TextAlignmentRole && column == Column::Sequence)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        if (column == Column::Hash)
            return c.commitHash;
        if (column == Column::CommitId && !c.uri.isEmpty())
            return c.uri;
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};

    switch (column) {
    case Column::Sequence:
        return c.sequence;
    case Column::Time:
        return formatDateTime(c.createdAt);
    case Column::Kind:
        return c.kind;
    case Column::Actor:
        return c.actor;
    case Column::Hash:
        return shortHash(c.commitHash);
    case Column::CommitId:
        return c.id;
    case Column::Count:
        break;
    }
    return {};
}

QVariant CommitListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= int(Column::Count)) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (Column(section)) {
    case Column::Sequence:
        return tr("Seq");
    case Column::Time:
        return tr("Time");
    case Column::Kind:
        return tr("Kind");
    case Column::Actor:
        return tr("Actor");
    case Column::Hash:
        return tr("Hash");
    case Column::CommitId:
        return tr("Commit id");
    case Column::Count:
        break;
    }
    return {};
}

void CommitListModel::setCommits(const QVector<CommitRecord> &commits)
{
    beginResetModel();
    m_commits = commits;
    m_moreRequested = false;
    endResetModel();
}

void CommitListModel::appendCommits(const QVector<CommitRecord> &commits)
{
    m_moreRequested = false;
    if (commits.isEmpty())
        return;
    const int first = int(m_commits.size());
    beginInsertRows(QModelIndex(), first, first + int(commits.size()) - 1);
    m_commits += commits;
    endInsertRows();
}

int CommitListModel::rowOf(const QString &commitId) const
{
    for (int row = 0; row < m_commits.size(); ++row) {
        if (m_commits.at(row).id == commitId)
            return row;
    }
    return -1;
}

void CommitListModel::setMoreAvailable(bool more)
{
    m_moreAvailable = more;
}

bool CommitListModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && m_moreAvailable && !m_moreRequested;
}

void CommitListModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    m_moreRequested = true;
    Q_EMIT moreRequested();
}

} // namespace MemoryGraph::Ui
