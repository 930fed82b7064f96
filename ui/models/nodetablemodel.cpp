#include "ui/models/nodetablemodel.h"

#include "ui/displayformat.h"
#include "ui/embeddingstate.h"

#include <QBrush>
#include <QColor>

namespace MemoryGraph::Ui {

namespace {

// Mid-tone colours that stay readable on both the light and the dark palette.
QVariant embeddingBrush(EmbeddingState::Kind kind)
{
    switch (kind) {
    case EmbeddingState::Kind::Failed: return QBrush(QColor(0xd9, 0x4f, 0x4f));
    case EmbeddingState::Kind::Pending: return QBrush(QColor(0xd0, 0x8a, 0x1a));
    case EmbeddingState::Kind::NotRequested:
        // Muted, not red: leaving the node unembedded was the writer's choice.
        return QBrush(QColor(0x88, 0x88, 0x88));
    default: return {};
    }
}

} // namespace

NodeTableModel::NodeTableModel(QObject *parent)
    : RecordTableModel({tr("Title"), tr("Type"), tr("Tier"), tr("Lane"), tr("Owner"),
                        tr("Embedding"), tr("Updated"), tr("Client id"), tr("Id")},
                       parent)
{
}

QVariant NodeTableModel::cellData(const NodeRecord &n, int, int columnIndex, int role) const
{
    const auto column = Column(columnIndex);
    switch (role) {
    case Qt::DisplayRole: return displayText(n, column);
    case Qt::ToolTipRole: return toolTip(n, column);
    case Qt::ForegroundRole:
        if (column == Column::Embedding)
            return embeddingBrush(EmbeddingState::of(n).kind);
        return {};
    case NodeIdRole: return n.id;
    default: return {};
    }
}

QVariant NodeTableModel::displayText(const NodeRecord &n, Column column) const
{
    switch (column) {
    case Column::Title: return n.title.isEmpty() ? n.textSummary : n.title;
    case Column::Type: return n.type;
    case Column::Tier: return n.tier;
    case Column::Lane: return n.memoryLane;
    case Column::Owner:
        if (!n.ownerAgentId.isEmpty())
            return n.ownerAgentId;
        // A team-owned node has no owning agent; say so rather than leave the cell blank.
        return n.ownerTeamId.isEmpty() ? orDash({}) : tr("team %1").arg(n.ownerTeamId);
    case Column::Embedding: return EmbeddingState::of(n).text;
    case Column::Updated: return formatDateTime(n.updatedAt);
    case Column::ClientId: return n.clientId;
    case Column::Id: return n.id;
    case Column::Count: break;
    }
    return {};
}

QVariant NodeTableModel::toolTip(const NodeRecord &n, Column column) const
{
    switch (column) {
    case Column::Title: return n.textSummary.isEmpty() ? QVariant() : QVariant(n.textSummary);
    case Column::Owner:
        return tr("Owner agent: %1\nOwner team: %2\nProducer: %3")
            .arg(orDash(n.ownerAgentId), orDash(n.ownerTeamId), orDash(n.producerAgentId));
    case Column::Embedding: {
        const QString detail = EmbeddingState::of(n).detail;
        return detail.isEmpty() ? QVariant() : QVariant(detail);
    }
    default: return {};
    }
}

} // namespace MemoryGraph::Ui
