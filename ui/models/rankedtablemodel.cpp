#include "ui/models/rankedtablemodel.h"

#include "ui/widgets/graphstyle.h"

#include <QIcon>

namespace MemoryGraph::Ui {

RankedTableModel::RankedTableModel(QObject *parent) : QAbstractTableModel(parent) {}

int RankedTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_ranked.size());
}

int RankedTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant RankedTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RankedEntry &e = m_ranked.at(index.row());
    const auto column = Column(index.column());
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Column::Rank:
            return index.row() + 1;
        case Column::Title:
            return titleOf(e.id);
        case Column::Activation:
            return QString::number(e.activation, 'f', 3);
        case Column::Score:
            return QString::number(e.score, 'f', 3);
        case Column::Count:
            break;
        }
        return {};
    case SortRole:
        switch (column) {
        case Column::Rank:
            return index.row() + 1;
        case Column::Title:
            return titleOf(e.id);
        case Column::Activation:
            return e.activation;
        case Column::Score:
            return e.score;
        case Column::Count:
            break;
        }
        return {};
    case Qt::ToolTipRole:
        if (column == Column::Title) {
            const NodeInfo info = m_nodes.value(e.id);
            return info.type.isEmpty() ? tr("Node %1").arg(e.id)
                                       : tr("%1 node %2").arg(info.type, e.id);
        }
        return {};
    case Qt::DecorationRole:
        if (column == Column::Title) {
            const auto it = m_nodes.constFind(e.id);
            if (it != m_nodes.constEnd() && !it->type.isEmpty())
                return GraphStyle::typeIcon(it->type);
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column != Column::Title)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case NodeIdRole:
        return e.id;
    default:
        return {};
    }
}

QVariant RankedTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= int(Column::Count))
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::TextAlignmentRole && Column(section) != Column::Title)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Column::Rank:
        return tr("#");
    case Column::Title:
        return tr("Title");
    case Column::Activation:
        return tr("Activation");
    case Column::Score:
        return tr("Score");
    case Column::Count:
        break;
    }
    return {};
}

void RankedTableModel::setRanked(const QVector<RankedEntry> &ranked,
                                 const QHash<QString, NodeInfo> &nodes)
{
    beginResetModel();
    m_ranked = ranked;
    m_nodes = nodes;
    endResetModel();
}

const RankedEntry &RankedTableModel::entry(int row) const
{
    Q_ASSERT(row >= 0 && row < m_ranked.size());
    return m_ranked.at(row);
}

int RankedTableModel::rowOf(const QString &nodeId) const
{
    for (int row = 0; row < m_ranked.size(); ++row) {
        if (m_ranked.at(row).id == nodeId)
            return row;
    }
    return -1;
}

QString RankedTableModel::titleOf(const QString &nodeId) const
{
    const QString title = m_nodes.value(nodeId).title;
    return title.isEmpty() ? nodeId : title;
}

} // namespace MemoryGraph::Ui
