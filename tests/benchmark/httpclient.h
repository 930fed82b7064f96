#pragma once

#include <QByteArray>
#include <QString>

#include <memory>

class QTcpSocket;

namespace MemoryGraph::Bench {

/// Minimal blocking HTTP/1.1 client over one keep-alive QTcpSocket, for 127.0.0.1 only.
/// No event loop is needed (it uses the waitFor* calls), so each benchmark thread owns one
/// client and one connection. It never sends `Expect: 100-continue` (QHttpServer 6.4 never
/// answers it), sets TCP_NODELAY, and measures nothing itself: callers time request().
/// The connection is dropped and reopened after any error so a late answer can never be
/// mistaken for the next request's.
class HttpClient
{
public:
    struct Response
    {
        int status = 0; ///< 0 when no complete answer arrived
        QByteArray body;
        QString error; ///< set when status == 0
        bool ok() const { return status >= 200 && status < 300; }
    };

    explicit HttpClient(quint16 port);
    ~HttpClient();

    HttpClient(const HttpClient &) = delete;
    HttpClient &operator=(const HttpClient &) = delete;

    /// Sends one request and waits at most timeoutMs for the whole answer.
    Response request(const QByteArray &method, const QByteArray &path, const QByteArray &body,
                     int timeoutMs);

    Response get(const QByteArray &path, int timeoutMs)
    {
        return request("GET", path, {}, timeoutMs);
    }
    Response post(const QByteArray &path, const QByteArray &json, int timeoutMs)
    {
        return request("POST", path, json, timeoutMs);
    }

    /// Number of TCP connections opened so far (1 when keep-alive held throughout).
    int connectionsOpened() const { return m_connects; }

    void disconnect();

private:
    bool ensureConnected(int timeoutMs, QString *error);

    quint16 m_port;
    std::unique_ptr<QTcpSocket> m_socket;
    QByteArray m_buffer;
    int m_connects = 0;
};

} // namespace MemoryGraph::Bench
