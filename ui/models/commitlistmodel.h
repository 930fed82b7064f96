#pragma once

#include "service/core/records.h"
#include "ui/models/recordtablemodel.h"

namespace MemoryGraph::Ui {

/// The commit chain of one scope, in the order given (the page passes newest first). A page
/// that loads the chain lazily appends pages and says whether more exist; the view's
/// fetchMore() then asks for the next page through moreRequested().
class CommitListModel : public RecordTableModel<CommitRecord>
{
    Q_OBJECT
public:
    enum class Column { Sequence, Time, Kind, Actor, Hash, CommitId, Count };
    enum Role { CommitIdRole = Qt::UserRole + 1 };

    explicit CommitListModel(QObject *parent = nullptr);

    /// Replaces the list (model reset).
    void setCommits(const QVector<CommitRecord> &commits);
    /// Adds older commits at the end (rows inserted).
    void appendCommits(const QVector<CommitRecord> &commits);
    const QVector<CommitRecord> &commits() const { return records(); }

    /// Whether older commits exist beyond the loaded rows (false by default).
    void setMoreAvailable(bool more);
    bool moreAvailable() const { return m_moreAvailable; }
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

protected:
    QVariant cellData(const CommitRecord &commit, int row, int column, int role) const override;
    QString recordId(const CommitRecord &commit) const override { return commit.id; }

Q_SIGNALS:
    /// The view wants the next page; the owner loads it and calls appendCommits().
    void moreRequested();

private:
    bool m_moreAvailable = false;
    bool m_moreRequested = false; ///< one request in flight until the next append/reset
};

} // namespace MemoryGraph::Ui
