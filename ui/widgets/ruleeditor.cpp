#include "ui/widgets/ruleeditor.h"

#include "service/rules/conditionmatcher.h"
#include "service/rules/policypatch.h"
#include "service/rules/ruledefinition.h"
#include "service/rules/rulerank.h"
#include "ui/widgets/jsonhighlighter.h"
#include "ui/widgets/messagestack.h"
#include "ui/widgets/statustext.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTextBlock>
#include <QVBoxLayout>

#include <cmath>

namespace MemoryGraph::Ui {

namespace {

enum SectionIndex { IfSection, ThenSection, ExceptionsSection, SectionCount };

const QString OkColour = QStringLiteral("#3d9a50");

const char *const NewIfTemplate = "{}";
const char *const NewThenTemplate = "{\n    \"tool\": {\n        \"prefer\": []\n    }\n}";
const char *const NewExceptionsTemplate = "[]";

QString s(const char *latin1)
{
    return QString::fromLatin1(latin1);
}

void setStatus(QLabel *label, const QString &text, bool isError)
{
    label->setText(text);
    label->setStyleSheet(QStringLiteral("color: %1;").arg(isError ? errorColour() : OkColour));
}

/// "then" + "tool.allow[2]" -> "then.tool.allow[2]".
QString joinPath(const QString &root, const QString &inner)
{
    if (inner.isEmpty())
        return root;
    if (root.isEmpty())
        return inner;
    return inner.startsWith(u'[') ? root + inner : root + u'.' + inner;
}

QString issueText(const Error &error, const QString &root)
{
    const QJsonObject issue
        = error.details.value(QStringLiteral("issues")).toArray().first().toObject();
    if (issue.isEmpty())
        return error.message;
    return QStringLiteral("%1: %2").arg(
        joinPath(root, issue.value(QStringLiteral("path")).toString()),
        issue.value(QStringLiteral("message")).toString());
}

} // namespace

QString ruleJsonText(const QJsonValue &value)
{
    if (value.isUndefined())
        return QStringLiteral("{}");
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Indented))
            .trimmed();
    if (value.isArray()) {
        const QJsonArray array = value.toArray();
        if (array.isEmpty())
            return QStringLiteral("[]");
        return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Indented)).trimmed();
    }
    // A scalar: the compact text of a one-element array, without the brackets.
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

bool parseRuleJson(const QString &text, QJsonValue *value, QString *message, int *position)
{
    const QByteArray utf8 = text.toUtf8();
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(utf8, &error);
    if (error.error == QJsonParseError::NoError) {
        *value = doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
        *position = -1;
        return true;
    }
    // Qt reports the offset after the token it rejected and the blanks behind it; step back
    // onto that token so the line and column point at what is wrong.
    QString before = QString::fromUtf8(utf8.left(qBound(0, error.offset, int(utf8.size()))));
    while (!before.isEmpty() && before.back().isSpace())
        before.chop(1);
    if (!before.isEmpty())
        before.chop(1);
    const int line = int(before.count(u'\n')) + 1;
    const int column = int(before.size() - (before.lastIndexOf(u'\n') + 1)) + 1;
    *position = int(before.size());
    *message
        = RuleEditor::tr("line %1, column %2: %3").arg(line).arg(column).arg(error.errorString());
    return false;
}

RuleEditor::RuleEditor(QWidget *parent) : QWidget(parent)
{
    auto *content = new QWidget(this);
    QHBoxLayout *headerRow = createHeader(content);
    // Before the JSON editors: the focus chain follows creation order.
    QWidget *form = createForm();
    QWidget *editors = createJsonEditors(content);
    QHBoxLayout *buttons = createFooter(content);

    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addLayout(headerRow);
    layout->addWidget(m_idLabel);
    layout->addWidget(form);
    layout->addWidget(editors, 1);
    layout->addWidget(m_statusLabel);
    layout->addLayout(buttons);

    m_stack = MessageStack::fill(this, content, QStringLiteral("ruleEditorMessage"));

    clearRule(tr("Select a rule to edit it, or create a new one."));
}

