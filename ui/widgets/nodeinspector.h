#pragma once

#include "service/memoryservice.h"

#include <QHash>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QTableWidget;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace MemoryGraph::Ui {

class MessageStack;

/// Every stored field of one node, its slots as JSON and the edges that touch it. Read-only.
class NodeInspector : public QWidget
{
    Q_OBJECT
public:
    explicit NodeInspector(QWidget *parent = nullptr);

    /// Shows a node; edges are listed from this node's point of view.
    void showDetail(const NodeDetail &detail);
    /// Replaces the content with a centred message (nothing selected, load error, ...).
    void showMessage(const QString &message);
    /// Says why a node could not be shown: gone (404), or the load's error.
    void showLoadFailure(const Error &error);
    /// Titles of nodes the caller knows, so an edge can name the node at its other end.
    void setNodeTitles(const QHash<QString, QString> &titles);
    /// Offers a "Show in graph" button beside the title (off by default).
    void setShowInGraphVisible(bool visible);

    bool hasNode() const { return !m_nodeId.isEmpty(); }
    QString nodeId() const { return m_nodeId; }
    QString titleText() const;
    QString slotsText() const;
    QString messageText() const;
    int edgeRowCount() const;
    /// The value shown for a field (spec name, e.g. "client_id"); empty if there is no such row.
    QString fieldText(const QString &field) const;

Q_SIGNALS:
    /// The operator asked to open the node at the other end of an edge.
    void nodeActivated(const QString &nodeId);
    /// The operator asked to see the shown node on the Graph page.
    void showInGraphRequested(const QString &nodeId);

private:
    QWidget *createDetailPane();
    void createHeadline(QWidget *pane);
    void createFieldsTree(QWidget *pane);
    void createSlotsView(QWidget *pane);
    void createEdgesTable(QWidget *pane);
    void fillFields(const NodeRecord &node);
    void fillEdges(const NodeDetail &detail);
    QTreeWidgetItem *addSection(const QString &title);
    QTreeWidgetItem *addField(QTreeWidgetItem *section, const QString &name, const QString &value);
    void addEmbeddingStatus(QTreeWidgetItem *section, const NodeRecord &n);
    QString titleFor(const QString &nodeId) const;

    QString m_nodeId;
    QHash<QString, QString> m_titles;

    MessageStack *m_stack = nullptr;
    QLabel *m_titleLabel = nullptr;
    QToolButton *m_showInGraphButton = nullptr;
    QLabel *m_summaryLabel = nullptr;
    QTreeWidget *m_fields = nullptr;
    QPlainTextEdit *m_slots = nullptr;
    QTableWidget *m_edges = nullptr;
    QLabel *m_edgesTitle = nullptr;
};

} // namespace MemoryGraph::Ui
