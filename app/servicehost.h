#pragma once

#include "service/core/requestlog.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QThread>

#include <memory>

namespace MemoryGraph {

class HttpServerHost;
class MaintenanceScheduler;
class MemoryService;

/// Owns the MemoryService, the HTTP thread and the HttpServerHost that lives on it, and puts
/// them up and down in order. Lives on the main thread; call it from there only.
///
/// NOTE: shutdown order is fixed: scheduled maintenance stopped (waits for at most one scope's
/// decay), HTTP server stopped inside its own thread (blocking), thread
/// quit and joined (the host is deleted there), pooled work drained, then the service closed.
class ServiceHost : public QObject
{
    Q_OBJECT
public:
    explicit ServiceHost(std::unique_ptr<MemoryService> service, QObject *parent = nullptr);
    ~ServiceHost() override;

    MemoryService *service() const { return m_service.get(); }

    /// True between httpStarted() and httpStopped()/httpStartFailed().
    bool isListening() const { return m_listening; }

public slots:
    /// Asks the HTTP thread to listen on address:port (port 0 = ephemeral). Answers with
    /// httpStarted() or httpStartFailed(). A running server is stopped first.
    void startHttp(const QString &address, quint16 port);
    /// Asks the HTTP thread to stop listening; answers with httpStopped().
    void stopHttp();
    /// Starts the scheduled maintenance (adaptive decay every MEMORY_DECAY_INTERVAL_HOURS) on
    /// its own thread; nothing when the interval is 0. Idempotent.
    void startMaintenance();
    /// Stops HTTP, joins the thread and closes the service. Blocks; idempotent. After it the
    /// service() pointer is null.
    void shutdown();

signals:
    void httpStarted(const QString &address, quint16 port);
    void httpStartFailed(const QString &reason);
    void httpStopped();
    void requestServed(const MemoryGraph::RequestLogEntry &entry);

private:
    std::unique_ptr<MemoryService> m_service;
    std::unique_ptr<MaintenanceScheduler> m_maintenance;
    QThread m_thread;
    QPointer<HttpServerHost> m_http;
    bool m_listening = false;
    bool m_shutDown = false;
};

} // namespace MemoryGraph
