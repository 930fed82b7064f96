// `memorygraph mcp` as a real child process: newline-delimited JSON-RPC on stdin/stdout, logs on
// stderr only; serving the data folder itself, or forwarding to the instance that owns it; and
// the data folder lock that lets only one process own a folder.

#include "childprocess.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph::AppTest;

namespace {

const QString kBinary = QStringLiteral(MEMORYGRAPH_APP_BINARY);
constexpr int kTimeoutMs = 30000;

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QJsonObject request(int id, const QString &method, const QJsonObject &params = {})
{
    QJsonObject m{{s("jsonrpc"), s("2.0")}, {s("id"), id}, {s("method"), method}};
    if (!params.isEmpty())
        m.insert(s("params"), params);
    return m;
}

QJsonObject initializeParams(const QString &revision)
{
    return {{s("protocolVersion"), revision},
            {s("capabilities"), QJsonObject()},
            {s("clientInfo"), QJsonObject{{s("name"), s("stdio-test")}, {s("version"), s("1")}}}};
}

QJsonObject toolCall(const QString &name, const QJsonObject &arguments)
{
    return {{s("name"), name}, {s("arguments"), arguments}};
}

QString toolText(const QJsonObject &response)
{
    return response.value(s("result"))
        .toObject()
        .value(s("content"))
        .toArray()
        .at(0)
        .toObject()
        .value(s("text"))
        .toString();
}

/// A `memorygraph mcp` child: writes messages, reads stdout line by line.
class StdioClient
{
public:
    explicit StdioClient(const QStringList &arguments)
    {
        m_process.setProcessEnvironment(childEnvironment());
        m_process.start(kBinary, QStringList{s("mcp")} + arguments);
    }

    ~StdioClient()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.closeWriteChannel();
            if (!m_process.waitForFinished(kTimeoutMs))
                m_process.kill();
            m_process.waitForFinished(kTimeoutMs);
        }
    }

    bool started() { return m_process.waitForStarted(kTimeoutMs); }

    void send(const QByteArray &line) { m_process.write(line + '\n'); }
    void send(const QJsonValue &message)
    {
        send(message.isArray() ? QJsonDocument(message.toArray()).toJson(QJsonDocument::Compact)
                               : QJsonDocument(message.toObject()).toJson(QJsonDocument::Compact));
    }

    /// The next line of stdout, parsed; a null document when none came in time.
    QJsonDocument next()
    {
        QElapsedTimer timer;
        timer.start();
        while (!m_process.canReadLine() && timer.elapsed() < kTimeoutMs
               && m_process.state() == QProcess::Running)
            m_process.waitForReadyRead(200);
        if (!m_process.canReadLine())
            return {};
        const QByteArray line = m_process.readLine();
        lines << line;
        return QJsonDocument::fromJson(line);
    }

    QJsonObject call(int id, const QString &method, const QJsonObject &params = {})
    {
        send(request(id, method, params));
        return next().object();
    }

    QProcess &process() { return m_process; }
    QByteArrayList lines;

private:
    QProcess m_process;
};

/// `memorygraph --headless` on an ephemeral port; its URL read from stdout.
class HeadlessInstance
{
public:
    explicit HeadlessInstance(const QString &dataDir,
                              const QProcessEnvironment &env = childEnvironment())
    {
        m_process.setProcessEnvironment(env);
        m_process.start(kBinary, {s("--headless"), s("--port"), s("0"), s("--data-dir"), dataDir});
        QElapsedTimer timer;
        timer.start();
        static const QRegularExpression listening(s("listening on (http://[^ ]+)"));
        while (url.isEmpty() && timer.elapsed() < kTimeoutMs
               && m_process.state() != QProcess::NotRunning) {
            m_process.waitForReadyRead(200);
            m_stdout += m_process.readAllStandardOutput();
            const auto match = listening.match(QString::fromUtf8(m_stdout));
            if (match.hasMatch())
                url = match.captured(1);
        }
    }

