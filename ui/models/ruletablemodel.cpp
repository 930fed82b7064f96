#include "ui/models/ruletablemodel.h"

#include "service/rules/ruledefinition.h"
#include "service/rules/rulerank.h"
#include "ui/displayformat.h"

#include <QBrush>
#include <QColor>

namespace MemoryGraph::Ui {

namespace {

// Mid-tone colours that stay readable on both the light and the dark palette.
QVariant stateBrush(const QString &state)
{
    if (state == QLatin1String("active"))
        return QBrush(QColor(0x2e, 0x9e, 0x4f));
    if (state == QLatin1String("draft"))
        return QBrush(QColor(0x5b, 0x7f, 0xb5));
    if (state == QLatin1String("disabled"))
        return QBrush(QColor(0x88, 0x88, 0x88));
    return QBrush(QColor(0xc0, 0x80, 0x20));
}

QString targetOf(const RuleDefinition &def)
{
    if (def.ruleScope == QLatin1String("agent"))
        return def.targetAgentId;
    if (def.ruleScope == QLatin1String("team"))
        return def.targetTeamId;
    return {};
}

/// A narrow-column time: the time alone today, month and day this year, else the date.
QString compactTime(const QDateTime &at)
{
    const QDateTime local = at.toLocalTime();
    const QDate today = QDate::currentDate();
    if (local.date() == today)
        return local.toString(QStringLiteral("HH:mm:ss"));
    if (local.date().year() == today.year())
        return local.toString(QStringLiteral("MM-dd HH:mm"));
    return local.toString(QStringLiteral("yyyy-MM-dd"));
}

Rules::RuleRank rankOf(const RuleSummary &rule)
{
    return Rules::computeRank(rule.node.slotData, int(rule.status.positive),
                              int(rule.status.negative), 0);
}

} // namespace

RuleTableModel::RuleTableModel(QObject *parent)
    : RecordTableModel({tr("Rule"), tr("State"), tr("Scope"), tr("Target"), tr("Priority"),
                        tr("Weight"), tr("Positive"), tr("Negative"), tr("Last matched")},
                       parent)
{
}

QString RuleTableModel::displayName(const NodeRecord &node)
{
    if (!node.title.isEmpty())
        return node.title;
    return node.textSummary.isEmpty() ? node.id : node.textSummary;
}

QVariant RuleTableModel::cellData(const RuleSummary &r, int, int columnIndex, int role) const
{
    const auto column = Column(columnIndex);
    switch (role) {
    case Qt::DisplayRole: return displayText(r, column);
    case Qt::ToolTipRole: return toolTip(r, column);
    case Qt::ForegroundRole:
        return column == Column::State ? stateBrush(r.status.state) : QVariant();
    case Qt::TextAlignmentRole:
        switch (column) {
        case Column::Priority:
        case Column::Weight:
        case Column::Positive:
        case Column::Negative: return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default: return {};
        }
    case RuleIdRole: return r.node.id;
    case StateRole: return r.status.state;
    case RuleScopeRole: return RuleDefinition::fromNode(r.node).ruleScope;
    case SortRole: return sortValue(r, column);
    case SearchTextRole: {
        const RuleDefinition def = RuleDefinition::fromNode(r.node);
        return QStringList{r.node.title,    r.node.textSummary, r.node.id,
                           r.node.clientId, def.targetAgentId,  def.targetTeamId}
            .join(QLatin1Char('\n'));
    }
    default: return {};
    }
}

QVariant RuleTableModel::displayText(const RuleSummary &r, Column column) const
{
    switch (column) {
    case Column::Title: return displayName(r.node);
    case Column::State: return r.status.state.toUpper();
    case Column::Scope: return RuleDefinition::fromNode(r.node).ruleScope;
    case Column::Target: return orDash(targetOf(RuleDefinition::fromNode(r.node)));
    case Column::Priority: return rankOf(r).priority;
    case Column::Weight: return QString::number(rankOf(r).weight, 'f', 2);
    case Column::Positive: return r.status.positive;
    case Column::Negative: return r.status.negative;
    case Column::LastMatched:
        return r.status.lastMatchedAt.isValid() ? compactTime(r.status.lastMatchedAt) : tr("never");
    case Column::Count: break;
    }
    return {};
}

QVariant RuleTableModel::sortValue(const RuleSummary &r, Column column) const
{
    switch (column) {
    case Column::Title: return displayName(r.node).toLower();
    case Column::Priority: return rankOf(r).priority;
    case Column::Weight: return rankOf(r).weight;
    case Column::Positive: return r.status.positive;
    case Column::Negative: return r.status.negative;
    case Column::LastMatched:
        return r.status.lastMatchedAt.isValid() ? r.status.lastMatchedAt.toMSecsSinceEpoch()
                                                : qint64(0);
    default: return displayText(r, column);
    }
}

QVariant RuleTableModel::toolTip(const RuleSummary &r, Column column) const
{
    switch (column) {
    case Column::Title:
        return tr("%1\n\nid: %2\nclient_id: %3")
            .arg(r.node.textSummary.isEmpty() ? displayName(r.node) : r.node.textSummary, r.node.id,
                 orDash(r.node.clientId));
    case Column::State:
        if (r.status.state == QLatin1String("active"))
            return tr("Active: the rule's policy is enforced when it matches");
        if (r.status.state == QLatin1String("draft"))
            return tr("Draft: the rule is being written and is never evaluated");
        if (r.status.state == QLatin1String("disabled"))
            return tr("Disabled: the rule is switched off and is never evaluated");
        return tr("Shadow: the rule is evaluated and reported, but not enforced");
    case Column::Target: {
        const RuleDefinition def = RuleDefinition::fromNode(r.node);
        if (def.ruleScope == QLatin1String("agent"))
            return tr("Applies only to agent %1").arg(def.targetAgentId);
        if (def.ruleScope == QLatin1String("team"))
            return tr("Applies only to team %1").arg(def.targetTeamId);
        return tr("Applies to every agent");
    }
    case Column::Priority:
    case Column::Weight: {
        const Rules::RuleRank rank = rankOf(r);
        return tr("Rank score = priority \u00d7 1000 + evidence \u00d7 100 \u00d7 weight + "
                  "specificity\n"
                  "priority %1, weight %2, evidence %3")
            .arg(rank.priority)
            .arg(rank.weight)
            .arg(rank.evidenceScore);
    }
    case Column::LastMatched:
        return r.status.lastMatchedAt.isValid()
                   ? tr("Last matched by a recorded tool selection: %1")
                         .arg(formatDateTime(r.status.lastMatchedAt))
                   : tr("No recorded tool selection has matched this rule yet");
    case Column::Positive:
    case Column::Negative:
        return tr("Feedback attributed to this rule: %1 positive, %2 negative")
            .arg(r.status.positive)
            .arg(r.status.negative);
    default: return {};
    }
}

RuleFilterModel::RuleFilterModel(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(RuleTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

void RuleFilterModel::setStateFilter(const QString &state)
{
    if (state == m_state)
        return;
    m_state = state;
    invalidateFilter();
}

void RuleFilterModel::setRuleScopeFilter(const QString &ruleScope)
{
    if (ruleScope == m_ruleScope)
        return;
    m_ruleScope = ruleScope;
    invalidateFilter();
}

void RuleFilterModel::setTextFilter(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    invalidateFilter();
}

bool RuleFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (!m_state.isEmpty() && index.data(RuleTableModel::StateRole).toString() != m_state)
        return false;
    if (!m_ruleScope.isEmpty()
        && index.data(RuleTableModel::RuleScopeRole).toString() != m_ruleScope)
        return false;
    if (!m_text.isEmpty()
        && !index.data(RuleTableModel::SearchTextRole)
                .toString()
                .contains(m_text, Qt::CaseInsensitive))
        return false;
    return true;
}

} // namespace MemoryGraph::Ui
