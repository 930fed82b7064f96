#pragma once

#include "service/api/recalloutcome.h"
#include "ui/models/recordtablemodel.h"

#include <QHash>

namespace MemoryGraph::Ui {

/// The ranked list of one recall (spec §2.4): spreading-activation results, best first.
/// Entries carry ids only; titles and types come from whatever nodes the recall returned, and
/// an entry without one shows its id.
class RankedTableModel : public RecordTableModel<RankedEntry>
{
    Q_OBJECT
public:
    enum class Column { Rank, Title, Activation, Score, Count };
    enum Role {
        NodeIdRole = Qt::UserRole + 1,
        SortRole ///< raw value for sorting: numbers as numbers
    };

    /// What the model knows about a ranked node besides its id.
    struct NodeInfo
    {
        QString title;
        QString type;
    };

    explicit RankedTableModel(QObject *parent = nullptr);

    /// Replaces the list (model reset). `nodes` names the entries by id where known.
    void setRanked(const QVector<RankedEntry> &ranked, const QHash<QString, NodeInfo> &nodes = {});
    void clear() { setRanked({}); }
    const QVector<RankedEntry> &ranked() const { return records(); }
    /// The entry in `row`; row must be valid.
    const RankedEntry &entry(int row) const { return record(row); }
    /// The title shown for an id (the id itself when none is known).
    QString titleOf(const QString &nodeId) const;

protected:
    QVariant cellData(const RankedEntry &entry, int row, int column, int role) const override;
    QString recordId(const RankedEntry &entry) const override { return entry.id; }

private:
    QVariant sortValue(const RankedEntry &entry, int row, Column column) const;

    QHash<QString, NodeInfo> m_nodes;
};

} // namespace MemoryGraph::Ui
