#include "ui/pages/auditpage.h"

#include "service/memoryservice.h"
#include "ui/displayformat.h"
#include "ui/models/commitlistmodel.h"
#include "ui/operationprogress.h"
#include "ui/widgets/consolidationdialog.h"
#include "ui/widgets/jsonhighlighter.h"
#include "ui/widgets/messagestack.h"
#include "ui/widgets/recordtable.h"
#include "ui/widgets/statustext.h"

#include <QAction>
#include <QFontDatabase>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace MemoryGraph::Ui {

namespace {

const QString OkColour = QStringLiteral("#2e8b57");
const QString ShowLink = QStringLiteral("show-break");

/// A 64-digit hash shortened for the status line; other values as they are.
QString compact(const QString &value)
{
    if (value.isEmpty())
        return QStringLiteral("\u2014");
    return value.size() > 16 ? shortHash(value, 12) + QStringLiteral("\u2026") : value;
}

/// A page of commits starting `offset` rows below the newest one.
struct CommitWindow
{
    int offset = 0;
    QVector<CommitRecord> commits;
};

} // namespace

AuditPage::AuditPage(MemoryService *service, UiExecutor *executor, QWidget *parent)
    : PageSkeleton(service, executor, FollowCommits, parent)
{
    QWidget *toolBar = createToolBar();
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(createCommitPanel());
    splitter->addWidget(createDiffPanel());
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({720, 480});

    QLabel *status = statusLine();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(toolBar);
    layout->addWidget(m_verifyLabel);
    layout->addWidget(splitter, 1);
    layout->addWidget(status);
    onScopeChanged();
}

QWidget *AuditPage::createToolBar()
{
    auto *bar = new QWidget(this);
    QHBoxLayout *layout = createScopeBar(bar, tr("Reload scopes and commits (%1)"));

    auto *verifyAction = new QAction(tr("&Verify chain"), this);
    verifyAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V));
    verifyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(verifyAction, &QAction::triggered, this, &AuditPage::verifyChain);
    addAction(verifyAction);
    m_verifyButton = new QPushButton(style()->standardIcon(QStyle::SP_DialogApplyButton),
                                     verifyAction->text(), bar);
    m_verifyButton->setObjectName(QStringLiteral("verifyChainButton"));
    m_verifyButton->setToolTip(
        tr("Recompute every commit hash of this scope and report the first break (%1)")
            .arg(verifyAction->shortcut().toString(QKeySequence::NativeText)));
    connect(m_verifyButton, &QPushButton::clicked, verifyAction, &QAction::trigger);

    m_decayButton = new QPushButton(tr("Run &decay now"), bar);
    m_decayButton->setObjectName(QStringLiteral("runDecayButton"));
    m_decayButton->setToolTip(
        tr("Decay salience and demote inactive nodes of this scope now (one commit)"));
    connect(m_decayButton, &QPushButton::clicked, this, &AuditPage::runDecay);

    m_consolidateButton = new QPushButton(tr("&Consolidate\u2026"), bar);
    m_consolidateButton->setObjectName(QStringLiteral("consolidateButton"));
    m_consolidateButton->setToolTip(tr("Preview duplicate nodes of this scope, then mark them"));
    connect(m_consolidateButton, &QPushButton::clicked, this, &AuditPage::openConsolidation);

    m_busy = new QProgressBar(bar);
    m_busy->setObjectName(QStringLiteral("auditBusy"));
    m_busy->setRange(0, 0);
    m_busy->setTextVisible(false);
    m_busy->setMaximumWidth(100);
    m_busy->hide();

    m_verifyLabel = new QLabel(this);
    m_verifyLabel->setObjectName(QStringLiteral("verificationLabel"));
    m_verifyLabel->setTextFormat(Qt::RichText);
    m_verifyLabel->setWordWrap(true);
    connect(m_verifyLabel, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link == ShowLink)
            showCommit(m_breakCommitId, m_breakSequence);
    });

    layout->addWidget(m_verifyButton);
    layout->addWidget(m_decayButton);
    layout->addWidget(m_consolidateButton);
    layout->addWidget(m_busy);
    layout->addStretch(1);
    return bar;
}

