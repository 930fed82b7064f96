#include "ui/models/seedtablemodel.h"

#include "ui/widgets/graphstyle.h"

#include <QIcon>

namespace MemoryGraph::Ui {

namespace {

QString seedTitle(const NodeRecord &n)
{
    return n.title.isEmpty() ? n.textSummary : n.title;
}

/// "vec+word+sense": the channels that found the seed (vector, words, date, word senses), short so
/// the title keeps its room (the tooltip spells out their ranks).
QString foundBy(const RecallSeed &s)
{
    QStringList parts;
    if (s.vectorRank > 0)
        parts << SeedTableModel::tr("vec");
    if (s.lexicalRank > 0)
        parts << SeedTableModel::tr("word");
    if (s.timeRank > 0)
        parts << SeedTableModel::tr("date");
    if (s.conceptRank > 0)
        parts << SeedTableModel::tr("sense");
    return parts.join(QLatin1Char('+'));
}

/// "vector #2, words #1, word senses #4": each channel's place for the seed.
QString channelRanks(const RecallSeed &s)
{
    QStringList parts;
    if (s.vectorRank > 0)
        parts << SeedTableModel::tr("vector #%1").arg(s.vectorRank);
    if (s.lexicalRank > 0)
        parts << SeedTableModel::tr("words #%1").arg(s.lexicalRank);
    if (s.timeRank > 0)
        parts << SeedTableModel::tr("date #%1").arg(s.timeRank);
    if (s.conceptRank > 0)
        parts << SeedTableModel::tr("word senses #%1").arg(s.conceptRank);
    return parts.join(QStringLiteral(", "));
}

} // namespace

SeedTableModel::SeedTableModel(QObject *parent)
    : RecordTableModel({tr("Title"), tr("Type"), tr("Tier"), tr("Similarity"), tr("Found by")},
                       parent)
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
        case Column::FoundBy: return foundBy(s);
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
        if (column == Column::FoundBy)
            return tr("Found by %1; relevance %2. Seeds follow the channels' rankings fused.")
                .arg(channelRanks(s))
                .arg(s.relevance, 0, 'f', 3);
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
