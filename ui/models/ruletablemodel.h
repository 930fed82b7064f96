#pragma once

#include "service/memoryservice.h"
#include "ui/models/recordtablemodel.h"

#include <QSortFilterProxyModel>
#include <QVector>

namespace MemoryGraph::Ui {

/// The rules of one scope with their state and feedback statistics (spec §2.7). Holds service
/// records only; never queries. Priority and weight are read the way evaluation reads them
/// (rule_meta first, clamped), so the table shows what ranking will use.
class RuleTableModel : public RecordTableModel<RuleSummary>
{
    Q_OBJECT
public:
    enum class Column {
        Title,
        State,
        Scope,
        Target,
        Priority,
        Weight,
        Positive,
        Negative,
        LastMatched,
        Count
    };
    enum Role {
        RuleIdRole = Qt::UserRole + 1,
        StateRole,      ///< "shadow" | "active"
        RuleScopeRole,  ///< "global" | "team" | "agent"
        SortRole,       ///< a value that sorts naturally (numbers, times, lower-case text)
        SearchTextRole, ///< title, summary, ids and target joined, for the text filter
    };

    explicit RuleTableModel(QObject *parent = nullptr);

    /// Replaces the list (model reset).
    void setRules(const QVector<RuleSummary> &rules) { setRecords(rules); }
    const QVector<RuleSummary> &rules() const { return records(); }
    /// The rule in `row`; row must be valid.
    const RuleSummary &rule(int row) const { return record(row); }
    /// The rule's display name: its title, else its summary, else its id.
    static QString displayName(const NodeRecord &node);

protected:
    QVariant cellData(const RuleSummary &rule, int row, int column, int role) const override;
    /// Rules are found by their node's id.
    QString recordId(const RuleSummary &rule) const override { return rule.node.id; }

private:
    QVariant displayText(const RuleSummary &rule, Column column) const;
    QVariant sortValue(const RuleSummary &rule, Column column) const;
    QVariant toolTip(const RuleSummary &rule, Column column) const;
};

/// Filters a RuleTableModel by state, rule scope and free text, and sorts by SortRole.
class RuleFilterModel : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit RuleFilterModel(QObject *parent = nullptr);

    /// "" = any, else "shadow" or "active".
    void setStateFilter(const QString &state);
    /// "" = any, else "global", "team" or "agent".
    void setRuleScopeFilter(const QString &ruleScope);
    /// Case-insensitive substring of the title, summary, id, client id or target.
    void setTextFilter(const QString &text);
    QString stateFilter() const { return m_state; }
    QString ruleScopeFilter() const { return m_ruleScope; }
    QString textFilter() const { return m_text; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_state;
    QString m_ruleScope;
    QString m_text;
};

} // namespace MemoryGraph::Ui
