#include "ui/portabilityflow.h"

#include "service/memoryservice.h"
#include "ui/widgets/exportdialog.h"
#include "ui/widgets/importdialog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QProgressDialog>
#include <QStandardPaths>

#include <atomic>
#include <climits>
#include <memory>

namespace MemoryGraph::Ui {

namespace {

const QString kCancelled = QStringLiteral("cancelled");

/// "nodes 120 of 500" for the progress dialog.
QString stageText(const Progress &p)
{
    if (p.total <= 0)
        return p.stage;
    return QCoreApplication::translate("PortabilityFlow", "%1: %2 of %3")
        .arg(p.stage)
        .arg(p.done)
        .arg(p.total);
}

QString fileFilter()
{
    return QCoreApplication::translate("PortabilityFlow",
                                       "Memory Graph exports (*.jsonl *.ndjson);;All files (*)");
}

/// "12 nodes, 30 edges, ..." for the kinds a report added.
QString addedSummary(const ImportReport &r)
{
    const auto n
        = [&r](const char *kind) { return int(r.kinds.value(QString::fromLatin1(kind)).added); };
    // Marked for lupdate where they are listed below.
    const auto tr = [](const char *text, int count) {
        return QCoreApplication::translate("PortabilityFlow", text, nullptr, count);
    };
    const std::pair<int, QString> parts[] = {
        {n("node"), tr(QT_TRANSLATE_N_NOOP("PortabilityFlow", "%n node(s)"), n("node"))},
        {n("edge"), tr(QT_TRANSLATE_N_NOOP("PortabilityFlow", "%n edge(s)"), n("edge"))},
        {n("rule"), tr(QT_TRANSLATE_N_NOOP("PortabilityFlow", "%n rule state(s)"), n("rule"))},
        {n("decision"),
         tr(QT_TRANSLATE_N_NOOP("PortabilityFlow", "%n decision(s)"), n("decision"))},
        {n("rule_feedback"),
         tr(QT_TRANSLATE_N_NOOP("PortabilityFlow", "%n rule feedback row(s)"), n("rule_feedback"))},
        {n("commit"),
         tr(QT_TRANSLATE_N_NOOP("PortabilityFlow", "%n commit(s) of history"), n("commit"))}};
    QStringList listed;
    for (const auto &[count, text] : parts) {
        if (count > 0)
            listed << text;
    }
    return listed.isEmpty() ? QCoreApplication::translate("PortabilityFlow", "nothing")
                            : listed.join(QStringLiteral(", "));
}

} // namespace

PortabilityFlow::PortabilityFlow(MemoryService *service, UiExecutor *executor, QWidget *window)
    : QObject(window), m_service(service), m_executor(executor), m_window(window),
      m_lastFolder(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
{
}

template<typename Work, typename Done>
void PortabilityFlow::runWithProgress(const QString &label, UiExecutor::Lane lane, Work work,
                                      Done done)
{
    auto *dialog = new QProgressDialog(label, tr("Cancel"), 0, 0, dialogParent());
    dialog->setObjectName(QStringLiteral("portabilityProgress"));
    dialog->setWindowTitle(tr("Memory Graph"));
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setMinimumDuration(300);
    dialog->setAutoClose(false);
    dialog->setAutoReset(false);
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    connect(dialog, &QProgressDialog::canceled, this, [cancelled] { *cancelled = true; });
    const QPointer<QProgressDialog> shown(dialog);
    QObject *context = this;
    // Called on the worker: the dialog is moved on the GUI thread, Cancel is read here.
    const ProgressCallback progress = [context, shown, cancelled, label](const Progress &p) {
        QMetaObject::invokeMethod(
            context,
            [shown, p, label] {
                if (!shown)
                    return;
                shown->setLabelText(label + QLatin1Char('\n') + stageText(p));
                shown->setMaximum(int(qMin<qint64>(p.total, INT_MAX)));
                shown->setValue(int(qMin<qint64>(p.done, INT_MAX)));
            },
            Qt::QueuedConnection);
        return !cancelled->load();
    };
    m_executor->run(
        this, [work, progress]() { return work(progress); },
        [shown, done](const auto &result) {
            if (shown)
                shown->deleteLater();
            done(result);
        },
        lane);
}

ImportDialog *PortabilityFlow::importDialog() const
{
    return m_dialog;
}

QWidget *PortabilityFlow::dialogParent() const
{
    return m_dialog ? static_cast<QWidget *>(m_dialog.data()) : m_window;
}

void PortabilityFlow::tell(bool ok, const QString &title, const QString &text)
{
    auto *box = new QMessageBox(ok ? QMessageBox::Information : QMessageBox::Warning, title, text,
                                QMessageBox::Ok, m_window);
    box->setObjectName(QStringLiteral("portabilityMessage"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void PortabilityFlow::exportInteractively(const QString &tenantId, const QString &scope)
{
    if (m_busy)
        return;
    ExportDialog choose(m_service, m_executor, tenantId, scope, m_window);
    if (choose.exec() != QDialog::Accepted)
        return;
    const QString suggested
        = QDir(m_lastFolder)
              .filePath(
                  QStringLiteral("memorygraph-%1-%2.jsonl").arg(choose.tenantId(), choose.scope()));
    const QString path
        = QFileDialog::getSaveFileName(m_window, tr("Export memories"), suggested, fileFilter());
    if (path.isEmpty())
        return;
    ExportRequest request;
    request.tenantId = choose.tenantId();
    request.scope = choose.scope();
    request.includeEmbeddings = choose.includeEmbeddings();
    exportTo(request, path);
}

void PortabilityFlow::exportTo(const ExportRequest &request, const QString &path)
{
    m_busy = true;
    m_lastFolder = QFileInfo(path).absolutePath();
    MemoryService *service = m_service;
    runWithProgress(
        tr("Exporting %1 / %2\u2026").arg(request.tenantId, request.scope), UiExecutor::Lane::Reads,
        [service, request, path](const ProgressCallback &progress) {
            return service->exportScopeToFile(request, path, progress);
        },
        [this, path](const Result<ExportOutcome> &result) {
            m_busy = false;
            if (!result) {
                const bool cancelled = result.error().code == kCancelled;
                const QString text = cancelled
                                         ? tr("The export was cancelled; no file was written.")
                                         : tr("The export failed: %1").arg(result.error().message);
                if (!cancelled)
                    tell(false, tr("Export memories"), text);
                Q_EMIT exportFinished(false, text);
                return;
            }
            const ExportOutcome &o = result.value();
            QStringList parts;
            for (const QString &kind : portableKinds())
                parts << QStringLiteral("%1 %2").arg(kind).arg(o.counts.value(kind));
            const QString text = tr("Exported %1 / %2 to %3: %4.")
                                     .arg(o.tenantId, o.scope, QDir::toNativeSeparators(path),
                                          parts.join(QStringLiteral(", ")));
            tell(true, tr("Export memories"), text);
            Q_EMIT exportFinished(true, text);
        });
}

void PortabilityFlow::importInteractively(const QString &givenPath)
{
    if (m_busy || m_dialog)
        return;
    QString path = givenPath;
    if (path.isEmpty())
        path = QFileDialog::getOpenFileName(m_window, tr("Import memories"), m_lastFolder,
                                            fileFilter());
    if (path.isEmpty())
        return;
    m_lastFolder = QFileInfo(path).absolutePath();
    ImportRequest request;
    request.dryRun = true;
    check(path, request);
}

void PortabilityFlow::check(const QString &path, const ImportRequest &request)
{
    const quint64 generation = ++m_checkGeneration;
    m_busy = !m_dialog; // a check for an open dialog does not hold other starts back
    MemoryService *service = m_service;
    runWithProgress(
        tr("Checking %1\u2026").arg(QFileInfo(path).fileName()), UiExecutor::Lane::Reads,
        [service, request, path](const ProgressCallback &progress) {
            return service->importScopeFromFile(request, path, RequestMeta{}, progress);
        },
        [this, path, generation](const Result<ImportReport> &result) {
            m_busy = false;
            if (generation != m_checkGeneration)
                return; // the choices changed again meanwhile
            if (!result) {
                const QString text = result.error().message;
                if (m_dialog)
                    m_dialog->showCheckFailed(text);
                else if (result.error().code != kCancelled)
                    tell(false, tr("Import memories"),
                         tr("%1 cannot be imported: %2").arg(QDir::toNativeSeparators(path), text));
                Q_EMIT importChecked(false, text);
                return;
            }
            if (m_dialog) {
                m_dialog->showReport(result.value());
            } else {
                m_dialog = new ImportDialog(path, result.value(), m_window);
                m_dialog->setAttribute(Qt::WA_DeleteOnClose);
                connect(m_dialog, &ImportDialog::checkRequested, this,
                        [this, path](const ImportRequest &r) { check(path, r); });
                connect(m_dialog, &ImportDialog::importRequested, this,
                        [this, path](const ImportRequest &r) {
                            // Closed (and deleted) first, so it parents nothing that follows.
                            ImportDialog *dialog = m_dialog;
                            m_dialog = nullptr;
                            dialog->accept();
                            import(path, r);
                        });
                m_dialog->open();
            }
            Q_EMIT importChecked(true, addedSummary(result.value()));
        });
}

void PortabilityFlow::import(const QString &path, const ImportRequest &request)
{
    m_busy = true;
    MemoryService *service = m_service;
    runWithProgress(
        tr("Importing %1\u2026").arg(QFileInfo(path).fileName()), UiExecutor::Lane::Changes,
        [service, request, path](const ProgressCallback &progress) {
            return service->importScopeFromFile(request, path, RequestMeta{}, progress);
        },
        [this](const Result<ImportReport> &result) {
            m_busy = false;
            if (!result) {
                const bool cancelled = result.error().code == kCancelled;
                const QString text = cancelled
                                         ? tr("The import was cancelled; nothing was written.")
                                         : tr("The import failed; nothing was written: %1")
                                               .arg(result.error().message);
                tell(cancelled, tr("Import memories"), text);
                Q_EMIT importFinished(false, text, QString(), QString());
                return;
            }
            const ImportReport &r = result.value();
            QString text = tr("Imported %1 into %2 / %3, recorded as %n new commit(s) of "
                              "its chain.",
                              nullptr, int(r.commitIds.size()))
                               .arg(addedSummary(r), r.tenantId, r.scope);
            if (r.vectorsPending > 0)
                text += QLatin1Char(' ')
                        + tr("%n node(s) are being embedded in the background.", nullptr,
                             int(r.vectorsPending));
            tell(true, tr("Import memories"), text);
            Q_EMIT importFinished(true, text, r.tenantId, r.scope);
        });
}

} // namespace MemoryGraph::Ui
