#pragma once

#include "service/api/replayviews.h"
#include "ui/pages/pageskeleton.h"

#include <QHash>

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QModelIndex;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTabWidget;
class QToolButton;

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

class DecisionDetail;
class PlaybookPanel;
class ReplayRunListModel;
class ReplayStepDetail;

/// Replay runs of one (tenant, scope) (spec §4.12, reference §7): the run list, and for the
/// chosen run its timeline of replay nodes, its steps with their latest outcome, the artifacts
/// and the tool decisions made under its run_id with their feedback. The operator steps through
/// the run (buttons, Alt+Left / Alt+Right, Home / End); the current step is highlighted in the
/// timeline and the steps table and detailed below. nodeRequested() and ruleRequested() ask the
/// window to open a replay node or a decision's source rule. Reloads itself when the service
/// commits or records a decision in the shown scope.
///
/// The service and the executor must outlive the page.
class ReplayPage : public PageSkeleton
{
    Q_OBJECT
public:
    /// The most runs listed at once (newest first).
    static constexpr int ListLimit = 200;

    ReplayPage(MemoryService *service, UiExecutor *executor, QWidget *parent = nullptr);

    /// Id of the run shown; empty when none.
    QString currentRunId() const { return m_view.run.runId; }
    /// Index into the shown run's steps; -1 when there is no step.
    int currentStep() const { return m_currentStep; }
    const ReplayRunView &runView() const { return m_view; }

    ReplayRunListModel *runModel() const { return m_runModel; }
    QSortFilterProxyModel *runProxy() const { return m_runProxy; }
    QTableView *runTable() const { return m_runTable; }
    QLineEdit *filterEdit() const { return m_filterEdit; }
    QListWidget *timelineList() const { return m_timeline; }
    QTableWidget *stepsTable() const { return m_steps; }
    QListWidget *artifactList() const { return m_artifacts; }
    QListWidget *decisionList() const { return m_decisions; }
    DecisionDetail *decisionDetail() const { return m_decisionDetail; }
    ReplayStepDetail *stepDetail() const { return m_stepDetail; }
    /// The playbooks tab (reference §7.4) and the button compiling the shown run into one.
    PlaybookPanel *playbookPanel() const { return m_playbooks; }
    QPushButton *compilePlaybookButton() const { return m_compileButton; }
    QTabWidget *detailTabs() const { return m_tabs; }

    /// Node ids of the timeline rows drawn as part of the current step.
    QStringList highlightedNodeIds() const;

public Q_SLOTS:
    /// Switches to (tenant, scope) and shows the run as soon as it is listed.
    void showRun(const QString &tenantId, const QString &scope, const QString &runId);
    void stepForward();
    void stepBack();
    void firstStep();
    void lastStep();
    /// Emits nodeRequested() for the timeline node under the cursor (else the current step's).
    void openSelectedNode();
    /// Compiles the shown (finished) run into a playbook and shows it in the Playbooks tab.
    void compilePlaybook();

Q_SIGNALS:
    void nodeRequested(const QString &tenantId, const QString &scope, const QString &nodeId);
    void ruleRequested(const QString &tenantId, const QString &scope, const QString &ruleNodeId);
    /// A run list arrived (count = rows in the model).
    void runsLoaded(int count);
    /// The run's view arrived and is shown.
    void runLoaded(const QString &runId);

protected:
    void onScopeChanged() override;
    /// Same scope: the run list and the shown run may have grown.
    void onScopeReloaded() override;

private:
    struct LoadedRun;

    QWidget *createTopBar();
    QWidget *createRunPanel();
    QWidget *createRunDetail();
    QHBoxLayout *createStepNavigation(QWidget *box);
    QWidget *createTimelineAndSteps(QWidget *box);
    void createDetailTabs(QWidget *box);
    void createStepActions();
    void loadRuns();
    void applyRuns(const QVector<ReplayRunSummary> &runs);
    void loadRun(const QString &runId);
    void applyRun(const LoadedRun &loaded);
    void clearRun(const QString &message);
    void fillTimeline();
    void fillSteps();
    void fillArtifacts();
    void fillDecisions();
    void setCurrentStep(int step);
    void showDecisionAt(int row);
    void onRunRowChanged(const QModelIndex &current);
    void updateRunCount();

    quint64 m_runsGeneration = 0;
    quint64 m_runGeneration = 0;
    quint64 m_feedbackGeneration = 0;
    bool m_restoring = false;
    QString m_selectedRunId; ///< chosen in the list (its view may still be loading)
    QString m_pendingRunId;  ///< to select when the list next arrives (showRun)
    ReplayRunView m_view;
    QHash<QString, QString> m_ruleTitles;
    int m_currentStep = -1;

    QLineEdit *m_filterEdit = nullptr;
    ReplayRunListModel *m_runModel = nullptr;
    QSortFilterProxyModel *m_runProxy = nullptr;
    QTableView *m_runTable = nullptr;
    QLabel *m_runCountLabel = nullptr;
    QLabel *m_runHeader = nullptr;
    QLabel *m_stepPosition = nullptr;
    QToolButton *m_firstButton = nullptr;
    QToolButton *m_backButton = nullptr;
    QToolButton *m_forwardButton = nullptr;
    QToolButton *m_lastButton = nullptr;
    QToolButton *m_openNodeButton = nullptr;
    QListWidget *m_timeline = nullptr;
    QTableWidget *m_steps = nullptr;
    QTabWidget *m_tabs = nullptr;
    ReplayStepDetail *m_stepDetail = nullptr;
    QListWidget *m_artifacts = nullptr;
    QListWidget *m_decisions = nullptr;
    DecisionDetail *m_decisionDetail = nullptr;
    QPushButton *m_compileButton = nullptr;
    PlaybookPanel *m_playbooks = nullptr;
};

} // namespace MemoryGraph::Ui