/// The rule's title with its state badge; the id label goes underneath.
QHBoxLayout *RuleEditor::createHeader(QWidget *content)
{
    m_headerLabel = new QLabel(content);
    m_headerLabel->setObjectName(QStringLiteral("ruleEditorHeader"));
    m_headerLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont headerFont = m_headerLabel->font();
    headerFont.setBold(true);
    headerFont.setPointSizeF(headerFont.pointSizeF() * 1.15);
    m_headerLabel->setFont(headerFont);
    m_headerLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    m_stateBadge = new QLabel(content);
    m_stateBadge->setObjectName(QStringLiteral("ruleStateBadge"));

    m_idLabel = new QLabel(content);
    m_idLabel->setObjectName(QStringLiteral("ruleIdLabel"));
    m_idLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_idLabel->setForegroundRole(QPalette::PlaceholderText);
    m_idLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto *headerRow = new QHBoxLayout;
    headerRow->setContentsMargins(0, 0, 0, 0);
    headerRow->addWidget(m_headerLabel, 1);
    headerRow->addWidget(m_stateBadge);
    return headerRow;
}

/// The three JSON editors (if, then, exceptions), stacked in a splitter.
QWidget *RuleEditor::createJsonEditors(QWidget *content)
{
    auto *editors = new QSplitter(Qt::Vertical, content);
    editors->setObjectName(QStringLiteral("ruleJsonSplitter"));
    editors->setChildrenCollapsible(false);
    editors->addWidget(
        createJsonSection(IfSection, tr("&If (condition)"),
                          tr("A condition on the context, e.g. {\"intent\": \"deploy\", "
                             "\"agent.id\": {\"$in\": [\"a1\"]}}. Empty or {} matches "
                             "every context.")));
    editors->addWidget(createJsonSection(ThenSection, tr("Th&en (policy patch)"),
                                         tr("The PolicyPatch: {\"tool\": {\"allow\", \"deny\", "
                                            "\"prefer\"}, \"output\": {\"format\", \"strict\"}, "
                                            "\"extensions\": {...}}.")));
    editors->addWidget(createJsonSection(ExceptionsSection, tr("Exce&ptions"),
                                         tr("An array of conditions; the rule does not apply when "
                                            "any of them matches.")));
    editors->setStretchFactor(0, 3);
    editors->setStretchFactor(1, 4);
    editors->setStretchFactor(2, 2);
    return editors;
}

/// The status line and the revert / state / save buttons (Ctrl+S saves too).
QHBoxLayout *RuleEditor::createFooter(QWidget *content)
{
    m_statusLabel = new QLabel(content);
    m_statusLabel->setObjectName(QStringLiteral("ruleEditorStatus"));
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_statusLabel->hide();

    m_revertButton = new QPushButton(tr("Re&vert"), content);
    m_revertButton->setObjectName(QStringLiteral("revertRuleButton"));
    m_revertButton->setToolTip(tr("Discard the changes and show the stored rule again"));
    connect(m_revertButton, &QPushButton::clicked, this, &RuleEditor::revert);

    m_targetStateCombo = new QComboBox(content);
    m_targetStateCombo->setObjectName(QStringLiteral("ruleTargetStateCombo"));
    m_targetStateCombo->setToolTip(tr("The state to move the rule to; only SHADOW and ACTIVE "
                                      "rules are evaluated"));
    for (const auto &[state, label] :
         {std::pair{"draft", QT_TR_NOOP("DRAFT")}, std::pair{"shadow", QT_TR_NOOP("SHADOW")},
          std::pair{"active", QT_TR_NOOP("ACTIVE")}, std::pair{"disabled", QT_TR_NOOP("DISABLED")}})
        m_targetStateCombo->addItem(tr(label), QString::fromLatin1(state));
    connect(m_targetStateCombo, &QComboBox::currentIndexChanged, this,
            [this]() { updateButtons(); });
    auto *stateLabel = new QLabel(tr("Lifec&ycle state:"), content);
    stateLabel->setBuddy(m_targetStateCombo);

    m_stateButton = new QPushButton(content);
    m_stateButton->setObjectName(QStringLiteral("ruleStateButton"));
    connect(m_stateButton, &QPushButton::clicked, this, [this]() {
        const QString target = m_targetStateCombo->currentData().toString();
        if (!m_hasRule || m_isNew || isDirty() || m_busy || target == m_rule.status.state)
            return;
        Q_EMIT stateChangeRequested(m_rule.node.id, target);
    });

    auto *saveAction = new QAction(tr("Save rule"), this);
    saveAction->setShortcut(QKeySequence::Save);
    saveAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(saveAction);
    m_saveButton = new QPushButton(tr("Save"), content);
    m_saveButton->setObjectName(QStringLiteral("saveRuleButton"));
    m_saveButton->setDefault(false);
    auto requestSave = [this]() {
        if (m_hasRule && !m_busy && isValid() && isDirty())
            Q_EMIT saveRequested();
    };
    connect(m_saveButton, &QPushButton::clicked, this, requestSave);
    connect(saveAction, &QAction::triggered, this, requestSave);

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_revertButton);
    buttons->addStretch(1);
    buttons->addWidget(stateLabel);
    buttons->addWidget(m_targetStateCombo);
    buttons->addWidget(m_stateButton);
    buttons->addWidget(m_saveButton);
    return buttons;
}

