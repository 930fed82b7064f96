#include "service/http/guardedtcpserver.h"

#include "service/core/config.h"
#include "service/core/ids.h"
#include "service/http/dto.h"
#include "service/http/requestscanner.h"
#include "service/http/routes.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QPointer>
#include <QTcpSocket>
#include <QTimer>

#ifdef Q_OS_UNIX
#include <sys/socket.h>
#elif defined(Q_OS_WIN)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <winsock2.h>
#endif

namespace MemoryGraph {

namespace {

/// How long a connection we are closing may take to read our answer and hang up.
constexpr int kLingerMs = 2000;

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 400: return QByteArrayLiteral("Bad Request");
    case 408: return QByteArrayLiteral("Request Timeout");
    case 411: return QByteArrayLiteral("Length Required");
    case 413: return QByteArrayLiteral("Payload Too Large");
    case 431: return QByteArrayLiteral("Request Header Fields Too Large");
    case 503: return QByteArrayLiteral("Service Unavailable");
    default: return QByteArrayLiteral("Error");
    }
}

/// A complete HTTP/1.1 response carrying the error envelope; the connection closes after it.
QByteArray errorResponse(const Error &error, const QString &requestId)
{
    const QByteArray body
        = QJsonDocument(Dto::error(error, requestId)).toJson(QJsonDocument::Compact);
    QByteArray head = "HTTP/1.1 " + QByteArray::number(error.status) + ' '
                      + reasonPhrase(error.status) + "\r\n" + "Content-Type: application/json\r\n"
                      + "Content-Length: " + QByteArray::number(body.size()) + "\r\n"
                      + "Connection: close\r\n" + "X-Request-Id: " + requestId.toLatin1() + "\r\n";
    const QJsonValue retryAfter = error.details.value(QStringLiteral("retry_after_sec"));
    if (retryAfter.isDouble())
        head += "Retry-After: " + QByteArray::number(qMax(1, retryAfter.toInt())) + "\r\n";
    return head + "\r\n" + body;
}

Error serverBusy(int maxConnections)
{
    return Error::make(503, QStringLiteral("server_busy"),
                       QStringLiteral("the server already has %1 open connections; retry shortly")
                           .arg(maxConnections),
                       {{QStringLiteral("max_connections"), maxConnections},
                        {QStringLiteral("retry_after_sec"), 1}});
}

Error requestTimeout(int timeoutMs)
{
    return Error::make(408, QStringLiteral("request_timeout"),
                       QStringLiteral("the request did not arrive within %1 ms").arg(timeoutMs),
                       {{QStringLiteral("timeout_ms"), timeoutMs}});
}

} // namespace

/// What the listener tracks for one connection. A child of its socket, so it goes when the
/// socket goes; it only runs on the server thread, from the socket's signals and its own timers.
///
/// Ordering matters: beforeHttpServerReads() is connected to readyRead before QtHttpServer
/// connects its reader, afterHttpServerRead() after, so each arrival is seen in that order.
/// QtHttpServer reads within a QIODevice transaction and commits it when a request is complete
/// and handed to its handler; the bytes it has not read yet are what peek() shows.
class ConnectionGuard : public QObject
{
public:
    ConnectionGuard(QTcpSocket *socket, GuardedTcpServer *server)
        : QObject(socket), m_socket(socket), m_server(server),
          m_scanner({server->limits().maxHeaderBytes, server->limits().maxBodyBytes}),
          m_idleTimeoutMs(server->limits().idleTimeoutMs)
    {
        const auto &larger = server->limits().largerBodies;
        for (auto it = larger.cbegin(); it != larger.cend(); ++it)
            m_scanner.allowLargerBody(it.key(), it.value());
        m_idleTimer.setSingleShot(true);
        m_lingerTimer.setSingleShot(true);
        connect(&m_idleTimer, &QTimer::timeout, this, &ConnectionGuard::onIdleTimeout);
        connect(&m_lingerTimer, &QTimer::timeout, m_socket, &QAbstractSocket::abort);
        connect(m_socket, &QIODevice::readyRead, this, &ConnectionGuard::beforeHttpServerReads);
        connect(m_socket, &QIODevice::bytesWritten, this, &ConnectionGuard::onBytesWritten);
        m_idleTimer.start(m_idleTimeoutMs); // a client that never sends anything is idle too
    }

