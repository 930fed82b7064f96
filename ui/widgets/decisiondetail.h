#pragma once

#include "service/core/records.h"
#include "service/core/result.h"

#include <QHash>
#include <QVector>
#include <QWidget>

class QLabel;
class QTableWidget;

namespace MemoryGraph::Ui {

class MessageStack;

/// One persisted tool-selection decision (spec §2.10, §4.8): its candidates, what the policy
/// allowed and denied (with the reason), the preferred and final order, the selected tool, the
/// policy hash, the rules that shaped the policy (as links) and the feedback linked to it.
/// Read-only; the page loads the records.
class DecisionDetail : public QWidget
{
    Q_OBJECT
public:
    enum class Field {
        Selected,
        Time,
        Run,
        Candidates,
        Allowed,
        Preferred,
        Ordered,
        Fallback,
        PolicyHash,
        SourceRules,
        Conflicts,
        Count
    };
    enum DeniedColumn { DeniedTool, DeniedReason, DeniedColumnCount };
    enum FeedbackColumn {
        FeedbackOutcome,
        FeedbackRule,
        FeedbackNote,
        FeedbackTime,
        FeedbackColumnCount
    };

    explicit DecisionDetail(QWidget *parent = nullptr);

    /// Shows a decision; its feedback follows with setFeedback().
    void showDecision(const DecisionRecord &decision);
    /// The feedback rows linked to the shown decision (oldest first is fine; shown as given).
    void setFeedback(const QVector<FeedbackRecord> &feedback);
    /// Replaces the feedback table with a note (loading, or an error).
    void setFeedbackMessage(const QString &message);
    /// Says that the feedback could not be loaded, and why.
    void setFeedbackFailure(const Error &error);
    /// Replaces the content with a centred message (nothing selected, load error, ...).
    void showMessage(const QString &message);
    /// Titles of the scope's rules, so links and feedback rows can name them.
    void setRuleTitles(const QHash<QString, QString> &titles);

    bool hasDecision() const { return !m_decision.id.isEmpty(); }
    QString decisionId() const { return m_decision.id; }
    /// The text shown for a field (plain text; links are given by their rule names).
    QString fieldText(Field field) const;
    QString messageText() const;
    QTableWidget *deniedTable() const { return m_denied; }
    QTableWidget *feedbackTable() const { return m_feedback; }
    /// The label holding the source rule links ("rule:<id>" hrefs).
    QLabel *sourceRulesLabel() const { return m_values[int(Field::SourceRules)]; }

Q_SIGNALS:
    /// The operator clicked a source rule (or a feedback row's rule) to open it.
    void ruleRequested(const QString &ruleId);

private:
    QWidget *createDetailPane();
    void createHeadline(QWidget *pane);
    QWidget *createFieldGrid(QWidget *pane);
    void styleFieldValues();
    void createDeniedTable(QWidget *pane);
    void createFeedbackTable(QWidget *pane);
    void fillDenied();
    void fillFeedback();
    void renderSourceRules();
    void setField(Field field, const QString &text);
    QString ruleName(const QString &ruleId) const;

    DecisionRecord m_decision;
    QVector<FeedbackRecord> m_feedbackRows;
    QHash<QString, QString> m_titles;

    MessageStack *m_stack = nullptr;
    QLabel *m_titleLabel = nullptr;
    QLabel *m_idLabel = nullptr;
    QVector<QLabel *> m_names;
    QVector<QLabel *> m_values;
    QTableWidget *m_denied = nullptr;
    QLabel *m_deniedTitle = nullptr;
    QTableWidget *m_feedback = nullptr;
    QLabel *m_feedbackTitle = nullptr;
    QLabel *m_feedbackMessage = nullptr;
};

} // namespace MemoryGraph::Ui
