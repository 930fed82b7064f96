#include "ui/widgets/playbookpanel.h"

#include "service/memoryservice.h"
#include "ui/uiexecutor.h"

#include <QComboBox>
#include <QDateTime>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QUuid>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

namespace {

constexpr int PlaybookIdRole = Qt::UserRole + 1;
constexpr int VersionRole = Qt::UserRole + 2;

QString compact(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isDouble())
        return QString::number(v.toDouble());
    return v.toString();
}

RequestMeta consoleMeta()
{
    RequestMeta meta;
    // A request id makes console actions traceable in the commit log like any agent call.
    meta.requestId = QUuid::createUuid().toString(QUuid::WithoutBraces);
    return meta;
}

QTableWidget *table(const QStringList &headers, const QString &name, QWidget *parent)
{
    auto *t = new QTableWidget(0, int(headers.size()), parent);
    t->setObjectName(name);
    t->setHorizontalHeaderLabels(headers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setSelectionMode(QAbstractItemView::SingleSelection);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->verticalHeader()->hide();
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

QTableWidgetItem *cell(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setToolTip(text);
    return item;
}

} // namespace

PlaybookPanel::PlaybookPanel(MemoryService *service, UiExecutor *executor, QWidget *parent)
    : QWidget(parent), m_service(service), m_executor(executor)
{
    // Keyboard order follows creation: playbooks, versions, steps, repair, then the actions.
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("playbookList"));
    m_list->setToolTip(tr("Playbooks of this scope: name, latest version and status"));
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (m_filling || row < 0)
            return;
        loadPlaybook(m_list->item(row)->data(PlaybookIdRole).toString(), 0);
    });

    m_header = new QLabel(this);
    m_header->setObjectName(QStringLiteral("playbookHeader"));
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_versions
        = table({tr("Version"), tr("Status"), tr("Review"), tr("From"), tr("Steps"), tr("Created")},
                QStringLiteral("playbookVersions"), this);
    connect(m_versions, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (m_filling || row < 0)
            return;
        loadPlaybook(m_playbookId, m_versions->item(row, 0)->data(VersionRole).toInt());
    });
    m_steps = table({tr("#"), tr("Tool"), tr("Input template"), tr("Preconditions"), tr("Safety"),
                     tr("Quality")},
                    QStringLiteral("playbookSteps"), this);
    m_repair = new QPlainTextEdit(this);
    m_repair->setObjectName(QStringLiteral("playbookRepair"));
    m_repair->setReadOnly(true);
    m_repair->setLineWrapMode(QPlainTextEdit::WidgetWidth);

    m_approve = new QPushButton(tr("&Approve repair"), this);
    m_approve->setObjectName(QStringLiteral("approveRepairButton"));
    m_approve->setToolTip(tr("Approve the shown repair: its readiness is validated in-process "
                             "and it becomes a shadow version when nothing is blocked"));
    connect(m_approve, &QPushButton::clicked, this, &PlaybookPanel::approveRepair);
    m_reject = new QPushButton(tr("Re&ject repair"), this);
    m_reject->setObjectName(QStringLiteral("rejectRepairButton"));
    connect(m_reject, &QPushButton::clicked, this, &PlaybookPanel::rejectRepair);
    m_promoteStatus = new QComboBox(this);
    m_promoteStatus->setObjectName(QStringLiteral("promoteStatusCombo"));
    m_promoteStatus->addItems(PlaybookVocabulary::statuses());
    m_promoteStatus->setCurrentText(QStringLiteral("shadow"));
    auto *promoteLabel = new QLabel(tr("Promote &to:"), this);
    promoteLabel->setBuddy(m_promoteStatus);
    m_promote = new QPushButton(tr("&Promote"), this);
    m_promote->setObjectName(QStringLiteral("promoteButton"));
    m_promote->setToolTip(tr("Write the shown version again as a new version in the chosen "
                             "status (an older version: a rollback)"));
    connect(m_promote, &QPushButton::clicked, this, &PlaybookPanel::promoteVersion);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("playbookStatus"));
    m_status->setWordWrap(true);

    auto *actions = new QHBoxLayout;
    actions->addWidget(m_approve);
    actions->addWidget(m_reject);
    actions->addStretch(1);
    actions->addWidget(promoteLabel);
    actions->addWidget(m_promoteStatus);
    actions->addWidget(m_promote);

    auto *versionsBox = new QGroupBox(tr("Versions (newest first)"), this);
    (new QVBoxLayout(versionsBox))->addWidget(m_versions);
    auto *stepsBox = new QGroupBox(tr("Steps of the shown version"), this);
    (new QVBoxLayout(stepsBox))->addWidget(m_steps);
    auto *repairBox = new QGroupBox(tr("Repair"), this);
    (new QVBoxLayout(repairBox))->addWidget(m_repair);
    auto *lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(stepsBox);
    lower->addWidget(repairBox);
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 1);

    auto *detail = new QWidget(this);
    auto *detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_header);
    detailLayout->addWidget(versionsBox, 2);
    detailLayout->addWidget(lower, 3);
    detailLayout->addLayout(actions);
    detailLayout->addWidget(m_status);

    // The playbooks above their detail: the tab is wide but not tall.
    m_list->setMaximumHeight(m_list->fontMetrics().height() * 4 + 8);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_list, 0);
    layout->addWidget(detail, 1);
    updateActions();
}

