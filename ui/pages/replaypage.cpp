#include "ui/pages/replaypage.h"

#include "service/memoryservice.h"
#include "ui/displayformat.h"
#include "ui/models/replayrunlistmodel.h"
#include "ui/widgets/decisiondetail.h"
#include "ui/widgets/messagestack.h"
#include "ui/widgets/playbookpanel.h"
#include "ui/widgets/recordtable.h"
#include "ui/widgets/replaystepdetail.h"
#include "ui/widgets/ruledisplay.h"

#include <QAction>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <optional>

namespace MemoryGraph::Ui {

namespace {

constexpr int NodeIdRole = Qt::UserRole + 1;
constexpr int KindRole = Qt::UserRole + 2;

enum StepColumn {
    StepIndexColumn,
    StepToolColumn,
    StepStatusColumn,
    StepSafetyColumn,
    StepColumnCount
};

/// The colour a replay node kind is drawn in, in the timeline and its legend.
QColor kindColour(const QString &kind)
{
    if (kind == QLatin1String("run"))
        return QColor(0x4a, 0x90, 0xd9);
    if (kind == QLatin1String("step"))
        return QColor(0xe0, 0xa0, 0x30);
    if (kind == QLatin1String("step_result"))
        return QColor(0x3f, 0xa3, 0x5b);
    if (kind == QLatin1String("run_end"))
        return QColor(0x8e, 0x6c, 0xc0);
    return QColor(0x88, 0x88, 0x88);
}

QIcon kindIcon(const QString &kind)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(kindColour(kind));
    painter.drawEllipse(1, 1, 10, 10);
    return QIcon(pixmap);
}

} // namespace

/// One run load: the run view and the scope's rule titles (for decision links), read together.
struct ReplayPage::LoadedRun
{
    ReplayRunView view;
    QHash<QString, QString> ruleTitles;
};

// A decision changes a run's decision list without a commit.
ReplayPage::ReplayPage(MemoryService *service, UiExecutor *executor, QWidget *parent)
    : PageSkeleton(service, executor, FollowDecisions, parent)
{
    QWidget *topBar = createTopBar();
    QWidget *runPanel = createRunPanel();
    QWidget *detail = createRunDetail();
    createStepActions();

    auto *columns = new QSplitter(Qt::Horizontal, this);
    columns->setChildrenCollapsible(false);
    columns->addWidget(runPanel);
    columns->addWidget(detail);
    columns->setStretchFactor(0, 2);
    columns->setStretchFactor(1, 3);
    columns->setSizes({560, 680}); // tuned for a 1280-pixel-wide window

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(topBar);
    layout->addWidget(columns, 1);
    clearRun(tr("Select a run to replay it.\n\nRuns are recorded by the replay/run/start, "
                "step/before, step/after and run/end calls."));
}

QWidget *ReplayPage::createTopBar()
{
    auto *bar = new QWidget(this);
    QHBoxLayout *layout = createScopeBar(bar, tr("Reload scopes, runs and the shown run (%1)"));

    m_filterEdit = new QLineEdit(bar);
    m_filterEdit->setObjectName(QStringLiteral("runFilterEdit"));
    m_filterEdit->setPlaceholderText(tr("run id, goal or status"));
    m_filterEdit->setClearButtonEnabled(true);
    auto *filterLabel = new QLabel(tr("&Filter:"), bar);
    filterLabel->setBuddy(m_filterEdit);

    layout->addWidget(filterLabel);
    layout->addWidget(m_filterEdit, 1);
    return bar;
}

QWidget *ReplayPage::createRunPanel()
{
    m_runModel = new ReplayRunListModel(this);
    m_runProxy = new QSortFilterProxyModel(this);
    m_runProxy->setSourceModel(m_runModel);
    m_runProxy->setFilterRole(ReplayRunListModel::FilterTextRole);
    m_runProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_runProxy->setFilterFixedString(text.trimmed());
        updateRunCount();
    });

    m_runTable = createRecordTable(m_runProxy, QStringLiteral("runTable"), this);
    // The goal takes what the other columns leave.
    using Column = ReplayRunListModel::Column;
    fitColumn(m_runTable, int(Column::Run), QStringLiteral("0000aaaa"));
    fitColumn(m_runTable, int(Column::Status), QStringLiteral("in_progress"));
    fitColumn(m_runTable, int(Column::Started), QStringLiteral("0000-00-00 00:00:00"));
    fitColumn(m_runTable, int(Column::Ended), QStringLiteral("0000-00-00 00:00:00"));
    fitColumn(m_runTable, int(Column::Steps), QStringLiteral("999"));
    m_runTable->horizontalHeader()->setSectionResizeMode(int(Column::Goal), QHeaderView::Stretch);
    connect(m_runTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ReplayPage::onRunRowChanged);

    m_runCountLabel = new QLabel(this);
    m_runCountLabel->setObjectName(QStringLiteral("runCountLabel"));
    QGroupBox *box = createListBox(tr("Runs (newest first)"), m_runTable, m_runCountLabel);
    updateRunCount();
    return box;
}

