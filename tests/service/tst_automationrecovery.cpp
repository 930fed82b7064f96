// Automation runs survive the process (issue 14): a run that was running when its process was
// killed (SIGKILL, a real child process) resumes at the next open from its last committed
// node state, off the opening thread; a paused run stays paused; a queued run is started.

#include "service/automation/automationengine.h"
#include "service/memoryservice.h"
#include "service/storage/database.h"
#include "tests/support/tempservice.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <cstdio>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

const char *const kChildDirVariable = "MEMORYGRAPH_AUTOMATION_CHILD_DIR";

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

QJsonObject condition(const char *id, const QJsonValue &expression)
{
    return {{s("node_id"), s(id)}, {s("kind"), s("condition")}, {s("expression"), expression}};
}

QJsonObject approval(const char *id)
{
    return {{s("node_id"), s(id)}, {s("kind"), s("approval")}};
}

QJsonObject edge(const char *from, const char *to)
{
    return {{s("from"), s(from)}, {s("to"), s(to)}};
}

QJsonObject createBody(const char *id, const QJsonArray &nodes, const QJsonArray &edges = {})
{
    return {{s("automation_id"), s(id)},
            {s("name"), s(id)},
            {s("status"), s("active")},
            {s("graph"), QJsonObject{{s("nodes"), nodes}, {s("edges"), edges}}}};
}

QJsonObject nodeOf(const QJsonObject &response, const char *id)
{
    for (const QJsonValue &n : response.value(s("nodes")).toArray()) {
        if (n.toObject().value(s("node_id")).toString() == s(id))
            return n.toObject();
    }
    return {};
}

/// The child: opens the store the way the service does, leaves one run paused, then starts a
/// second one and stops dead (until killed) once its second node has started.
int childMain(const QString &dataDir)
{
    auto config = ServiceConfig::fromEnvironment(QProcessEnvironment()).value();
    config.dataDir = dataDir;
    auto db = Database::open(QDir(dataDir).filePath(s("memorygraph.sqlite")));
    if (!db)
        return 2;
    AutomationEngine engine(*db.value(), config, nullptr);
    auto paused = engine.call(s("create"), createBody("waiting", {approval("ok")}), {});
    auto pausedRun = engine.call(s("run"), {{s("automation_id"), s("waiting")}}, {});
    if (!paused || !pausedRun)
        return 3;
    std::printf(
        "PAUSED %s\n",
        qPrintable(pausedRun.value().value(s("run")).toObject().value(s("run_id")).toString()));
    auto created = engine.call(s("create"),
                               createBody("interrupted",
                                          {condition("a", true), condition("b", true),
                                           approval("c"), condition("d", s("$nodes.c.approved"))},
                                          {edge("a", "b"), edge("b", "c"), edge("c", "d")}),
                               {});
    if (!created)
        return 4;
    int started = 0;
    engine.setTransitionHook([&started](const QString &runId, const QString &event) {
        if (event == QLatin1String("node_started") && ++started == 2) {
            std::printf("BLOCKED %s\n", qPrintable(runId));
            std::fflush(stdout);
            for (;;)
                QThread::sleep(1); // the parent kills us here: node b is committed running
        }
    });
    std::fflush(stdout);
    auto run = engine.call(s("run"), {{s("automation_id"), s("interrupted")}}, {});
    Q_UNUSED(run);
    return 5; // never reached
}

} // namespace

class tst_AutomationRecovery : public QObject
{
    Q_OBJECT

private slots:
    void runningRunResumesAfterKill();
    void queuedRunStartsAndPausedRunStaysPausedOnReopen();
};

