#include "ui/pages/decisionspage.h"

#include "service/memoryservice.h"
#include "ui/asynccall.h"
#include "ui/models/decisiontablemodel.h"
#include "ui/pages/pageskeleton.h"
#include "ui/widgets/decisiondetail.h"
#include "ui/widgets/scopepicker.h"

#include <QAction>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace MemoryGraph::Ui {

namespace {

constexpr int FilterDelayMs = 250;

qint64 sinceSeconds(DecisionsPage::Since since)
{
    switch (since) {
    case DecisionsPage::Since::LastHour:
        return 3600;
    case DecisionsPage::Since::LastDay:
        return 24 * 3600;
    case DecisionsPage::Since::LastWeek:
        return 7 * 24 * 3600;
    case DecisionsPage::Since::All:
        break;
    }
    return 0;
}

} // namespace

/// One list load: the decisions and the scope's rule titles (for links), read together.
struct DecisionsPage::Loaded
{
    std::optional<Error> error;
    QVector<DecisionRecord> decisions;
    QHash<QString, QString> ruleTitles;
};

DecisionsPage::DecisionsPage(MemoryService *service, QWidget *parent)
    : QWidget(parent), m_service(service)
{
    Q_ASSERT(m_service);
    // Two workers: the feedback of the selected decision must not wait behind a list load.
    m_pool.setMaxThreadCount(2);

    m_filterTimer = new QTimer(this);
    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(FilterDelayMs);
    connect(m_filterTimer, &QTimer::timeout, this, &DecisionsPage::loadDecisions);

    // Decisions arrive without a commit; a first one in a new scope comes with a commit.
    m_skeleton = new PageSkeleton(m_service, this, PageSkeleton::FollowDecisions);

    // Created in keyboard order (the focus chain follows creation): filter bar, list, detail.
    // The filter bar also comes first because the panels ask its scope picker for the scope.
    QWidget *filterBar = createFilterBar();
    QWidget *listPanel = createListPanel();

    m_detail = new DecisionDetail(this);
    m_detail->setObjectName(QStringLiteral("decisionDetail"));
    m_detail->setMinimumWidth(380);
    connect(m_detail, &DecisionDetail::ruleRequested, this, [this](const QString &ruleId) {
        Q_EMIT ruleRequested(currentTenant(), currentScope(), ruleId);
    });
    auto *detailBox = new QGroupBox(tr("Decision"), this);
    auto *detailLayout = new QVBoxLayout(detailBox);
    detailLayout->addWidget(m_detail);

    auto *columns = new QSplitter(Qt::Horizontal, this);
    columns->setChildrenCollapsible(false);
    columns->addWidget(listPanel);
    columns->addWidget(detailBox);
    columns->setStretchFactor(0, 1);
    columns->setStretchFactor(1, 1);
    columns->setSizes({665, 575}); // tuned for a 1280-pixel-wide window

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(filterBar);
    layout->addWidget(columns, 1);

    m_detail->showMessage(tr("Select a decision to see how it was made.\n\nDecisions are recorded "
                             "by tools/select and tools/feedback calls."));
}

DecisionsPage::~DecisionsPage()
{
    // Workers may still be inside the facade; let them finish before members go away.
    m_pool.waitForDone();
}