void PlaybookPanel::setScope(const QString &tenantId, const QString &scope)
{
    if (tenantId == m_tenant && scope == m_scope)
        return;
    m_tenant = tenantId;
    m_scope = scope;
    m_playbookId.clear();
    m_version = {};
    m_history = {};
    applyList({});
    reload();
}

int PlaybookPanel::currentVersion() const
{
    return m_version.value(QStringLiteral("version")).toInt();
}

QJsonObject PlaybookPanel::identity() const
{
    QJsonObject out{{QStringLiteral("tenant_id"), m_tenant}, {QStringLiteral("scope"), m_scope}};
    for (const PlaybookSummary &p : m_playbooks) {
        if (p.playbookId != m_playbookId)
            continue;
        if (!p.ownerAgentId.isEmpty())
            out.insert(QStringLiteral("consumer_agent_id"), p.ownerAgentId);
        if (!p.ownerTeamId.isEmpty())
            out.insert(QStringLiteral("consumer_team_id"), p.ownerTeamId);
    }
    out.insert(QStringLiteral("actor"), QStringLiteral("console"));
    return out;
}

void PlaybookPanel::reload()
{
    const quint64 generation = ++m_listGeneration;
    if (m_tenant.isEmpty())
        return;
    MemoryService *service = m_service;
    const QString tenant = m_tenant;
    const QString scope = m_scope;
    m_executor->run(
        this, [service, tenant, scope] { return service->listPlaybooks(tenant, scope); },
        [this, generation](const Result<QVector<PlaybookSummary>> &list) {
            if (generation != m_listGeneration)
                return;
            if (!list) {
                m_status->setText(tr("Loading playbooks failed: %1").arg(list.error().message));
                return;
            }
            applyList(list.value());
        });
}

