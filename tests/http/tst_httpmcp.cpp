// The MCP server over real HTTP: POST /mcp (Streamable HTTP) for revisions 2025-03-26,
// 2025-06-18, 2025-11-25 (sessions) and 2026-07-28 (stateless), every tool, resources, session
// expiry, authentication, browser guards, batches and notifications; POST /v1/memory/forget.

#include "tests/http/httptestserver.h"

#include <QJsonArray>
#include <QTest>
#include <QUuid>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

const QString kModern = QStringLiteral("2026-07-28");
const QString kKeys = QStringLiteral(R"({"k1":{"tenant_id":"acme","agent_id":"agent-a"},)"
                                     R"("k2":{"tenant_id":"acme","agent_id":"agent-b"}})");

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QPair<QByteArray, QByteArray> hdr(const char *name, const QByteArray &value)
{
    return {QByteArray(name), value};
}

QJsonObject request(const QJsonValue &id, const QString &method, const QJsonObject &params = {})
{
    QJsonObject m{{s("jsonrpc"), s("2.0")}, {s("id"), id}, {s("method"), method}};
    if (!params.isEmpty())
        m.insert(s("params"), params);
    return m;
}

QJsonObject notification(const QString &method)
{
    return {{s("jsonrpc"), s("2.0")}, {s("method"), method}};
}

QJsonObject modernMeta()
{
    return {{s("io.modelcontextprotocol/protocolVersion"), kModern},
            {s("io.modelcontextprotocol/clientCapabilities"), QJsonObject()},
            {s("io.modelcontextprotocol/clientInfo"),
             QJsonObject{{s("name"), s("test")}, {s("version"), s("1")}}}};
}

QJsonObject toolCall(const QString &name, const QJsonObject &arguments)
{
    return {{s("name"), name}, {s("arguments"), arguments}};
}

/// An MCP client over HttpTestServer: a legacy session (initialize) or stateless requests.
class Client
{
public:
    explicit Client(HttpTestServer &server, HttpHeaders auth = {})
        : m_server(server), m_auth(std::move(auth))
    {
    }

    Reply initialize(const QString &revision)
    {
        const Reply r = post(
            request(1, s("initialize"),
                    {{s("protocolVersion"), revision},
                     {s("capabilities"), QJsonObject()},
                     {s("clientInfo"), QJsonObject{{s("name"), s("t")}, {s("version"), s("1")}}}}));
        sessionId = r.header("mcp-session-id");
        revisionInUse = r.json.value(s("result")).toObject().value(s("protocolVersion")).toString();
        return r;
    }

    /// Opens a session and sends notifications/initialized.
    bool open(const QString &revision)
    {
        const Reply r = initialize(revision);
        if (r.status != 200 || sessionId.isEmpty())
            return false;
        return post(notification(s("notifications/initialized"))).status == 202;
    }

    Reply post(const QJsonValue &message, HttpHeaders extra = {})
    {
        HttpHeaders headers = m_auth;
        headers.append(hdr("Accept", "application/json, text/event-stream"));
        if (!sessionId.isEmpty())
            headers.append(hdr("Mcp-Session-Id", sessionId));
        if (!revisionInUse.isEmpty())
            headers.append(hdr("MCP-Protocol-Version", revisionInUse.toLatin1()));
        headers.append(extra);
        const QByteArray body
            = message.isArray() ? QJsonDocument(message.toArray()).toJson(QJsonDocument::Compact)
                                : compactJson(message.toObject());
        return m_server.post(s("/mcp"), body, headers);
    }

    /// A request of the session; the result object (empty on an error).
    Reply call(const QString &method, const QJsonObject &params = {})
    {
        return post(request(++m_id, method, params));
    }

    /// A 2026-07-28 request with the _meta and headers that revision requires.
    Reply modern(const QString &method, QJsonObject params = {}, HttpHeaders extra = {},
                 bool withHeaders = true)
    {
        params.insert(s("_meta"), modernMeta());
        HttpHeaders headers = m_auth;
        if (withHeaders) {
            headers.append(hdr("MCP-Protocol-Version", kModern.toLatin1()));
            headers.append(hdr("Mcp-Method", method.toUtf8()));
            if (method == QLatin1String("tools/call"))
                headers.append(hdr("Mcp-Name", params.value(s("name")).toString().toUtf8()));
            if (method == QLatin1String("resources/read"))
                headers.append(hdr("Mcp-Name", params.value(s("uri")).toString().toUtf8()));
        }
        headers.append(extra);
        return m_server.post(s("/mcp"), compactJson(request(++m_id, method, params)), headers);
    }

    /// tools/call in the session; the CallToolResult.
    QJsonObject tool(const QString &name, const QJsonObject &arguments, Reply *raw = nullptr)
    {
        const Reply r = call(s("tools/call"), toolCall(name, arguments));
        if (raw)
            *raw = r;
        return r.json.value(s("result")).toObject();
    }

    QByteArray sessionId;
    QString revisionInUse;

private:
    HttpTestServer &m_server;
    HttpHeaders m_auth;
    int m_id = 1;
};

QJsonObject structured(const QJsonObject &toolResult)
{
    return toolResult.value(s("structuredContent")).toObject();
}

QString text(const QJsonObject &toolResult)
{
    return toolResult.value(s("content")).toArray().at(0).toObject().value(s("text")).toString();
}

bool isError(const QJsonObject &toolResult)
{
    return toolResult.value(s("isError")).toBool();
}

QString toolErrorCode(const QJsonObject &toolResult)
{
    return structured(toolResult).value(s("error")).toObject().value(s("code")).toString();
}

int rpcErrorCode(const Reply &r)
{
    return r.json.value(s("error")).toObject().value(s("code")).toInt();
}

QJsonObject result(const Reply &r)
{
    return r.json.value(s("result")).toObject();
}

QString randomUuidForTest()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

} // namespace

