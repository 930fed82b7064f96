#include "ui/backupactions.h"

#include "service/memoryservice.h"
#include "ui/displayformat.h"
#include "ui/operationprogress.h"
#include "ui/uiexecutor.h"

#include <QAction>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <QStyle>
#include <QWidget>

namespace MemoryGraph::Ui {

namespace {

QString backupFilter()
{
    return BackupActions::tr("Memory Graph backups (*.sqlite *.db);;All files (*)");
}

QString native(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

} // namespace

BackupActions::BackupActions(MemoryService *service, UiExecutor *executor, QWidget *window)
    : QObject(window), m_service(service), m_executor(executor), m_window(window),
      m_lastFolder(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
{
    Q_ASSERT(m_service);
    Q_ASSERT(m_executor);
    m_backUp = new QAction(window->style()->standardIcon(QStyle::SP_DialogSaveButton),
                           tr("&Back up\u2026"), this);
    m_backUp->setObjectName(QStringLiteral("backUpAction"));
    m_backUp->setStatusTip(tr("Copy the whole store to a file while the service keeps serving"));
    connect(m_backUp, &QAction::triggered, this, &BackupActions::chooseBackupFile);

    m_restore = new QAction(tr("&Restore\u2026"), this);
    m_restore->setObjectName(QStringLiteral("restoreAction"));
    m_restore->setStatusTip(tr("Replace the whole store with a backup the next time Memory Graph "
                               "starts"));
    connect(m_restore, &QAction::triggered, this, &BackupActions::chooseRestoreFile);
}

BackupActions::~BackupActions()
{
    delete m_progress; // cancels what runs: nobody is left to show its answer
}

void BackupActions::setRunning(bool running)
{
    m_backUp->setEnabled(!running);
    m_restore->setEnabled(!running);
}

void BackupActions::showBox(int icon, const QString &title, const QString &text,
                            const QString &details)
{
    // Non-modal, so nothing waits on the operator.
    auto *box = new QMessageBox(QMessageBox::Icon(icon), title, text, QMessageBox::Close, m_window);
    box->setObjectName(QStringLiteral("backupResult"));
    box->setInformativeText(details);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void BackupActions::chooseBackupFile()
{
    const QString suggested
        = QDir(m_lastFolder)
              .filePath(
                  QStringLiteral("memorygraph-backup-%1.sqlite")
                      .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmm"))));
    const QString file = QFileDialog::getSaveFileName(m_window, tr("Back up the store"), suggested,
                                                      backupFilter());
    if (file.isEmpty())
        return;
    m_lastFolder = QFileInfo(file).absolutePath();
    backUpTo(file);
}

void BackupActions::backUpTo(const QString &file)
{
    if (m_progress)
        return;
    setRunning(true);
    auto *progress = new OperationProgress(
        tr("Back up"), tr("Backing up the store to %1").arg(native(file)), m_window);
    m_progress = progress;
    MemoryService *service = m_service;
    const ProgressCallback report = progress->callback();
    m_executor->run(
        this, [service, file, report]() { return service->backup(file, report); },
        [this, progress, file](const Result<BackupOutcome> &result) {
            progress->finish();
            progress->deleteLater();
            setRunning(false);
            if (!result && result.error().code == QLatin1String("cancelled")) {
                Q_EMIT backupFinished(false, tr("Backup cancelled; nothing was written."));
                return;
            }
            if (!result) {
                showBox(QMessageBox::Warning, tr("Back up"),
                        tr("The backup failed; nothing was written to %1.").arg(native(file)),
                        result.error().message);
                Q_EMIT backupFinished(false, tr("Backup failed: %1").arg(result.error().message));
                return;
            }
            const StoreSummary &s = result.value().store;
            const QString text
                = tr("Backed up %1 nodes, %2 edges and %3 commits to %4 (%5).")
                      .arg(s.nodes)
                      .arg(s.edges)
                      .arg(s.commits)
                      .arg(native(result.value().file), QLocale().formattedDataSize(s.bytes));
            showBox(QMessageBox::Information, tr("Back up"), text,
                    tr("The copy passed SQLite's integrity check. The vector indexes are not in "
                       "it: they are rebuilt from the store after a restore."));
            Q_EMIT backupFinished(true, text);
        },
        UiExecutor::Lane::Changes);
}

bool BackupActions::askAboutPendingRestore()
{
    const auto pending = m_service->pendingRestore();
    if (!pending)
        return true;
    QMessageBox box(QMessageBox::Question, tr("Restore"),
                    tr("A restore from %1 (%2 nodes, prepared %3) waits for the next start.")
                        .arg(native(pending->source))
                        .arg(pending->store.nodes)
                        .arg(formatDateTime(pending->requestedAt)),
                    QMessageBox::Cancel, m_window);
    QPushButton *other = box.addButton(tr("Choose another file\u2026"), QMessageBox::AcceptRole);
    QPushButton *drop = box.addButton(tr("Drop the pending restore"), QMessageBox::DestructiveRole);
    box.exec();
    if (box.clickedButton() == drop) {
        m_service->discardPendingRestore();
        Q_EMIT restorePrepared(false, tr("The pending restore was dropped."));
        return false;
    }
    return box.clickedButton() == other;
}

bool BackupActions::confirmRestore(const QString &file)
{
    QMessageBox box(
        QMessageBox::Warning, tr("Restore"),
        tr("Replace the whole store, every tenant and scope, with %1?").arg(native(file)),
        QMessageBox::Cancel, m_window);
    box.setInformativeText(
        tr("The store cannot be replaced while it is serving, so Memory Graph restores it the "
           "next time it starts: the file is checked and copied now, and swapped in at the "
           "start. Memories written until then are not in the backup; the store that is "
           "replaced is kept in the data folder as memorygraph.sqlite.before-restore-<time>. "
           "The vector indexes are rebuilt from the restored store."));
    QPushButton *go = box.addButton(tr("Restore on next start"), QMessageBox::AcceptRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == go;
}

void BackupActions::chooseRestoreFile()
{
    if (m_progress || !askAboutPendingRestore())
        return;
    const QString file = QFileDialog::getOpenFileName(m_window, tr("Restore from a backup"),
                                                      m_lastFolder, backupFilter());
    if (file.isEmpty())
        return;
    m_lastFolder = QFileInfo(file).absolutePath();
    if (confirmRestore(file))
        restoreFrom(file);
}

void BackupActions::restoreFrom(const QString &file)
{
    if (m_progress)
        return;
    setRunning(true);
    auto *progress = new OperationProgress(
        tr("Restore"), tr("Checking and copying %1").arg(native(file)), m_window);
    m_progress = progress;
    MemoryService *service = m_service;
    const ProgressCallback report = progress->callback();
    m_executor->run(
        this, [service, file, report]() { return service->scheduleRestore(file, report); },
        [this, progress, file](const Result<PendingRestore> &result) {
            progress->finish();
            progress->deleteLater();
            setRunning(false);
            if (!result && result.error().code == QLatin1String("cancelled")) {
                Q_EMIT restorePrepared(false, tr("Restore cancelled; nothing was changed."));
                return;
            }
            if (!result) {
                showBox(QMessageBox::Warning, tr("Restore"),
                        tr("%1 cannot be restored; nothing was changed.").arg(native(file)),
                        result.error().message);
                Q_EMIT restorePrepared(false,
                                       tr("Restore refused: %1").arg(result.error().message));
                return;
            }
            const StoreSummary &s = result.value().store;
            const QString text
                = tr("The backup holds %1 nodes, %2 edges and %3 commits and passed SQLite's "
                     "integrity check. It replaces the store the next time Memory Graph starts.")
                      .arg(s.nodes)
                      .arg(s.edges)
                      .arg(s.commits);
            auto *box = new QMessageBox(QMessageBox::Information, tr("Restore"), text,
                                        QMessageBox::Close, m_window);
            box->setObjectName(QStringLiteral("backupResult"));
            box->setInformativeText(tr("Quit now and start Memory Graph again to restore."));
            QPushButton *quit = box->addButton(tr("&Quit now"), QMessageBox::AcceptRole);
            connect(quit, &QPushButton::clicked, qApp, &QCoreApplication::quit,
                    Qt::QueuedConnection);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
            Q_EMIT restorePrepared(true, text);
        },
        UiExecutor::Lane::Changes);
}

} // namespace MemoryGraph::Ui