QWidget *ReplayPage::createRunDetail()
{
    auto *box = new QGroupBox(tr("Run"), this);

    m_runHeader = new QLabel(box);
    m_runHeader->setObjectName(QStringLiteral("runHeader"));
    m_runHeader->setWordWrap(true);
    m_runHeader->setTextInteractionFlags(Qt::TextSelectableByMouse);

    QHBoxLayout *nav = createStepNavigation(box);
    QWidget *lists = createTimelineAndSteps(box);
    createDetailTabs(box);

    auto *vertical = new QSplitter(Qt::Vertical, box);
    vertical->addWidget(lists);
    vertical->addWidget(m_tabs);
    vertical->setChildrenCollapsible(false);
    // Room for about ten timeline rows before the detail tabs take the rest.
    lists->setMinimumHeight(m_timeline->fontMetrics().height() * 10 + 80);
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 1);

    auto *run = new QWidget(box);
    auto *runLayout = new QVBoxLayout(run);
    runLayout->setContentsMargins(0, 0, 0, 0);
    runLayout->addWidget(m_runHeader);
    runLayout->addLayout(nav);
    runLayout->addWidget(vertical, 1);

    // Without a run there is nothing to step through: the hint stands in for the empty panes.
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(createDetailStack(run, QString()));
    return box;
}

/// First/back/position/forward/last and "Open node": the row that steps through a run.
QHBoxLayout *ReplayPage::createStepNavigation(QWidget *box)
{
    // Their actions (icon, text, shortcut) are attached by createStepActions().
    const auto navButton = [box]() {
        auto *button = new QToolButton(box);
        button->setAutoRaise(true);
        return button;
    };
    m_firstButton = navButton();
    m_backButton = navButton();
    m_forwardButton = navButton();
    m_lastButton = navButton();
    m_stepPosition = new QLabel(box);
    m_stepPosition->setObjectName(QStringLiteral("stepPosition"));
    m_openNodeButton = new QToolButton(box);
    m_openNodeButton->setObjectName(QStringLiteral("openNodeButton"));
    m_openNodeButton->setText(tr("Open node"));
    m_openNodeButton->setToolTip(
        tr("Show the selected timeline node (else the current step) in the graph"));
    connect(m_openNodeButton, &QToolButton::clicked, this, &ReplayPage::openSelectedNode);
    m_compileButton = new QPushButton(tr("&Compile playbook from this run"), box);
    m_compileButton->setObjectName(QStringLiteral("compilePlaybookButton"));
    m_compileButton->setEnabled(false);
    connect(m_compileButton, &QPushButton::clicked, this, &ReplayPage::compilePlaybook);

    auto *nav = new QHBoxLayout;
    nav->addWidget(m_firstButton);
    nav->addWidget(m_backButton);
    nav->addWidget(m_stepPosition);
    nav->addWidget(m_forwardButton);
    nav->addWidget(m_lastButton);
    nav->addStretch(1);
    nav->addWidget(m_openNodeButton);
    nav->addWidget(m_compileButton);
    return nav;
}

/// The run's timeline beside its steps table; choosing a step moves the replay there.
QWidget *ReplayPage::createTimelineAndSteps(QWidget *box)
{
    m_timeline = new QListWidget(box);
    m_timeline->setObjectName(QStringLiteral("timelineList"));
    m_timeline->setToolTip(tr("Every replay node of the run, oldest first (double-click to open)"));
    connect(m_timeline, &QListWidget::itemDoubleClicked, this, &ReplayPage::openSelectedNode);

    m_steps = new QTableWidget(0, StepColumnCount, box);
    m_steps->setObjectName(QStringLiteral("stepsTable"));
    m_steps->setHorizontalHeaderLabels({tr("#"), tr("Tool"), tr("Status"), tr("Safety")});
    m_steps->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_steps->setSelectionMode(QAbstractItemView::SingleSelection);
    m_steps->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_steps->verticalHeader()->hide();
    m_steps->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_steps->horizontalHeader()->setSectionResizeMode(StepToolColumn, QHeaderView::Stretch);
    connect(m_steps, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (!m_restoring && row >= 0)
            setCurrentStep(row);
    });

    auto *lists = new QSplitter(Qt::Horizontal, box);
    auto *timelineBox = new QGroupBox(tr("Timeline"), lists);
    (new QVBoxLayout(timelineBox))->addWidget(m_timeline);
    auto *stepsBox = new QGroupBox(tr("Steps"), lists);
    (new QVBoxLayout(stepsBox))->addWidget(m_steps);
    lists->addWidget(timelineBox);
    lists->addWidget(stepsBox);
    return lists;
}

