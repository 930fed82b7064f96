#include "ui/pages/automationspage.h"

#include "service/memoryservice.h"
#include "ui/debounce.h"
#include "ui/displayformat.h"
#include "ui/widgets/automationgraphview.h"
#include "ui/widgets/automationtelemetrychart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFontDatabase>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

namespace {

constexpr int ValidateDelayMs = 300;
constexpr int FilterDelayMs = 250;

QString text(const QJsonObject &o, const char *key)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isDouble())
        return QString::number(v.toDouble());
    return v.toString();
}

QString when(const QJsonValue &iso)
{
    const QDateTime at = QDateTime::fromString(iso.toString(), Qt::ISODateWithMs);
    return at.isValid() ? formatDateTime(at) : QStringLiteral("—");
}

QString duration(const QJsonObject &o)
{
    const QDateTime a = QDateTime::fromString(o.value(QStringLiteral("started_at")).toString(),
                                              Qt::ISODateWithMs);
    const QDateTime b
        = QDateTime::fromString(o.value(QStringLiteral("ended_at")).toString(), Qt::ISODateWithMs);
    if (!a.isValid() || !b.isValid())
        return QStringLiteral("—");
    return QStringLiteral("%1 ms").arg(a.msecsTo(b));
}

QTableWidget *createTable(QWidget *parent, const QString &name, const QStringList &headers)
{
    auto *table = new QTableWidget(0, int(headers.size()), parent);
    table->setObjectName(name);
    table->setHorizontalHeaderLabels(headers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setAlternatingRowColors(true);
    return table;
}

void setRow(QTableWidget *table, int row, const QStringList &cells, const QString &key = {})
{
    for (int c = 0; c < cells.size(); ++c) {
        auto *item = new QTableWidgetItem(cells[c]);
        if (c == 0 && !key.isEmpty())
            item->setData(Qt::UserRole, key);
        table->setItem(row, c, item);
    }
}

int rowOfKey(const QTableWidget *table, const QString &key)
{
    for (int r = 0; r < table->rowCount(); ++r) {
        if (table->item(r, 0) && table->item(r, 0)->data(Qt::UserRole).toString() == key)
            return r;
    }
    return -1;
}

QString issueLine(const QJsonArray &issues)
{
    QStringList parts;
    for (const QJsonValue &v : issues) {
        const QJsonObject i = v.toObject();
        parts << i.value(QStringLiteral("code")).toString() + QStringLiteral(": ")
                     + i.value(QStringLiteral("message")).toString();
    }
    return parts.join(QLatin1Char('\n'));
}

const char *const ExampleDefinition = R"({
  "automation_id": "nightly-cleanup",
  "name": "Nightly cleanup",
  "status": "active",
  "graph": {
    "nodes": [
      {"node_id": "check", "kind": "condition",
       "expression": {"left": "$params.env", "equals": "prod"}},
      {"node_id": "approve", "kind": "approval", "approval_key": "ops"},
      {"node_id": "finish", "kind": "condition", "expression": "$nodes.approve.approved"}
    ],
    "edges": [
      {"from": "check", "to": "approve", "type": "on_success"},
      {"from": "approve", "to": "finish", "type": "on_success"}
    ]
  }
})";

} // namespace

AutomationsPage::AutomationsPage(MemoryService *service, UiExecutor *executor, QWidget *parent)
    : PageSkeleton(service, executor, FollowCommits, parent)
{
    m_validateTimer = createDebounceTimer(this, ValidateDelayMs, [this]() { validateEditor(); });
    m_runFilterTimer = createDebounceTimer(this, FilterDelayMs, [this]() { loadRuns(); });

    auto *bar = new QWidget(this);
    QHBoxLayout *barLayout = createScopeBar(bar, tr("Reload scopes and automations (%1)"));
    barLayout->addStretch(1);
    barLayout->addWidget(statusLine());

    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("automationTabs"));
    m_tabs->addTab(createDefinitionsTab(), tr("Definitions"));
    m_tabs->addTab(createRunsTab(), tr("Runs"));
    m_tabs->addTab(createTelemetryTab(), tr("Telemetry"));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int index) {
        if (index == TelemetryTab)
            loadTelemetry();
    });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(bar);
    layout->addWidget(m_tabs, 1);

    m_editor->setPlainText(QString::fromUtf8(ExampleDefinition));
    for (QPushButton *b : {m_runButton, m_shadowRunButton, m_promoteButton, m_reviewButton})
        b->setEnabled(false); // until a definition is selected
}

// --- layout ---------------------------------------------------------------------------------