void tst_AutomationRecovery::runningRunResumesAfterKill()
{
    QTemporaryDir dir;
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QLatin1String(kChildDirVariable), dir.path());
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::SeparateChannels);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY2(child.waitForStarted(10000), qPrintable(child.errorString()));
    QString pausedRun, blockedRun;
    QElapsedTimer timer;
    timer.start();
    QByteArray out;
    while (blockedRun.isEmpty() && timer.elapsed() < 60000) {
        child.waitForReadyRead(500);
        out += child.readAllStandardOutput();
        for (const QByteArray &line : out.split('\n')) {
            if (line.startsWith("PAUSED "))
                pausedRun = QString::fromLatin1(line.mid(7)).trimmed();
            if (line.startsWith("BLOCKED "))
                blockedRun = QString::fromLatin1(line.mid(8)).trimmed();
        }
        QVERIFY2(child.state() == QProcess::Running,
                 qPrintable(s("child exited early: ") + QString::fromUtf8(out)
                            + QString::fromUtf8(child.readAllStandardError())));
    }
    QVERIFY2(!blockedRun.isEmpty(), out.constData());
    child.kill(); // SIGKILL: no destructor, no shutdown path
    QVERIFY(child.waitForFinished(10000));
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);

    auto config = ServiceConfig::fromEnvironment(QProcessEnvironment()).value();
    config.dataDir = dir.path();
    auto opened = MemoryService::open(config);
    QVERIFY2(opened, why(opened).constData());
    MemoryService &service = *opened.value();
    QVERIFY(service.waitForAutomationRecovery(30000));

    auto resumed = service.automation(s("runs/get"), {{s("run_id"), blockedRun}}, {});
    QVERIFY2(resumed, why(resumed).constData());
    const QJsonObject run = resumed.value().value(s("run")).toObject();
    // a had succeeded before the kill and is not run again; b was running: it runs again.
    QCOMPARE(nodeOf(resumed.value(), "a").value(s("attempt")).toInt(), 1);
    QCOMPARE(nodeOf(resumed.value(), "a").value(s("terminal_outcome")).toString(), s("succeeded"));
    QCOMPARE(nodeOf(resumed.value(), "b").value(s("attempt")).toInt(), 2);
    QCOMPARE(nodeOf(resumed.value(), "b").value(s("terminal_outcome")).toString(), s("succeeded"));
    QCOMPARE(run.value(s("status_summary")).toString(), s("paused_for_approval"));

    auto stillPaused = service.automation(s("runs/get"), {{s("run_id"), pausedRun}}, {});
    QVERIFY2(stillPaused, why(stillPaused).constData());
    QCOMPARE(stillPaused.value().value(s("run")).toObject().value(s("status_summary")).toString(),
             s("paused_for_approval"));
    QCOMPARE(nodeOf(stillPaused.value(), "ok").value(s("attempt")).toInt(), 1);

    auto finished = service.automation(s("runs/resume"), {{s("run_id"), blockedRun}}, {});
    QVERIFY2(finished, why(finished).constData());
    QCOMPARE(finished.value().value(s("run")).toObject().value(s("terminal_outcome")).toString(),
             s("succeeded"));
    // The killed process left the commit chain intact.
    auto chain = service.verifyChain(config.defaultTenant, config.defaultScope);
    QVERIFY2(chain, why(chain).constData());
    QVERIFY(chain.value().ok);
}

void tst_AutomationRecovery::queuedRunStartsAndPausedRunStaysPausedOnReopen()
{
    TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    QVERIFY(service->automation(s("create"), createBody("once", {condition("a", true)}), {}));
    QVERIFY(service->automation(s("create"), createBody("gate", {approval("a")}), {}));
    auto done = service->automation(s("run"), {{s("automation_id"), s("once")}}, {});
    auto paused = service->automation(s("run"), {{s("automation_id"), s("gate")}}, {});
    QVERIFY(done && paused);
    const QString doneId = done.value().value(s("run")).toObject().value(s("run_id")).toString();
    const QString pausedId
        = paused.value().value(s("run")).toObject().value(s("run_id")).toString();
    const QString pausedUpdated
        = paused.value().value(s("run")).toObject().value(s("updated_at")).toString();

    // As if the process had stopped right after queueing the first run.
    const QString dbFile = QDir(service.dataDir()).filePath(s("memorygraph.sqlite"));
    // The open service's own recovery pass is over before the rows change under it.
    QVERIFY(service->waitForAutomationRecovery(30000));
    QString failure = runSqlOnFile(
        dbFile,
        {s("UPDATE automation_runs SET lifecycle_state = 'queued', terminal_outcome = NULL,"
           " status_summary = 'queued', started_at = NULL, ended_at = NULL WHERE run_id = '")
             + doneId + s("'"),
         s("UPDATE automation_run_nodes SET lifecycle_state = 'pending', attempt = 0,"
           " terminal_outcome = NULL WHERE run_id = '")
             + doneId + s("'")});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QVERIFY(service.reopen());
    QVERIFY(service->waitForAutomationRecovery(30000));
    auto again = service->automation(s("runs/get"), {{s("run_id"), doneId}}, {});
    QVERIFY2(again, why(again).constData());
    QCOMPARE(again.value().value(s("run")).toObject().value(s("terminal_outcome")).toString(),
             s("succeeded"));
    QCOMPARE(nodeOf(again.value(), "a").value(s("attempt")).toInt(), 1);
    auto still = service->automation(s("runs/get"), {{s("run_id"), pausedId}}, {});
    QCOMPARE(still.value().value(s("run")).toObject().value(s("updated_at")).toString(),
             pausedUpdated);
    QCOMPARE(still.value().value(s("run")).toObject().value(s("lifecycle_state")).toString(),
             s("paused"));
}

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString childDir = qEnvironmentVariable(kChildDirVariable);
    if (!childDir.isEmpty())
        return childMain(childDir);
    tst_AutomationRecovery test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_automationrecovery.moc"
