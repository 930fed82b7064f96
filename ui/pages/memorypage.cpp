#include "ui/pages/memorypage.h"

#include "service/memoryservice.h"
#include "ui/debounce.h"
#include "ui/models/commitlistmodel.h"
#include "ui/models/nodetablemodel.h"
#include "ui/widgets/nodeactions.h"
#include "ui/widgets/nodeinspector.h"
#include "ui/widgets/recordtable.h"

#include <QAction>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace MemoryGraph::Ui {

namespace {

constexpr int FilterDelayMs = 250;
constexpr int CommitListLimit = 200;
constexpr int PendingPollMs = 2000;

} // namespace

MemoryPage::MemoryPage(MemoryService *service, UiExecutor *executor, QWidget *parent)
    : PageSkeleton(service, executor, FollowCommits, parent)
{
    m_filterTimer = createDebounceTimer(this, FilterDelayMs, [this]() { onFiltersChanged(); });

    // Embedding backfill finishes without a commit, so nothing announces it; poll while the
    // page shows pending nodes.
    m_pendingTimer = createDebounceTimer(this, PendingPollMs, [this]() { loadNodes(); });

    QWidget *inspectorBox = createInspectorPanel();

    auto *left = new QSplitter(Qt::Vertical, this);
    left->setChildrenCollapsible(false);
    left->addWidget(createNodePanel());
    left->addWidget(createCommitPanel());
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 1);
    left->setSizes({470, 220});

    auto *columns = new QSplitter(Qt::Horizontal, this);
    columns->setChildrenCollapsible(false);
    columns->addWidget(left);
    columns->addWidget(inspectorBox);
    columns->setStretchFactor(0, 3);
    columns->setStretchFactor(1, 2);
    columns->setSizes({700, 410}); // tuned for a 1280-pixel-wide window

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(createFilterBar());
    layout->addWidget(columns, 1);

    m_inspector->showMessage(tr("No node selected.\n\nLoad the sample memories from the File "
                                "menu, or write through the HTTP API, to see nodes here."));
    updatePager();
    // The picker loads the scope list by itself; the nodes and commits follow from its signals.
}

