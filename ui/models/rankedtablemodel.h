#pragma once

#include "service/api/recalloutcome.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QVector>

namespace MemoryGraph::Ui {

/// The ranked list of one recall (spec §2.4): spreading-activation results, best first.
/// Entries carry ids only; titles and types come from whatever nodes the recall returned, and
/// an entry without one shows its id.
class RankedTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Column { Rank, Title, Activation, Score, Count };
    enum Role {
        NodeIdRole = Qt::UserRole + 1,
        SortRole   ///< raw value for sorting: numbers as numbers
    };

    /// What the model knows about a ranked node besides its id.
    struct NodeInfo
    {
        QString title;
        QString type;
    };

    explicit RankedTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Replaces the list (model reset). `nodes` names the entries by id where known.
    void setRanked(const QVector<RankedEntry> &ranked, const QHash<QString, NodeInfo> &nodes = {});
    void clear() { setRanked({}); }
    const QVector<RankedEntry> &ranked() const { return m_ranked; }
    /// The entry in `row`; row must be valid.
    const RankedEntry &entry(int row) const;
    /// Row of the entry with this node id, or -1.
    int rowOf(const QString &nodeId) const;
    /// The title shown for an id (the id itself when none is known).
    QString titleOf(const QString &nodeId) const;

private:
    QVector<RankedEntry> m_ranked;
    QHash<QString, NodeInfo> m_nodes;
};

} // namespace MemoryGraph::Ui
