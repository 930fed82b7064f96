#include "service/http/filereply.h"

#include <QHttpServerResponder>
#include <QIODevice>
#include <QTcpSocket>

namespace MemoryGraph::FileReply {

namespace {

constexpr qint64 kPieceBytes = 64 * 1024;
constexpr qint64 kQueuedBytes = 256 * 1024; ///< keep about this much waiting in the socket

/// Lives as a child of the socket while the body goes out: it feeds the next pieces whenever
/// the socket has written what it held, and deletes itself (and the file) at the end.
class Pump : public QObject
{
public:
    Pump(QHttpServerResponder &&responder, QTcpSocket *socket, std::unique_ptr<QIODevice> body)
        : QObject(socket), m_responder(std::move(responder)), m_socket(socket),
          m_body(std::move(body))
    {
        connect(socket, &QTcpSocket::bytesWritten, this, &Pump::feed);
    }

    void feed()
    {
        while (m_socket->bytesToWrite() < kQueuedBytes && !m_body->atEnd()) {
            const QByteArray piece = m_body->read(kPieceBytes);
            if (piece.isEmpty()) {
                // The file cannot be read: end the connection rather than leave the client
                // waiting for the rest of Content-Length.
                m_socket->abort();
                return;
            }
            m_responder.writeBody(piece);
        }
        if (m_body->atEnd()) {
            disconnect(m_socket, nullptr, this, nullptr);
            deleteLater();
        }
    }

private:
    QHttpServerResponder m_responder;
    QTcpSocket *m_socket;
    std::unique_ptr<QIODevice> m_body;
};

} // namespace

void send(QHttpServerResponder &&responder, QTcpSocket *socket, int status,
          const QList<QPair<QByteArray, QByteArray>> &headers, std::unique_ptr<QIODevice> body)
{
    responder.writeStatusLine(QHttpServerResponder::StatusCode(status));
    responder.writeHeader(QByteArrayLiteral("Content-Length"), QByteArray::number(body->size()));
    for (const auto &[name, value] : headers)
        responder.writeHeader(name, value);
    if (body->atEnd()) {
        responder.writeBody(QByteArray());
        return;
    }
    auto *pump = new Pump(std::move(responder), socket, std::move(body));
    pump->feed();
}

} // namespace MemoryGraph::FileReply
