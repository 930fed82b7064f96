#pragma once

#include "ui/pages/pageskeleton.h"

#include <QJsonArray>
#include <QJsonObject>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;
class QTimer;

namespace MemoryGraph::Ui {

class AutomationGraphView;
class AutomationTelemetryChart;

/// Automations (spec §4.14, reference §8) in one (tenant, scope), all through the facade's
/// automation routes:
/// - Definitions: status and latest version; the selected definition's graph drawn (kinds,
///   edges, topological order, issues marked); create or edit it as JSON with live validation
///   (Save creates the next version); its version history with promote and shadow review, and
///   the review gate promotion to active waits for.
/// - Runs: filtered by state, automation, reviewer and "needs action" (inbox order: what an
///   operator must do first); the selected run's node timeline (state, outcome, attempts,
///   timings, errors) and its actions: cancel, resume (approve), approve or reject a repair,
///   assign a reviewer, record a compensation action.
/// - Telemetry: success rate, pause rate and p95 duration over the window, with the SLO lines.
/// The lists follow the service: a commit in the shown scope reloads them.
class AutomationsPage : public PageSkeleton
{
    Q_OBJECT
public:
    enum Tab { DefinitionsTab, RunsTab, TelemetryTab };

    AutomationsPage(MemoryService *service, UiExecutor *executor, QWidget *parent = nullptr);

    QTabWidget *tabs() const { return m_tabs; }
    QTableWidget *definitionsTable() const { return m_definitions; }
    QPlainTextEdit *definitionEditor() const { return m_editor; }
    QLabel *validationLabel() const { return m_validation; }
    AutomationGraphView *graphView() const { return m_graph; }
    QPushButton *saveButton() const { return m_saveButton; }
    QPushButton *runButton() const { return m_runButton; }
    QPushButton *shadowRunButton() const { return m_shadowRunButton; }
    QTableWidget *versionsTable() const { return m_versions; }
    QComboBox *promoteTargetCombo() const { return m_promoteTarget; }
    QPushButton *promoteButton() const { return m_promoteButton; }
    QComboBox *reviewVerdictCombo() const { return m_reviewVerdict; }
    QPushButton *reviewButton() const { return m_reviewButton; }
    QLabel *reviewGateLabel() const { return m_reviewGate; }

    QTableWidget *runsTable() const { return m_runs; }
    QTableWidget *nodesTable() const { return m_nodes; }
    QLabel *runSummaryLabel() const { return m_runSummary; }
    AutomationGraphView *runGraphView() const { return m_runGraph; }
    QComboBox *stateFilter() const { return m_stateFilter; }
    QLineEdit *automationFilter() const { return m_automationFilter; }
    QLineEdit *reviewerFilter() const { return m_reviewerFilter; }
    QCheckBox *needsActionCheck() const { return m_needsAction; }
    QPushButton *cancelButton() const { return m_cancelButton; }
    QPushButton *resumeButton() const { return m_resumeButton; }
    QPushButton *approveRepairButton() const { return m_approveRepairButton; }
    QPushButton *rejectRepairButton() const { return m_rejectRepairButton; }
    QLineEdit *reviewerEdit() const { return m_reviewerEdit; }
    QPushButton *assignReviewerButton() const { return m_assignReviewerButton; }
    QComboBox *compensationActionCombo() const { return m_actionCombo; }
    QPushButton *recordActionButton() const { return m_recordActionButton; }

    QComboBox *windowCombo() const { return m_windowCombo; }
    QLabel *telemetrySummary() const { return m_telemetrySummary; }
    AutomationTelemetryChart *telemetryChart() const { return m_chart; }

    QString currentAutomationId() const { return m_automationId; }
    QString currentRunId() const { return m_runId; }
    /// The selected run's status_summary ("paused_for_approval", "succeeded", ...).
    QString currentRunStatus() const
    {
        return m_run.value(QStringLiteral("status_summary")).toString();
    }

public Q_SLOTS:
    void selectAutomation(const QString &automationId);
    void selectRun(const QString &runId);
    /// Validates the editor's JSON now (it also does so shortly after each edit).
    void validateEditor();

Q_SIGNALS:
    void definitionsLoaded(int count);
    void definitionLoaded(const QString &automationId);
    void runsLoaded(int count);
    void runLoaded(const QString &runId, const QString &statusSummary);
    void validated(bool valid);
    void telemetryLoaded();
    /// An operator action (route path) finished.
    void actionFinished(const QString &path, bool ok, const QString &message);

protected:
    void onScopeChanged() override;
    void onScopeReloaded() override;

private:
    QWidget *createDefinitionsTab();
    QWidget *createRunsTab();
    QWidget *createTelemetryTab();

    /// tenant_id and scope of the page (the service defaults while the store has none).
    QJsonObject scoped(QJsonObject body) const;
    /// Runs an operator action (route, body) on the changes lane; done(result) afterwards.
    void act(const QString &path, const QJsonObject &body,
             const std::function<void(const QJsonObject &)> &done = {});

    void loadDefinitions();
    void loadDefinition();
    void loadRuns();
    void loadRun();
    void loadTelemetry();
    void showDefinition(const QJsonObject &got);
    void showRun(const QJsonObject &detail, const QJsonObject &graph);
    void updateRunActions();

    QString m_shownTenant; ///< the scope the lists show; empty before the store has one
    QString m_shownScope;
    QString m_automationId;
    QString m_runId;
    QJsonObject m_run;
    quint64 m_definitionsGeneration = 0;
    quint64 m_definitionGeneration = 0;
    quint64 m_validationGeneration = 0;
    quint64 m_runsGeneration = 0;
    quint64 m_runGeneration = 0;
    quint64 m_telemetryGeneration = 0;

    QTabWidget *m_tabs = nullptr;
    QTableWidget *m_definitions = nullptr;
    QPlainTextEdit *m_editor = nullptr;
    QTimer *m_validateTimer = nullptr;
    QLabel *m_validation = nullptr;
    AutomationGraphView *m_graph = nullptr;
    QPushButton *m_newButton = nullptr;
    QPushButton *m_saveButton = nullptr;
    QPushButton *m_runButton = nullptr;
    QPushButton *m_shadowRunButton = nullptr;
    QTableWidget *m_versions = nullptr;
    QComboBox *m_promoteTarget = nullptr;
    QPushButton *m_promoteButton = nullptr;
    QComboBox *m_reviewVerdict = nullptr;
    QPushButton *m_reviewButton = nullptr;
    QLabel *m_reviewGate = nullptr;

    QTableWidget *m_runs = nullptr;
    QTableWidget *m_nodes = nullptr;
    QLabel *m_runSummary = nullptr;
    AutomationGraphView *m_runGraph = nullptr;
    QComboBox *m_stateFilter = nullptr;
    QLineEdit *m_automationFilter = nullptr;
    QLineEdit *m_reviewerFilter = nullptr;
    QCheckBox *m_needsAction = nullptr;
    QTimer *m_runFilterTimer = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QPushButton *m_resumeButton = nullptr;
    QPushButton *m_approveRepairButton = nullptr;
    QPushButton *m_rejectRepairButton = nullptr;
    QLineEdit *m_reviewerEdit = nullptr;
    QPushButton *m_assignReviewerButton = nullptr;
    QComboBox *m_actionCombo = nullptr;
    QPushButton *m_recordActionButton = nullptr;

    QComboBox *m_windowCombo = nullptr;
    QLabel *m_telemetrySummary = nullptr;
    AutomationTelemetryChart *m_chart = nullptr;
};

} // namespace MemoryGraph::Ui
