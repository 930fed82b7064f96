#include "ui/pages/graphpage.h"

#include "service/core/ids.h"
#include "service/memoryservice.h"
#include "ui/debounce.h"
#include "ui/widgets/graphcanvas.h"
#include "ui/widgets/graphlegend.h"
#include "ui/widgets/graphstyle.h"
#include "ui/widgets/nodeactions.h"
#include "ui/widgets/nodeinspector.h"
#include "ui/widgets/scopepicker.h"

#include <QAction>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

namespace {

constexpr int SearchDelayMs = 250;
constexpr int NodeIdRole = Qt::UserRole + 1;

QString startPlaceholder()
{
    return GraphPage::tr("Search for a start node on the left, or use \u201cShow in graph\u201d "
                         "on the Memory or Recall page.");
}

QString titleOf(const NodeRecord &n)
{
    if (!n.title.isEmpty())
        return n.title;
    return n.textSummary.isEmpty() ? n.id : n.textSummary;
}

/// Moves focus from the search box into the result list with the Down key.
class SearchKeyFilter : public QObject
{
public:
    SearchKeyFilter(QListWidget *list, QObject *parent) : QObject(parent), m_list(list) { }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::KeyPress
            && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Down && m_list->count() > 0) {
            m_list->setFocus(Qt::TabFocusReason);
            if (m_list->currentRow() < 0)
                m_list->setCurrentRow(0);
            return true;
        }
        return QObject::eventFilter(watched, event);
    }

private:
    QListWidget *m_list;
};

} // namespace

GraphPage::GraphPage(MemoryService *service, UiExecutor *executor, QWidget *parent)
    : PageSkeleton(service, executor, FollowCommits, parent)
{
    m_searchTimer = createDebounceTimer(this, SearchDelayMs, [this]() { runSearch(); });

    auto *columns = new QSplitter(Qt::Horizontal, this);
    columns->setObjectName(QStringLiteral("graphSplitter"));
    columns->setChildrenCollapsible(false);
    columns->addWidget(createSearchPanel());
    columns->addWidget(createCanvasPanel());
    columns->addWidget(createInspectorPanel());
    columns->setStretchFactor(0, 0);
    columns->setStretchFactor(1, 1);
    columns->setStretchFactor(2, 0);
    columns->setSizes({250, 520, 340}); // tuned for a 1280-pixel-wide window

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(createTopBar());
    layout->addWidget(columns, 1);

    // Keyboard: Ctrl+F finds a start node; zoom like a browser.
    auto *findAction = new QAction(tr("Find node"), this);
    findAction->setShortcut(QKeySequence::Find);
    findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(findAction, &QAction::triggered, this, [this]() {
        m_searchEdit->setFocus(Qt::ShortcutFocusReason);
        m_searchEdit->selectAll();
    });
    addAction(findAction);

    setTabOrder(scopePicker(), refreshButton());
    setTabOrder(refreshButton(), m_hopsSpin);
    setTabOrder(m_hopsSpin, m_searchEdit);
    setTabOrder(m_searchEdit, m_results);
    setTabOrder(m_results, m_canvas);
    setTabOrder(m_canvas, m_moreButton);
    setTabOrder(m_moreButton, m_overviewButton);
    setTabOrder(m_overviewButton, m_inspector);

    m_inspector->showMessage(tr("Select a node on the graph to inspect it."));
    m_canvas->setPlaceholderText(startPlaceholder());
    setStatus(tr("No graph yet."));
    updateOverviewControls();
}

