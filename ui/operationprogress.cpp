#include "ui/operationprogress.h"

#include <QProgressDialog>
#include <QTimer>

#include <atomic>
#include <mutex>

namespace MemoryGraph::Ui {

namespace {

constexpr int kShowAfterMs = 400; ///< quicker operations never show the dialog
constexpr int kRefreshMs = 100;
constexpr int kScale = 1000; ///< the dialog's range when the total is known

} // namespace

/// What the worker thread and the GUI thread share; outlives either side.
struct OperationProgress::Shared
{
    std::mutex lock;
    Progress latest; // under lock
    bool fresh = false;
    std::atomic<bool> cancelled{false};
};

OperationProgress::OperationProgress(const QString &title, const QString &label, QWidget *parent)
    : QObject(parent), m_shared(std::make_shared<Shared>()), m_label(label)
{
    m_dialog = new QProgressDialog(label, tr("Cancel"), 0, kScale, parent);
    m_dialog->setObjectName(QStringLiteral("operationProgress"));
    m_dialog->setWindowTitle(title);
    m_dialog->setWindowModality(Qt::WindowModal);
    m_dialog->setMinimumDuration(kShowAfterMs);
    m_dialog->setAutoClose(false);
    m_dialog->setAutoReset(false);
    m_dialog->setValue(0); // starts the minimum-duration clock (not in busy mode: range 0..0)
    // The Cancel button and closing the dialog emit canceled(); Escape rejects it.
    const auto cancel = [this]() { m_shared->cancelled = true; };
    connect(m_dialog, &QProgressDialog::canceled, this, cancel);
    connect(m_dialog, &QDialog::rejected, this, cancel);

    m_timer = new QTimer(this);
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &OperationProgress::refresh);
    m_timer->start();
}

OperationProgress::~OperationProgress()
{
    // Nobody will show the answer any more: let the operation stop.
    m_shared->cancelled = true;
    finish();
}

ProgressCallback OperationProgress::callback() const
{
    std::shared_ptr<Shared> shared = m_shared;
    return [shared](const Progress &p) {
        {
            std::lock_guard<std::mutex> guard(shared->lock);
            shared->latest = p;
            shared->fresh = true;
        }
        return !shared->cancelled.load();
    };
}

bool OperationProgress::cancelRequested() const
{
    return m_shared->cancelled.load();
}

Progress OperationProgress::lastProgress() const
{
    std::lock_guard<std::mutex> guard(m_shared->lock);
    return m_shared->latest;
}

void OperationProgress::finish()
{
    m_timer->stop();
    if (m_dialog) {
        m_dialog->hide();
        // Later: finish() may run inside the dialog's own setValue() event processing.
        m_dialog->deleteLater();
        m_dialog = nullptr;
    }
}

QString OperationProgress::stageText(const QString &stage)
{
    if (stage == QLatin1String("copying pages"))
        return tr("Copying pages");
    if (stage == QLatin1String("checking"))
        return tr("Checking the copy with SQLite's integrity check");
    if (stage == QLatin1String("verifying commits"))
        return tr("Verifying commits");
    if (stage == QLatin1String("reading nodes"))
        return tr("Reading nodes");
    if (stage == QLatin1String("comparing embeddings"))
        return tr("Comparing embeddings");
    if (stage == QLatin1String("applying"))
        return tr("Applying");
    return stage;
}

void OperationProgress::refresh()
{
    Progress p;
    {
        std::lock_guard<std::mutex> guard(m_shared->lock);
        if (!m_shared->fresh)
            return;
        m_shared->fresh = false;
        p = m_shared->latest;
    }
    if (!m_dialog || m_shared->cancelled.load())
        return;
    QString text = m_label + QLatin1Char('\n') + stageText(p.stage);
    if (p.total > 0) {
        text += QStringLiteral(": %1 / %2").arg(p.done).arg(p.total);
        m_dialog->setRange(0, kScale);
    } else {
        m_dialog->setRange(0, 0); // busy: the end is not known
    }
    m_dialog->setLabelText(text);
    // Last: a modal dialog processes events in setValue(), which may finish() this.
    m_dialog->setValue(p.total > 0 ? int(qMin(p.done, p.total) * kScale / p.total) : 0);
}

} // namespace MemoryGraph::Ui
