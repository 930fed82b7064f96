#pragma once

#include "service/api/recalloutcome.h"
#include "ui/models/recordtablemodel.h"

namespace MemoryGraph::Ui {

/// The seeds of one recall (spec §2.3), best first: the nodes closest to the query vector and,
/// for a text query, those its words match, with the channel that found each.
/// Holds service records only; never queries.
class SeedTableModel : public RecordTableModel<RecallSeed>
{
    Q_OBJECT
public:
    enum class Column { Title, Type, Tier, Similarity, FoundBy, Count };
    enum Role {
        NodeIdRole = Qt::UserRole + 1,
        SortRole ///< raw value for sorting: similarity as a number, text otherwise
    };

    explicit SeedTableModel(QObject *parent = nullptr);

    /// Replaces the seeds (model reset).
    void setSeeds(const QVector<RecallSeed> &seeds) { setRecords(seeds); }
    void clear() { setSeeds({}); }
    const QVector<RecallSeed> &seeds() const { return records(); }
    /// The seed in `row`; row must be valid.
    const RecallSeed &seed(int row) const { return record(row); }

protected:
    QVariant cellData(const RecallSeed &seed, int row, int column, int role) const override;
    /// Seeds are found by their node's id.
    QString recordId(const RecallSeed &seed) const override { return seed.node.id; }
};

} // namespace MemoryGraph::Ui