QWidget *MemoryPage::createFilterBar()
{
    auto *bar = new QWidget(this);
    QHBoxLayout *layout = createScopeBar(bar, tr("Reload scopes, nodes and commits (%1)"));

    m_filterEdit = new QLineEdit(bar);
    m_filterEdit->setObjectName(QStringLiteral("filterEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by title, summary or client id"));
    m_filterEdit->setClearButtonEnabled(true);
    connect(m_filterEdit, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    // Enter applies at once instead of waiting for the typing pause.
    connect(m_filterEdit, &QLineEdit::returnPressed, this, &MemoryPage::onFiltersChanged);

    m_typeCombo = createFilterCombo(tr("All types"),
                                    {QStringLiteral("event"), QStringLiteral("entity"),
                                     QStringLiteral("topic"), QStringLiteral("concept"),
                                     QStringLiteral("rule"), QStringLiteral("evidence"),
                                     QStringLiteral("procedure"), QStringLiteral("self_model")},
                                    QStringLiteral("typeCombo"));
    m_tierCombo = createFilterCombo(tr("All tiers"),
                                    {QStringLiteral("hot"), QStringLiteral("warm"),
                                     QStringLiteral("cold"), QStringLiteral("archive")},
                                    QStringLiteral("tierCombo"));
    m_laneCombo
        = createFilterCombo(tr("All lanes"), {QStringLiteral("shared"), QStringLiteral("private")},
                            QStringLiteral("laneCombo"));

    for (QComboBox *combo : {m_typeCombo, m_tierCombo, m_laneCombo})
        connect(combo, &QComboBox::currentIndexChanged, this, &MemoryPage::onFiltersChanged);

    layout->addWidget(m_filterEdit, 1);
    layout->addWidget(m_typeCombo);
    layout->addWidget(m_tierCombo);
    layout->addWidget(m_laneCombo);
    return bar;
}

QWidget *MemoryPage::createNodePanel()
{
    m_nodeModel = new NodeTableModel(this);
    m_nodeView = createRecordTable(m_nodeModel, QStringLiteral("nodeTable"), this);
    using Column = NodeTableModel::Column;
    sizeColumnTo(m_nodeView, int(Column::Title),
                 QStringLiteral("Escalation policy for sync outages"));
    sizeColumnTo(m_nodeView, int(Column::Type), QStringLiteral("concept"));
    sizeColumnTo(m_nodeView, int(Column::Tier), QStringLiteral("warm"));
    sizeColumnTo(m_nodeView, int(Column::Lane), QStringLiteral("private"));
    sizeColumnTo(m_nodeView, int(Column::Owner), QStringLiteral("team support-tier2"));
    sizeColumnTo(m_nodeView, int(Column::Embedding), QStringLiteral("not requested"));
    sizeColumnTo(m_nodeView, int(Column::Updated), QStringLiteral("0000-00-00 00:00:00"));
    sizeColumnTo(m_nodeView, int(Column::ClientId), QStringLiteral("incident-sync-stall"));
    m_nodeView->horizontalHeader()->setStretchLastSection(true);
    m_nodeView->setMinimumWidth(420);
    connect(m_nodeView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &MemoryPage::onCurrentNodeChanged);

    auto *showInGraph = new QAction(tr("Show in &Graph"), m_nodeView);
    showInGraph->setObjectName(QStringLiteral("showInGraphAction"));
    showInGraph->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    showInGraph->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    showInGraph->setToolTip(tr("Open the Graph page centred on this node (%1)")
                                .arg(showInGraph->shortcut().toString(QKeySequence::NativeText)));
    connect(showInGraph, &QAction::triggered, this, &MemoryPage::showCurrentNodeInGraph);
    m_nodeView->addAction(showInGraph);
    // Delete forgets, F2 edits, and the context menu lists them.
    m_nodeActions->attachTo(m_nodeView);
    m_nodeView->setContextMenuPolicy(Qt::ActionsContextMenu);

    m_prevButton
        = new QPushButton(style()->standardIcon(QStyle::SP_ArrowBack), tr("Previous"), this);
    m_prevButton->setObjectName(QStringLiteral("previousPageButton"));
    connect(m_prevButton, &QPushButton::clicked, this, &MemoryPage::previousPage);
    m_nextButton
        = new QPushButton(style()->standardIcon(QStyle::SP_ArrowForward), tr("Next"), this);
    m_nextButton->setObjectName(QStringLiteral("nextPageButton"));
    connect(m_nextButton, &QPushButton::clicked, this, &MemoryPage::nextPage);
    m_pageLabel = new QLabel(this);
    m_pageLabel->setObjectName(QStringLiteral("pageLabel"));

    return createListBox(tr("Nodes"), m_nodeView, m_pageLabel, {m_prevButton, m_nextButton});
}

QWidget *MemoryPage::createInspectorPanel()
{
    auto *box = new QGroupBox(tr("Node"), this);
    m_inspector = new NodeInspector(box);
    m_inspector->setObjectName(QStringLiteral("nodeInspector"));
    m_inspector->setMinimumWidth(340);
    m_inspector->setShowInGraphVisible(true);
    connect(m_inspector, &NodeInspector::nodeActivated, this, &MemoryPage::selectNode);
    connect(m_inspector, &NodeInspector::showInGraphRequested, this, [this](const QString &id) {
        Q_EMIT showInGraphRequested(currentTenant(), currentScope(), id);
    });

    m_nodeActions = new NodeActions(service(), executor(), this);
    m_actionStatus = new QLabel(box);
    m_actionStatus->setObjectName(QStringLiteral("nodeActionStatus"));
    m_actionStatus->setWordWrap(true);
    m_actionStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_actionStatus->hide();
    connect(m_nodeActions, &NodeActions::succeeded, this,
            [this](const QString &, const QString &message) {
                m_actionStatus->setStyleSheet(QString());
                m_actionStatus->setText(message);
                m_actionStatus->show();
                refresh(); // at once, not after the commit debounce
            });
    connect(m_nodeActions, &NodeActions::failed, this, [this](const QString &message) {
        m_actionStatus->setStyleSheet(QStringLiteral("color: #d94f4f;"));
        m_actionStatus->setText(message);
        m_actionStatus->show();
    });
    connect(m_nodeActions, &NodeActions::nodeForgotten, this, &MemoryPage::onNodeForgotten);

    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_nodeActions->createToolBar(box));
    layout->addWidget(m_actionStatus);
    layout->addWidget(m_inspector, 1);
    return box;
}