class TestHttpMcp : public QObject
{
    Q_OBJECT

private slots:
    void initializeNegotiatesEachRevision_data();
    void initializeNegotiatesEachRevision();
    void toolsListDescribesEveryTool();
    void rememberRecallGetForget();
    void toolsRefuseBadArguments();
    void rulesToolsAndContext();
    void replayTools();
    void automationTools();
    void resources();
    void statelessRevision();
    void statelessHeadersMustMatch();
    void sessions();
    void sessionExpires();
    void batchesAndNotifications();
    void authentication();
    void browserGuards();
    void forgetRoute();
    void requestLogNamesTools();
};

void TestHttpMcp::initializeNegotiatesEachRevision_data()
{
    QTest::addColumn<QString>("requested");
    QTest::addColumn<QString>("negotiated");
    QTest::newRow("2025-03-26") << s("2025-03-26") << s("2025-03-26");
    QTest::newRow("2025-06-18") << s("2025-06-18") << s("2025-06-18");
    QTest::newRow("2025-11-25") << s("2025-11-25") << s("2025-11-25");
    // An unsupported revision is answered with our newest initialize-based one.
    QTest::newRow("unsupported 2024-11-05") << s("2024-11-05") << s("2025-11-25");
    QTest::newRow("unsupported future") << s("2099-01-01") << s("2025-11-25");
}

void TestHttpMcp::initializeNegotiatesEachRevision()
{
    QFETCH(QString, requested);
    QFETCH(QString, negotiated);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client client(server);
    const Reply init = client.initialize(requested);
    QVERIFY2(init.status == 200, init.describe().constData());
    QCOMPARE(init.header("content-type"), QByteArray("application/json"));
    const QJsonObject r = result(init);
    QCOMPARE(r.value(s("protocolVersion")).toString(), negotiated);
    QCOMPARE(r.value(s("serverInfo")).toObject().value(s("name")).toString(), s("memorygraph"));
    QVERIFY(r.value(s("capabilities")).toObject().contains(s("tools")));
    QVERIFY(r.value(s("capabilities")).toObject().contains(s("resources")));
    QVERIFY(!r.value(s("instructions")).toString().isEmpty());
    QVERIFY(!client.sessionId.isEmpty());
    for (char c : client.sessionId)
        QVERIFY(c >= 0x21 && c <= 0x7e);

    const Reply initialized = client.post(notification(s("notifications/initialized")));
    QCOMPARE(initialized.status, 202);
    QVERIFY(initialized.body.isEmpty());

    const Reply ping = client.call(s("ping"));
    QVERIFY2(ping.status == 200, ping.describe().constData());
    QVERIFY(ping.json.value(s("result")).isObject());

    // structuredContent and Tool.title came with 2025-06-18.
    const QJsonObject remembered
        = client.tool(s("remember"), {{s("text"), s("The build server is called hopper.")}});
    QVERIFY2(!isError(remembered), qPrintable(text(remembered)));
    QCOMPARE(remembered.contains(s("structuredContent")), negotiated != s("2025-03-26"));
    const QJsonObject tools = result(client.call(s("tools/list")));
    QCOMPARE(tools.value(s("tools")).toArray().at(0).toObject().contains(s("title")),
             negotiated != s("2025-03-26"));
}

void TestHttpMcp::toolsListDescribesEveryTool()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client client(server);
    QVERIFY(client.open(s("2025-11-25")));
    const Reply r = client.call(s("tools/list"));
    QVERIFY2(r.status == 200, r.describe().constData());
    QStringList names;
    for (const QJsonValue &v : result(r).value(s("tools")).toArray()) {
        const QJsonObject tool = v.toObject();
        names << tool.value(s("name")).toString();
        QVERIFY2(tool.value(s("description")).toString().size() > 80,
                 qPrintable(tool.value(s("name")).toString()));
        const QJsonObject schema = tool.value(s("inputSchema")).toObject();
        QCOMPARE(schema.value(s("type")).toString(), s("object"));
        QVERIFY(schema.value(s("properties")).isObject());
        QVERIFY(tool.value(s("annotations")).isObject());
    }
    QCOMPARE(names,
             QStringList({s("remember"), s("recall"), s("get"), s("forget"), s("rules_evaluate"),
                          s("tools_select"), s("tools_feedback"), s("context_assemble"),
                          s("replay_run_start"), s("replay_step_before"), s("replay_step_after"),
                          s("replay_run_end"), s("replay_run_get"), s("automation_run"),
                          s("automation_get"), s("automation_resume"), s("playbook_dispatch")}));
}

