#include "service/lifecycle/maintenancescheduler.h"

#include "service/core/privatefiles.h"
#include "service/memoryservice.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QSaveFile>
#include <QTimer>

#include <algorithm>
#include <limits>

Q_LOGGING_CATEGORY(lcMaintenance, "memorygraph.service.maintenance")

namespace MemoryGraph {

namespace {
const QString kStateFile = QStringLiteral("maintenance.json");
const QString kLastDecayKey = QStringLiteral("last_decay_sweep_ms");
} // namespace

MaintenanceScheduler::MaintenanceScheduler(MemoryService *service, QObject *parent)
    : QObject(parent), m_service(service),
      m_interval(std::chrono::hours(std::max(0, service->config().decayIntervalHours)))
{
    m_thread.setObjectName(QStringLiteral("memorygraph-maintenance"));
}

MaintenanceScheduler::~MaintenanceScheduler()
{
    stop();
}

QString MaintenanceScheduler::stateFile() const
{
    return QDir(m_service->config().dataDir).filePath(kStateFile);
}

QDateTime MaintenanceScheduler::lastSweep() const
{
    QFile file(stateFile());
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QJsonValue ms = QJsonDocument::fromJson(file.readAll()).object().value(kLastDecayKey);
    return ms.isDouble() ? QDateTime::fromMSecsSinceEpoch(qint64(ms.toDouble()), Qt::UTC)
                         : QDateTime();
}

void MaintenanceScheduler::start(std::chrono::milliseconds firstDelay)
{
    if (m_interval.count() <= 0 || m_thread.isRunning())
        return;
    m_stopping = false;
    // QTimer takes int milliseconds: a longer wait is re-armed when it ends (see below).
    const auto capped
        = [](qint64 ms) { return int(std::clamp<qint64>(ms, 0, std::numeric_limits<int>::max())); };
    const auto untilDue = [this]() {
        const QDateTime last = lastSweep();
        return last.isValid()
                   ? QDateTime::currentDateTimeUtc().msecsTo(last.addMSecs(m_interval.count()))
                   : qint64(0);
    };
    const int firstMs = capped(std::max<qint64>(firstDelay.count(), untilDue()));

    m_worker = new QObject;
    m_timer = new QTimer(m_worker);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, m_worker, [this, capped, untilDue]() {
        if (const qint64 due = untilDue(); due > 1000) {
            m_timer->start(capped(due)); // woke early (capped wait, or another sweep ran)
            return;
        }
        sweep();
        if (!m_stopping)
            m_timer->start(capped(m_interval.count()));
    });
    m_worker->moveToThread(&m_thread);
    // The worker (and its timer) must die on its own thread: deleteLater on finished() runs in
    // the thread's last event processing, before wait() returns.
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
    QMetaObject::invokeMethod(
        m_timer, [timer = m_timer, firstMs]() { timer->start(firstMs); }, Qt::QueuedConnection);
    qCInfo(lcMaintenance) << "adaptive decay every" << m_interval.count() / 3600000.0
                          << "h; next in" << firstMs / 1000 << "s";
}

void MaintenanceScheduler::stop()
{
    if (!m_worker)
        return;
    m_stopping = true;
    m_thread.quit();
    m_thread.wait(); // a sweep checks m_stopping between scopes; the worker is gone after it
    m_worker = nullptr;
    m_timer = nullptr;
}

void MaintenanceScheduler::sweep()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    int scopes = 0;
    int commits = 0;
    QStringList failures;
    for (const ScopeSummary &s : m_service->listScopes()) {
        if (m_stopping)
            return; // not recorded: the next start sweeps again
        auto report = m_service->runAdaptiveDecay(s.tenantId, s.scope, now);
        ++scopes;
        if (!report) {
            failures << s.tenantId + QStringLiteral(" / ") + s.scope + QStringLiteral(": ")
                            + report.error().message;
            qCWarning(lcMaintenance) << "adaptive decay failed:" << failures.last();
        } else if (report.value().committed()) {
            ++commits;
        }
    }
    QSaveFile file(stateFile());
    if (file.open(QIODevice::WriteOnly)) {
        file.setPermissions(PrivateFiles::kFilePermissions); // owner-only, like the database
        file.write(
            QJsonDocument(QJsonObject{{kLastDecayKey, double(now.toMSecsSinceEpoch())}}).toJson());
        file.commit();
    }
    Q_EMIT sweepFinished(scopes, commits, failures);
}

} // namespace MemoryGraph