QString MemoryPage::actionStatusText() const
{
    return m_actionStatus->text();
}

void MemoryPage::onNodeForgotten(const QString &nodeId)
{
    if (m_selectedNodeId != nodeId)
        return;
    m_selectedNodeId.clear();
    ++m_detailGeneration; // a detail load still on its way would show the gone node
    m_nodeView->clearSelection();
    m_inspector->showMessage(tr("The node was forgotten."));
}

QWidget *MemoryPage::createCommitPanel()
{
    auto *box = new QGroupBox(this);
    m_commitTitle = new QLabel(box);
    QFont bold = m_commitTitle->font();
    bold.setBold(true);
    m_commitTitle->setFont(bold);

    m_commitModel = new CommitListModel(this);
    m_commitView = createRecordTable(m_commitModel, QStringLiteral("commitTable"), box);
    sizeCommitColumns(m_commitView);
    m_commitView->setMinimumHeight(120);

    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_commitTitle);
    layout->addWidget(m_commitView, 1);
    m_commitTitle->setText(tr("Commits"));
    return box;
}

void MemoryPage::showCurrentNodeInGraph()
{
    QString id = m_inspector->nodeId();
    const QModelIndex current = m_nodeView->selectionModel()->currentIndex();
    if (current.isValid())
        id = m_nodeModel->data(current, NodeTableModel::NodeIdRole).toString();
    if (!id.isEmpty())
        Q_EMIT showInGraphRequested(currentTenant(), currentScope(), id);
}

void MemoryPage::selectNode(const QString &nodeId)
{
    const int row = m_nodeModel->rowOf(nodeId);
    if (row >= 0) {
        m_nodeView->selectRow(row);
        m_nodeView->scrollTo(m_nodeModel->index(row, 0));
        return; // the selection change loads the detail
    }
    m_nodeView->clearSelection();
    loadDetail(nodeId);
}

void MemoryPage::nextPage()
{
    if (m_offset + PageSize >= m_total)
        return;
    m_offset += PageSize;
    loadNodes();
}

void MemoryPage::previousPage()
{
    if (m_offset == 0)
        return;
    m_offset = std::max(0, m_offset - PageSize);
    loadNodes();
}

void MemoryPage::loadNodes()
{
    NodeQuery query;
    query.tenantId = currentTenant();
    query.scope = currentScope();
    if (query.tenantId.isEmpty()) {
        ++m_nodesGeneration; // a page still on its way belongs to the old scope
        m_total = 0;
        m_nodeModel->setNodes({});
        updatePager();
        Q_EMIT nodesLoaded(0);
        return;
    }
    query.text = m_filterEdit->text().trimmed();
    query.type = m_typeCombo->currentData().toString();
    query.tier = m_tierCombo->currentData().toString();
    query.lane = m_laneCombo->currentData().toString();
    query.offset = m_offset;
    query.limit = PageSize;

    loadContent(
        m_nodesGeneration, tr("Loading nodes failed: %1"),
        [query](MemoryService *service) { return service->listNodes(query); },
        [this](const NodePage &page) { applyNodePage(page); });
}

