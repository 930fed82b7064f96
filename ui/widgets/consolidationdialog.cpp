#include "ui/widgets/consolidationdialog.h"

#include "service/memoryservice.h"
#include "ui/displayformat.h"
#include "ui/operationprogress.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/detailpane.h"
#include "ui/widgets/statustext.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace MemoryGraph::Ui {

namespace {

/// "Title (short id)", with the full id in the tooltip.
QTableWidgetItem *nodeItem(const QString &title, const QString &id)
{
    auto *item = new QTableWidgetItem(QStringLiteral("%1 (%2)").arg(title, shortHash(id, 8)));
    item->setToolTip(id);
    item->setData(Qt::UserRole, id);
    return item;
}

} // namespace

ConsolidationDialog::ConsolidationDialog(MemoryService *service, UiExecutor *executor,
                                         const QString &tenantId, const QString &scope,
                                         QWidget *parent)
    : QDialog(parent), m_service(service), m_executor(executor), m_tenantId(tenantId),
      m_scope(scope)
{
    Q_ASSERT(m_service);
    Q_ASSERT(m_executor);
    setWindowTitle(tr("Consolidate duplicates \u2014 %1 / %2").arg(tenantId, scope));
    resize(820, 520);

    auto *intro
        = new QLabel(tr("Duplicates are nodes of the same type with the same title and summary, "
                        "or embeddings with cosine similarity of at least %1. The oldest node "
                        "stays canonical; duplicates are marked alias_of / superseded_by and "
                        "nothing is deleted.")
                         .arg(kConsolidationCosineThreshold),
                     this);
    intro->setWordWrap(true);

    m_mergeTitle = new QLabel(tr("Merges"), this);
    m_merges = createDetailTable(
        {tr("Type"), tr("Canonical"), tr("Duplicate"), tr("Basis"), tr("Similarity")},
        QStringLiteral("mergeTable"), this);
    m_skippedTitle = new QLabel(tr("Skipped candidates"), this);
    m_skipped = createDetailTable({tr("Type"), tr("Node"), tr("Similar to"), tr("Reason")},
                                  QStringLiteral("skippedTable"), this);

    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(120);
    m_busy->setTextVisible(false);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("consolidationStatus"));
    m_status->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_apply = buttons->addButton(tr("&Apply"), QDialogButtonBox::ApplyRole);
    m_apply->setObjectName(QStringLiteral("applyConsolidationButton"));
    m_apply->setToolTip(tr("Mark the duplicates listed above (one commit)"));
    m_apply->setEnabled(false);
    connect(m_apply, &QPushButton::clicked, this, &ConsolidationDialog::apply);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *statusRow = new QHBoxLayout;
    statusRow->addWidget(m_busy);
    statusRow->addWidget(m_status, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_mergeTitle);
    layout->addWidget(m_merges, 3);
    layout->addWidget(m_skippedTitle);
    layout->addWidget(m_skipped, 2);
    layout->addLayout(statusRow);
    layout->addWidget(buttons);

    runPreview();
}

QString ConsolidationDialog::statusText() const
{
    return m_status->text();
}

ProgressCallback ConsolidationDialog::startProgress(const QString &label)
{
    endProgress();
    m_progress = new OperationProgress(windowTitle(), label, this);
    return m_progress->callback();
}

void ConsolidationDialog::endProgress()
{
    if (!m_progress)
        return;
    m_progress->finish();
    m_progress->deleteLater();
    m_progress = nullptr;
}

void ConsolidationDialog::runPreview()
{
    setBusy(true, tr("Looking for duplicates (dry run)\u2026"));
    MemoryService *service = m_service;
    const QString tenant = m_tenantId;
    const QString scope = m_scope;
    const ProgressCallback report = startProgress(tr("Looking for duplicates (dry run)"));
    m_executor->run(
        this,
        [service, tenant, scope, report]() {
            return service->consolidate(tenant, scope, false, report);
        },
        [this](const Result<ConsolidationReport> &result) {
            setBusy(false, QString());
            endProgress();
            if (!result && result.error().code == QLatin1String("cancelled")) {
                setStatus(tr("Dry run cancelled; nothing was changed."));
                Q_EMIT previewReady(false, 0, 0);
                return;
            }
            if (!result) {
                setStatus(tr("Dry run failed: %1").arg(result.error().message), true);
                Q_EMIT previewReady(false, 0, 0);
                return;
            }
            showReport(result.value());
            m_apply->setEnabled(!result.value().merges.isEmpty());
            setStatus(
                result.value().merges.isEmpty()
                    ? tr("No duplicates found among %n node(s).", nullptr,
                         result.value().nodesScanned)
                    : tr("Dry run: nothing has been changed yet. Apply to mark %n duplicate(s).",
                         nullptr, int(result.value().merges.size())));
            Q_EMIT previewReady(true, int(result.value().merges.size()),
                                int(result.value().skipped.size()));
        });
}

