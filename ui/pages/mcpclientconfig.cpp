#include "ui/pages/mcpclientconfig.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace MemoryGraph::Ui::McpClientConfig {

namespace {

const QString kName = QStringLiteral("memorygraph");
const QString kKeyPlaceholder = QStringLiteral("<your API key>");

QJsonArray stdioArgs(const Target &t)
{
    QJsonArray args{QStringLiteral("mcp"), QStringLiteral("--port"), QString::number(t.port)};
    if (!t.dataDir.isEmpty()) {
        args.append(QStringLiteral("--data-dir"));
        args.append(t.dataDir);
    }
    return args;
}

QString pretty(const QJsonObject &o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)).trimmed();
}

QString shellQuoted(const QString &word)
{
    if (!word.isEmpty()
        && !word.contains(QRegularExpression(QStringLiteral("[^A-Za-z0-9_./:=@-]"))))
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

} // namespace

QList<Client> clients()
{
    return {Client::ClaudeDesktop, Client::ClaudeCode, Client::Cursor, Client::VsCode};
}

QString clientName(Client client)
{
    switch (client) {
    case Client::ClaudeDesktop: return QStringLiteral("Claude Desktop");
    case Client::ClaudeCode: return QStringLiteral("Claude Code");
    case Client::Cursor: return QStringLiteral("Cursor");
    case Client::VsCode: return QStringLiteral("VS Code");
    }
    return {};
}

QString destination(Client client)
{
    switch (client) {
    case Client::ClaudeDesktop: return QStringLiteral("claude_desktop_config.json");
    case Client::ClaudeCode: return QStringLiteral("a terminal");
    case Client::Cursor: return QStringLiteral("~/.cursor/mcp.json");
    case Client::VsCode: return QStringLiteral(".vscode/mcp.json");
    }
    return {};
}

QString text(Client client, Transport transport, const Target &t)
{
    const bool stdio = transport == Transport::Stdio;
    QJsonObject stdioServer{{QStringLiteral("command"), t.program},
                            {QStringLiteral("args"), stdioArgs(t)}};
    if (t.needsKey)
        stdioServer.insert(QStringLiteral("env"),
                           QJsonObject{{QStringLiteral("MEMORY_MCP_API_KEY"), kKeyPlaceholder}});
    const QJsonObject headers{{QStringLiteral("X-Api-Key"), kKeyPlaceholder}};

    switch (client) {
    case Client::ClaudeCode: {
        if (stdio) {
            QStringList words{QStringLiteral("claude"), QStringLiteral("mcp"),
                              QStringLiteral("add")};
            if (t.needsKey)
                words << QStringLiteral("-e")
                      << QStringLiteral("MEMORY_MCP_API_KEY=") + kKeyPlaceholder;
            words << kName << QStringLiteral("--") << t.program;
            for (const QJsonValue &a : stdioArgs(t))
                words << a.toString();
            QStringList quoted;
            for (const QString &w : std::as_const(words))
                quoted << shellQuoted(w);
            return quoted.join(QLatin1Char(' '));
        }
        QStringList words{QStringLiteral("claude"),
                          QStringLiteral("mcp"),
                          QStringLiteral("add"),
                          QStringLiteral("--transport"),
                          QStringLiteral("http"),
                          kName,
                          t.endpoint};
        if (t.needsKey)
            words << QStringLiteral("--header") << QStringLiteral("X-Api-Key: ") + kKeyPlaceholder;
        QStringList quoted;
        for (const QString &w : std::as_const(words))
            quoted << shellQuoted(w);
        return quoted.join(QLatin1Char(' '));
    }
    case Client::ClaudeDesktop: {
        // Claude Desktop starts local servers; the HTTP form goes through the mcp-remote bridge.
        QJsonObject server = stdioServer;
        if (!stdio) {
            QJsonArray args{QStringLiteral("-y"), QStringLiteral("mcp-remote"), t.endpoint};
            if (t.needsKey) {
                args.append(QStringLiteral("--header"));
                args.append(QStringLiteral("X-Api-Key:") + kKeyPlaceholder);
            }
            server = {{QStringLiteral("command"), QStringLiteral("npx")},
                      {QStringLiteral("args"), args}};
        }
        return pretty({{QStringLiteral("mcpServers"), QJsonObject{{kName, server}}}});
    }
    case Client::Cursor: {
        QJsonObject server = stdioServer;
        if (!stdio) {
            server = {{QStringLiteral("url"), t.endpoint}};
            if (t.needsKey)
                server.insert(QStringLiteral("headers"), headers);
        }
        return pretty({{QStringLiteral("mcpServers"), QJsonObject{{kName, server}}}});
    }
    case Client::VsCode: {
        QJsonObject server = stdioServer;
        server.insert(QStringLiteral("type"), QStringLiteral("stdio"));
        if (!stdio) {
            server = {{QStringLiteral("type"), QStringLiteral("http")},
                      {QStringLiteral("url"), t.endpoint}};
            if (t.needsKey)
                server.insert(QStringLiteral("headers"), headers);
        }
        return pretty({{QStringLiteral("servers"), QJsonObject{{kName, server}}}});
    }
    }
    return {};
}

} // namespace MemoryGraph::Ui::McpClientConfig
