// The Replay page's playbooks (reference-behaviour §7.4): "Compile playbook from this run" from
// the keyboard, a playbook's versions, steps and repairs, approve / reject of a pending repair
// review and promote, on the offscreen platform (screenshots under the test output folder).

#include "tests/support/tempservice.h"
#include "ui/pages/replaypage.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/playbookpanel.h"

#include <QComboBox>
#include <QDir>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::PlaybookPanel;
using MemoryGraph::Ui::ReplayPage;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

template<typename Request, typename Call>
auto call(MemoryService *service, const QJsonObject &body, Call method)
{
    auto request = Request::fromJson(body);
    if (!request)
        qFatal("bad request: %s", qPrintable(request.error().message));
    auto outcome = (service->*method)(request.value(), RequestMeta());
    if (!outcome)
        qFatal("call failed: %s", qPrintable(outcome.error().message));
    return outcome.value();
}

/// A finished run of two echo steps; returns its id.
QString recordRun(MemoryService *service, const QString &endStatus = QStringLiteral("success"))
{
    const auto run = call<ReplayRunStartRequest>(service, {{s("goal"), s("greet the world")}},
                                                 &MemoryService::replayRunStart);
    const QStringList args{s("/srv/hello"), s("world")};
    for (int i = 0; i < args.size(); ++i) {
        const auto step = call<ReplayStepBeforeRequest>(
            service,
            {{s("run_id"), run.runId},
             {s("step_index"), i + 1},
             {s("tool_name"), s("command")},
             {s("tool_input"), QJsonObject{{s("argv"), QJsonArray{s("echo"), args.at(i)}}}},
             {s("safety_level"), s("auto_ok")}},
            &MemoryService::replayStepBefore);
        call<ReplayStepAfterRequest>(
            service,
            {{s("run_id"), run.runId}, {s("step_id"), step.stepId}, {s("status"), s("success")}},
            &MemoryService::replayStepAfter);
    }
    call<ReplayRunEndRequest>(service, {{s("run_id"), run.runId}, {s("status"), endStatus}},
                              &MemoryService::replayRunEnd);
    return run.runId;
}

void repair(MemoryService *service, const QString &playbookId)
{
    call<PlaybookRepairRequest>(
        service,
        {{s("playbook_id"), playbookId},
         {s("note"), s("the second echo is noise")},
         {s("patch"), QJsonObject{{s("remove_step_indices"), QJsonArray{2}}}}},
        &MemoryService::playbookRepair);
}

bool saveShot(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents();
    return widget->grab().save(QDir(Test::testOutputDir()).filePath(name));
}

QString versionCell(PlaybookPanel *panel, int row, int column)
{
    QTableWidgetItem *item = panel->versionsTable()->item(row, column);
    return item ? item->text() : QString();
}

} // namespace

class tst_ReplayPlaybooks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void compileReviewAndPromote();
    void rejectAndUnfinishedRuns();
};

