#pragma once

#include "ui/pages/pageskeleton.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace MemoryGraph {
class MemoryService;
struct NodePage;
} // namespace MemoryGraph

namespace MemoryGraph::Ui {

class CommitListModel;
class NodeActions;
class NodeInspector;
class NodeTableModel;

/// Browses one (tenant, scope) of the memory graph: a filtered, paged node table, the
/// selected node's inspector and the scope's commit chain.
///
/// Each kind of load carries a generation number so a slow, outdated answer never overwrites a
/// newer one. The service and the executor must outlive the page.
class MemoryPage : public PageSkeleton
{
    Q_OBJECT
public:
    static constexpr int PageSize = 100;

    MemoryPage(MemoryService *service, UiExecutor *executor, QWidget *parent = nullptr);

    qint64 totalNodes() const { return m_total; }
    int pageOffset() const { return m_offset; }

    NodeTableModel *nodeModel() const { return m_nodeModel; }
    QTableView *nodeView() const { return m_nodeView; }
    CommitListModel *commitModel() const { return m_commitModel; }
    NodeInspector *inspector() const { return m_inspector; }
    NodeActions *nodeActions() const { return m_nodeActions; }
    /// The outcome of the last node action, as shown above the inspector.
    QString actionStatusText() const;

public Q_SLOTS:
    /// Selects the node if it is on the current page, and shows it in the inspector either way.
    void selectNode(const QString &nodeId);
    void nextPage();
    void previousPage();
    /// Asks for the Graph page centred on the current node (table row or inspector).
    void showCurrentNodeInGraph();

Q_SIGNALS:
    /// A node page arrived (total = matching nodes in the scope).
    void nodesLoaded(qint64 total);
    /// The operator asked to see a node on the Graph page.
    void showInGraphRequested(const QString &tenantId, const QString &scope, const QString &nodeId);

protected:
    void onScopeChanged() override;
    void onScopeReloaded() override;

private:
    QWidget *createFilterBar();
    QWidget *createNodePanel();
    QWidget *createCommitPanel();

    void loadNodes();
    void applyNodePage(const NodePage &page);
    void loadCommits();
    void loadDetail(const QString &nodeId);
    void onFiltersChanged();
    void onCurrentNodeChanged();
    void updatePager();
    QWidget *createInspectorPanel();
    void onNodeForgotten(const QString &nodeId);

    quint64 m_nodesGeneration = 0;
    quint64 m_commitsGeneration = 0;
    quint64 m_detailGeneration = 0;

    int m_offset = 0;
    qint64 m_total = 0;
    QString m_selectedNodeId;

    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_typeCombo = nullptr;
    QComboBox *m_tierCombo = nullptr;
    QComboBox *m_laneCombo = nullptr;
    QTimer *m_filterTimer = nullptr;
    QTimer *m_pendingTimer = nullptr;

    NodeTableModel *m_nodeModel = nullptr;
    QTableView *m_nodeView = nullptr;
    QPushButton *m_prevButton = nullptr;
    QPushButton *m_nextButton = nullptr;
    QLabel *m_pageLabel = nullptr;

    CommitListModel *m_commitModel = nullptr;
    QTableView *m_commitView = nullptr;
    QLabel *m_commitTitle = nullptr;

    NodeInspector *m_inspector = nullptr;
    NodeActions *m_nodeActions = nullptr;
    QLabel *m_actionStatus = nullptr;
};

} // namespace MemoryGraph::Ui
