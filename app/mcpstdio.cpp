#include "app/mcpstdio.h"

#include "app/appcontroller.h"
#include "app/backupcommand.h"
#include "app/instancelock.h"
#include "service/core/config.h"
#include "service/core/ids.h"
#include "service/core/privatefiles.h"
#include "service/http/httpapi.h"
#include "service/mcp/mcpprotocol.h"
#include "service/memoryservice.h"
#include "service/net/embeddingfactory.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTimer>

#include <cstdio>
#include <iostream>
#include <string>
#include <thread>

#ifdef Q_OS_WIN
#include <fcntl.h>
#include <io.h>
#endif

namespace MemoryGraph {

namespace {

constexpr int kProbeTimeoutMs = 1500;
constexpr int kForwardTimeoutMs = 120000;

void logLine(const QString &text)
{
    std::fprintf(stderr, "memorygraph mcp: %s\n", qUtf8Printable(text));
    std::fflush(stderr);
}

QString urlOf(const QString &address, quint16 port)
{
    const bool ipv6 = QHostAddress(address).protocol() == QAbstractSocket::IPv6Protocol;
    return QStringLiteral("http://%1:%2")
        .arg(ipv6 ? QLatin1Char('[') + address + QLatin1Char(']') : address)
        .arg(port);
}

/// A JSON-RPC error for a message the instance could not answer in JSON-RPC terms.
QJsonObject transportError(const QJsonValue &id, const QString &message, const QJsonObject &data)
{
    return Mcp::errorResponse(id.isUndefined() ? QJsonValue() : id, Mcp::InternalError, message,
                              data);
}

} // namespace

McpStdio::McpStdio(const CommandLineOptions &options, QObject *parent)
    : QObject(parent), m_options(options)
{
    m_nam.setProxy(QNetworkProxy::NoProxy);
}

McpStdio::~McpStdio()
{
    m_server.reset();
    if (m_api)
        m_api->drain();
    m_api.reset();
    if (m_service)
        m_service->saveIndexes();
    m_service.reset();
    m_lock.reset();
}

bool McpStdio::probe(const QUrl &base)
{
    QNetworkRequest request(base.resolved(QUrl(QStringLiteral("/health"))));
    request.setTransferTimeout(kProbeTimeoutMs);
    QNetworkReply *reply = m_nam.get(request);
    QEventLoop loop;
    connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(kProbeTimeoutMs, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    const QJsonObject health = QJsonDocument::fromJson(reply->readAll()).object();
    const bool ok = reply->isFinished() && reply->error() == QNetworkReply::NoError
                    && health.value(QStringLiteral("ok")).toBool()
                    && health.contains(QStringLiteral("storage"));
    reply->abort();
    reply->deleteLater();
    return ok;
}

int McpStdio::start()
{
    QString dir = m_options.dataDir;
    if (dir.isEmpty())
        dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (dir.isEmpty()) {
        logLine(QStringLiteral("no application data folder is known; pass --data-dir"));
        return ExitConfiguration;
    }
    dir = QDir::cleanPath(QDir(dir).absolutePath());
    if (!PrivateFiles::ensureFolder(dir)) {
        logLine(QStringLiteral("cannot create the data folder %1").arg(dir));
        return ExitConfiguration;
    }
    dir = QFileInfo(dir).canonicalFilePath();

    // A running instance on the configured URL serves us; else whoever holds the folder; else
    // we open it ourselves.
    QUrl target(urlOf(m_options.bindAddress, m_options.port));
    bool forward = m_options.port != 0 && probe(target);
    if (!forward) {
        m_lock = std::make_unique<InstanceLock>(dir);
        if (!m_lock->tryLock(QStringLiteral("mcp-stdio"))) {
            const InstanceLock::Owner owner = m_lock->owner();
            m_lock.reset();
            if (owner.url.isEmpty() || !probe(QUrl(owner.url))) {
                logLine(QStringLiteral("the data folder %1 is in use by memorygraph %2; "
                                       "stop it, or let it serve HTTP so this can forward to it")
                            .arg(QDir::toNativeSeparators(dir), InstanceLock::describe(owner)));
                return ExitInUse;
            }
            target = QUrl(owner.url);
            forward = true;
        }
    }
    if (forward) {
        m_endpoint = target.resolved(QUrl(QStringLiteral("/mcp")));
        logLine(QStringLiteral("forwarding to %1").arg(m_endpoint.toString()));
    } else if (const int code = openLocally(dir); code != ExitOk) {
        return code;
    }

#ifdef Q_OS_WIN
    // One message per line ends in "\n": text mode would write "\r\n".
    _setmode(_fileno(stdout), _O_BINARY);
#endif
    // stdin is read on its own thread; each line is handled here, in order.
    std::thread([this] {
        std::string line;
        while (std::getline(std::cin, line)) {
            QByteArray bytes = QByteArray::fromStdString(line).trimmed();
            if (bytes.isEmpty())
                continue;
            QMetaObject::invokeMethod(
                this, [this, bytes] { onLine(bytes); }, Qt::QueuedConnection);
        }
        QMetaObject::invokeMethod(
            this, [this] { onEndOfInput(); }, Qt::QueuedConnection);
    }).detach();
    return ExitOk;
}

int McpStdio::openLocally(const QString &dataDir)
{
    auto config = ServiceConfig::fromEnvironment(QProcessEnvironment::systemEnvironment());
    if (!config) {
        logLine(QStringLiteral("configuration error: %1").arg(config.error().message));
        return ExitConfiguration;
    }
    (void)applyPendingRestore(dataDir); // says on stderr what it did
    ServiceConfig c = config.value();
    c.dataDir = dataDir;
    auto provider = makeEmbeddingProvider(c);
    if (!provider) {
        logLine(QStringLiteral("configuration error: %1").arg(provider.error().message));
        return ExitConfiguration;
    }
    auto service = MemoryService::open(c, std::move(provider).value());
    if (!service) {
        logLine(QStringLiteral("cannot open the memory store in %1: %2")
                    .arg(dataDir, service.error().message));
        return ExitConfiguration;
    }
    m_service = std::move(service).value();
    m_context = std::make_unique<QObject>();
    m_api = std::make_unique<HttpApi>(m_service.get(), m_context.get(), nullptr);
    m_server = std::make_unique<McpServer>(m_service.get());
    logLine(QStringLiteral("serving %1 (no running instance found)").arg(dataDir));
    return ExitOk;
}

void McpStdio::onLine(const QByteArray &line)
{
    if (m_server) {
        serveLocally(line);
        return;
    }
    m_pending.enqueue(line);
    forwardNext();
}

void McpStdio::onEndOfInput()
{
    m_inputClosed = true;
    if (m_server || (!m_busy && m_pending.isEmpty())) {
        if (!m_server && !m_sessionId.isEmpty()) {
            // End the instance's session, briefly.
            QNetworkRequest request(m_endpoint);
            request.setRawHeader("Mcp-Session-Id", m_sessionId);
            request.setTransferTimeout(kProbeTimeoutMs);
            QNetworkReply *reply = m_nam.deleteResource(request);
            connect(reply, &QNetworkReply::finished, qApp, [] { QCoreApplication::quit(); });
            return;
        }
        QCoreApplication::quit();
    }
}

void McpStdio::serveLocally(const QByteArray &line)
{
    // The local process acts for the user who started it: the local identity, as with auth off.
    RequestMeta meta;
    meta.requestId = randomUuid();
    meta.loopback = true;
    const QHostAddress peer(QHostAddress::LocalHost);
    McpCall call{meta,
                 [this, meta, peer](const QString &path, const QJsonObject &body) {
                     return m_api->invoke(path, body, meta, peer);
                 },
                 &m_session};
    const McpReply reply = m_server->handle(line, call);
    if (!reply.body.isUndefined())
        writeMessage(reply.body);
}

QNetworkRequest McpStdio::requestFor(const QJsonObject &message) const
{
    QNetworkRequest request(m_endpoint);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "application/json, text/event-stream");
    request.setTransferTimeout(kForwardTimeoutMs);
    const auto env = QProcessEnvironment::systemEnvironment();
    if (const QString key = env.value(QStringLiteral("MEMORY_MCP_API_KEY")); !key.isEmpty())
        request.setRawHeader("X-Api-Key", key.toUtf8());
    if (const QString token = env.value(QStringLiteral("MEMORY_MCP_BEARER_TOKEN"));
        !token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + token.toUtf8());
    const QString modern = McpServer::metaRevision(message);
    const QString method = message.value(QStringLiteral("method")).toString();
    if (!modern.isEmpty() && !Mcp::isLegacyRevision(modern)) {
        // 2026-07-28 mirrors the body into headers.
        request.setRawHeader("MCP-Protocol-Version", modern.toUtf8());
        request.setRawHeader("Mcp-Method", method.toUtf8());
        const QJsonObject params = message.value(QStringLiteral("params")).toObject();
        const QString name = method == QLatin1String("tools/call")
                                 ? params.value(QStringLiteral("name")).toString()
                                 : params.value(QStringLiteral("uri")).toString();
        if (method == QLatin1String("tools/call") || method == QLatin1String("resources/read"))
            request.setRawHeader("Mcp-Name", "=?base64?" + name.toUtf8().toBase64() + "?=");
    } else if (method != QLatin1String("initialize")) {
        if (!m_sessionId.isEmpty())
            request.setRawHeader("Mcp-Session-Id", m_sessionId);
        if (!m_revision.isEmpty())
            request.setRawHeader("MCP-Protocol-Version", m_revision.toUtf8());
    }
    return request;
}

bool McpStdio::reopenSession()
{
    // The instance ended our session (it expired, or the instance restarted): initialize again
    // the way the client did, quietly, so the client never sees the HTTP session.
    const auto post = [this](const QByteArray &line) {
        QNetworkReply *reply = m_nam.post(requestFor(QJsonDocument::fromJson(line).object()), line);
        QEventLoop loop;
        connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        if (!reply->isFinished())
            loop.exec();
        reply->deleteLater();
        return reply;
    };
    const QByteArray initialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
    m_sessionId.clear();
    QNetworkReply *reply = post(m_initializeLine);
    if (reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
        return false;
    m_sessionId = reply->rawHeader("Mcp-Session-Id");
    post(initialized);
    logLine(QStringLiteral("the instance ended the session; a new one was opened"));
    return !m_sessionId.isEmpty();
}

void McpStdio::forwardNext()
{
    if (m_busy || m_pending.isEmpty()) {
        if (m_inputClosed && !m_busy)
            onEndOfInput();
        return;
    }
    m_busy = true;
    const QByteArray line = m_pending.dequeue();
    sendForward(line, true);
}

void McpStdio::sendForward(const QByteArray &line, bool mayReopen)
{
    const QJsonDocument doc = QJsonDocument::fromJson(line);
    const QJsonObject message = doc.object();
    const QJsonValue id = message.value(QStringLiteral("id"));
    const QString method = message.value(QStringLiteral("method")).toString();
    const bool inSession = !m_sessionId.isEmpty() && method != QLatin1String("initialize");
    if (method == QLatin1String("initialize"))
        m_initializeLine = line;

    QNetworkReply *reply = m_nam.post(requestFor(message), line);
    connect(
        reply, &QNetworkReply::finished, this,
        [this, reply, id, method, doc, line, inSession, mayReopen] {
            reply->deleteLater();
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            if (status == 404 && inSession && mayReopen && !m_initializeLine.isEmpty()
                && reopenSession()) {
                sendForward(line, false);
                return;
            }
            const QByteArray body = reply->readAll();
            const QJsonDocument answer = QJsonDocument::fromJson(body);
            const bool expectsAnswer = doc.isArray() || !id.isUndefined();
            if (method == QLatin1String("initialize") && status == 200) {
                m_sessionId = reply->rawHeader("Mcp-Session-Id");
                m_revision = answer.object()
                                 .value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("protocolVersion"))
                                 .toString();
            }
            const bool jsonRpc
                = answer.isArray()
                  || answer.object().value(QStringLiteral("jsonrpc")) == QLatin1String("2.0");
            if (jsonRpc) {
                writeMessage(answer.isArray() ? QJsonValue(answer.array())
                                              : QJsonValue(answer.object()));
            } else if (expectsAnswer && status != 202) {
                // /v1-style refusals (401, 403, 415, ...) and transport failures, as JSON-RPC.
                const QJsonObject data{
                    {QStringLiteral("http_status"), status},
                    {QStringLiteral("body"), answer.isObject()
                                                 ? QJsonValue(answer.object())
                                                 : QJsonValue(QString::fromUtf8(body.left(500)))}};
                writeMessage(transportError(
                    id,
                    status == 0
                        ? QStringLiteral("cannot reach %1: %2")
                              .arg(m_endpoint.toString(), reply->errorString())
                        : QStringLiteral("the Memory Graph instance answered HTTP %1").arg(status),
                    data));
            }
            m_busy = false;
            forwardNext();
        });
}

void McpStdio::writeMessage(const QJsonValue &message)
{
    const QByteArray text = message.isArray()
                                ? QJsonDocument(message.toArray()).toJson(QJsonDocument::Compact)
                                : QJsonDocument(message.toObject()).toJson(QJsonDocument::Compact);
    std::fwrite(text.constData(), 1, size_t(text.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

} // namespace MemoryGraph