void TestHttpMcp::rememberRecallGetForget()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client client(server);
    QVERIFY(client.open(s("2025-06-18")));

    const QJsonObject remembered = client.tool(
        s("remember"), {{s("text"), s("Ada prefers the zephyr keyboard layout for coding.")},
                        {s("title"), s("Keyboard preference")}});
    QVERIFY2(!isError(remembered), qPrintable(text(remembered)));
    const QJsonObject written = structured(remembered);
    const QJsonObject node = written.value(s("nodes")).toArray().at(0).toObject();
    const QString nodeId = node.value(s("id")).toString();
    const QString uri = node.value(s("uri")).toString();
    QVERIFY(isLowerUuid(nodeId));
    QVERIFY(uri.startsWith(s("memorygraph://default/default/event/")));
    QVERIFY(text(remembered).contains(uri));
    QCOMPARE(server.nodes().size(), 1);
    // The model's text is the audited input.
    QCOMPARE(server.commits().constFirst().inputSha256,
             QString::fromLatin1(
                 QCryptographicHash::hash("Ada prefers the zephyr keyboard layout for coding.",
                                          QCryptographicHash::Sha256)
                     .toHex()));

    // remember does not wait for the embedder: the memory is recallable once it is embedded,
    // so ask again after a moment, as an agent would.
    const auto recallKeyboard = [&] {
        return client.tool(s("recall"), {{s("query"), s("which keyboard layout does Ada prefer")}});
    };
    QTRY_VERIFY_WITH_TIMEOUT(text(recallKeyboard()).contains(s("zephyr")), 10000);
    const QJsonObject recalled = recallKeyboard();
    QVERIFY2(!isError(recalled), qPrintable(text(recalled)));
    QVERIFY(structured(recalled).value(s("context")).toObject().contains(s("citations")));

    const QJsonObject byUri = client.tool(s("get"), {{s("uri"), uri}});
    QVERIFY2(!isError(byUri), qPrintable(text(byUri)));
    QCOMPARE(structured(byUri).value(s("node")).toObject().value(s("id")).toString(), nodeId);
    const QJsonObject byId = client.tool(s("get"), {{s("id"), nodeId}});
    QVERIFY2(!isError(byId), qPrintable(text(byId)));
    QCOMPARE(structured(byId).value(s("uri")).toString(), uri);

    const QJsonObject forgotten
        = client.tool(s("forget"), {{s("uri"), uri}, {s("reason"), s("user asked")}});
    QVERIFY2(!isError(forgotten), qPrintable(text(forgotten)));
    QCOMPARE(structured(forgotten).value(s("node")).toObject().value(s("id")).toString(), nodeId);
    QCOMPARE(server.nodes().size(), 0);
    QCOMPARE(server.commits().constFirst().kind, s("node_forget"));

    const QJsonObject again
        = client.tool(s("recall"), {{s("query"), s("which keyboard layout does Ada prefer")}});
    QVERIFY2(!isError(again), qPrintable(text(again)));
    QVERIFY2(!text(again).contains(s("zephyr")), qPrintable(text(again)));
    const QJsonObject gone = client.tool(s("get"), {{s("uri"), uri}});
    QVERIFY(isError(gone));
    QCOMPARE(toolErrorCode(gone), s("not_found"));
    const QJsonObject twice = client.tool(s("forget"), {{s("node_id"), nodeId}});
    QVERIFY(isError(twice));
    QCOMPARE(toolErrorCode(twice), s("not_found"));
}

void TestHttpMcp::toolsRefuseBadArguments()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client client(server);
    QVERIFY(client.open(s("2025-11-25")));

    // Every tool: missing or wrong arguments are a tool error the model can read.
    const QList<QPair<QString, QJsonObject>> bad{
        {s("remember"), {}},
        {s("remember"), {{s("text"), s("x")}, {s("type"), s("no-such-type")}}},
        {s("recall"), {}},
        {s("get"), {}},
        {s("get"), {{s("id"), s("not-a-uuid")}}},
        {s("forget"), {}},
        {s("forget"), {{s("node_id"), s("nope")}}},
        {s("rules_evaluate"), {}},
        {s("tools_select"), {{s("context"), QJsonObject()}}},
        {s("tools_feedback"), {{s("selected_tool"), s("a")}}},
        {s("context_assemble"), {}},
        {s("replay_run_start"), {}},
        {s("replay_step_before"), {{s("run_id"), s("x")}}},
        {s("replay_step_after"), {}},
        {s("replay_run_end"), {}},
        {s("replay_run_get"), {}},
        {s("automation_run"), {}},
        {s("automation_run"), {{s("automation_id"), s("a")}, {s("params"), s("not an object")}}},
        {s("automation_get"), {}},
        {s("automation_get"), {{s("run_id"), s("not-a-uuid")}}},
        {s("automation_resume"), {}},
        {s("playbook_dispatch"), {}}};
    for (const auto &[name, arguments] : bad) {
        Reply raw;
        const QJsonObject r = client.tool(name, arguments, &raw);
        QVERIFY2(raw.status == 200, raw.describe().constData());
        QVERIFY2(isError(r), qPrintable(name + s(": ") + QString::fromUtf8(raw.body)));
        QVERIFY2(toolErrorCode(r) == s("invalid_request"),
                 qPrintable(name + s(": ") + QString::fromUtf8(raw.body)));
        QVERIFY2(text(r).startsWith(s("invalid_request: ")), qPrintable(text(r)));
    }
    QCOMPARE(server.commits().size(), 0);

    // Protocol errors: an unknown tool, arguments that are not an object.
    const Reply unknown = client.call(s("tools/call"), toolCall(s("no_such_tool"), {}));
    QCOMPARE(rpcErrorCode(unknown), -32602);
    const Reply notObject = client.call(
        s("tools/call"), {{s("name"), s("recall")}, {s("arguments"), QJsonArray{1, 2}}});
    QCOMPARE(rpcErrorCode(notObject), -32602);
    const Reply unknownMethod = client.call(s("prompts/list"));
    QCOMPARE(rpcErrorCode(unknownMethod), -32601);
}

void TestHttpMcp::rulesToolsAndContext()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client client(server);
    QVERIFY(client.open(s("2025-11-25")));
    const QJsonObject context{{s("intent"), s("deploy")}};

    const QJsonObject rules = client.tool(s("rules_evaluate"), {{s("context"), context}});
    QVERIFY2(!isError(rules), qPrintable(text(rules)));
    QVERIFY(structured(rules).contains(s("active")) || structured(rules).contains(s("rules"))
            || !structured(rules).isEmpty());

    const QJsonObject selected
        = client.tool(s("tools_select"), {{s("context"), context},
                                          {s("candidates"), QJsonArray{s("kubectl"), s("helm")}}});
    QVERIFY2(!isError(selected), qPrintable(text(selected)));
    const QString decisionId
        = structured(selected).value(s("decision")).toObject().value(s("decision_id")).toString();
    QVERIFY2(isLowerUuid(decisionId), qPrintable(text(selected)));

    const QJsonObject feedback
        = client.tool(s("tools_feedback"), {{s("context"), context},
                                            {s("candidates"), QJsonArray{s("kubectl"), s("helm")}},
                                            {s("selected_tool"), s("kubectl")},
                                            {s("outcome"), s("positive")},
                                            {s("decision_id"), decisionId}});
    QVERIFY2(!isError(feedback), qPrintable(text(feedback)));

    const QJsonObject assembled = client.tool(
        s("context_assemble"), {{s("query_text"), s("how do we deploy")}, {s("context"), context}});
    QVERIFY2(!isError(assembled), qPrintable(text(assembled)));
    QVERIFY(!structured(assembled).isEmpty());
}

