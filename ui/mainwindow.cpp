#include "ui/mainwindow.h"

#include "service/memoryservice.h"
#include "ui/backupactions.h"
#include "ui/closepolicy.h"
#include "ui/debounce.h"
#include "ui/pages/auditpage.h"
#include "ui/pages/automationspage.h"
#include "ui/pages/decisionspage.h"
#include "ui/pages/graphpage.h"
#include "ui/pages/memorypage.h"
#include "ui/pages/recallpage.h"
#include "ui/pages/replaypage.h"
#include "ui/pages/rulespage.h"
#include "ui/pages/serverpage.h"
#include "ui/pages/welcomepage.h"
#include "ui/portabilityflow.h"
#include "ui/sampleloader.h"
#include "ui/settingsdialog.h"
#include "ui/widgets/scopepicker.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QFrame>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>

namespace MemoryGraph::Ui {

namespace {

constexpr int CountsDebounceMs = 500;
constexpr int StatusMessageMs = 8000;

} // namespace

MainWindow::MainWindow(MemoryService *service, QWidget *parent)
    : QMainWindow(parent), m_service(service)
{
    Q_ASSERT(m_service);
    setWindowTitle(tr("Memory Graph"));

    m_serverPage = new ServerPage(this);
    m_serverPage->setObjectName(QStringLiteral("serverPage"));
    m_memoryPage = new MemoryPage(m_service, &m_executor, this);
    m_memoryPage->setObjectName(QStringLiteral("memoryPage"));
    m_recallPage = new RecallPage(m_service, &m_executor, this);
    m_recallPage->setObjectName(QStringLiteral("recallPage"));
    m_graphPage = new GraphPage(m_service, &m_executor, this);
    m_graphPage->setObjectName(QStringLiteral("graphPage"));
    m_rulesPage = new RulesPage(m_service, &m_executor, this);
    m_rulesPage->setObjectName(QStringLiteral("rulesPage"));
    m_decisionsPage = new DecisionsPage(m_service, &m_executor, this);
    m_decisionsPage->setObjectName(QStringLiteral("decisionsPage"));
    m_replayPage = new ReplayPage(m_service, &m_executor, this);
    m_replayPage->setObjectName(QStringLiteral("replayPage"));
    m_auditPage = new AuditPage(m_service, &m_executor, this);
    m_auditPage->setObjectName(QStringLiteral("auditPage"));
    m_automationsPage = new AutomationsPage(m_service, &m_executor, this);
    m_automationsPage->setObjectName(QStringLiteral("automationsPage"));
    m_welcomePage = new WelcomePage(this);
    m_welcomePage->setObjectName(QStringLiteral("welcomePage"));

    // In Page order.
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_serverPage);
    m_stack->addWidget(m_memoryPage);
    m_stack->addWidget(m_recallPage);
    m_stack->addWidget(m_graphPage);
    m_stack->addWidget(m_rulesPage);
    m_stack->addWidget(m_decisionsPage);
    m_stack->addWidget(m_replayPage);
    m_stack->addWidget(m_auditPage);
    m_stack->addWidget(m_automationsPage);
    m_stack->addWidget(m_welcomePage);

    auto *central = new QWidget(this);
    auto *layout = new QHBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(createSidebar());
    auto *divider = new QFrame(central);
    divider->setFrameShape(QFrame::VLine);
    divider->setFrameShadow(QFrame::Sunken);
    layout->addWidget(divider);
    layout->addWidget(m_stack, 1);
    setCentralWidget(central);

    createActions();
    createMenus();
    createStatusBar();

    m_countsTimer = createDebounceTimer(this, CountsDebounceMs, [this]() { refreshCounts(); });
    // Emitted on the writer's thread; queued here through the window as context.
    connect(m_service, &MemoryService::committed, this, [this]() { m_countsTimer->start(); });

