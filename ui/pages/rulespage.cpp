#include "ui/pages/rulespage.h"

#include "service/memoryservice.h"
#include "ui/models/ruletablemodel.h"
#include "ui/widgets/recordtable.h"
#include "ui/widgets/ruleeditor.h"
#include "ui/widgets/ruletrypanel.h"

#include <QAction>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QUuid>
#include <QVBoxLayout>

#include <algorithm>

namespace MemoryGraph::Ui {

namespace {

QString newClientId()
{
    return QStringLiteral("rule-") + QUuid::createUuid().toString(QUuid::Id128).left(12);
}

RequestMeta consoleMeta()
{
    RequestMeta meta;
    // A request id makes console edits traceable in the commit log like any agent call.
    meta.requestId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    return meta;
}

} // namespace

// A decision moves its rules' "last matched" time without a commit.
RulesPage::RulesPage(MemoryService *service, UiExecutor *executor, QWidget *parent)
    : PageSkeleton(service, executor, FollowDecisions, parent)
{
    // Created in keyboard order (the focus chain follows creation): filter bar, rules table,
    // editor, then Try it. The filter bar also comes first because the panels ask its scope
    // picker for the current scope.
    QWidget *filterBar = createFilterBar();
    QWidget *rulesPanel = createRulesPanel();

    m_editor = new RuleEditor(this);
    m_editor->setObjectName(QStringLiteral("ruleEditor"));
    connect(m_editor, &RuleEditor::saveRequested, this, &RulesPage::saveRule);
    connect(m_editor, &RuleEditor::stateChangeRequested, this, &RulesPage::onStateRequested);
    auto *editorBox = new QGroupBox(tr("Rule"), this);
    auto *editorLayout = new QVBoxLayout(editorBox);
    editorLayout->addWidget(m_editor);

    m_tryPanel = new RuleTryPanel(service, executor, this);
    m_tryPanel->setObjectName(QStringLiteral("ruleTryPanel"));
    connect(m_tryPanel, &RuleTryPanel::ruleActivated, this, &RulesPage::selectRule);
    auto *tryBox = new QGroupBox(
        tr("Try it \u2014 preview the rules for a context (nothing is recorded)"), this);
    auto *tryLayout = new QVBoxLayout(tryBox);
    tryLayout->addWidget(m_tryPanel);

    auto *left = new QSplitter(Qt::Vertical, this);
    left->setChildrenCollapsible(false);
    left->addWidget(rulesPanel);
    left->addWidget(tryBox);
    left->setStretchFactor(0, 1);
    left->setStretchFactor(1, 1);
    left->setSizes({330, 400});

    auto *columns = new QSplitter(Qt::Horizontal, this);
    columns->setChildrenCollapsible(false);
    columns->addWidget(left);
    columns->addWidget(editorBox);
    columns->setStretchFactor(0, 5);
    columns->setStretchFactor(1, 3);
    columns->setSizes({790, 460}); // tuned for a 1280-pixel-wide window

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(filterBar);
    layout->addWidget(columns, 1);
    // The picker loads the scope list by itself; the rules follow from its signals.
}

QWidget *RulesPage::createFilterBar()
{
    auto *bar = new QWidget(this);
    QHBoxLayout *layout = createScopeBar(bar, tr("Reload scopes and rules (%1)"));

    m_filterEdit = new QLineEdit(bar);
    m_filterEdit->setObjectName(QStringLiteral("ruleFilterEdit"));
    m_filterEdit->setPlaceholderText(tr("Filter by title, summary, id or target"));
    m_filterEdit->setClearButtonEnabled(true);
    connect(m_filterEdit, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_filter->setTextFilter(text);
        updateCount();
    });
    auto *filterLabel = new QLabel(tr("&Filter:"), bar);
    filterLabel->setBuddy(m_filterEdit);
    auto *findAction = new QAction(tr("Find rule"), this);
    findAction->setShortcut(QKeySequence::Find);
    findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(findAction, &QAction::triggered, this, [this]() {
        m_filterEdit->setFocus(Qt::ShortcutFocusReason);
        m_filterEdit->selectAll();
    });
    addAction(findAction);

