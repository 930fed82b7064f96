#pragma once

#include "service/core/records.h"

#include <QAbstractTableModel>
#include <QVector>

namespace MemoryGraph::Ui {

/// Persisted tool-selection decisions (spec §2.10), in the order given (the page passes newest
/// first). Holds service records only; never queries.
class DecisionTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Column { Time, Run, SelectedTool, Candidates, SourceRules, PolicyHash, Count };
    enum Role { DecisionIdRole = Qt::UserRole + 1 };

    explicit DecisionTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Replaces the list (model reset).
    void setDecisions(const QVector<DecisionRecord> &decisions);
    const QVector<DecisionRecord> &decisions() const { return m_decisions; }
    /// The decision in `row`; row must be valid.
    const DecisionRecord &decision(int row) const;
    /// Row of the decision with this id, or -1.
    int rowOf(const QString &decisionId) const;

private:
    QVariant displayText(const DecisionRecord &d, Column column) const;
    QVariant toolTip(const DecisionRecord &d, Column column) const;

    QVector<DecisionRecord> m_decisions;
};

} // namespace MemoryGraph::Ui
