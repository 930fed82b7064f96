#include "ui/widgets/decisiondetail.h"

#include "ui/displayformat.h"
#include "ui/widgets/detailpane.h"
#include "ui/widgets/messagestack.h"
#include "ui/widgets/ruledisplay.h"

#include <QFontDatabase>
#include <QGridLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QTextDocument>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

namespace {

constexpr int RuleIdRole = Qt::UserRole + 1;
const QString RuleLinkPrefix = QStringLiteral("rule:");

QColor outcomeColour(const QString &outcome)
{
    if (outcome == QLatin1String("positive"))
        return QColor(0x2e, 0x9e, 0x4f);
    if (outcome == QLatin1String("negative"))
        return QColor(0xd9, 0x4f, 0x4f);
    return QColor(0x80, 0x86, 0x8f);
}

} // namespace

DecisionDetail::DecisionDetail(QWidget *parent) : QWidget(parent)
{
    m_stack = MessageStack::fill(this, createDetailPane(), QStringLiteral("decisionMessage"));
    showMessage(tr("Select a decision to see how it was made."));
}

QWidget *DecisionDetail::createDetailPane()
{
    auto *pane = new QWidget(this);
    createHeadline(pane);
    QWidget *fields = createFieldGrid(pane);
    styleFieldValues();
    createDeniedTable(pane);
    createFeedbackTable(pane);

    auto *tables = new QSplitter(Qt::Vertical, pane);
    tables->setChildrenCollapsible(false);
    tables->addWidget(titledSection(m_deniedTitle, m_denied, pane));
    tables->addWidget(titledSection(m_feedbackTitle, m_feedback, pane, m_feedbackMessage));
    tables->setStretchFactor(0, 1);
    tables->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_titleLabel);
    layout->addWidget(m_idLabel);
    layout->addSpacing(4);
    layout->addWidget(fields);
    layout->addWidget(tables, 1);
    return pane;
}

/// The decision's title and its id underneath.
void DecisionDetail::createHeadline(QWidget *pane)
{
    m_titleLabel = headlineLabel(pane);
    m_titleLabel->setObjectName(QStringLiteral("decisionTitle"));

    m_idLabel = new QLabel(pane);
    m_idLabel->setObjectName(QStringLiteral("decisionIdLabel"));
    m_idLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_idLabel->setForegroundRole(QPalette::PlaceholderText);
}

/// One name/value row per Field, in enum order, so setField() can address them by index.
QWidget *DecisionDetail::createFieldGrid(QWidget *pane)
{
    auto *fields = new QWidget(pane);
    auto *grid = new QGridLayout(fields);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(5);
    const QStringList names{tr("Selected tool:"), tr("Time:"),          tr("Run:"),
                            tr("Candidates:"),    tr("Allowed:"),       tr("Preferred:"),
                            tr("Ordered:"),       tr("Fallback:"),      tr("Policy sha256:"),
                            tr("Source rules:"),  tr("Tool conflicts:")};
    int gridRow = 0;
    for (int field = 0; field < int(Field::Count); ++field) {
        auto *name = new QLabel(names.at(field), fields);
        name->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        auto *value = new QLabel(fields);
        value->setWordWrap(true);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        if (Field(field) == Field::PolicyHash) {
            // 64 hex digits cannot wrap: the hash gets the full width on a line of its own.
            grid->addWidget(name, gridRow++, 0, 1, 2);
            grid->addWidget(value, gridRow++, 0, 1, 2);
        } else {
            grid->addWidget(name, gridRow, 0);
            grid->addWidget(value, gridRow++, 1);
        }
        m_names << name;
        m_values << value;
    }
    grid->setColumnStretch(1, 1);
    return fields;
}

/// The selected tool stands out, the hash is monospaced and source rules are links.
void DecisionDetail::styleFieldValues()
{
    QLabel *selected = m_values[int(Field::Selected)];
    selected->setObjectName(QStringLiteral("decisionSelectedTool"));
    QFont big = selected->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    selected->setFont(big);
    m_values[int(Field::PolicyHash)]->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    QLabel *links = m_values[int(Field::SourceRules)];
    links->setObjectName(QStringLiteral("decisionSourceRules"));
    links->setTextFormat(Qt::RichText);
    // Links are reachable with Tab and opened with Enter as well as by mouse.
    links->setTextInteractionFlags(Qt::TextBrowserInteraction);
    links->setFocusPolicy(Qt::StrongFocus);
    links->setToolTip(tr("Open the rule on the Rules page"));
    connect(links, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link.startsWith(RuleLinkPrefix))
            Q_EMIT ruleRequested(link.mid(RuleLinkPrefix.size()));
    });
}