void PlaybookPanel::applyList(const QVector<PlaybookSummary> &list)
{
    m_playbooks = list;
    const QString wanted = !m_pendingSelect.isEmpty() ? m_pendingSelect : m_playbookId;
    m_filling = true;
    m_list->clear();
    int select = -1;
    for (const PlaybookSummary &p : list) {
        QString text = tr("%1 \u00b7 v%2 \u00b7 %3").arg(p.name).arg(p.version).arg(p.status);
        if (!p.reviewState.isEmpty())
            text += QStringLiteral(" \u00b7 ") + p.reviewState;
        auto *item = new QListWidgetItem(text, m_list);
        item->setData(PlaybookIdRole, p.playbookId);
        item->setToolTip(tr("%1\n%2 steps, compiled from run %3")
                             .arg(p.playbookId)
                             .arg(p.stepCount)
                             .arg(p.sourceRunId));
        if (p.playbookId == wanted)
            select = m_list->count() - 1;
    }
    if (select < 0 && !list.isEmpty() && wanted.isEmpty())
        select = 0;
    m_list->setCurrentRow(select);
    m_filling = false;
    // After an action, or while the latest version is shown, the (new) latest version is shown;
    // a refresh keeps an older version the operator chose.
    int latestShown = 0;
    for (const QJsonValue &v : std::as_const(m_history))
        latestShown = qMax(latestShown, v.toObject().value(QStringLiteral("version")).toInt());
    const bool keepOlder = m_pendingSelect.isEmpty() && currentVersion() < latestShown;
    m_pendingSelect.clear();
    if (select >= 0) {
        const QString id = m_list->item(select)->data(PlaybookIdRole).toString();
        loadPlaybook(id, keepOlder && id == m_playbookId ? currentVersion() : 0);
    } else {
        m_playbookId.clear();
        m_version = {};
        m_history = {};
        m_header->setText(list.isEmpty() ? tr("No playbooks in this scope yet. Compile one from "
                                              "a finished run (Runs: “Compile playbook from "
                                              "this run”).")
                                         : QString());
        m_versions->setRowCount(0);
        fillSteps();
        updateActions();
    }
    Q_EMIT playbooksLoaded(int(list.size()));
}

void PlaybookPanel::loadPlaybook(const QString &playbookId, int version)
{
    const quint64 generation = ++m_loadGeneration;
    m_playbookId = playbookId;
    QJsonObject body = identity();
    body.insert(QStringLiteral("playbook_id"), playbookId);
    if (version > 0)
        body.insert(QStringLiteral("version"), version);
    MemoryService *service = m_service;
    m_executor->run(
        this,
        [service, body]() -> Result<PlaybookOutcome> {
            auto request = PlaybookGetRequest::fromJson(body);
            if (!request)
                return request.error();
            return service->playbookGet(request.value(), consoleMeta());
        },
        [this, generation](const Result<PlaybookOutcome> &got) {
            if (generation != m_loadGeneration)
                return;
            if (!got) {
                m_status->setText(tr("Loading the playbook failed: %1").arg(got.error().message));
                return;
            }
            applyPlaybook(got.value().body);
        });
}

void PlaybookPanel::applyPlaybook(const QJsonObject &body)
{
    m_version = body.value(QStringLiteral("playbook")).toObject();
    m_history = body.value(QStringLiteral("versions")).toArray();
    const int shown = currentVersion();
    const QJsonArray runs = body.value(QStringLiteral("runs")).toArray();
    QString lastRun = tr("never run");
    if (!runs.isEmpty()) {
        const QJsonObject r = runs.first().toObject();
        lastRun = tr("last run %1: %2")
                      .arg(r.value(QStringLiteral("run_id")).toString().left(8),
                           r.value(QStringLiteral("status")).toString());
    }
    m_header->setText(tr("<b>%1</b> \u2014 version %2 of %3, %4, risk %5, %6<br><small>%7 "
                         "\u00b7 compiled from run %8</small>")
                          .arg(m_version.value(QStringLiteral("name")).toString().toHtmlEscaped())
                          .arg(shown)
                          .arg(body.value(QStringLiteral("latest_version")).toInt())
                          .arg(m_version.value(QStringLiteral("status")).toString(),
                               m_version.value(QStringLiteral("risk_profile")).toString(),
                               lastRun.toHtmlEscaped(),
                               m_version.value(QStringLiteral("playbook_id")).toString(),
                               m_version.value(QStringLiteral("source_run_id")).toString()));
    m_filling = true;
    m_versions->setRowCount(0);
    int selected = -1;
    for (int i = int(m_history.size()) - 1; i >= 0; --i) {
        const QJsonObject v = m_history.at(i).toObject();
        const int row = m_versions->rowCount();
        m_versions->insertRow(row);
        QString from;
        for (const auto &[key, label] : {std::pair{"repaired_from_version", "repair of v%1"},
                                         std::pair{"promoted_from_version", "promoted from v%1"},
                                         std::pair{"reviewed_from_version", "review of v%1"}}) {
            if (v.value(QLatin1String(key)).isDouble())
                from = tr(label).arg(v.value(QLatin1String(key)).toInt());
        }
        auto *versionItem
            = cell(QStringLiteral("v%1").arg(v.value(QStringLiteral("version")).toInt()));
        versionItem->setData(VersionRole, v.value(QStringLiteral("version")).toInt());
        m_versions->setItem(row, 0, versionItem);
        m_versions->setItem(row, 1, cell(v.value(QStringLiteral("status")).toString()));
        m_versions->setItem(row, 2, cell(v.value(QStringLiteral("review_state")).toString()));
        m_versions->setItem(row, 3, cell(from));
        m_versions->setItem(row, 4,
                            cell(QString::number(v.value(QStringLiteral("step_count")).toInt())));
        m_versions->setItem(
            row, 5,
            cell(QDateTime::fromString(v.value(QStringLiteral("created_at")).toString(),
                                       Qt::ISODateWithMs)
                     .toLocalTime()
                     .toString(QStringLiteral("MM-dd HH:mm:ss"))));
        if (v.value(QStringLiteral("version")).toInt() == shown)
            selected = row;
    }
    m_versions->setCurrentCell(selected, 0);
    m_filling = false;
    fillSteps();
    updateActions();
    Q_EMIT versionShown(m_playbookId, shown);
}