QWidget *RuleEditor::createForm()
{
    auto *form = new QWidget(this);
    createIdentityFields(form);
    createRankFields(form);
    createVisibilityFields(form);

    m_formStatus = new QLabel(form);
    m_formStatus->setObjectName(QStringLiteral("ruleFormStatus"));
    m_formStatus->setWordWrap(true);
    m_formStatus->hide();

    layoutForm(form);
    for (QLineEdit *edit :
         {m_titleEdit, m_summaryEdit, m_targetEdit, m_ownerAgentEdit, m_ownerTeamEdit})
        connect(edit, &QLineEdit::textChanged, this, &RuleEditor::onEdited);
    for (QComboBox *combo : {m_scopeCombo, m_laneCombo})
        connect(combo, &QComboBox::currentIndexChanged, this, &RuleEditor::onEdited);
    connect(m_prioritySpin, &QSpinBox::valueChanged, this, &RuleEditor::onEdited);
    connect(m_weightSpin, &QDoubleSpinBox::valueChanged, this, &RuleEditor::onEdited);
    return form;
}

/// Title, summary and who the rule applies to (scope and target).
void RuleEditor::createIdentityFields(QWidget *form)
{
    m_titleEdit = new QLineEdit(form);
    m_titleEdit->setObjectName(QStringLiteral("ruleTitleEdit"));
    m_titleEdit->setPlaceholderText(tr("Short name shown in the rules table"));
    m_summaryEdit = new QLineEdit(form);
    m_summaryEdit->setObjectName(QStringLiteral("ruleSummaryEdit"));
    m_summaryEdit->setPlaceholderText(tr("What the rule does and why (text_summary)"));

    m_scopeCombo = new QComboBox(form);
    m_scopeCombo->setObjectName(QStringLiteral("ruleScopeCombo"));
    m_scopeCombo->addItem(tr("global (every agent)"), QStringLiteral("global"));
    m_scopeCombo->addItem(tr("team"), QStringLiteral("team"));
    m_scopeCombo->addItem(tr("agent"), QStringLiteral("agent"));
    m_scopeCombo->setToolTip(tr("rule_scope: a team or agent rule only applies when the context "
                                "names that team or agent"));

    m_targetEdit = new QLineEdit(form);
    m_targetEdit->setObjectName(QStringLiteral("ruleTargetEdit"));
}

/// Priority and weight: the parts of the rank an author sets.
void RuleEditor::createRankFields(QWidget *form)
{
    m_prioritySpin = new QSpinBox(form);
    m_prioritySpin->setObjectName(QStringLiteral("rulePrioritySpin"));
    m_prioritySpin->setRange(-100, 100);
    m_prioritySpin->setToolTip(tr("rule_meta.priority (-100..100): the strongest part of the rank "
                                  "(priority \u00d7 1000)"));

    m_weightSpin = new QDoubleSpinBox(form);
    m_weightSpin->setObjectName(QStringLiteral("ruleWeightSpin"));
    m_weightSpin->setRange(0.0, 2.0);
    m_weightSpin->setDecimals(2);
    m_weightSpin->setSingleStep(0.1);
    m_weightSpin->setToolTip(
        tr("rule_meta.weight (0..2): scales the feedback evidence in the rank"));
}

