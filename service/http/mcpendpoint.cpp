#include "service/http/mcpendpoint.h"

#include "service/core/ids.h"
#include "service/mcp/mcpprotocol.h"
#include "service/memoryservice.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

namespace MemoryGraph {

using namespace Mcp;

namespace {

constexpr int kMaxSessions = 1000;

HttpReply jsonReply(int status, const QJsonValue &body, const QString &detail)
{
    HttpReply reply;
    reply.status = status;
    reply.raw = true;
    if (body.isObject())
        reply.rawBody = QJsonDocument(body.toObject()).toJson(QJsonDocument::Compact);
    else if (body.isArray())
        reply.rawBody = QJsonDocument(body.toArray()).toJson(QJsonDocument::Compact);
    reply.logDetail = detail;
    return reply;
}

HttpReply rpcError(int status, int code, const QString &message, const QString &detail)
{
    return jsonReply(status, errorResponse(QJsonValue(), code, message), detail);
}

/// Who a session belongs to: the credential's identity (auth off: the local operator).
QString ownerOf(const RequestMeta &meta)
{
    if (!meta.principal)
        return QStringLiteral("local");
    const Principal &p = *meta.principal;
    return QStringList{p.method, p.tenantId, p.agentId, p.teamId, p.role}.join(QLatin1Char('\n'));
}

/// A header value, decoded when it uses the =?base64?...?= form of 2026-07-28.
QString headerText(const QByteArray &value)
{
    const QByteArray v = value.trimmed();
    if (v.startsWith("=?base64?") && v.endsWith("?=") && v.size() >= 11)
        return QString::fromUtf8(QByteArray::fromBase64(v.mid(9, v.size() - 11)));
    return QString::fromUtf8(v);
}

bool acceptsJson(const QByteArray &accept)
{
    if (accept.trimmed().isEmpty())
        return true;
    const QByteArray a = accept.toLower();
    return a.contains("application/json") || a.contains("*/*") || a.contains("application/*");
}

/// 2026-07-28: the request metadata headers must repeat what the body says.
std::optional<QString> headerMismatch(const HttpCall &call, const QJsonObject &message,
                                      const QString &revision)
{
    const QString version = headerText(call.header("mcp-protocol-version"));
    if (version != revision)
        return QStringLiteral("MCP-Protocol-Version header '%1' does not match the body's "
                              "protocol version '%2'")
            .arg(version.left(64), revision);
    const QString method = message.value(QStringLiteral("method")).toString();
    if (!call.headers.contains("mcp-method"))
        return QStringLiteral("Mcp-Method header is required");
    if (headerText(call.header("mcp-method")) != method)
        return QStringLiteral("Mcp-Method header does not match the body's method '%1'")
            .arg(method);
    const QJsonObject params = message.value(QStringLiteral("params")).toObject();
    QString name;
    if (method == QLatin1String("tools/call"))
        name = params.value(QStringLiteral("name")).toString();
    else if (method == QLatin1String("resources/read"))
        name = params.value(QStringLiteral("uri")).toString();
    else
        return std::nullopt;
    if (!call.headers.contains("mcp-name"))
        return QStringLiteral("Mcp-Name header is required for ") + method;
    if (headerText(call.header("mcp-name")) != name)
        return QStringLiteral("Mcp-Name header does not match the body value '%1'").arg(name);
    return std::nullopt;
}

} // namespace

McpEndpoint::McpEndpoint(MemoryService *service)
    : m_service(service), m_server(service),
      m_idleMs(qint64(service->config().mcpSessionIdleSec) * 1000)
{
}

int McpEndpoint::sessionCount()
{
    std::lock_guard lock(m_mutex);
    expireLocked(QDateTime::currentMSecsSinceEpoch());
    return int(m_sessions.size());
}

void McpEndpoint::expireLocked(qint64 nowMs)
{
    for (auto it = m_sessions.begin(); it != m_sessions.end();) {
        if (nowMs - it->lastUsedMs > m_idleMs)
            it = m_sessions.erase(it);
        else
            ++it;
    }
}

Result<HttpReply> McpEndpoint::handle(const HttpCall &call, const McpInvoke &invoke)
{
    if (call.method == QLatin1String("DELETE"))
        return remove(call);
    return post(call, invoke);
}

HttpReply McpEndpoint::remove(const HttpCall &call)
{
    const QString id = QString::fromLatin1(call.header("mcp-session-id").trimmed());
    if (id.isEmpty())
        return rpcError(400, InvalidRequest,
                        QStringLiteral("Bad Request: Mcp-Session-Id header is required"),
                        QStringLiteral("session/delete"));
    std::lock_guard lock(m_mutex);
    expireLocked(QDateTime::currentMSecsSinceEpoch());
    const auto found = m_sessions.constFind(id);
    if (found == m_sessions.constEnd() || found->owner != ownerOf(call.meta))
        return rpcError(404, InvalidRequest, QStringLiteral("Session not found"),
                        QStringLiteral("session/delete"));
    m_sessions.erase(found);
    HttpReply reply;
    reply.status = 204;
    reply.raw = true;
    reply.logDetail = QStringLiteral("session/delete");
    return reply;
}

HttpReply McpEndpoint::post(const HttpCall &call, const McpInvoke &invoke)
{
    if (!acceptsJson(call.header("accept")))
        return rpcError(406, InvalidRequest,
                        QStringLiteral("Not Acceptable: the client must accept application/json"),
                        QString());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(call.body, &parseError);
    if (parseError.error != QJsonParseError::NoError || doc.isNull())
        return rpcError(400, ParseError, QStringLiteral("Parse error: ") + parseError.errorString(),
                        QStringLiteral("parse_error"));
    const QJsonValue message = doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object());
    const QJsonObject single = doc.isObject() ? doc.object() : QJsonObject();