    connect(m_serverPage, &ServerPage::stateChanged, m_serverStateLabel, &QLabel::setText);
    const auto showFailure
        = [this](const QString &message) { statusBar()->showMessage(message, StatusMessageMs); };
    connect(m_memoryPage, &MemoryPage::loadFailed, this, showFailure);
    connect(m_graphPage, &GraphPage::loadFailed, this, showFailure);
    connect(m_memoryPage, &MemoryPage::showInGraphRequested, this, &MainWindow::showNodeInGraph);
    connect(m_recallPage, &RecallPage::showInGraphRequested, this, &MainWindow::showNodeInGraph);
    const auto showRule
        = [this](const QString &tenantId, const QString &scope, const QString &ruleId) {
              m_rulesPage->showRule(tenantId, scope, ruleId);
              showPage(Page::Rules);
          };
    connect(m_decisionsPage, &DecisionsPage::ruleRequested, this, showRule);
    connect(m_replayPage, &ReplayPage::ruleRequested, this, showRule);
    connect(m_replayPage, &ReplayPage::nodeRequested, this, &MainWindow::showNodeInGraph);
    connect(m_auditPage, &AuditPage::loadFailed, this, showFailure);
    connect(m_automationsPage, &AutomationsPage::loadFailed, this, showFailure);
    connectWelcomePage();

    resize(1280, 800);
    showPage(Page::Server);
    m_openingPageUndecided = true;
    refreshCounts();
}

MainWindow::~MainWindow()
{
    // The pages go while the executor still takes calls (their late answers are dropped);
    // the executor's destructor then waits for what is still running, such as a sample load.
    delete takeCentralWidget();
    // A backup still running is cancelled, so the executor's wait below ends soon.
    delete m_backupActions;
}

QWidget *MainWindow::createSidebar()
{
    m_sidebar = new QListWidget(this);
    m_sidebar->setObjectName(QStringLiteral("navigation"));
    m_sidebar->setFrameShape(QFrame::NoFrame);
    m_sidebar->viewport()->setBackgroundRole(QPalette::Window);
    m_sidebar->setIconSize(QSize(22, 22));
    m_sidebar->setFixedWidth(150);
    m_sidebar->setSpacing(2);
    m_sidebar->setFocusPolicy(Qt::StrongFocus);

    const int rowHeight = m_sidebar->fontMetrics().height() + 20;
    auto addPage = [&](QStyle::StandardPixmap icon, const QString &text, const QString &tip) {
        auto *item = new QListWidgetItem(style()->standardIcon(icon), text, m_sidebar);
        item->setSizeHint(QSize(0, rowHeight));
        item->setToolTip(tip);
    };
    addPage(QStyle::SP_DriveNetIcon, tr("Server"), tr("HTTP listener and request log (Ctrl+1)"));
    addPage(QStyle::SP_FileDialogDetailedView, tr("Memory"),
            tr("Browse nodes, edges and commits (Ctrl+2)"));
    addPage(QStyle::SP_FileDialogContentsView, tr("Recall"),
            tr("Run recall_text and see seeds, ranking, context and subgraph (Ctrl+3)"));
    addPage(QStyle::SP_DirLinkIcon, tr("Graph"), tr("Draw a node's neighbourhood (Ctrl+4)"));
    addPage(QStyle::SP_FileDialogListView, tr("Rules"),
            tr("Edit rules, switch them between shadow and active, try them (Ctrl+5)"));
    addPage(QStyle::SP_FileDialogInfoView, tr("Decisions"),
            tr("Tool-selection decisions and their feedback (Ctrl+6)"));
    addPage(QStyle::SP_MediaPlay, tr("Replay"),
            tr("Recorded runs step by step, with their decisions and feedback (Ctrl+7)"));
    addPage(QStyle::SP_DialogApplyButton, tr("Audit"),
            tr("Commits by scope, chain verification and maintenance jobs (Ctrl+8)"));
    addPage(QStyle::SP_BrowserReload, tr("Automations"),
            tr("Automation definitions, runs, reviews and telemetry (Ctrl+9)"));

    connect(m_sidebar, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0)
            return;
        m_openingPageUndecided = false;
        m_stack->setCurrentIndex(row);
        if (QAction *action = m_pageActionList.value(row))
            action->setChecked(true);
    });
    return m_sidebar;
}