    m_stateCombo = createFilterCombo(tr("All states"),
                                     {QStringLiteral("draft"), QStringLiteral("shadow"),
                                      QStringLiteral("active"), QStringLiteral("disabled")},
                                     QStringLiteral("ruleStateFilter"));
    for (int i = 1; i < m_stateCombo->count(); ++i)
        m_stateCombo->setItemText(i, m_stateCombo->itemData(i).toString().toUpper());
    m_stateCombo->setToolTip(tr("Show rules in one state only"));
    connect(m_stateCombo, &QComboBox::currentIndexChanged, this, [this]() {
        m_filter->setStateFilter(m_stateCombo->currentData().toString());
        updateCount();
    });
    m_ruleScopeCombo = createFilterCombo(
        tr("All rule scopes"),
        {QStringLiteral("global"), QStringLiteral("team"), QStringLiteral("agent")},
        QStringLiteral("ruleScopeFilter"));
    m_ruleScopeCombo->setToolTip(tr("Show global, team or agent rules only"));
    connect(m_ruleScopeCombo, &QComboBox::currentIndexChanged, this, [this]() {
        m_filter->setRuleScopeFilter(m_ruleScopeCombo->currentData().toString());
        updateCount();
    });

    auto *newAction = new QAction(tr("&New rule"), this);
    newAction->setShortcut(QKeySequence::New);
    newAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    newAction->setToolTip(tr("Start a new rule in this scope (%1); it is saved in SHADOW")
                              .arg(newAction->shortcut().toString(QKeySequence::NativeText)));
    connect(newAction, &QAction::triggered, this, &RulesPage::newRule);
    addAction(newAction);
    m_newButton
        = new QPushButton(style()->standardIcon(QStyle::SP_FileIcon), newAction->text(), bar);
    m_newButton->setObjectName(QStringLiteral("newRuleButton"));
    m_newButton->setToolTip(newAction->toolTip());
    connect(m_newButton, &QPushButton::clicked, newAction, &QAction::trigger);

    layout->addWidget(filterLabel);
    layout->addWidget(m_filterEdit, 1);
    layout->addWidget(m_stateCombo);
    layout->addWidget(m_ruleScopeCombo);
    layout->addSpacing(16);
    layout->addWidget(m_newButton);
    return bar;
}

QWidget *RulesPage::createRulesPanel()
{
    m_model = new RuleTableModel(this);
    m_filter = new RuleFilterModel(this);
    m_filter->setSourceModel(m_model);

    m_view = createRecordTable(m_filter, QStringLiteral("ruleTable"), this);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(int(RuleTableModel::Column::Title), Qt::AscendingOrder);
    // Narrow columns fit to their header or a typical value, so that all nine fit beside the
    // editor at 1280 pixels; the rule's name takes the width the others leave.
    using Column = RuleTableModel::Column;
    QHeaderView *header = m_view->horizontalHeader();
    header->setSectionResizeMode(int(Column::Title), QHeaderView::Stretch);
    header->setMinimumSectionSize(m_view->fontMetrics().horizontalAdvance(QStringLiteral("Weight"))
                                  + 14);
    fitColumn(m_view, int(Column::State), QStringLiteral("DISABLED"));
    fitColumn(m_view, int(Column::Scope), QStringLiteral("global"));
    fitColumn(m_view, int(Column::Target), QStringLiteral("support-t2"));
    fitColumn(m_view, int(Column::Priority), QStringLiteral("-100"));
    fitColumn(m_view, int(Column::Weight), QStringLiteral("1.00"));
    fitColumn(m_view, int(Column::Positive), QStringLiteral("999"));
    fitColumn(m_view, int(Column::Negative), QStringLiteral("999"));
    fitColumn(m_view, int(Column::LastMatched), QStringLiteral("00-00 00:00"));
    header->setStretchLastSection(false);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &RulesPage::onCurrentRowChanged);

    m_countLabel = new QLabel(this);
    m_countLabel->setObjectName(QStringLiteral("ruleCountLabel"));
    QGroupBox *box = createListBox(tr("Rules"), m_view, m_countLabel);
    updateCount();
    return box;
}