void MemoryPage::applyNodePage(const NodePage &page)
{
    // A shrunken result can leave the offset past the end; step back to the last page.
    if (page.nodes.isEmpty() && m_offset > 0 && page.total > 0) {
        m_offset = int((page.total - 1) / PageSize) * PageSize;
        loadNodes();
        return;
    }
    setStatus(QString()); // a failed load before this one is over
    m_total = page.total;
    const QString keep = m_selectedNodeId;
    m_nodeModel->setNodes(page.nodes);

    QHash<QString, QString> titles;
    for (const NodeRecord &n : page.nodes)
        titles.insert(n.id, n.title);
    m_inspector->setNodeTitles(titles);
    updatePager();

    const bool pending
        = std::any_of(page.nodes.cbegin(), page.nodes.cend(), [](const NodeRecord &n) {
              return n.embeddingStatus == QLatin1String("pending");
          });
    if (pending)
        m_pendingTimer->start();

    const int row = keep.isEmpty() ? -1 : m_nodeModel->rowOf(keep);
    if (row >= 0)
        m_nodeView->selectRow(row); // reloads the detail: the node may have changed
    else if (!keep.isEmpty() && m_inspector->nodeId() == keep)
        loadDetail(keep); // off this page, but still inspected
    Q_EMIT nodesLoaded(m_total);
}

void MemoryPage::loadCommits()
{
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    if (tenant.isEmpty()) {
        ++m_commitsGeneration; // a list still on its way belongs to the old scope
        m_commitModel->setCommits({});
        m_commitTitle->setText(tr("Commits"));
        return;
    }
    loadContent(
        m_commitsGeneration, tr("Loading commits failed: %1"),
        [tenant, scope](MemoryService *service) {
            return service->listCommits(tenant, scope, 0, CommitListLimit);
        },
        [this](const QVector<CommitRecord> &commits) {
            // The facade lists newest first; the title says so.
            m_commitModel->setCommits(commits);
            const int count = int(commits.size());
            m_commitTitle->setText(count >= CommitListLimit
                                       ? tr("Commits (newest %1)").arg(count)
                                       : tr("Commits (%1, newest first)").arg(count));
        });
}

void MemoryPage::loadDetail(const QString &nodeId)
{
    m_selectedNodeId = nodeId;
    loadNodeDetail(m_detailGeneration, currentTenant(), currentScope(), nodeId, m_inspector,
                   m_nodeActions, [this]() { m_selectedNodeId.clear(); });
}

void MemoryPage::onScopeChanged()
{
    m_offset = 0;
    m_selectedNodeId.clear();
    m_nodeActions->clearNode();
    ++m_detailGeneration; // an inspector load for the old scope is now stale
    m_inspector->showMessage(tr("Select a node to inspect it."));
    loadNodes();
    loadCommits();
}

void MemoryPage::onScopeReloaded()
{
    // Same scope after a reload: keep the page and selection, refresh the content.
    loadNodes();
    loadCommits();
}

void MemoryPage::onFiltersChanged()
{
    m_filterTimer->stop();
    m_offset = 0;
    loadNodes();
}

void MemoryPage::onCurrentNodeChanged()
{
    const QModelIndex current = m_nodeView->selectionModel()->currentIndex();
    if (!current.isValid())
        return;
    // The row is enough for the actions, so a context menu right after the click is current.
    m_nodeActions->setNode(m_nodeModel->node(current.row()));
    loadDetail(m_nodeModel->data(current, NodeTableModel::NodeIdRole).toString());
}

void MemoryPage::updatePager()
{
    const int shown = m_nodeModel->rowCount();
    if (m_total == 0 || shown == 0)
        m_pageLabel->setText(currentTenant().isEmpty() ? tr("No scope selected") : tr("No nodes"));
    else
        m_pageLabel->setText(
            tr("Rows %1\u2013%2 of %3").arg(m_offset + 1).arg(m_offset + shown).arg(m_total));
    m_prevButton->setEnabled(m_offset > 0);
    m_nextButton->setEnabled(m_offset + shown < m_total);
}

} // namespace MemoryGraph::Ui