QWidget *AutomationsPage::createDefinitionsTab()
{
    auto *tab = new QWidget(this);
    m_definitions
        = createTable(tab, QStringLiteral("definitionsTable"),
                      {tr("Automation"), tr("Name"), tr("Status"), tr("Version"), tr("Updated")});
    connect(m_definitions, &QTableWidget::itemSelectionChanged, this, [this]() {
        const int row = m_definitions->currentRow();
        if (row < 0 || !m_definitions->item(row, 0))
            return;
        const QString id = m_definitions->item(row, 0)->data(Qt::UserRole).toString();
        if (id != m_automationId) {
            m_automationId = id;
            loadDefinition();
        }
    });
    m_newButton = new QPushButton(tr("&New"), tab);
    m_newButton->setObjectName(QStringLiteral("newAutomationButton"));
    connect(m_newButton, &QPushButton::clicked, this, [this]() {
        m_definitions->clearSelection();
        m_automationId.clear();
        m_versions->setRowCount(0);
        m_reviewGate->clear();
        for (QPushButton *b : {m_runButton, m_shadowRunButton, m_promoteButton, m_reviewButton})
            b->setEnabled(false);
        m_editor->setPlainText(QString::fromUtf8(ExampleDefinition));
    });
    m_runButton = new QPushButton(tr("&Run"), tab);
    m_runButton->setObjectName(QStringLiteral("runAutomationButton"));
    m_runButton->setToolTip(tr("Run the latest version now (execution mode default)"));
    connect(m_runButton, &QPushButton::clicked, this, [this]() {
        if (m_automationId.isEmpty())
            return;
        act(QStringLiteral("run"), {{QStringLiteral("automation_id"), m_automationId}},
            [this](const QJsonObject &r) {
                m_tabs->setCurrentIndex(RunsTab);
                selectRun(r.value(QStringLiteral("run"))
                              .toObject()
                              .value(QStringLiteral("run_id"))
                              .toString());
            });
    });
    m_shadowRunButton = new QPushButton(tr("&Shadow run"), tab);
    m_shadowRunButton->setObjectName(QStringLiteral("shadowRunButton"));
    m_shadowRunButton->setToolTip(tr("Validate the latest shadow version with a shadow run "
                                     "(approvals pass, playbooks simulate)"));
    connect(m_shadowRunButton, &QPushButton::clicked, this, [this]() {
        if (m_automationId.isEmpty())
            return;
        act(QStringLiteral("shadow/validate"), {{QStringLiteral("automation_id"), m_automationId}},
            [this](const QJsonObject &) { loadDefinition(); });
    });
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(m_newButton);
    listButtons->addStretch(1);
    listButtons->addWidget(m_shadowRunButton);
    listButtons->addWidget(m_runButton);
    auto *listBox = new QGroupBox(tr("Definitions"), tab);
    auto *listLayout = new QVBoxLayout(listBox);
    listLayout->addWidget(m_definitions, 1);
    listLayout->addLayout(listButtons);

    m_versions
        = createTable(tab, QStringLiteral("versionsTable"),
                      {tr("Version"), tr("Status"), tr("Shadow review"), tr("Created"), tr("By")});
    m_promoteTarget = new QComboBox(tab);
    m_promoteTarget->setObjectName(QStringLiteral("promoteTargetCombo"));
    m_promoteTarget->addItems({QStringLiteral("shadow"), QStringLiteral("active"),
                               QStringLiteral("disabled"), QStringLiteral("draft")});
    m_promoteButton = new QPushButton(tr("&Promote"), tab);
    m_promoteButton->setObjectName(QStringLiteral("promoteButton"));
    connect(m_promoteButton, &QPushButton::clicked, this, [this]() {
        if (m_automationId.isEmpty())
            return;
        act(QStringLiteral("promote"),
            {{QStringLiteral("automation_id"), m_automationId},
             {QStringLiteral("target_status"), m_promoteTarget->currentText()}},
            [this](const QJsonObject &) { loadDefinition(); });
    });
    m_reviewVerdict = new QComboBox(tab);
    m_reviewVerdict->setObjectName(QStringLiteral("reviewVerdictCombo"));
    m_reviewVerdict->addItems(
        {QStringLiteral("approved"), QStringLiteral("needs_changes"), QStringLiteral("rejected")});
    m_reviewButton = new QPushButton(tr("Re&view shadow"), tab);
    m_reviewButton->setObjectName(QStringLiteral("reviewButton"));
    connect(m_reviewButton, &QPushButton::clicked, this, [this]() {
        if (m_automationId.isEmpty())
            return;
        act(QStringLiteral("shadow/review"),
            {{QStringLiteral("automation_id"), m_automationId},
             {QStringLiteral("verdict"), m_reviewVerdict->currentText()}},
            [this](const QJsonObject &) { loadDefinition(); });
    });
    m_reviewGate = new QLabel(tab);
    m_reviewGate->setObjectName(QStringLiteral("reviewGateLabel"));
    m_reviewGate->setWordWrap(true);
    auto *versionButtons = new QHBoxLayout;
    versionButtons->addWidget(m_reviewVerdict);
    versionButtons->addWidget(m_reviewButton);
    versionButtons->addStretch(1);
    versionButtons->addWidget(new QLabel(tr("Promote to:"), tab));
    versionButtons->addWidget(m_promoteTarget);
    versionButtons->addWidget(m_promoteButton);
    auto *versionBox = new QGroupBox(tr("Versions"), tab);
    auto *versionLayout = new QVBoxLayout(versionBox);
    versionLayout->addWidget(m_versions, 1);
    versionLayout->addWidget(m_reviewGate);
    versionLayout->addLayout(versionButtons);

    auto *left = new QSplitter(Qt::Vertical, tab);
    left->addWidget(listBox);
    left->addWidget(versionBox);
    left->setSizes({380, 300});

    m_graph = new AutomationGraphView(tab);
    m_graph->setObjectName(QStringLiteral("definitionGraph"));
    m_editor = new QPlainTextEdit(tab);
    m_editor->setObjectName(QStringLiteral("definitionEditor"));
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    connect(m_editor, &QPlainTextEdit::textChanged, m_validateTimer, qOverload<>(&QTimer::start));
    m_validation = new QLabel(tab);
    m_validation->setObjectName(QStringLiteral("validationLabel"));
    m_validation->setWordWrap(true);
    m_validation->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_saveButton = new QPushButton(tr("Sa&ve as new version"), tab);
    m_saveButton->setObjectName(QStringLiteral("saveAutomationButton"));
    m_saveButton->setEnabled(false);
    connect(m_saveButton, &QPushButton::clicked, this, [this]() {
        const QJsonObject body = QJsonDocument::fromJson(m_editor->toPlainText().toUtf8()).object();
        act(QStringLiteral("create"), body, [this](const QJsonObject &r) {
            const QString id = r.value(QStringLiteral("automation"))
                                   .toObject()
                                   .value(QStringLiteral("automation_id"))
                                   .toString();
            m_automationId = id;
            loadDefinitions();
            loadDefinition();
        });
    });
    auto *saveRow = new QHBoxLayout;
    saveRow->addWidget(m_validation, 1);
    saveRow->addWidget(m_saveButton);
    auto *editorBox = new QGroupBox(tr("Definition (JSON)"), tab);
    auto *editorLayout = new QVBoxLayout(editorBox);
    editorLayout->addWidget(m_editor, 1);
    editorLayout->addLayout(saveRow);
    auto *graphBox = new QGroupBox(tr("Graph"), tab);
    auto *graphLayout = new QVBoxLayout(graphBox);
    graphLayout->addWidget(m_graph);

    auto *right = new QSplitter(Qt::Vertical, tab);
    right->addWidget(graphBox);
    right->addWidget(editorBox);
    right->setSizes({300, 380});

    auto *columns = new QSplitter(Qt::Horizontal, tab);
    columns->addWidget(left);
    columns->addWidget(right);
    columns->setSizes({520, 720});
    auto *layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(columns);
    return tab;
}

