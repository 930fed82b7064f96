#pragma once

#include "ui/uiexecutor.h"

#include <QMainWindow>

class QAction;
class QActionGroup;
class QLabel;
class QListWidget;
class QStackedWidget;
class QTimer;

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

class AuditPage;
class AutomationsPage;
class DecisionsPage;
class GraphPage;
class MemoryPage;
class PortabilityFlow;
class RulesPage;
class RecallPage;
class ReplayPage;
class ServerPage;
struct SampleLoadReport;

/// The shell: a sidebar switching between the Server, Memory, Recall, Graph, Rules, Decisions,
/// Replay, Audit and Automations pages, menus and a status bar.
/// It only routes; the pages do the work. It owns the executor every page runs its facade calls
/// on, and on destruction drops the pages first, then waits for the calls still running. The
/// service must outlive the window.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    /// Sidebar order; Ctrl+1 .. Ctrl+9.
    enum class Page { Server, Memory, Recall, Graph, Rules, Decisions, Replay, Audit, Automations };

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
    Page currentPage() const;
    /// File → Export… and File → Import… (the welcome page's "Import…" triggers the latter).
    QAction *exportAction() const { return m_exportAction; }
    QAction *importAction() const { return m_importAction; }
    PortabilityFlow *portability() const { return m_portability; }

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

Q_SIGNALS:
    /// A sample load finished; `ok` is false when any entry failed.
    void sampleMemoriesLoaded(bool ok, const QString &summary);

private:
    void createActions();
    void createMenus();
    QWidget *createSidebar();
    void createStatusBar();
    void onSamplesLoaded(const SampleLoadReport &report);
    void refreshCounts();

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

    QAction *m_loadSamplesAction = nullptr;
    QAction *m_exportAction = nullptr;
    QAction *m_importAction = nullptr;
    PortabilityFlow *m_portability = nullptr;
    QAction *m_quitAction = nullptr;
    QAction *m_aboutAction = nullptr;
    QActionGroup *m_pageActions = nullptr;
    QVector<QAction *> m_pageActionList; ///< indexed by Page

    QLabel *m_serverStateLabel = nullptr;
    QLabel *m_countsLabel = nullptr;
    QTimer *m_countsTimer = nullptr;
    quint64 m_countsGeneration = 0;
    bool m_loadingSamples = false;
};

} // namespace MemoryGraph::Ui
