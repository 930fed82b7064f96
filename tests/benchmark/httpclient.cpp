#include "tests/benchmark/httpclient.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QNetworkProxy>
#include <QTcpSocket>

namespace MemoryGraph::Bench {

namespace {

constexpr qsizetype kMaxHeaderBytes = 64 * 1024;

int remainingMs(const QElapsedTimer &timer, int timeoutMs)
{
    return qMax(0, timeoutMs - int(timer.elapsed()));
}

} // namespace

HttpClient::HttpClient(quint16 port) : m_port(port) { }

HttpClient::~HttpClient()
{
    disconnect();
}

void HttpClient::disconnect()
{
    if (m_socket) {
        m_socket->abort();
        m_socket.reset();
    }
    m_buffer.clear();
}

bool HttpClient::ensureConnected(int timeoutMs, QString *error)
{
    // A kept-alive connection the server has closed since (idle timeout) shows up here as EOF.
    if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState)
        m_socket->waitForReadyRead(0);
    if (m_socket && m_socket->state() == QAbstractSocket::ConnectedState)
        return true;
    disconnect();
    m_socket = std::make_unique<QTcpSocket>();
    m_socket->setProxy(QNetworkProxy::NoProxy);
    m_socket->connectToHost(QHostAddress(QHostAddress::LocalHost), m_port);
    if (!m_socket->waitForConnected(qMax(1, timeoutMs))) {
        *error = QStringLiteral("connect: ") + m_socket->errorString();
        disconnect();
        return false;
    }
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    ++m_connects;
    return true;
}

HttpClient::Response HttpClient::request(const QByteArray &method, const QByteArray &path,
                                         const QByteArray &body, int timeoutMs)
{
    QElapsedTimer timer;
    timer.start();
    Response response;
    if (!ensureConnected(timeoutMs, &response.error))
        return response;

    QByteArray head;
    head.reserve(256);
    head += method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(m_port)
            + "\r\nConnection: keep-alive\r\nAccept: application/json\r\n";
    if (method != "GET")
        head += "Content-Type: application/json\r\nContent-Length: "
                + QByteArray::number(body.size()) + "\r\n";
    head += "\r\n";
    // One buffer, one write: no small trailing segment for Nagle to hold back.
    const QByteArray wire = head + body;
    if (m_socket->write(wire) != wire.size()) {
        response.error = QStringLiteral("write: ") + m_socket->errorString();
        disconnect();
        return response;
    }
    while (m_socket->bytesToWrite() > 0) {
        if (!m_socket->waitForBytesWritten(remainingMs(timer, timeoutMs))) {
            response.error = QStringLiteral("write: ") + m_socket->errorString();
            disconnect();
            return response;
        }
    }

    auto fail = [&](const QString &why) {
        response.status = 0;
        response.body.clear();
        response.error = why;
        disconnect();
        return response;
    };

    // Header block.
    qsizetype headerEnd = -1;
    for (;;) {
        headerEnd = m_buffer.indexOf("\r\n\r\n");
        if (headerEnd >= 0)
            break;
        if (m_buffer.size() > kMaxHeaderBytes)
            return fail(QStringLiteral("response header too large"));
        if (remainingMs(timer, timeoutMs) == 0)
            return fail(
                QStringLiteral("timeout after %1 ms waiting for the header").arg(timeoutMs));
        if (m_socket->bytesAvailable() == 0
            && !m_socket->waitForReadyRead(remainingMs(timer, timeoutMs)))
            return fail(QStringLiteral("read: ") + m_socket->errorString());
        m_buffer += m_socket->readAll();
    }
    const QList<QByteArray> lines = m_buffer.left(headerEnd).split('\n');
    const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
    bool statusOk = false;
    const int status = statusLine.value(1).toInt(&statusOk);
    if (!statusLine.value(0).startsWith("HTTP/1.") || !statusOk)
        return fail(QStringLiteral("bad status line: ")
                    + QString::fromLatin1(lines.value(0).left(80)));
    qint64 contentLength = -1;
    bool chunked = false;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name == "content-length")
            contentLength = value.toLongLong();
        else if (name == "transfer-encoding" && value.toLower().contains("chunked"))
            chunked = true;
    }
    if (chunked || contentLength < 0)
        return fail(QStringLiteral("response without Content-Length is not supported"));

    const qsizetype bodyStart = headerEnd + 4;
    while (m_buffer.size() - bodyStart < contentLength) {
        if (remainingMs(timer, timeoutMs) == 0)
            return fail(QStringLiteral("timeout after %1 ms waiting for the body").arg(timeoutMs));
        if (m_socket->bytesAvailable() == 0
            && !m_socket->waitForReadyRead(remainingMs(timer, timeoutMs)))
            return fail(QStringLiteral("read: ") + m_socket->errorString());
        m_buffer += m_socket->readAll();
    }
    response.status = status;
    response.body = m_buffer.mid(bodyStart, qsizetype(contentLength));
    m_buffer.remove(0, bodyStart + qsizetype(contentLength));
    return response;
}

} // namespace MemoryGraph::Bench
