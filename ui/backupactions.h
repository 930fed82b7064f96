#pragma once

#include "ui/operationprogress.h"

#include <QObject>
#include <QPointer>
#include <QString>

class QAction;
class QWidget;

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

class UiExecutor;

/// File → Back up… and File → Restore…
///
/// Back up copies the whole store to a file while the service goes on serving (the service's
/// online backup), with a progress dialog and Cancel; the result names the file and what it
/// holds.
///
/// Restore cannot replace the store under the service that is serving it, so it restores on the
/// next start: the chosen file is checked and copied into the data folder now (with progress
/// and Cancel), and the next start swaps it in before it opens the store, keeping the replaced
/// store beside it. Until then the running store is untouched; a pending restore can be dropped
/// from the same menu entry.
///
/// Both run on the executor's lane for changes, one at a time; the actions are disabled while
/// one runs. The service and the executor must outlive this object; destroying it cancels what
/// is running.
class BackupActions : public QObject
{
    Q_OBJECT
public:
    BackupActions(MemoryService *service, UiExecutor *executor, QWidget *window);
    ~BackupActions() override;

    QAction *backUpAction() const { return m_backUp; }
    QAction *restoreAction() const { return m_restore; }
    /// The running operation's progress (null when none runs).
    OperationProgress *progress() const { return m_progress; }

    /// Backs up to `file` (what Back up… does once a file is chosen).
    void backUpTo(const QString &file);
    /// Prepares a restore from `file` for the next start (what Restore… does once confirmed).
    void restoreFrom(const QString &file);

Q_SIGNALS:
    /// A backup ended; `message` says how (for a status bar).
    void backupFinished(bool ok, const QString &message);
    /// A restore for the next start was prepared (ok) or not.
    void restorePrepared(bool ok, const QString &message);

private:
    void chooseBackupFile();
    void chooseRestoreFile();
    bool askAboutPendingRestore();
    bool confirmRestore(const QString &file);
    void setRunning(bool running);
    void showBox(int icon, const QString &title, const QString &text,
                 const QString &details = QString());

    MemoryService *m_service;
    UiExecutor *m_executor;
    QWidget *m_window;
    QAction *m_backUp = nullptr;
    QAction *m_restore = nullptr;
    QPointer<OperationProgress> m_progress;
    QString m_lastFolder;
};

} // namespace MemoryGraph::Ui
