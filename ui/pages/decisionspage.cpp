#include "ui/pages/decisionspage.h"

#include "service/memoryservice.h"
#include "ui/debounce.h"
#include "ui/models/decisiontablemodel.h"
#include "ui/widgets/decisiondetail.h"
#include "ui/widgets/recordtable.h"
#include "ui/widgets/ruledisplay.h"

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
    case DecisionsPage::Since::LastHour: return 3600;
    case DecisionsPage::Since::LastDay: return 24 * 3600;
    case DecisionsPage::Since::LastWeek: return 7 * 24 * 3600;
    case DecisionsPage::Since::All: break;
    }
    return 0;
}

} // namespace

/// One list load: the decisions and the scope's rule titles (for links), read together.
struct DecisionsPage::Loaded
{
    QVector<DecisionRecord> decisions;
    QHash<QString, QString> ruleTitles;
};

// Decisions arrive without a commit; a first one in a new scope comes with a commit.
DecisionsPage::DecisionsPage(MemoryService *service, UiExecutor *executor, QWidget *parent)
    : PageSkeleton(service, executor, FollowDecisions, parent)
{
    m_filterTimer = createDebounceTimer(this, FilterDelayMs, [this]() { loadDecisions(); });

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

QWidget *DecisionsPage::createFilterBar()
{
    auto *bar = new QWidget(this);
    QHBoxLayout *layout = createScopeBar(bar, tr("Reload scopes and decisions (%1)"));

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
    m_model = new DecisionTableModel(this);
    m_view = createRecordTable(m_model, QStringLiteral("decisionTable"), this);
    // The hash takes what the other columns leave.
    using Column = DecisionTableModel::Column;
    fitColumn(m_view, int(Column::Time), QStringLiteral("0000-00-00 00:00:00"));
    fitColumn(m_view, int(Column::Run), QStringLiteral("run-2024-05"));
    fitColumn(m_view, int(Column::SelectedTool), QStringLiteral("code_interpreter"));
    fitColumn(m_view, int(Column::Candidates), QStringLiteral("200"));
    fitColumn(m_view, int(Column::SourceRules), QStringLiteral("20"));
    m_view->horizontalHeader()->setStretchLastSection(true);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &DecisionsPage::onCurrentRowChanged);

    m_countLabel = new QLabel(this);
    m_countLabel->setObjectName(QStringLiteral("decisionCountLabel"));
    QGroupBox *box = createListBox(tr("Decisions (newest first)"), m_view, m_countLabel);
    updateCount();
    return box;
}

QString DecisionsPage::currentDecisionId() const
{
    return m_detail->decisionId();
}

void DecisionsPage::selectDecision(const QString &decisionId)
{
    const int row = m_model->rowOf(decisionId);
    if (row < 0)
        return;
    m_view->selectRow(row); // the selection change shows the detail
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
    DecisionQuery query;
    query.tenantId = currentTenant();
    query.scope = currentScope();
    if (query.tenantId.isEmpty()) {
        ++m_listGeneration; // a list still on its way belongs to the old scope
        applyLoaded(Loaded());
        return;
    }
    query.runId = m_runEdit->text().trimmed();
    query.tool = m_toolEdit->text().trimmed();
    const qint64 seconds = sinceSeconds(Since(m_sinceCombo->currentData().toInt()));
    if (seconds > 0)
        query.since = QDateTime::currentDateTimeUtc().addSecs(-seconds);
    query.limit = ListLimit;

    loadContent(
        m_listGeneration, tr("Loading decisions failed: %1"),
        [query](MemoryService *service) -> Result<Loaded> {
            auto decisions = service->listDecisions(query);
            if (!decisions)
                return decisions.error();
            return Loaded{decisions.value(),
                          RuleDisplay::ruleTitles(service, query.tenantId, query.scope)};
        },
        [this](const Loaded &loaded) { applyLoaded(loaded); });
}

void DecisionsPage::applyLoaded(const Loaded &loaded)
{
    setStatus(QString());
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
    m_detail->showMessage(currentTenant().isEmpty()
                              ? tr("No scope selected.")
                              : tr("Select a decision to see how it was made."));
    loadDecisions();
}

void DecisionsPage::onScopeReloaded()
{
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
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    loadLatest(
        m_feedbackGeneration,
        [tenant, scope, decisionId](MemoryService *service) {
            return service->feedbackForDecision(tenant, scope, decisionId);
        },
        [this](const QVector<FeedbackRecord> &feedback) { m_detail->setFeedback(feedback); },
        [this](const Error &error) { m_detail->setFeedbackFailure(error); });
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
