#pragma once

#include <QThreadPool>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;
class QToolButton;

namespace MemoryGraph {
class MemoryService;
struct NodePage;
}

namespace MemoryGraph::Ui {

class CommitListModel;
class NodeActions;
class NodeInspector;
class NodeTableModel;
class PageSkeleton;
class ScopePicker;

/// Browses one (tenant, scope) of the memory graph: a filtered, paged node table, the
/// selected node's inspector and the scope's commit chain.
///
/// NOTE: every facade call runs on the page's own thread pool and reports back through a
/// watcher; each kind of load carries a generation number so a slow, outdated answer never
/// overwrites a newer one. The pool is drained on destruction, so the service must outlive
/// the page.
class MemoryPage : public QWidget
{
    Q_OBJECT
public:
    static constexpr int PageSize = 100;

    explicit MemoryPage(MemoryService *service, QWidget *parent = nullptr);
    ~MemoryPage() override;

    QString currentTenant() const;
    QString currentScope() const;
    qint64 totalNodes() const { return m_total; }
    int pageOffset() const { return m_offset; }

    NodeTableModel *nodeModel() const { return m_nodeModel; }
    QTableView *nodeView() const { return m_nodeView; }
    CommitListModel *commitModel() const { return m_commitModel; }
    NodeInspector *inspector() const { return m_inspector; }
    NodeActions *nodeActions() const { return m_nodeActions; }
    /// The outcome of the last node action, as shown above the inspector.
    QString actionStatusText() const;
    ScopePicker *scopePicker() const;

public Q_SLOTS:
    /// Reloads the scope list, then the current scope's nodes and commits.
    void refresh();
    /// Makes (tenant, scope) current once the scope list contains it.
    void selectScope(const QString &tenantId, const QString &scope);
    /// Selects the node if it is on the current page, and shows it in the inspector either way.
    void selectNode(const QString &nodeId);
    void nextPage();
    void previousPage();
    /// Asks for the Graph page centred on the current node (table row or inspector).
    void showCurrentNodeInGraph();

Q_SIGNALS:
    /// A node page arrived (total = matching nodes in the scope).
    void nodesLoaded(qint64 total);
    /// A facade call failed; `message` is ready to show.
    void loadFailed(const QString &message);
    /// The operator asked to see a node on the Graph page.
    void showInGraphRequested(const QString &tenantId, const QString &scope, const QString &nodeId);

private:
    QWidget *createFilterBar();
    QWidget *createNodePanel();
    QWidget *createCommitPanel();
    QComboBox *createFilterCombo(const QString &allText, const QStringList &values,
                                 const QString &objectName);

    void loadNodes();
    void applyNodePage(const NodePage &page);
    void loadCommits();
    void loadDetail(const QString &nodeId);
    void onScopeChanged();
    void onFiltersChanged();
    void onCurrentNodeChanged();
    void updatePager();
    void reportError(const QString &what, const QString &message);
    QWidget *createInspectorPanel();
    void onNodeForgotten(const QString &nodeId);

    MemoryService *m_service;
    QThreadPool m_pool;

    quint64 m_nodesGeneration = 0;
    quint64 m_commitsGeneration = 0;
    quint64 m_detailGeneration = 0;

    int m_offset = 0;
    qint64 m_total = 0;
    QString m_selectedNodeId;

    PageSkeleton *m_skeleton = nullptr;
    QToolButton *m_refreshButton = nullptr;
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