void PlaybookPanel::fillSteps()
{
    const QJsonArray steps = m_version.value(QStringLiteral("steps_template")).toArray();
    m_steps->setRowCount(0);
    for (const QJsonValue &v : steps) {
        const QJsonObject s = v.toObject();
        const int row = m_steps->rowCount();
        m_steps->insertRow(row);
        m_steps->setItem(row, 0,
                         cell(QString::number(s.value(QStringLiteral("step_index")).toInt())));
        m_steps->setItem(row, 1, cell(s.value(QStringLiteral("tool_name")).toString()));
        m_steps->setItem(row, 2, cell(compact(s.value(QStringLiteral("tool_input_template")))));
        m_steps->setItem(row, 3, cell(compact(s.value(QStringLiteral("preconditions")))));
        m_steps->setItem(row, 4, cell(s.value(QStringLiteral("safety_level")).toString()));
        const QJsonValue quality = s.value(QStringLiteral("quality_score"));
        m_steps->setItem(
            row, 5,
            cell(quality.isDouble() ? QString::number(quality.toDouble(), 'f', 2) : QString()));
    }
    // The shown version's repair (its own, or one it carries as a review or promotion copy).
    QString repair;
    const int shown = currentVersion();
    if (m_version.value(QStringLiteral("repair_patch")).isObject()) {
        const QJsonObject review = m_version.value(QStringLiteral("repair_review")).toObject();
        const bool own = !m_version.value(QStringLiteral("reviewed_from_version")).isDouble()
                         && !m_version.value(QStringLiteral("promoted_from_version")).isDouble();
        repair = (own ? tr("Repair of version %1, review: %2")
                      : tr("Carries the repair of version %1, review: %2"))
                     .arg(m_version.value(QStringLiteral("repaired_from_version")).toInt())
                     .arg(review.value(QStringLiteral("state")).toString());
        const QString note = m_version.value(QStringLiteral("repair_note")).toString();
        if (!note.isEmpty())
            repair += tr("\nNote: %1").arg(note);
        repair += tr("\nPatch: %1\n").arg(compact(m_version.value(QStringLiteral("repair_patch"))));
        const QJsonObject validation
            = m_version.value(QStringLiteral("shadow_validation_last")).toObject();
        if (!validation.isEmpty())
            repair += tr("Readiness check: %1 (%2 of %3 steps ready, %4 blocked)")
                          .arg(validation.value(QStringLiteral("pass")).toBool() ? tr("passed")
                                                                                 : tr("blocked"))
                          .arg(validation.value(QStringLiteral("ready_steps")).toInt())
                          .arg(validation.value(QStringLiteral("total_steps")).toInt())
                          .arg(validation.value(QStringLiteral("blocked_steps")).toArray().size());
    } else if (shown > 0) {
        repair = tr("Version %1 is not a repair.").arg(shown);
    }
    // Every repair of the playbook with how its review went.
    QStringList repairs;
    for (const QJsonValue &v : std::as_const(m_history)) {
        const QJsonObject o = v.toObject();
        if (!o.value(QStringLiteral("repaired_from_version")).isDouble()
            || o.value(QStringLiteral("reviewed_from_version")).isDouble()
            || o.value(QStringLiteral("promoted_from_version")).isDouble())
            continue;
        const int version = o.value(QStringLiteral("version")).toInt();
        QString state = o.value(QStringLiteral("review_state")).toString();
        for (const QJsonValue &later : std::as_const(m_history)) {
            if (later.toObject().value(QStringLiteral("reviewed_from_version")).toInt(-1)
                == version)
                state = tr("%1 in v%2")
                            .arg(later.toObject().value(QStringLiteral("review_state")).toString())
                            .arg(later.toObject().value(QStringLiteral("version")).toInt());
        }
        repairs << tr("v%1 repairs v%2: %3")
                       .arg(version)
                       .arg(o.value(QStringLiteral("repaired_from_version")).toInt())
                       .arg(state);
    }
    if (!repairs.isEmpty())
        repair += tr("\n\nRepairs of this playbook:\n") + repairs.join(QLatin1Char('\n'));
    m_repair->setPlainText(repair);
}