/// Memory lane and owners: who may see the rule.
void RuleEditor::createVisibilityFields(QWidget *form)
{
    m_laneCombo = new QComboBox(form);
    m_laneCombo->setObjectName(QStringLiteral("ruleLaneCombo"));
    m_laneCombo->addItem(tr("shared"), QStringLiteral("shared"));
    m_laneCombo->addItem(tr("private"), QStringLiteral("private"));
    m_laneCombo->setToolTip(tr("memory_lane: a private rule is only visible to its owner agent "
                               "or team"));

    m_ownerAgentEdit = new QLineEdit(form);
    m_ownerAgentEdit->setObjectName(QStringLiteral("ruleOwnerAgentEdit"));
    m_ownerAgentEdit->setPlaceholderText(tr("owner_agent_id"));
    m_ownerTeamEdit = new QLineEdit(form);
    m_ownerTeamEdit->setObjectName(QStringLiteral("ruleOwnerTeamEdit"));
    m_ownerTeamEdit->setPlaceholderText(tr("owner_team_id"));
}

/// Labels with their buddies, two label/field pairs to a row.
void RuleEditor::layoutForm(QWidget *form)
{
    auto label = [form](const QString &text, QWidget *buddy) {
        auto *l = new QLabel(text, form);
        l->setBuddy(buddy);
        return l;
    };
    m_targetLabel = label(tr("Tar&get:"), m_targetEdit);

    auto *grid = new QGridLayout(form);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(4);
    grid->addWidget(label(tr("&Title:"), m_titleEdit), 0, 0);
    grid->addWidget(m_titleEdit, 0, 1, 1, 3);
    grid->addWidget(label(tr("S&ummary:"), m_summaryEdit), 1, 0);
    grid->addWidget(m_summaryEdit, 1, 1, 1, 3);
    grid->addWidget(label(tr("Sc&ope:"), m_scopeCombo), 2, 0);
    grid->addWidget(m_scopeCombo, 2, 1);
    grid->addWidget(m_targetLabel, 2, 2);
    grid->addWidget(m_targetEdit, 2, 3);
    grid->addWidget(label(tr("P&riority:"), m_prioritySpin), 3, 0);
    grid->addWidget(m_prioritySpin, 3, 1);
    grid->addWidget(label(tr("&Weight:"), m_weightSpin), 3, 2);
    grid->addWidget(m_weightSpin, 3, 3);
    grid->addWidget(label(tr("&Lane:"), m_laneCombo), 4, 0);
    grid->addWidget(m_laneCombo, 4, 1);
    grid->addWidget(label(tr("Owner &agent:"), m_ownerAgentEdit), 4, 2);
    grid->addWidget(m_ownerAgentEdit, 4, 3);
    grid->addWidget(label(tr("Owner tea&m:"), m_ownerTeamEdit), 5, 2);
    grid->addWidget(m_ownerTeamEdit, 5, 3);
    grid->addWidget(m_formStatus, 6, 0, 1, 4);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
}

QWidget *RuleEditor::createJsonSection(int index, const QString &labelText, const QString &tip)
{
    auto *box = new QWidget(this);
    JsonSection &section = m_sections[index];

    section.edit = new QPlainTextEdit(box);
    static const char *const names[] = {"ruleIfEdit", "ruleThenEdit", "ruleExceptionsEdit"};
    section.edit->setObjectName(QLatin1String(names[index]));
    section.edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    section.edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    // Tab moves on, so the form stays usable from the keyboard; JSON needs no tab characters.
    section.edit->setTabChangesFocus(true);
    section.edit->setToolTip(tip);
    section.edit->setMinimumHeight(section.edit->fontMetrics().lineSpacing() * 3 + 12);
    section.highlighter = JsonHighlighter::attach(section.edit);
    connect(section.edit, &QPlainTextEdit::textChanged, this, &RuleEditor::onEdited);

    auto *label = new QLabel(labelText, box);
    label->setBuddy(section.edit);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);

    section.status = new QLabel(box);
    static const char *const statusNames[]
        = {"ruleIfStatus", "ruleThenStatus", "ruleExceptionsStatus"};
    section.status->setObjectName(QLatin1String(statusNames[index]));
    section.status->setWordWrap(true);
    section.status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(label);
    layout->addWidget(section.edit, 1);
    layout->addWidget(section.status);
    return box;
}

void RuleEditor::setRule(const RuleSummary &rule)
{
    m_rule = rule;
    m_isNew = false;
    m_clientId = rule.node.clientId;
    load(rule.node);
}

void RuleEditor::startNewRule(const QString &clientId)
{
    m_rule = RuleSummary();
    m_isNew = true;
    m_clientId = clientId;
    load(NodeRecord());
}

