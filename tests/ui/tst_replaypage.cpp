#include "tests/support/tempservice.h"
#include "ui/models/replayrunlistmodel.h"
#include "ui/pages/replaypage.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/decisiondetail.h"
#include "ui/widgets/replaystepdetail.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::DecisionDetail;
using MemoryGraph::Ui::ReplayPage;
using Column = MemoryGraph::Ui::ReplayRunListModel::Column;

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

/// An active shared rule that prefers search for lookups, so decisions have a source rule.
QString writeActiveRule(MemoryService *service)
{
    const QJsonObject node{{s("client_id"), s("lookup-rule")},
                           {s("type"), s("rule")},
                           {s("title"), s("Prefer search")},
                           {s("text_summary"), s("Lookups should search")},
                           {s("memory_lane"), s("shared")},
                           {s("slots"), QJsonDocument::fromJson(R"({"if": {"intent": "lookup"},
                                                 "then": {"tool": {"prefer": ["search"]}}})")
                                            .object()}};
    const auto written
        = call<WriteRequest>(service, Test::writeBody({node}), &MemoryService::write);
    const QString id = written.nodes.first().id;
    call<RuleStateRequest>(
        service, {{s("rule_node_id"), id}, {s("state"), s("ACTIVE")}, {s("input_text"), s("t")}},
        &MemoryService::setRuleState);
    return id;
}

struct RecordedRun
{
    QString runId;
    QString runNodeId;
    QStringList stepIds;
    QStringList stepNodeIds;
    QString decisionId;
    QString ruleId;
};

/// A run of three steps (shell ok, search failed, editor pending) with one decision and feedback.
RecordedRun recordRun(MemoryService *service)
{
    RecordedRun r;
    r.ruleId = writeActiveRule(service);
    const auto run = call<ReplayRunStartRequest>(service, {{s("goal"), s("answer the lookup")}},
                                                 &MemoryService::replayRunStart);
    r.runId = run.runId;
    r.runNodeId = run.nodeId;
    const char *tools[] = {"shell", "search", "editor"};
    for (int i = 0; i < 3; ++i) {
        const auto step = call<ReplayStepBeforeRequest>(
            service,
            {{s("run_id"), r.runId},
             {s("step_index"), i + 1},
             {s("tool_name"), QLatin1String(tools[i])},
             {s("tool_input"), QJsonObject{{s("query"), QStringLiteral("q%1").arg(i)}}}},
            &MemoryService::replayStepBefore);
        r.stepIds << step.stepId;
        r.stepNodeIds << step.nodeId;
    }
    call<ReplayStepAfterRequest>(service,
                                 {{s("run_id"), r.runId},
                                  {s("step_id"), r.stepIds[0]},
                                  {s("status"), s("success")},
                                  {s("artifact_refs"), QJsonArray{s("log://1")}}},
                                 &MemoryService::replayStepAfter);
    call<ReplayStepAfterRequest>(service,
                                 {{s("run_id"), r.runId},
                                  {s("step_id"), r.stepIds[1]},
                                  {s("status"), s("failed")},
                                  {s("error"), s("index offline")}},
                                 &MemoryService::replayStepAfter);
    const QJsonObject context{{s("intent"), s("lookup")}};
    const QJsonArray candidates{s("shell"), s("search")};
    const auto selected = call<ToolSelectRequest>(
        service, {{s("run_id"), r.runId}, {s("context"), context}, {s("candidates"), candidates}},
        &MemoryService::selectTools);
    r.decisionId = selected.decision.id;
    auto feedback = ToolFeedbackRequest::fromJson({{s("decision_id"), r.decisionId},
                                                   {s("run_id"), r.runId},
                                                   {s("context"), context},
                                                   {s("candidates"), candidates},
                                                   {s("selected_tool"), s("search")},
                                                   {s("outcome"), s("negative")},
                                                   {s("note"), s("index was down")},
                                                   {s("input_text"), s("fb")}},
                                                  service->config().maxTextLength);
    if (!feedback || !service->toolFeedback(feedback.value(), RequestMeta()))
        qFatal("feedback failed");
    return r;
}

QString timelineNodeAt(const ReplayPage &page, int row)
{
    return page.timelineList()->item(row)->data(Qt::UserRole + 1).toString();
}

int timelineRowOf(const ReplayPage &page, const QString &nodeId)
{
    for (int i = 0; i < page.timelineList()->count(); ++i) {
        if (timelineNodeAt(page, i) == nodeId)
            return i;
    }
    return -1;
}

} // namespace

class tst_ReplayPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void listsRunsAndShowsTheSelectedRun();
    void stepsForwardAndBack();
    void jumpSignalsCarryTheIds();
    void showRunAndRefreshOnCommit();
};

