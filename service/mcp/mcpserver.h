#pragma once

#include "service/core/identity.h"
#include "service/core/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace MemoryGraph {

class MemoryService;

/// Runs one /v1 operation as the caller ("/v1/memory/write" and its JSON body) and answers
/// the body /v1 would, or its Error. The transport supplies it, so a tool call passes the
/// same validation, access rules, quotas and audit as the HTTP API.
using McpInvoke = std::function<Result<QJsonObject>(const QString &path, const QJsonObject &body)>;

/// What a transport keeps for one client of an initialize-based (legacy) revision.
struct McpSession
{
    QString revision;         ///< negotiated by initialize; empty before
    bool initialized = false; ///< notifications/initialized arrived
    QJsonObject clientInfo;
};

/// One message as a transport hands it over.
struct McpCall
{
    RequestMeta meta;              ///< the caller, exactly as /v1 would see it
    McpInvoke invoke;              ///< runs /v1 operations for the tools
    McpSession *session = nullptr; ///< the legacy session, if the message belongs to one
};

/// The answer to one transport message.
struct McpReply
{
    QJsonValue body = QJsonValue(QJsonValue::Undefined); ///< a response object, an array (batch) or
                                                         ///< undefined (nothing to send)
    int httpStatus = 200; ///< what Streamable HTTP answers with (202 when there is no body)
    QStringList labels;   ///< "tools/call remember", "initialize", ... for the request log
    QString negotiated;   ///< an initialize was answered: the session's revision
};

/// The Model Context Protocol over JSON-RPC 2.0, independent of the transport: revision
/// negotiation (initialize for 2025-03-26, 2025-06-18 and 2025-11-25; per-request _meta and
/// server/discover for the stateless 2026-07-28), tools/list, tools/call, resources/list,
/// resources/read, resources/templates/list, ping, notifications and 2025-03-26 batches.
/// Protocol faults answer JSON-RPC errors; a service error inside a tool answers an isError
/// tool result carrying the service's error code and message. Thread-safe (no state of its
/// own: sessions belong to the transport).
class McpServer
{
public:
    explicit McpServer(MemoryService *service);

    /// One transport message (a JSON text).
    McpReply handle(const QByteArray &payload, McpCall &call) const;
    McpReply handle(const QJsonValue &message, McpCall &call) const;

    /// The revision a message's params._meta names (2026-07-28 requests), else empty.
    static QString metaRevision(const QJsonObject &message);

private:
    struct Outcome
    {
        QJsonObject response; ///< empty for notifications and client responses
        int httpStatus = 200;
        QString label;
    };
    Outcome handleOne(const QJsonValue &message, McpCall &call, McpReply *reply) const;
    Outcome initialize(const QJsonValue &id, const QJsonObject &params, McpCall &call,
                       McpReply *reply) const;
    Outcome dispatch(const QString &method, const QJsonValue &id, const QJsonObject &params,
                     const QString &revision, McpCall &call) const;
    Outcome callTool(const QJsonValue &id, const QJsonObject &params, const QString &revision,
                     McpCall &call) const;
    Outcome listResources(const QJsonValue &id, const QJsonObject &params,
                          const McpCall &call) const;
    Outcome readResource(const QJsonValue &id, const QJsonObject &params, const QString &revision,
                         McpCall &call) const;

    MemoryService *m_service;
};

} // namespace MemoryGraph