/// The tools the policy denied, with the reason.
void DecisionDetail::createDeniedTable(QWidget *pane)
{
    m_denied = createDetailTable({tr("Tool"), tr("Reason")}, QStringLiteral("decisionDeniedTable"),
                                 pane);
    m_denied->setColumnWidth(
        DeniedTool,
        m_denied->fontMetrics().horizontalAdvance(QStringLiteral("code_interpreter")) + 24);
    m_deniedTitle = sectionLabel(tr("Denied"), pane);
}

/// Feedback linked to the decision; a row opens its rule.
void DecisionDetail::createFeedbackTable(QWidget *pane)
{
    m_feedback = createDetailTable({tr("Outcome"), tr("Rule"), tr("Note"), tr("Time")},
                                   QStringLiteral("decisionFeedbackTable"), pane);
    const QFontMetrics fm = m_feedback->fontMetrics();
    // The note takes what the fixed columns leave.
    m_feedback->horizontalHeader()->setStretchLastSection(false);
    m_feedback->horizontalHeader()->setSectionResizeMode(FeedbackNote, QHeaderView::Stretch);
    m_feedback->setColumnWidth(FeedbackOutcome,
                               fm.horizontalAdvance(QStringLiteral("Outcome")) + 22);
    m_feedback->setColumnWidth(
        FeedbackRule, fm.horizontalAdvance(QStringLiteral("Prefer search for lookups")) + 14);
    m_feedback->setColumnWidth(FeedbackTime,
                               fm.horizontalAdvance(QStringLiteral("0000-00-00 00:00:00")) + 14);
    m_feedback->setToolTip(tr("Double-click a row to open its rule"));
    connect(m_feedback, &QTableWidget::cellActivated, this, [this](int row, int) {
        const QString id = m_feedback->item(row, FeedbackRule)->data(RuleIdRole).toString();
        if (!id.isEmpty())
            Q_EMIT ruleRequested(id);
    });
    m_feedbackTitle = sectionLabel(tr("Feedback"), pane);
    m_feedbackMessage = new QLabel(pane);
    m_feedbackMessage->setObjectName(QStringLiteral("decisionFeedbackMessage"));
    m_feedbackMessage->setEnabled(false);
    m_feedbackMessage->setWordWrap(true);
}

void DecisionDetail::showDecision(const DecisionRecord &d)
{
    m_decision = d;
    m_feedbackRows.clear();
    const QJsonObject meta = d.metadata;
    const bool derived
        = meta.value(QStringLiteral("source")).toString() == QLatin1String("feedback_derived");

    m_titleLabel->setText(d.selectedTool.isEmpty() ? tr("Decision: nothing selected")
                                                   : tr("Decision: %1").arg(d.selectedTool));
    m_idLabel->setText(derived ? tr("%1 \u00b7 created from feedback").arg(d.id) : d.id);

    setField(Field::Selected, d.selectedTool.isEmpty() ? tr("(none)") : d.selectedTool);
    setField(Field::Time, formatDateTime(d.createdAt));
    setField(Field::Run, orDash(d.runId));
    setField(Field::Candidates, RuleDisplay::toolList(d.candidates));
    const QString notRecorded = tr("not recorded (the decision was created from feedback)");
    if (derived || !meta.contains(QStringLiteral("allowed"))) {
        setField(Field::Allowed, notRecorded);
        setField(Field::Preferred, notRecorded);
        setField(Field::Ordered, notRecorded);
    } else {
        setField(Field::Allowed, RuleDisplay::toolList(RuleDisplay::strings(
                                     meta.value(QStringLiteral("allowed")).toArray())));
        setField(Field::Preferred, RuleDisplay::orderedList(RuleDisplay::strings(
                                       meta.value(QStringLiteral("preferred")).toArray())));
        setField(Field::Ordered, RuleDisplay::orderedList(RuleDisplay::strings(
                                     meta.value(QStringLiteral("ordered")).toArray())));
    }
    setField(Field::Fallback,
             RuleDisplay::fallbackText(meta.value(QStringLiteral("fallback")).toObject()));
    setField(Field::PolicyHash, d.policySha256);
    setField(Field::Conflicts,
             RuleDisplay::strings(meta.value(QStringLiteral("tool_conflicts_summary")).toArray())
                 .join(QLatin1Char('\n')));
    renderSourceRules();
    fillDenied();
    fillFeedback();
    setFeedbackMessage(tr("Loading feedback\u2026"));
    m_stack->showContent();
}