/// The tabs under the lists: the current step, the run's artifacts and its decisions.
void ReplayPage::createDetailTabs(QWidget *box)
{
    m_stepDetail = new ReplayStepDetail(box);
    m_stepDetail->setObjectName(QStringLiteral("stepDetail"));
    m_artifacts = new QListWidget(box);
    m_artifacts->setObjectName(QStringLiteral("artifactList"));

    m_decisions = new QListWidget(box);
    m_decisions->setObjectName(QStringLiteral("decisionList"));
    connect(m_decisions, &QListWidget::currentRowChanged, this, &ReplayPage::showDecisionAt);
    m_decisionDetail = new DecisionDetail(box);
    m_decisionDetail->setObjectName(QStringLiteral("replayDecisionDetail"));
    connect(m_decisionDetail, &DecisionDetail::ruleRequested, this, [this](const QString &ruleId) {
        Q_EMIT ruleRequested(currentTenant(), currentScope(), ruleId);
    });
    auto *decisionSplit = new QSplitter(Qt::Horizontal, box);
    decisionSplit->addWidget(m_decisions);
    decisionSplit->addWidget(m_decisionDetail);
    decisionSplit->setStretchFactor(1, 2);

    m_tabs = new QTabWidget(box);
    m_tabs->addTab(m_stepDetail, tr("Current step"));
    m_tabs->addTab(m_artifacts, tr("Artifacts"));
    m_tabs->addTab(decisionSplit, tr("Decisions"));

    m_playbooks = new PlaybookPanel(service(), executor(), box);
    m_playbooks->setObjectName(QStringLiteral("playbookPanel"));
    connect(m_playbooks, &PlaybookPanel::compiled, this,
            [this] { m_tabs->setCurrentWidget(m_playbooks); });
    m_tabs->addTab(m_playbooks, tr("Playbooks"));
}

void ReplayPage::compilePlaybook()
{
    if (m_view.run.runId.isEmpty() || !m_compileButton->isEnabled())
        return;
    m_playbooks->compileFromRun(m_view.run.runId, m_view.run.runNodeId);
}

void ReplayPage::createStepActions()
{
    struct StepAction
    {
        QToolButton *button;
        QStyle::StandardPixmap icon;
        QString text;
        QKeySequence key;
        void (ReplayPage::*slot)();
    };
    const StepAction actions[] = {{m_firstButton, QStyle::SP_MediaSkipBackward, tr("First step"),
                                   QKeySequence(Qt::Key_Home), &ReplayPage::firstStep},
                                  {m_backButton, QStyle::SP_MediaSeekBackward, tr("Previous step"),
                                   QKeySequence(Qt::ALT | Qt::Key_Left), &ReplayPage::stepBack},
                                  {m_forwardButton, QStyle::SP_MediaSeekForward, tr("Next step"),
                                   QKeySequence(Qt::ALT | Qt::Key_Right), &ReplayPage::stepForward},
                                  {m_lastButton, QStyle::SP_MediaSkipForward, tr("Last step"),
                                   QKeySequence(Qt::Key_End), &ReplayPage::lastStep}};
    for (const StepAction &a : actions) {
        auto *action = new QAction(style()->standardIcon(a.icon), a.text, this);
        action->setShortcut(a.key);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        action->setToolTip(
            QStringLiteral("%1 (%2)").arg(a.text, a.key.toString(QKeySequence::NativeText)));
        connect(action, &QAction::triggered, this, a.slot);
        addAction(action);
        a.button->setDefaultAction(action);
    }
}

void ReplayPage::onScopeChanged()
{
    m_playbooks->setScope(currentTenant(), currentScope());
    m_selectedRunId.clear();
    clearRun(hasScope() ? tr("Select a run to replay it.") : tr("No scope selected."));
    loadRuns();
}