QWidget *GraphPage::createTopBar()
{
    auto *bar = new QWidget(this);
    scopePicker()->setObjectName(QStringLiteral("graphScopePicker"));
    QHBoxLayout *layout
        = createScopeBar(bar, tr("Reload scopes, search results and the graph (%1)"));

    m_hopsSpin = new QSpinBox(bar);
    m_hopsSpin->setObjectName(QStringLiteral("hopsSpin"));
    m_hopsSpin->setRange(1, MaxHops);
    m_hopsSpin->setValue(1);
    m_hopsSpin->setToolTip(tr("How many edges away from the start node to draw"));
    connect(m_hopsSpin, &QSpinBox::valueChanged, this, [this]() {
        if (!isShowingOverview()) // the overview has no hops
            reloadGraph();
    });
    auto *hopsLabel = new QLabel(tr("&Hops:"), bar);
    hopsLabel->setBuddy(m_hopsSpin);

    layout->addWidget(hopsLabel);
    layout->addWidget(m_hopsSpin);
    layout->addStretch(1);
    return bar;
}

QWidget *GraphPage::createSearchPanel()
{
    auto *panel = new QWidget(this);

    auto *searchBox = new QGroupBox(tr("Start node"), panel);
    m_searchEdit = new QLineEdit(searchBox);
    m_searchEdit->setObjectName(QStringLiteral("graphSearchEdit"));
    m_searchEdit->setPlaceholderText(tr("Search, or paste a node id"));
    m_searchEdit->setToolTip(tr("Filters by title, summary or client id. Enter draws the first "
                                "match, or the node whose id you pasted; Down moves to the list."));
    m_searchEdit->setClearButtonEnabled(true);
    connect(m_searchEdit, &QLineEdit::textChanged, m_searchTimer, qOverload<>(&QTimer::start));
    connect(m_searchEdit, &QLineEdit::returnPressed, this, &GraphPage::openSearchText);

    m_resultsLabel = new QLabel(searchBox);
    m_resultsLabel->setObjectName(QStringLiteral("graphResultsLabel"));
    m_resultsLabel->setEnabled(false);

    m_results = new QListWidget(searchBox);
    m_results->setObjectName(QStringLiteral("graphSearchResults"));
    m_results->setUniformItemSizes(true);
    m_results->setTextElideMode(Qt::ElideRight);
    // Long titles are elided (full text in the tooltip) rather than scrolled sideways.
    m_results->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_results->setResizeMode(QListView::Adjust);
    m_results->setToolTip(tr("Enter or double-click draws the node's neighbourhood"));
    connect(m_results, &QListWidget::activated, this,
            [this](const QModelIndex &index) { openResult(index.row()); });
    connect(m_results, &QListWidget::clicked, this,
            [this](const QModelIndex &index) { openResult(index.row()); });
    m_searchEdit->installEventFilter(new SearchKeyFilter(m_results, this));

    auto *searchLayout = new QVBoxLayout(searchBox);
    searchLayout->addWidget(m_searchEdit);
    searchLayout->addWidget(m_resultsLabel);
    searchLayout->addWidget(m_results, 1);

    auto *legendBox = new QGroupBox(tr("Legend"), panel);
    m_legend = new GraphLegend(legendBox, 2);
    m_legend->setObjectName(QStringLiteral("graphLegend"));
    auto *legendLayout = new QVBoxLayout(legendBox);
    legendLayout->addWidget(m_legend);

    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(searchBox, 1);
    layout->addWidget(legendBox, 0);
    panel->setMinimumWidth(220);
    return panel;
}