void tst_ReplayPage::listsRunsAndShowsTheSelectedRun()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const RecordedRun recorded = recordRun(service.service());
    const auto other = call<ReplayRunStartRequest>(
        service.service(), {{s("goal"), s("tidy the backlog")}}, &MemoryService::replayRunStart);

    Ui::UiExecutor executor;
    ReplayPage page(service.service(), &executor);
    page.resize(1280, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QTRY_COMPARE(page.runModel()->rowCount(), 2);
    const Ui::ReplayRunListModel *model = page.runModel();
    QCOMPARE(model->run(0).runId, other.runId); // newest first
    QCOMPARE(model->run(1).runId, recorded.runId);
    QCOMPARE(model->data(model->index(1, int(Column::Goal))).toString(), s("answer the lookup"));
    QCOMPARE(model->data(model->index(1, int(Column::Status))).toString(), s("in_progress"));
    QCOMPARE(model->data(model->index(1, int(Column::Steps))).toInt(), 3);

    // The filter narrows the list by goal (or id, or status).
    QTest::keyClicks(page.filterEdit(), s("backlog"));
    QCOMPARE(page.runProxy()->rowCount(), 1);
    QCOMPARE(page.runProxy()->index(0, 0).data(Ui::ReplayRunListModel::RunIdRole).toString(),
             other.runId);
    page.filterEdit()->clear();
    QCOMPARE(page.runProxy()->rowCount(), 2);

    QSignalSpy loaded(&page, &ReplayPage::runLoaded);
    QTableView *table = page.runTable();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(page.runProxy()->index(1, 0)).center());
    QTRY_COMPARE(page.currentRunId(), recorded.runId);
    QCOMPARE(loaded.last().at(0).toString(), recorded.runId);

    // Timeline: run, three steps, two results, oldest first.
    QCOMPARE(page.timelineList()->count(), 6);
    QCOMPARE(timelineNodeAt(page, 0), recorded.runNodeId);
    QTableWidget *steps = page.stepsTable();
    QCOMPARE(steps->rowCount(), 3);
    QCOMPARE(steps->item(0, 1)->text(), s("shell"));
    QCOMPARE(steps->item(0, 2)->text(), s("success"));
    QCOMPARE(steps->item(1, 2)->text(), s("failed"));
    QCOMPARE(steps->item(2, 2)->text(), s("pending"));
    QCOMPARE(page.artifactList()->count(), 1);
    QCOMPARE(page.artifactList()->item(0)->text(), s("log://1"));

    // The run's decision with its source rule and feedback.
    QCOMPARE(page.decisionList()->count(), 1);
    DecisionDetail *detail = page.decisionDetail();
    QTRY_COMPARE(detail->decisionId(), recorded.decisionId);
    QCOMPARE(detail->fieldText(DecisionDetail::Field::Selected), s("search"));
    QCOMPARE(detail->fieldText(DecisionDetail::Field::SourceRules), s("Prefer search"));
    QTRY_COMPARE(detail->feedbackTable()->rowCount(), 1);
    QCOMPARE(detail->feedbackTable()->item(0, DecisionDetail::FeedbackOutcome)->text(),
             s("negative"));

    // For reviewers: what the page looks like with a run open.
    QCoreApplication::processEvents();
    page.grab().save(QDir(Test::testOutputDir()).filePath(s("replaypage.png")));
}