    ~HeadlessInstance() { stop(); }

    int stop()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(kTimeoutMs))
                m_process.kill();
        }
        return m_process.exitCode();
    }

    QByteArray log()
    {
        m_stderr += m_process.readAllStandardError();
        return m_stderr;
    }

    QString url;

private:
    QProcess m_process;
    QByteArray m_stdout;
    QByteArray m_stderr;
};

} // namespace

class TestMcpStdio : public QObject
{
    Q_OBJECT

private slots:
    void servesTheFolderItself();
    void negotiationAndBatches();
    void forwardsToTheOwner();
    void secondStartIsRefused();
};

void TestMcpStdio::servesTheFolderItself()
{
    QTemporaryDir dir;
    StdioClient client({s("--data-dir"), dir.path(), s("--port"), s("1")});
    QVERIFY(client.started());

    const QJsonObject init = client.call(1, s("initialize"), initializeParams(s("2025-11-25")));
    QCOMPARE(init.value(s("result")).toObject().value(s("protocolVersion")).toString(),
             s("2025-11-25"));
    // A notification gets no line: the next line answers the ping after it.
    client.send(
        QJsonObject{{s("jsonrpc"), s("2.0")}, {s("method"), s("notifications/initialized")}});
    const QJsonObject ping = client.call(2, s("ping"));
    QCOMPARE(ping.value(s("id")).toInt(), 2);

    const QJsonObject tools = client.call(3, s("tools/list"));
    QCOMPARE(tools.value(s("result")).toObject().value(s("tools")).toArray().size(), 17);

    const QJsonObject remembered = client.call(
        4, s("tools/call"),
        toolCall(s("remember"), {{s("text"), s("The office plant is a fiddle-leaf fig.")}}));
    QVERIFY2(!remembered.value(s("result")).toObject().value(s("isError")).toBool(),
             qPrintable(toolText(remembered)));
    const QString uri = remembered.value(s("result"))
                            .toObject()
                            .value(s("structuredContent"))
                            .toObject()
                            .value(s("nodes"))
                            .toArray()
                            .at(0)
                            .toObject()
                            .value(s("uri"))
                            .toString();
    QVERIFY(uri.startsWith(s("memorygraph://")));
    // Recallable once embedded (remember does not wait for the embedder).
    QTRY_VERIFY_WITH_TIMEOUT(
        toolText(client.call(5, s("tools/call"),
                             toolCall(s("recall"), {{s("query"), s("what kind of office plant")}})))
            .contains(s("fiddle-leaf")),
        10000);
    const QJsonObject bad = client.call(6, s("tools/call"), toolCall(s("recall"), {}));
    QVERIFY(bad.value(s("result")).toObject().value(s("isError")).toBool());
    const QJsonObject read = client.call(7, s("resources/read"), {{s("uri"), uri}});
    QVERIFY(read.value(s("result")).toObject().contains(s("contents")));
    const QJsonObject forgotten
        = client.call(8, s("tools/call"), toolCall(s("forget"), {{s("uri"), uri}}));
    QVERIFY2(!forgotten.value(s("result")).toObject().value(s("isError")).toBool(),
             qPrintable(toolText(forgotten)));
    const QJsonObject again = client.call(
        9, s("tools/call"), toolCall(s("recall"), {{s("query"), s("what kind of office plant")}}));
    QVERIFY2(!toolText(again).contains(s("fiddle-leaf")), qPrintable(toolText(again)));

    // Not JSON: a parse error line.
    client.send(QByteArray("{oops"));
    QCOMPARE(client.next().object().value(s("error")).toObject().value(s("code")).toInt(), -32700);

    // stdin closes: the process ends cleanly; stdout held only JSON-RPC messages.
    client.process().closeWriteChannel();
    QVERIFY(client.process().waitForFinished(kTimeoutMs));
    QCOMPARE(client.process().exitCode(), 0);
    QVERIFY(client.process().readAllStandardOutput().trimmed().isEmpty());
    for (const QByteArray &line : std::as_const(client.lines)) {
        QVERIFY2(QJsonDocument::fromJson(line).object().value(s("jsonrpc")) == s("2.0"),
                 line.constData());
    }
    QVERIFY(client.process().readAllStandardError().contains("serving"));
}

