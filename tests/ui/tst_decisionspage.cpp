#include "tests/support/tempservice.h"
#include "ui/models/decisiontablemodel.h"
#include "ui/pages/decisionspage.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/decisiondetail.h"
#include "ui/widgets/scopepicker.h"

#include <QComboBox>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>

using namespace MemoryGraph;
using MemoryGraph::Ui::DecisionDetail;
using MemoryGraph::Ui::DecisionsPage;
using MemoryGraph::Ui::DecisionTableModel;
using Column = DecisionTableModel::Column;
using Field = DecisionDetail::Field;

namespace {

const QString RuleTitle = QStringLiteral("Prefer search for lookups");

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

/// One active rule: lookups deny the shell and prefer search.
QString writeActiveRule(MemoryService *service)
{
    const QJsonObject node{{QStringLiteral("client_id"), QStringLiteral("lookup-rule")},
                           {QStringLiteral("type"), QStringLiteral("rule")},
                           {QStringLiteral("title"), RuleTitle},
                           {QStringLiteral("text_summary"),
                            QStringLiteral("Lookups should search, never run shell commands")},
                           {QStringLiteral("memory_lane"), QStringLiteral("shared")},
                           {QStringLiteral("slots"), json(R"({"if": {"intent": "lookup"},
                                           "then": {"tool": {"deny": ["shell"], "prefer": ["search"]}}})")}};
    const auto request
        = WriteRequest::fromJson(Test::writeBody({node}), service->config().maxTextLength);
    if (!request)
        qFatal("bad write: %s", qPrintable(request.error().message));
    const auto written = service->write(request.value(), RequestMeta());
    if (!written)
        qFatal("write failed: %s", qPrintable(written.error().message));
    const QString id = written.value().nodes.first().id;
    const auto state
        = RuleStateRequest::fromJson({{QStringLiteral("rule_node_id"), id},
                                      {QStringLiteral("state"), QStringLiteral("ACTIVE")},
                                      {QStringLiteral("input_text"), QStringLiteral("test")}});
    if (!state || !service->setRuleState(state.value(), RequestMeta()))
        qFatal("activation failed");
    return id;
}

/// tools/select through the facade, as an agent's HTTP call would; returns the decision id.
QString select(MemoryService *service, const QString &runId, const QJsonObject &context,
               const QJsonArray &candidates)
{
    const auto request = ToolSelectRequest::fromJson({{QStringLiteral("run_id"), runId},
                                                      {QStringLiteral("context"), context},
                                                      {QStringLiteral("candidates"), candidates}});
    if (!request)
        qFatal("bad select: %s", qPrintable(request.error().message));
    const auto outcome = service->selectTools(request.value(), RequestMeta());
    if (!outcome)
        qFatal("select failed: %s", qPrintable(outcome.error().message));
    return outcome.value().decision.id;
}

bool feedback(MemoryService *service, const QString &decisionId, const QString &runId,
              const QJsonObject &context, const QJsonArray &candidates, const QString &tool,
              const QString &outcome, const QString &note)
{
    const auto request = ToolFeedbackRequest::fromJson(
        {{QStringLiteral("decision_id"), decisionId},
         {QStringLiteral("run_id"), runId},
         {QStringLiteral("context"), context},
         {QStringLiteral("candidates"), candidates},
         {QStringLiteral("selected_tool"), tool},
         {QStringLiteral("outcome"), outcome},
         {QStringLiteral("note"), note},
         {QStringLiteral("input_text"), QStringLiteral("feedback")}},
        service->config().maxTextLength);
    if (!request)
        qFatal("bad feedback: %s", qPrintable(request.error().message));
    return service->toolFeedback(request.value(), RequestMeta()).ok();
}

QJsonArray names(std::initializer_list<const char *> list)
{
    QJsonArray out;
    for (const char *n : list)
        out.append(QLatin1String(n));
    return out;
}

QString cell(const DecisionsPage &page, int row, Column column)
{
    const DecisionTableModel *model = page.decisionModel();
    return model->data(model->index(row, int(column))).toString();
}

bool saveShot(QWidget *widget, const QString &name)
{
    // Let pending layout requests (labels that just changed) settle before grabbing.
    QCoreApplication::processEvents();
    const QString path = QDir(Test::testOutputDir()).filePath(name);
    const bool saved = widget->grab().save(path);
    if (saved)
        qInfo("screenshot: %s", qUtf8Printable(path));
    return saved;
}

} // namespace

class tst_DecisionsPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void listsDecisionsWithDetailAndFeedback();
    void refreshesWhenADecisionIsRecorded();
};