void ReplayPage::onScopeReloaded()
{
    m_playbooks->reload();
    loadRuns();
}

void ReplayPage::showRun(const QString &tenantId, const QString &scope, const QString &runId)
{
    m_pendingRunId = runId.toLower();
    if (tenantId == currentTenant() && scope == currentScope())
        loadRuns();
    else
        selectScope(tenantId, scope); // the scope change loads the runs
}

void ReplayPage::loadRuns()
{
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    if (tenant.isEmpty()) {
        ++m_runsGeneration; // a list still on its way belongs to the old scope
        applyRuns({});
        return;
    }
    loadContent(
        m_runsGeneration, tr("Loading runs failed: %1"),
        [tenant, scope](MemoryService *service) {
            return service->listReplayRuns(tenant, scope, ListLimit);
        },
        [this](const QVector<ReplayRunSummary> &runs) { applyRuns(runs); });
}

void ReplayPage::applyRuns(const QVector<ReplayRunSummary> &runs)
{
    setStatus(QString());
    const QString wanted = !m_pendingRunId.isEmpty() ? m_pendingRunId : m_selectedRunId;
    m_restoring = true;
    m_runModel->setRuns(runs);
    m_restoring = false;
    const int sourceRow = wanted.isEmpty() ? -1 : m_runModel->rowOf(wanted);
    if (sourceRow >= 0) {
        if (!m_pendingRunId.isEmpty()
            && m_runProxy->mapFromSource(m_runModel->index(sourceRow, 0)).row() < 0)
            m_filterEdit->clear(); // a run asked for by showRun() must not hide behind a filter
        const QModelIndex row = m_runProxy->mapFromSource(m_runModel->index(sourceRow, 0));
        m_restoring = true;
        m_runTable->selectRow(row.row());
        m_runTable->scrollTo(row);
        m_restoring = false;
        m_selectedRunId = wanted;
        loadRun(wanted); // the run may have grown since it was shown
    } else if (!m_selectedRunId.isEmpty()) {
        m_selectedRunId.clear();
        clearRun(tr("The selected run is no longer listed."));
    }
    m_pendingRunId.clear();
    updateRunCount();
    Q_EMIT runsLoaded(m_runModel->rowCount());
}

void ReplayPage::onRunRowChanged(const QModelIndex &current)
{
    if (m_restoring || !current.isValid())
        return;
    const QString runId = current.data(ReplayRunListModel::RunIdRole).toString();
    if (runId == m_selectedRunId)
        return;
    m_selectedRunId = runId;
    loadRun(runId);
}

void ReplayPage::loadRun(const QString &runId)
{
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    loadLatest(
        m_runGeneration,
        [tenant, scope, runId](MemoryService *service) -> Result<LoadedRun> {
            auto view = service->replayRun(tenant, scope, runId);
            if (!view)
                return view.error();
            return LoadedRun{view.value(), RuleDisplay::ruleTitles(service, tenant, scope)};
        },
        [this](const LoadedRun &loaded) { applyRun(loaded); },
        [this](const Error &error) {
            const QString text = tr("Loading the run failed: %1").arg(error.message);
            reportLoadFailure(text);
            clearRun(text);
        });
}

void ReplayPage::applyRun(const LoadedRun &loaded)
{
    const bool sameRun = loaded.view.run.runId == m_view.run.runId;
    const int keepStep = sameRun ? m_currentStep : -1;
    const QString keepDecision = m_decisions->currentItem()
                                     ? m_decisions->currentItem()->data(NodeIdRole).toString()
                                     : QString();
    m_view = loaded.view;
    m_ruleTitles = loaded.ruleTitles;
    m_decisionDetail->setRuleTitles(m_ruleTitles);

    const ReplayRunInfo &run = m_view.run;
    m_runHeader->setText(tr("<b>%1</b><br>%2 \u2014 started %3, ended %4<br><small>%5</small>")
                             .arg(orDash(run.goal).toHtmlEscaped(), run.status.toHtmlEscaped(),
                                  formatDateTime(run.startedAt), formatDateTime(run.endedAt),
                                  run.runId));
    showDetail();
    // Only a run that ended with success compiles (reference §7.4).
    m_compileButton->setEnabled(run.status == QLatin1String("success"));
    m_compileButton->setToolTip(
        run.status == QLatin1String("success")
            ? tr("Compile this run into a versioned replay playbook (Playbooks tab)")
            : tr("Only a run that ended with success can be compiled into a playbook"));
    fillTimeline();
    fillSteps();
    fillArtifacts();
    fillDecisions();
    if (sameRun && !keepDecision.isEmpty()) {
        for (int i = 0; i < m_decisions->count(); ++i) {
            if (m_decisions->item(i)->data(NodeIdRole).toString() == keepDecision)
                m_decisions->setCurrentRow(i);
        }
    }
    const int steps = int(m_view.steps.size());
    setCurrentStep(steps == 0 ? -1 : qBound(0, keepStep < 0 ? 0 : keepStep, steps - 1));
    Q_EMIT runLoaded(run.runId);
}