QWidget *GraphPage::createCanvasPanel()
{
    auto *box = new QGroupBox(tr("Graph"), this);

    m_canvas = new GraphCanvas(executor(), box);
    m_canvas->setObjectName(QStringLiteral("graphCanvas"));
    m_nodeActions = new NodeActions(service(), executor(), this);
    connectNodeActions();
    connect(m_canvas, &GraphCanvas::nodeSelected, this, [this](const QString &id) {
        // The drawn record is enough for the actions; the detail load refreshes it.
        m_nodeActions->setNode(m_canvas->node(id));
        loadDetail(id);
    });
    connect(m_canvas, &GraphCanvas::selectionCleared, this, [this]() {
        ++m_detailGeneration;
        m_nodeActions->clearNode();
        m_inspector->showMessage(tr("Select a node on the graph to inspect it."));
    });
    connect(m_canvas, &GraphCanvas::nodeActivated, this, &GraphPage::expandNode);
    connect(m_canvas, &GraphCanvas::graphChanged, this, &GraphPage::onCanvasChanged);

    auto makeButton
        = [this, box](const QString &text, const QString &tip, const QKeySequence &key, auto slot) {
              auto *action = new QAction(text, this);
              action->setShortcut(key);
              action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
              action->setToolTip(tr("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
              connect(action, &QAction::triggered, m_canvas, slot);
              addAction(action);
              auto *button = new QToolButton(box);
              button->setDefaultAction(action);
              button->setAutoRaise(true);
              return button;
          };
    QToolButton *zoomOut = makeButton(tr("\u2212"), tr("Zoom out"),
                                      QKeySequence(QKeySequence::ZoomOut), &GraphCanvas::zoomOut);
    QToolButton *zoomIn = makeButton(tr("+"), tr("Zoom in"), QKeySequence(QKeySequence::ZoomIn),
                                     &GraphCanvas::zoomIn);
    QToolButton *fit = makeButton(tr("Fit"), tr("Fit the whole graph in view"),
                                  QKeySequence(Qt::CTRL | Qt::Key_0), &GraphCanvas::fitToView);
    zoomOut->setObjectName(QStringLiteral("zoomOutButton"));
    zoomIn->setObjectName(QStringLiteral("zoomInButton"));
    fit->setObjectName(QStringLiteral("fitButton"));

    m_moreButton = new QPushButton(tr("Show &more"), box);
    m_moreButton->setObjectName(QStringLiteral("showMoreButton"));
    m_moreButton->setToolTip(
        tr("Add the next %1 most salient nodes to the picture").arg(SalientBatch));
    connect(m_moreButton, &QPushButton::clicked, this, &GraphPage::showMoreSalient);
    m_overviewButton = new QPushButton(tr("Most &salient"), box);
    m_overviewButton->setObjectName(QStringLiteral("overviewButton"));
    m_overviewButton->setToolTip(tr("Leave this neighbourhood and show the scope's most salient "
                                    "nodes again"));
    connect(m_overviewButton, &QPushButton::clicked, this, &GraphPage::showOverview);

    QLabel *status = statusLine();
    status->setWordWrap(true);

    auto *bottom = new QHBoxLayout;
    bottom->addWidget(status, 1);
    bottom->addWidget(m_moreButton);
    bottom->addWidget(m_overviewButton);
    bottom->addWidget(zoomOut);
    bottom->addWidget(zoomIn);
    bottom->addWidget(fit);

    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_canvas, 1);
    layout->addLayout(bottom);
    return box;
}

QWidget *GraphPage::createInspectorPanel()
{
    auto *box = new QGroupBox(tr("Node"), this);
    QToolBar *actionBar = m_nodeActions->createToolBar(box);
    m_inspector = new NodeInspector(box);
    m_inspector->setObjectName(QStringLiteral("graphInspector"));
    m_inspector->setMinimumWidth(300);
    connect(m_inspector, &NodeInspector::nodeActivated, this, [this](const QString &id) {
        if (m_canvas->containsNode(id)) {
            m_canvas->selectNode(id);
            return;
        }
        // The other end is not drawn yet: grow the picture around the inspected node.
        const QString from = m_inspector->nodeId();
        m_pendingSelection = id;
        if (!from.isEmpty())
            expandNode(from);
    });
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(actionBar);
    layout->addWidget(m_inspector, 1);
    return box;
}

void GraphPage::connectNodeActions()
{
    // Shortcuts (Delete, F2, ...) act on the selected node while the canvas has focus.
    m_nodeActions->attachTo(m_canvas);
    m_canvas->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_canvas, &QWidget::customContextMenuRequested, this, &GraphPage::showCanvasMenu);
    connect(m_nodeActions, &NodeActions::succeeded, this,
            [this](const QString &nodeId, const QString &message) {
                setStatus(message);
                if (m_canvas->containsNode(nodeId))
                    m_pendingSelection = nodeId; // keep the changed node selected after the redraw
                reloadGraph();
                // The redraw keeps an unchanged selection without a new nodeSelected(): reload the
                // detail here so the inspector and the actions see the node as it is now.
                if (m_nodeActions->node().id == nodeId)
                    loadDetail(nodeId);
            });
    connect(m_nodeActions, &NodeActions::failed, this,
            [this](const QString &message) { setStatus(message, true); });
    connect(m_nodeActions, &NodeActions::nodeForgotten, this, &GraphPage::onNodeForgotten);
}

