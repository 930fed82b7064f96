// `memorygraph backup FILE` and `memorygraph restore FILE` as real child processes, next to a
// real headless instance: a backup of the store it serves, a restore refused while it holds the
// folder, and a restore into a fresh folder whose recall answers as the original did.

#include "childprocess.h"
#include "service/memoryservice.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace MemoryGraph::AppTest;

namespace {

const QString kBinary = QStringLiteral(MEMORYGRAPH_APP_BINARY);
constexpr int kTimeoutMs = 60000;

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

/// Runs the executable to its end.
Finished run(const QStringList &arguments)
{
    return runToEnd(kBinary, arguments, kTimeoutMs);
}

/// A headless instance serving a data folder on a free port.
class Instance
{
public:
    explicit Instance(const QString &dataDir)
    {
        m_process.setProcessEnvironment(childEnvironment());
        m_process.start(kBinary, {s("--headless"), s("--port"), s("0"), s("--data-dir"), dataDir});
        QElapsedTimer timer;
        timer.start();
        const QRegularExpression listening(s("listening on (http://[^ ]+)"));
        QString out;
        while (m_url.isEmpty() && timer.elapsed() < kTimeoutMs
               && m_process.state() != QProcess::NotRunning) {
            m_process.waitForReadyRead(200);
            out += QString::fromUtf8(m_process.readAllStandardOutput());
            const auto match = listening.match(out);
            if (match.hasMatch())
                m_url = match.captured(1);
        }
        m_nam.setProxy(QNetworkProxy::NoProxy);
    }
    ~Instance() { stop(); }

    QString url() const { return m_url; }
    qint64 pid() const { return m_process.processId(); }

    int stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return m_process.exitCode();
        m_process.terminate();
        if (!m_process.waitForFinished(kTimeoutMs))
            m_process.kill();
        m_process.waitForFinished(kTimeoutMs);
        return m_process.exitCode();
    }

    QJsonObject post(const QString &path, const QJsonObject &body)
    {
        QNetworkRequest request(QUrl(m_url + path));
        request.setHeader(QNetworkRequest::ContentTypeHeader, s("application/json"));
        QNetworkReply *reply
            = m_nam.post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(kTimeoutMs, &loop, &QEventLoop::quit);
        if (!reply->isFinished())
            loop.exec();
        const QJsonObject answer = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return answer;
    }

    bool write(const QString &clientId, const QString &summary)
    {
        const QJsonObject answer
            = post(s("/v1/memory/write"),
                   {{s("input_text"), summary},
                    {s("nodes"), QJsonArray{QJsonObject{{s("client_id"), clientId},
                                                        {s("type"), s("event")},
                                                        {s("title"), clientId},
                                                        {s("text_summary"), summary}}}}});
        return answer.contains(s("commit_id"));
    }

    QStringList seedIds(const QString &query)
    {
        const QJsonObject answer
            = post(s("/v1/memory/recall_text"), {{s("query_text"), query}, {s("limit"), 5}});
        QStringList ids;
        for (const QJsonValue &seed : answer.value(s("seeds")).toArray())
            ids << seed.toObject().value(s("id")).toString();
        return ids;
    }

    /// Every fact is stored with its embedding (the background embedder has caught up).
    bool allEmbedded(int expected)
    {
        const QJsonObject answer
            = post(s("/v1/memory/recall_text"),
                   {{s("query_text"), s("staging database answers deploys billing logs payment")},
                    {s("limit"), 20},
                    {s("include_meta"), true}});
        const QJsonArray nodes = answer.value(s("subgraph")).toObject().value(s("nodes")).toArray();
        int ready = 0;
        for (const QJsonValue &n : nodes)
            ready += n.toObject().value(s("embedding_status")).toString() == s("ready") ? 1 : 0;
        return ready == expected;
    }

private:
    QProcess m_process;
    QString m_url;
    QNetworkAccessManager m_nam;
};

