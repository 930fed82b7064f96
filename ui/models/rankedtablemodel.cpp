#include "ui/models/rankedtablemodel.h"

#include "ui/widgets/graphstyle.h"

#include <QIcon>

namespace MemoryGraph::Ui {

RankedTableModel::RankedTableModel(QObject *parent)
    : RecordTableModel({tr("#"), tr("Title"), tr("Activation"), tr("Score")}, parent)
{
    alignTitlesRight({int(Column::Rank), int(Column::Activation), int(Column::Score)});
}

QVariant RankedTableModel::sortValue(const RankedEntry &e, int row, Column column) const
{
    switch (column) {
    case Column::Rank: return row + 1;
    case Column::Title: return titleOf(e.id);
    case Column::Activation: return e.activation;
    case Column::Score: return e.score;
    case Column::Count: break;
    }
    return {};
}

QVariant RankedTableModel::cellData(const RankedEntry &e, int row, int columnIndex, int role) const
{
    const auto column = Column(columnIndex);
    switch (role) {
    case Qt::DisplayRole:
        // Scores with three decimals; the rank and the title as they sort.
        if (column == Column::Activation || column == Column::Score)
            return QString::number(sortValue(e, row, column).toDouble(), 'f', 3);
        return sortValue(e, row, column);
    case SortRole: return sortValue(e, row, column);
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
    case NodeIdRole: return e.id;
    default: return {};
    }
}

void RankedTableModel::setRanked(const QVector<RankedEntry> &ranked,
                                 const QHash<QString, NodeInfo> &nodes)
{
    m_nodes = nodes; // read only while the reset below redraws
    setRecords(ranked);
}

QString RankedTableModel::titleOf(const QString &nodeId) const
{
    const QString title = m_nodes.value(nodeId).title;
    return title.isEmpty() ? nodeId : title;
}

} // namespace MemoryGraph::Ui
