#pragma once

#include "ui/pages/pageskeleton.h"

#include <QStringList>

class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTimer;
class QToolButton;

namespace MemoryGraph {
class MemoryService;
struct GraphNeighbourhood;
struct NodePage;
struct SalientNodePage;
} // namespace MemoryGraph

namespace MemoryGraph::Ui {

class GraphCanvas;
class GraphLegend;
class NodeActions;
class NodeInspector;

/// Draws the neighbourhood of a start node on a GraphCanvas: pick a scope, find a node (search
/// or paste its id), choose the hops; double-clicking a node expands the picture around it
/// (still capped at GraphCanvas::MaxNodes). The selected node is shown in an inspector beside
/// the canvas. Other pages jump here through showNode().
///
/// Before a start node is picked the canvas shows the overview: the scope's most salient nodes
/// (SalientBatch at a time, "Show more" adds the next batch up to GraphCanvas::MaxNodes) with
/// the edges among them; double-clicking one of them picks it as the start node, and "Most
/// salient" goes back to the overview.
///
/// Each kind of load carries a generation number so an outdated answer never overwrites a newer
/// one. The service and the executor must outlive the page.
class GraphPage : public PageSkeleton
{
    Q_OBJECT
public:
    static constexpr int MaxHops = 3;
    static constexpr int SearchLimit = 100;
    static constexpr int SalientBatch = 25;

    GraphPage(MemoryService *service, UiExecutor *executor, QWidget *parent = nullptr);

    GraphCanvas *canvas() const { return m_canvas; }
    NodeInspector *inspector() const { return m_inspector; }
    NodeActions *nodeActions() const { return m_nodeActions; }
    QLineEdit *searchEdit() const { return m_searchEdit; }
    QListWidget *searchResults() const { return m_results; }
    QSpinBox *hopsSpin() const { return m_hopsSpin; }
    QPushButton *showMoreButton() const { return m_moreButton; }
    QPushButton *overviewButton() const { return m_overviewButton; }

    /// No start node is picked: the canvas shows the scope's most salient nodes.
    bool isShowingOverview() const { return m_centres.isEmpty(); }
    /// Nodes in the overview's scope, as of its last load.
    qint64 overviewTotal() const { return m_overviewTotal; }

    /// (tenant, scope) and centre of the graph on the canvas; empty before the first one.
    QString graphTenant() const { return m_graphTenant; }
    QString graphScope() const { return m_graphScope; }
    QString centreNodeId() const { return m_centres.value(0); }
    /// Centre first, then every node expanded since.
    QStringList expandedNodeIds() const { return m_centres; }
    int hops() const;

public Q_SLOTS:
    /// Switches to (tenant, scope) and draws the neighbourhood of nodeId.
    void showNode(const QString &tenantId, const QString &scope, const QString &nodeId);
    /// Adds the neighbourhood of a drawn node to the picture.
    void expandNode(const QString &nodeId);
    /// Draws the current centre again (hops changed, or the data did).
    void reloadGraph();
    /// Reloads the scope list, the search results and the graph.
    void refresh() override;
    /// Forgets the start node and shows the scope's most salient nodes again.
    void showOverview();
    /// Adds the next SalientBatch most salient nodes to the overview.
    void showMoreSalient();

Q_SIGNALS:
    /// A neighbourhood arrived and is being drawn.
    void graphLoaded(int nodes, int edges, bool truncated);
    /// A batch of the overview arrived: `shown` of the scope's `total` nodes are drawn.
    void overviewLoaded(int shown, qint64 total);

protected:
    void onScopeChanged() override;
    /// Same scope: the search list may be missing nodes the commit added.
    void onScopeReloaded() override;

private:
    QWidget *createTopBar();
    QWidget *createSearchPanel();
    QWidget *createCanvasPanel();
    QWidget *createInspectorPanel();

    void runSearch();
    /// Lists the scope's nodes matching `text`; with openFirst, draws the best match.
    void searchNodes(const QString &text, bool openFirst);
    void applySearch(const NodePage &page);
    void openSearchText();
    void openResult(int row);
    void loadNeighbourhood(const QString &anchorId, bool merge);
    void applyNeighbourhood(const GraphNeighbourhood &graph, const QString &anchorId, bool merge);
    void loadDetail(const QString &nodeId);
    /// Loads the first `count` salient nodes (replacing the picture), or with `more` the next
    /// batch after those drawn (added to it).
    void loadOverview(int count, bool more);
    void applyOverview(const SalientNodePage &page, int offset, bool more);
    void updateOverviewControls();
    QString overviewStatus() const;
    void onCanvasChanged();
    void connectNodeActions();
    void showCanvasMenu(const QPoint &pos);
    void onNodeForgotten(const QString &nodeId);

    quint64 m_searchGeneration = 0;
    quint64 m_graphGeneration = 0;
    quint64 m_detailGeneration = 0;
    quint64 m_overviewGeneration = 0;
    int m_overviewShown = 0;     ///< salient nodes drawn, by rank
    qint64 m_overviewTotal = -1; ///< nodes in the scope; -1 before the first answer

    QString m_graphTenant;
    QString m_graphScope;
    QStringList m_centres;
    QString m_centreTitle;
    QString m_pendingSelection; ///< node to select once the canvas has drawn

    QSpinBox *m_hopsSpin = nullptr;
    QLineEdit *m_searchEdit = nullptr;
    QListWidget *m_results = nullptr;
    QLabel *m_resultsLabel = nullptr;
    QTimer *m_searchTimer = nullptr;
    GraphLegend *m_legend = nullptr;
    GraphCanvas *m_canvas = nullptr;
    NodeInspector *m_inspector = nullptr;
    NodeActions *m_nodeActions = nullptr;
    QPushButton *m_moreButton = nullptr;
    QPushButton *m_overviewButton = nullptr;
};

} // namespace MemoryGraph::Ui
