#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

#include <memory>

class QHttpServerResponder;
class QIODevice;
class QTcpSocket;

namespace MemoryGraph::FileReply {

/// Answers with `body` (a file, open for reading) as the response body, written a piece at a
/// time as the socket drains, so a large export never sits in memory. Call on the socket's
/// thread; the file goes once it is sent or the connection closes.
void send(QHttpServerResponder &&responder, QTcpSocket *socket, int status,
          const QList<QPair<QByteArray, QByteArray>> &headers, std::unique_ptr<QIODevice> body);

} // namespace MemoryGraph::FileReply