    /// Call once QtHttpServer has taken the socket (and connected its reader).
    void watchAfterHttpServer()
    {
        connect(m_socket, &QIODevice::readyRead, this, &ConnectionGuard::afterHttpServerRead);
    }

    /// Answers `error` and closes the connection; QtHttpServer reads nothing more from it.
    void refuse(const Error &error)
    {
        const QString requestId = randomUuid();
        if (m_server)
            m_server->logRefusal(m_scanner.requestLine(), error, requestId);
        beginClosing();
        m_socket->write(errorResponse(error, requestId)); // sent on the next event-loop pass
    }

private:
    void beforeHttpServerReads()
    {
        if (m_closing) {
            discardInput();
            return;
        }
        const qint64 available = m_socket->bytesAvailable();
        if (available <= m_scannedAhead)
            return; // a re-announcement of bytes already scanned
        const QByteArray unread = m_socket->peek(available);
        const qint64 requestsBefore = m_scanner.requestsStarted();
        const qint64 bodyBytesBefore = m_scanner.bodyBytesSeen();
        const auto refused
            = m_scanner.feed(QByteArrayView(unread).sliced(qsizetype(m_scannedAhead)));
        m_scannedAhead = available;
        if (refused) {
            refuse(*refused);
            return;
        }
        // A new request or more of a body restarts the wait; more header bytes do not, so a
        // header block must arrive within one timeout of its first byte (no slow headers).
        if (m_scanner.requestsStarted() != requestsBefore
            || m_scanner.bodyBytesSeen() != bodyBytesBefore)
            restartIdleTimer();
    }

    void afterHttpServerRead()
    {
        if (m_closing)
            return;
        m_scannedAhead = m_socket->bytesAvailable(); // all scanned, not yet read by the server
        if (!m_socket->isTransactionStarted() && !m_awaitingResponse) {
            // The server committed its read: a request is with the handler. Not waiting for
            // the client now, so a slow handler is never cut off.
            m_awaitingResponse = true;
            m_idleTimer.stop();
        }
    }

    void onBytesWritten()
    {
        if (m_socket->bytesToWrite() > 0)
            return;
        if (m_closing) {
            sayNoMore();
            return;
        }
        if (m_awaitingResponse) {
            m_awaitingResponse = false; // answered: wait for the client's next request
            restartIdleTimer();
        }
    }

    void onIdleTimeout()
    {
        if (m_closing || m_awaitingResponse)
            return;
        if (m_scanner.phase() == RequestScanner::Phase::BetweenRequests) {
            beginClosing(); // an idle keep-alive connection: nothing to answer
            if (m_socket->bytesToWrite() == 0)
                sayNoMore();
            return;
        }
        refuse(requestTimeout(m_idleTimeoutMs));
    }

    void restartIdleTimer()
    {
        if (!m_awaitingResponse)
            m_idleTimer.start(m_idleTimeoutMs);
    }

    void beginClosing()
    {
        m_closing = true;
        m_idleTimer.stop();
        // Disconnecting inside the readyRead emission also keeps QtHttpServer's reader, which
        // comes after ours, from seeing the bytes that arrived just now.
        if (QObject *httpServer = m_server ? m_server->parent() : nullptr)
            QObject::disconnect(m_socket, &QIODevice::readyRead, httpServer, nullptr);
        discardInput();
        m_lingerTimer.start(2 * lingerMs()); // a client that never reads cannot hold us either
    }

    int lingerMs() const { return qMin(kLingerMs, m_idleTimeoutMs); }

