// The MCP dispatcher without a transport: how service errors become tool results (5xx text
// concealed as over /v1), what a notification answers, and that tools run their /v1 routes.

#include "service/mcp/mcpserver.h"
#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QJsonObject callTool(const QString &name, const QJsonObject &arguments)
{
    return {{s("jsonrpc"), s("2.0")},
            {s("id"), 1},
            {s("method"), s("tools/call")},
            {s("params"), QJsonObject{{s("name"), name}, {s("arguments"), arguments}}}};
}

} // namespace

class TestMcpServer : public QObject
{
    Q_OBJECT

private slots:
    void serviceErrorsBecomeToolResults();
    void toolsRunTheirRoutes();
    void notificationsAnswerNothing();
};

void TestMcpServer::serviceErrorsBecomeToolResults()
{
    TempService temp;
    QVERIFY(temp.isValid());
    McpServer server(temp.service());
    McpSession session{s("2025-11-25"), true, {}};
    Error next = Error::make(500, s("storage_error"), s("disk I/O error at /secret/path.sqlite"));
    McpCall call{
        RequestMeta{},
        [&next](const QString &, const QJsonObject &) -> Result<QJsonObject> { return next; },
        &session};
    call.meta.requestId = s("req-42");

    McpReply reply = server.handle(QJsonValue(callTool(s("recall"), {{s("query"), s("x")}})), call);
    QJsonObject result = reply.body.toObject().value(s("result")).toObject();
    QVERIFY(result.value(s("isError")).toBool());
    const QJsonObject error
        = result.value(s("structuredContent")).toObject().value(s("error")).toObject();
    QCOMPARE(error.value(s("code")).toString(), s("storage_error"));
    QCOMPARE(error.value(s("status")).toInt(), 500);
    QVERIFY(!QJsonDocument(result).toJson().contains("/secret/path"));
    QVERIFY(error.value(s("message")).toString().contains(s("req-42")));
    QCOMPARE(reply.labels, QStringList{s("tools/call recall [storage_error]")});

    // Upstream embedding failures say what happened, as over /v1.
    next = Error::make(503, s("upstream_embedding_unavailable"), s("provider down"));
    reply = server.handle(QJsonValue(callTool(s("recall"), {{s("query"), s("x")}})), call);
    result = reply.body.toObject().value(s("result")).toObject();
    QCOMPARE(result.value(s("content")).toArray().at(0).toObject().value(s("text")).toString(),
             s("upstream_embedding_unavailable: provider down"));
}

void TestMcpServer::toolsRunTheirRoutes()
{
    TempService temp;
    QVERIFY(temp.isValid());
    McpServer server(temp.service());
    McpSession session{s("2025-11-25"), true, {}};
    QStringList paths;
    QList<QJsonObject> bodies;
    McpCall call{
        RequestMeta{},
        [&](const QString &path, const QJsonObject &body) -> Result<QJsonObject> {
            paths << path;
            bodies << body;
            if (path == QLatin1String("/v1/memory/write"))
                return QJsonObject{
                    {s("tenant_id"), s("default")},
                    {s("scope"), s("default")},
                    {s("nodes"),
                     QJsonArray{QJsonObject{{s("id"), s("n")}, {s("uri"), s("memorygraph://x")}}}}};
            return QJsonObject{{s("ok"), true}};
        },
        &session};
    server.handle(
        QJsonValue(callTool(s("remember"), {{s("text"), s("a fact")}, {s("scope"), s("p")}})),
        call);
    server.handle(QJsonValue(callTool(s("recall"), {{s("query"), s("fact")}})), call);
    server.handle(QJsonValue(callTool(s("forget"),
                                      {{s("node_id"), s("0b0c9e2e-6a6f-4f43-9d6e-2d2f7f0b4a11")}})),
                  call);
    server.handle(QJsonValue(callTool(s("tools_feedback"), {{s("selected_tool"), s("t")}})), call);
    QCOMPARE(paths, QStringList({s("/v1/memory/write"), s("/v1/memory/recall_text"),
                                 s("/v1/memory/forget"), s("/v1/memory/tools/feedback")}));
    // remember: one event node from the text, the text as the audited input, the scope kept.
    const QJsonObject node = bodies.at(0).value(s("nodes")).toArray().at(0).toObject();
    QCOMPARE(node.value(s("type")).toString(), s("event"));
    QCOMPARE(node.value(s("text_summary")).toString(), s("a fact"));
    QCOMPARE(bodies.at(0).value(s("input_text")).toString(), s("a fact"));
    QCOMPARE(bodies.at(0).value(s("scope")).toString(), s("p"));
    QCOMPARE(bodies.at(1).value(s("query_text")).toString(), s("fact"));
    // A state-changing tool without input_text audits its arguments.
    QVERIFY(bodies.at(3).value(s("input_text")).toString().contains(s("selected_tool")));
}

void TestMcpServer::notificationsAnswerNothing()
{
    TempService temp;
    QVERIFY(temp.isValid());
    McpServer server(temp.service());
    McpSession session;
    McpCall call{RequestMeta{}, nullptr, &session};
    const McpReply init = server.handle(
        QByteArray(
            R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2025-06-18"}})"),
        call);
    QCOMPARE(init.negotiated, s("2025-06-18"));
    QCOMPARE(session.revision, s("2025-06-18"));
    QVERIFY(!session.initialized);
    const McpReply note = server.handle(
        QByteArray(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"), call);
    QVERIFY(note.body.isUndefined());
    QCOMPARE(note.httpStatus, 202);
    QVERIFY(session.initialized);
    const McpReply unknown = server.handle(
        QByteArray(R"({"jsonrpc":"2.0","method":"notifications/whatever","params":{}})"), call);
    QVERIFY(unknown.body.isUndefined());
}

QTEST_GUILESS_MAIN(TestMcpServer)
#include "tst_mcpserver.moc"
