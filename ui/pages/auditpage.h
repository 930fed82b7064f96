#pragma once

#include "ui/operationprogress.h"
#include "ui/pages/pageskeleton.h"

#include <QPointer>
#include <QVector>

class QLabel;
class QModelIndex;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace MemoryGraph {
class MemoryService;
struct ChainReport;
struct CommitRecord;
} // namespace MemoryGraph

namespace MemoryGraph::Ui {

class CommitListModel;
class ConsolidationDialog;

/// The audit trail of one (tenant, scope): its commit chain (newest first, loaded page by
/// page as the table scrolls), the selected commit's diff, chain verification (recomputes
/// every hash and names the first break, with a link to it), and the operator maintenance
/// jobs: adaptive decay now, and consolidation of duplicates (dry-run preview, then apply).
///
/// Each kind of call carries a generation number so an outdated answer never overwrites a newer
/// one. The service and the executor must outlive the page.
class AuditPage : public PageSkeleton
{
    Q_OBJECT
public:
    static constexpr int PageSize = 200;

    AuditPage(MemoryService *service, UiExecutor *executor, QWidget *parent = nullptr);

    /// Offset (from the newest commit) of the first row shown; 0 unless jumped to an old commit.
    int firstRowOffset() const { return m_offset; }
    QString selectedCommitId() const;
    QString verificationText() const;
    bool isBusy() const { return m_busyCount > 0; }

    CommitListModel *commitModel() const { return m_model; }
    QTableView *commitView() const { return m_view; }
    QPlainTextEdit *diffView() const { return m_diffView; }
    QLabel *verificationLabel() const { return m_verifyLabel; }
    QPushButton *verifyButton() const { return m_verifyButton; }
    QPushButton *decayButton() const { return m_decayButton; }
    QPushButton *consolidateButton() const { return m_consolidateButton; }
    /// The open consolidation dialog, if any.
    ConsolidationDialog *consolidationDialog() const;
    /// The running chain verification's progress (its dialog has Cancel); null when none runs.
    OperationProgress *verifyProgress() const { return m_verifyProgress; }

public Q_SLOTS:
    /// Recomputes the scope's hash chain off the GUI thread (Ctrl+Shift+V), with a progress
    /// dialog whose Cancel stops it.
    void verifyChain();
    /// Runs the adaptive decay on the current scope now.
    void runDecay();
    /// Opens the consolidation preview for the current scope.
    void openConsolidation();
    /// Selects a commit, loading the part of the chain around `sequence` when it is not shown.
    void showCommit(const QString &commitId, qint64 sequence);
    /// Back to the newest commits.
    void showNewest();

Q_SIGNALS:
    /// A page of commits arrived (rows = rows now in the table).
    void commitsLoaded(int rows);
    void chainVerified(bool ok);
    void decayFinished(bool ok, bool committed);

protected:
    void onScopeChanged() override;
    /// Same scope: fetch its new commits, unless the operator is looking at older ones.
    void onScopeReloaded() override;

private:
    QWidget *createToolBar();
    QWidget *createCommitPanel();
    QWidget *createDiffPanel();

    void loadCommits(int offset, bool append);
    void onCurrentRowChanged(const QModelIndex &current);
    void showDiff(const CommitRecord *commit);
    void showVerification(const ChainReport &report);
    void selectLoadedCommit(const QString &commitId);
    void setBusy(bool busy);

    quint64 m_commitGeneration = 0;
    quint64 m_verifyGeneration = 0;
    int m_busyCount = 0;
    int m_offset = 0;
    QString m_pendingCommitId; ///< select once the next page arrives
    QString m_breakCommitId;   ///< target of the "Show" link
    qint64 m_breakSequence = 0;

    QPushButton *m_verifyButton = nullptr;
    QPushButton *m_decayButton = nullptr;
    QPushButton *m_consolidateButton = nullptr;
    QPushButton *m_newestButton = nullptr;
    QProgressBar *m_busy = nullptr;
    QLabel *m_verifyLabel = nullptr;
    CommitListModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QLabel *m_diffTitle = nullptr;
    QPlainTextEdit *m_diffView = nullptr;
    QPointer<ConsolidationDialog> m_dialog;
    QPointer<OperationProgress> m_verifyProgress;
};

} // namespace MemoryGraph::Ui
