#pragma once

#include "service/api/replayviews.h"

#include <QAbstractTableModel>
#include <QVector>

namespace MemoryGraph::Ui {

/// Replay runs of one scope (reference §7.1), in the order given (the page passes newest first).
/// Holds service records only; never queries.
class ReplayRunListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Column { Run, Goal, Status, Started, Ended, Steps, Count };
    enum Role { RunIdRole = Qt::UserRole + 1, FilterTextRole };

    explicit ReplayRunListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Replaces the list (model reset).
    void setRuns(const QVector<ReplayRunSummary> &runs);
    const ReplayRunSummary &run(int row) const { return m_runs.at(row); }
    /// Row of the run with this id, or -1.
    int rowOf(const QString &runId) const;

    /// The colour a run or step status is shown in (success green, failed red, ...).
    static QColor statusColour(const QString &status);

private:
    QVariant displayText(const ReplayRunSummary &run, Column column) const;

    QVector<ReplayRunSummary> m_runs;
};

} // namespace MemoryGraph::Ui
