#pragma once

#include "service/http/httpcall.h"
#include "service/mcp/mcpserver.h"

#include <QHash>
#include <QString>

#include <mutex>

namespace MemoryGraph {

class MemoryService;

/// The Streamable HTTP transport of the MCP server at /mcp (behind the same browser guards and
/// authentication as /v1, applied by HttpApi). POST carries one JSON-RPC message (or a
/// 2025-03-26 batch) and is answered with JSON; DELETE ends a session; GET is 405 (no revision
/// we speak needs the server-to-client SSE stream).
/// - 2025-03-26 / 2025-06-18 / 2025-11-25: initialize opens a session named by the
///   Mcp-Session-Id response header; later requests must carry it (400 without, 404 once it
///   ended or expired after MEMORY_MCP_SESSION_IDLE_SEC idle) and, when they send
///   MCP-Protocol-Version, the negotiated revision (400 otherwise). A session belongs to the
///   credential that opened it.
/// - 2026-07-28: no session; MCP-Protocol-Version, Mcp-Method and Mcp-Name must match the body
///   (400 with JSON-RPC error -32020 otherwise).
class McpEndpoint
{
public:
    explicit McpEndpoint(MemoryService *service);

    /// call: an authenticated /mcp request; invoke runs /v1 operations for the tools.
    Result<HttpReply> handle(const HttpCall &call, const McpInvoke &invoke);

    /// Sessions currently open (tests, diagnostics).
    int sessionCount();

private:
    struct Session
    {
        McpSession state;
        QString owner;
        qint64 lastUsedMs = 0;
    };

    HttpReply post(const HttpCall &call, const McpInvoke &invoke);
    HttpReply remove(const HttpCall &call);
    /// Drops sessions idle for longer than the configured time. Holds m_mutex.
    void expireLocked(qint64 nowMs);

    MemoryService *m_service;
    McpServer m_server;
    qint64 m_idleMs;
    std::mutex m_mutex;
    QHash<QString, Session> m_sessions;
};

} // namespace MemoryGraph