void TestMcpStdio::negotiationAndBatches()
{
    QTemporaryDir dir;
    StdioClient client({s("--data-dir"), dir.path(), s("--port"), s("1")});
    QVERIFY(client.started());

    // Before initialize, a legacy request is refused.
    QCOMPARE(client.call(1, s("tools/list")).value(s("error")).toObject().value(s("code")).toInt(),
             -32600);
    // An unsupported revision is answered with ours.
    QCOMPARE(client.call(2, s("initialize"), initializeParams(s("2024-11-05")))
                 .value(s("result"))
                 .toObject()
                 .value(s("protocolVersion"))
                 .toString(),
             s("2025-11-25"));
    // 2025-11-25 has no batches.
    client.send(QJsonArray{request(3, s("ping"))});
    QCOMPARE(client.next().object().value(s("error")).toObject().value(s("code")).toInt(), -32600);
    // 2025-03-26 has them.
    QCOMPARE(client.call(4, s("initialize"), initializeParams(s("2025-03-26")))
                 .value(s("result"))
                 .toObject()
                 .value(s("protocolVersion"))
                 .toString(),
             s("2025-03-26"));
    client.send(QJsonArray{
        request(5, s("ping")),
        QJsonObject{{s("jsonrpc"), s("2.0")}, {s("method"), s("notifications/cancelled")}},
        request(6, s("tools/list"))});
    QCOMPARE(client.next().array().size(), 2);

    // The stateless revision works on the same stdio.
    const QJsonObject meta{{s("io.modelcontextprotocol/protocolVersion"), s("2026-07-28")},
                           {s("io.modelcontextprotocol/clientCapabilities"), QJsonObject()}};
    const QJsonObject discover = client.call(7, s("server/discover"), {{s("_meta"), meta}});
    QCOMPARE(discover.value(s("result")).toObject().value(s("resultType")).toString(),
             s("complete"));
    const QJsonObject future{{s("io.modelcontextprotocol/protocolVersion"), s("2099-01-01")},
                             {s("io.modelcontextprotocol/clientCapabilities"), QJsonObject()}};
    QCOMPARE(client.call(8, s("tools/list"), {{s("_meta"), future}})
                 .value(s("error"))
                 .toObject()
                 .value(s("code"))
                 .toInt(),
             -32022);
}