void tst_ReplayPage::stepsForwardAndBack()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const RecordedRun recorded = recordRun(service.service());
    Ui::UiExecutor executor;
    ReplayPage page(service.service(), &executor);
    page.resize(1280, 800);
    page.show();
    page.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&page));
    page.showRun(s("default"), s("default"), recorded.runId);
    QTRY_COMPARE(page.currentRunId(), recorded.runId);

    // The first step is current: highlighted in the timeline and the steps table.
    QCOMPARE(page.currentStep(), 0);
    QCOMPARE(page.highlightedNodeIds().first(), recorded.stepNodeIds[0]);
    QCOMPARE(page.highlightedNodeIds().size(), 2); // the step and its result
    QCOMPARE(page.stepsTable()->currentRow(), 0);
    QCOMPARE(page.timelineList()->currentRow(), timelineRowOf(page, recorded.stepNodeIds[0]));
    QVERIFY(page.timelineList()->item(timelineRowOf(page, recorded.stepNodeIds[0]))->font().bold());
    QVERIFY(page.stepDetail()->toPlainText().contains(s("tool shell")));

    page.stepForward();
    QCOMPARE(page.currentStep(), 1);
    QCOMPARE(page.stepsTable()->currentRow(), 1);
    QCOMPARE(page.highlightedNodeIds().first(), recorded.stepNodeIds[1]);
    QVERIFY(
        !page.timelineList()->item(timelineRowOf(page, recorded.stepNodeIds[0]))->font().bold());
    QVERIFY(page.timelineList()->item(timelineRowOf(page, recorded.stepNodeIds[1]))->font().bold());
    QVERIFY(page.stepDetail()->toPlainText().contains(s("index offline")));

    // Keyboard: Alt+Right, End, Home, Alt+Left.
    page.stepsTable()->setFocus();
    QTest::keyClick(page.stepsTable(), Qt::Key_Right, Qt::AltModifier);
    QCOMPARE(page.currentStep(), 2);
    QCOMPARE(page.highlightedNodeIds(),
             QStringList{recorded.stepNodeIds[2]}); // pending: no result yet
    QVERIFY(page.stepDetail()->toPlainText().contains(s("No outcome recorded yet")));
    page.stepForward(); // already the last step
    QCOMPARE(page.currentStep(), 2);
    QTest::keyClick(page.stepsTable(), Qt::Key_Home);
    QCOMPARE(page.currentStep(), 0);
    QTest::keyClick(page.stepsTable(), Qt::Key_End);
    QCOMPARE(page.currentStep(), 2);
    QTest::keyClick(page.stepsTable(), Qt::Key_Left, Qt::AltModifier);
    QCOMPARE(page.currentStep(), 1);
    page.stepBack();
    page.stepBack();
    QCOMPARE(page.currentStep(), 0);

    // Clicking a step row makes it current too.
    QTableWidget *steps = page.stepsTable();
    QTest::mouseClick(steps->viewport(), Qt::LeftButton, {},
                      steps->visualItemRect(steps->item(2, 1)).center());
    QCOMPARE(page.currentStep(), 2);
}

void tst_ReplayPage::jumpSignalsCarryTheIds()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const RecordedRun recorded = recordRun(service.service());
    Ui::UiExecutor executor;
    ReplayPage page(service.service(), &executor);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.showRun(s("default"), s("default"), recorded.runId);
    QTRY_COMPARE(page.currentRunId(), recorded.runId);

    QSignalSpy nodes(&page, &ReplayPage::nodeRequested);
    page.openSelectedNode(); // the current step's node
    QCOMPARE(nodes.size(), 1);
    QCOMPARE(nodes.at(0).at(0).toString(), s("default"));
    QCOMPARE(nodes.at(0).at(1).toString(), s("default"));
    QCOMPARE(nodes.at(0).at(2).toString(), recorded.stepNodeIds[0]);
    page.timelineList()->setCurrentRow(0); // the run node
    page.openSelectedNode();
    QCOMPARE(nodes.at(1).at(2).toString(), recorded.runNodeId);

    QSignalSpy rules(&page, &ReplayPage::ruleRequested);
    QTRY_COMPARE(page.decisionDetail()->decisionId(), recorded.decisionId);
    QLabel *links = page.decisionDetail()->sourceRulesLabel();
    QVERIFY(links->text().contains(s("rule:") + recorded.ruleId));
    Q_EMIT links->linkActivated(s("rule:") + recorded.ruleId);
    QCOMPARE(rules.size(), 1);
    QCOMPARE(rules.at(0).at(0).toString(), s("default"));
    QCOMPARE(rules.at(0).at(1).toString(), s("default"));
    QCOMPARE(rules.at(0).at(2).toString(), recorded.ruleId);
}

void tst_ReplayPage::showRunAndRefreshOnCommit()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const RecordedRun recorded = recordRun(service.service());
    Ui::UiExecutor executor;
    ReplayPage page(service.service(), &executor);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.showRun(s("default"), s("default"), recorded.runId);
    QTRY_COMPARE(page.currentRunId(), recorded.runId);
    page.stepForward();
    QCOMPARE(page.currentStep(), 1);

    // An agent records the third step's outcome and ends the run: the page follows.
    call<ReplayStepAfterRequest>(
        service.service(),
        {{s("run_id"), recorded.runId}, {s("step_index"), 3}, {s("status"), s("success")}},
        &MemoryService::replayStepAfter);
    QTRY_COMPARE(page.stepsTable()->item(2, 2)->text(), s("success"));
    QCOMPARE(page.currentStep(), 1); // the operator's place is kept
    call<ReplayRunEndRequest>(service.service(),
                              {{s("run_id"), recorded.runId}, {s("status"), s("partial")}},
                              &MemoryService::replayRunEnd);
    QTRY_COMPARE(page.runView().run.status, s("partial"));
    QTRY_COMPARE(page.runModel()->run(0).status, s("partial"));
    QCOMPARE(page.timelineList()->count(), 8);
}

QTEST_MAIN(tst_ReplayPage)
#include "tst_replaypage.moc"