void MainWindow::createActions()
{
    m_loadSamplesAction = new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton),
                                      tr("&Load sample memories"), this);
    m_loadSamplesAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    m_loadSamplesAction->setStatusTip(
        tr("Write a small example memory graph into the default scope"));
    connect(m_loadSamplesAction, &QAction::triggered, this, &MainWindow::loadSampleMemories);

    m_backupActions = new BackupActions(m_service, &m_executor, this);
    const auto showOutcome = [this](bool, const QString &message) {
        statusBar()->showMessage(message, StatusMessageMs);
    };
    connect(m_backupActions, &BackupActions::backupFinished, this, showOutcome);
    connect(m_backupActions, &BackupActions::restorePrepared, this, showOutcome);
    m_portability = new PortabilityFlow(m_service, &m_executor, this);
    m_exportAction = new QAction(style()->standardIcon(QStyle::SP_DialogSaveButton),
                                 tr("&Export\u2026"), this);
    m_exportAction->setObjectName(QStringLiteral("exportAction"));
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_exportAction->setStatusTip(tr("Write a scope to a file another Memory Graph can import"));
    connect(m_exportAction, &QAction::triggered, this, &MainWindow::exportMemories);
    m_importAction = new QAction(style()->standardIcon(QStyle::SP_DialogOpenButton),
                                 tr("&Import\u2026"), this);
    m_importAction->setObjectName(QStringLiteral("importAction"));
    m_importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    m_importAction->setStatusTip(tr("Check an export file and import it into a scope"));
    connect(m_importAction, &QAction::triggered, this, [this] { importMemories(); });
    setImportAction(m_importAction);
    connect(m_portability, &PortabilityFlow::exportFinished, this, showOutcome);
    connect(m_portability, &PortabilityFlow::importFinished, this,
            [this, showOutcome](bool ok, const QString &message, const QString &tenantId,
                                const QString &scope) {
                showOutcome(ok, message);
                if (!ok)
                    return;
                m_memoryPage->scopePicker()->selectScope(tenantId, scope);
                showPage(Page::Memory);
            });

    m_quitAction = new QAction(tr("&Quit"), this);
    // Spelled out: QKeySequence::Quit is empty on some platforms.
    m_quitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &MainWindow::requestQuit);

    m_preferencesAction = new QAction(tr("&Preferences\u2026"), this);
    m_preferencesAction->setObjectName(QStringLiteral("preferencesAction"));
    // QKeySequence::Preferences is empty on several desktops; Ctrl+, is the common choice.
    const QKeySequence preferences(QKeySequence::Preferences);
    m_preferencesAction->setShortcut(preferences.isEmpty() ? QKeySequence(Qt::CTRL | Qt::Key_Comma)
                                                           : preferences);
    m_preferencesAction->setMenuRole(QAction::PreferencesRole);
    m_preferencesAction->setStatusTip(
        tr("Keep serving in the tray when the window is closed, start at login"));
    m_preferencesAction->setEnabled(false); // until setClosePolicy() and setAutoStart()
    connect(m_preferencesAction, &QAction::triggered, this, &MainWindow::showPreferences);

    m_welcomeAction = new QAction(tr("&Welcome"), this);
    m_welcomeAction->setObjectName(QStringLiteral("welcomeAction"));
    m_welcomeAction->setStatusTip(
        tr("Where agents connect, client snippets, sample memories and import"));
    connect(m_welcomeAction, &QAction::triggered, this, [this]() { showPage(Page::Welcome); });

    m_aboutAction = new QAction(tr("&About Memory Graph"), this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::showAbout);

    m_pageActions = new QActionGroup(this);
    // None is checked while the Welcome page shows.
    m_pageActions->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
    const auto addPageAction = [this](const QString &text, int key, Page page) {
        auto *action = new QAction(text, m_pageActions);
        action->setShortcut(QKeySequence(Qt::CTRL | key));
        action->setCheckable(true);
        connect(action, &QAction::triggered, this, [this, action, page]() {
            action->setChecked(true); // triggering the checked one again must not uncheck it
            showPage(page);
        });
        m_pageActionList.append(action);
    };
    // In Page order.
    addPageAction(tr("&Server"), Qt::Key_1, Page::Server);
    addPageAction(tr("&Memory"), Qt::Key_2, Page::Memory);
    addPageAction(tr("&Recall"), Qt::Key_3, Page::Recall);
    addPageAction(tr("&Graph"), Qt::Key_4, Page::Graph);
    addPageAction(tr("R&ules"), Qt::Key_5, Page::Rules);
    addPageAction(tr("&Decisions"), Qt::Key_6, Page::Decisions);
    addPageAction(tr("Re&play"), Qt::Key_7, Page::Replay);
    addPageAction(tr("&Audit"), Qt::Key_8, Page::Audit);
    addPageAction(tr("Au&tomations"), Qt::Key_9, Page::Automations);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_loadSamplesAction);
    file->addSeparator();
    file->addAction(m_importAction);
    file->addAction(m_exportAction);
    file->addAction(m_backupActions->backUpAction());
    file->addAction(m_backupActions->restoreAction());
    file->addSeparator();
    file->addAction(m_quitAction);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_preferencesAction);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (QAction *action : std::as_const(m_pageActionList))
        view->addAction(action);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_welcomeAction);
    help->addSeparator();
    help->addAction(m_aboutAction);
}

