#pragma once

#include "service/http/httpserverhost.h"
#include "service/memoryservice.h"
#include "tests/support/tempservice.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QEventLoop>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QMessageAuthenticationCode>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPair>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QString>
#include <QStringList>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>
#include <QUrl>

#include <memory>

namespace MemoryGraph::Test {

/// Request headers as sent: name and value, in order.
using HttpHeaders = QList<QPair<QByteArray, QByteArray>>;

/// A finished (or timed out) HTTP exchange, read synchronously by a test.
struct Reply
{
    int status = 0;                        ///< HTTP status, 0 when no response arrived
    QHash<QByteArray, QByteArray> headers; ///< response headers, lower-case names
    QByteArray body;                       ///< raw response body
    QJsonObject json;                      ///< body parsed as a JSON object (empty otherwise)
    bool isJsonObject = false;             ///< the body is exactly one JSON object
    bool finished = false;                 ///< false when the timeout hit first
    QString networkError;                  ///< QNetworkReply's text for transport failures

    QByteArray header(const QByteArray &lowerName) const { return headers.value(lowerName); }

    /// The error code of an error envelope ({"error": ...}).
    QString errorCode() const { return json.value(QStringLiteral("error")).toString(); }

    /// details.issues[index].path of a validation error envelope.
    QString issuePath(int index = 0) const
    {
        return json.value(QStringLiteral("details"))
            .toObject()
            .value(QStringLiteral("issues"))
            .toArray()
            .at(index)
            .toObject()
            .value(QStringLiteral("path"))
            .toString();
    }

    /// A one-line description for QVERIFY2 / failure messages.
    QByteArray describe() const
    {
        QByteArray text = "HTTP " + QByteArray::number(status);
        if (!finished)
            text += " (timed out)";
        if (!networkError.isEmpty())
            text += " [" + networkError.toUtf8() + ']';
        text += ' ' + body.left(600);
        return text;
    }
};

/// The key names of a JSON object, sorted (QJsonObject keeps keys sorted), for exact
/// whitelist assertions with QCOMPARE.
inline QStringList keysOf(const QJsonObject &object)
{
    return object.keys();
}

/// An expected key list, sorted like keysOf(): keyList({"b", "a"}) == {"a", "b"}.
inline QStringList keyList(std::initializer_list<const char *> names)
{
    QStringList list;
    for (const char *name : names)
        list.append(QString::fromLatin1(name));
    list.sort();
    return list;
}

/// True when `key` names a member of any object anywhere inside `value`.
inline bool containsKeyDeep(const QJsonValue &value, const QString &key)
{
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
            if (it.key() == key || containsKeyDeep(it.value(), key))
                return true;
        }
    } else if (value.isArray()) {
        const QJsonArray a = value.toArray();
        for (const QJsonValue &item : a) {
            if (containsKeyDeep(item, key))
                return true;
        }
    }
    return false;
}