void GraphPage::showCanvasMenu(const QPoint &pos)
{
    // The menu acts on the node under the pointer, which becomes the selection.
    const QGraphicsItem *hit = m_canvas->itemAt(pos);
    QString nodeId;
    for (const QString &id : m_canvas->nodeIds()) {
        const QGraphicsItem *item = m_canvas->nodeItem(id);
        if (hit && item && (hit == item || item->isAncestorOf(hit))) {
            nodeId = id;
            break;
        }
    }
    if (nodeId.isEmpty())
        nodeId = m_canvas->selectedNodeId();
    if (nodeId.isEmpty())
        return;
    if (m_canvas->selectedNodeId() != nodeId)
        m_canvas->selectNode(nodeId);
    m_nodeActions->setNode(m_canvas->node(nodeId));
    QMenu *menu = m_nodeActions->createMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(m_canvas->viewport()->mapToGlobal(pos));
}

void GraphPage::onNodeForgotten(const QString &nodeId)
{
    const bool wasOverview = isShowingOverview();
    m_centres.removeAll(nodeId);
    runSearch();
    // succeeded() follows and redraws: around the remaining centres, else the overview.
    if (!m_centres.isEmpty())
        return;
    ++m_graphGeneration;
    ++m_detailGeneration;
    if (!wasOverview)
        m_inspector->showMessage(tr("The node was forgotten. Back to the most salient nodes."));
    updateOverviewControls();
}

int GraphPage::hops() const
{
    return m_hopsSpin->value();
}

void GraphPage::showNode(const QString &tenantId, const QString &scope, const QString &nodeId)
{
    if (nodeId.isEmpty())
        return;
    // Set first, so the picker's scopeChanged does not clear the graph we are about to draw.
    m_graphTenant = tenantId;
    m_graphScope = scope;
    m_centres = {nodeId};
    m_centreTitle.clear();
    ++m_overviewGeneration; // an overview still on its way would draw over the neighbourhood
    updateOverviewControls();
    selectScope(tenantId, scope);
    loadNeighbourhood(QString(), false);
}

void GraphPage::expandNode(const QString &nodeId)
{
    if (m_graphTenant.isEmpty() || nodeId.isEmpty())
        return;
    if (isShowingOverview()) {
        // In the overview a double-click picks the start node.
        showNode(m_graphTenant, m_graphScope, nodeId);
        return;
    }
    if (!m_centres.contains(nodeId))
        m_centres.append(nodeId);
    loadNeighbourhood(nodeId, true);
}

void GraphPage::reloadGraph()
{
    if (isShowingOverview()) {
        if (!m_graphTenant.isEmpty())
            loadOverview(std::max(SalientBatch, m_overviewShown), false);
        return;
    }
    loadNeighbourhood(QString(), false);
}

void GraphPage::showOverview()
{
    if (m_graphTenant.isEmpty())
        return;
    ++m_graphGeneration;
    m_centres.clear();
    m_centreTitle.clear();
    m_canvas->setHighlightedNodes({});
    updateOverviewControls();
    loadOverview(SalientBatch, false);
}