QString RulesPage::currentRuleId() const
{
    return m_editor->ruleId();
}

void RulesPage::showRule(const QString &tenantId, const QString &scope, const QString &ruleId)
{
    if (tenantId == currentTenant() && scope == currentScope()) {
        selectRule(ruleId);
        return;
    }
    if (!confirmDiscard())
        return;
    m_pendingRuleId = ruleId;
    m_wantedTenant = tenantId;
    m_wantedScope = scope;
    selectScope(tenantId, scope);
}

void RulesPage::selectRule(const QString &ruleId)
{
    if (m_model->rowOf(ruleId) < 0) {
        // Not listed yet (just written elsewhere): select it when the next list arrives.
        m_pendingRuleId = ruleId;
        loadRules();
        return;
    }
    if (ruleId != m_editor->ruleId() && !confirmDiscard())
        return;
    selectRow(ruleId);
    if (ruleId != m_editor->ruleId() || !m_editor->isDirty())
        showRuleInEditor(ruleId);
}

void RulesPage::newRule()
{
    if (currentTenant().isEmpty()) {
        setStatus(tr("Select a scope first."), true);
        return;
    }
    if (!confirmDiscard())
        return;
    {
        const QSignalBlocker blocker(m_view->selectionModel());
        m_view->selectionModel()->clear();
    }
    m_editor->startNewRule(newClientId());
    m_editor->titleEdit()->setFocus(Qt::OtherFocusReason);
    setStatus(tr("New rule: fill it in and save; it starts in SHADOW."));
}

void RulesPage::saveRule()
{
    if (!m_editor->hasRule() || !m_editor->isValid() || !m_editor->isDirty())
        return;
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    if (tenant.isEmpty())
        return;
    const bool isNew = m_editor->isNewRule();
    const QJsonObject body{
        {QStringLiteral("tenant_id"), tenant},
        {QStringLiteral("scope"), scope},
        {QStringLiteral("input_text"), isNew ? QStringLiteral("new rule from the admin console")
                                             : QStringLiteral("rule edit from the admin console")},
        {QStringLiteral("nodes"), QJsonArray{m_editor->nodeJson()}}};
    const QString name = m_editor->titleEdit()->text().trimmed();
    const quint64 generation = ++m_actionGeneration;
    m_editor->setBusy(true);
    setStatus(tr("Saving\u2026"));
    callService(
        [body](MemoryService *service) -> Result<WriteResult> {
            // Parsed exactly like an HTTP body, so the console cannot write what an agent
            // could not.
            const auto request = WriteRequest::fromJson(body, service->config().maxTextLength);
            if (!request)
                return request.error();
            return service->write(request.value(), consoleMeta());
        },
        [this, generation, name](const Result<WriteResult> &result) {
            if (generation != m_actionGeneration)
                return;
            m_editor->setBusy(false);
            if (!result || result.value().nodes.isEmpty()) {
                const QString message
                    = result ? tr("the write returned no node")
                             : tr("%1 (%2)").arg(result.error().message, result.error().code);
                m_editor->setStatusMessage(tr("Save failed: %1").arg(message), true);
                setStatus(tr("Save failed: %1").arg(message), true);
                Q_EMIT ruleSaved(false, QString());
                return;
            }
            const QString id = result.value().nodes.first().id;
            m_pendingRuleId = id;
            setStatus(result.value().replayed ? tr("\u201c%1\u201d is unchanged.").arg(name)
                                              : tr("Saved \u201c%1\u201d (commit %2).")
                                                    .arg(name, result.value().commitId.left(8)));
            loadRules();
            Q_EMIT ruleSaved(true, id);
        },
        UiExecutor::Lane::Changes);
}

void RulesPage::toggleRuleState()
{
    if (!m_editor->hasRule() || m_editor->isNewRule() || m_editor->isDirty())
        return;
    onStateRequested(m_editor->ruleId(), m_editor->ruleState() == QLatin1String("shadow")
                                             ? QStringLiteral("active")
                                             : QStringLiteral("shadow"));
}