QWidget *AuditPage::createCommitPanel()
{
    auto *box = new QGroupBox(tr("Commits (newest first)"), this);
    m_model = new CommitListModel(this);
    connect(m_model, &CommitListModel::moreRequested, this,
            [this]() { loadCommits(m_offset + m_model->rowCount(), true); });

    m_view = createRecordTable(m_model, QStringLiteral("auditCommitTable"), box);
    sizeCommitColumns(m_view);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { onCurrentRowChanged(current); });

    m_newestButton = new QPushButton(tr("Back to &newest"), box);
    m_newestButton->setObjectName(QStringLiteral("newestCommitsButton"));
    m_newestButton->setToolTip(
        tr("The table shows an older part of the chain; return to the newest commits"));
    m_newestButton->hide();
    connect(m_newestButton, &QPushButton::clicked, this, &AuditPage::showNewest);

    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_newestButton, 0, Qt::AlignLeft);
    return box;
}

QWidget *AuditPage::createDiffPanel()
{
    auto *box = new QGroupBox(tr("Diff"), this);
    auto *diff = new QWidget(box);
    m_diffTitle = new QLabel(diff);
    m_diffTitle->setWordWrap(true);
    m_diffTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_diffView = new QPlainTextEdit(diff);
    m_diffView->setObjectName(QStringLiteral("commitDiffView"));
    m_diffView->setReadOnly(true);
    m_diffView->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diffView->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    JsonHighlighter::attach(m_diffView);
    auto *diffLayout = new QVBoxLayout(diff);
    diffLayout->setContentsMargins(0, 0, 0, 0);
    diffLayout->addWidget(m_diffTitle);
    diffLayout->addWidget(m_diffView, 1);

    auto *layout = new QVBoxLayout(box);
    layout->addWidget(createDetailStack(diff, tr("Select a commit to see what it changed.")));
    return box;
}

QString AuditPage::selectedCommitId() const
{
    const QModelIndex current = m_view->selectionModel()->currentIndex();
    return current.isValid() ? m_model->data(current, CommitListModel::CommitIdRole).toString()
                             : QString();
}

ConsolidationDialog *AuditPage::consolidationDialog() const
{
    return m_dialog.data();
}

QString AuditPage::verificationText() const
{
    return m_verifyLabel->text();
}

void AuditPage::onScopeChanged()
{
    const bool hasScope = this->hasScope();
    for (QPushButton *b : {m_verifyButton, m_decayButton, m_consolidateButton})
        b->setEnabled(hasScope);
    ++m_verifyGeneration; // a verification of the previous scope no longer applies
    m_verifyLabel->clear();
    m_breakCommitId.clear();
    m_pendingCommitId.clear();
    m_offset = 0;
    m_newestButton->hide();
    m_model->setCommits({});
    m_model->setMoreAvailable(false);
    showDiff(nullptr);
    if (hasScope)
        loadCommits(0, false);
}

void AuditPage::onScopeReloaded()
{
    if (m_offset == 0)
        loadCommits(0, false);
}

void AuditPage::loadCommits(int offset, bool append)
{
    if (!hasScope())
        return;
    if (!append && m_pendingCommitId.isEmpty())
        m_pendingCommitId = selectedCommitId(); // keep the selection across reloads
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    loadContent(
        m_commitGeneration, tr("Loading commits failed: %1"),
        [tenant, scope, offset](MemoryService *service) {
            return service->listCommits(tenant, scope, offset, PageSize);
        },
        [this, offset, append](const QVector<CommitRecord> &commits) {
            if (append) {
                m_model->appendCommits(commits);
            } else {
                m_offset = offset;
                m_newestButton->setVisible(offset > 0);
                m_model->setCommits(commits);
            }
            m_model->setMoreAvailable(commits.size() == PageSize);
            if (!m_pendingCommitId.isEmpty())
                selectLoadedCommit(m_pendingCommitId);
            Q_EMIT commitsLoaded(m_model->rowCount());
        });
}

void AuditPage::selectLoadedCommit(const QString &commitId)
{
    const int row = m_model->rowOf(commitId);
    if (row < 0)
        return;
    m_pendingCommitId.clear();
    m_view->selectRow(row);
    m_view->scrollTo(m_model->index(row, 0), QAbstractItemView::PositionAtCenter);
}