QWidget *DecisionsPage::createFilterBar()
{
    auto *bar = new QWidget(this);

    ScopePicker *picker = m_skeleton->scopePicker();
    connect(picker, &ScopePicker::scopeChanged, this, &DecisionsPage::onScopeChanged);
    connect(picker, &ScopePicker::scopesReloaded, this, &DecisionsPage::loadDecisions);

    auto *refreshAction = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("Refresh"), this);
    refreshAction->setShortcut(QKeySequence::Refresh);
    refreshAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    refreshAction->setToolTip(tr("Reload scopes and decisions (%1)")
                                  .arg(refreshAction->shortcut().toString(QKeySequence::NativeText)));
    connect(refreshAction, &QAction::triggered, this, &DecisionsPage::refresh);
    addAction(refreshAction);
    m_refreshButton = new QToolButton(bar);
    m_refreshButton->setDefaultAction(refreshAction);
    m_refreshButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    m_runEdit = new QLineEdit(bar);
    m_runEdit->setObjectName(QStringLiteral("runFilterEdit"));
    m_runEdit->setPlaceholderText(tr("any run"));
    m_runEdit->setToolTip(tr("Only decisions of this run_id (exact)"));
    m_runEdit->setClearButtonEnabled(true);
    auto *runLabel = new QLabel(tr("&Run:"), bar);
    runLabel->setBuddy(m_runEdit);

    m_toolEdit = new QLineEdit(bar);
    m_toolEdit->setObjectName(QStringLiteral("toolFilterEdit"));
    m_toolEdit->setPlaceholderText(tr("any tool"));
    m_toolEdit->setToolTip(tr("Only decisions that selected this tool (exact)"));
    m_toolEdit->setClearButtonEnabled(true);
    auto *toolLabel = new QLabel(tr("&Tool:"), bar);
    toolLabel->setBuddy(m_toolEdit);

    for (QLineEdit *edit : {m_runEdit, m_toolEdit}) {
        connect(edit, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
        // Enter applies at once instead of waiting for the typing pause.
        connect(edit, &QLineEdit::returnPressed, this, &DecisionsPage::loadDecisions);
    }

    m_sinceCombo = new QComboBox(bar);
    m_sinceCombo->setObjectName(QStringLiteral("sinceCombo"));
    m_sinceCombo->addItem(tr("Last hour"), int(Since::LastHour));
    m_sinceCombo->addItem(tr("Last day"), int(Since::LastDay));
    m_sinceCombo->addItem(tr("Last week"), int(Since::LastWeek));
    m_sinceCombo->addItem(tr("All time"), int(Since::All));
    m_sinceCombo->setCurrentIndex(m_sinceCombo->findData(int(Since::All)));
    connect(m_sinceCombo, &QComboBox::currentIndexChanged, this, &DecisionsPage::loadDecisions);
    auto *sinceLabel = new QLabel(tr("S&ince:"), bar);
    sinceLabel->setBuddy(m_sinceCombo);

    auto *layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(picker);
    layout->addWidget(m_refreshButton);
    layout->addSpacing(16);
    layout->addWidget(runLabel);
    layout->addWidget(m_runEdit, 2);
    layout->addWidget(toolLabel);
    layout->addWidget(m_toolEdit, 1);
    layout->addWidget(sinceLabel);
    layout->addWidget(m_sinceCombo);
    return bar;
}

QWidget *DecisionsPage::createListPanel()
{
    auto *box = new QGroupBox(tr("Decisions (newest first)"), this);

    m_model = new DecisionTableModel(this);
    m_view = new QTableView(box);
    m_view->setObjectName(QStringLiteral("decisionTable"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 8);
    QHeaderView *header = m_view->horizontalHeader();
    header->setHighlightSections(false);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    // Columns sized to their header or a typical value, whichever is wider; the hash stretches.
    using Column = DecisionTableModel::Column;
    const QFontMetrics fm = m_view->fontMetrics();
    auto fit = [&](Column column, const QString &sample) {
        const QString title = m_model->headerData(int(column), Qt::Horizontal).toString();
        header->resizeSection(int(column), std::max(fm.horizontalAdvance(title) + 22,
                                                    fm.horizontalAdvance(sample) + 14));
    };
    fit(Column::Time, QStringLiteral("0000-00-00 00:00:00"));
    fit(Column::Run, QStringLiteral("run-2024-05"));
    fit(Column::SelectedTool, QStringLiteral("code_interpreter"));
    fit(Column::Candidates, QStringLiteral("200"));
    fit(Column::SourceRules, QStringLiteral("20"));
    header->setStretchLastSection(true);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &DecisionsPage::onCurrentRowChanged);

    m_countLabel = new QLabel(box);
    m_countLabel->setObjectName(QStringLiteral("decisionCountLabel"));
    QLabel *statusLine = m_skeleton->statusLine();
    statusLine->setObjectName(QStringLiteral("decisionsStatus"));
    statusLine->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    statusLine->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto *footer = new QHBoxLayout;
    footer->addWidget(m_countLabel);
    footer->addWidget(statusLine, 1);

    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_view, 1);
    layout->addLayout(footer);
    updateCount();
    return box;
}

QString DecisionsPage::currentTenant() const
{
    return m_skeleton->currentTenant();
}

QString DecisionsPage::currentScope() const
{
    return m_skeleton->currentScope();
}

ScopePicker *DecisionsPage::scopePicker() const
{
    return m_skeleton->scopePicker();
}

QString DecisionsPage::currentDecisionId() const
{
    return m_detail->decisionId();
}

QString DecisionsPage::statusText() const
{
    return m_skeleton->statusText();
}

void DecisionsPage::refresh()
{
    m_skeleton->refresh();
}

void DecisionsPage::selectScope(const QString &tenantId, const QString &scope)
{
    m_skeleton->selectScope(tenantId, scope);
}

void DecisionsPage::selectDecision(const QString &decisionId)
{
    const int row = m_model->rowOf(decisionId);
    if (row < 0)
        return;
    m_view->selectRow(row);   // the selection change shows the detail
    m_view->scrollTo(m_model->index(row, 0));
}

void DecisionsPage::setRunFilter(const QString &runId)
{
    m_runEdit->setText(runId);
    loadDecisions();
}