void RulesPage::onStateRequested(const QString &ruleId, const QString &state)
{
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    if (tenant.isEmpty() || ruleId.isEmpty())
        return;
    const QJsonObject body{
        {QStringLiteral("tenant_id"), tenant},
        {QStringLiteral("scope"), scope},
        {QStringLiteral("rule_node_id"), ruleId},
        {QStringLiteral("state"), state.toUpper()},
        {QStringLiteral("input_text"), QStringLiteral("state change from the admin console")}};
    const QString name = m_editor->titleEdit()->text().trimmed();
    const quint64 generation = ++m_actionGeneration;
    m_editor->setBusy(true);
    setStatus(tr("Changing the state\u2026"));
    callService(
        [body](MemoryService *service) -> Result<RuleStateOutcome> {
            const auto request = RuleStateRequest::fromJson(body);
            if (!request)
                return request.error();
            return service->setRuleState(request.value(), consoleMeta());
        },
        [this, generation, ruleId, state, name](const Result<RuleStateOutcome> &result) {
            if (generation != m_actionGeneration)
                return;
            m_editor->setBusy(false);
            if (!result) {
                const QString message
                    = tr("%1 (%2)").arg(result.error().message, result.error().code);
                m_editor->setStatusMessage(tr("State change failed: %1").arg(message), true);
                setStatus(tr("State change failed: %1").arg(message), true);
                Q_EMIT ruleStateChanged(false, ruleId, state);
                return;
            }
            m_pendingRuleId = ruleId;
            setStatus(tr("\u201c%1\u201d is now %2.").arg(name, state.toUpper()));
            loadRules();
            Q_EMIT ruleStateChanged(true, ruleId, state);
        },
        UiExecutor::Lane::Changes);
}

void RulesPage::setStateFilter(const QString &state)
{
    m_stateCombo->setCurrentIndex(std::max(0, m_stateCombo->findData(state)));
}

void RulesPage::setRuleScopeFilter(const QString &ruleScope)
{
    m_ruleScopeCombo->setCurrentIndex(std::max(0, m_ruleScopeCombo->findData(ruleScope)));
}

void RulesPage::setTextFilter(const QString &text)
{
    m_filterEdit->setText(text);
}

void RulesPage::loadRules()
{
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    if (tenant.isEmpty()) {
        ++m_rulesGeneration; // a list still on its way belongs to the old scope
        applyRules({});
        return;
    }
    loadContent(
        m_rulesGeneration, tr("Loading rules failed: %1"),
        [tenant, scope](MemoryService *service) { return service->listRules(tenant, scope); },
        [this](const QVector<RuleSummary> &rules) { applyRules(rules); });
}

void RulesPage::applyRules(const QVector<RuleSummary> &rules)
{
    QString keep = m_pendingRuleId;
    const bool pending = !keep.isEmpty();
    if (!pending && m_editor->hasRule() && !m_editor->isNewRule())
        keep = m_editor->ruleId();

    m_restoringSelection = true;
    m_model->setRules(rules);
    m_restoringSelection = false;
    m_loadedCount = int(rules.size());

    const int row = keep.isEmpty() ? -1 : m_model->rowOf(keep);
    if (pending && row >= 0) {
        m_pendingRuleId.clear();
        m_wantedTenant.clear();
        m_wantedScope.clear();
    } else if (pending
               && (m_wantedTenant.isEmpty()
                   || (m_wantedTenant == currentTenant() && m_wantedScope == currentScope()))) {
        // Asked for a rule this scope does not have (any more).
        m_pendingRuleId.clear();
        m_wantedTenant.clear();
        m_wantedScope.clear();
        setStatus(tr("Rule %1 is not in this scope.").arg(keep), true);
    }

    if (row >= 0) {
        selectRow(keep);
        // Show the stored version (a new state, new counts, a saved edit) unless the operator
        // is in the middle of editing it.
        if (pending || m_editor->ruleId() != keep || !m_editor->isDirty())
            m_editor->setRule(m_model->rule(row));
    } else if (m_editor->hasRule() && !m_editor->isNewRule() && !m_editor->isDirty()) {
        m_editor->clearRule(tr("The rule is no longer in this scope."));
    }
    updateCount();
    Q_EMIT rulesLoaded(m_loadedCount);
}

