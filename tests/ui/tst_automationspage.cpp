// The Automations page offscreen, over a real service: an operator creates a definition from
// JSON (validated live, issues marked on the drawn graph), runs it, sees it paused for
// approval, approves (resumes) it and sees it succeed; shadow review and promotion through the
// version history; telemetry painted. Screenshots go to the test output folder.

#include "service/memoryservice.h"
#include "tests/support/tempservice.h"
#include "ui/mainwindow.h"
#include "ui/pages/automationspage.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/automationgraphview.h"
#include "ui/widgets/automationtelemetrychart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::AutomationsPage;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

void screenshot(QWidget *widget, const char *name)
{
    QCoreApplication::processEvents();
    const QString path = QDir(Test::testOutputDir()).filePath(s(name));
    QVERIFY2(widget->grab().save(path), qPrintable(path));
}

const char *const Definition = R"({
  "automation_id": "deploy-docs",
  "name": "Deploy the docs",
  "status": "active",
  "graph": {
    "nodes": [
      {"node_id": "check", "kind": "condition", "expression": true},
      {"node_id": "approve", "kind": "approval"},
      {"node_id": "publish", "kind": "condition", "expression": "$nodes.approve.approved"}
    ],
    "edges": [
      {"from": "check", "to": "approve"},
      {"from": "approve", "to": "publish"}
    ]
  }
})";

} // namespace

class tst_AutomationsPage : public QObject
{
    Q_OBJECT

private slots:
    void createRunPauseApproveSucceed();
    void invalidGraphIsMarkedLive();
    void shadowReviewAndPromoteFromTheVersionHistory();
    void windowHasTheAutomationsPage();
};