    McpCall mcp{call.meta, invoke, nullptr};
    const auto finish = [](const McpReply &r, QList<QPair<QByteArray, QByteArray>> headers = {}) {
        HttpReply reply = jsonReply(r.body.isUndefined() ? 202 : r.httpStatus, r.body,
                                    r.labels.join(QStringLiteral(", ")));
        reply.headers = std::move(headers);
        return reply;
    };

    // initialize opens a session (2025-03-26 .. 2025-11-25).
    if (single.value(QStringLiteral("method")) == QLatin1String("initialize")
        && single.contains(QStringLiteral("id"))) {
        McpSession state;
        mcp.session = &state;
        const McpReply r = m_server.handle(message, mcp);
        if (r.negotiated.isEmpty())
            return finish(r);
        const QString id = randomUuid();
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        {
            std::lock_guard lock(m_mutex);
            expireLocked(now);
            if (m_sessions.size() >= kMaxSessions) { // the least recently used one goes
                auto oldest = m_sessions.begin();
                for (auto it = m_sessions.begin(); it != m_sessions.end(); ++it) {
                    if (it->lastUsedMs < oldest->lastUsedMs)
                        oldest = it;
                }
                m_sessions.erase(oldest);
            }
            m_sessions.insert(id, Session{state, ownerOf(call.meta), now});
        }
        return finish(r, {{QByteArrayLiteral("Mcp-Session-Id"), id.toLatin1()}});
    }

    // A stateless (2026-07-28) message: no session; its headers must match its body.
    const QString metaRevision = McpServer::metaRevision(single);
    if (doc.isObject() && !metaRevision.isEmpty() && !isLegacyRevision(metaRevision)) {
        if (single.contains(QStringLiteral("id"))) {
            if (auto mismatch = headerMismatch(call, single, metaRevision))
                return jsonReply(400,
                                 errorResponse(single.value(QStringLiteral("id")), HeaderMismatch,
                                               QStringLiteral("Header mismatch: ") + *mismatch),
                                 single.value(QStringLiteral("method")).toString());
        }
        return finish(m_server.handle(message, mcp));
    }

    // Everything else belongs to a session.
    const QString id = QString::fromLatin1(call.header("mcp-session-id").trimmed());
    if (id.isEmpty())
        return rpcError(400, InvalidRequest,
                        QStringLiteral("Bad Request: Mcp-Session-Id header is required (send "
                                       "initialize first, or use protocol revision %1)")
                            .arg(kRevision20260728),
                        single.value(QStringLiteral("method")).toString());
    Session session;
    {
        std::lock_guard lock(m_mutex);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        expireLocked(now);
        auto found = m_sessions.find(id);
        if (found == m_sessions.end() || found->owner != ownerOf(call.meta))
            return rpcError(404, InvalidRequest, QStringLiteral("Session not found"),
                            single.value(QStringLiteral("method")).toString());
        found->lastUsedMs = now;
        session = *found;
    }
    if (call.headers.contains("mcp-protocol-version")) {
        const QString version = headerText(call.header("mcp-protocol-version"));
        if (version != session.state.revision)
            return rpcError(400, InvalidRequest,
                            QStringLiteral("Bad Request: MCP-Protocol-Version '%1' is not this "
                                           "session's revision %2")
                                .arg(version.left(64), session.state.revision),
                            single.value(QStringLiteral("method")).toString());
    }
    mcp.session = &session.state;
    const McpReply r = m_server.handle(message, mcp);
    if (session.state.initialized) {
        std::lock_guard lock(m_mutex);
        auto found = m_sessions.find(id);
        if (found != m_sessions.end())
            found->state.initialized = true;
    }
    return finish(r);
}

} // namespace MemoryGraph