void TestMcpStdio::forwardsToTheOwner()
{
    QTemporaryDir dir;
    QProcessEnvironment env = childEnvironment();
    env.insert(s("MEMORY_MCP_SESSION_IDLE_SEC"), s("1"));
    HeadlessInstance owner(dir.path(), env);
    QVERIFY2(!owner.url.isEmpty(), owner.log().constData());

    // The configured port (1) has no listener; the folder's owner serves, so stdio forwards.
    StdioClient client({s("--data-dir"), dir.path(), s("--port"), s("1")});
    QVERIFY(client.started());
    const QJsonObject init = client.call(1, s("initialize"), initializeParams(s("2025-06-18")));
    QCOMPARE(init.value(s("result")).toObject().value(s("protocolVersion")).toString(),
             s("2025-06-18"));
    client.send(
        QJsonObject{{s("jsonrpc"), s("2.0")}, {s("method"), s("notifications/initialized")}});
    const QJsonObject remembered = client.call(
        2, s("tools/call"), toolCall(s("remember"), {{s("text"), s("Forwarded memories work.")}}));
    QVERIFY2(!remembered.value(s("result")).toObject().value(s("isError")).toBool(),
             qPrintable(toolText(remembered)));
    QTRY_VERIFY_WITH_TIMEOUT(
        toolText(
            client.call(3, s("tools/call"),
                        toolCall(s("recall"), {{s("query"), s("do forwarded memories work")}})))
            .contains(s("Forwarded")),
        10000);
    // The instance's session expires; the bridge opens a new one without the client noticing.
    QTest::qWait(1600);
    const QJsonObject afterExpiry = client.call(
        5, s("tools/call"), toolCall(s("recall"), {{s("query"), s("do forwarded memories work")}}));
    QVERIFY2(toolText(afterExpiry).contains(s("Forwarded")),
             QJsonDocument(afterExpiry).toJson().constData());
    // Stateless requests are forwarded with the headers that revision needs.
    const QJsonObject meta{{s("io.modelcontextprotocol/protocolVersion"), s("2026-07-28")},
                           {s("io.modelcontextprotocol/clientCapabilities"), QJsonObject()}};
    QJsonObject params = toolCall(s("recall"), {{s("query"), s("forwarded")}});
    params.insert(s("_meta"), meta);
    const QJsonObject modern = client.call(4, s("tools/call"), params);
    QVERIFY2(modern.value(s("result")).toObject().contains(s("content")),
             QJsonDocument(modern).toJson().constData());

    client.process().closeWriteChannel();
    QVERIFY(client.process().waitForFinished(kTimeoutMs));
    QCOMPARE(client.process().exitCode(), 0);
    QVERIFY(
        client.process().readAllStandardError().contains("forwarding to " + owner.url.toUtf8()));
    // The owner's request log names the tools.
    QVERIFY(QTest::qWaitFor([&] { return owner.log().contains("tools/call remember"); }, 5000));
}

void TestMcpStdio::secondStartIsRefused()
{
    QTemporaryDir dir;
    {
        HeadlessInstance owner(dir.path());
        QVERIFY2(!owner.url.isEmpty(), owner.log().constData());
#ifdef Q_OS_UNIX
        // The lock and owner files name the process, its host and its address: owner-only.
        for (const char *name : {"memorygraph.lock", "memorygraph.owner.json"}) {
            const QFileInfo file(QDir(dir.path()).filePath(QLatin1String(name)));
            QVERIFY2(file.exists(), name);
            QCOMPARE(file.permissions() & (QFile::ReadGroup | QFile::ReadOther),
                     QFile::Permissions());
        }
#endif
        QProcess second;
        second.setProcessEnvironment(childEnvironment());
        second.start(kBinary, {s("--headless"), s("--port"), s("0"), s("--data-dir"), dir.path()});
        QVERIFY(second.waitForFinished(kTimeoutMs));
        QCOMPARE(second.exitCode(), 4);
        const QByteArray why = second.readAllStandardError();
        QVERIFY2(why.contains("in use") && why.contains(owner.url.toUtf8()) && why.contains("pid"),
                 why.constData());
        QCOMPARE(owner.stop(), 0);
    }
    // Once the owner is gone the folder is free again; a stdio server holding it also refuses
    // a headless start, naming itself.
    StdioClient stdio({s("--data-dir"), dir.path(), s("--port"), s("1")});
    QVERIFY(stdio.started());
    QCOMPARE(stdio.call(1, s("ping")).value(s("error")).toObject().value(s("code")).toInt(),
             -32600); // answered: the folder is open
    QProcess headless;
    headless.setProcessEnvironment(childEnvironment());
    headless.start(kBinary, {s("--headless"), s("--port"), s("0"), s("--data-dir"), dir.path()});
    QVERIFY(headless.waitForFinished(kTimeoutMs));
    QCOMPARE(headless.exitCode(), 4);
    QVERIFY(headless.readAllStandardError().contains("mcp-stdio"));
}

QTEST_GUILESS_MAIN(TestMcpStdio)
#include "tst_mcpstdio.moc"