void DecisionsPage::setToolFilter(const QString &tool)
{
    m_toolEdit->setText(tool);
    loadDecisions();
}

void DecisionsPage::setSince(Since since)
{
    m_sinceCombo->setCurrentIndex(m_sinceCombo->findData(int(since)));
}

void DecisionsPage::loadDecisions()
{
    m_filterTimer->stop();
    const quint64 generation = ++m_listGeneration;
    DecisionQuery query;
    query.tenantId = currentTenant();
    query.scope = currentScope();
    if (query.tenantId.isEmpty()) {
        applyLoaded(Loaded());
        return;
    }
    query.runId = m_runEdit->text().trimmed();
    query.tool = m_toolEdit->text().trimmed();
    const qint64 seconds = sinceSeconds(Since(m_sinceCombo->currentData().toInt()));
    if (seconds > 0)
        query.since = QDateTime::currentDateTimeUtc().addSecs(-seconds);
    query.limit = ListLimit;

    MemoryService *service = m_service;
    runAsync(this, &m_pool,
             [service, query]() {
                 Loaded out;
                 auto decisions = service->listDecisions(query);
                 if (!decisions) {
                     out.error = decisions.error();
                     return out;
                 }
                 out.decisions = decisions.value();
                 // Titles are a nicety for the links; a failure here only costs the names.
                 if (auto rules = service->listRules(query.tenantId, query.scope)) {
                     for (const RuleSummary &r : rules.value())
                         out.ruleTitles.insert(r.node.id, r.node.title.isEmpty() ? r.node.textSummary
                                                                                 : r.node.title);
                 }
                 return out;
             },
             [this, generation](const Loaded &loaded) {
                 if (generation == m_listGeneration)
                     applyLoaded(loaded);
             });
}

void DecisionsPage::applyLoaded(const Loaded &loaded)
{
    if (loaded.error) {
        const QString text = tr("Loading decisions failed: %1").arg(loaded.error->message);
        m_skeleton->setStatus(text, true);
        Q_EMIT loadFailed(text);
        return;
    }
    m_skeleton->setStatus(QString());
    const QString keep = m_selectedId;
    m_restoringSelection = true;
    m_model->setDecisions(loaded.decisions);
    m_restoringSelection = false;
    m_detail->setRuleTitles(loaded.ruleTitles);

    const int row = keep.isEmpty() ? -1 : m_model->rowOf(keep);
    if (row >= 0) {
        m_restoringSelection = true;
        m_view->selectRow(row);
        m_restoringSelection = false;
        // Same decision: new feedback may have been linked to it.
        showDecisionAt(row);
    } else if (!keep.isEmpty()) {
        m_selectedId.clear();
        ++m_feedbackGeneration;
        m_detail->showMessage(tr("The selected decision is not in the filtered list."));
    }
    updateCount();
    Q_EMIT decisionsLoaded(m_model->rowCount());
}

void DecisionsPage::onScopeChanged()
{
    m_selectedId.clear();
    ++m_feedbackGeneration; // a feedback load for the old scope is now stale
    m_detail->showMessage(currentTenant().isEmpty() ? tr("No scope selected.")
                                                    : tr("Select a decision to see how it was made."));
    loadDecisions();
}

void DecisionsPage::onCurrentRowChanged(const QModelIndex &current)
{
    if (m_restoringSelection || !current.isValid())
        return;
    showDecisionAt(current.row());
}

void DecisionsPage::showDecisionAt(int row)
{
    const DecisionRecord &d = m_model->decision(row);
    m_selectedId = d.id;
    m_detail->showDecision(d);
    loadFeedback(d.id);
}

void DecisionsPage::loadFeedback(const QString &decisionId)
{
    const quint64 generation = ++m_feedbackGeneration;
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    MemoryService *service = m_service;
    runAsync(this, &m_pool,
             [service, tenant, scope, decisionId]() {
                 return service->feedbackForDecision(tenant, scope, decisionId);
             },
             [this, generation](const Result<QVector<FeedbackRecord>> &result) {
                 if (generation != m_feedbackGeneration)
                     return;
                 if (!result)
                     m_detail->setFeedbackMessage(tr("Loading feedback failed: %1").arg(result.error().message));
                 else
                     m_detail->setFeedback(result.value());
             });
}

void DecisionsPage::updateCount()
{
    const int count = m_model->rowCount();
    if (currentTenant().isEmpty())
        m_countLabel->setText(tr("No scope selected"));
    else if (count == 0)
        m_countLabel->setText(tr("No decisions match"));
    else if (count >= ListLimit)
        m_countLabel->setText(tr("Newest %1 decisions").arg(count));
    else
        m_countLabel->setText(tr("%n decision(s)", nullptr, count));
}

} // namespace MemoryGraph::Ui
