#pragma once

#include "service/api/replayviews.h"
#include "ui/models/recordtablemodel.h"

namespace MemoryGraph::Ui {

/// Replay runs of one scope (reference §7.1), in the order given (the page passes newest first).
/// Holds service records only; never queries.
class ReplayRunListModel : public RecordTableModel<ReplayRunSummary>
{
    Q_OBJECT
public:
    enum class Column { Run, Goal, Status, Started, Ended, Steps, Count };
    enum Role { RunIdRole = Qt::UserRole + 1, FilterTextRole };

    explicit ReplayRunListModel(QObject *parent = nullptr);

    /// Replaces the list (model reset).
    void setRuns(const QVector<ReplayRunSummary> &runs) { setRecords(runs); }
    const ReplayRunSummary &run(int row) const { return record(row); }

    /// The colour a run or step status is shown in (success green, failed red, ...).
    static QColor statusColour(const QString &status);

protected:
    QVariant cellData(const ReplayRunSummary &run, int row, int column, int role) const override;
    QString recordId(const ReplayRunSummary &run) const override { return run.runId; }

private:
    QVariant displayText(const ReplayRunSummary &run, Column column) const;
};

} // namespace MemoryGraph::Ui