void TestHttpMcp::replayTools()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client client(server);
    QVERIFY(client.open(s("2025-11-25")));

    const QJsonObject started
        = client.tool(s("replay_run_start"), {{s("goal"), s("rotate the TLS certificate")}});
    QVERIFY2(!isError(started), qPrintable(text(started)));
    const QString runId = structured(started).value(s("run_id")).toString();
    QVERIFY(isLowerUuid(runId));
    const QJsonObject before
        = client.tool(s("replay_step_before"),
                      {{s("run_id"), runId}, {s("step_index"), 1}, {s("tool_name"), s("certbot")}});
    QVERIFY2(!isError(before), qPrintable(text(before)));
    const QJsonObject after
        = client.tool(s("replay_step_after"),
                      {{s("run_id"), runId}, {s("step_index"), 1}, {s("status"), s("success")}});
    QVERIFY2(!isError(after), qPrintable(text(after)));
    const QJsonObject ended = client.tool(
        s("replay_run_end"),
        {{s("run_id"), runId}, {s("status"), s("success")}, {s("summary"), s("done")}});
    QVERIFY2(!isError(ended), qPrintable(text(ended)));
    const QJsonObject got
        = client.tool(s("replay_run_get"), {{s("run_id"), runId}, {s("include_steps"), true}});
    QVERIFY2(!isError(got), qPrintable(text(got)));
    QVERIFY2(QString::fromUtf8(QJsonDocument(structured(got)).toJson()).contains(s("certbot")),
             qPrintable(text(got)));

    // The run is a resource too.
    const Reply read = client.call(
        s("resources/read"), {{s("uri"), s("memorygraph://default/default/replay_run/") + runId}});
    QVERIFY2(read.status == 200 && result(read).contains(s("contents")),
             read.describe().constData());
    QVERIFY(result(read)
                .value(s("contents"))
                .toArray()
                .at(0)
                .toObject()
                .value(s("text"))
                .toString()
                .contains(s("certbot")));
}

void TestHttpMcp::automationTools()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    // The automation is made over /v1: check a param, wait for an approval, then finish.
    const Reply created = server.post(
        s("/v1/automations/create"),
        QJsonObject{
            {s("automation_id"), s("nightly")},
            {s("name"), s("Nightly cleanup")},
            {s("status"), s("active")},
            {s("graph"),
             QJsonObject{
                 {s("nodes"),
                  QJsonArray{
                      QJsonObject{{s("node_id"), s("check")},
                                  {s("kind"), s("condition")},
                                  {s("expression"), QJsonObject{{s("left"), s("$params.env")},
                                                                {s("equals"), s("prod")}}}},
                      QJsonObject{{s("node_id"), s("approve")}, {s("kind"), s("approval")}},
                      QJsonObject{{s("node_id"), s("finish")},
                                  {s("kind"), s("condition")},
                                  {s("expression"), s("$nodes.approve.approved")}}}},
                 {s("edges"),
                  QJsonArray{QJsonObject{{s("from"), s("check")}, {s("to"), s("approve")}},
                             QJsonObject{{s("from"), s("approve")}, {s("to"), s("finish")}}}}}}});
    QVERIFY2(created.status == 200, created.describe().constData());
    Client client(server);
    QVERIFY(client.open(s("2025-11-25")));

    const QJsonObject ran
        = client.tool(s("automation_run"), {{s("automation_id"), s("nightly")},
                                            {s("params"), QJsonObject{{s("env"), s("prod")}}}});
    QVERIFY2(!isError(ran), qPrintable(text(ran)));
    const QJsonObject run = structured(ran).value(s("run")).toObject();
    const QString runId = run.value(s("run_id")).toString();
    QVERIFY2(isLowerUuid(runId), qPrintable(text(ran)));
    QCOMPARE(run.value(s("status_summary")).toString(), s("paused_for_approval"));
    QVERIFY2(text(ran).contains(s("automation_resume")), qPrintable(text(ran)));
    QVERIFY(!structured(ran).contains(s("request_id")));

    const QJsonObject paused = client.tool(s("automation_get"), {{s("run_id"), runId}});
    QVERIFY2(!isError(paused), qPrintable(text(paused)));
    const QJsonObject pausedRun = structured(paused).value(s("run")).toObject();
    QCOMPARE(pausedRun.value(s("lifecycle_state")).toString(), s("paused"));
    QCOMPARE(pausedRun.value(s("pause_reason")).toString(), s("approval_required"));
    QCOMPARE(structured(paused).value(s("nodes")).toArray().size(), 3);
    QVERIFY(text(paused).contains(runId));

    const QJsonObject resumed = client.tool(
        s("automation_resume"), {{s("run_id"), runId}, {s("note"), s("approved by Ada")}});
    QVERIFY2(!isError(resumed), qPrintable(text(resumed)));
    QCOMPARE(structured(resumed).value(s("run")).toObject().value(s("lifecycle_state")).toString(),
             s("terminal"));

    const QJsonObject done = client.tool(s("automation_get"), {{s("run_id"), runId}});
    QVERIFY2(!isError(done), qPrintable(text(done)));
    const QJsonObject doneRun = structured(done).value(s("run")).toObject();
    QCOMPARE(doneRun.value(s("lifecycle_state")).toString(), s("terminal"));
    QCOMPARE(doneRun.value(s("terminal_outcome")).toString(), s("succeeded"));
    QVERIFY2(text(done).contains(s("succeeded")), qPrintable(text(done)));
    // Same run as over /v1.
    const Reply overHttp
        = server.post(s("/v1/automations/runs/get"), QJsonObject{{s("run_id"), runId}});
    QCOMPARE(overHttp.json.value(s("run")).toObject().value(s("status_summary")),
             doneRun.value(s("status_summary")));

    // The service's error codes come back as tool errors.
    const QJsonObject again = client.tool(s("automation_resume"), {{s("run_id"), runId}});
    QVERIFY(isError(again));
    QCOMPARE(toolErrorCode(again), s("automation_run_not_paused"));
    const QJsonObject unknown = client.tool(s("automation_run"), {{s("automation_id"), s("nope")}});
    QVERIFY(isError(unknown));
    QCOMPARE(toolErrorCode(unknown), s("automation_not_found"));
    const QJsonObject noRun
        = client.tool(s("automation_get"), {{s("run_id"), randomUuidForTest()}});
    QVERIFY(isError(noRun));
    QCOMPARE(toolErrorCode(noRun), s("automation_run_not_found"));
    const QJsonObject noVersion
        = client.tool(s("automation_run"), {{s("automation_id"), s("nightly")}, {s("version"), 9}});
    QVERIFY(isError(noVersion));
    QCOMPARE(toolErrorCode(noVersion), s("automation_version_not_found"));

    // An executor over MCP finds nothing to claim here.
    const QJsonObject idle
        = client.tool(s("playbook_dispatch"), {{s("executor_id"), s("laptop-1")}});
    QVERIFY2(!isError(idle), qPrintable(text(idle)));
    QCOMPARE(structured(idle).value(s("dispatch")).toObject().value(s("decision")).toString(),
             s("no_pending_work"));
}

