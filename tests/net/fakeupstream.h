#pragma once

#include <QByteArray>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <functional>

namespace MemoryGraph::Test {

/// A request as the fake upstream saw it; header names are lower-cased.
struct UpstreamRequest
{
    QByteArray method;
    QByteArray path;
    QHash<QByteArray, QByteArray> headers;
    QByteArray body;
};

/// What the fake upstream answers; delayMs holds the answer back (for timeout tests).
struct UpstreamReply
{
    int status = 200;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;
    int delayMs = 0;
};

/// A minimal HTTP/1.1 server on 127.0.0.1 standing in for an embedding provider. It lives on
/// the test thread and serves while that thread spins its event loop (QTest::qWaitFor), so the
/// provider under test must be called from another thread. One request per connection.
class FakeUpstream : public QObject
{
public:
    std::function<UpstreamReply(const UpstreamRequest &)> handler;
    QList<UpstreamRequest> requests;

    FakeUpstream()
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] { accept(); });
    }

    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    QString baseUrl() const
    {
        return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort());
    }

private:
    void accept()
    {
        while (QTcpSocket *socket = m_server.nextPendingConnection()) {
            QObject::connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
                m_buffers.remove(socket); // a later socket may reuse the address
                socket->deleteLater();
            });
            QObject::connect(socket, &QTcpSocket::readyRead, socket,
                             [this, socket] { readFrom(socket); });
        }
    }

    void readFrom(QTcpSocket *socket)
    {
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;

        UpstreamRequest request;
        const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        request.method = requestLine.value(0);
        request.path = requestLine.value(1);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon > 0)
                request.headers.insert(line.left(colon).trimmed().toLower(),
                                       line.mid(colon + 1).trimmed());
        }
        const qsizetype length = request.headers.value("content-length").toLongLong();
        if (buffer.size() < headerEnd + 4 + length)
            return; // body still arriving
        request.body = buffer.mid(headerEnd + 4, length);
        m_buffers.remove(socket);

        requests.append(request);
        const UpstreamReply reply = handler ? handler(request) : UpstreamReply{404, {}, {}, 0};
        QPointer<QTcpSocket> guarded(socket);
        // The socket is the timer's context: if the client gives up first, nothing is sent.
        QTimer::singleShot(reply.delayMs, socket, [guarded, reply] {
            if (guarded)
                send(guarded, reply);
        });
    }

    static void send(QTcpSocket *socket, const UpstreamReply &reply)
    {
        QByteArray out = "HTTP/1.1 " + QByteArray::number(reply.status) + " Status\r\n"
                         + "Content-Type: application/json\r\n" + "Content-Length: "
                         + QByteArray::number(reply.body.size()) + "\r\n" + "Connection: close\r\n";
        for (const auto &[name, value] : reply.headers)
            out += name + ": " + value + "\r\n";
        out += "\r\n" + reply.body;
        socket->write(out);
        socket->disconnectFromHost();
    }

    QTcpServer m_server;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

} // namespace MemoryGraph::Test