QWidget *AutomationsPage::createRunsTab()
{
    auto *tab = new QWidget(this);
    m_stateFilter = createFilterCombo(tr("any state"),
                                      {QStringLiteral("queued"), QStringLiteral("running"),
                                       QStringLiteral("paused"), QStringLiteral("compensating"),
                                       QStringLiteral("terminal")},
                                      QStringLiteral("runStateFilter"));
    m_automationFilter = new QLineEdit(tab);
    m_automationFilter->setObjectName(QStringLiteral("runAutomationFilter"));
    m_automationFilter->setPlaceholderText(tr("any automation"));
    m_automationFilter->setClearButtonEnabled(true);
    m_automationFilter->setMinimumWidth(110);
    m_reviewerFilter = new QLineEdit(tab);
    m_reviewerFilter->setObjectName(QStringLiteral("runReviewerFilter"));
    m_reviewerFilter->setPlaceholderText(tr("any reviewer"));
    m_reviewerFilter->setClearButtonEnabled(true);
    m_reviewerFilter->setMinimumWidth(90);
    m_needsAction = new QCheckBox(tr("Needs &action (inbox)"), tab);
    m_needsAction->setObjectName(QStringLiteral("needsActionCheck"));
    m_needsAction->setToolTip(tr("Only runs waiting for an operator, the most urgent first: "
                                 "repairs, approvals, other pauses, compensation follow-ups"));
    connect(m_stateFilter, &QComboBox::currentIndexChanged, this, &AutomationsPage::loadRuns);
    connect(m_needsAction, &QCheckBox::toggled, this, &AutomationsPage::loadRuns);
    for (QLineEdit *edit : {m_automationFilter, m_reviewerFilter})
        connect(edit, &QLineEdit::textChanged, m_runFilterTimer, qOverload<>(&QTimer::start));
    auto *filters = new QHBoxLayout;
    filters->addWidget(new QLabel(tr("State:"), tab));
    filters->addWidget(m_stateFilter);
    filters->addWidget(new QLabel(tr("Automation:"), tab));
    filters->addWidget(m_automationFilter, 1);
    filters->addWidget(new QLabel(tr("Reviewer:"), tab));
    filters->addWidget(m_reviewerFilter, 1);
    auto *inboxRow = new QHBoxLayout;
    inboxRow->addWidget(m_needsAction);
    inboxRow->addStretch(1);

    m_runs = createTable(tab, QStringLiteral("runsTable"),
                         {tr("Run"), tr("Automation"), tr("v"), tr("Status"), tr("Mode"),
                          tr("Next action"), tr("Reviewer"), tr("Created")});
    connect(m_runs, &QTableWidget::itemSelectionChanged, this, [this]() {
        const int row = m_runs->currentRow();
        if (row < 0 || !m_runs->item(row, 0))
            return;
        const QString id = m_runs->item(row, 0)->data(Qt::UserRole).toString();
        if (id != m_runId) {
            m_runId = id;
            loadRun();
        }
    });
    auto *listBox = new QGroupBox(tr("Runs"), tab);
    auto *listLayout = new QVBoxLayout(listBox);
    listLayout->addLayout(filters);
    listLayout->addLayout(inboxRow);
    listLayout->addWidget(m_runs, 1);

    m_runSummary = new QLabel(tr("Select a run."), tab);
    m_runSummary->setObjectName(QStringLiteral("runSummaryLabel"));
    m_runSummary->setWordWrap(true);
    m_runSummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_runGraph = new AutomationGraphView(tab);
    m_runGraph->setObjectName(QStringLiteral("runGraph"));
    m_runGraph->setMinimumHeight(150);
    m_nodes = createTable(tab, QStringLiteral("runNodesTable"),
                          {tr("#"), tr("Node"), tr("Kind"), tr("State"), tr("Outcome"),
                           tr("Attempt"), tr("Started"), tr("Duration"), tr("Error")});

    const auto button = [tab](const QString &label, const QString &name) {
        auto *b = new QPushButton(label, tab);
        b->setObjectName(name);
        b->setEnabled(false);
        return b;
    };
    m_resumeButton = button(tr("Resume / approve"), QStringLiteral("resumeRunButton"));
    m_cancelButton = button(tr("Cancel"), QStringLiteral("cancelRunButton"));
    m_approveRepairButton = button(tr("Approve repair"), QStringLiteral("approveRepairButton"));
    m_rejectRepairButton = button(tr("Reject repair"), QStringLiteral("rejectRepairButton"));
    m_assignReviewerButton = button(tr("Assign"), QStringLiteral("assignReviewerButton"));
    m_recordActionButton = button(tr("Record"), QStringLiteral("recordActionButton"));
    m_reviewerEdit = new QLineEdit(tab);
    m_reviewerEdit->setObjectName(QStringLiteral("reviewerEdit"));
    m_reviewerEdit->setPlaceholderText(tr("reviewer"));
    m_actionCombo = new QComboBox(tab);
    m_actionCombo->setObjectName(QStringLiteral("compensationActionCombo"));
    m_actionCombo->addItems(
        {QStringLiteral("manual_cleanup_started"), QStringLiteral("manual_cleanup_completed"),
         QStringLiteral("engineering_escalated"), QStringLiteral("observation_noted")});
    const auto runAction = [this](const QString &path, QJsonObject body = {}) {
        if (m_runId.isEmpty())
            return;
        body.insert(QStringLiteral("run_id"), m_runId);
        act(path, body, [this](const QJsonObject &) {
            loadRun();
            loadRuns();
        });
    };
    connect(m_resumeButton, &QPushButton::clicked, this,
            [runAction]() { runAction(QStringLiteral("runs/resume")); });
    connect(m_cancelButton, &QPushButton::clicked, this,
            [runAction]() { runAction(QStringLiteral("runs/cancel")); });
    connect(m_approveRepairButton, &QPushButton::clicked, this,
            [runAction]() { runAction(QStringLiteral("runs/approve_repair")); });
    connect(m_rejectRepairButton, &QPushButton::clicked, this,
            [runAction]() { runAction(QStringLiteral("runs/reject_repair")); });
    connect(m_assignReviewerButton, &QPushButton::clicked, this, [this, runAction]() {
        const QString reviewer = m_reviewerEdit->text().trimmed();
        if (!reviewer.isEmpty())
            runAction(QStringLiteral("runs/assign_reviewer"),
                      {{QStringLiteral("reviewer"), reviewer}});
    });
    connect(m_recordActionButton, &QPushButton::clicked, this, [this, runAction]() {
        runAction(QStringLiteral("runs/compensation/record_action"),
                  {{QStringLiteral("action"), m_actionCombo->currentText()}});
    });
    auto *actions = new QHBoxLayout;
    for (QWidget *w : std::initializer_list<QWidget *>{m_resumeButton, m_cancelButton,
                                                       m_approveRepairButton, m_rejectRepairButton})
        actions->addWidget(w);
    actions->addStretch(1);
    auto *assignRow = new QHBoxLayout;
    assignRow->addWidget(new QLabel(tr("Reviewer:"), tab));
    assignRow->addWidget(m_reviewerEdit, 1);
    assignRow->addWidget(m_assignReviewerButton);
    assignRow->addSpacing(16);
    assignRow->addWidget(new QLabel(tr("Compensation:"), tab));
    assignRow->addWidget(m_actionCombo);
    assignRow->addWidget(m_recordActionButton);

    auto *detailBox = new QGroupBox(tr("Run"), tab);
    auto *detailLayout = new QVBoxLayout(detailBox);
    detailLayout->addWidget(m_runSummary);
    detailLayout->addWidget(m_runGraph, 1);
    detailLayout->addWidget(m_nodes, 2);
    detailLayout->addLayout(actions);
    detailLayout->addLayout(assignRow);

    auto *columns = new QSplitter(Qt::Horizontal, tab);
    columns->addWidget(listBox);
    columns->addWidget(detailBox);
    columns->setSizes({560, 680});
    auto *layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(columns);
    return tab;
}