void TestHttpMcp::resources()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client client(server);
    QVERIFY(client.open(s("2025-11-25")));
    // 60 memories: more than one page of resources/list.
    QJsonArray nodes;
    for (int i = 0; i < 60; ++i)
        nodes.append(writeNode(s("n%1").arg(i), s("entity"), s("memory number %1").arg(i)));
    QVERIFY(server.write(writeBody(nodes)).status == 200);

    QStringList uris;
    QString cursor;
    int pages = 0;
    do {
        QJsonObject params;
        if (!cursor.isEmpty())
            params.insert(s("cursor"), cursor);
        const Reply page = client.call(s("resources/list"), params);
        QVERIFY2(page.status == 200, page.describe().constData());
        for (const QJsonValue &v : result(page).value(s("resources")).toArray()) {
            const QJsonObject resource = v.toObject();
            QCOMPARE(resource.value(s("mimeType")).toString(), s("application/json"));
            QVERIFY(!resource.value(s("name")).toString().isEmpty());
            uris << resource.value(s("uri")).toString();
        }
        cursor = result(page).value(s("nextCursor")).toString();
        ++pages;
    } while (!cursor.isEmpty() && pages < 10);
    QCOMPARE(pages, 2);
    QCOMPARE(uris.size(), 60);
    QCOMPARE(QSet<QString>(uris.begin(), uris.end()).size(), 60);

    const Reply read = client.call(s("resources/read"), {{s("uri"), uris.first()}});
    QVERIFY2(read.status == 200, read.describe().constData());
    const QJsonObject content = result(read).value(s("contents")).toArray().at(0).toObject();
    QCOMPARE(content.value(s("uri")).toString(), uris.first());
    QVERIFY(content.value(s("text")).toString().contains(s("memory number")));
    // The commit of that write is a resource too.
    const Reply commit
        = client.call(s("resources/read"), {{s("uri"), server.commits().constFirst().uri}});
    QVERIFY2(result(commit).contains(s("contents")), commit.describe().constData());

    const QString missing = s("memorygraph://default/default/entity/") + randomUuidForTest();
    const Reply notFound = client.call(s("resources/read"), {{s("uri"), missing}});
    QCOMPARE(rpcErrorCode(notFound), -32002);
    const Reply badCursor = client.call(s("resources/list"), {{s("cursor"), s("!!")}});
    QCOMPARE(rpcErrorCode(badCursor), -32602);
    const Reply templates = client.call(s("resources/templates/list"));
    QVERIFY(!result(templates).value(s("resourceTemplates")).toArray().isEmpty());

    // 2026-07-28: not found is -32602 and results are cacheable.
    const Reply modernMissing = client.modern(s("resources/read"), {{s("uri"), missing}});
    QCOMPARE(rpcErrorCode(modernMissing), -32602);
    const Reply modernList = client.modern(s("resources/list"));
    QCOMPARE(result(modernList).value(s("cacheScope")).toString(), s("private"));
    QVERIFY(result(modernList).contains(s("ttlMs")));
}

