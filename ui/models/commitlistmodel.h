#pragma once

#include "service/core/records.h"

#include <QAbstractTableModel>
#include <QVector>

namespace MemoryGraph::Ui {

/// The commit chain of one scope, in the order given (the page passes newest first).
class CommitListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Column { Sequence, Time, Kind, Actor, Hash, CommitId, Count };
    enum Role { CommitIdRole = Qt::UserRole + 1 };

    explicit CommitListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Replaces the list (model reset).
    void setCommits(const QVector<CommitRecord> &commits);
    const QVector<CommitRecord> &commits() const { return m_commits; }

private:
    QVector<CommitRecord> m_commits;
};

} // namespace MemoryGraph::Ui
