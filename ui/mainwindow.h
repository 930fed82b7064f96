#pragma once

#include "ui/uiexecutor.h"

#include <QMainWindow>

class QAction;
class QActionGroup;
class QCloseEvent;
class QLabel;
class QListWidget;
class QStackedWidget;
class QTimer;

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

class AuditPage;
class AutoStart;
class AutomationsPage;
class BackupActions;
class ClosePolicy;
class DecisionsPage;
class GraphPage;
class MemoryPage;
class PortabilityFlow;
class RulesPage;
class RecallPage;
class ReplayPage;
class ServerPage;
class WelcomePage;
struct SampleLoadReport;

/// The shell: a sidebar switching between the Server, Memory, Recall, Graph, Rules, Decisions,
/// Replay, Audit and Automations pages, menus and a status bar. An empty store opens on the
/// Welcome page instead (Help > Welcome shows it later).
/// It only routes; the pages do the work. It owns the executor every page runs its facade calls
/// on, and on destruction drops the pages first, then waits for the calls still running. The
/// service must outlive the window.
///
/// It never ends the application itself: File → Quit, and a close that does not keep serving
/// from the tray (see ClosePolicy), emit quitRequested(); whoever owns the application quits.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// Sidebar order; Ctrl+1 .. Ctrl+9. Welcome is not in the sidebar.
    enum class Page {
        Server,
        Memory,
        Recall,
        Graph,
        Rules,
        Decisions,
        Replay,
        Audit,
        Automations,
        Welcome
    };

    explicit MainWindow(MemoryService *service, QWidget *parent = nullptr);
    ~MainWindow() override;

    ServerPage *serverPage() const { return m_serverPage; }
    MemoryPage *memoryPage() const { return m_memoryPage; }
    RecallPage *recallPage() const { return m_recallPage; }
    GraphPage *graphPage() const { return m_graphPage; }
    RulesPage *rulesPage() const { return m_rulesPage; }
    DecisionsPage *decisionsPage() const { return m_decisionsPage; }
    ReplayPage *replayPage() const { return m_replayPage; }
    AuditPage *auditPage() const { return m_auditPage; }
    AutomationsPage *automationsPage() const { return m_automationsPage; }
    WelcomePage *welcomePage() const { return m_welcomePage; }
    /// File → Back up… and File → Restore….
    BackupActions *backupActions() const { return m_backupActions; }
    Page currentPage() const;
    /// File → Export… and File → Import… (the welcome page's "Import…" triggers the latter).
    QAction *exportAction() const { return m_exportAction; }
    QAction *importAction() const { return m_importAction; }
    PortabilityFlow *portability() const { return m_portability; }

    /// What closing the window does; none (the default): a close is a quit. Not owned.
    void setClosePolicy(ClosePolicy *policy);
    /// The start-at-login entry Edit → Preferences switches; none: Preferences is disabled.
    /// Not owned.
    void setAutoStart(AutoStart *autoStart);
    /// The application is quitting: from now on a close closes, even with a tray.
    void setQuitting() { m_quitting = true; }
    /// What the Welcome page's Import button runs; the button is hidden while there is none.
    void setImportAction(QAction *action);

public Q_SLOTS:
    void showPage(MemoryGraph::Ui::MainWindow::Page page);
    /// Opens the Graph page centred on a node (the pages' "Show in graph").
    void showNodeInGraph(const QString &tenantId, const QString &scope, const QString &nodeId);
    /// Writes the bundled sample memories through the facade on a worker thread, then shows
    /// them on the Memory page. Progress and the outcome go to the status bar; failures also
    /// open a (non-modal) message box. Ignored while a load is running.
    void loadSampleMemories();
    /// Asks which scope and which file, then exports it behind a progress dialog.
    void exportMemories();
    /// Asks for an export file (unless given), checks it with a dry run and shows what the
    /// import would add and what conflicts before importing; the imported scope opens on the
    /// Memory page.
    void importMemories(const QString &path = QString());
    void showAbout();
    /// Edit → Preferences (non-modal; one at a time).
    void showPreferences();
    /// Shows the window (from the tray, a second start, or minimised), raised and focused.
    void bringToFront();
    /// File → Quit / Ctrl+Q, and the tray's Quit: a real quit, whatever the close policy.
    void requestQuit();

Q_SIGNALS:
    /// A sample load finished; `ok` is false when any entry failed.
    void sampleMemoriesLoaded(bool ok, const QString &summary);
    /// The operator asked to quit (File → Quit, the tray, or a close that does not keep serving).
    void quitRequested();
    /// A close hid the window and the service keeps serving; `firstTime` when the operator
    /// should be told so (once).
    void keptServingInTray(bool firstTime);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createMenus();
    QWidget *createSidebar();
    void createStatusBar();
    void onSamplesLoaded(const SampleLoadReport &report);
    void refreshCounts();
    void updatePreferencesAction();
    void connectWelcomePage();
    /// Tells the Welcome page where agents connect, as the Server page has it now.
    void updateWelcomeListener();

    MemoryService *m_service;
    UiExecutor m_executor;

    QListWidget *m_sidebar = nullptr;
    QStackedWidget *m_stack = nullptr;
    ServerPage *m_serverPage = nullptr;
    MemoryPage *m_memoryPage = nullptr;
    RecallPage *m_recallPage = nullptr;
    GraphPage *m_graphPage = nullptr;
    RulesPage *m_rulesPage = nullptr;
    DecisionsPage *m_decisionsPage = nullptr;
    ReplayPage *m_replayPage = nullptr;
    AuditPage *m_auditPage = nullptr;
    AutomationsPage *m_automationsPage = nullptr;
    WelcomePage *m_welcomePage = nullptr;

    BackupActions *m_backupActions = nullptr;
    QAction *m_loadSamplesAction = nullptr;
    QAction *m_welcomeAction = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_importAction = nullptr;
    QAction *m_welcomeImport = nullptr; ///< what the Welcome page's Import… runs
    PortabilityFlow *m_portability = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_preferencesAction = nullptr;
    QAction *m_aboutAction = nullptr;
    QActionGroup *m_pageActions = nullptr;
    QVector<QAction *> m_pageActionList; ///< indexed by Page

    QLabel *m_serverStateLabel = nullptr;
    QLabel *m_countsLabel = nullptr;
    QTimer *m_countsTimer = nullptr;
    quint64 m_countsGeneration = 0;
    bool m_loadingSamples = false;

    ClosePolicy *m_closePolicy = nullptr;
    AutoStart *m_autoStart = nullptr;
    bool m_quitting = false;
    /// The first store count decides between the Welcome page and the usual one, unless the
    /// operator has gone to a page by then.
    bool m_openingPageUndecided = false;
};

} // namespace MemoryGraph::Ui