void tst_DecisionsPage::listsDecisionsWithDetailAndFeedback()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const QString ruleId = writeActiveRule(service.service());
    const QJsonObject lookup = json(R"({"intent": "lookup", "agent": {"id": "a1"}})");
    const QJsonArray three = names({"shell", "search", "browser"});
    const QString first = select(service.service(), QStringLiteral("run-1"), lookup, three);
    const QString chat = select(service.service(), QStringLiteral("run-2"),
                                json(R"({"intent": "chat"})"), names({"browser", "search"}));
    const QString second
        = select(service.service(), QStringLiteral("run-1"), lookup, names({"search", "browser"}));
    QVERIFY(feedback(service.service(), first, QStringLiteral("run-1"), lookup, three,
                     QStringLiteral("search"), QStringLiteral("positive"),
                     QStringLiteral("found the answer at once")));

    Ui::UiExecutor executor;
    DecisionsPage page(service.service(), &executor);
    page.resize(1280, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));

    // Newest first.
    QTRY_COMPARE(page.decisionModel()->rowCount(), 3);
    QCOMPARE(page.currentScope(), QStringLiteral("default"));
    const DecisionTableModel *model = page.decisionModel();
    QCOMPARE(model->decision(0).id, second);
    QCOMPARE(model->decision(1).id, chat);
    QCOMPARE(model->decision(2).id, first);
    QCOMPARE(cell(page, 2, Column::Run), QStringLiteral("run-1"));
    QCOMPARE(cell(page, 2, Column::SelectedTool), QStringLiteral("search"));
    QCOMPARE(cell(page, 2, Column::Candidates), QStringLiteral("3"));
    QCOMPARE(cell(page, 2, Column::SourceRules), QStringLiteral("1"));
    QCOMPARE(cell(page, 2, Column::PolicyHash), model->decision(2).policySha256.left(12));
    QCOMPARE(cell(page, 1, Column::SelectedTool),
             QStringLiteral("browser")); // no rule matched a chat
    QCOMPARE(cell(page, 1, Column::SourceRules), QStringLiteral("0"));
    QCOMPARE(page.findChild<QLabel *>(QStringLiteral("decisionCountLabel"))->text(),
             QStringLiteral("3 decision(s)"));

    // Selecting the first decision shows how it was made and its feedback.
    DecisionDetail *detail = page.detail();
    QVERIFY(!detail->hasDecision());
    QTableView *view = page.decisionView();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(model->index(2, 0)).center());
    QTRY_COMPARE(detail->decisionId(), first);
    QCOMPARE(page.currentDecisionId(), first);
    QCOMPARE(detail->fieldText(Field::Selected), QStringLiteral("search"));
    QCOMPARE(detail->fieldText(Field::Run), QStringLiteral("run-1"));
    QCOMPARE(detail->fieldText(Field::Candidates), QStringLiteral("shell, search, browser"));
    QCOMPARE(detail->fieldText(Field::Allowed), QStringLiteral("search, browser"));
    QCOMPARE(detail->fieldText(Field::Preferred), QStringLiteral("search"));
    QCOMPARE(detail->fieldText(Field::Ordered), QStringLiteral("search \u2192 browser"));
    QCOMPARE(detail->fieldText(Field::PolicyHash), model->decision(2).policySha256);
    QVERIFY(detail->fieldText(Field::Fallback).isEmpty());
    QCOMPARE(detail->fieldText(Field::SourceRules), RuleTitle);
    QTableWidget *denied = detail->deniedTable();
    QCOMPARE(denied->rowCount(), 1);
    QCOMPARE(denied->item(0, DecisionDetail::DeniedTool)->text(), QStringLiteral("shell"));
    QVERIFY(denied->item(0, DecisionDetail::DeniedReason)
                ->text()
                .startsWith(QStringLiteral("deny_list")));
    QTableWidget *feedbackTable = detail->feedbackTable();
    QTRY_COMPARE(feedbackTable->rowCount(), 1);
    QCOMPARE(feedbackTable->item(0, DecisionDetail::FeedbackOutcome)->text(),
             QStringLiteral("positive"));
    QCOMPARE(feedbackTable->item(0, DecisionDetail::FeedbackRule)->text(), RuleTitle);
    QCOMPARE(feedbackTable->item(0, DecisionDetail::FeedbackNote)->text(),
             QStringLiteral("found the answer at once"));
    QVERIFY(feedbackTable->item(0, DecisionDetail::FeedbackOutcome)
                ->toolTip()
                .contains(QStringLiteral("tools_feedback")));
    QVERIFY(!feedbackTable->item(0, DecisionDetail::FeedbackTime)->text().isEmpty());

    // A source rule link asks for the rule, with its scope, for the Rules page.
    QSignalSpy requested(&page, &DecisionsPage::ruleRequested);
    QVERIFY(detail->sourceRulesLabel()->text().contains(QStringLiteral("rule:") + ruleId));
    Q_EMIT detail->sourceRulesLabel()->linkActivated(QStringLiteral("rule:") + ruleId);
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.at(0).at(0).toString(), QStringLiteral("default"));
    QCOMPARE(requested.at(0).at(1).toString(), QStringLiteral("default"));
    QCOMPARE(requested.at(0).at(2).toString(), ruleId);
    // So does a feedback row's rule.
    Q_EMIT feedbackTable->cellActivated(0, DecisionDetail::FeedbackRule);
    QCOMPARE(requested.size(), 2);
    QCOMPARE(requested.at(1).at(2).toString(), ruleId);

    QVERIFY(saveShot(&page, QStringLiteral("decisions-page.png")));

    // The run filter narrows the rows; the selected decision stays shown while listed.
    QTest::keyClicks(page.runFilterEdit(), QStringLiteral("run-1"));
    QTRY_COMPARE(page.decisionModel()->rowCount(), 2);
    for (int row = 0; row < 2; ++row)
        QCOMPARE(page.decisionModel()->decision(row).runId, QStringLiteral("run-1"));
    QCOMPARE(detail->decisionId(), first);
    page.setRunFilter(QStringLiteral("run-2"));
    QTRY_COMPARE(page.decisionModel()->rowCount(), 1);
    QCOMPARE(page.decisionModel()->decision(0).id, chat);
    QVERIFY(!detail->hasDecision()); // the selected one is filtered out
    page.setRunFilter(QStringLiteral("no-such-run"));
    QTRY_COMPARE(page.decisionModel()->rowCount(), 0);
    QCOMPARE(page.findChild<QLabel *>(QStringLiteral("decisionCountLabel"))->text(),
             QStringLiteral("No decisions match"));

    // The tool and time filters.
    page.setRunFilter(QString());
    page.setToolFilter(QStringLiteral("browser"));
    QTRY_COMPARE(page.decisionModel()->rowCount(), 1);
    QCOMPARE(page.decisionModel()->decision(0).id, chat);
    page.setToolFilter(QString());
    QTRY_COMPARE(page.decisionModel()->rowCount(), 3);
    page.setSince(DecisionsPage::Since::LastHour);
    QCOMPARE(page.sinceCombo()->currentText(), QStringLiteral("Last hour"));
    QTRY_COMPARE(page.decisionModel()->rowCount(), 3); // all were made just now
}

