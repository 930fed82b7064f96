#include "ui/widgets/ruletrypanel.h"

#include "service/memoryservice.h"
#include "service/rules/toolpolicy.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/detailpane.h"
#include "ui/widgets/jsonhighlighter.h"
#include "ui/widgets/ruledisplay.h"
#include "ui/widgets/ruleeditor.h"
#include "ui/widgets/statustext.h"

#include <QAction>
#include <QCheckBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QUuid>
#include <QVBoxLayout>

#include <optional>

namespace MemoryGraph::Ui {

namespace {

constexpr int EvaluateLimit = 200; // the most rules/evaluate considers (spec §4.7)

enum SelectionRow {
    RowSelected,
    RowAllowed,
    RowDenied,
    RowPreferred,
    RowOrdered,
    RowFallback,
    RowShadow,
    SelectionRowCount
};

QTableWidgetItem *cellItem(const QString &text, const QString &ruleId = QString())
{
    QTableWidgetItem *item = readOnlyItem(text);
    if (!ruleId.isEmpty())
        item->setData(Qt::UserRole, ruleId);
    return item;
}

QTableWidgetItem *numberItem(double value)
{
    auto *item = cellItem(QString::number(value, 'g', 10));
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace

/// What one run produced; built on a worker thread.
struct RuleTryPanel::Outcome
{
    std::optional<Error> error; ///< evaluation failed
    RulesEvaluateOutcome evaluation;
    QStringList candidates;
    bool strict = true;
    std::optional<Rules::ToolSelection> selection;
    std::optional<Error> selectionError; ///< e.g. no_tools_allowed
    std::optional<Rules::ToolSelection> shadowSelection;
};

RuleTryPanel::RuleTryPanel(MemoryService *service, UiExecutor *executor, QWidget *parent)
    : QWidget(parent), m_service(service), m_executor(executor)
{
    Q_ASSERT(m_service);
    Q_ASSERT(m_executor);

    auto *runAction = new QAction(tr("Run"), this);
    runAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    runAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(runAction, &QAction::triggered, this, &RuleTryPanel::run);
    addAction(runAction);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(createInputs());
    splitter->addWidget(createResults());
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    clearResults();
}

QWidget *RuleTryPanel::createInputs()
{
    auto *box = new QWidget(this);

    m_contextEdit = new QPlainTextEdit(box);
    m_contextEdit->setObjectName(QStringLiteral("tryContextEdit"));
    m_contextEdit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_contextEdit->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_contextEdit->setTabChangesFocus(true);
    m_contextEdit->setPlaceholderText(
        QStringLiteral("{\n    \"intent\": \"deploy\",\n    \"agent\": {\n"
                       "        \"id\": \"a1\",\n        \"team_id\": \"ops\"\n"
                       "    }\n}"));
    m_contextEdit->setToolTip(tr("The context object an agent would send; empty means {}"));
    JsonHighlighter::attach(m_contextEdit);
    auto *contextLabel = new QLabel(tr("Conte&xt:"), box);
    contextLabel->setBuddy(m_contextEdit);

    m_contextStatus = new QLabel(box);
    m_contextStatus->setObjectName(QStringLiteral("tryContextStatus"));
    m_contextStatus->setWordWrap(true);
    m_contextStatus->setStyleSheet(QStringLiteral("color: %1;").arg(errorColour()));
    m_contextStatus->hide();
    connect(m_contextEdit, &QPlainTextEdit::textChanged, m_contextStatus, &QLabel::hide);

    m_candidatesEdit = new QLineEdit(box);
    m_candidatesEdit->setObjectName(QStringLiteral("tryCandidatesEdit"));
    m_candidatesEdit->setPlaceholderText(tr("search, shell, browser"));
    m_candidatesEdit->setToolTip(tr("Candidate tools, separated by commas, in the agent's order"));
    connect(m_candidatesEdit, &QLineEdit::returnPressed, this, &RuleTryPanel::run);
    auto *candidatesLabel = new QLabel(tr("Candi&dates:"), box);
    candidatesLabel->setBuddy(m_candidatesEdit);

    m_strictCheck = new QCheckBox(tr("Stri&ct"), box);
    m_strictCheck->setObjectName(QStringLiteral("tryStrictCheck"));
    m_strictCheck->setChecked(true);
    m_strictCheck->setToolTip(tr("strict=true: an empty selection is the no_tools_allowed error; "
                                 "strict=false falls back instead"));

    m_runButton = new QPushButton(tr("Run"), box);
    m_runButton->setObjectName(QStringLiteral("tryRunButton"));
    m_runButton->setToolTip(tr("Evaluate the rules and preview the tool selection (Ctrl+Enter). "
                               "Nothing is recorded."));
    connect(m_runButton, &QPushButton::clicked, this, &RuleTryPanel::run);

    auto *row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_strictCheck);
    row->addStretch(1);
    row->addWidget(m_runButton);

    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(contextLabel);
    layout->addWidget(m_contextEdit, 1);
    layout->addWidget(m_contextStatus);
    layout->addWidget(candidatesLabel);
    layout->addWidget(m_candidatesEdit);
    layout->addLayout(row);
    return box;
}

QWidget *RuleTryPanel::createResults()
{
    auto *box = new QWidget(this);

    m_statusLabel = new QLabel(box);
    m_statusLabel->setObjectName(QStringLiteral("tryStatus"));
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_matchTable
        = createDetailTable({tr("State"), tr("Rule"), tr("Score"), tr("Priority"), tr("Weight"),
                             tr("Evidence"), tr("Specificity"), tr("Condition paths")},
                            QStringLiteral("tryMatchTable"), box);
    m_matchTable->setToolTip(tr("Double-click a rule to open it in the editor"));
    const QFontMetrics fm = m_matchTable->fontMetrics();
    m_matchTable->setColumnWidth(MatchState, fm.horizontalAdvance(QStringLiteral("SHADOW")) + 20);
    m_matchTable->setColumnWidth(
        MatchRule, fm.horizontalAdvance(QStringLiteral("Prefer search for lookups")) + 16);
    for (int c : {int(MatchScore), int(MatchPriority), int(MatchWeight), int(MatchEvidence)})
        m_matchTable->setColumnWidth(c, fm.horizontalAdvance(QStringLiteral("Priority")) + 16);
    m_matchTable->setColumnWidth(MatchSpecificity,
                                 fm.horizontalAdvance(QStringLiteral("Specificity")) + 16);
    connect(m_matchTable, &QTableWidget::cellActivated, this, [this](int row, int) {
        const QString id = m_matchTable->item(row, MatchRule)->data(Qt::UserRole).toString();
        if (!id.isEmpty())
            Q_EMIT ruleActivated(id);
    });

    m_conflictTable = createDetailTable({tr("Conflict"), tr("Winner"), tr("Losers"), tr("Reason")},
                                        QStringLiteral("tryConflictTable"), box);
    m_conflictTable->setColumnWidth(
        ConflictWhat, fm.horizontalAdvance(QStringLiteral("prefer_competing_top_choice")) + 16);
    m_conflictTable->setColumnWidth(
        ConflictWinner, fm.horizontalAdvance(QStringLiteral("Prefer search (1100)")) + 16);
    m_conflictTable->setColumnWidth(
        ConflictLosers, fm.horizontalAdvance(QStringLiteral("Prefer search (1100)")) + 16);

    m_policyEdit = new QPlainTextEdit(box);
    m_policyEdit->setObjectName(QStringLiteral("tryPolicyEdit"));
    m_policyEdit->setReadOnly(true);
    m_policyEdit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_policyEdit->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_policyEdit->setTabChangesFocus(true);
    JsonHighlighter::attach(m_policyEdit);

    m_tabs = new QTabWidget(box);
    m_tabs->setObjectName(QStringLiteral("tryResultTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(createSelectionTab(), tr("Selection"));
    m_tabs->addTab(m_matchTable, tr("Matched rules"));
    m_tabs->addTab(m_policyEdit, tr("Policy"));
    m_tabs->addTab(m_conflictTable, tr("Conflicts"));

    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(m_statusLabel);
    layout->addWidget(m_tabs, 1);
    return box;
}

QWidget *RuleTryPanel::createSelectionTab()
{
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("trySelection"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *page = new QWidget(scroll);
    auto *grid = new QGridLayout(page);
    grid->setContentsMargins(6, 6, 6, 6);
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(6);
    const QStringList names{tr("Selected:"), tr("Allowed:"),  tr("Denied:"),      tr("Preferred:"),
                            tr("Ordered:"),  tr("Fallback:"), tr("Shadow rules:")};
    for (int row = 0; row < SelectionRowCount; ++row) {
        auto *name = new QLabel(names.at(row), page);
        name->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        auto *value = new QLabel(page);
        value->setWordWrap(true);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        grid->addWidget(name, row, 0);
        grid->addWidget(value, row, 1);
        m_selectionNames << name;
        m_selectionValues << value;
    }
    QFont big = m_selectionValues[RowSelected]->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.2);
    m_selectionValues[RowSelected]->setFont(big);
    m_selectionValues[RowSelected]->setObjectName(QStringLiteral("trySelectedTool"));
    m_selectionValues[RowShadow]->setToolTip(tr("What the shadow rules alone would select "
                                                "(strict=false); shadow rules are never enforced"));
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(SelectionRowCount, 1);
    scroll->setWidget(page);
    return scroll;
}

void RuleTryPanel::setScope(const QString &tenantId, const QString &scope)
{
    if (tenantId == m_tenant && scope == m_scope)
        return;
    m_tenant = tenantId;
    m_scope = scope;
    clearResults();
}

void RuleTryPanel::setContextText(const QString &json)
{
    m_contextEdit->setPlainText(json);
}

void RuleTryPanel::setCandidatesText(const QString &candidatesText)
{
    m_candidatesEdit->setText(candidatesText);
}

void RuleTryPanel::setStrict(bool strict)
{
    m_strictCheck->setChecked(strict);
}

QString RuleTryPanel::statusText() const
{
    return m_statusLabel->text();
}

QString RuleTryPanel::selectionText() const
{
    QStringList lines;
    for (int row = 0; row < SelectionRowCount; ++row) {
        if (!m_selectionValues.at(row)->isHidden())
            lines << m_selectionNames.at(row)->text() + QLatin1Char(' ')
                         + m_selectionValues.at(row)->text();
    }
    return lines.join(QLatin1Char('\n'));
}

QString RuleTryPanel::policyText() const
{
    return m_policyEdit->toPlainText();
}

QStringList RuleTryPanel::candidates() const
{
    QJsonArray names;
    for (const QString &part : m_candidatesEdit->text().split(QLatin1Char(',')))
        names.append(part);
    return Rules::normalizeCandidates(names);
}

void RuleTryPanel::clearResults()
{
    ++m_generation; // an answer still on its way is for the old inputs
    setRunning(false);
    m_matchedIds.clear();
    m_selected.clear();
    m_errorCode.clear();
    m_titles.clear();
    m_matchTable->setRowCount(0);
    m_conflictTable->setRowCount(0);
    m_policyEdit->clear();
    for (int row = 0; row < SelectionRowCount; ++row)
        setSelectionRow(row, row <= RowOrdered ? QStringLiteral("\u2014") : QString());
    m_tabs->setTabText(1, tr("Matched rules"));
    m_tabs->setTabText(3, tr("Conflicts"));
    m_statusLabel->setStyleSheet(QString());
    m_statusLabel->setText(
        m_tenant.isEmpty()
            ? tr("No scope selected.")
            : tr("Enter a context and candidate tools, then Run. Nothing is recorded."));
}

void RuleTryPanel::setSelectionRow(int row, const QString &text, bool isError)
{
    QLabel *value = m_selectionValues.at(row);
    value->setText(text);
    value->setStyleSheet(isError ? QStringLiteral("color: %1;").arg(errorColour()) : QString());
    // Optional rows disappear when empty.
    const bool visible = row <= RowOrdered || !text.isEmpty();
    value->setVisible(visible);
    m_selectionNames.at(row)->setVisible(visible);
}

void RuleTryPanel::setRunning(bool running)
{
    m_running = running;
    m_runButton->setEnabled(!running);
}

void RuleTryPanel::run()
{
    if (m_running)
        return;
    if (m_tenant.isEmpty()) {
        showError(QStringLiteral("no_scope"), tr("No scope selected."));
        Q_EMIT finished(false);
        return;
    }
    QJsonValue context = QJsonObject();
    if (!m_contextEdit->toPlainText().trimmed().isEmpty()) {
        QString message;
        int position = -1;
        if (!parseRuleJson(m_contextEdit->toPlainText(), &context, &message, &position)
            || !context.isObject()) {
            const QString text = message.isEmpty() ? tr("context: must be a JSON object")
                                                   : tr("context: %1").arg(message);
            m_contextStatus->setText(text);
            m_contextStatus->show();
            showError(QStringLiteral("invalid_request"), text);
            Q_EMIT finished(false);
            return;
        }
    }

    const quint64 generation = ++m_generation;
    setRunning(true);
    m_statusLabel->setStyleSheet(QString());
    m_statusLabel->setText(tr("Evaluating\u2026"));
    const QJsonObject body{{QStringLiteral("tenant_id"), m_tenant},
                           {QStringLiteral("scope"), m_scope},
                           {QStringLiteral("context"), context},
                           {QStringLiteral("include_shadow"), true},
                           {QStringLiteral("limit"), EvaluateLimit}};
    const QStringList names = candidates();
    const bool strict = m_strictCheck->isChecked();
    MemoryService *service = m_service;
    m_executor->run(
        this,
        [service, body, names, strict]() {
            Outcome out;
            out.candidates = names;
            out.strict = strict;
            const auto request = RulesEvaluateRequest::fromJson(body);
            if (!request) {
                out.error = request.error();
                return out;
            }
            RequestMeta meta;
            meta.requestId = QUuid::createUuid().toString(QUuid::WithoutBraces);
            auto evaluated = service->evaluateRules(request.value(), meta);
            if (!evaluated) {
                out.error = evaluated.error();
                return out;
            }
            out.evaluation = std::move(evaluated).value();
            if (names.isEmpty())
                return out;
            // The same pure function tools/select applies, without its decision record.
            const RuleEvaluation &e = out.evaluation.evaluation;
            auto selection = Rules::applyToolPolicy(names, e.applied.policy, strict);
            if (selection)
                out.selection = selection.value();
            else
                out.selectionError = selection.error();
            if (e.shadowApplied && !e.shadow.isEmpty()) {
                auto shadow = Rules::applyToolPolicy(names, e.shadowApplied->policy, false);
                if (shadow)
                    out.shadowSelection = shadow.value();
            }
            return out;
        },
        [this, generation](const Outcome &out) {
            if (generation != m_generation)
                return;
            setRunning(false);
            showOutcome(out);
            Q_EMIT finished(!out.error && !out.selectionError);
        });
}

void RuleTryPanel::showError(const QString &code, const QString &message)
{
    m_errorCode = code;
    m_statusLabel->setStyleSheet(QStringLiteral("color: %1;").arg(errorColour()));
    m_statusLabel->setText(message);
}

void RuleTryPanel::showOutcome(const Outcome &out)
{
    m_matchedIds.clear();
    m_selected.clear();
    m_errorCode.clear();
    m_titles.clear();
    if (out.error) {
        m_matchTable->setRowCount(0);
        m_conflictTable->setRowCount(0);
        m_policyEdit->clear();
        showError(out.error->code,
                  tr("Evaluation failed: %1 (%2)").arg(out.error->message, out.error->code));
        return;
    }
    const RuleEvaluation &e = out.evaluation.evaluation;
    for (const RuleMatch &m : e.active)
        m_titles.insert(m.node.id, m.node.title.isEmpty() ? m.node.textSummary : m.node.title);
    for (const RuleMatch &m : e.shadow)
        m_titles.insert(m.node.id, m.node.title.isEmpty() ? m.node.textSummary : m.node.title);

    fillMatches(out);
    fillConflicts(out);
    fillSelection(out);
    m_policyEdit->setPlainText(ruleJsonText(e.applied.policy));

    const QString separator = QStringLiteral(" \u00b7 ");
    QString status = tr("%n rule(s) considered", nullptr, e.considered) + separator
                     + tr("%1 active, %2 shadow matched").arg(e.active.size()).arg(e.shadow.size());
    if (e.skippedInvalidThen > 0)
        status += separator + tr("%n skipped for an invalid then", nullptr, e.skippedInvalidThen);
    status += separator + tr("preview only, nothing was recorded");
    if (out.selectionError) {
        showError(out.selectionError->code, status);
    } else {
        m_statusLabel->setStyleSheet(QString());
        m_statusLabel->setText(status);
    }
    m_tabs->setCurrentIndex(0);
}

void RuleTryPanel::fillMatches(const Outcome &out)
{
    const RuleEvaluation &e = out.evaluation.evaluation;
    QVector<const RuleMatch *> rows;
    for (const RuleMatch &m : e.active)
        rows << &m;
    for (const RuleMatch &m : e.shadow)
        rows << &m;
    m_matchTable->setRowCount(int(rows.size()));
    for (int row = 0; row < rows.size(); ++row) {
        const RuleMatch &m = *rows.at(row);
        m_matchedIds << m.node.id;
        const bool active = m.status.state == QLatin1String("active");
        auto *state = cellItem(active ? tr("ACTIVE") : tr("SHADOW"));
        state->setForeground(active ? QColor(0x2e, 0x9e, 0x4f) : QColor(0xc0, 0x80, 0x20));
        m_matchTable->setItem(row, MatchState, state);
        auto *name = cellItem(ruleName(m.node.id), m.node.id);
        name->setToolTip(tr("%1\nid: %2").arg(m.node.textSummary, m.node.id));
        m_matchTable->setItem(row, MatchRule, name);
        m_matchTable->setItem(row, MatchScore, numberItem(m.rank.score));
        m_matchTable->setItem(row, MatchPriority, numberItem(m.rank.priority));
        m_matchTable->setItem(row, MatchWeight, numberItem(m.rank.weight));
        m_matchTable->setItem(row, MatchEvidence, numberItem(m.rank.evidenceScore));
        m_matchTable->setItem(row, MatchSpecificity, numberItem(m.rank.specificity));
        m_matchTable->setItem(row, MatchPaths,
                              cellItem(m.conditionPaths.isEmpty()
                                           ? tr("(matches every context)")
                                           : m.conditionPaths.join(QStringLiteral(", "))));
    }
    m_tabs->setTabText(1, tr("Matched rules (%1)").arg(rows.size()));
}

void RuleTryPanel::fillConflicts(const Outcome &out)
{
    const Rules::MergedPolicy &applied = out.evaluation.evaluation.applied;
    struct Row
    {
        QString what;
        QString winnerId;
        QString winner;
        QStringList loserIds;
        QString losers;
        QString reason;
    };
    QVector<Row> rows;
    auto scoreText
        = [](const QJsonValue &score) { return QString::number(score.toDouble(), 'g', 10); };

    // Generic merge conflicts: a scalar set by several rules; the highest rank wins.
    for (const QJsonValue &v : applied.conflictExplain) {
        const QJsonObject c = v.toObject();
        const QJsonObject w = c.value(QStringLiteral("winner")).toObject();
        Row row;
        row.what = c.value(QStringLiteral("path")).toString();
        row.winnerId = w.value(QStringLiteral("rule_node_id")).toString();
        row.winner = tr("%1 (%2)").arg(ruleName(row.winnerId),
                                       scoreText(w.value(QStringLiteral("score"))));
        QStringList losers;
        for (const QJsonValue &l : c.value(QStringLiteral("losers")).toArray()) {
            const QJsonObject lo = l.toObject();
            const QString id = lo.value(QStringLiteral("rule_node_id")).toString();
            row.loserIds << id;
            losers << tr("%1 (%2)").arg(ruleName(id), scoreText(lo.value(QStringLiteral("score"))));
        }
        row.losers
            = losers.isEmpty() ? QStringLiteral("\u2014") : losers.join(QStringLiteral(", "));
        row.reason = c.value(QStringLiteral("reason")).toString();
        rows << row;
    }
    // Tool conflicts (reference §2.5): the other contributing rules are the losers.
    for (const QJsonValue &v : applied.toolExplain.value(QStringLiteral("conflicts")).toArray()) {
        const QJsonObject c = v.toObject();
        Row row;
        row.what = c.value(QStringLiteral("code")).toString();
        row.winnerId = c.value(QStringLiteral("winner_rule_node_id")).toString();
        QStringList others;
        for (const QJsonValue &d : c.value(QStringLiteral("details")).toArray()) {
            const QJsonObject detail = d.toObject();
            const QString id = detail.value(QStringLiteral("rule_node_id")).toString();
            const QString text
                = tr("%1 (%2)").arg(ruleName(id), scoreText(detail.value(QStringLiteral("score"))));
            if (id == row.winnerId) {
                row.winner = text;
            } else {
                row.loserIds << id;
                others << text;
            }
        }
        if (row.winnerId.isEmpty())
            row.winner = tr("none (all apply)");
        else if (row.winner.isEmpty())
            row.winner = ruleName(row.winnerId);
        row.losers
            = others.isEmpty() ? QStringLiteral("\u2014") : others.join(QStringLiteral(", "));
        row.reason = c.value(QStringLiteral("message")).toString();
        rows << row;
    }

    m_conflictTable->setRowCount(int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        const Row &r = rows.at(i);
        m_conflictTable->setItem(i, ConflictWhat, cellItem(r.what));
        auto *winner = cellItem(r.winner, r.winnerId);
        winner->setToolTip(r.winnerId);
        m_conflictTable->setItem(i, ConflictWinner, winner);
        auto *losers = cellItem(r.losers);
        losers->setToolTip(r.loserIds.join(QLatin1Char('\n')));
        m_conflictTable->setItem(i, ConflictLosers, losers);
        m_conflictTable->setItem(i, ConflictReason, cellItem(r.reason));
    }
    m_tabs->setTabText(3, tr("Conflicts (%1)").arg(rows.size()));
}

void RuleTryPanel::fillSelection(const Outcome &out)
{
    for (int row = 0; row < SelectionRowCount; ++row)
        setSelectionRow(row, row <= RowOrdered ? QStringLiteral("\u2014") : QString());
    if (out.candidates.isEmpty()) {
        setSelectionRow(RowSelected, tr("Enter candidate tools to preview a selection."));
        return;
    }
    if (out.selectionError) {
        m_errorCode = out.selectionError->code;
        setSelectionRow(RowSelected,
                        tr("%1: %2").arg(out.selectionError->code, out.selectionError->message),
                        true);
        setSelectionRow(RowAllowed, tr("none of %1").arg(RuleDisplay::toolList(out.candidates)));
        return;
    }
    const Rules::ToolSelection &s = *out.selection;
    m_selected = s.selected;
    setSelectionRow(RowSelected, s.selected.isEmpty() ? tr("(none)") : s.selected,
                    s.selected.isEmpty());
    setSelectionRow(RowAllowed, RuleDisplay::toolList(s.allowed));
    const QJsonObject denyWinners
        = out.evaluation.evaluation.applied.toolExplain.value(QStringLiteral("winners"))
              .toObject()
              .value(QStringLiteral("deny_by_tool"))
              .toObject();
    QStringList denied;
    for (const QJsonValue &v : s.denied) {
        const QJsonObject d = v.toObject();
        const QString name = d.value(QStringLiteral("name")).toString();
        QString line = tr("%1: %2").arg(
            name, RuleDisplay::deniedReasonText(d.value(QStringLiteral("reason")).toString()));
        const QString by = denyWinners.value(name).toString();
        if (!by.isEmpty())
            line += QLatin1Char(' ') + tr("(%1)").arg(ruleName(by));
        denied << line;
    }
    setSelectionRow(RowDenied,
                    denied.isEmpty() ? QStringLiteral("\u2014") : denied.join(QLatin1Char('\n')));
    setSelectionRow(RowPreferred, RuleDisplay::orderedList(s.preferred));
    setSelectionRow(RowOrdered, RuleDisplay::orderedList(s.ordered));
    setSelectionRow(RowFallback, RuleDisplay::fallbackText(s.fallback));
    if (out.shadowSelection) {
        const QString shadowPick = out.shadowSelection->selected.isEmpty()
                                       ? tr("(none)")
                                       : out.shadowSelection->selected;
        setSelectionRow(RowShadow,
                        shadowPick == s.selected
                            ? tr("would also select %1").arg(shadowPick)
                            : tr("would select %1 instead (not enforced)").arg(shadowPick));
    }
}

QString RuleTryPanel::ruleName(const QString &ruleId) const
{
    return RuleDisplay::ruleName(ruleId, m_titles);
}

} // namespace MemoryGraph::Ui
