#pragma once

#include <QHash>
#include <QStringList>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

class UiExecutor;

/// "Try it": evaluates the scope's rules against a context typed by the operator and shows
/// what a tools/select call would do, without recording anything. It calls the read-only
/// evaluateRules (spec §4.7, shadow rules included) and then the pure Rules::applyToolPolicy on
/// the applied policy, the same function tools/select uses; selectTools is never called, so no
/// decision is persisted and no rule's "last matched" time moves. (The run control profile of
/// tools/select, which only concerns broad scan/test tools of resumed runs, is not applied.)
///
/// Results: the matched rules (active and shadow) with their rank, the applied policy, the
/// conflicts with winner and losers (conflict_explain and tool_explain.conflicts), and the
/// selection (allowed, denied with reason, preferred, ordered, selected), or the
/// no_tools_allowed error. The service must outlive the panel.
class RuleTryPanel : public QWidget
{
    Q_OBJECT
public:
    enum MatchColumn {
        MatchState,
        MatchRule,
        MatchScore,
        MatchPriority,
        MatchWeight,
        MatchEvidence,
        MatchSpecificity,
        MatchPaths,
        MatchColumnCount
    };
    enum ConflictColumn {
        ConflictWhat,
        ConflictWinner,
        ConflictLosers,
        ConflictReason,
        ConflictColumnCount
    };

    /// The service and the executor must outlive the panel.
    RuleTryPanel(MemoryService *service, UiExecutor *executor, QWidget *parent = nullptr);

    /// The (tenant, scope) whose rules are evaluated; clears the results.
    void setScope(const QString &tenantId, const QString &scope);

    QPlainTextEdit *contextEdit() const { return m_contextEdit; }
    QLineEdit *candidatesEdit() const { return m_candidatesEdit; }
    QCheckBox *strictCheck() const { return m_strictCheck; }
    QPushButton *runButton() const { return m_runButton; }
    QTableWidget *matchTable() const { return m_matchTable; }
    QTableWidget *conflictTable() const { return m_conflictTable; }
    QTabWidget *resultTabs() const { return m_tabs; }

    bool isRunning() const { return m_running; }
    /// Ids of the matched rules of the last run, active first (rank order), then shadow.
    QStringList matchedRuleIds() const { return m_matchedIds; }
    /// The tool the selection would pick; empty when none (or no candidates, or an error).
    QString selectedTool() const { return m_selected; }
    /// Code of the last run's error (no_tools_allowed, invalid_request, ...); empty otherwise.
    QString errorCode() const { return m_errorCode; }
    QString statusText() const;
    /// The selection tab as plain text (selected, allowed, denied with reasons, ...).
    QString selectionText() const;
    /// The applied policy JSON of the last run.
    QString policyText() const;

public Q_SLOTS:
    /// Evaluates the rules (asynchronously); finished() reports the outcome.
    void run();
    void setContextText(const QString &json);
    /// Comma-separated candidate tool names.
    void setCandidatesText(const QString &candidates);
    void setStrict(bool strict);
    void clearResults();

Q_SIGNALS:
    void finished(bool ok);
    /// The operator double-clicked a rule in the results (to open it in the editor).
    void ruleActivated(const QString &ruleId);

private:
    struct Outcome;

    QWidget *createInputs();
    QWidget *createResults();
    QWidget *createSelectionTab();
    void setRunning(bool running);
    void showOutcome(const Outcome &outcome);
    void showError(const QString &code, const QString &message);
    void fillMatches(const Outcome &outcome);
    void fillConflicts(const Outcome &outcome);
    void fillSelection(const Outcome &outcome);
    void setSelectionRow(int row, const QString &text, bool isError = false);
    QStringList candidates() const;
    QString ruleName(const QString &ruleId) const;

    MemoryService *m_service;
    UiExecutor *m_executor;
    quint64 m_generation = 0;
    bool m_running = false;
    QString m_tenant;
    QString m_scope;
    QStringList m_matchedIds;
    QString m_selected;
    QString m_errorCode;
    QHash<QString, QString> m_titles; ///< rule id -> title, from the last run's matches

    QPlainTextEdit *m_contextEdit = nullptr;
    QLabel *m_contextStatus = nullptr;
    QLineEdit *m_candidatesEdit = nullptr;
    QCheckBox *m_strictCheck = nullptr;
    QPushButton *m_runButton = nullptr;
    QLabel *m_statusLabel = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableWidget *m_matchTable = nullptr;
    QTableWidget *m_conflictTable = nullptr;
    QPlainTextEdit *m_policyEdit = nullptr;
    QVector<QLabel *> m_selectionValues;
    QVector<QLabel *> m_selectionNames;
};

} // namespace MemoryGraph::Ui
