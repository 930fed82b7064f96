#pragma once

#include "service/api/portability.h"
#include "ui/uiexecutor.h"

#include <QObject>
#include <QPointer>
#include <QString>

class QWidget;

namespace MemoryGraph {
class MemoryService;
}

namespace MemoryGraph::Ui {

class ImportDialog;

/// File → Export… and File → Import… (docs/export-format.md): the dialogs and file choosers,
/// the facade calls on the executor behind a QProgressDialog whose Cancel stops them (an
/// import then writes nothing, an export leaves no file), and the outcome in a message box.
/// Owned by the window, which parents its dialogs; the service and the executor outlive it.
class PortabilityFlow : public QObject
{
    Q_OBJECT
public:
    PortabilityFlow(MemoryService *service, UiExecutor *executor, QWidget *window);

    /// Asks which scope (starting on tenantId/scope) and which file, then exports.
    void exportInteractively(const QString &tenantId, const QString &scope);
    /// Exports without asking: the last step of exportInteractively().
    void exportTo(const ExportRequest &request, const QString &path);
    /// Asks for the file when `path` is empty, checks it with a dry run and opens the import
    /// dialog on the result (per-kind counts, conflicts, choices, "Import").
    void importInteractively(const QString &path = QString());

    /// The open import dialog, if any.
    ImportDialog *importDialog() const;
    bool isBusy() const { return m_busy; }

Q_SIGNALS:
    void exportFinished(bool ok, const QString &message);
    /// A dry run finished (the import dialog shows it).
    void importChecked(bool ok, const QString &message);
    /// A real import finished; on success, into (tenantId, scope).
    void importFinished(bool ok, const QString &message, const QString &tenantId,
                        const QString &scope);

private:
    template<typename Work, typename Done>
    void runWithProgress(const QString &label, UiExecutor::Lane lane, Work work, Done done);
    void check(const QString &path, const ImportRequest &request);
    void import(const QString &path, const ImportRequest &request);
    /// A message box that does not block (the caller goes on).
    void tell(bool ok, const QString &title, const QString &text);
    QWidget *dialogParent() const;

    MemoryService *m_service;
    UiExecutor *m_executor;
    QWidget *m_window;
    QPointer<ImportDialog> m_dialog;
    QString m_lastFolder;
    quint64 m_checkGeneration = 0;
    bool m_busy = false;
};

} // namespace MemoryGraph::Ui