QWidget *AutomationsPage::createTelemetryTab()
{
    auto *tab = new QWidget(this);
    m_windowCombo = new QComboBox(tab);
    m_windowCombo->setObjectName(QStringLiteral("telemetryWindowCombo"));
    m_windowCombo->addItem(tr("Last 24 hours"), 24);
    m_windowCombo->addItem(tr("Last 7 days"), 168);
    m_windowCombo->addItem(tr("Last 30 days"), 720);
    connect(m_windowCombo, &QComboBox::currentIndexChanged, this, &AutomationsPage::loadTelemetry);
    m_telemetrySummary = new QLabel(tab);
    m_telemetrySummary->setObjectName(QStringLiteral("telemetrySummary"));
    m_telemetrySummary->setWordWrap(true);
    m_telemetrySummary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_chart = new AutomationTelemetryChart(tab);
    m_chart->setObjectName(QStringLiteral("telemetryChart"));
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Window:"), tab));
    top->addWidget(m_windowCombo);
    top->addStretch(1);
    auto *layout = new QVBoxLayout(tab);
    layout->addLayout(top);
    layout->addWidget(m_telemetrySummary);
    layout->addWidget(m_chart, 1);
    return tab;
}

// --- calls ----------------------------------------------------------------------------------

QJsonObject AutomationsPage::scoped(QJsonObject body) const
{
    const ServiceConfig &config = service()->config();
    body.insert(QStringLiteral("tenant_id"), hasScope() ? currentTenant() : config.defaultTenant);
    body.insert(QStringLiteral("scope"), hasScope() ? currentScope() : config.defaultScope);
    return body;
}