void ConsolidationDialog::apply()
{
    m_apply->setEnabled(false);
    setBusy(true, tr("Applying\u2026"));
    MemoryService *service = m_service;
    const QString tenant = m_tenantId;
    const QString scope = m_scope;
    const ProgressCallback report = startProgress(tr("Marking the duplicates"));
    m_executor->run(
        this,
        [service, tenant, scope, report]() {
            return service->consolidate(tenant, scope, true, report);
        },
        [this](const Result<ConsolidationReport> &result) {
            setBusy(false, QString());
            endProgress();
            if (!result && result.error().code == QLatin1String("cancelled")) {
                setStatus(tr("Apply cancelled; nothing was changed."));
                m_apply->setEnabled(true);
                Q_EMIT applied(false, QString());
                return;
            }
            if (!result) {
                setStatus(tr("Apply failed: %1").arg(result.error().message), true);
                m_apply->setEnabled(true);
                Q_EMIT applied(false, QString());
                return;
            }
            showReport(result.value());
            const QString commitId = result.value().commitId;
            setStatus(commitId.isEmpty() ? tr("Nothing left to merge.")
                                         : tr("Merged %n duplicate(s) in commit %1.", nullptr,
                                              int(result.value().merges.size()))
                                               .arg(shortHash(commitId, 8)));
            Q_EMIT applied(true, commitId);
        },
        UiExecutor::Lane::Changes);
}

void ConsolidationDialog::showReport(const ConsolidationReport &report)
{
    m_merges->setRowCount(0);
    for (const ConsolidationMerge &m : report.merges) {
        const int row = m_merges->rowCount();
        m_merges->insertRow(row);
        m_merges->setItem(row, 0, new QTableWidgetItem(m.type));
        m_merges->setItem(row, 1, nodeItem(m.canonicalTitle, m.canonicalId));
        m_merges->setItem(row, 2, nodeItem(m.duplicateTitle, m.duplicateId));
        m_merges->setItem(row, 3,
                          new QTableWidgetItem(m.basis == QLatin1String("text") ? tr("same text")
                                                                                : tr("embedding")));
        m_merges->setItem(row, 4, new QTableWidgetItem(QString::number(m.similarity, 'f', 3)));
    }
    m_skipped->setRowCount(0);
    for (const ConsolidationSkip &s : report.skipped) {
        const int row = m_skipped->rowCount();
        m_skipped->insertRow(row);
        m_skipped->setItem(row, 0, new QTableWidgetItem(s.type));
        m_skipped->setItem(row, 1, nodeItem(s.nodeTitle, s.nodeId));
        m_skipped->setItem(row, 2, nodeItem(s.otherTitle, s.otherId));
        auto *reason = new QTableWidgetItem(s.reason);
        reason->setToolTip(
            tr("One of the two negates the other, or their polarity / stance differ"));
        m_skipped->setItem(row, 3, reason);
    }
    m_mergeTitle->setText(tr("Merges (%1)").arg(report.merges.size()));
    m_skippedTitle->setText(tr("Skipped candidates (%1)").arg(report.skipped.size()));
    m_merges->resizeColumnsToContents();
    m_skipped->resizeColumnsToContents();
}

void ConsolidationDialog::setBusy(bool busy, const QString &text)
{
    m_busy->setVisible(busy);
    if (busy)
        setStatus(text);
}

void ConsolidationDialog::setStatus(const QString &text, bool isError)
{
    m_status->setText(text);
    m_status->setStyleSheet(isError ? QStringLiteral("color: %1;").arg(errorColour()) : QString());
}

} // namespace MemoryGraph::Ui