void RulesPage::onScopeChanged()
{
    // Unsaved edits belong to the old scope; the operator chose to leave it.
    m_editor->clearRule(currentTenant().isEmpty()
                            ? tr("No scope selected.")
                            : tr("Select a rule to edit it, or create a new one."));
    m_tryPanel->setScope(currentTenant(), currentScope());
    setStatus(QString());
    loadRules();
}

void RulesPage::onScopeReloaded()
{
    loadRules();
}

void RulesPage::onCurrentRowChanged(const QModelIndex &current, const QModelIndex &previous)
{
    if (m_restoringSelection || !current.isValid())
        return;
    const QString id = current.data(RuleTableModel::RuleIdRole).toString();
    if (id == m_editor->ruleId() && !m_editor->isNewRule())
        return;
    if (!confirmDiscard()) {
        // Stay on the rule being edited.
        m_restoringSelection = true;
        if (previous.isValid())
            m_view->selectionModel()->setCurrentIndex(previous, QItemSelectionModel::ClearAndSelect
                                                                    | QItemSelectionModel::Rows);
        else
            m_view->selectionModel()->clear();
        m_restoringSelection = false;
        return;
    }
    showRuleInEditor(id);
}

void RulesPage::showRuleInEditor(const QString &ruleId)
{
    const int row = m_model->rowOf(ruleId);
    if (row < 0)
        m_editor->clearRule(tr("Select a rule to edit it, or create a new one."));
    else
        m_editor->setRule(m_model->rule(row));
}

bool RulesPage::confirmDiscard()
{
    if (!m_editor->isDirty())
        return true;
    const QString name = m_editor->titleEdit()->text().trimmed();
    const auto answer = QMessageBox::question(
        this, tr("Discard changes?"),
        name.isEmpty() ? tr("The rule has unsaved changes. Discard them?")
                       : tr("\u201c%1\u201d has unsaved changes. Discard them?").arg(name),
        QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
    return answer == QMessageBox::Discard;
}

void RulesPage::selectRow(const QString &ruleId)
{
    const int sourceRow = m_model->rowOf(ruleId);
    if (sourceRow < 0)
        return;
    QModelIndex index = m_filter->mapFromSource(m_model->index(sourceRow, 0));
    if (!index.isValid()) {
        // Hidden by a filter: the operator asked for this rule, so show everything.
        const QSignalBlocker a(m_stateCombo);
        const QSignalBlocker b(m_ruleScopeCombo);
        const QSignalBlocker c(m_filterEdit);
        m_stateCombo->setCurrentIndex(0);
        m_ruleScopeCombo->setCurrentIndex(0);
        m_filterEdit->clear();
        m_filter->setStateFilter(QString());
        m_filter->setRuleScopeFilter(QString());
        m_filter->setTextFilter(QString());
        updateCount();
        index = m_filter->mapFromSource(m_model->index(sourceRow, 0));
    }
    m_restoringSelection = true;
    m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect
                                                         | QItemSelectionModel::Rows);
    m_restoringSelection = false;
    m_view->scrollTo(index);
}

void RulesPage::updateCount()
{
    const int shown = m_filter->rowCount();
    if (currentTenant().isEmpty())
        m_countLabel->setText(tr("No scope selected"));
    else if (m_loadedCount == 0)
        m_countLabel->setText(tr("No rules in this scope"));
    else if (shown == m_loadedCount)
        m_countLabel->setText(tr("%n rule(s)", nullptr, m_loadedCount));
    else
        m_countLabel->setText(tr("%1 of %n rule(s) shown", nullptr, m_loadedCount).arg(shown));
}

} // namespace MemoryGraph::Ui