void PlaybookPanel::updateActions()
{
    const int shown = currentVersion();
    bool reviewedAlready = false;
    for (const QJsonValue &v : std::as_const(m_history))
        reviewedAlready
            = reviewedAlready
              || v.toObject().value(QStringLiteral("reviewed_from_version")).toInt(-1) == shown;
    const bool pending = m_version.value(QStringLiteral("repair_review"))
                                 .toObject()
                                 .value(QStringLiteral("state"))
                                 .toString()
                             == QLatin1String("pending_review")
                         && !reviewedAlready;
    m_approve->setEnabled(pending);
    m_reject->setEnabled(pending);
    m_promote->setEnabled(shown > 0);
    m_promoteStatus->setEnabled(shown > 0);
}

void PlaybookPanel::finishAction(const Result<PlaybookOutcome> &result, const QString &okText)
{
    if (!result) {
        const QString text = tr("%1 (%2)").arg(result.error().message, result.error().code);
        m_status->setText(text);
        Q_EMIT actionFinished(false, text);
        return;
    }
    m_status->setText(okText);
    m_pendingSelect = m_playbookId;
    reload();
    Q_EMIT actionFinished(true, okText);
}

void PlaybookPanel::review(const QString &action)
{
    QJsonObject body = identity();
    body.insert(QStringLiteral("playbook_id"), m_playbookId);
    body.insert(QStringLiteral("version"), currentVersion());
    body.insert(QStringLiteral("action"), action);
    MemoryService *service = m_service;
    m_executor->run(
        this,
        [service, body]() -> Result<PlaybookOutcome> {
            auto request = PlaybookReviewRequest::fromJson(body);
            if (!request)
                return request.error();
            return service->playbookReview(request.value(), consoleMeta());
        },
        [this](const Result<PlaybookOutcome> &result) {
            const QJsonObject b = result ? result.value().body : QJsonObject();
            finishAction(result, tr("Review recorded: version %1 is %2 (%3).")
                                     .arg(b.value(QStringLiteral("to_version")).toInt())
                                     .arg(b.value(QStringLiteral("status")).toString(),
                                          b.value(QStringLiteral("review_state")).toString()));
        },
        UiExecutor::Lane::Changes);
}

void PlaybookPanel::approveRepair()
{
    review(QStringLiteral("approve"));
}

void PlaybookPanel::rejectRepair()
{
    review(QStringLiteral("reject"));
}