void AutomationsPage::act(const QString &path, const QJsonObject &body,
                          const std::function<void(const QJsonObject &)> &done)
{
    const QJsonObject request = scoped(body);
    setStatus(tr("%1…").arg(path));
    callService(
        [path, request](MemoryService *s) { return s->automation(path, request, RequestMeta()); },
        [this, path, done](const Result<QJsonObject> &result) {
            if (!result) {
                const QString message = QStringLiteral("%1: %2 (%3)")
                                            .arg(path, result.error().message, result.error().code);
                setStatus(message, true);
                Q_EMIT actionFinished(path, false, message);
                return;
            }
            setStatus(tr("%1 done").arg(path));
            if (done)
                done(result.value());
            Q_EMIT actionFinished(path, true, QString());
        },
        UiExecutor::Lane::Changes);
}

void AutomationsPage::validateEditor()
{
    m_validateTimer->stop();
    QJsonParseError parseError;
    const QJsonDocument doc
        = QJsonDocument::fromJson(m_editor->toPlainText().toUtf8(), &parseError);
    if (!doc.isObject()) {
        ++m_validationGeneration;
        m_saveButton->setEnabled(false);
        m_validation->setStyleSheet(QStringLiteral("color: #c62828"));
        m_validation->setText(
            parseError.error != QJsonParseError::NoError
                ? tr("JSON: %1 at offset %2").arg(parseError.errorString()).arg(parseError.offset)
                : tr("JSON: the definition must be an object"));
        Q_EMIT validated(false);
        return;
    }
    const QJsonObject body = scoped(doc.object());
    const QJsonObject graph = doc.object().value(QStringLiteral("graph")).toObject();
    const quint64 mine = ++m_validationGeneration;
    callService(
        [body](MemoryService *s) {
            return s->automation(QStringLiteral("validate"), body, RequestMeta());
        },
        [this, mine, graph](const Result<QJsonObject> &result) {
            if (mine != m_validationGeneration)
                return;
            if (result) {
                QStringList order;
                for (const QJsonValue &v :
                     result.value().value(QStringLiteral("topological_order")).toArray())
                    order << v.toString();
                m_graph->setGraph(graph, {}, order);
                m_validation->setStyleSheet(QStringLiteral("color: #2e7d32"));
                m_validation->setText(
                    tr("Valid. Runs in order: %1").arg(order.join(QStringLiteral(" → "))));
                m_saveButton->setEnabled(true);
                Q_EMIT validated(true);
                return;
            }
            const QJsonArray issues
                = result.error().details.value(QStringLiteral("issues")).toArray();
            QStringList order;
            for (const QJsonValue &v :
                 result.error().details.value(QStringLiteral("topological_order")).toArray())
                order << v.toString();
            m_graph->setGraph(graph,
                              result.error().code == QLatin1String("automation_graph_invalid")
                                  ? issues
                                  : QJsonArray(),
                              order);
            m_validation->setStyleSheet(QStringLiteral("color: #c62828"));
            m_validation->setText(result.error().code == QLatin1String("automation_graph_invalid")
                                      ? tr("%n issue(s):\n", nullptr, int(issues.size()))
                                            + issueLine(issues)
                                      : result.error().message);
            m_saveButton->setEnabled(false);
            Q_EMIT validated(false);
        });
}

void AutomationsPage::loadDefinitions()
{
    const QJsonObject body = scoped({{QStringLiteral("limit"), 100}});
    loadContent(
        m_definitionsGeneration, tr("Loading automations failed: %1"),
        [body](MemoryService *s) {
            return s->automation(QStringLiteral("list"), body, RequestMeta());
        },
        [this](const QJsonObject &r) {
            const QJsonArray items = r.value(QStringLiteral("automations")).toArray();
            QSignalBlocker block(m_definitions);
            m_definitions->setRowCount(int(items.size()));
            for (int i = 0; i < items.size(); ++i) {
                const QJsonObject a = items[i].toObject();
                setRow(m_definitions, i,
                       {text(a, "automation_id"), text(a, "name"), text(a, "status"),
                        text(a, "latest_version"), when(a.value(QStringLiteral("updated_at")))},
                       text(a, "automation_id"));
            }
            const int row = rowOfKey(m_definitions, m_automationId);
            if (row >= 0)
                m_definitions->selectRow(row);
            m_definitions->resizeColumnsToContents();
            Q_EMIT definitionsLoaded(int(items.size()));
        });
}