void TestHttpMcp::statelessRevision()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client client(server);

    const Reply discover = client.modern(s("server/discover"));
    QVERIFY2(discover.status == 200, discover.describe().constData());
    QVERIFY(discover.header("mcp-session-id").isEmpty());
    const QJsonObject d = result(discover);
    QCOMPARE(d.value(s("resultType")).toString(), s("complete"));
    QCOMPARE(d.value(s("supportedVersions")).toArray().toVariantList().size(), 4);
    QVERIFY(d.value(s("supportedVersions")).toArray().contains(kModern));
    QVERIFY(d.value(s("capabilities")).toObject().contains(s("tools")));
    QCOMPARE(d.value(s("_meta"))
                 .toObject()
                 .value(s("io.modelcontextprotocol/serverInfo"))
                 .toObject()
                 .value(s("name"))
                 .toString(),
             s("memorygraph"));
    QVERIFY(d.contains(s("ttlMs")) && d.contains(s("cacheScope")));

    const Reply tools = client.modern(s("tools/list"));
    QCOMPARE(result(tools).value(s("tools")).toArray().size(), 17);
    QCOMPARE(result(tools).value(s("cacheScope")).toString(), s("public"));

    const Reply remembered = client.modern(
        s("tools/call"),
        toolCall(s("remember"), {{s("text"), s("The staging DB is on port 6543.")}}));
    QVERIFY2(remembered.status == 200, remembered.describe().constData());
    QCOMPARE(result(remembered).value(s("resultType")).toString(), s("complete"));
    QVERIFY(!result(remembered).value(s("isError")).toBool());
    QTRY_VERIFY_WITH_TIMEOUT(
        text(result(client.modern(s("tools/call"),
                                  toolCall(s("recall"), {{s("query"), s("staging DB port")}}))))
            .contains(s("6543")),
        10000);

    // An unsupported revision in _meta: 400 with the supported list.
    QJsonObject params{
        {s("_meta"),
         QJsonObject{{s("io.modelcontextprotocol/protocolVersion"), s("2099-01-01")},
                     {s("io.modelcontextprotocol/clientCapabilities"), QJsonObject()}}}};
    const Reply unsupported
        = server.post(s("/mcp"), compactJson(request(7, s("tools/list"), params)),
                      {hdr("MCP-Protocol-Version", "2099-01-01"), hdr("Mcp-Method", "tools/list")});
    QCOMPARE(unsupported.status, 400);
    QCOMPARE(rpcErrorCode(unsupported), -32022);
    QCOMPARE(unsupported.json.value(s("id")).toInt(), 7);
    const QJsonObject data
        = unsupported.json.value(s("error")).toObject().value(s("data")).toObject();
    QCOMPARE(data.value(s("requested")).toString(), s("2099-01-01"));
    QVERIFY(data.value(s("supported")).toArray().contains(kModern));

    // clientCapabilities is required.
    QJsonObject noCaps{
        {s("_meta"), QJsonObject{{s("io.modelcontextprotocol/protocolVersion"), kModern}}}};
    const Reply missingCaps = server.post(
        s("/mcp"), compactJson(request(8, s("tools/list"), noCaps)),
        {hdr("MCP-Protocol-Version", kModern.toLatin1()), hdr("Mcp-Method", "tools/list")});
    QCOMPARE(missingCaps.status, 400);
    QCOMPARE(rpcErrorCode(missingCaps), -32602);

    // ping is gone; an unknown method is 404 with -32601.
    const Reply ping = client.modern(s("ping"));
    QCOMPARE(ping.status, 404);
    QCOMPARE(rpcErrorCode(ping), -32601);

    // A session id on a stateless request is ignored.
    const Reply withSession
        = client.modern(s("tools/list"), {}, {hdr("Mcp-Session-Id", "not-a-session")});
    QCOMPARE(withSession.status, 200);
}

void TestHttpMcp::statelessHeadersMustMatch()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client client(server);
    const QJsonObject call = toolCall(s("recall"), {{s("query"), s("x")}});

    // MCP-Protocol-Version missing or different from _meta.
    const Reply noVersion
        = client.modern(s("tools/list"), {}, {hdr("Mcp-Method", "tools/list")}, false);
    QCOMPARE(noVersion.status, 400);
    QCOMPARE(rpcErrorCode(noVersion), -32020);
    const Reply otherVersion = client.modern(
        s("tools/list"), {},
        {hdr("MCP-Protocol-Version", "2025-11-25"), hdr("Mcp-Method", "tools/list")}, false);
    QCOMPARE(rpcErrorCode(otherVersion), -32020);
    // Mcp-Method missing or different.
    const Reply wrongMethod = client.modern(
        s("tools/list"), {},
        {hdr("MCP-Protocol-Version", kModern.toLatin1()), hdr("Mcp-Method", "tools/call")}, false);
    QCOMPARE(wrongMethod.status, 400);
    QCOMPARE(rpcErrorCode(wrongMethod), -32020);
    // Mcp-Name must name the tool; the base64 form is decoded first.
    const Reply noName = client.modern(
        s("tools/call"), call,
        {hdr("MCP-Protocol-Version", kModern.toLatin1()), hdr("Mcp-Method", "tools/call")}, false);
    QCOMPARE(rpcErrorCode(noName), -32020);
    const Reply wrongName
        = client.modern(s("tools/call"), call,
                        {hdr("MCP-Protocol-Version", kModern.toLatin1()),
                         hdr("Mcp-Method", "tools/call"), hdr("Mcp-Name", "remember")},
                        false);
    QCOMPARE(rpcErrorCode(wrongName), -32020);
    const Reply encoded = client.modern(
        s("tools/call"), call,
        {hdr("MCP-Protocol-Version", kModern.toLatin1()), hdr("Mcp-Method", "tools/call"),
         hdr("Mcp-Name", "=?base64?" + QByteArray("recall").toBase64() + "?=")},
        false);
    QVERIFY2(encoded.status == 200 && result(encoded).contains(s("content")),
             encoded.describe().constData());
}

void TestHttpMcp::sessions()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client client(server);
    QVERIFY(client.open(s("2025-11-25")));

    // Without a session id: 400; with an unknown one: 404.
    Client anonymous(server);
    const Reply noSession = anonymous.call(s("tools/list"));
    QCOMPARE(noSession.status, 400);
    QCOMPARE(rpcErrorCode(noSession), -32600);
    anonymous.sessionId = "no-such-session";
    QCOMPARE(anonymous.call(s("tools/list")).status, 404);

    // MCP-Protocol-Version must be the negotiated revision.
    const Reply wrongVersion
        = client.post(request(5, s("tools/list")), {hdr("MCP-Protocol-Version", "2025-03-26")});
    QCOMPARE(wrongVersion.status, 400);

    // GET has no SSE stream here.
    const Reply get = server.get(s("/mcp"), {hdr("Accept", "text/event-stream")});
    QCOMPARE(get.status, 405);
    QVERIFY(get.header("allow").contains("POST"));

    // DELETE ends the session.
    const Reply removed
        = server.send("DELETE", s("/mcp"), {}, {hdr("Mcp-Session-Id", client.sessionId)});
    QCOMPARE(removed.status, 204);
    QCOMPARE(client.call(s("tools/list")).status, 404);
    QCOMPARE(server.send("DELETE", s("/mcp"), {}, {hdr("Mcp-Session-Id", client.sessionId)}).status,
             404);
}