    void discardInput()
    {
        if (m_socket->isTransactionStarted())
            m_socket->commitTransaction();
        m_socket->skip(m_socket->bytesAvailable());
    }

    /// Our answer is out: end our side, keep reading (and dropping) what the client still sends
    /// until it hangs up, so closing with unread bytes does not reset the connection before the
    /// client has read the answer.
    void sayNoMore()
    {
        if (m_saidNoMore)
            return;
        m_saidNoMore = true;
#ifdef Q_OS_UNIX
        ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
        m_lingerTimer.start(lingerMs());
#elif defined(Q_OS_WIN)
        ::shutdown(SOCKET(m_socket->socketDescriptor()), SD_SEND);
        m_lingerTimer.start(lingerMs());
#else
        m_socket->disconnectFromHost();
#endif
    }

    QTcpSocket *m_socket; // the parent
    QPointer<GuardedTcpServer> m_server;
    RequestScanner m_scanner;
    QTimer m_idleTimer;
    QTimer m_lingerTimer;
    int m_idleTimeoutMs;
    qint64 m_scannedAhead = 0; ///< leading unread bytes the scanner has already seen
    bool m_awaitingResponse = false;
    bool m_closing = false;
    bool m_saidNoMore = false;
};

GuardedTcpServer::Limits GuardedTcpServer::Limits::fromConfig(const ServiceConfig &config)
{
    Limits limits;
    limits.idleTimeoutMs = config.listener.idleTimeoutMs;
    limits.maxConnections = config.listener.maxConnections;
    limits.maxHeaderBytes = config.listener.maxHeaderBytes;
    limits.maxBodyBytes = config.maxBodyBytes;
    limits.largerBodies.insert(QByteArray(Routes::kAdminImportPath),
                               qMax(config.maxBodyBytes, config.maxImportBodyBytes));
    return limits;
}

GuardedTcpServer::GuardedTcpServer(const Limits &limits, QObject *parent)
    : QTcpServer(parent), m_limits(limits)
{
}

void GuardedTcpServer::incomingConnection(qintptr handle)
{
    QTcpSocket *socket = adopt(handle);
    if (!socket)
        return;
    if (m_open >= m_limits.maxConnections)
        refuseBusy(socket);
    else
        admit(socket);
}

QTcpSocket *GuardedTcpServer::adopt(qintptr handle)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(handle)) {
        delete socket;
        return nullptr;
    }
    return socket;
}

void GuardedTcpServer::admit(QTcpSocket *socket)
{
    ++m_open;
    connect(socket, &QObject::destroyed, this, [this] { --m_open; });
    auto *guard = new ConnectionGuard(socket, this); // its reader comes first
    addPendingConnection(socket); // QtHttpServer takes the socket here, synchronously
    guard->watchAfterHttpServer();
}

void GuardedTcpServer::refuseBusy(QTcpSocket *socket)
{
    // Answering costs a socket for up to the linger time; under a flood beyond that, reset.
    if (m_refusing >= m_limits.maxConnections) {
        socket->abort();
        socket->deleteLater();
        return;
    }
    ++m_refusing;
    connect(socket, &QObject::destroyed, this, [this] { --m_refusing; });
    connect(socket, &QAbstractSocket::disconnected, socket, &QObject::deleteLater);
    auto *guard = new ConnectionGuard(socket, this);
    guard->refuse(serverBusy(m_limits.maxConnections));
}

void GuardedTcpServer::logRefusal(const QByteArray &requestLine, const Error &error,
                                  const QString &requestId)
{
    const QList<QByteArray> parts = requestLine.split(' ');
    RequestLogEntry entry;
    entry.at = QDateTime::currentDateTimeUtc();
    entry.method = QString::fromLatin1(parts.value(0));
    entry.path = QString::fromLatin1(parts.value(1));
    entry.status = error.status;
    entry.requestId = requestId;
    entry.errorCode = error.code;
    emit requestRefused(entry);
}

} // namespace MemoryGraph
