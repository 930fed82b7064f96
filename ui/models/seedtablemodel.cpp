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

SeedTableModel::SeedTableModel(QObject *parent)
    : RecordTableModel({tr("Title"), tr("Type"), tr("Tier"), tr("Similarity")}, parent)
{
    alignTitlesRight({int(Column::Similarity)});
}

QVariant SeedTableModel::cellData(const RecallSeed &s, int row, int columnIndex, int role) const
{
    const NodeRecord &n = s.node;
    const auto column = Column(columnIndex);
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Column::Title: return seedTitle(n);
        case Column::Type: return n.type;
        case Column::Tier: return n.tier;
        case Column::Similarity: return QString::number(s.similarity, 'f', 3);
        case Column::Count: break;
        }
        return {};
    case SortRole:
        if (column == Column::Similarity)
            return s.similarity;
        return cellData(s, row, columnIndex, Qt::DisplayRole);
    case Qt::ToolTipRole:
        if (column == Column::Title) {
            const QString summary
                = n.textSummary.isEmpty() ? QString() : n.textSummary + QLatin1Char('\n');
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
    case NodeIdRole: return n.id;
    default: return {};
    }
}

} // namespace MemoryGraph::Ui
