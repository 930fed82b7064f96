#include "ui/models/decisiontablemodel.h"

#include "ui/displayformat.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace MemoryGraph::Ui {

namespace {

constexpr int HashLength = 12;

} // namespace

DecisionTableModel::DecisionTableModel(QObject *parent)
    : RecordTableModel({tr("Time"), tr("Run"), tr("Selected tool"), tr("Candidates"),
                        tr("Source rules"), tr("Policy hash")},
                       parent)
{
    alignTitlesRight({int(Column::Candidates), int(Column::SourceRules)});
}

QVariant DecisionTableModel::cellData(const DecisionRecord &d, int, int columnIndex, int role) const
{
    const auto column = Column(columnIndex);
    switch (role) {
    case Qt::DisplayRole: return displayText(d, column);
    case Qt::ToolTipRole: return toolTip(d, column);
    case Qt::TextAlignmentRole:
        if (column == Column::Candidates || column == Column::SourceRules)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (column == Column::SelectedTool && d.selectedTool.isEmpty()) {
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        return {};
    case Qt::ForegroundRole:
        // Nothing selected (strict=false fallback that denied everything): worth noticing.
        if (column == Column::SelectedTool && d.selectedTool.isEmpty())
            return QBrush(QColor(0xd9, 0x4f, 0x4f));
        return {};
    case DecisionIdRole: return d.id;
    default: return {};
    }
}

QVariant DecisionTableModel::displayText(const DecisionRecord &d, Column column) const
{
    switch (column) {
    case Column::Time: return formatDateTime(d.createdAt);
    case Column::Run: return orDash(d.runId);
    case Column::SelectedTool: return d.selectedTool.isEmpty() ? tr("(none)") : d.selectedTool;
    case Column::Candidates: return int(d.candidates.size());
    case Column::SourceRules: return int(d.sourceRuleIds.size());
    case Column::PolicyHash: return shortHash(d.policySha256, HashLength);
    case Column::Count: break;
    }
    return {};
}

QVariant DecisionTableModel::toolTip(const DecisionRecord &d, Column column) const
{
    switch (column) {
    case Column::Time: return tr("Decision %1").arg(d.id);
    case Column::Candidates: return d.candidates.join(QStringLiteral(", "));
    case Column::SourceRules:
        return d.sourceRuleIds.isEmpty() ? tr("No rule contributed to the policy")
                                         : d.sourceRuleIds.join(QLatin1Char('\n'));
    case Column::PolicyHash: return tr("sha256 of the applied policy:\n%1").arg(d.policySha256);
    default: return {};
    }
}

} // namespace MemoryGraph::Ui