void GraphPage::showMoreSalient()
{
    if (!isShowingOverview() || m_graphTenant.isEmpty())
        return;
    loadOverview(std::min(SalientBatch, GraphCanvas::MaxNodes - m_overviewShown), true);
}

void GraphPage::loadOverview(int count, bool more)
{
    if (count <= 0)
        return;
    const QString tenant = m_graphTenant;
    const QString scope = m_graphScope;
    const int offset = more ? m_overviewShown : 0;
    m_moreButton->setEnabled(false); // until this batch is drawn
    setStatus(more ? tr("Loading more salient nodes\u2026")
                   : tr("Loading the most salient nodes\u2026"));
    loadLatest(
        m_overviewGeneration,
        [tenant, scope, offset, count](MemoryService *service) {
            return service->salientNodes(tenant, scope, offset, count);
        },
        [this, offset, more](const SalientNodePage &page) { applyOverview(page, offset, more); },
        [this](const Error &error) {
            updateOverviewControls();
            reportLoadFailure(
                tr("Loading the most salient nodes failed: %1: %2").arg(error.code, error.message));
        });
}

void GraphPage::applyOverview(const SalientNodePage &page, int offset, bool more)
{
    if (!isShowingOverview())
        return; // a start node was picked meanwhile
    m_overviewTotal = page.total;
    m_overviewShown = offset + int(page.nodes.size());
    m_canvas->setPlaceholderText(page.total == 0
                                     ? tr("This scope has no nodes yet. What agents write "
                                          "into it will show here.")
                                     : startPlaceholder());
    m_canvas->setHighlightedNodes({});
    if (more)
        m_canvas->mergeGraph(page.nodes, page.edges, false, QString());
    else
        m_canvas->setGraph(page.nodes, page.edges, false);
    updateOverviewControls();
    Q_EMIT overviewLoaded(m_overviewShown, m_overviewTotal);
}

void GraphPage::updateOverviewControls()
{
    const bool hasScope = !m_graphTenant.isEmpty();
    const bool overview = isShowingOverview() && hasScope && m_overviewTotal >= 0;
    m_moreButton->setVisible(overview);
    m_moreButton->setEnabled(overview && m_overviewShown < m_overviewTotal
                             && m_overviewShown < GraphCanvas::MaxNodes);
    m_overviewButton->setVisible(hasScope && !overview);
}

QString GraphPage::overviewStatus() const
{
    if (m_overviewTotal == 0)
        return tr("No nodes in this scope yet.");
    QString text
        = m_overviewShown >= m_overviewTotal
              ? tr("All %1 nodes of the scope, most salient first").arg(m_overviewTotal)
              : tr("The %1 most salient of %2 nodes").arg(m_overviewShown).arg(m_overviewTotal);
    text += QStringLiteral(" \u00b7 ")
            + (m_canvas->edgeCount() == 1 ? tr("1 edge")
                                          : tr("%1 edges").arg(m_canvas->edgeCount()));
    if (m_overviewShown < m_overviewTotal && m_overviewShown >= GraphCanvas::MaxNodes)
        text += QStringLiteral(" \u00b7 ")
                + tr("the graph shows at most %1").arg(GraphCanvas::MaxNodes);
    return text + QLatin1String(". ") + tr("Double-click a node to draw its neighbourhood.");
}

void GraphPage::refresh()
{
    PageSkeleton::refresh();
    runSearch();
    reloadGraph();
}

void GraphPage::onScopeReloaded()
{
    if (m_searchTimer->isActive() || m_results->count() == 0)
        runSearch();
    // The first nodes of an empty scope appear on their own; a drawn picture waits for F5.
    if (isShowingOverview() && !m_graphTenant.isEmpty() && m_canvas->nodeCount() == 0)
        loadOverview(SalientBatch, false);
}