void RuleEditor::clearRule(const QString &message)
{
    m_hasRule = false;
    m_isNew = false;
    m_rule = RuleSummary();
    m_clientId.clear();
    m_stack->showMessage(message);
    if (m_lastDirty) {
        m_lastDirty = false;
        Q_EMIT dirtyChanged(false);
    }
}

void RuleEditor::revert()
{
    if (!m_hasRule)
        return;
    load(m_rule.node);
}

void RuleEditor::load(const NodeRecord &node)
{
    m_loading = true;
    m_hasRule = true;
    const RuleDefinition def = RuleDefinition::fromNode(node);
    const Rules::RuleRank rank = Rules::computeRank(node.slotData, 0, 0, 0);

    m_titleEdit->setText(node.title);
    m_summaryEdit->setText(node.textSummary);
    m_scopeCombo->setCurrentIndex(std::max(0, m_scopeCombo->findData(def.ruleScope)));
    m_targetEdit->setText(def.ruleScope == QLatin1String("agent")  ? def.targetAgentId
                          : def.ruleScope == QLatin1String("team") ? def.targetTeamId
                                                                   : QString());
    m_prioritySpin->setValue(rank.priority);
    m_weightSpin->setValue(rank.weight);
    const QString lane
        = m_isNew ? QStringLiteral("shared")
                  : (node.memoryLane.isEmpty() ? QStringLiteral("private") : node.memoryLane);
    m_laneCombo->setCurrentIndex(std::max(0, m_laneCombo->findData(lane)));
    m_ownerAgentEdit->setText(node.ownerAgentId);
    m_ownerTeamEdit->setText(node.ownerTeamId);
    if (m_isNew) {
        ifEdit()->setPlainText(s(NewIfTemplate));
        thenEdit()->setPlainText(s(NewThenTemplate));
        exceptionsEdit()->setPlainText(s(NewExceptionsTemplate));
    } else {
        ifEdit()->setPlainText(ruleJsonText(def.ifJson));
        thenEdit()->setPlainText(ruleJsonText(def.thenJson));
        exceptionsEdit()->setPlainText(def.exceptionsJson.isUndefined()
                                           ? QStringLiteral("[]")
                                           : ruleJsonText(def.exceptionsJson));
    }
    m_statusLabel->hide();
    m_loading = false;

    m_clean = snapshot();
    updateTargetField();
    updateHeader();
    updateTargetStates();
    validate();
    m_stack->showContent();
    const bool dirty = isDirty();
    if (dirty != m_lastDirty) {
        m_lastDirty = dirty;
        Q_EMIT dirtyChanged(dirty);
    }
}

void RuleEditor::onEdited()
{
    if (m_loading)
        return;
    updateTargetField();
    validate();
    m_statusLabel->hide();
    const bool dirty = isDirty();
    if (dirty != m_lastDirty) {
        m_lastDirty = dirty;
        Q_EMIT dirtyChanged(dirty);
    }
}

bool RuleEditor::isDirty() const
{
    return m_hasRule && (m_isNew || snapshot() != m_clean);
}

bool RuleEditor::isValid() const
{
    if (!m_hasRule || !m_formError.isEmpty())
        return false;
    for (const JsonSection &section : m_sections) {
        if (!section.error.isEmpty())
            return false;
    }
    return true;
}

QString RuleEditor::validationMessage(Section section) const
{
    switch (section) {
    case Section::If: return m_sections[IfSection].error;
    case Section::Then: return m_sections[ThenSection].error;
    case Section::Exceptions: return m_sections[ExceptionsSection].error;
    case Section::Form: return m_formError;
    }
    return {};
}

QString RuleEditor::statusText() const
{
    return m_statusLabel->isHidden() ? QString() : m_statusLabel->text();
}

void RuleEditor::validate()
{
    for (int i = 0; i < SectionCount; ++i)
        validateJson(i);
    m_formError = formError();
    m_formStatus->setVisible(!m_formError.isEmpty());
    setStatus(m_formStatus, m_formError, true);
    updateButtons();
}

