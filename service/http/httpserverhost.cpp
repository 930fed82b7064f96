#include "service/http/httpserverhost.h"

#include "service/http/guardedtcpserver.h"
#include "service/http/httpapi.h"
#include "service/memoryservice.h"

#include <QHttpServer>

namespace MemoryGraph {

HttpServerHost::HttpServerHost(MemoryService *service, QObject *parent)
    : QObject(parent), m_service(service)
{
    qRegisterMetaType<MemoryGraph::RequestLogEntry>();
}

HttpServerHost::~HttpServerHost()
{
    stop();
}

quint16 HttpServerHost::port() const
{
    return m_port.load();
}

void HttpServerHost::start(const QString &address, quint16 port)
{
    if (m_server) {
        emit startFailed(tr("the server is already running"));
        return;
    }
    QHostAddress host;
    if (address == QLatin1String("localhost"))
        host = QHostAddress(QHostAddress::LocalHost);
    else if (!host.setAddress(address)) {
        emit startFailed(tr("'%1' is not an IP address").arg(address));
        return;
    }
    const bool loopback = host.isLoopback();
    if (!loopback && m_service->config().authMode == AuthMode::Off) {
        // The spec's auth mode "off" is for local development only.
        emit startFailed(tr("refusing to listen on %1 while MEMORY_AUTH_MODE=off; "
                            "bind 127.0.0.1 or turn authentication on")
                             .arg(address));
        return;
    }
    // Our own listening socket sees every connection before QtHttpServer does: it caps
    // connections, times out idle ones and refuses oversized requests from their headers.
    auto listener = std::make_unique<GuardedTcpServer>(
        GuardedTcpServer::Limits::fromConfig(m_service->config()));
    if (!listener->listen(host, port)) {
        emit startFailed(
            tr("cannot listen on %1:%2: %3").arg(address).arg(port).arg(listener->errorString()));
        return;
    }
    connect(listener.get(), &GuardedTcpServer::requestRefused, this,
            &HttpServerHost::requestServed);
    const quint16 bound = listener->serverPort();

    m_server = std::make_unique<QHttpServer>();
    m_api = std::make_unique<HttpApi>(
        m_service, this, [this](const RequestLogEntry &entry) { emit requestServed(entry); });
    m_api->install(*m_server);
    m_server->bind(listener.release()); // the server takes ownership
    m_port = bound;
    emit started(host.toString(), bound);
}

void HttpServerHost::stop()
{
    if (!m_server)
        return;
    m_api->drain();
    m_server.reset();
    m_api.reset();
    m_port = 0;
    emit stopped();
}

} // namespace MemoryGraph
