#pragma once

#include "service/core/records.h"

#include <QAbstractTableModel>
#include <QVector>

namespace MemoryGraph::Ui {

/// The commit chain of one scope, in the order given (the page passes newest first). A page
/// that loads the chain lazily appends pages and says whether more exist; the view's
/// fetchMore() then asks for the next page through moreRequested().
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
    /// Adds older commits at the end (rows inserted).
    void appendCommits(const QVector<CommitRecord> &commits);
    const QVector<CommitRecord> &commits() const { return m_commits; }
    /// Row of a commit id, -1 when not loaded.
    int rowOf(const QString &commitId) const;

    /// Whether older commits exist beyond the loaded rows (false by default).
    void setMoreAvailable(bool more);
    bool moreAvailable() const { return m_moreAvailable; }
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

Q_SIGNALS:
    /// The view wants the next page; the owner loads it and calls appendCommits().
    void moreRequested();

private:
    QVector<CommitRecord> m_commits;
    bool m_moreAvailable = false;
    bool m_moreRequested = false;   ///< one request in flight until the next append/reset
};

} // namespace MemoryGraph::Ui
