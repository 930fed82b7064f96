#include "ui/models/commitlistmodel.h"

#include "ui/displayformat.h"

namespace MemoryGraph::Ui {

CommitListModel::CommitListModel(QObject *parent)
    : RecordTableModel(
        {tr("Seq"), tr("Time"), tr("Kind"), tr("Actor"), tr("Hash"), tr("Commit id")}, parent)
{
}

QVariant CommitListModel::cellData(const CommitRecord &c, int, int columnIndex, int role) const
{
    const auto column = Column(columnIndex);

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
    case Column::Sequence: return c.sequence;
    case Column::Time: return formatDateTime(c.createdAt);
    case Column::Kind: return c.kind;
    case Column::Actor: return c.actor;
    case Column::Hash: return shortHash(c.commitHash);
    case Column::CommitId: return c.id;
    case Column::Count: break;
    }
    return {};
}

void CommitListModel::setCommits(const QVector<CommitRecord> &commits)
{
    m_moreRequested = false;
    setRecords(commits);
}

void CommitListModel::appendCommits(const QVector<CommitRecord> &commits)
{
    m_moreRequested = false;
    appendRecords(commits);
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