void GraphPage::onScopeChanged()
{
    const QString tenantId = currentTenant();
    const QString scope = currentScope();
    runSearch();
    if (tenantId == m_graphTenant && scope == m_graphScope)
        return; // showNode() switched here on purpose
    ++m_graphGeneration;
    ++m_detailGeneration;
    ++m_overviewGeneration;
    m_graphTenant = tenantId;
    m_graphScope = scope;
    m_centres.clear();
    m_centreTitle.clear();
    m_overviewShown = 0;
    m_overviewTotal = -1;
    m_canvas->clearGraph();
    m_canvas->setPlaceholderText(startPlaceholder());
    m_nodeActions->clearNode();
    m_inspector->showMessage(tr("Select a node on the graph to inspect it."));
    updateOverviewControls();
    if (tenantId.isEmpty()) {
        setStatus(tr("No scope selected."));
        return;
    }
    loadOverview(SalientBatch, false);
}

void GraphPage::runSearch()
{
    m_searchTimer->stop();
    if (!hasScope()) {
        ++m_searchGeneration; // results still on their way belong to the old scope
        m_results->clear();
        m_resultsLabel->setText(tr("No scope selected"));
        return;
    }
    const QString text = m_searchEdit->text().trimmed();
    // A pasted id matches no title; list everything instead of nothing.
    searchNodes(isUuid(text) ? QString() : text, false);
}

void GraphPage::searchNodes(const QString &text, bool openFirst)
{
    NodeQuery query;
    query.tenantId = currentTenant();
    query.scope = currentScope();
    query.text = text;
    query.limit = SearchLimit;
    loadLatest(
        m_searchGeneration, [query](MemoryService *service) { return service->listNodes(query); },
        [this, openFirst](const NodePage &page) {
            applySearch(page);
            if (openFirst && m_results->count() > 0)
                openResult(0);
        },
        [this](const Error &error) {
            m_resultsLabel->setText(tr("Search failed: %1").arg(error.message));
            Q_EMIT loadFailed(m_resultsLabel->text());
        });
}

void GraphPage::applySearch(const NodePage &page)
{
    m_results->clear();
    for (const NodeRecord &n : page.nodes) {
        auto *item = new QListWidgetItem(titleOf(n), m_results);
        item->setData(NodeIdRole, n.id);
        item->setIcon(GraphStyle::typeIcon(n.type));
        item->setToolTip(tr("%1\n%2 \u00b7 %3 \u00b7 %4\n%5")
                             .arg(titleOf(n), n.type, n.tier, n.memoryLane, n.id));
    }
    if (page.total == 0)
        m_resultsLabel->setText(tr("No matching nodes"));
    else if (page.total > page.nodes.size())
        m_resultsLabel->setText(tr("First %1 of %2 nodes").arg(page.nodes.size()).arg(page.total));
    else
        m_resultsLabel->setText(page.total == 1 ? tr("1 node") : tr("%1 nodes").arg(page.total));
}

void GraphPage::openSearchText()
{
    const QString text = m_searchEdit->text().trimmed();
    const QString tenant = currentTenant();
    if (tenant.isEmpty() || text.isEmpty()) {
        if (m_results->count() > 0)
            openResult(std::max(0, m_results->currentRow()));
        return;
    }
    if (isUuid(text)) {
        showNode(tenant, currentScope(), text.toLower());
        return;
    }
    if (m_searchTimer->isActive()) {
        // The list is stale: search now and draw the best match when it arrives.
        m_searchTimer->stop();
        searchNodes(text, true);
        return;
    }
    if (m_results->count() > 0)
        openResult(std::max(0, m_results->currentRow()));
}

void GraphPage::openResult(int row)
{
    const QListWidgetItem *item = m_results->item(row);
    if (!item)
        return;
    showNode(currentTenant(), currentScope(), item->data(NodeIdRole).toString());
}