void TestHttpMcp::sessionExpires()
{
    HttpTestServer server(environment({{"MEMORY_MCP_SESSION_IDLE_SEC", s("1")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client client(server);
    QVERIFY(client.open(s("2025-06-18")));
    QCOMPARE(client.call(s("tools/list")).status, 200);
    QTest::qWait(1600);
    const Reply expired = client.call(s("tools/list"));
    QCOMPARE(expired.status, 404);
    // A new initialize starts over.
    QVERIFY(client.open(s("2025-06-18")));
    QCOMPARE(client.call(s("tools/list")).status, 200);
}

void TestHttpMcp::batchesAndNotifications()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Client old(server);
    QVERIFY(old.open(s("2025-03-26")));

    // A 2025-03-26 batch: one response per request, none for the notification.
    const QJsonArray batch{request(11, s("ping")), notification(s("notifications/cancelled")),
                           request(12, s("tools/list")), request(13, s("no/such/method"))};
    const Reply answered = old.post(batch);
    QVERIFY2(answered.status == 200, answered.describe().constData());
    const QJsonArray responses = QJsonDocument::fromJson(answered.body).array();
    QCOMPARE(responses.size(), 3);
    QHash<int, QJsonObject> byId;
    for (const QJsonValue &v : responses)
        byId.insert(v.toObject().value(s("id")).toInt(), v.toObject());
    QVERIFY(byId.value(11).contains(s("result")));
    QCOMPARE(byId.value(12).value(s("result")).toObject().value(s("tools")).toArray().size(), 17);
    QCOMPARE(byId.value(13).value(s("error")).toObject().value(s("code")).toInt(), -32601);

    // Only notifications: 202 without a body.
    const Reply onlyNotes = old.post(QJsonArray{notification(s("notifications/cancelled"))});
    QCOMPARE(onlyNotes.status, 202);
    QVERIFY(onlyNotes.body.isEmpty());
    // An empty batch is invalid.
    QCOMPARE(rpcErrorCode(old.post(QJsonArray())), -32600);

    // 2025-06-18 removed batches.
    Client newer(server);
    QVERIFY(newer.open(s("2025-06-18")));
    const Reply refused = newer.post(QJsonArray{request(1, s("ping"))});
    QCOMPARE(refused.status, 400);
    QCOMPARE(rpcErrorCode(refused), -32600);

    // A single notification and a client response: 202, no body.
    const Reply note = newer.post(notification(s("notifications/cancelled")));
    QCOMPARE(note.status, 202);
    QVERIFY(note.body.isEmpty());
    const Reply response = newer.post(
        QJsonObject{{s("jsonrpc"), s("2.0")}, {s("id"), 99}, {s("result"), QJsonObject()}});
    QCOMPARE(response.status, 202);

    // Malformed messages.
    const Reply garbage
        = server.post(s("/mcp"), QByteArray("{not json"), {hdr("Mcp-Session-Id", newer.sessionId)});
    QCOMPARE(garbage.status, 400);
    QCOMPARE(rpcErrorCode(garbage), -32700);
    const Reply noVersion = newer.post(QJsonObject{{s("id"), 1}, {s("method"), s("ping")}});
    QCOMPARE(rpcErrorCode(noVersion), -32600);
    const Reply nullId = newer.post(
        QJsonObject{{s("jsonrpc"), s("2.0")}, {s("id"), QJsonValue()}, {s("method"), s("ping")}});
    QCOMPARE(rpcErrorCode(nullId), -32600);
}

void TestHttpMcp::authentication()
{
    QProcessEnvironment env;
    env.insert(s("MEMORY_AUTH_MODE"), s("api_key"));
    env.insert(s("MEMORY_API_KEYS_JSON"), kKeys);
    HttpTestServer server(env);
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));

    // No credential, a wrong one: 401 before anything runs.
    Client nobody(server);
    QCOMPARE(nobody.initialize(s("2025-11-25")).status, 401);
    Client wrong(server, {hdr("X-Api-Key", "wrong")});
    QCOMPARE(wrong.initialize(s("2025-11-25")).status, 401);
    QCOMPARE(nobody.modern(s("tools/list")).status, 401);

    // The session acts as the key's identity: tenant acme, agent-a.
    Client a(server, {hdr("X-Api-Key", "k1")});
    QVERIFY(a.open(s("2025-11-25")));
    const QJsonObject written = a.tool(
        s("remember"), {{s("text"), s("agent a private note")}, {s("memory_lane"), s("private")}});
    QVERIFY2(!isError(written), qPrintable(text(written)));
    QCOMPARE(structured(written).value(s("tenant_id")).toString(), s("acme"));
    QCOMPARE(server.commits(s("acme")).constFirst().actor, s("agent-a"));
    const QString uri = structured(written)
                            .value(s("nodes"))
                            .toArray()
                            .at(0)
                            .toObject()
                            .value(s("uri"))
                            .toString();
    // Naming another tenant is refused as /v1 refuses it.
    const QJsonObject otherTenant
        = a.tool(s("recall"), {{s("query"), s("note")}, {s("tenant_id"), s("globex")}});
    QVERIFY(isError(otherTenant));
    QCOMPARE(structured(otherTenant).value(s("error")).toObject().value(s("status")).toInt(), 403);

    // Another key cannot use agent a's session, nor see or forget the private node.
    Client b(server, {hdr("X-Api-Key", "k2")});
    b.sessionId = a.sessionId;
    b.revisionInUse = a.revisionInUse;
    QCOMPARE(b.call(s("tools/list")).status, 404);
    QVERIFY(b.open(s("2025-11-25")));
    QVERIFY(isError(b.tool(s("get"), {{s("uri"), uri}})));
    const QJsonObject forget = b.tool(s("forget"), {{s("uri"), uri}});
    QVERIFY(isError(forget));
    QCOMPARE(server.nodes(s("acme")).size(), 1);
    const Reply list = b.call(s("resources/list"));
    QCOMPARE(result(list).value(s("resources")).toArray().size(), 0);
    const Reply listA = a.call(s("resources/list"));
    QCOMPARE(result(listA).value(s("resources")).toArray().size(), 1);
    QVERIFY(!isError(a.tool(s("forget"), {{s("uri"), uri}})));
    QCOMPARE(server.nodes(s("acme")).size(), 0);
}

void TestHttpMcp::browserGuards()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QByteArray body
        = compactJson(request(1, s("initialize"), {{s("protocolVersion"), s("2025-11-25")}}));
    const auto raw = [&](const HttpHeaders &headers) {
        return server.sendRaw(rawRequest("POST", "/mcp", headers, body));
    };
    const QByteArray json = "application/json";
    QCOMPARE(raw({hdr("Host", server.hostHeader()), hdr("Content-Type", json)}).status, 200);
    QCOMPARE(raw({hdr("Host", "evil.example:80"), hdr("Content-Type", json)}).status, 421);
    QCOMPARE(raw({hdr("Host", server.hostHeader()), hdr("Content-Type", json),
                  hdr("Origin", "https://evil.example")})
                 .status,
             403);
    QCOMPARE(raw({hdr("Host", server.hostHeader()), hdr("Content-Type", "text/plain")}).status,
             415);
    QCOMPARE(raw({hdr("Host", server.hostHeader()), hdr("Content-Type", json),
                  hdr("Origin", "http://localhost:3000")})
                 .status,
             200);
    // A client that cannot take JSON answers.
    QCOMPARE(raw({hdr("Host", server.hostHeader()), hdr("Content-Type", json),
                  hdr("Accept", "text/event-stream")})
                 .status,
             406);
}