void MainWindow::createStatusBar()
{
    m_serverStateLabel = new QLabel(m_serverPage->stateSummary(), this);
    m_serverStateLabel->setObjectName(QStringLiteral("serverStateStatus"));
    m_countsLabel = new QLabel(this);
    m_countsLabel->setObjectName(QStringLiteral("countsStatus"));
    auto *separator = new QFrame(this);
    separator->setFrameShape(QFrame::VLine);
    separator->setFrameShadow(QFrame::Sunken);
    statusBar()->addPermanentWidget(m_countsLabel);
    statusBar()->addPermanentWidget(separator);
    statusBar()->addPermanentWidget(m_serverStateLabel);
}

MainWindow::Page MainWindow::currentPage() const
{
    const int index = m_stack->currentIndex();
    return index >= int(Page::Server) && index <= int(Page::Welcome) ? Page(index) : Page::Server;
}

void MainWindow::showPage(Page page)
{
    m_openingPageUndecided = false;
    if (page != Page::Welcome) {
        m_sidebar->setCurrentRow(int(page));
        return;
    }
    updateWelcomeListener();
    m_stack->setCurrentWidget(m_welcomePage);
    m_sidebar->setCurrentRow(-1);
    if (QAction *checked = m_pageActions->checkedAction())
        checked->setChecked(false);
}

void MainWindow::setImportAction(QAction *action)
{
    m_welcomeImport = action;
    m_welcomePage->setImportAvailable(action != nullptr);
}

void MainWindow::connectWelcomePage()
{
    connect(m_welcomePage, &WelcomePage::loadSamplesRequested, this,
            &MainWindow::loadSampleMemories);
    connect(m_welcomePage, &WelcomePage::importRequested, this, [this]() {
        if (m_welcomeImport)
            m_welcomeImport->trigger();
    });
    connect(m_welcomePage, &WelcomePage::browseRequested, this,
            [this]() { showPage(Page::Memory); });
    connect(m_welcomePage, &WelcomePage::graphRequested, this, [this]() { showPage(Page::Graph); });
    connect(m_welcomePage, &WelcomePage::serverPageRequested, this,
            [this]() { showPage(Page::Server); });
    connect(m_serverPage, &ServerPage::agentAddressChanged, this,
            &MainWindow::updateWelcomeListener);
    updateWelcomeListener();
}

void MainWindow::updateWelcomeListener()
{
    const ServerPage::State state = m_serverPage->state();
    // Port 0 means "pick one at start": there is no address to give before that.
    const bool known = state == ServerPage::State::Running || m_serverPage->port() != 0;
    m_welcomePage->setListener(state, known ? m_serverPage->baseUrl() : QString(),
                               m_serverPage->stateDetail());
    m_welcomePage->setClientTarget(m_serverPage->mcpTarget());
}

void MainWindow::showNodeInGraph(const QString &tenantId, const QString &scope,
                                 const QString &nodeId)
{
    if (nodeId.isEmpty())
        return;
    m_graphPage->showNode(tenantId, scope, nodeId);
    showPage(Page::Graph);
}

void MainWindow::loadSampleMemories()
{
    if (m_loadingSamples)
        return;
    m_loadingSamples = true;
    m_loadSamplesAction->setEnabled(false);
    m_welcomePage->setLoadingSamples(true);
    statusBar()->showMessage(tr("Loading sample memories\u2026"));

    MemoryService *service = m_service;
    // Sample writes are changes: they run in order with the operator's other edits.
    m_executor.run(
        this, [service]() { return SampleLoader::run(service); },
        [this](const SampleLoadReport &report) { onSamplesLoaded(report); },
        UiExecutor::Lane::Changes);
}

void MainWindow::exportMemories()
{
    m_portability->exportInteractively(m_memoryPage->currentTenant(), m_memoryPage->currentScope());
}

void MainWindow::importMemories(const QString &path)
{
    m_portability->importInteractively(path);
}