void GraphPage::loadNeighbourhood(const QString &anchorId, bool merge)
{
    const QString tenant = m_graphTenant;
    const QString scope = m_graphScope;
    const QStringList centres = merge ? QStringList{anchorId} : m_centres;
    const int hopCount = hops();
    setStatus(merge ? tr("Expanding\u2026") : tr("Loading the neighbourhood\u2026"));
    loadLatest(
        m_graphGeneration,
        [tenant, scope, centres, hopCount](MemoryService *service) {
            return service->neighbourhood(tenant, scope, centres, hopCount, GraphCanvas::MaxNodes);
        },
        [this, anchorId, merge](const GraphNeighbourhood &graph) {
            applyNeighbourhood(graph, anchorId, merge);
        },
        [this](const Error &error) {
            reportLoadFailure(
                tr("Loading the graph failed: %1: %2").arg(error.code, error.message));
        });
}

void GraphPage::applyNeighbourhood(const GraphNeighbourhood &graph, const QString &anchorId,
                                   bool merge)
{
    if (!merge && graph.nodes.isEmpty()) {
        m_canvas->clearGraph();
        m_inspector->showMessage(tr("The node is not in this scope."));
        setStatus(tr("Node %1 was not found in %2 / %3.")
                      .arg(m_centres.value(0), m_graphTenant, m_graphScope),
                  true);
        m_centres.clear();
        // No overview is drawn either: "Most salient" brings it back.
        m_overviewShown = 0;
        m_overviewTotal = -1;
        updateOverviewControls();
        Q_EMIT graphLoaded(0, 0, false);
        return;
    }
    if (!merge && !graph.nodes.isEmpty())
        m_centreTitle = titleOf(graph.nodes.first());
    if (m_pendingSelection.isEmpty())
        m_pendingSelection = merge ? anchorId : m_centres.value(0);
    m_canvas->setHighlightedNodes(m_centres);
    if (merge)
        m_canvas->mergeGraph(graph.nodes, graph.edges, graph.truncated, anchorId);
    else
        m_canvas->setGraph(graph.nodes, graph.edges, graph.truncated);
    Q_EMIT graphLoaded(int(graph.nodes.size()), int(graph.edges.size()), graph.truncated);
}

void GraphPage::onCanvasChanged()
{
    m_inspector->setNodeTitles(m_canvas->nodeTitles());
    if (isShowingOverview() && m_overviewTotal >= 0 && !m_graphTenant.isEmpty())
        setStatus(overviewStatus());
    if (m_canvas->nodeCount() == 0) {
        m_pendingSelection.clear();
        return;
    }
    if (isShowingOverview()) {
        const QString select = m_pendingSelection;
        m_pendingSelection.clear();
        if (!select.isEmpty() && m_canvas->containsNode(select))
            m_canvas->selectNode(select);
        return;
    }
    const QString hopText = hops() == 1 ? tr("1 hop") : tr("%1 hops").arg(hops());
    QString text = tr("%1 nodes \u00b7 %2 edges around \u201c%3\u201d (%4)")
                       .arg(m_canvas->nodeCount())
                       .arg(m_canvas->edgeCount())
                       .arg(m_centreTitle, hopText);
    if (m_centres.size() > 1)
        text += QStringLiteral(" \u00b7 ") + tr("%1 expanded").arg(m_centres.size() - 1);
    if (m_canvas->hasMoreMarker())
        text += QStringLiteral(" \u00b7 ")
                + tr("more not shown (limit %1)").arg(GraphCanvas::MaxNodes);
    text += QLatin1String(". ") + tr("Double-click a node to expand it.");
    setStatus(text);

    const QString select = m_pendingSelection;
    m_pendingSelection.clear();
    if (!select.isEmpty() && m_canvas->containsNode(select))
        m_canvas->selectNode(select);
}

void GraphPage::loadDetail(const QString &nodeId)
{
    loadNodeDetail(m_detailGeneration, m_graphTenant, m_graphScope, nodeId, m_inspector,
                   m_nodeActions);
}

} // namespace MemoryGraph::Ui
