#pragma once

#include "service/core/requestlog.h"
#include "service/core/result.h"

#include <QHash>
#include <QTcpServer>

class QTcpSocket;

namespace MemoryGraph {

struct ServiceConfig;

/// The listening socket of the HTTP server: it sees every connection before QtHttpServer does
/// (QAbstractHttpServer::bind() takes it) and bounds what one client can hold, which
/// QtHttpServer 6.4 does not:
/// - at most maxConnections open connections; one more is answered 503 server_busy with
///   Retry-After and closed;
/// - each request is followed by a RequestScanner that reads the bytes before QtHttpServer
///   does, so an oversized declared body (413), header block (431), a chunked body (411) or a
///   malformed header (400) is answered as soon as the header block has arrived, before
///   QtHttpServer buffers anything;
/// - a connection waiting for client bytes closes after idleTimeoutMs: a request still arriving
///   gets 408, an idle keep-alive connection just closes. The wait is paused while a request is
///   being handled, and a header block must arrive whole within one timeout from its first byte.
/// Every answer written here is a complete JSON error envelope with Connection: close.
/// Lives on the server thread; the sockets and their timers live there too.
class GuardedTcpServer : public QTcpServer
{
    Q_OBJECT
public:
    struct Limits
    {
        int idleTimeoutMs = 30000;
        int maxConnections = 128;
        qint64 maxHeaderBytes = 32768;
        qint64 maxBodyBytes = 5 * 1024 * 1024;
        /// Paths whose bodies may be larger than maxBodyBytes, with their own cap.
        QHash<QByteArray, qint64> largerBodies;

        static Limits fromConfig(const ServiceConfig &config);
    };

    explicit GuardedTcpServer(const Limits &limits, QObject *parent = nullptr);

    const Limits &limits() const { return m_limits; }

signals:
    /// A request (or connection) this listener answered itself, for the request log.
    void requestRefused(const MemoryGraph::RequestLogEntry &entry);

protected:
    void incomingConnection(qintptr handle) override;

private:
    friend class ConnectionGuard;

    QTcpSocket *adopt(qintptr handle);
    void admit(QTcpSocket *socket);
    void refuseBusy(QTcpSocket *socket);
    void logRefusal(const QByteArray &requestLine, const Error &error, const QString &requestId);

    Limits m_limits;
    int m_open = 0;     ///< connections counted against maxConnections
    int m_refusing = 0; ///< over-cap connections still being answered 503
};

} // namespace MemoryGraph