/// A canonical lower-case 8-4-4-4-12 UUID.
inline bool isLowerUuid(const QString &text)
{
    static const QRegularExpression re(
        QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"));
    return re.match(text).hasMatch();
}

/// 64 lower-case hex digits.
inline bool isHex64(const QString &text)
{
    static const QRegularExpression re(QStringLiteral("^[0-9a-f]{64}$"));
    return re.match(text).hasMatch();
}

inline QByteArray compactJson(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

inline QByteArray base64Url(const QByteArray &raw)
{
    return raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

/// A compact HS256 JSON Web Token over `claims`, signed with `secret` (spec §5.2).
inline QByteArray makeHs256Jwt(const QJsonObject &claims, const QByteArray &secret)
{
    const QJsonObject header{{QStringLiteral("alg"), QStringLiteral("HS256")},
                             {QStringLiteral("typ"), QStringLiteral("JWT")}};
    const QByteArray signingInput
        = base64Url(compactJson(header)) + '.' + base64Url(compactJson(claims));
    const QByteArray signature
        = QMessageAuthenticationCode::hash(signingInput, secret, QCryptographicHash::Sha256);
    return signingInput + '.' + base64Url(signature);
}

/// The Authorization header carrying `token` as a bearer credential.
inline QPair<QByteArray, QByteArray> bearer(const QByteArray &token)
{
    return {QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer ") + token};
}

/// The bytes of one HTTP/1.1 request, exactly as given: no Host or Content-Type is added, so a
/// test can send any Host (or none) and any media type. Content-Length is added for a body.
inline QByteArray rawRequest(const QByteArray &method, const QByteArray &path,
                             const HttpHeaders &headers, const QByteArray &body = {})
{
    QByteArray out = method + ' ' + path + " HTTP/1.1\r\n";
    for (const auto &[name, value] : headers)
        out += name + ": " + value + "\r\n";
    if (!body.isEmpty() || method == "POST")
        out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    return out + "\r\n" + body;
}

/// One request written byte for byte over its own connection, for what QNetworkAccessManager
/// will not send (another Host, no Host, OPTIONS preflights). It does not block: the answer is
/// read while the test spins the event loop, so the server may live on the same thread, and many
/// exchanges can be open at once.
class RawHttpExchange
{
public:
    RawHttpExchange(quint16 port, const QByteArray &bytes) : m_bytes(bytes)
    {
        QObject::connect(&m_socket, &QTcpSocket::connected, &m_socket,
                         [this] { m_socket.write(m_bytes); });
        m_socket.connectToHost(QHostAddress(QHostAddress::LocalHost), port);
    }

    RawHttpExchange(const RawHttpExchange &) = delete;
    RawHttpExchange &operator=(const RawHttpExchange &) = delete;

    /// Reads what has arrived; true once the whole answer is in (or the server closed).
    bool answered()
    {
        m_buffer += m_socket.readAll();
        const qsizetype headerEnd = m_buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return m_socket.state() == QAbstractSocket::UnconnectedState;
        const Reply head = parse(false);
        if (head.status == 204 || head.status == 304)
            return true;
        if (head.headers.contains("content-length"))
            return m_buffer.size() - (headerEnd + 4) >= head.header("content-length").toLongLong();
        return m_socket.state() == QAbstractSocket::UnconnectedState;
    }

    /// Waits for the whole answer (or the timeout) and parses it.
    Reply wait(int timeoutMs = 15000)
    {
        const bool done = QTest::qWaitFor([this] { return answered(); }, timeoutMs);
        Reply out = parse(true);
        out.finished = done && out.status != 0;
        if (out.status == 0)
            out.networkError = QStringLiteral("no HTTP answer: ") + m_socket.errorString();
        return out;
    }

private:
    Reply parse(bool withBody) const
    {
        Reply out;
        const qsizetype headerEnd = m_buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return out;
        const QList<QByteArray> lines = m_buffer.left(headerEnd).split('\n');
        const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
        out.status = statusLine.value(1).toInt();
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon > 0)
                out.headers.insert(line.left(colon).trimmed().toLower(),
                                   line.mid(colon + 1).trimmed());
        }
        if (!withBody)
            return out;
        out.body = m_buffer.mid(headerEnd + 4);
        if (out.headers.contains("content-length"))
            out.body.truncate(out.header("content-length").toLongLong());
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(out.body, &parseError);
        if (parseError.error == QJsonParseError::NoError && doc.isObject()) {
            out.isJsonObject = true;
            out.json = doc.object();
        }
        return out;
    }

    QTcpSocket m_socket;
    QByteArray m_bytes;
    QByteArray m_buffer;
};

/// A TempService served by an HttpServerHost on 127.0.0.1 with an ephemeral port, plus a
/// synchronous client. Everything lives on the test thread: the host's replies come back through
/// queued calls, so the waits below spin the event loop until the reply has finished.
class HttpTestServer
{
public:
    static constexpr int kDefaultTimeoutMs = 15000;

    explicit HttpTestServer(const QProcessEnvironment &env = QProcessEnvironment()) : m_temp(env)
    {
        if (!m_temp.isValid()) {
            m_error = QStringLiteral("service did not open: ") + m_temp.errorText();
            return;
        }
        m_host = std::make_unique<HttpServerHost>(m_temp.service());
        QSignalSpy failed(m_host.get(), &HttpServerHost::startFailed);
        m_host->start(QStringLiteral("127.0.0.1"), 0);
        if (m_host->port() == 0) {
            m_error = failed.isEmpty() ? QStringLiteral("server did not start")
                                       : failed.constFirst().constFirst().toString();
            return;
        }
        m_nam = std::make_unique<QNetworkAccessManager>();
        m_nam->setProxy(QNetworkProxy::NoProxy);
    }

    ~HttpTestServer()
    {
        m_nam.reset(); // close client connections before the server goes away
        if (m_host)
            m_host->stop();
    }

    HttpTestServer(const HttpTestServer &) = delete;
    HttpTestServer &operator=(const HttpTestServer &) = delete;

    bool isReady() const { return m_nam != nullptr; }
    QString errorText() const { return m_error; }

    MemoryService *service() const { return m_temp.service(); }
    HttpServerHost *host() const { return m_host.get(); }
    quint16 port() const { return m_host ? m_host->port() : 0; }
    /// The folder holding the database and index files.
    QString dataDir() const { return m_temp.dataDir(); }
    /// The Host header a well-behaved client sends to this server.
    QByteArray hostHeader() const { return "127.0.0.1:" + QByteArray::number(port()); }

    /// Sends raw request bytes (see rawRequest) over a new connection and waits for the answer.
    Reply sendRaw(const QByteArray &bytes, int timeoutMs = kDefaultTimeoutMs)
    {
        if (!isReady())
            return notReady();
        RawHttpExchange exchange(port(), bytes);
        return exchange.wait(timeoutMs);
    }

    QUrl url(const QString &path) const
    {
        return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(port()).arg(path));
    }

    /// Sends one request and waits for the complete reply (or the timeout).
    Reply send(const QByteArray &method, const QString &path, const QByteArray &body = {},
               const HttpHeaders &headers = {}, int timeoutMs = kDefaultTimeoutMs)
    {
        if (!isReady())
            return notReady();
        QNetworkReply *reply = startRequest(method, path, body, headers);
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            done.wait(timeoutMs);
        return collect(reply);
    }

    /// Starts all POSTs at once (the client opens several connections), then waits for every
    /// reply. Replies are returned in the order of `bodies`.
    QVector<Reply> postConcurrently(const QString &path, const QList<QByteArray> &bodies,
                                    const HttpHeaders &headers = {},
                                    int timeoutMs = kDefaultTimeoutMs)
    {
        QVector<Reply> out;
        if (!isReady()) {
            out.fill(notReady(), bodies.size());
            return out;
        }
        QList<QNetworkReply *> replies;
        QEventLoop loop;
        int pending = int(bodies.size());
        for (const QByteArray &body : bodies) {
            QNetworkReply *reply = startRequest(QByteArrayLiteral("POST"), path, body, headers);
            QObject::connect(reply, &QNetworkReply::finished, &loop, [&loop, &pending] {
                if (--pending == 0)
                    loop.quit();
            });
            replies.append(reply);
        }
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        if (pending > 0)
            loop.exec();
        for (QNetworkReply *reply : replies)
            out.append(collect(reply));
        return out;
    }

    Reply post(const QString &path, const QByteArray &body, const HttpHeaders &headers = {})
    {
        return send(QByteArrayLiteral("POST"), path, body, headers);
    }

    Reply post(const QString &path, const QJsonObject &body, const HttpHeaders &headers = {})
    {
        return send(QByteArrayLiteral("POST"), path, compactJson(body), headers);
    }

    Reply get(const QString &path, const HttpHeaders &headers = {})
    {
        return send(QByteArrayLiteral("GET"), path, {}, headers);
    }

    /// POST /v1/memory/write.
    Reply write(const QJsonObject &body, const HttpHeaders &headers = {})
    {
        return post(QStringLiteral("/v1/memory/write"), body, headers);
    }

    /// Commits stored for (tenant, scope), newest first; empty on a read error.
    QVector<CommitRecord> commits(const QString &tenantId = QStringLiteral("default"),
                                  const QString &scope = QStringLiteral("default")) const
    {
        auto list = service()->listCommits(tenantId, scope);
        return list ? list.value() : QVector<CommitRecord>();
    }

    /// Nodes stored for (tenant, scope); empty on a read error.
    QVector<NodeRecord> nodes(const QString &tenantId = QStringLiteral("default"),
                              const QString &scope = QStringLiteral("default")) const
    {
        NodeQuery query;
        query.tenantId = tenantId;
        query.scope = scope;
        query.limit = 1000;
        auto page = service()->listNodes(query);
        return page ? page.value().nodes : QVector<NodeRecord>();
    }

private:
    Reply notReady() const
    {
        Reply out;
        out.networkError = QStringLiteral("server not ready: ") + m_error;
        return out;
    }

    QNetworkReply *startRequest(const QByteArray &method, const QString &path,
                                const QByteArray &body, const HttpHeaders &headers)
    {
        QNetworkRequest request(url(path));
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                             QNetworkRequest::ManualRedirectPolicy);
        bool contentType = false;
        for (const auto &[name, value] : headers) {
            request.setRawHeader(name, value);
            contentType = contentType || name.compare("content-type", Qt::CaseInsensitive) == 0;
        }
        if (!contentType && (method == "POST" || !body.isEmpty()))
            request.setHeader(QNetworkRequest::ContentTypeHeader,
                              QByteArrayLiteral("application/json"));
        if (method == "GET" && body.isEmpty())
            return m_nam->get(request);
        if (method == "POST")
            return m_nam->post(request, body);
        return m_nam->sendCustomRequest(request, method, body);
    }

    /// Reads a reply (aborting it when it has not finished) and schedules its deletion.
    static Reply collect(QNetworkReply *reply)
    {
        Reply out;
        out.finished = reply->isFinished();
        if (!out.finished)
            reply->abort();
        out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        for (const auto &[name, value] : reply->rawHeaderPairs())
            out.headers.insert(name.toLower(), value);
        out.body = reply->readAll();
        if (reply->error() != QNetworkReply::NoError && out.status == 0)
            out.networkError = reply->errorString();
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(out.body, &parseError);
        if (parseError.error == QJsonParseError::NoError && doc.isObject()) {
            out.isJsonObject = true;
            out.json = doc.object();
        }
        reply->deleteLater();
        return out;
    }

    TempService m_temp;
    std::unique_ptr<HttpServerHost> m_host;
    std::unique_ptr<QNetworkAccessManager> m_nam;
    QString m_error;
};

/// Builds an environment from name/value pairs.
inline QProcessEnvironment environment(std::initializer_list<QPair<const char *, QString>> vars)
{
    QProcessEnvironment env;
    for (const auto &[name, value] : vars)
        env.insert(QString::fromLatin1(name), value);
    return env;
}

/// A WriteNode object: client_id, type and text_summary.
inline QJsonObject writeNode(const QString &clientId, const QString &type, const QString &text)
{
    return {{QStringLiteral("client_id"), clientId},
            {QStringLiteral("type"), type},
            {QStringLiteral("text_summary"), text}};
}

/// A WriteEdge object between two endpoints given as {"client_id"} or {"id"} objects.
inline QJsonObject writeEdge(const QString &type, const QJsonObject &src, const QJsonObject &dst)
{
    return {
        {QStringLiteral("type"), type}, {QStringLiteral("src"), src}, {QStringLiteral("dst"), dst}};
}

inline QJsonObject byClientId(const QString &clientId)
{
    return {{QStringLiteral("client_id"), clientId}};
}

inline QJsonObject byId(const QString &id)
{
    return {{QStringLiteral("id"), id}};
}

} // namespace MemoryGraph::Test