void DecisionDetail::setField(Field field, const QString &text)
{
    QLabel *value = m_values.at(int(field));
    value->setText(text);
    // Optional rows disappear when empty.
    const bool optional = field == Field::Fallback || field == Field::Conflicts;
    const bool visible = !optional || !text.isEmpty();
    value->setVisible(visible);
    m_names.at(int(field))->setVisible(visible);
    if (field != Field::SourceRules && field != Field::Selected)
        value->setToolTip(text);
}

void DecisionDetail::renderSourceRules()
{
    QLabel *label = m_values.at(int(Field::SourceRules));
    if (m_decision.sourceRuleIds.isEmpty()) {
        label->setText(tr("none \u2014 no rule shaped the policy"));
        return;
    }
    QStringList links;
    for (const QString &id : m_decision.sourceRuleIds)
        links << QStringLiteral("<a href=\"%1%2\">%3</a>")
                     .arg(RuleLinkPrefix, id.toHtmlEscaped(), ruleName(id).toHtmlEscaped());
    label->setText(links.join(QStringLiteral("<br>")));
}

void DecisionDetail::fillDenied()
{
    const QJsonArray denied = m_decision.metadata.value(QStringLiteral("denied")).toArray();
    m_denied->setRowCount(int(denied.size()));
    for (int row = 0; row < denied.size(); ++row) {
        const QJsonObject d = denied.at(row).toObject();
        m_denied->setItem(row, DeniedTool,
                          readOnlyItem(d.value(QStringLiteral("name")).toString()));
        m_denied->setItem(row, DeniedReason,
                          readOnlyItem(RuleDisplay::deniedReasonText(
                              d.value(QStringLiteral("reason")).toString())));
    }
    m_deniedTitle->setText(tr("Denied (%1)").arg(denied.size()));
}

void DecisionDetail::setFeedback(const QVector<FeedbackRecord> &feedback)
{
    m_feedbackRows = feedback;
    fillFeedback();
    m_feedbackMessage->setVisible(feedback.isEmpty());
    m_feedbackMessage->setText(tr("No feedback has been linked to this decision yet."));
}

void DecisionDetail::setFeedbackMessage(const QString &message)
{
    m_feedbackMessage->setText(message);
    m_feedbackMessage->setVisible(!message.isEmpty());
}

void DecisionDetail::setFeedbackFailure(const Error &error)
{
    setFeedbackMessage(tr("Loading feedback failed: %1").arg(error.message));
}

void DecisionDetail::fillFeedback()
{
    m_feedback->setRowCount(int(m_feedbackRows.size()));
    for (int row = 0; row < m_feedbackRows.size(); ++row) {
        const FeedbackRecord &f = m_feedbackRows.at(row);
        auto *outcome = readOnlyItem(f.outcome);
        outcome->setForeground(outcomeColour(f.outcome));
        outcome->setToolTip(tr("%1 (%2, commit %3)").arg(f.outcome, f.source, f.commitId.left(8)));
        m_feedback->setItem(row, FeedbackOutcome, outcome);
        auto *rule = readOnlyItem(f.ruleNodeId.isEmpty() ? tr("(no rule matched)")
                                                         : ruleName(f.ruleNodeId));
        rule->setData(RuleIdRole, f.ruleNodeId);
        rule->setToolTip(f.ruleNodeId);
        m_feedback->setItem(row, FeedbackRule, rule);
        m_feedback->setItem(row, FeedbackNote, readOnlyItem(orDash(f.note)));
        m_feedback->setItem(row, FeedbackTime, readOnlyItem(formatDateTime(f.createdAt)));
    }
    m_feedbackTitle->setText(tr("Feedback (%1)").arg(m_feedbackRows.size()));
}

void DecisionDetail::showMessage(const QString &message)
{
    m_decision = DecisionRecord();
    m_feedbackRows.clear();
    m_stack->showMessage(message);
}

void DecisionDetail::setRuleTitles(const QHash<QString, QString> &titles)
{
    m_titles = titles;
    if (!hasDecision())
        return;
    renderSourceRules();
    fillFeedback();
}

QString DecisionDetail::fieldText(Field field) const
{
    if (!hasDecision() || field == Field::Count)
        return {};
    QLabel *value = m_values.at(int(field));
    if (value->isHidden())
        return {};
    if (field == Field::SourceRules) {
        // Plain text of the links: the rule names, one per line.
        QTextDocument doc;
        doc.setHtml(value->text());
        return doc.toPlainText();
    }
    return value->text();
}

QString DecisionDetail::messageText() const
{
    return m_stack->messageText();
}

QString DecisionDetail::ruleName(const QString &ruleId) const
{
    return RuleDisplay::ruleName(ruleId, m_titles);
}

} // namespace MemoryGraph::Ui