void RuleEditor::validateJson(int index)
{
    JsonSection &section = m_sections[index];
    section.error.clear();
    section.errorPosition = -1;
    const QString text = section.edit->toPlainText();
    const QString root = index == IfSection     ? QStringLiteral("if")
                         : index == ThenSection ? QStringLiteral("then")
                                                : QStringLiteral("exceptions");
    QJsonValue value;
    if (text.trimmed().isEmpty()) {
        value = index == ExceptionsSection ? QJsonValue(QJsonArray()) : QJsonValue(QJsonObject());
    } else {
        QString message;
        if (!parseRuleJson(text, &value, &message, &section.errorPosition))
            section.error = tr("%1: %2").arg(root, message);
    }
    if (section.error.isEmpty()) {
        switch (index) {
        case IfSection:
            if (!value.isObject())
                section.error = tr("if: must be a JSON object");
            else if (auto valid = Rules::validateCondition(value, root); !valid)
                section.error = issueText(valid.error(), QString());
            break;
        case ThenSection:
            if (!value.isObject())
                section.error = tr("then: must be a JSON object");
            else if (auto patch = Rules::validatePolicyPatch(value); !patch)
                section.error = issueText(patch.error(), root);
            break;
        default: {
            if (!value.isArray()) {
                section.error = tr("exceptions: must be a JSON array of conditions");
                break;
            }
            const QJsonArray list = value.toArray();
            for (qsizetype i = 0; i < list.size() && section.error.isEmpty(); ++i) {
                const QString path = QStringLiteral("exceptions[%1]").arg(i);
                if (!list.at(i).isObject())
                    section.error = tr("%1: must be a JSON object").arg(path);
                else if (auto valid = Rules::validateCondition(list.at(i), path); !valid)
                    section.error = issueText(valid.error(), QString());
            }
            break;
        }
        }
    }
    section.value = section.error.isEmpty() ? value : QJsonValue();
    updateSectionStatus(index);
}

QString RuleEditor::formError() const
{
    const QString scope = m_scopeCombo->currentData().toString();
    if (m_titleEdit->text().trimmed().isEmpty() && m_summaryEdit->text().trimmed().isEmpty())
        return tr("Give the rule a title or a summary.");
    if (scope == QLatin1String("team") && m_targetEdit->text().trimmed().isEmpty())
        return tr("slots.target_team_id: a team rule needs the id of its target team.");
    if (scope == QLatin1String("agent") && m_targetEdit->text().trimmed().isEmpty())
        return tr("slots.target_agent_id: an agent rule needs the id of its target agent.");
    // The write path's own checks, in case the form and the service ever disagree.
    const QJsonObject slotObject = nodeJson().value(QStringLiteral("slots")).toObject();
    if (auto valid = RuleDefinition::validateSlots(slotObject, QStringLiteral("rule")); !valid)
        return valid.error().message;
    return {};
}

void RuleEditor::updateSectionStatus(int index)
{
    JsonSection &section = m_sections[index];
    if (section.error.isEmpty())
        setStatus(section.status, tr("\u2713 valid"), false);
    else
        setStatus(section.status, section.error, true);

    // Mark the line of a parse error, so it can be found in a long document.
    QList<QTextEdit::ExtraSelection> marks;
    if (section.errorPosition >= 0) {
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(section.edit->document());
        mark.cursor.setPosition(
            std::min(section.errorPosition, section.edit->document()->characterCount() - 1));
        mark.format.setBackground(QColor(0xd9, 0x4f, 0x4f, 70));
        mark.format.setProperty(QTextFormat::FullWidthSelection, true);
        marks << mark;
    }
    section.edit->setExtraSelections(marks);
}

void RuleEditor::updateButtons()
{
    const bool dirty = isDirty();
    const bool valid = isValid();
    m_saveButton->setEnabled(m_hasRule && !m_busy && valid && dirty);
    if (!valid)
        m_saveButton->setToolTip(tr("Fix the errors shown under the fields first"));
    else if (!dirty)
        m_saveButton->setToolTip(tr("Nothing to save"));
    else
        m_saveButton->setToolTip(
            tr("Write the rule as a new commit (%1)")
                .arg(QKeySequence(QKeySequence::Save).toString(QKeySequence::NativeText)));
    m_revertButton->setEnabled(m_hasRule && !m_busy && dirty && !m_isNew);

    const QString target = m_targetStateCombo->currentData().toString();
    const bool changes = target != m_rule.status.state;
    m_stateButton->setText(target == QLatin1String("active")   ? tr("Acti&vate")
                           : target == QLatin1String("shadow") ? tr("Move to s&hadow")
                           : target == QLatin1String("draft")  ? tr("&Back to draft")
                                                               : tr("Disa&ble"));
    const bool stored = m_hasRule && !m_isNew;
    m_stateButton->setEnabled(stored && !m_busy && !dirty && changes);
    m_targetStateCombo->setEnabled(stored && !m_busy && !dirty);
    if (m_isNew)
        m_stateButton->setToolTip(tr("Save the new rule first; it starts in SHADOW"));
    else if (dirty)
        m_stateButton->setToolTip(tr("Save or revert the changes first"));
    else if (!changes)
        m_stateButton->setToolTip(tr("The rule is already in this state"));
    else if (target == QLatin1String("active"))
        m_stateButton->setToolTip(tr("Enforce the rule's policy when it matches"));
    else if (target == QLatin1String("shadow"))
        m_stateButton->setToolTip(tr("Evaluate and report the rule without enforcing its policy"));
    else if (target == QLatin1String("draft"))
        m_stateButton->setToolTip(tr("Take the rule back to a draft; drafts are never evaluated"));
    else
        m_stateButton->setToolTip(tr("Switch the rule off; disabled rules are never evaluated"));
}

