#pragma once

#include <QStringList>
#include <QThreadPool>
#include <QWidget>

class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QTimer;
class QToolButton;

namespace MemoryGraph {
class MemoryService;
struct GraphNeighbourhood;
struct NodePage;
}

namespace MemoryGraph::Ui {

class GraphCanvas;
class GraphLegend;
class NodeActions;
class NodeInspector;
class PageSkeleton;
class ScopePicker;

/// Draws the neighbourhood of a start node on a GraphCanvas: pick a scope, find a node (search
/// or paste its id), choose the hops; double-clicking a node expands the picture around it
/// (still capped at GraphCanvas::MaxNodes). The selected node is shown in an inspector beside
/// the canvas. Other pages jump here through showNode().
///
/// Facade calls run on the page's own pool; each kind of load carries a generation number so
/// an outdated answer never overwrites a newer one. The service must outlive the page.
class GraphPage : public QWidget
{
    Q_OBJECT
public:
    static constexpr int MaxHops = 3;
    static constexpr int SearchLimit = 100;

    explicit GraphPage(MemoryService *service, QWidget *parent = nullptr);
    ~GraphPage() override;

    GraphCanvas *canvas() const { return m_canvas; }
    NodeInspector *inspector() const { return m_inspector; }
    NodeActions *nodeActions() const { return m_nodeActions; }
    ScopePicker *scopePicker() const;
    QLineEdit *searchEdit() const { return m_searchEdit; }
    QListWidget *searchResults() const { return m_results; }
    QSpinBox *hopsSpin() const { return m_hopsSpin; }

    /// (tenant, scope) and centre of the graph on the canvas; empty before the first one.
    QString graphTenant() const { return m_graphTenant; }
    QString graphScope() const { return m_graphScope; }
    QString centreNodeId() const { return m_centres.value(0); }
    /// Centre first, then every node expanded since.
    QStringList expandedNodeIds() const { return m_centres; }
    int hops() const;
    QString statusText() const;

public Q_SLOTS:
    /// Switches to (tenant, scope) and draws the neighbourhood of nodeId.
    void showNode(const QString &tenantId, const QString &scope, const QString &nodeId);
    /// Adds the neighbourhood of a drawn node to the picture.
    void expandNode(const QString &nodeId);
    /// Draws the current centre again (hops changed, or the data did).
    void reloadGraph();
    /// Reloads the scope list and the search results.
    void refresh();

Q_SIGNALS:
    /// A neighbourhood arrived and is being drawn.
    void graphLoaded(int nodes, int edges, bool truncated);
    /// A facade call failed; `message` is ready to show.
    void loadFailed(const QString &message);

private:
    QWidget *createTopBar();
    QWidget *createSearchPanel();
    QWidget *createCanvasPanel();
    QWidget *createInspectorPanel();

    void onScopeChanged(const QString &tenantId, const QString &scope);
    void runSearch();
    void applySearch(const NodePage &page);
    void openSearchText();
    void openResult(int row);
    void loadNeighbourhood(const QString &anchorId, bool merge);
    void applyNeighbourhood(const GraphNeighbourhood &graph, const QString &anchorId, bool merge);
    void loadDetail(const QString &nodeId);
    void onCanvasChanged();
    void connectNodeActions();
    void showCanvasMenu(const QPoint &pos);
    void onNodeForgotten(const QString &nodeId);

    MemoryService *m_service;
    QThreadPool m_pool;
    quint64 m_searchGeneration = 0;
    quint64 m_graphGeneration = 0;
    quint64 m_detailGeneration = 0;

    QString m_graphTenant;
    QString m_graphScope;
    QStringList m_centres;
    QString m_centreTitle;
    QString m_pendingSelection;   ///< node to select once the canvas has drawn

    PageSkeleton *m_skeleton = nullptr;
    QSpinBox *m_hopsSpin = nullptr;
    QToolButton *m_refreshButton = nullptr;
    QLineEdit *m_searchEdit = nullptr;
    QListWidget *m_results = nullptr;
    QLabel *m_resultsLabel = nullptr;
    QTimer *m_searchTimer = nullptr;
    GraphLegend *m_legend = nullptr;
    GraphCanvas *m_canvas = nullptr;
    NodeInspector *m_inspector = nullptr;
    NodeActions *m_nodeActions = nullptr;
};

} // namespace MemoryGraph::Ui