void ReplayPage::clearRun(const QString &message)
{
    ++m_runGeneration;
    ++m_feedbackGeneration;
    m_view = ReplayRunView();
    m_runHeader->clear();
    m_compileButton->setEnabled(false);
    showDetailMessage(message);
    m_timeline->clear();
    m_steps->setRowCount(0);
    m_artifacts->clear();
    m_decisions->clear();
    m_decisionDetail->showMessage(tr("No decisions to show."));
    m_tabs->setTabText(1, tr("Artifacts"));
    m_tabs->setTabText(2, tr("Decisions"));
    setCurrentStep(-1);
}

void ReplayPage::fillTimeline()
{
    m_timeline->clear();
    for (const ReplayTimelineEntry &t : std::as_const(m_view.timeline)) {
        auto *item = new QListWidgetItem(
            kindIcon(t.replayKind), QStringLiteral("%1  %2  %3")
                                        .arg(formatDateTime(t.createdAt), t.replayKind,
                                             orDash(t.title.isEmpty() ? t.textSummary : t.title)));
        item->setData(NodeIdRole, t.nodeId);
        item->setData(KindRole, t.replayKind);
        item->setToolTip(
            tr("%1 node %2\n%3\ncommit %4").arg(t.type, t.nodeId, t.textSummary, t.commitId));
        // Outcomes in their status colour, so a failed step stands out in the timeline.
        item->setForeground(t.status.isEmpty() ? kindColour(t.replayKind)
                                               : ReplayRunListModel::statusColour(t.status));
        m_timeline->addItem(item);
    }
}

void ReplayPage::fillSteps()
{
    m_restoring = true;
    m_steps->setRowCount(int(m_view.steps.size()));
    for (int row = 0; row < m_view.steps.size(); ++row) {
        const ReplayStepView &s = m_view.steps[row];
        const QString cells[StepColumnCount]
            = {s.stepIndex ? QString::number(*s.stepIndex) : orDash(QString()), s.toolName,
               s.status, orDash(s.safetyLevel)};
        for (int column = 0; column < StepColumnCount; ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            if (column == StepStatusColumn)
                item->setForeground(ReplayRunListModel::statusColour(s.status));
            m_steps->setItem(row, column, item);
        }
    }
    m_restoring = false;
}

void ReplayPage::fillArtifacts()
{
    m_artifacts->clear();
    m_artifacts->addItems(m_view.artifacts);
    m_tabs->setTabText(1, tr("Artifacts (%1)").arg(m_view.artifacts.size()));
}

void ReplayPage::fillDecisions()
{
    ++m_feedbackGeneration;
    m_decisions->clear();
    for (const DecisionRecord &d : std::as_const(m_view.decisions)) {
        auto *item = new QListWidgetItem(
            tr("%1 \u2014 %2")
                .arg(d.selectedTool.isEmpty() ? tr("(none selected)") : d.selectedTool,
                     formatDateTime(d.createdAt)));
        item->setData(NodeIdRole, d.id);
        item->setToolTip(
            tr("Decision %1 among %2").arg(d.id, d.candidates.join(QStringLiteral(", "))));
        m_decisions->addItem(item);
    }
    m_tabs->setTabText(2, tr("Decisions (%1)").arg(m_view.decisions.size()));
    if (m_view.decisions.isEmpty())
        m_decisionDetail->showMessage(tr("No tool decision was recorded with this run_id."));
    else
        m_decisions->setCurrentRow(0);
}

void ReplayPage::showDecisionAt(int row)
{
    if (row < 0 || row >= m_view.decisions.size())
        return;
    const DecisionRecord d = m_view.decisions[row];
    m_decisionDetail->showDecision(d);
    m_decisionDetail->setFeedbackMessage(tr("Loading feedback\u2026"));
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    loadLatest(
        m_feedbackGeneration,
        [tenant, scope, id = d.id](MemoryService *service) {
            return service->feedbackForDecision(tenant, scope, id);
        },
        [this](const QVector<FeedbackRecord> &feedback) {
            m_decisionDetail->setFeedback(feedback);
        },
        [this](const Error &error) { m_decisionDetail->setFeedbackFailure(error); });
}

