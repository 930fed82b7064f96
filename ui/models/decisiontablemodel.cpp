#include "ui/models/decisiontablemodel.h"

#include "ui/displayformat.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace MemoryGraph::Ui {

namespace {

constexpr int HashLength = 12;

} // namespace

DecisionTableModel::DecisionTableModel(QObject *parent) : QAbstractTableModel(parent) {}

int DecisionTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_decisions.size());
}

int DecisionTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant DecisionTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const DecisionRecord &d = m_decisions.at(index.row());
    const auto column = Column(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return displayText(d, column);
    case Qt::ToolTipRole:
        return toolTip(d, column);
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
    case DecisionIdRole:
        return d.id;
    default:
        return {};
    }
}

QVariant DecisionTableModel::displayText(const DecisionRecord &d, Column column) const
{
    switch (column) {
    case Column::Time:
        return formatDateTime(d.createdAt);
    case Column::Run:
        return orDash(d.runId);
    case Column::SelectedTool:
        return d.selectedTool.isEmpty() ? tr("(none)") : d.selectedTool;
    case Column::Candidates:
        return int(d.candidates.size());
    case Column::SourceRules:
        return int(d.sourceRuleIds.size());
    case Column::PolicyHash:
        return shortHash(d.policySha256, HashLength);
    case Column::Count:
        break;
    }
    return {};
}

QVariant DecisionTableModel::toolTip(const DecisionRecord &d, Column column) const
{
    switch (column) {
    case Column::Time:
        return tr("Decision %1").arg(d.id);
    case Column::Candidates:
        return d.candidates.join(QStringLiteral(", "));
    case Column::SourceRules:
        return d.sourceRuleIds.isEmpty() ? tr("No rule contributed to the policy")
                                         : d.sourceRuleIds.join(QLatin1Char('\n'));
    case Column::PolicyHash:
        return tr("sha256 of the applied policy:\n%1").arg(d.policySha256);
    default:
        return {};
    }
}

QVariant DecisionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= int(Column::Count))
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::TextAlignmentRole
        && (Column(section) == Column::Candidates || Column(section) == Column::SourceRules))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Column::Time:
        return tr("Time");
    case Column::Run:
        return tr("Run");
    case Column::SelectedTool:
        return tr("Selected tool");
    case Column::Candidates:
        return tr("Candidates");
    case Column::SourceRules:
        return tr("Source rules");
    case Column::PolicyHash:
        return tr("Policy hash");
    case Column::Count:
        break;
    }
    return {};
}

void DecisionTableModel::setDecisions(const QVector<DecisionRecord> &decisions)
{
    beginResetModel();
    m_decisions = decisions;
    endResetModel();
}

const DecisionRecord &DecisionTableModel::decision(int row) const
{
    Q_ASSERT(row >= 0 && row < m_decisions.size());
    return m_decisions.at(row);
}

int DecisionTableModel::rowOf(const QString &decisionId) const
{
    for (int row = 0; row < m_decisions.size(); ++row) {
        if (m_decisions.at(row).id == decisionId)
            return row;
    }
    return -1;
}

} // namespace MemoryGraph::Ui
