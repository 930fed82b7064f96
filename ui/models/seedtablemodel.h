#pragma once

#include "service/api/recalloutcome.h"

#include <QAbstractTableModel>
#include <QVector>

namespace MemoryGraph::Ui {

/// The seeds of one recall (spec §2.3): the nodes closest to the query vector, best first.
/// Holds service records only; never queries.
class SeedTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Column { Title, Type, Tier, Similarity, Count };
    enum Role {
        NodeIdRole = Qt::UserRole + 1,
        SortRole   ///< raw value for sorting: similarity as a number, text otherwise
    };

    explicit SeedTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Replaces the seeds (model reset).
    void setSeeds(const QVector<RecallSeed> &seeds);
    void clear() { setSeeds({}); }
    const QVector<RecallSeed> &seeds() const { return m_seeds; }
    /// The seed in `row`; row must be valid.
    const RecallSeed &seed(int row) const;
    /// Row of the seed with this node id, or -1.
    int rowOf(const QString &nodeId) const;

private:
    QVector<RecallSeed> m_seeds;
};

} // namespace MemoryGraph::Ui