void AutomationsPage::selectAutomation(const QString &automationId)
{
    m_automationId = automationId;
    const int row = rowOfKey(m_definitions, automationId);
    if (row >= 0) {
        QSignalBlocker block(m_definitions);
        m_definitions->selectRow(row);
    }
    loadDefinition();
}

void AutomationsPage::loadDefinition()
{
    if (m_automationId.isEmpty())
        return;
    const QJsonObject body = scoped({{QStringLiteral("automation_id"), m_automationId}});
    loadContent(
        m_definitionGeneration, tr("Loading the automation failed: %1"),
        [body](MemoryService *s) {
            return s->automation(QStringLiteral("get"), body, RequestMeta());
        },
        [this](const QJsonObject &r) { showDefinition(r); });
}

void AutomationsPage::showDefinition(const QJsonObject &got)
{
    const QJsonObject a = got.value(QStringLiteral("automation")).toObject();
    QJsonObject editable{
        {QStringLiteral("automation_id"), a.value(QStringLiteral("automation_id"))},
        {QStringLiteral("name"), a.value(QStringLiteral("name"))},
        {QStringLiteral("status"), a.value(QStringLiteral("status"))},
        {QStringLiteral("graph"), a.value(QStringLiteral("graph"))}};
    for (const char *key : {"input_contract", "output_contract", "metadata"}) {
        const QJsonObject o = a.value(QLatin1String(key)).toObject();
        if (!o.isEmpty())
            editable.insert(QLatin1String(key), o);
    }
    m_editor->setPlainText(
        QString::fromUtf8(QJsonDocument(editable).toJson(QJsonDocument::Indented)));
    validateEditor();

    const QJsonArray versions = got.value(QStringLiteral("versions")).toArray();
    m_versions->setRowCount(int(versions.size()));
    for (int i = 0; i < versions.size(); ++i) {
        const QJsonObject v = versions[i].toObject();
        const QJsonObject review = v.value(QStringLiteral("shadow_review")).toObject();
        setRow(m_versions, i,
               {QStringLiteral("v%1").arg(v.value(QStringLiteral("version")).toInt()),
                text(v, "status"), review.isEmpty() ? QStringLiteral("—") : text(review, "verdict"),
                when(v.value(QStringLiteral("created_at"))), text(v, "actor")},
               text(v, "version"));
    }
    m_versions->resizeColumnsToContents();
    // The review gate of promotion to active (reference §8.5).
    const QJsonObject latest = versions.isEmpty() ? QJsonObject() : versions.first().toObject();
    const QString status = latest.value(QStringLiteral("status")).toString();
    const QString verdict = latest.value(QStringLiteral("shadow_review"))
                                .toObject()
                                .value(QStringLiteral("verdict"))
                                .toString();
    const int version = latest.value(QStringLiteral("version")).toInt();
    QString gate;
    QString colour = QStringLiteral("#c62828");
    if (status == QLatin1String("active")) {
        gate = tr("v%1 is active.").arg(version);
        colour = QStringLiteral("#2e7d32");
    } else if (status == QLatin1String("shadow") && verdict == QLatin1String("approved")) {
        gate
            = tr("Review gate open: v%1 (shadow) has an approved shadow review; it can be promoted "
                 "to active.")
                  .arg(version);
        colour = QStringLiteral("#2e7d32");
    } else if (status == QLatin1String("shadow")) {
        gate = tr("Review gate closed: promoting v%1 to active needs an approved shadow review "
                  "(latest verdict: %2). Shadow-run it, then review it.")
                   .arg(version)
                   .arg(verdict.isEmpty() ? tr("none") : verdict);
    } else {
        gate = tr("v%1 is %2: promote it to shadow first; active needs a reviewed shadow version.")
                   .arg(version)
                   .arg(status);
    }
    m_reviewGate->setStyleSheet(QStringLiteral("color: %1").arg(colour));
    m_reviewGate->setText(gate);
    m_reviewButton->setEnabled(status == QLatin1String("shadow"));
    m_promoteButton->setEnabled(true);
    m_shadowRunButton->setEnabled(status == QLatin1String("shadow"));
    m_runButton->setEnabled(status == QLatin1String("active") || status == QLatin1String("draft"));
    Q_EMIT definitionLoaded(m_automationId);
}