void AuditPage::showCommit(const QString &commitId, qint64 sequence)
{
    if (commitId.isEmpty())
        return;
    if (m_model->rowOf(commitId) >= 0) {
        selectLoadedCommit(commitId);
        m_view->setFocus(Qt::OtherFocusReason);
        return;
    }
    // Not loaded: jump to a window of the chain around the sequence (the list is newest first,
    // so its offset is about newest - sequence; gaps only shift it a little).
    m_pendingCommitId = commitId;
    const quint64 generation = ++m_commitGeneration;
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    callService(
        [tenant, scope, sequence](MemoryService *service) -> Result<CommitWindow> {
            auto newest = service->listCommits(tenant, scope, 0, 1);
            if (!newest)
                return newest.error();
            const qint64 top = newest.value().isEmpty() ? 0 : newest.value().first().sequence;
            CommitWindow window;
            window.offset = int(std::max<qint64>(0, top - sequence - PageSize / 2));
            auto page = service->listCommits(tenant, scope, window.offset, PageSize);
            if (!page)
                return page.error();
            window.commits = page.value();
            return window;
        },
        [this, generation, commitId](const Result<CommitWindow> &result) {
            if (generation != m_commitGeneration)
                return;
            if (!result) {
                setStatus(tr("Loading commits failed: %1").arg(result.error().message), true);
                return;
            }
            m_offset = result.value().offset;
            m_newestButton->setVisible(m_offset > 0);
            m_model->setCommits(result.value().commits);
            m_model->setMoreAvailable(result.value().commits.size() == PageSize);
            selectLoadedCommit(commitId);
            if (m_model->rowOf(commitId) < 0)
                setStatus(tr("Commit %1 is no longer in this scope.").arg(commitId), true);
            else
                m_view->setFocus(Qt::OtherFocusReason);
            Q_EMIT commitsLoaded(m_model->rowCount());
        });
}

void AuditPage::showNewest()
{
    m_pendingCommitId.clear();
    loadCommits(0, false);
}

void AuditPage::onCurrentRowChanged(const QModelIndex &current)
{
    if (!current.isValid()) {
        showDiff(nullptr);
        return;
    }
    showDiff(&m_model->commits().at(current.row()));
}

void AuditPage::showDiff(const CommitRecord *commit)
{
    if (!commit) {
        m_diffTitle->clear();
        m_diffTitle->setToolTip(QString());
        m_diffView->clear();
        showDetailMessage(tr("Select a commit to see what it changed."));
        return;
    }
    showDetail();
    m_diffTitle->setText(tr("Commit #%1 \u00b7 %2 \u00b7 %3 \u00b7 %4")
                             .arg(commit->sequence)
                             .arg(commit->kind, commit->actor, formatDateTime(commit->createdAt)));
    m_diffTitle->setToolTip(tr("id %1\nhash %2\nparent %3\ninput sha256 %4\ndiff sha256 %5")
                                .arg(commit->id, commit->commitHash, orDash(commit->parentHash),
                                     commit->inputSha256, commit->diffSha256));
    m_diffView->setPlainText(
        QString::fromUtf8(QJsonDocument(commit->diff).toJson(QJsonDocument::Indented)));
}

void AuditPage::verifyChain()
{
    if (!hasScope())
        return;
    const quint64 generation = ++m_verifyGeneration;
    m_verifyButton->setEnabled(false);
    m_verifyLabel->setText(tr("Verifying the commit chain\u2026"));
    m_verifyLabel->setStyleSheet(QString());
    setBusy(true);
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    delete m_verifyProgress; // an older run (of another scope) stops: its answer is outdated
    m_verifyProgress = new OperationProgress(
        tr("Verify chain"), tr("Verifying the commit chain of %1 / %2").arg(tenant, scope), this);
    QPointer<OperationProgress> progress = m_verifyProgress;
    const ProgressCallback report = m_verifyProgress->callback();
    callService(
        [tenant, scope, report](MemoryService *service) {
            return service->verifyChain(tenant, scope, report);
        },
        [this, generation, progress](const Result<ChainReport> &result) {
            setBusy(false);
            m_verifyButton->setEnabled(hasScope());
            const Progress reached = progress ? progress->lastProgress() : Progress();
            if (progress) {
                progress->finish();
                progress->deleteLater();
                if (m_verifyProgress == progress)
                    m_verifyProgress = nullptr;
            }
            if (generation != m_verifyGeneration)
                return;
            if (!result && result.error().code == QLatin1String("cancelled")) {
                m_verifyLabel->setText(
                    tr("Verification cancelled after %1 of %2 commits; the chain was not fully "
                       "checked.")
                        .arg(reached.done)
                        .arg(reached.total));
                m_verifyLabel->setStyleSheet(QString());
                Q_EMIT chainVerified(false);
                return;
            }
            if (!result) {
                m_verifyLabel->setText(
                    tr("Verification failed: %1").arg(result.error().message.toHtmlEscaped()));
                m_verifyLabel->setStyleSheet(QStringLiteral("color: %1;").arg(errorColour()));
                Q_EMIT chainVerified(false);
                return;
            }
            showVerification(result.value());
            Q_EMIT chainVerified(result.value().ok);
        });
}