const QStringList kFacts{
    s("The staging database listens on port 6543."),
    s("Alice prefers short answers without bullet lists."),
    s("Deploys happen on Tuesdays after the standup."),
    s("Bob owns the billing service and its alerts."),
    s("Production logs are kept for thirty days."),
    s("Carol reviews every change to the payment gateway."),
};

const QStringList kQueries{s("Which port does the staging database use?"),
                           s("who looks after billing"), s("how long are logs kept")};

} // namespace

class tst_BackupCommand : public QObject
{
    Q_OBJECT

private slots:
    void helpListsTheCommands();
    void backupWithoutAStoreIsAConfigurationError();
    void backupWhileServingRestoreElsewhereAnswersTheSame();
    void restoreRefusesAFileThatIsNoStore();
    void restorePreparedInTheWindowIsAppliedByTheNextStart();
};

void tst_BackupCommand::helpListsTheCommands()
{
    const Finished help = run({s("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY2(help.out.contains(s("[mcp | backup FILE | restore FILE | export FILE | import FILE]")),
             qPrintable(help.out));
    QVERIFY(help.out.contains(s("backup FILE")));
    QVERIFY(help.out.contains(s("restore FILE")));
    const Finished missing = run({s("backup")});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY(missing.err.contains(s("name the backup FILE")));
}

void tst_BackupCommand::backupWithoutAStoreIsAConfigurationError()
{
    QTemporaryDir dir;
    const Finished f = run({s("backup"), QDir(dir.path()).filePath(s("x.db")), s("--data-dir"),
                            QDir(dir.path()).filePath(s("empty"))});
    QCOMPARE(f.exitCode, 2);
    QVERIFY2(f.err.contains(s("there is no store")), qPrintable(f.err));
}

void tst_BackupCommand::backupWhileServingRestoreElsewhereAnswersTheSame()
{
    QTemporaryDir dir;
    const QString live = QDir(dir.path()).filePath(s("live"));
    const QString fresh = QDir(dir.path()).filePath(s("fresh"));
    const QString file = QDir(dir.path()).filePath(s("backup.sqlite"));

    Instance original(live);
    QVERIFY2(!original.url().isEmpty(), "the instance did not start");
    for (int i = 0; i < kFacts.size(); ++i)
        QVERIFY(original.write(s("fact-%1").arg(i), kFacts.at(i)));
    // The same store must give the same answer: compare once every vector is in it.
    QTRY_VERIFY_WITH_TIMEOUT(original.allEmbedded(int(kFacts.size())), kTimeoutMs);
    QList<QStringList> before;
    for (const QString &q : kQueries)
        before << original.seedIds(q);
    QVERIFY(!before.first().isEmpty());

    // A backup of the folder the instance serves: progress on stderr, the outcome on stdout.
    const Finished backup = run({s("backup"), file, s("--data-dir"), live});
    QVERIFY2(backup.exitCode == 0, qPrintable(backup.err));
    QVERIFY2(
        QRegularExpression(s("backup: 100% \\(\\d+/\\d+ pages\\)")).match(backup.err).hasMatch(),
        qPrintable(backup.err));
    QVERIFY(backup.err.contains(s("backup: checking")));
    QVERIFY2(backup.out.contains(s("%1 nodes").arg(kFacts.size())), qPrintable(backup.out));
    QVERIFY(QFileInfo(file).isFile());

    // A restore into the folder it holds is refused, naming it.
    const Finished refused = run({s("restore"), file, s("--data-dir"), live});
    QCOMPARE(refused.exitCode, 4);
    QVERIFY2(refused.err.contains(s("pid %1").arg(original.pid())), qPrintable(refused.err));
    QVERIFY2(refused.err.contains(original.url()), qPrintable(refused.err));
    QCOMPARE(original.stop(), 0);

    // Restored into a fresh folder, the store answers recall as before.
    const Finished restored = run({s("restore"), file, s("--data-dir"), fresh});
    QVERIFY2(restored.exitCode == 0, qPrintable(restored.err));
    QVERIFY2(restored.out.contains(s("restored")), qPrintable(restored.out));
    QVERIFY(QRegularExpression(s("restore: 100% \\(\\d+/\\d+ pages\\)"))
                .match(restored.err)
                .hasMatch());
    Instance copy(fresh);
    QVERIFY2(!copy.url().isEmpty(), "the restored instance did not start");
    for (int i = 0; i < kQueries.size(); ++i)
        QCOMPARE(copy.seedIds(kQueries.at(i)), before.at(i));
    QCOMPARE(copy.stop(), 0);

    // The stopped original can be restored too; its store is kept beside the new one.
    const Finished again = run({s("restore"), file, s("--data-dir"), live});
    QVERIFY2(again.exitCode == 0, qPrintable(again.err));
    QVERIFY2(again.out.contains(s("the previous store is kept as")), qPrintable(again.out));
    const QStringList kept = QDir(live).entryList({s("memorygraph.sqlite.before-restore-*")});
    QCOMPARE(kept.size(), 1);
}

void tst_BackupCommand::restoreRefusesAFileThatIsNoStore()
{
    QTemporaryDir dir;
    const QString text = QDir(dir.path()).filePath(s("notes.txt"));
    QFile f(text);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("just some words, not a database\n");
    f.close();
    const QString folder = QDir(dir.path()).filePath(s("data"));
    const Finished refused = run({s("restore"), text, s("--data-dir"), folder});
    QCOMPARE(refused.exitCode, 5);
    QVERIFY2(refused.err.contains(s("is not a Memory Graph store")), qPrintable(refused.err));
    QVERIFY(!QFileInfo::exists(QDir(folder).filePath(s("memorygraph.sqlite"))));
}

void tst_BackupCommand::restorePreparedInTheWindowIsAppliedByTheNextStart()
{
    QTemporaryDir dir;
    const QString folder = QDir(dir.path()).filePath(s("data"));
    const QString file = QDir(dir.path()).filePath(s("three.sqlite"));
    {
        // What File > Restore... does in a running window, here on a service of this process.
        MemoryGraph::ServiceConfig config;
        config.dataDir = folder;
        config.embeddingProvider = s("none");
        auto service = MemoryGraph::MemoryService::open(config);
        QVERIFY2(service, qPrintable(service ? QString() : service.error().message));
        const auto writeOne = [&service](int i) {
            auto req = MemoryGraph::WriteRequest::fromJson(
                {{s("input_text"), s("n%1").arg(i)},
                 {s("nodes"), QJsonArray{QJsonObject{{s("client_id"), s("n%1").arg(i)},
                                                     {s("type"), s("event")},
                                                     {s("text_summary"), s("note %1").arg(i)}}}}});
            return req && service.value()->write(req.value(), {}).ok();
        };
        for (int i = 0; i < 3; ++i)
            QVERIFY(writeOne(i));
        QVERIFY(service.value()->backup(file));
        for (int i = 3; i < 5; ++i)
            QVERIFY(writeOne(i));
        QVERIFY(service.value()->scheduleRestore(file));
    }

    // The next start swaps it in before it opens the store, and says so.
    QProcess p;
    p.setProcessEnvironment(childEnvironment());
    p.start(kBinary, {s("--headless"), s("--port"), s("0"), s("--data-dir"), folder});
    QString err;
    QTRY_VERIFY_WITH_TIMEOUT((err += QString::fromUtf8(p.readAllStandardError()),
                              err.contains(s("restored the store from"))),
                             kTimeoutMs);
    QVERIFY2(err.contains(s("3 nodes")), qPrintable(err));
    p.terminate();
    QVERIFY(p.waitForFinished(kTimeoutMs));
    QCOMPARE(QDir(folder).entryList({s("memorygraph.sqlite.before-restore-*")}).size(), 1);
    QVERIFY(!QFileInfo::exists(QDir(folder).filePath(s("memorygraph.restore-pending.json"))));
}

QTEST_GUILESS_MAIN(tst_BackupCommand)
#include "tst_backupcommand.moc"