void TestHttpMcp::forgetRoute()
{
    QProcessEnvironment env;
    env.insert(s("MEMORY_AUTH_MODE"), s("api_key"));
    env.insert(s("MEMORY_API_KEYS_JSON"), kKeys);
    HttpTestServer server(env);
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QJsonObject privateNote = writeBody({writeNode(s("p"), s("entity"), s("private to a"))});
    privateNote.insert(s("memory_lane"), s("private"));
    const Reply written = server.write(privateNote, {hdr("X-Api-Key", "k1")});
    QVERIFY2(written.status == 200, written.describe().constData());
    const QString nodeId
        = written.json.value(s("nodes")).toArray().at(0).toObject().value(s("id")).toString();
    const QJsonObject body{
        {s("node_id"), nodeId}, {s("reason"), s("wrong")}, {s("input_text"), s("forget it")}};

    QCOMPARE(server.post(s("/v1/memory/forget"), body).status, 401);
    const Reply missing = server.post(
        s("/v1/memory/forget"), QJsonObject{{s("input_text"), s("x")}}, {hdr("X-Api-Key", "k1")});
    QCOMPARE(missing.status, 400);
    QCOMPARE(missing.issuePath(), s("node_id"));
    const Reply noInput = server.post(s("/v1/memory/forget"), QJsonObject{{s("node_id"), nodeId}},
                                      {hdr("X-Api-Key", "k1")});
    QCOMPARE(noInput.status, 400);
    // Lanes and owners: agent b does not see agent a's private node.
    QCOMPARE(server.post(s("/v1/memory/forget"), body, {hdr("X-Api-Key", "k2")}).status, 404);
    QCOMPARE(server.nodes(s("acme")).size(), 1);

    const Reply forgotten = server.post(s("/v1/memory/forget"), body, {hdr("X-Api-Key", "k1")});
    QVERIFY2(forgotten.status == 200, forgotten.describe().constData());
    QCOMPARE(forgotten.json.value(s("node")).toObject().value(s("id")).toString(), nodeId);
    QVERIFY(isHex64(forgotten.json.value(s("commit_hash")).toString()));
    QCOMPARE(server.nodes(s("acme")).size(), 0);
    const CommitRecord audit = server.commits(s("acme")).constFirst();
    QCOMPARE(audit.kind, s("node_forget"));
    QCOMPARE(audit.actor, s("agent-a"));
    QCOMPARE(audit.diff.value(s("reason")).toString(), s("wrong"));
    QVERIFY(!QJsonDocument(audit.diff).toJson().contains("private to a"));
    QCOMPARE(server.post(s("/v1/memory/forget"), body, {hdr("X-Api-Key", "k1")}).status, 404);
}

void TestHttpMcp::requestLogNamesTools()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QSignalSpy served(server.host(), &HttpServerHost::requestServed);
    Client client(server);
    QVERIFY(client.open(s("2025-11-25")));
    QVERIFY(!isError(client.tool(s("remember"), {{s("text"), s("logged call")}})));
    QVERIFY(isError(client.tool(s("forget"), {})));
    QVERIFY(QTest::qWaitFor([&] { return served.size() >= 4; }, 5000));
    QStringList details;
    for (const QList<QVariant> &args : std::as_const(served)) {
        const auto entry = args.constFirst().value<RequestLogEntry>();
        QCOMPARE(entry.path, s("/mcp"));
        details << entry.detail;
    }
    QCOMPARE(details,
             QStringList({s("initialize"), s("notifications/initialized"), s("tools/call remember"),
                          s("tools/call forget [invalid_request]")}));
}

QTEST_MAIN(TestHttpMcp)
#include "tst_httpmcp.moc"