void AuditPage::showVerification(const ChainReport &report)
{
    if (report.ok) {
        m_breakCommitId.clear();
        m_verifyLabel->setText(
            report.commitsChecked == 1
                ? tr("\u2714 Chain intact: 1 commit verified.")
                : tr("\u2714 Chain intact: %1 commits verified.").arg(report.commitsChecked));
        m_verifyLabel->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(OkColour));
        m_verifyLabel->setToolTip(QString());
        return;
    }
    const ChainBreak &b = *report.firstBreak;
    m_breakCommitId = b.commitId;
    m_breakSequence = b.sequence;
    m_verifyLabel->setText(
        tr("\u2716 Chain broken at commit #%1 (%2): expected %3, found %4. <a href=\"%5\">Show</a>")
            .arg(b.sequence)
            .arg(b.reason.toHtmlEscaped(), compact(b.expected).toHtmlEscaped(),
                 compact(b.found).toHtmlEscaped(), ShowLink));
    m_verifyLabel->setToolTip(tr("Commit %1\nexpected: %2\nfound: %3\n%n commit(s) checked",
                                 nullptr, int(report.commitsChecked))
                                  .arg(b.commitId, b.expected, b.found));
    m_verifyLabel->setStyleSheet(
        QStringLiteral("color: %1; font-weight: bold;").arg(errorColour()));
}

void AuditPage::runDecay()
{
    if (!hasScope())
        return;
    m_decayButton->setEnabled(false);
    setBusy(true);
    setStatus(tr("Running adaptive decay\u2026"));
    const QString tenant = currentTenant();
    const QString scope = currentScope();
    callService([tenant, scope](
                    MemoryService *service) { return service->runAdaptiveDecay(tenant, scope); },
                [this](const Result<DecayReport> &result) {
                    setBusy(false);
                    m_decayButton->setEnabled(hasScope());
                    if (!result) {
                        setStatus(tr("Decay failed: %1").arg(result.error().message), true);
                        Q_EMIT decayFinished(false, false);
                        return;
                    }
                    const DecayReport &r = result.value();
                    if (!r.committed())
                        setStatus(tr("Decay: nothing to change (%n protected node(s) skipped).",
                                     nullptr, r.protectedNodes));
                    else
                        setStatus(tr("Decay: salience lowered on %1 node(s), %2 tier move(s) (%3 "
                                     "deferred by the daily budget), commit %4.")
                                      .arg(r.salienceChanged)
                                      .arg(r.moves.size())
                                      .arg(r.deferredMoves)
                                      .arg(shortHash(r.commitId, 8)));
                    Q_EMIT decayFinished(true, r.committed());
                },
                UiExecutor::Lane::Changes);
}

void AuditPage::openConsolidation()
{
    if (!hasScope())
        return;
    if (m_dialog) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return;
    }
    m_dialog
        = new ConsolidationDialog(service(), executor(), currentTenant(), currentScope(), this);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(
        m_dialog, &ConsolidationDialog::applied, this, [this](bool ok, const QString &commitId) {
            if (ok)
                setStatus(
                    commitId.isEmpty()
                        ? tr("Consolidation: nothing left to merge.")
                        : tr("Consolidation applied in commit %1.").arg(shortHash(commitId, 8)));
        });
    m_dialog->open();
}

void AuditPage::setBusy(bool busy)
{
    m_busyCount = std::max(0, m_busyCount + (busy ? 1 : -1));
    m_busy->setVisible(m_busyCount > 0);
}

} // namespace MemoryGraph::Ui
