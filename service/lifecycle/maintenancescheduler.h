#pragma once

#include <QDateTime>
#include <QObject>
#include <QStringList>
#include <QThread>

#include <atomic>
#include <chrono>

class QTimer;

namespace MemoryGraph {

class MemoryService;

/// Runs the adaptive decay over every scope every MEMORY_DECAY_INTERVAL_HOURS on its own
/// worker thread (never the GUI or HTTP thread). The time of the last sweep is kept in the
/// data directory, so restarting the application does not decay memories more often than the
/// interval. Stopping waits for at most the scope being decayed (one transaction).
class MaintenanceScheduler : public QObject
{
    Q_OBJECT
public:
    /// The service must outlive the scheduler (or stop() must be called first).
    explicit MaintenanceScheduler(MemoryService *service, QObject *parent = nullptr);
    ~MaintenanceScheduler() override;

    /// Schedules sweeps; does nothing when the interval is 0. The first sweep is due one
    /// interval after the last recorded one, but never sooner than `firstDelay` from now.
    void start(std::chrono::milliseconds firstDelay = std::chrono::minutes(1));
    /// Stops the schedule; blocks until a running scope finishes. Idempotent.
    void stop();
    bool isScheduled() const { return m_thread.isRunning(); }

    /// Interval between sweeps (0 = schedule disabled). Defaults to the service's config.
    std::chrono::milliseconds interval() const { return m_interval; }
    void setInterval(std::chrono::milliseconds interval) { m_interval = interval; }

    /// When the last sweep finished (invalid when none was recorded).
    QDateTime lastSweep() const;
    /// File that records the last sweep.
    QString stateFile() const;

Q_SIGNALS:
    /// Emitted from the worker thread after each sweep.
    void sweepFinished(int scopes, int commits, const QStringList &failures);

private:
    void sweep();

    MemoryService *m_service;
    std::chrono::milliseconds m_interval;
    QThread m_thread;
    QObject *m_worker = nullptr; ///< lives on m_thread; owns the timer
    QTimer *m_timer = nullptr;
    std::atomic_bool m_stopping{false};
};

} // namespace MemoryGraph
