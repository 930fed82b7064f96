#include "ui/models/seedtablemodel.h"

#include "ui/widgets/graphstyle.h"

#include <QIcon>

namespace MemoryGraph::Ui {

namespace {

QString seedTitle(const NodeRecord &n)
{
    return n.title.isEmpty() ? n.textSummary : n.title;
}

} // namespace

SeedTableModel::SeedTableModel(QObject *parent) : QAbstractTableModel(parent) {}

int SeedTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_seeds.size());
}

int SeedTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant SeedTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RecallSeed &s = m_seeds.at(index.row());
    const NodeRecord &n = s.node;
    const auto column = Column(index.column());
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Column::Title:
            return seedTitle(n);
        case Column::Type:
            return n.type;
        case Column::Tier:
            return n.tier;
        case Column::Similarity:
            return QString::number(s.similarity, 'f', 3);
        case Column::Count:
            break;
        }
        return {};
    case SortRole:
        if (column == Column::Similarity)
            return s.similarity;
        return data(index, Qt::DisplayRole);
    case Qt::ToolTipRole:
        if (column == Column::Title) {
            const QString summary = n.textSummary.isEmpty() ? QString() : n.textSummary + QLatin1Char('\n');
            return tr("%1Node %2").arg(summary, n.id);
        }
        if (column == Column::Similarity)
            return tr("Cosine similarity to the query: %1").arg(s.similarity, 0, 'f', 6);
        return {};
    case Qt::DecorationRole:
        // The same colour the node has on the graph canvas.
        if (column == Column::Type)
            return GraphStyle::typeIcon(n.type);
        return {};
    case Qt::TextAlignmentRole:
        if (column == Column::Similarity)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case NodeIdRole:
        return n.id;
    default:
        return {};
    }
}

QVariant SeedTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= int(Column::Count))
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::TextAlignmentRole && Column(section) == Column::Similarity)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Column::Title:
        return tr("Title");
    case Column::Type:
        return tr("Type");
    case Column::Tier:
        return tr("Tier");
    case Column::Similarity:
        return tr("Similarity");
    case Column::Count:
        break;
    }
    return {};
}

void SeedTableModel::setSeeds(const QVector<RecallSeed> &seeds)
{
    beginResetModel();
    m_seeds = seeds;
    endResetModel();
}

const RecallSeed &SeedTableModel::seed(int row) const
{
    Q_ASSERT(row >= 0 && row < m_seeds.size());
    return m_seeds.at(row);
}

int SeedTableModel::rowOf(const QString &nodeId) const
{
    for (int row = 0; row < m_seeds.size(); ++row) {
        if (m_seeds.at(row).node.id == nodeId)
            return row;
    }
    return -1;
}

} // namespace MemoryGraph::Ui