void ReplayPage::setCurrentStep(int step)
{
    const int count = int(m_view.steps.size());
    m_currentStep = count == 0 ? -1 : qBound(0, step, count - 1);

    const QStringList highlighted = highlightedNodeIds();
    const QColor highlight = [this] {
        QColor c = palette().highlight().color();
        c.setAlpha(70);
        return c;
    }();
    int stepRow = -1;
    for (int i = 0; i < m_timeline->count(); ++i) {
        QListWidgetItem *item = m_timeline->item(i);
        const bool on = highlighted.contains(item->data(NodeIdRole).toString());
        item->setBackground(on ? QBrush(highlight) : QBrush());
        QFont font = item->font();
        font.setBold(on);
        item->setFont(font);
        if (on && item->data(KindRole).toString() == QLatin1String("step"))
            stepRow = i;
    }
    m_restoring = true;
    if (m_currentStep >= 0) {
        m_steps->selectRow(m_currentStep);
        m_steps->scrollToItem(m_steps->item(m_currentStep, 0));
    } else {
        m_steps->clearSelection();
    }
    if (stepRow >= 0) {
        m_timeline->setCurrentRow(stepRow);
        m_timeline->scrollToItem(m_timeline->item(stepRow));
    }
    m_restoring = false;

    if (m_currentStep >= 0) {
        m_stepDetail->showStep(m_view.steps[m_currentStep], m_currentStep, count);
        m_stepPosition->setText(tr("Step %1 of %2").arg(m_currentStep + 1).arg(count));
    } else {
        m_stepDetail->showMessage(m_view.run.runId.isEmpty() ? tr("No run selected.")
                                                             : tr("This run has no steps yet."));
        m_stepPosition->setText(tr("No step"));
    }
    m_firstButton->setEnabled(m_currentStep > 0);
    m_backButton->setEnabled(m_currentStep > 0);
    m_forwardButton->setEnabled(m_currentStep >= 0 && m_currentStep < count - 1);
    m_lastButton->setEnabled(m_currentStep >= 0 && m_currentStep < count - 1);
    m_openNodeButton->setEnabled(!m_view.timeline.isEmpty());
}

QStringList ReplayPage::highlightedNodeIds() const
{
    if (m_currentStep < 0)
        return {};
    const ReplayStepView &s = m_view.steps[m_currentStep];
    QStringList ids{s.stepNodeId};
    if (!s.resultNodeId.isEmpty())
        ids << s.resultNodeId;
    return ids;
}

void ReplayPage::stepForward()
{
    if (m_currentStep >= 0)
        setCurrentStep(m_currentStep + 1);
}

void ReplayPage::stepBack()
{
    if (m_currentStep >= 0)
        setCurrentStep(m_currentStep - 1);
}

void ReplayPage::firstStep()
{
    if (m_currentStep >= 0)
        setCurrentStep(0);
}

void ReplayPage::lastStep()
{
    if (m_currentStep >= 0)
        setCurrentStep(int(m_view.steps.size()) - 1);
}

void ReplayPage::openSelectedNode()
{
    QString nodeId;
    if (QListWidgetItem *item = m_timeline->currentItem())
        nodeId = item->data(NodeIdRole).toString();
    if (nodeId.isEmpty() && m_currentStep >= 0)
        nodeId = m_view.steps[m_currentStep].stepNodeId;
    if (nodeId.isEmpty())
        nodeId = m_view.run.runNodeId;
    if (!nodeId.isEmpty())
        Q_EMIT nodeRequested(currentTenant(), currentScope(), nodeId);
}

void ReplayPage::updateRunCount()
{
    const int total = m_runModel->rowCount();
    const int shown = m_runProxy->rowCount();
    if (currentTenant().isEmpty())
        m_runCountLabel->setText(tr("No scope selected"));
    else if (total == 0)
        m_runCountLabel->setText(tr("No replay runs in this scope"));
    else if (shown != total)
        m_runCountLabel->setText(tr("%1 of %n run(s)", nullptr, total).arg(shown));
    else
        m_runCountLabel->setText(tr("%n run(s)", nullptr, total));
}

} // namespace MemoryGraph::Ui
