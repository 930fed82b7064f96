#pragma once

#include <QPointer>
#include <QString>
#include <QThread>

#include <memory>

namespace MemoryGraph {
class HttpServerHost;
class MemoryService;
} // namespace MemoryGraph

namespace MemoryGraph::Bench {

/// The service and its HTTP server inside the benchmark process, set up the way the app's
/// ServiceHost does it: MemoryService on the calling thread, HttpServerHost on a QThread of its
/// own, listening on 127.0.0.1 with an ephemeral port. The embedding provider is forced to
/// "none" (the benchmark supplies every vector) and authentication to "off".
class InProcessServer
{
public:
    InProcessServer();
    ~InProcessServer();

    InProcessServer(const InProcessServer &) = delete;
    InProcessServer &operator=(const InProcessServer &) = delete;

    /// Opens the store in dataDir and starts listening. False with *error on failure.
    bool start(const QString &dataDir, QString *error);
    quint16 port() const { return m_port; }
    MemoryService *service() const { return m_service.get(); }

    struct StopTimes
    {
        double httpStopMs = 0.0;     ///< HTTP server drained and stopped in its thread
        double serviceCloseMs = 0.0; ///< service destroyed (indexes saved, store closed)
    };
    /// Stops HTTP, joins its thread, drains the global pool and closes the service. Idempotent.
    StopTimes stop();

private:
    std::unique_ptr<MemoryService> m_service;
    QThread m_thread;
    QPointer<HttpServerHost> m_host;
    quint16 m_port = 0;
};

} // namespace MemoryGraph::Bench