void AutomationsPage::loadRuns()
{
    m_runFilterTimer->stop();
    QJsonObject body{{QStringLiteral("limit"), 100}};
    if (!m_stateFilter->currentData().toString().isEmpty())
        body.insert(QStringLiteral("lifecycle_state"), m_stateFilter->currentData().toString());
    if (!m_automationFilter->text().trimmed().isEmpty())
        body.insert(QStringLiteral("automation_id"), m_automationFilter->text().trimmed());
    if (!m_reviewerFilter->text().trimmed().isEmpty())
        body.insert(QStringLiteral("reviewer"), m_reviewerFilter->text().trimmed());
    if (m_needsAction->isChecked()) {
        body.insert(QStringLiteral("actionable_only"), true);
        body.insert(QStringLiteral("order"), QStringLiteral("inbox"));
    }
    body = scoped(body);
    loadContent(
        m_runsGeneration, tr("Loading runs failed: %1"),
        [body](MemoryService *s) {
            return s->automation(QStringLiteral("runs/list"), body, RequestMeta());
        },
        [this](const QJsonObject &r) {
            const QJsonArray runs = r.value(QStringLiteral("runs")).toArray();
            QSignalBlocker block(m_runs);
            m_runs->setRowCount(int(runs.size()));
            for (int i = 0; i < runs.size(); ++i) {
                const QJsonObject run = runs[i].toObject();
                setRow(m_runs, i,
                       {text(run, "run_id").left(8), text(run, "automation_id"),
                        text(run, "automation_version"), text(run, "status_summary"),
                        text(run, "execution_mode"), orDash(text(run, "next_action")),
                        orDash(text(run, "reviewer")),
                        when(run.value(QStringLiteral("created_at")))},
                       text(run, "run_id"));
                if (run.value(QStringLiteral("needs_action")).toBool()) {
                    QFont bold = m_runs->font();
                    bold.setBold(true);
                    for (int c = 0; c < m_runs->columnCount(); ++c)
                        m_runs->item(i, c)->setFont(bold);
                }
            }
            const int row = rowOfKey(m_runs, m_runId);
            if (row >= 0)
                m_runs->selectRow(row);
            m_runs->resizeColumnsToContents();
            Q_EMIT runsLoaded(int(runs.size()));
        });
}

void AutomationsPage::selectRun(const QString &runId)
{
    m_runId = runId;
    const int row = rowOfKey(m_runs, runId);
    if (row >= 0) {
        QSignalBlocker block(m_runs);
        m_runs->selectRow(row);
    }
    loadRun();
    loadRuns();
}

void AutomationsPage::loadRun()
{
    if (m_runId.isEmpty())
        return;
    const QJsonObject body = scoped({{QStringLiteral("run_id"), m_runId}});
    struct Loaded
    {
        QJsonObject detail;
        QJsonObject graph;
    };
    loadContent(
        m_runGeneration, tr("Loading the run failed: %1"),
        [body](MemoryService *s) -> Result<Loaded> {
            auto detail = s->automation(QStringLiteral("runs/get"), body, RequestMeta());
            if (!detail)
                return detail.error();
            const QJsonObject run = detail.value().value(QStringLiteral("run")).toObject();
            QJsonObject query = body;
            query.remove(QStringLiteral("run_id"));
            query.insert(QStringLiteral("automation_id"),
                         run.value(QStringLiteral("automation_id")));
            query.insert(QStringLiteral("version"),
                         run.value(QStringLiteral("automation_version")));
            auto def = s->automation(QStringLiteral("get"), query, RequestMeta());
            return Loaded{detail.value(), def ? def.value()
                                                    .value(QStringLiteral("automation"))
                                                    .toObject()
                                                    .value(QStringLiteral("graph"))
                                                    .toObject()
                                              : QJsonObject()};
        },
        [this](const Loaded &loaded) { showRun(loaded.detail, loaded.graph); });
}

void AutomationsPage::showRun(const QJsonObject &detail, const QJsonObject &graph)
{
    m_run = detail.value(QStringLiteral("run")).toObject();
    const QJsonArray nodes = detail.value(QStringLiteral("nodes")).toArray();
    QHash<QString, QString> states;
    QStringList order;
    m_nodes->setRowCount(int(nodes.size()));
    for (int i = 0; i < nodes.size(); ++i) {
        const QJsonObject n = nodes[i].toObject();
        const QString error
            = text(n, "error_code").isEmpty()
                  ? QString()
                  : text(n, "error_code") + QStringLiteral(": ") + text(n, "error_message");
        setRow(m_nodes, i,
               {QString::number(i + 1), text(n, "node_id"), text(n, "node_kind"),
                text(n, "lifecycle_state"), orDash(text(n, "terminal_outcome")), text(n, "attempt"),
                when(n.value(QStringLiteral("started_at"))), duration(n), orDash(error)},
               text(n, "node_id"));
        states.insert(text(n, "node_id"), text(n, "status_summary"));
        order << text(n, "node_id");
    }
    m_nodes->resizeColumnsToContents();
    m_runGraph->setGraph(graph, {}, order);
    m_runGraph->setNodeStates(states);
    const QJsonObject review = detail.value(QStringLiteral("review_assignment")).toObject();
    const QJsonObject workflow = detail.value(QStringLiteral("compensation_workflow")).toObject();
    QStringList lines;
    lines << tr("<b>%1</b> · %2 v%3 · %4 mode")
                 .arg(text(m_run, "status_summary"), text(m_run, "automation_id"),
                      text(m_run, "automation_version"), text(m_run, "execution_mode"));
    lines << tr("Run %1 · requested by %2 · started %3 · ended %4")
                 .arg(text(m_run, "run_id"), orDash(text(m_run, "requested_by")),
                      when(m_run.value(QStringLiteral("started_at"))),
                      when(m_run.value(QStringLiteral("ended_at"))));
    if (!text(m_run, "root_cause_code").isEmpty())
        lines << tr("Root cause: %1 at %2 — %3")
                     .arg(text(m_run, "root_cause_code"), orDash(text(m_run, "root_cause_node_id")),
                          text(m_run, "root_cause_message"));
    lines << tr("Compensation: %1 · workflow %2 · reviewer %3")
                 .arg(orDash(text(m_run, "compensation_status")), text(workflow, "bucket"),
                      orDash(text(review, "reviewer")));
    m_runSummary->setText(lines.join(QStringLiteral("<br>")));
    updateRunActions();
    Q_EMIT runLoaded(m_runId, text(m_run, "status_summary"));
}