void RuleEditor::updateTargetField()
{
    const QString scope = m_scopeCombo->currentData().toString();
    m_targetEdit->setEnabled(scope != QLatin1String("global"));
    m_targetEdit->setPlaceholderText(scope == QLatin1String("agent")  ? tr("target_agent_id")
                                     : scope == QLatin1String("team") ? tr("target_team_id")
                                                                      : tr("not used"));
}

void RuleEditor::updateHeader()
{
    QString badgeText;
    QString badgeColour;
    if (m_isNew) {
        m_headerLabel->setText(tr("New rule"));
        m_idLabel->setText(tr("client_id %1 \u00b7 not saved yet").arg(m_clientId));
        badgeText = tr("NEW");
        badgeColour = QStringLiteral("#5b7fb5");
    } else {
        const NodeRecord &n = m_rule.node;
        m_headerLabel->setText(n.title.isEmpty() ? (n.textSummary.isEmpty() ? n.id : n.textSummary)
                                                 : n.title);
        m_idLabel->setText(n.clientId.isEmpty()
                               ? tr("id %1").arg(n.id)
                               : tr("id %1 \u00b7 client_id %2").arg(n.id, n.clientId));
        const QString &state = m_rule.status.state;
        badgeText = state.toUpper();
        badgeColour = state == QLatin1String("active")     ? QStringLiteral("#2e9e4f")
                      : state == QLatin1String("draft")    ? QStringLiteral("#5b7fb5")
                      : state == QLatin1String("disabled") ? QStringLiteral("#808080")
                                                           : QStringLiteral("#b07418");
    }
    m_headerLabel->setToolTip(m_headerLabel->text());
    m_stateBadge->setText(badgeText);
    m_stateBadge->setStyleSheet(
        QStringLiteral("QLabel { color: white; background: %1; border-radius: 3px;"
                       " padding: 1px 6px; font-weight: bold; }")
            .arg(badgeColour));
}

/// The current state cannot be picked; the usual next step is preselected.
void RuleEditor::updateTargetStates()
{
    const QString current = m_isNew ? QString() : m_rule.status.state;
    const QSignalBlocker blocker(m_targetStateCombo);
    auto *model = qobject_cast<QStandardItemModel *>(m_targetStateCombo->model());
    for (int i = 0; i < m_targetStateCombo->count(); ++i) {
        if (QStandardItem *item = model ? model->item(i) : nullptr)
            item->setEnabled(m_targetStateCombo->itemData(i).toString() != current);
    }
    const QString next
        = current == QLatin1String("shadow") ? QStringLiteral("active") : QStringLiteral("shadow");
    m_targetStateCombo->setCurrentIndex(std::max(0, m_targetStateCombo->findData(next)));
}

void RuleEditor::setBusy(bool busy)
{
    m_busy = busy;
    updateButtons();
}

void RuleEditor::setStatusMessage(const QString &text, bool isError)
{
    setStatus(m_statusLabel, text, isError);
    m_statusLabel->setVisible(!text.isEmpty());
}

