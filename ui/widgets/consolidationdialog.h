#pragma once

#include "ui/operationprogress.h"

#include <QDialog>
#include <QPointer>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace MemoryGraph {
class MemoryService;
struct ConsolidationReport;
} // namespace MemoryGraph

namespace MemoryGraph::Ui {

class UiExecutor;

/// "Consolidate duplicates": runs a dry run of the offline consolidation for one scope as soon
/// as it opens, lists the merges it would make (canonical <- duplicate, basis, similarity) and
/// the candidate pairs skipped as contradictory, and applies the plan on "Apply" (one commit).
/// Both calls run on the shared executor (the apply on its lane for changes) with a progress
/// dialog whose Cancel stops them (a cancelled apply changes nothing); a dialog closed before an
/// answer arrives cancels the call and never shows it. The service and the executor must
/// outlive it.
class ConsolidationDialog : public QDialog
{
    Q_OBJECT
public:
    ConsolidationDialog(MemoryService *service, UiExecutor *executor, const QString &tenantId,
                        const QString &scope, QWidget *parent = nullptr);

    QTableWidget *mergeTable() const { return m_merges; }
    QTableWidget *skippedTable() const { return m_skipped; }
    QPushButton *applyButton() const { return m_apply; }
    QString statusText() const;
    /// The running dry run's or apply's progress (its dialog has Cancel); null when none runs.
    OperationProgress *progress() const { return m_progress; }

Q_SIGNALS:
    /// The dry run finished (ok = false when it failed).
    void previewReady(bool ok, int merges, int skipped);
    /// Apply finished; commitId is empty when nothing was left to merge or it failed.
    void applied(bool ok, const QString &commitId);

private:
    void runPreview();
    void apply();
    void showReport(const ConsolidationReport &report);
    void setBusy(bool busy, const QString &text);
    void setStatus(const QString &text, bool isError = false);
    /// A progress dialog for a call about to start (the previous one's is gone by then).
    ProgressCallback startProgress(const QString &label);
    void endProgress();

    MemoryService *m_service;
    UiExecutor *m_executor;
    QString m_tenantId;
    QString m_scope;
    QTableWidget *m_merges = nullptr;
    QTableWidget *m_skipped = nullptr;
    QLabel *m_mergeTitle = nullptr;
    QLabel *m_skippedTitle = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_busy = nullptr;
    QPushButton *m_apply = nullptr;
    QPointer<OperationProgress> m_progress;
};

} // namespace MemoryGraph::Ui
