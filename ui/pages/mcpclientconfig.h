#pragma once

#include <QList>
#include <QString>

namespace MemoryGraph::Ui {

/// Ready-to-paste MCP client configuration for the clients people run (Claude Desktop, Claude
/// Code, Cursor, VS Code), in the stdio form (the client starts `memorygraph mcp`, which
/// forwards to this instance) and the HTTP form (the client talks to /mcp itself).
namespace McpClientConfig {

enum class Client { ClaudeDesktop, ClaudeCode, Cursor, VsCode };
enum class Transport { Stdio, Http };

struct Target
{
    QString endpoint; ///< http://host:port/mcp
    QString program;  ///< the memorygraph executable
    quint16 port = 8787;
    QString dataDir;       ///< empty: the default folder
    bool needsKey = false; ///< auth is on: leave a place for the API key
};

QString clientName(Client client);
/// Where the text goes, e.g. "claude_desktop_config.json" or "a terminal".
QString destination(Client client);
/// The configuration (JSON, or a shell command for Claude Code).
QString text(Client client, Transport transport, const Target &target);

QList<Client> clients();

} // namespace McpClientConfig
} // namespace MemoryGraph::Ui
