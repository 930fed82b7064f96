// The Server page's MCP endpoint and its "Copy client configuration" menu; MCP calls in the
// request log.

#include "ui/models/requestlogmodel.h"
#include "ui/pages/serverpage.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Ui;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QAction *actionNamed(QMenu *menu, const QString &prefix)
{
    for (QAction *a : menu->actions()) {
        if (a->text().startsWith(prefix))
            return a;
    }
    return nullptr;
}

QJsonObject copied(QMenu *menu, const QString &prefix)
{
    QAction *action = actionNamed(menu, prefix);
    if (!action)
        return {};
    action->trigger();
    return QJsonDocument::fromJson(QGuiApplication::clipboard()->text().toUtf8()).object();
}

} // namespace

class TestServerPageMcp : public QObject
{
    Q_OBJECT

private slots:
    void showsTheEndpointWhileListening();
    void copiesClientConfiguration();
    void keyPlaceholderWhenAuthIsOn();
    void requestLogShowsToolNames();
};

void TestServerPageMcp::showsTheEndpointWhileListening()
{
    ServerPage page;
    auto *label = page.findChild<QLabel *>(s("mcpEndpointLabel"));
    QVERIFY(label);
    QVERIFY(page.mcpEndpoint().isEmpty());
    page.onServerStarted(s("127.0.0.1"), 8787);
    QCOMPARE(page.mcpEndpoint(), s("http://127.0.0.1:8787/mcp"));
    QCOMPARE(label->text(), s("http://127.0.0.1:8787/mcp"));
    page.onServerStarted(s("::1"), 9000);
    QCOMPARE(page.mcpEndpoint(), s("http://[::1]:9000/mcp"));
    page.onServerStopped();
    QVERIFY(page.mcpEndpoint().isEmpty());
    QVERIFY(label->text() != s("http://[::1]:9000/mcp"));
}

void TestServerPageMcp::copiesClientConfiguration()
{
    ServerPage page;
    page.setDataDir(s("/data/memory"));
    page.onServerStarted(s("127.0.0.1"), 8787);
    QMenu *menu = page.mcpConfigMenu();
    QVERIFY(menu);
    QCOMPARE(menu->actions().size(), 8); // four clients, stdio and HTTP each

    const QJsonObject vscodeHttp = copied(menu, s("VS Code (HTTP"));
    const QJsonObject server
        = vscodeHttp.value(s("servers")).toObject().value(s("memorygraph")).toObject();
    QCOMPARE(server.value(s("type")).toString(), s("http"));
    QCOMPARE(server.value(s("url")).toString(), s("http://127.0.0.1:8787/mcp"));
    QVERIFY(!server.contains(s("headers")));

    const QJsonObject cursorStdio = copied(menu, s("Cursor (stdio"));
    const QJsonObject local
        = cursorStdio.value(s("mcpServers")).toObject().value(s("memorygraph")).toObject();
    QCOMPARE(local.value(s("command")).toString(), QCoreApplication::applicationFilePath());
    QCOMPARE(local.value(s("args")).toArray(),
             QJsonArray({s("mcp"), s("--port"), s("8787"), s("--data-dir"), s("/data/memory")}));

    const QJsonObject desktop = copied(menu, s("Claude Desktop (stdio"));
    QVERIFY(desktop.value(s("mcpServers")).toObject().contains(s("memorygraph")));
    const QJsonObject cursorHttp = copied(menu, s("Cursor (HTTP"));
    QCOMPARE(cursorHttp.value(s("mcpServers"))
                 .toObject()
                 .value(s("memorygraph"))
                 .toObject()
                 .value(s("url"))
                 .toString(),
             s("http://127.0.0.1:8787/mcp"));

    actionNamed(menu, s("Claude Code (HTTP"))->trigger();
    QCOMPARE(QGuiApplication::clipboard()->text(),
             s("claude mcp add --transport http memorygraph http://127.0.0.1:8787/mcp"));
    actionNamed(menu, s("Claude Code (stdio"))->trigger();
    QVERIFY(QGuiApplication::clipboard()->text().startsWith(s("claude mcp add memorygraph -- ")));
    QVERIFY(QGuiApplication::clipboard()->text().endsWith(
        s(" mcp --port 8787 --data-dir /data/memory")));
}

void TestServerPageMcp::keyPlaceholderWhenAuthIsOn()
{
    ServerPage page;
    page.setAuthMode(s("api_key"));
    page.onServerStarted(s("127.0.0.1"), 8787);
    const QJsonObject vscode = copied(page.mcpConfigMenu(), s("VS Code (HTTP"));
    QVERIFY(vscode.value(s("servers"))
                .toObject()
                .value(s("memorygraph"))
                .toObject()
                .value(s("headers"))
                .toObject()
                .contains(s("X-Api-Key")));
    const QJsonObject stdio = copied(page.mcpConfigMenu(), s("VS Code (stdio"));
    QVERIFY(stdio.value(s("servers"))
                .toObject()
                .value(s("memorygraph"))
                .toObject()
                .value(s("env"))
                .toObject()
                .contains(s("MEMORY_MCP_API_KEY")));
}

void TestServerPageMcp::requestLogShowsToolNames()
{
    RequestLogModel model;
    RequestLogEntry plain;
    plain.method = s("POST");
    plain.path = s("/v1/memory/write");
    RequestLogEntry mcp = plain;
    mcp.path = s("/mcp");
    mcp.detail = s("tools/call remember");
    model.append({plain, mcp});
    const int path = int(RequestLogModel::Column::Path);
    QCOMPARE(model.data(model.index(0, path)).toString(), s("/mcp  tools/call remember"));
    QCOMPARE(model.data(model.index(1, path)).toString(), s("/v1/memory/write"));
}

QTEST_MAIN(TestServerPageMcp)
#include "tst_serverpagemcp.moc"