void tst_AutomationsPage::createRunPauseApproveSucceed()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    Ui::UiExecutor executor;
    AutomationsPage page(service.service(), &executor);
    page.resize(1280, 800);
    page.show();

    // Create from JSON: live validation enables Save and draws the graph in order.
    QSignalSpy validated(&page, &AutomationsPage::validated);
    page.definitionEditor()->setPlainText(QString::fromUtf8(Definition));
    QTRY_VERIFY(!validated.isEmpty() && validated.last().at(0).toBool());
    QVERIFY(page.saveButton()->isEnabled());
    QVERIFY(
        page.validationLabel()->text().contains(QString::fromUtf8("check → approve → publish")));
    QCOMPARE(page.graphView()->nodeIds(), QStringList({s("check"), s("approve"), s("publish")}));
    QTest::mouseClick(page.saveButton(), Qt::LeftButton);
    QTRY_COMPARE(page.definitionsTable()->rowCount(), 1);
    QTRY_COMPARE(page.currentAutomationId(), s("deploy-docs"));
    QTRY_COMPARE(page.versionsTable()->rowCount(), 1);
    QCOMPARE(page.definitionsTable()->item(0, 2)->text(), s("active"));
    QCOMPARE(page.definitionsTable()->item(0, 3)->text(), s("1"));
    QTRY_VERIFY(page.runButton()->isEnabled());
    QTRY_VERIFY(page.hasScope()); // the first commit made the default scope
    screenshot(&page, "automations-definitions.png");

    // Run it: the Runs tab shows it paused for approval, approval node paused.
    QTest::mouseClick(page.runButton(), Qt::LeftButton);
    QTRY_COMPARE(page.tabs()->currentIndex(), int(AutomationsPage::RunsTab));
    QTRY_COMPARE(page.currentRunStatus(), s("paused_for_approval"));
    QTRY_COMPARE(page.runsTable()->rowCount(), 1);
    QTRY_COMPARE(page.runsTable()->item(0, 3)->text(), s("paused_for_approval"));
    QCOMPARE(page.runsTable()->item(0, 5)->text(), s("approve"));
    QCOMPARE(page.nodesTable()->rowCount(), 3);
    QCOMPARE(page.nodesTable()->item(0, 4)->text(), s("succeeded"));
    QCOMPARE(page.nodesTable()->item(1, 3)->text(), s("paused"));
    QVERIFY(page.resumeButton()->isEnabled());
    QVERIFY(page.cancelButton()->isEnabled());
    QVERIFY(!page.approveRepairButton()->isEnabled());
    // The inbox lists it as needing action.
    page.needsActionCheck()->setChecked(true);
    QTRY_COMPARE(page.runsTable()->rowCount(), 1);
    screenshot(&page, "automations-run-paused.png");

    // Approve (resume): the run succeeds.
    QTest::mouseClick(page.resumeButton(), Qt::LeftButton);
    QTRY_COMPARE(page.currentRunStatus(), s("succeeded"));
    QCOMPARE(page.nodesTable()->item(1, 4)->text(), s("succeeded"));
    QCOMPARE(page.nodesTable()->item(2, 4)->text(), s("succeeded"));
    QVERIFY(!page.resumeButton()->isEnabled());
    QVERIFY(page.runSummaryLabel()->text().contains(s("succeeded")));
    QTRY_COMPARE(page.runsTable()->rowCount(), 0); // nothing needs action any more
    page.needsActionCheck()->setChecked(false);
    QTRY_COMPARE(page.runsTable()->rowCount(), 1);

    // Assign a reviewer; the reviewer filter finds the run.
    page.reviewerEdit()->setText(s("alice"));
    QSignalSpy acted(&page, &AutomationsPage::actionFinished);
    QTest::mouseClick(page.assignReviewerButton(), Qt::LeftButton);
    QTRY_VERIFY(!acted.isEmpty());
    QVERIFY2(acted.last().at(1).toBool(), qPrintable(acted.last().at(2).toString()));
    QTRY_VERIFY(page.runSummaryLabel()->text().contains(s("alice")));
    screenshot(&page, "automations-run-succeeded.png");

    // A second run, cancelled from the page; a compensation action is recorded on it.
    page.tabs()->setCurrentIndex(AutomationsPage::DefinitionsTab);
    QTest::mouseClick(page.runButton(), Qt::LeftButton);
    QTRY_COMPARE(page.tabs()->currentIndex(), int(AutomationsPage::RunsTab));
    QTRY_COMPARE(page.currentRunStatus(), s("paused_for_approval"));
    const QString second = page.currentRunId();
    QTest::mouseClick(page.cancelButton(), Qt::LeftButton);
    QTRY_COMPARE(page.currentRunStatus(), s("cancelled"));
    QCOMPARE(page.currentRunId(), second);
    QCOMPARE(page.nodesTable()->item(1, 4)->text(), s("skipped"));
    QVERIFY(page.recordActionButton()->isEnabled());
    page.compensationActionCombo()->setCurrentText(s("observation_noted"));
    const qsizetype before = acted.size();
    QTest::mouseClick(page.recordActionButton(), Qt::LeftButton);
    QTRY_COMPARE(acted.size(), before + 1);
    QVERIFY2(acted.last().at(1).toBool(), qPrintable(acted.last().at(2).toString()));
    QCOMPARE(acted.last().at(0).toString(), s("runs/compensation/record_action"));
    QTRY_COMPARE(page.runsTable()->rowCount(), 2);

    // Telemetry: two runs, one succeeded, painted over 24 hourly buckets.
    QSignalSpy telemetry(&page, &AutomationsPage::telemetryLoaded);
    page.tabs()->setCurrentIndex(AutomationsPage::TelemetryTab);
    QTRY_VERIFY(!telemetry.isEmpty());
    QCOMPARE(page.telemetryChart()->bucketCount(), 24);
    QVERIFY2(page.telemetrySummary()->text().contains(s("success 50.0%")),
             qPrintable(page.telemetrySummary()->text()));
    screenshot(&page, "automations-telemetry.png");
}

