#pragma once

#include "service/core/requestlog.h"

#include <QHostAddress>
#include <QObject>

#include <atomic>
#include <memory>

class QHttpServer;
class QThreadPool;

namespace MemoryGraph {

class MemoryService;
class HttpApi;

/// Owns the QHttpServer. Create it, moveToThread() a dedicated QThread, then call start()
/// through a queued connection: the server lives and answers on that thread, route handlers run
/// on a private thread pool (crash-safe pattern for Qt 6.4, see the toolchain notes).
class HttpServerHost : public QObject
{
    Q_OBJECT
public:
    explicit HttpServerHost(MemoryService *service, QObject *parent = nullptr);
    ~HttpServerHost() override;

    /// Port actually bound, 0 when not listening. Thread-safe.
    quint16 port() const;

public slots:
    /// Listens on address:port (port 0 = ephemeral). Refuses a non-loopback address while auth is
    /// off.
    void start(const QString &address, quint16 port);
    void stop();

signals:
    void started(const QString &address, quint16 port);
    void startFailed(const QString &reason);
    void stopped();
    void requestServed(const MemoryGraph::RequestLogEntry &entry);

private:
    MemoryService *m_service;
    std::unique_ptr<QHttpServer> m_server;
    std::unique_ptr<HttpApi> m_api;
    std::atomic<quint16> m_port{0};
};

} // namespace MemoryGraph
