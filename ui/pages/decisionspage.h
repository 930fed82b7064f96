#pragma once

#include "ui/pages/pageskeleton.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QModelIndex;
class QTableView;
class QTimer;

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

class DecisionDetail;
class DecisionTableModel;

/// Replays tool selections: the decisions persisted by tools/select (and feedback) in one
/// (tenant, scope), newest first, filtered by run id, selected tool and age, and the chosen
/// decision's detail with the feedback linked to it (spec §2.10, §4.8-4.11). Source rules are
/// links: ruleRequested() asks the window to open one on the Rules page. The list refreshes
/// itself when the service records a decision in the shown scope.
///
/// Each kind of load carries a generation number so an outdated answer never overwrites a
/// newer one. The service and the executor must outlive the page.
class DecisionsPage : public PageSkeleton
{
    Q_OBJECT
public:
    enum class Since { LastHour, LastDay, LastWeek, All };
    Q_ENUM(Since)

    /// The most decisions listed at once (newest first).
    static constexpr int ListLimit = 500;

    DecisionsPage(MemoryService *service, UiExecutor *executor, QWidget *parent = nullptr);

    /// Id of the decision in the detail pane; empty when none.
    QString currentDecisionId() const;

    DecisionTableModel *decisionModel() const { return m_model; }
    QTableView *decisionView() const { return m_view; }
    DecisionDetail *detail() const { return m_detail; }
    QLineEdit *runFilterEdit() const { return m_runEdit; }
    QLineEdit *toolFilterEdit() const { return m_toolEdit; }
    QComboBox *sinceCombo() const { return m_sinceCombo; }

public Q_SLOTS:
    /// Selects a listed decision and shows its detail.
    void selectDecision(const QString &decisionId);
    /// Exact run id; empty = any run.
    void setRunFilter(const QString &runId);
    /// Exact selected tool; empty = any tool.
    void setToolFilter(const QString &tool);
    void setSince(MemoryGraph::Ui::DecisionsPage::Since since);

Q_SIGNALS:
    /// A decision list arrived (count = rows shown).
    void decisionsLoaded(int count);
    /// The operator clicked a source rule of a decision; connect to RulesPage::showRule.
    void ruleRequested(const QString &tenantId, const QString &scope, const QString &ruleId);

protected:
    void onScopeChanged() override;
    void onScopeReloaded() override;

private:
    struct Loaded;

    QWidget *createFilterBar();
    QWidget *createListPanel();
    void loadDecisions();
    void applyLoaded(const Loaded &loaded);
    void loadFeedback(const QString &decisionId);
    void onCurrentRowChanged(const QModelIndex &current);
    void showDecisionAt(int row);
    void updateCount();

    quint64 m_listGeneration = 0;
    quint64 m_feedbackGeneration = 0;
    bool m_restoringSelection = false;
    QString m_selectedId;

    QLineEdit *m_runEdit = nullptr;
    QLineEdit *m_toolEdit = nullptr;
    QComboBox *m_sinceCombo = nullptr;
    QTimer *m_filterTimer = nullptr;

    DecisionTableModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_countLabel = nullptr;
    DecisionDetail *m_detail = nullptr;
};

} // namespace MemoryGraph::Ui