QJsonObject RuleEditor::snapshot() const
{
    QJsonObject snap{{QStringLiteral("title"), m_titleEdit->text()},
                     {QStringLiteral("summary"), m_summaryEdit->text()},
                     {QStringLiteral("scope"), m_scopeCombo->currentData().toString()},
                     {QStringLiteral("target"), m_targetEdit->text()},
                     {QStringLiteral("priority"), m_prioritySpin->value()},
                     {QStringLiteral("weight"), m_weightSpin->value()},
                     {QStringLiteral("lane"), m_laneCombo->currentData().toString()},
                     {QStringLiteral("owner_agent"), m_ownerAgentEdit->text()},
                     {QStringLiteral("owner_team"), m_ownerTeamEdit->text()}};
    for (int i = 0; i < SectionCount; ++i)
        snap.insert(QStringLiteral("json%1").arg(i), m_sections[i].edit->toPlainText());
    return snap;
}

QJsonObject RuleEditor::nodeJson() const
{
    const NodeRecord &n = m_rule.node;
    QJsonObject slotObject = n.slotData;
    for (const char *legacy : {"if_json", "then_json", "exceptions_json"})
        slotObject.remove(QLatin1String(legacy));
    slotObject.insert(QStringLiteral("if"), m_sections[IfSection].value.isUndefined()
                                                ? QJsonValue(QJsonObject())
                                                : m_sections[IfSection].value);
    slotObject.insert(QStringLiteral("then"), m_sections[ThenSection].value.isUndefined()
                                                  ? QJsonValue(QJsonObject())
                                                  : m_sections[ThenSection].value);
    slotObject.insert(QStringLiteral("exceptions"),
                      m_sections[ExceptionsSection].value.isUndefined()
                          ? QJsonValue(QJsonArray())
                          : m_sections[ExceptionsSection].value);
    const QString scope = m_scopeCombo->currentData().toString();
    const QString target = m_targetEdit->text().trimmed();
    slotObject.insert(QStringLiteral("rule_scope"), scope);
    slotObject.remove(QStringLiteral("target_agent_id"));
    slotObject.remove(QStringLiteral("target_team_id"));
    if (scope == QLatin1String("agent"))
        slotObject.insert(QStringLiteral("target_agent_id"), target);
    else if (scope == QLatin1String("team"))
        slotObject.insert(QStringLiteral("target_team_id"), target);
    QJsonObject meta = slotObject.value(QStringLiteral("rule_meta")).toObject();
    meta.insert(QStringLiteral("priority"), m_prioritySpin->value());
    meta.insert(QStringLiteral("weight"), std::round(m_weightSpin->value() * 100.0) / 100.0);
    slotObject.insert(QStringLiteral("rule_meta"), meta);

    QJsonObject node{{QStringLiteral("type"), QStringLiteral("rule")},
                     {QStringLiteral("memory_lane"), m_laneCombo->currentData().toString()},
                     {QStringLiteral("slots"), slotObject}};
    // The write path rejects empty strings; an empty field is simply not sent.
    const QString title = m_titleEdit->text().trimmed();
    const QString summary = m_summaryEdit->text().trimmed();
    if (!title.isEmpty())
        node.insert(QStringLiteral("title"), title);
    if (!summary.isEmpty())
        node.insert(QStringLiteral("text_summary"), summary);
    // A client_id keeps the node's id stable (DESIGN decision 4); nodes written without one
    // are addressed by id.
    if (!m_clientId.isEmpty())
        node.insert(QStringLiteral("client_id"), m_clientId);
    else
        node.insert(QStringLiteral("id"), n.id);
    const QString ownerAgent = m_ownerAgentEdit->text().trimmed();
    const QString ownerTeam = m_ownerTeamEdit->text().trimmed();
    if (!ownerAgent.isEmpty())
        node.insert(QStringLiteral("owner_agent_id"), ownerAgent);
    if (!ownerTeam.isEmpty())
        node.insert(QStringLiteral("owner_team_id"), ownerTeam);
    if (!m_isNew) {
        // Fields the editor does not show are written back unchanged.
        if (!n.tier.isEmpty())
            node.insert(QStringLiteral("tier"), n.tier);
        if (!n.producerAgentId.isEmpty())
            node.insert(QStringLiteral("producer_agent_id"), n.producerAgentId);
        if (!n.rawRef.isEmpty())
            node.insert(QStringLiteral("raw_ref"), n.rawRef);
        if (!n.evidenceRef.isEmpty())
            node.insert(QStringLiteral("evidence_ref"), n.evidenceRef);
        node.insert(QStringLiteral("salience"), n.salience);
        node.insert(QStringLiteral("importance"), n.importance);
        node.insert(QStringLiteral("confidence"), n.confidence);
    }
    return node;
}

} // namespace MemoryGraph::Ui
