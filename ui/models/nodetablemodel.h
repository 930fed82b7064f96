#pragma once

#include "service/core/records.h"

#include <QAbstractTableModel>
#include <QVector>

namespace MemoryGraph::Ui {

/// One page of nodes for the node browser. Holds service records only; never queries.
class NodeTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum class Column { Title, Type, Tier, Lane, Owner, Embedding, Updated, ClientId, Id, Count };
    enum Role { NodeIdRole = Qt::UserRole + 1 };

    explicit NodeTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = QModelIndex()) const override;
    int columnCount(const QModelIndex &parent = QModelIndex()) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    /// Replaces the page (model reset).
    void setNodes(const QVector<NodeRecord> &nodes);
    const QVector<NodeRecord> &nodes() const { return m_nodes; }
    /// The node in `row`; row must be valid.
    const NodeRecord &node(int row) const;
    /// Row of the node with this id, or -1.
    int rowOf(const QString &nodeId) const;

private:
    QVariant displayText(const NodeRecord &node, Column column) const;
    QVariant toolTip(const NodeRecord &node, Column column) const;

    QVector<NodeRecord> m_nodes;
};

} // namespace MemoryGraph::Ui
