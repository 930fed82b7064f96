#include "tests/http/httptestserver.h"
#include "tests/support/tempservice.h"
#include "ui/mainwindow.h"
#include "ui/models/commitlistmodel.h"
#include "ui/models/replayrunlistmodel.h"
#include "ui/pages/auditpage.h"
#include "ui/pages/decisionspage.h"
#include "ui/pages/graphpage.h"
#include "ui/pages/memorypage.h"
#include "ui/pages/pageskeleton.h"
#include "ui/pages/recallpage.h"
#include "ui/pages/replaypage.h"
#include "ui/pages/rulespage.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/scopepicker.h"

#include <QComboBox>
#include <QDir>
#include <QJsonArray>
#include <QLabel>
#include <QTest>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <memory>

using namespace MemoryGraph;
using MemoryGraph::Ui::AuditPage;
using MemoryGraph::Ui::PageSkeleton;
using MemoryGraph::Ui::ReplayPage;

namespace {

const QString kScope = QStringLiteral("default");
constexpr int kWaitMs = 15000;

QProcessEnvironment quietEnv()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    return env;
}

/// Writes one node through the facade on a worker thread, as an HTTP request would.
bool writeFromAnotherThread(MemoryService *svc, const QString &clientId)
{
    const QJsonObject node{
        {QStringLiteral("client_id"), clientId},
        {QStringLiteral("type"), QStringLiteral("event")},
        {QStringLiteral("text_summary"), QStringLiteral("written while the page is open")}};
    QFuture<bool> written = QtConcurrent::run([svc, node]() {
        auto request = WriteRequest::fromJson(Test::writeBody({node}));
        return request && svc->write(request.value(), RequestMeta()).ok();
    });
    written.waitForFinished();
    return written.result();
}

/// Starts a replay run through the facade on a worker thread, as an HTTP request would.
bool startRunFromAnotherThread(MemoryService *svc, const QString &goal)
{
    QFuture<bool> started = QtConcurrent::run([svc, goal]() {
        auto request = ReplayRunStartRequest::fromJson({{QStringLiteral("goal"), goal}});
        return request && svc->replayRunStart(request.value(), RequestMeta()).ok();
    });
    started.waitForFinished();
    return started.result();
}

bool waitForScope(const QString &name, const std::function<QString()> &currentScope)
{
    const bool ok = QTest::qWaitFor([&]() { return currentScope() == kScope; }, kWaitMs);
    if (!ok)
        qWarning("%s never showed the scope (it shows \"%s\")", qPrintable(name),
                 qPrintable(currentScope()));
    return ok;
}

} // namespace

/// The shared page skeleton: pages follow scopes and commits written while they are open.
class tst_PageSkeleton : public QObject
{
    Q_OBJECT

private slots:
    void pagesPickUpAScopeWrittenWhileOpen();
    void pagesPickUpAScopeWrittenOverHttp();
    void auditFollowsNewCommits();
    void statusLineShowsErrorsInTheErrorColour();
    void everyScopedPageHasTheSkeleton();
    void aPageClosedWhileLoadingDropsItsAnswers();
};

void tst_PageSkeleton::pagesPickUpAScopeWrittenWhileOpen()
{
    Test::TempService svc(quietEnv());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    Ui::UiExecutor executor;
    ReplayPage replay(svc.service(), &executor);
    AuditPage audit(svc.service(), &executor);
    replay.resize(1280, 760);
    audit.resize(1200, 700);
    replay.show();
    audit.show();
    // The empty store lists no scope yet.
    QVERIFY(
        QTest::qWaitFor([&]() { return !replay.scopePicker()->comboBox()->isEnabled(); }, kWaitMs));
    QVERIFY(replay.currentScope().isEmpty());

    QVERIFY(writeFromAnotherThread(svc.service(), QStringLiteral("first")));

    // No Refresh pressed: the commit alone brings the new scope onto both pages.
    QVERIFY(waitForScope(QStringLiteral("Replay"), [&]() { return replay.currentScope(); }));
    QVERIFY(waitForScope(QStringLiteral("Audit"), [&]() { return audit.currentScope(); }));
    QVERIFY(QTest::qWaitFor([&]() { return audit.commitModel()->rowCount() == 1; }, kWaitMs));
    QVERIFY(replay.scopePicker()->comboBox()->isEnabled());

    // And what is written in that scope next shows up on its own as well.
    QVERIFY(startRunFromAnotherThread(svc.service(), QStringLiteral("written while open")));
    QVERIFY(QTest::qWaitFor([&]() { return replay.runModel()->rowCount() == 1; }, kWaitMs));
    QVERIFY(QTest::qWaitFor([&]() { return audit.commitModel()->rowCount() == 2; }, kWaitMs));

    QCoreApplication::processEvents(); // let the labels that just changed lay out first
    replay.grab().save(
        QDir(Test::testOutputDir()).filePath(QStringLiteral("pageskeleton-replay.png")));
}

