#pragma once

#include "service/memoryservice.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace MemoryGraph::Ui {

class MessageStack;

class JsonHighlighter;

/// Edits one rule node: title, summary, rule scope and target, priority and weight, lane and
/// owner, and the if / then / exceptions JSON (spec §2.7, §2.8; reference §1, §2.2). The JSON
/// is highlighted and validated as it is typed with the service's own pure validators; any
/// error (a parse error with its line and column, or the offending path) is shown under its
/// editor and disables Save.
///
/// The editor never talks to the service: Save and a state change are requests the page
/// carries out. nodeJson() is the node object of a /v1/memory/write body; it starts from the
/// stored node so that slots and fields the editor does not show are kept.
class RuleEditor : public QWidget
{
    Q_OBJECT
public:
    enum class Section { If, Then, Exceptions, Form };

    explicit RuleEditor(QWidget *parent = nullptr);

    /// Loads a stored rule; the editor is clean afterwards.
    void setRule(const RuleSummary &rule);
    /// Starts an unsaved rule with this client_id and a template definition.
    void startNewRule(const QString &clientId);
    /// Shows `message` instead of the form.
    void clearRule(const QString &message);

    bool hasRule() const { return m_hasRule; }
    bool isNewRule() const { return m_isNew; }
    /// Differs from what was loaded (a new rule is always dirty).
    bool isDirty() const;
    /// No section has a validation error.
    bool isValid() const;
    /// Node id of the loaded rule; empty for a new rule.
    QString ruleId() const { return m_rule.node.id; }
    QString clientId() const { return m_clientId; }
    /// draft, shadow, active or disabled for a stored rule; empty for a new one.
    QString ruleState() const { return m_isNew ? QString() : m_rule.status.state; }
    /// The first error of a section, naming its path; empty when the section is valid.
    QString validationMessage(Section section) const;
    /// The node object for a write body (meaningful only while isValid()).
    QJsonObject nodeJson() const;

    QLineEdit *titleEdit() const { return m_titleEdit; }
    QLineEdit *summaryEdit() const { return m_summaryEdit; }
    QComboBox *ruleScopeCombo() const { return m_scopeCombo; }
    QLineEdit *targetEdit() const { return m_targetEdit; }
    QSpinBox *prioritySpin() const { return m_prioritySpin; }
    QDoubleSpinBox *weightSpin() const { return m_weightSpin; }
    QComboBox *laneCombo() const { return m_laneCombo; }
    QLineEdit *ownerAgentEdit() const { return m_ownerAgentEdit; }
    QLineEdit *ownerTeamEdit() const { return m_ownerTeamEdit; }
    QPlainTextEdit *ifEdit() const { return m_sections[0].edit; }
    QPlainTextEdit *thenEdit() const { return m_sections[1].edit; }
    QPlainTextEdit *exceptionsEdit() const { return m_sections[2].edit; }
    QPushButton *saveButton() const { return m_saveButton; }
    /// The state the state button moves the rule to (all four states; the current one is
    /// disabled). It starts at the usual next step: ACTIVE from SHADOW, SHADOW from the others.
    QComboBox *targetStateCombo() const { return m_targetStateCombo; }
    QPushButton *stateButton() const { return m_stateButton; }
    QPushButton *revertButton() const { return m_revertButton; }
    QString statusText() const;

public Q_SLOTS:
    /// Back to the loaded rule (or the template of a new one).
    void revert();
    /// While a save or state change runs the buttons are disabled.
    void setBusy(bool busy);
    /// A line under the editors for the outcome of a save or state change.
    void setStatusMessage(const QString &text, bool isError);

Q_SIGNALS:
    /// The operator pressed Save (or Ctrl+S) with a valid, changed rule.
    void saveRequested();
    /// The operator asked to move the stored rule to draft, shadow, active or disabled.
    void stateChangeRequested(const QString &ruleId, const QString &state);
    void dirtyChanged(bool dirty);

private:
    struct JsonSection
    {
        QPlainTextEdit *edit = nullptr;
        QLabel *status = nullptr;
        JsonHighlighter *highlighter = nullptr;
        QString error;          ///< empty = valid
        int errorPosition = -1; ///< character of a parse error, for the marker
        QJsonValue value;       ///< parsed value when valid
    };

    QHBoxLayout *createHeader(QWidget *content);
    QWidget *createJsonEditors(QWidget *content);
    QHBoxLayout *createFooter(QWidget *content);
    QWidget *createForm();
    void createIdentityFields(QWidget *form);
    void createRankFields(QWidget *form);
    void createVisibilityFields(QWidget *form);
    void layoutForm(QWidget *form);
    QWidget *createJsonSection(int index, const QString &label, const QString &tip);
    void load(const NodeRecord &node);
    void onEdited();
    void validate();
    void validateJson(int index);
    QString formError() const;
    void updateSectionStatus(int index);
    void updateButtons();
    void updateTargetField();
    void updateHeader();
    void updateTargetStates();
    QJsonObject snapshot() const;

    RuleSummary m_rule; ///< the stored rule (node empty for a new one)
    QString m_clientId;
    bool m_hasRule = false;
    bool m_isNew = false;
    bool m_busy = false;
    bool m_loading = false;
    bool m_lastDirty = false;
    QJsonObject m_clean; ///< snapshot() right after loading
    QString m_formError;

    MessageStack *m_stack = nullptr;
    QLabel *m_headerLabel = nullptr;
    QLabel *m_stateBadge = nullptr;
    QLabel *m_idLabel = nullptr;
    QLineEdit *m_titleEdit = nullptr;
    QLineEdit *m_summaryEdit = nullptr;
    QComboBox *m_scopeCombo = nullptr;
    QLineEdit *m_targetEdit = nullptr;
    QLabel *m_targetLabel = nullptr;
    QSpinBox *m_prioritySpin = nullptr;
    QDoubleSpinBox *m_weightSpin = nullptr;
    QComboBox *m_laneCombo = nullptr;
    QLineEdit *m_ownerAgentEdit = nullptr;
    QLineEdit *m_ownerTeamEdit = nullptr;
    QLabel *m_formStatus = nullptr;
    JsonSection m_sections[3];
    QLabel *m_statusLabel = nullptr;
    QPushButton *m_saveButton = nullptr;
    QComboBox *m_targetStateCombo = nullptr;
    QPushButton *m_stateButton = nullptr;
    QPushButton *m_revertButton = nullptr;
};

/// Indented JSON text of any value (objects and arrays indented, scalars as JSON literals);
/// "{}" for undefined.
QString ruleJsonText(const QJsonValue &value);

/// Parses `text` as JSON. On failure returns false and fills `message` with
/// "line L, column C: reason" and `position` with the character offset of the error.
bool parseRuleJson(const QString &text, QJsonValue *value, QString *message, int *position);

} // namespace MemoryGraph::Ui