void MainWindow::onSamplesLoaded(const SampleLoadReport &report)
{
    m_loadingSamples = false;
    m_loadSamplesAction->setEnabled(true);
    m_welcomePage->setLoadingSamples(false);

    QString summary = tr("Loaded %1 of %2 sample writes: %3 nodes, %4 edges.")
                          .arg(report.written)
                          .arg(report.entries)
                          .arg(report.nodes)
                          .arg(report.edges);
    if (report.written > 0 && report.replayed == report.written)
        summary += QLatin1Char(' ') + tr("They were already stored, so nothing changed.");
    statusBar()->showMessage(summary, report.ok() ? StatusMessageMs : 0);

    if (!report.ok()) {
        // Non-modal, so a test or a busy operator is never blocked by it.
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Sample memories"),
                                    tr("Some sample memories could not be written."),
                                    QMessageBox::Close, this);
        box->setInformativeText(summary);
        box->setDetailedText(report.errors.join(QLatin1Char('\n')));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }

    if (report.written > 0) {
        m_memoryPage->selectScope(m_service->config().defaultTenant, QStringLiteral("default"));
        m_memoryPage->refresh();
        m_recallPage->selectScope(m_service->config().defaultTenant, QStringLiteral("default"));
        m_graphPage->refresh();
        // From the Welcome page the operator stays there; its banner offers the pages.
        if (currentPage() != Page::Welcome)
            showPage(Page::Memory);
    }
    refreshCounts();
    Q_EMIT sampleMemoriesLoaded(report.ok(), summary);
}

void MainWindow::refreshCounts()
{
    m_countsTimer->stop();
    const quint64 generation = ++m_countsGeneration;
    MemoryService *service = m_service;
    m_executor.run(
        this, [service]() { return service->health(); },
        [this, generation](const HealthInfo &health) {
            if (generation != m_countsGeneration)
                return;
            m_welcomePage->setStoredNodes(health.nodes);
            if (m_openingPageUndecided) {
                m_openingPageUndecided = false;
                if (health.nodes == 0)
                    showPage(Page::Welcome);
            }
            const QString scopes
                = health.scopes == 1 ? tr("1 scope") : tr("%1 scopes").arg(health.scopes);
            m_countsLabel->setText(tr("%1 nodes \u00b7 %2 edges \u00b7 %3 commits in %4")
                                       .arg(health.nodes)
                                       .arg(health.edges)
                                       .arg(health.commits)
                                       .arg(scopes));
        });
}

void MainWindow::setClosePolicy(ClosePolicy *policy)
{
    m_closePolicy = policy;
    updatePreferencesAction();
}

void MainWindow::setAutoStart(AutoStart *autoStart)
{
    m_autoStart = autoStart;
    updatePreferencesAction();
}

void MainWindow::updatePreferencesAction()
{
    m_preferencesAction->setEnabled(m_autoStart && m_closePolicy);
}

void MainWindow::showPreferences()
{
    if (!m_autoStart || !m_closePolicy)
        return;
    if (auto *open = findChild<SettingsDialog *>(); open && open->isVisible()) {
        open->raise();
        open->activateWindow();
        return;
    }
    auto *dialog = new SettingsDialog(m_closePolicy, m_autoStart, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void MainWindow::bringToFront()
{
    setWindowState((windowState() & ~Qt::WindowMinimized) | Qt::WindowActive);
    show();
    raise();
    activateWindow();
}

void MainWindow::requestQuit()
{
    Q_EMIT quitRequested();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    // Quitting, or the session ending: a close must close, or it would cancel either.
    bool mustClose = m_quitting;
#ifndef QT_NO_SESSIONMANAGER
    if (const auto *gui = qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        mustClose = mustClose || gui->isSavingSession();
#endif
    if (!mustClose && m_closePolicy) {
        const ClosePolicy::Decision decision = m_closePolicy->decideOnClose();
        if (decision.keepServing) {
            event->ignore();
            hide();
            Q_EMIT keptServingInTray(decision.showNotice);
            return;
        }
    }
    QMainWindow::closeEvent(event);
    if (!m_quitting)
        Q_EMIT quitRequested();
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About Memory Graph"),
        tr("<h3>Memory Graph %1</h3>"
           "<p>An agent-memory graph service with a desktop console. Agents use the HTTP "
           "<code>/v1</code> API; operators browse the same graph here.</p>"
           "<p>Licensed under the GNU GPL, version 3 or later.</p>")
            .arg(QStringLiteral(MEMORYGRAPH_VERSION)));
}

} // namespace MemoryGraph::Ui
