#pragma once

#include "service/core/records.h"
#include "ui/models/recordtablemodel.h"

namespace MemoryGraph::Ui {

/// Persisted tool-selection decisions (spec §2.10), in the order given (the page passes newest
/// first). Holds service records only; never queries.
class DecisionTableModel : public RecordTableModel<DecisionRecord>
{
    Q_OBJECT
public:
    enum class Column { Time, Run, SelectedTool, Candidates, SourceRules, PolicyHash, Count };
    enum Role { DecisionIdRole = Qt::UserRole + 1 };

    explicit DecisionTableModel(QObject *parent = nullptr);

    /// Replaces the list (model reset).
    void setDecisions(const QVector<DecisionRecord> &decisions) { setRecords(decisions); }
    const QVector<DecisionRecord> &decisions() const { return records(); }
    /// The decision in `row`; row must be valid.
    const DecisionRecord &decision(int row) const { return record(row); }

protected:
    QVariant cellData(const DecisionRecord &decision, int row, int column, int role) const override;
    QString recordId(const DecisionRecord &decision) const override { return decision.id; }

private:
    QVariant displayText(const DecisionRecord &d, Column column) const;
    QVariant toolTip(const DecisionRecord &d, Column column) const;
};

} // namespace MemoryGraph::Ui
