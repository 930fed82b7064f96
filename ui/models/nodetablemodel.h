#pragma once

#include "service/core/records.h"
#include "ui/models/recordtablemodel.h"

namespace MemoryGraph::Ui {

/// One page of nodes for the node browser. Holds service records only; never queries.
class NodeTableModel : public RecordTableModel<NodeRecord>
{
    Q_OBJECT
public:
    enum class Column { Title, Type, Tier, Lane, Owner, Embedding, Updated, ClientId, Id, Count };
    enum Role { NodeIdRole = Qt::UserRole + 1 };

    explicit NodeTableModel(QObject *parent = nullptr);

    /// Replaces the page (model reset).
    void setNodes(const QVector<NodeRecord> &nodes) { setRecords(nodes); }
    const QVector<NodeRecord> &nodes() const { return records(); }
    /// The node in `row`; row must be valid.
    const NodeRecord &node(int row) const { return record(row); }

protected:
    QVariant cellData(const NodeRecord &node, int row, int column, int role) const override;
    QString recordId(const NodeRecord &node) const override { return node.id; }

private:
    QVariant displayText(const NodeRecord &node, Column column) const;
    QVariant toolTip(const NodeRecord &node, Column column) const;
};

} // namespace MemoryGraph::Ui