void AutomationsPage::updateRunActions()
{
    const QString state = text(m_run, "lifecycle_state");
    const QString pause = text(m_run, "pause_reason");
    const bool has = !m_runId.isEmpty() && !state.isEmpty();
    m_resumeButton->setEnabled(has && state == QLatin1String("paused")
                               && pause != QLatin1String("repair_required"));
    m_cancelButton->setEnabled(has && state != QLatin1String("terminal")
                               && state != QLatin1String("compensating"));
    m_approveRepairButton->setEnabled(has && pause == QLatin1String("repair_required"));
    m_rejectRepairButton->setEnabled(has && pause == QLatin1String("repair_required"));
    m_assignReviewerButton->setEnabled(has);
    m_recordActionButton->setEnabled(has && state == QLatin1String("terminal"));
}

void AutomationsPage::loadTelemetry()
{
    const QJsonObject body
        = scoped({{QStringLiteral("window_hours"), m_windowCombo->currentData().toInt()}});
    loadContent(
        m_telemetryGeneration, tr("Loading telemetry failed: %1"),
        [body](MemoryService *s) {
            return s->automation(QStringLiteral("telemetry"), body, RequestMeta());
        },
        [this](const QJsonObject &t) {
            const QJsonObject counts = t.value(QStringLiteral("counts")).toObject();
            const QJsonObject slo = t.value(QStringLiteral("slo")).toObject();
            const auto pct = [](const QJsonValue &v) {
                return v.isDouble() ? QStringLiteral("%1%").arg(v.toDouble() * 100, 0, 'f', 1)
                                    : QStringLiteral("—");
            };
            QStringList causes;
            for (const QJsonValue &c : t.value(QStringLiteral("root_causes")).toArray())
                causes << QStringLiteral("%1 ×%2")
                              .arg(c.toObject().value(QStringLiteral("root_cause_code")).toString())
                              .arg(c.toObject().value(QStringLiteral("count")).toInt());
            m_telemetrySummary->setText(
                tr("%1 runs (%2 ended, %3 succeeded, %4 paused now) · success %5 (SLO %6 %7) · "
                   "pause rate %8 · p95 %9 · compensation failures %10 (budget %11)\nRoot causes: "
                   "%12")
                    .arg(counts.value(QStringLiteral("total")).toInt())
                    .arg(counts.value(QStringLiteral("terminal")).toInt())
                    .arg(counts.value(QStringLiteral("succeeded")).toInt())
                    .arg(counts.value(QStringLiteral("paused")).toInt())
                    .arg(pct(t.value(QStringLiteral("success_rate"))),
                         pct(slo.value(QStringLiteral("success_rate_target"))),
                         slo.value(QStringLiteral("success_rate_met")).toBool() ? tr("met")
                                                                                : tr("missed"),
                         pct(t.value(QStringLiteral("pause_rate"))),
                         t.value(QStringLiteral("p95_duration_seconds")).isDouble()
                             ? QStringLiteral("%1 s").arg(
                                 t.value(QStringLiteral("p95_duration_seconds")).toDouble(), 0, 'f',
                                 2)
                             : QStringLiteral("—"),
                         pct(t.value(QStringLiteral("compensation_failure_rate"))),
                         pct(slo.value(QStringLiteral("compensation_failure_budget_target"))),
                         causes.isEmpty() ? QStringLiteral("—")
                                          : causes.join(QStringLiteral(", "))));
            m_chart->setData(t.value(QStringLiteral("series")).toArray(),
                             slo.value(QStringLiteral("success_rate_target")).toDouble(0.95),
                             t.value(QStringLiteral("p95_duration_seconds")).toDouble(-1));
            Q_EMIT telemetryLoaded();
        });
}

void AutomationsPage::onScopeChanged()
{
    // The first scope of a fresh store (often made by this page's own Save) keeps what the
    // page selected in the defaults; another scope starts afresh.
    const bool wasEmpty = m_shownTenant.isEmpty();
    m_shownTenant = currentTenant();
    m_shownScope = currentScope();
    if (wasEmpty) {
        onScopeReloaded();
        return;
    }
    m_automationId.clear();
    m_runId.clear();
    m_run = {};
    m_runSummary->setText(tr("Select a run."));
    m_nodes->setRowCount(0);
    m_runGraph->clear();
    updateRunActions();
    loadDefinitions();
    loadRuns();
    if (m_tabs->currentIndex() == TelemetryTab)
        loadTelemetry();
}

void AutomationsPage::onScopeReloaded()
{
    loadDefinitions();
    loadRuns();
    if (!m_runId.isEmpty())
        loadRun();
    if (m_tabs->currentIndex() == TelemetryTab)
        loadTelemetry();
}

} // namespace MemoryGraph::Ui