void tst_AutomationsPage::invalidGraphIsMarkedLive()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    Ui::UiExecutor executor;
    AutomationsPage page(service.service(), &executor);
    page.resize(1280, 800);
    page.show();
    QSignalSpy validated(&page, &AutomationsPage::validated);
    QJsonObject def = QJsonDocument::fromJson(QByteArray(Definition)).object();
    QJsonObject graph = def.value(s("graph")).toObject();
    QJsonArray edges = graph.value(s("edges")).toArray();
    edges.append(QJsonObject{{s("from"), s("publish")}, {s("to"), s("check")}});
    edges.append(QJsonObject{{s("from"), s("check")}, {s("to"), s("ghost")}});
    graph.insert(s("edges"), edges);
    def.insert(s("graph"), graph);
    page.definitionEditor()->setPlainText(QString::fromUtf8(QJsonDocument(def).toJson()));
    QTRY_VERIFY(!validated.isEmpty());
    QTRY_VERIFY(!validated.last().at(0).toBool());
    QVERIFY(!page.saveButton()->isEnabled());
    QVERIFY(page.validationLabel()->text().contains(s("cycle_detected")));
    QVERIFY(page.validationLabel()->text().contains(s("edge_to_missing")));
    QVERIFY(page.graphView()->flaggedNodeIds().contains(s("check")));
    screenshot(&page, "automations-invalid.png");

    page.definitionEditor()->setPlainText(s("{ not json"));
    QTRY_VERIFY(page.validationLabel()->text().startsWith(s("JSON:")));
    QVERIFY(!page.saveButton()->isEnabled());
}

void tst_AutomationsPage::shadowReviewAndPromoteFromTheVersionHistory()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    QJsonObject def = QJsonDocument::fromJson(QByteArray(Definition)).object();
    def.insert(s("status"), s("shadow"));
    QVERIFY(service->automation(s("create"), def, RequestMeta()));
    Ui::UiExecutor executor;
    AutomationsPage page(service.service(), &executor);
    page.resize(1280, 800);
    page.show();
    QTRY_COMPARE(page.definitionsTable()->rowCount(), 1);
    page.selectAutomation(s("deploy-docs"));
    QTRY_VERIFY(page.reviewGateLabel()->text().contains(s("Review gate closed")));
    QVERIFY(!page.runButton()->isEnabled());
    QVERIFY(page.shadowRunButton()->isEnabled());

    QSignalSpy acted(&page, &AutomationsPage::actionFinished);
    // Promotion to active is refused until the shadow version is reviewed.
    page.promoteTargetCombo()->setCurrentText(s("active"));
    QTest::mouseClick(page.promoteButton(), Qt::LeftButton);
    QTRY_COMPARE(acted.size(), 1);
    QCOMPARE(acted.last().at(1).toBool(), false);
    QVERIFY(acted.last().at(2).toString().contains(s("automation_shadow_review_required")));

    QTest::mouseClick(page.shadowRunButton(), Qt::LeftButton);
    QTRY_COMPARE(acted.size(), 2);
    QVERIFY2(acted.last().at(1).toBool(), qPrintable(acted.last().at(2).toString()));
    page.reviewVerdictCombo()->setCurrentText(s("approved"));
    QTest::mouseClick(page.reviewButton(), Qt::LeftButton);
    QTRY_COMPARE(acted.size(), 3);
    QTRY_VERIFY(page.reviewGateLabel()->text().contains(s("Review gate open")));
    QTRY_COMPARE(page.versionsTable()->item(0, 2)->text(), s("approved"));
    screenshot(&page, "automations-review-gate.png");

    QTest::mouseClick(page.promoteButton(), Qt::LeftButton);
    QTRY_COMPARE(acted.size(), 4);
    QVERIFY2(acted.last().at(1).toBool(), qPrintable(acted.last().at(2).toString()));
    QTRY_COMPARE(page.versionsTable()->rowCount(), 2);
    QCOMPARE(page.versionsTable()->item(0, 1)->text(), s("active"));
    QTRY_VERIFY(page.runButton()->isEnabled());
}

void tst_AutomationsPage::windowHasTheAutomationsPage()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    Ui::MainWindow window(service.service());
    window.resize(1280, 800);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_9, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), Ui::MainWindow::Page::Automations);
    QVERIFY(window.automationsPage()->isVisible());
}

QTEST_MAIN(tst_AutomationsPage)
#include "tst_automationspage.moc"