void tst_ReplayPlaybooks::compileReviewAndPromote()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const QString runId = recordRun(service.service());

    Ui::UiExecutor executor;
    ReplayPage page(service.service(), &executor);
    page.resize(1280, 860);
    page.show();
    page.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&page));
    page.showRun(s("default"), s("default"), runId);
    QTRY_COMPARE(page.currentRunId(), runId);
    QPushButton *compile = page.compilePlaybookButton();
    QVERIFY(compile->isEnabled());
    QVERIFY(compile->focusPolicy() & Qt::TabFocus);

    // Keyboard: the button's mnemonic (Alt+C) compiles the shown run.
    PlaybookPanel *panel = page.playbookPanel();
    QSignalSpy compiled(panel, &PlaybookPanel::compiled);
    QTest::keyClick(&page, Qt::Key_C, Qt::AltModifier);
    QTRY_COMPARE(compiled.size(), 1);
    const QString playbookId = compiled.first().first().toString();
    QCOMPARE(page.detailTabs()->currentWidget(), panel);
    QTRY_COMPARE(panel->playbookList()->count(), 1);
    QTRY_COMPARE(panel->versionsTable()->rowCount(), 1);
    QCOMPARE(versionCell(panel, 0, 1), s("draft"));
    QCOMPARE(panel->stepsTable()->rowCount(), 2);
    QCOMPARE(panel->stepsTable()->item(0, 2)->text(), s(R"({"argv":["echo","{{path_1}}"]})"));
    QVERIFY(!panel->approveButton()->isEnabled());

    // A repair waiting for review: shown with its patch; approve validates it into shadow.
    repair(service.service(), playbookId);
    panel->reload();
    QTRY_COMPARE(panel->versionsTable()->rowCount(), 2);
    QTRY_COMPARE(panel->currentVersion(), 2);
    QCOMPARE(versionCell(panel, 0, 2), s("pending_review"));
    QCOMPARE(versionCell(panel, 0, 3), s("repair of v1"));
    QVERIFY(panel->repairView()->toPlainText().contains(s("remove_step_indices")));
    QVERIFY(panel->approveButton()->isEnabled());
    QVERIFY(panel->rejectButton()->isEnabled());
    QVERIFY(saveShot(&page, s("replay-playbook-review.png")));

    panel->approveButton()->setFocus();
    QTest::keyClick(panel->approveButton(), Qt::Key_Space);
    QTRY_COMPARE(panel->versionsTable()->rowCount(), 3);
    QTRY_COMPARE(versionCell(panel, 0, 1), s("shadow"));
    QCOMPARE(versionCell(panel, 0, 2), s("approved"));
    QCOMPARE(versionCell(panel, 0, 3), s("review of v2"));
    QVERIFY(panel->statusLabel()->text().contains(s("approved")));
    QVERIFY(!panel->approveButton()->isEnabled());

    // Promote the shadow version to active.
    panel->promoteStatus()->setCurrentText(s("active"));
    QTest::mouseClick(panel->promoteButton(), Qt::LeftButton);
    QTRY_COMPARE(panel->versionsTable()->rowCount(), 4);
    QTRY_COMPARE(versionCell(panel, 0, 1), s("active"));
    QCOMPARE(versionCell(panel, 0, 3), s("promoted from v3"));
    QVERIFY(saveShot(&page, s("replay-playbook-versions.png")));

    auto list = service->listPlaybooks(s("default"), s("default"));
    QCOMPARE(list.value().at(0).status, s("active"));
    QCOMPARE(list.value().at(0).version, 4);
}

void tst_ReplayPlaybooks::rejectAndUnfinishedRuns()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const QString failed = recordRun(service.service(), s("failed"));
    const QString ok = recordRun(service.service());

    Ui::UiExecutor executor;
    ReplayPage page(service.service(), &executor);
    page.resize(1280, 860);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.showRun(s("default"), s("default"), failed);
    QTRY_COMPARE(page.currentRunId(), failed);
    QVERIFY(!page.compilePlaybookButton()->isEnabled()); // only a successful run compiles

    page.showRun(s("default"), s("default"), ok);
    QTRY_COMPARE(page.currentRunId(), ok);
    QTRY_VERIFY(page.compilePlaybookButton()->isEnabled());
    PlaybookPanel *panel = page.playbookPanel();
    QSignalSpy compiled(panel, &PlaybookPanel::compiled);
    page.compilePlaybook();
    QTRY_COMPARE(compiled.size(), 1);
    repair(service.service(), compiled.first().first().toString());
    panel->reload();
    QTRY_COMPARE(panel->versionsTable()->rowCount(), 2);
    QTRY_VERIFY(panel->rejectButton()->isEnabled());
    QSignalSpy finished(panel, &PlaybookPanel::actionFinished);
    panel->rejectRepair();
    QTRY_COMPARE(finished.size(), 1);
    QCOMPARE(finished.first().at(0).toBool(), true);
    QTRY_COMPARE(panel->versionsTable()->rowCount(), 3);
    QTRY_COMPARE(versionCell(panel, 0, 2), s("rejected"));
    QCOMPARE(versionCell(panel, 0, 1), s("draft"));
    // Choosing the reviewed repair version shows it, with no review left to make.
    panel->versionsTable()->setCurrentCell(1, 0);
    QTRY_COMPARE(panel->currentVersion(), 2);
    QVERIFY(!panel->approveButton()->isEnabled());
    // A refresh (any commit in the scope) keeps the version shown.
    QSignalSpy shown(panel, &PlaybookPanel::versionShown);
    panel->reload();
    QTRY_COMPARE(shown.size(), 1);
    QCOMPARE(panel->currentVersion(), 2);
}

QTEST_MAIN(tst_ReplayPlaybooks)
#include "tst_replayplaybooks.moc"
