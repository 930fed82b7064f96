#pragma once

#include "app/commandline.h"
#include "service/mcp/mcpserver.h"

#include <QByteArray>
#include <QNetworkAccessManager>
#include <QNetworkRequest>
#include <QObject>
#include <QQueue>
#include <QUrl>

#include <memory>

namespace MemoryGraph {

class HttpApi;
class InstanceLock;
class MemoryService;

/// `memorygraph mcp` (or --mcp-stdio): the MCP stdio transport. Newline-delimited JSON-RPC on
/// stdin/stdout; logs go to stderr only. When a Memory Graph instance listens on the
/// configured URL (--bind/--port) or holds the data folder and serves HTTP, every message is
/// forwarded to its /mcp (credential from MEMORY_MCP_API_KEY or MEMORY_MCP_BEARER_TOKEN);
/// otherwise this process takes the data folder's lock and serves it itself, headless. Exits
/// when stdin closes.
class McpStdio : public QObject
{
    Q_OBJECT
public:
    explicit McpStdio(const CommandLineOptions &options, QObject *parent = nullptr);
    ~McpStdio() override;

    /// Decides forward or local, starts reading stdin. ExitOk to enter the event loop, else the
    /// exit code (after telling stderr why).
    int start();

private:
    void onLine(const QByteArray &line);
    void onEndOfInput();
    void serveLocally(const QByteArray &line);
    void forwardNext();
    void sendForward(const QByteArray &line, bool mayReopen);
    QNetworkRequest requestFor(const QJsonObject &message) const;
    bool reopenSession();
    void writeMessage(const QJsonValue &message);
    bool probe(const QUrl &base);
    int openLocally(const QString &dataDir);

    CommandLineOptions m_options;
    // Local mode.
    std::unique_ptr<InstanceLock> m_lock;
    std::unique_ptr<MemoryService> m_service;
    std::unique_ptr<QObject> m_context;
    std::unique_ptr<HttpApi> m_api;
    std::unique_ptr<McpServer> m_server;
    McpSession m_session;
    // Forward mode.
    QNetworkAccessManager m_nam;
    QUrl m_endpoint;
    QByteArray m_sessionId;
    QString m_revision;
    QByteArray m_initializeLine; ///< the client's initialize, replayed when a session ends
    QQueue<QByteArray> m_pending;
    bool m_busy = false;
    bool m_inputClosed = false;
};

} // namespace MemoryGraph