void PlaybookPanel::promoteVersion()
{
    if (currentVersion() <= 0)
        return;
    QJsonObject body = identity();
    body.insert(QStringLiteral("playbook_id"), m_playbookId);
    body.insert(QStringLiteral("target_status"), m_promoteStatus->currentText());
    int latest = 0;
    for (const QJsonValue &v : std::as_const(m_history))
        latest = qMax(latest, v.toObject().value(QStringLiteral("version")).toInt());
    if (currentVersion() != latest)
        body.insert(QStringLiteral("from_version"), currentVersion());
    MemoryService *service = m_service;
    m_executor->run(
        this,
        [service, body]() -> Result<PlaybookOutcome> {
            auto request = PlaybookPromoteRequest::fromJson(body);
            if (!request)
                return request.error();
            return service->playbookPromote(request.value(), consoleMeta());
        },
        [this](const Result<PlaybookOutcome> &result) {
            const QJsonObject b = result ? result.value().body : QJsonObject();
            finishAction(result, b.value(QStringLiteral("unchanged")).toBool()
                                     ? tr("Unchanged: the latest version already has that status.")
                                     : tr("Promoted: version %1 is %2.")
                                           .arg(b.value(QStringLiteral("to_version")).toInt())
                                           .arg(b.value(QStringLiteral("status")).toString()));
        },
        UiExecutor::Lane::Changes);
}

void PlaybookPanel::compileFromRun(const QString &runId, const QString &runNodeId)
{
    MemoryService *service = m_service;
    const QString tenant = m_tenant;
    const QString scope = m_scope;
    m_status->setText(tr("Compiling a playbook from run %1\u2026").arg(runId.left(8)));
    m_executor->run(
        this,
        [service, tenant, scope, runId, runNodeId]() -> Result<PlaybookOutcome> {
            QJsonObject body{{QStringLiteral("tenant_id"), tenant},
                             {QStringLiteral("scope"), scope},
                             {QStringLiteral("run_id"), runId},
                             {QStringLiteral("actor"), QStringLiteral("console")}};
            // The playbook keeps the run's lane and owners; the console reads the run as them.
            auto run = service->nodeDetail(tenant, scope, runNodeId);
            if (run) {
                const NodeRecord &n = run.value().node;
                body.insert(QStringLiteral("memory_lane"), n.memoryLane);
                if (!n.ownerAgentId.isEmpty()) {
                    body.insert(QStringLiteral("owner_agent_id"), n.ownerAgentId);
                    body.insert(QStringLiteral("consumer_agent_id"), n.ownerAgentId);
                }
                if (!n.ownerTeamId.isEmpty()) {
                    body.insert(QStringLiteral("owner_team_id"), n.ownerTeamId);
                    body.insert(QStringLiteral("consumer_team_id"), n.ownerTeamId);
                }
            }
            auto request = PlaybookCompileRequest::fromJson(body);
            if (!request)
                return request.error();
            return service->playbookCompile(request.value(), consoleMeta());
        },
        [this](const Result<PlaybookOutcome> &result) {
            if (!result) {
                const QString text = tr("Compiling failed: %1 (%2)")
                                         .arg(result.error().message, result.error().code);
                m_status->setText(text);
                Q_EMIT actionFinished(false, text);
                return;
            }
            const QJsonObject b = result.value().body;
            m_playbookId = b.value(QStringLiteral("playbook_id")).toString();
            const QString text = tr("Compiled playbook %1 (version %2, %3 steps).")
                                     .arg(b.value(QStringLiteral("name")).toString())
                                     .arg(b.value(QStringLiteral("version")).toInt())
                                     .arg(b.value(QStringLiteral("compile_summary"))
                                              .toObject()
                                              .value(QStringLiteral("steps_total"))
                                              .toInt());
            m_status->setText(text);
            m_pendingSelect = m_playbookId;
            reload();
            Q_EMIT compiled(m_playbookId);
            Q_EMIT actionFinished(true, text);
        },
        UiExecutor::Lane::Changes);
}

} // namespace MemoryGraph::Ui
