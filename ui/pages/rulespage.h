#pragma once

#include "ui/pages/pageskeleton.h"

#include <QVector>

class QComboBox;
class QLabel;
class QLineEdit;
class QModelIndex;
class QPushButton;
class QTableView;

namespace MemoryGraph {
class MemoryService;
struct RuleSummary;
} // namespace MemoryGraph

namespace MemoryGraph::Ui {

class RuleEditor;
class RuleFilterModel;
class RuleTableModel;
class RuleTryPanel;

/// The rules of one (tenant, scope): a filterable table (state, rule scope, target, rank knobs,
/// feedback counts, last match), an editor that writes the rule through the write path and
/// moves it between SHADOW and ACTIVE (spec §2.6-2.8), and a "Try it" pane that previews what
/// the rules would do for a context without recording a decision (spec §4.7-4.8).
///
/// Each kind of call carries a generation number so an outdated answer never overwrites a newer
/// one. The service and the executor must outlive the page.
class RulesPage : public PageSkeleton
{
    Q_OBJECT
public:
    RulesPage(MemoryService *service, UiExecutor *executor, QWidget *parent = nullptr);

    /// Node id of the rule in the editor (empty for none or a new, unsaved rule).
    QString currentRuleId() const;

    RuleTableModel *ruleModel() const { return m_model; }
    RuleFilterModel *filterModel() const { return m_filter; }
    QTableView *ruleView() const { return m_view; }
    RuleEditor *editor() const { return m_editor; }
    RuleTryPanel *tryPanel() const { return m_tryPanel; }
    QComboBox *stateFilterCombo() const { return m_stateCombo; }
    QComboBox *ruleScopeFilterCombo() const { return m_ruleScopeCombo; }
    QLineEdit *filterEdit() const { return m_filterEdit; }

public Q_SLOTS:
    /// Switches to (tenant, scope), clears filters that would hide the rule, selects it and
    /// opens it in the editor (e.g. from a decision's source rule link).
    void showRule(const QString &tenantId, const QString &scope, const QString &ruleId);
    /// Selects a rule of the current scope (and opens it in the editor).
    void selectRule(const QString &ruleId);
    /// Starts a new, unsaved rule with a generated client_id.
    void newRule();
    /// Writes the editor's rule through the write path (a new commit).
    void saveRule();
    /// Moves the rule in the editor from SHADOW to ACTIVE or back (a draft or disabled rule to
    /// SHADOW).
    void toggleRuleState();
    /// "" = all, else "draft" / "shadow" / "active" / "disabled"; and "" = all, else "global" /
    /// "team" / "agent".
    void setStateFilter(const QString &state);
    void setRuleScopeFilter(const QString &ruleScope);
    void setTextFilter(const QString &text);

Q_SIGNALS:
    /// A rule list arrived (count = rules in the scope, before filtering).
    void rulesLoaded(int count);
    /// A save finished; ruleId is the written node on success.
    void ruleSaved(bool ok, const QString &ruleId);
    /// A state change finished; state is draft, shadow, active or disabled.
    void ruleStateChanged(bool ok, const QString &ruleId, const QString &state);

protected:
    void onScopeChanged() override;
    void onScopeReloaded() override;

private:
    QWidget *createFilterBar();
    QWidget *createRulesPanel();

    void loadRules();
    void applyRules(const QVector<RuleSummary> &rules);
    void onCurrentRowChanged(const QModelIndex &current, const QModelIndex &previous);
    void onStateRequested(const QString &ruleId, const QString &state);
    void showRuleInEditor(const QString &ruleId);
    bool confirmDiscard();
    void selectRow(const QString &ruleId);
    void updateCount();

    quint64 m_rulesGeneration = 0;
    quint64 m_actionGeneration = 0;
    int m_loadedCount = 0;
    bool m_restoringSelection = false;
    QString m_pendingRuleId; ///< select once the next rule list arrives
    QString m_wantedTenant;  ///< showRule() target scope, until the picker switches
    QString m_wantedScope;

    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_stateCombo = nullptr;
    QComboBox *m_ruleScopeCombo = nullptr;
    QPushButton *m_newButton = nullptr;

    RuleTableModel *m_model = nullptr;
    RuleFilterModel *m_filter = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_countLabel = nullptr;
    RuleEditor *m_editor = nullptr;
    RuleTryPanel *m_tryPanel = nullptr;
};

} // namespace MemoryGraph::Ui