void tst_PageSkeleton::pagesPickUpAScopeWrittenOverHttp()
{
    // As an agent would: a POST to the real server while Replay and Audit are open.
    Test::HttpTestServer server(quietEnv());
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    Ui::UiExecutor executor;
    ReplayPage replay(server.service(), &executor);
    AuditPage audit(server.service(), &executor);
    replay.show();
    audit.show();
    QVERIFY(
        QTest::qWaitFor([&]() { return !replay.scopePicker()->comboBox()->isEnabled(); }, kWaitMs));

    const QJsonObject node{{QStringLiteral("client_id"), QStringLiteral("over-http")},
                           {QStringLiteral("type"), QStringLiteral("event")},
                           {QStringLiteral("text_summary"), QStringLiteral("sent over HTTP")}};
    const auto written = server.post(QStringLiteral("/v1/memory/write"), Test::writeBody({node}));
    QVERIFY2(written.status == 200, written.describe().constData());

    QVERIFY(waitForScope(QStringLiteral("Replay"), [&]() { return replay.currentScope(); }));
    QVERIFY(waitForScope(QStringLiteral("Audit"), [&]() { return audit.currentScope(); }));
    QVERIFY(QTest::qWaitFor([&]() { return audit.commitModel()->rowCount() == 1; }, kWaitMs));
}

void tst_PageSkeleton::auditFollowsNewCommits()
{
    Test::TempService svc(quietEnv());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeFromAnotherThread(svc.service(), QStringLiteral("before")));
    Ui::UiExecutor executor;
    AuditPage audit(svc.service(), &executor);
    audit.show();
    QVERIFY(QTest::qWaitFor([&]() { return audit.commitModel()->rowCount() == 1; }, kWaitMs));

    QVERIFY(writeFromAnotherThread(svc.service(), QStringLiteral("after-1")));
    QVERIFY(writeFromAnotherThread(svc.service(), QStringLiteral("after-2")));

    QVERIFY(QTest::qWaitFor([&]() { return audit.commitModel()->rowCount() == 3; }, kWaitMs));
    QCOMPARE(audit.currentScope(), kScope);
}

void tst_PageSkeleton::statusLineShowsErrorsInTheErrorColour()
{
    Test::TempService svc(quietEnv());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    Ui::UiExecutor executor;
    PageSkeleton skeleton(svc.service(), &executor);
    QVERIFY(skeleton.statusText().isEmpty());

    skeleton.setStatus(QStringLiteral("Loading failed"), true);
    QCOMPARE(skeleton.statusText(), QStringLiteral("Loading failed"));
    QCOMPARE(skeleton.statusLine()->toolTip(), QStringLiteral("Loading failed"));
    QVERIFY(skeleton.statusLine()->styleSheet().contains(QStringLiteral("color")));

    skeleton.setStatus(QStringLiteral("Done"));
    QVERIFY(skeleton.statusLine()->styleSheet().isEmpty());
}

void tst_PageSkeleton::everyScopedPageHasTheSkeleton()
{
    Test::TempService svc(quietEnv());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    Ui::MainWindow window(svc.service());
    const QList<QWidget *> pages{window.memoryPage(), window.recallPage(),    window.graphPage(),
                                 window.rulesPage(),  window.decisionsPage(), window.replayPage(),
                                 window.auditPage()};
    for (QWidget *page : pages) {
        auto *skeleton = qobject_cast<PageSkeleton *>(page);
        QVERIFY2(skeleton, qPrintable(page->objectName()));
        QVERIFY2(skeleton->scopePicker(), qPrintable(page->objectName()));
        auto *refresh = page->findChild<QToolButton *>(QStringLiteral("refreshButton"));
        QVERIFY2(refresh && refresh->defaultAction() == skeleton->refreshAction(),
                 qPrintable(page->objectName()));
        QCOMPARE(skeleton->refreshAction()->shortcut(), QKeySequence(QKeySequence::Refresh));
    }
}

void tst_PageSkeleton::aPageClosedWhileLoadingDropsItsAnswers()
{
    Test::TempService svc(quietEnv());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QVERIFY(writeFromAnotherThread(svc.service(), QStringLiteral("first")));
    Ui::UiExecutor executor;
    for (int i = 0; i < 5; ++i) {
        auto page = std::make_unique<AuditPage>(svc.service(), &executor);
        page->refresh();
        page->verifyChain();
        page.reset(); // its calls are still on their way
    }
    executor.waitForDone();
    QTest::qWait(50); // answers queued for the gone pages would arrive here
    QVERIFY(svc->listScopes().size() == 1);
}

QTEST_MAIN(tst_PageSkeleton)
#include "tst_pageskeleton.moc"