void tst_DecisionsPage::refreshesWhenADecisionIsRecorded()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    writeActiveRule(service.service());
    const QJsonObject lookup = json(R"({"intent": "lookup"})");
    const QString first
        = select(service.service(), QStringLiteral("run-1"), lookup, names({"shell", "search"}));

    Ui::UiExecutor executor;
    DecisionsPage page(service.service(), &executor);
    page.show();
    QTRY_COMPARE(page.decisionModel()->rowCount(), 1);
    page.selectDecision(first);
    QTRY_COMPARE(page.detail()->decisionId(), first);
    QTRY_COMPARE(page.detail()->feedbackTable()->rowCount(), 0);

    // A selection made on another thread (as an HTTP worker would) shows up by itself.
    MemoryService *svc = service.service();
    QFuture<QString> selected = QtConcurrent::run([svc, lookup]() {
        return select(svc, QStringLiteral("run-2"), lookup, names({"browser", "search"}));
    });
    selected.waitForFinished();
    const QString second = selected.result();
    QVERIFY(!second.isEmpty());
    QTRY_COMPARE(page.decisionModel()->rowCount(), 2);
    QCOMPARE(page.decisionModel()->decision(0).id, second);
    QCOMPARE(page.detail()->decisionId(), first); // the selection is kept

    // Feedback on the selected decision refreshes its feedback table.
    QVERIFY(feedback(svc, first, QStringLiteral("run-1"), lookup, names({"shell", "search"}),
                     QStringLiteral("search"), QStringLiteral("negative"),
                     QStringLiteral("wrong index")));
    QTRY_COMPARE(page.detail()->feedbackTable()->rowCount(), 1);
    QCOMPARE(page.detail()->feedbackTable()->item(0, DecisionDetail::FeedbackOutcome)->text(),
             QStringLiteral("negative"));
}

QTEST_MAIN(tst_DecisionsPage)
#include "tst_decisionspage.moc"
