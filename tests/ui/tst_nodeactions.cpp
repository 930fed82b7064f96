#include "tests/support/tempservice.h"
#include "ui/models/nodetablemodel.h"
#include "ui/pages/graphpage.h"
#include "ui/pages/memorypage.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/activatedialog.h"
#include "ui/widgets/forgetdialog.h"
#include "ui/widgets/graphcanvas.h"
#include "ui/widgets/nodeactions.h"
#include "ui/widgets/nodeeditdialog.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::ActivateDialog;
using MemoryGraph::Ui::ForgetDialog;
using MemoryGraph::Ui::GraphPage;
using MemoryGraph::Ui::MemoryPage;
using MemoryGraph::Ui::NodeActions;
using MemoryGraph::Ui::NodeEditDialog;

namespace {

constexpr int kWaitMs = 10000;

QProcessEnvironment noEmbeddings()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    return env;
}

QJsonObject node(const QString &clientId, const QString &tier,
                 const QString &type = QStringLiteral("event"))
{
    return {{QStringLiteral("client_id"), clientId},
            {QStringLiteral("type"), type},
            {QStringLiteral("title"), QStringLiteral("Title of ") + clientId},
            {QStringLiteral("text_summary"), QStringLiteral("summary of ") + clientId},
            {QStringLiteral("memory_lane"), QStringLiteral("shared")},
            {QStringLiteral("tier"), tier}};
}

/// Writes nodes through the facade; returns client_id -> id.
QHash<QString, QString> writeNodes(MemoryService *service, const QJsonArray &nodes)
{
    const auto request
        = WriteRequest::fromJson(Test::writeBody(nodes), service->config().maxTextLength);
    if (!request)
        qFatal("bad write body: %s", qPrintable(request.error().message));
    const auto written = service->write(request.value(), RequestMeta());
    if (!written)
        qFatal("write failed: %s", qPrintable(written.error().message));
    QHash<QString, QString> ids;
    for (const WrittenNode &n : written.value().nodes)
        ids.insert(n.clientId, n.id);
    return ids;
}

NodeRecord stored(MemoryService *service, const QString &id)
{
    auto detail = service->nodeDetail(QStringLiteral("default"), QStringLiteral("default"), id);
    return detail ? detail.value().node : NodeRecord();
}

CommitRecord latestCommit(MemoryService *service)
{
    auto commits = service->listCommits(QStringLiteral("default"), QStringLiteral("default"), 0, 1);
    return commits && !commits.value().isEmpty() ? commits.value().first() : CommitRecord();
}

} // namespace

class tst_NodeActions : public QObject
{
    Q_OBJECT

private slots:
    void actionsFollowTheNodesTier();
    void rehydrateActionMovesTheNode();
    void editDialogValidatesSlotsAndChangesTheNode();
    void activationDialogRecordsTheOutcome();
    void failureIsReported();
    void deleteKeyForgetsNodeFromTheTable();
    void graphPageActsOnTheSelectedCanvasNode();
};

void tst_NodeActions::actionsFollowTheNodesTier()
{
    Test::TempService svc(noEmbeddings());
    const auto ids = writeNodes(svc.service(), {node("a", "archive"), node("c", "cold"),
                                                node("w", "warm"), node("h", "hot")});
    QWidget parent;
    Ui::UiExecutor executor;
    NodeActions actions(svc.service(), &executor, &parent);
    for (QAction *action : actions.actions())
        QVERIFY2(!action->isEnabled(), qPrintable(action->objectName()));

    struct Case
    {
        const char *clientId;
        bool warm;
        bool hot;
    };
    for (const Case &c : {Case{"a", true, true}, Case{"c", true, true}, Case{"w", false, true},
                          Case{"h", false, false}}) {
        actions.setNode(stored(svc.service(), ids.value(QLatin1String(c.clientId))));
        QCOMPARE(actions.rehydrateWarmAction()->isEnabled(), c.warm);
        QCOMPARE(actions.rehydrateHotAction()->isEnabled(), c.hot);
        QVERIFY(actions.activateAction()->isEnabled());
        QVERIFY(actions.editAction()->isEnabled());
        QVERIFY(actions.forgetAction()->isEnabled());
    }
    QCOMPARE(actions.forgetAction()->shortcut(), QKeySequence(QKeySequence::Delete));
    actions.clearNode();
    QVERIFY(!actions.editAction()->isEnabled());
}

void tst_NodeActions::rehydrateActionMovesTheNode()
{
    Test::TempService svc(noEmbeddings());
    const auto ids = writeNodes(svc.service(), {node("a", "archive")});
    QWidget parent;
    Ui::UiExecutor executor;
    NodeActions actions(svc.service(), &executor, &parent);
    actions.setNode(stored(svc.service(), ids.value("a")));
    QSignalSpy done(&actions, &NodeActions::succeeded);
    actions.rehydrateHotAction()->trigger();
    QVERIFY(actions.isBusy());
    QVERIFY(!actions.editAction()->isEnabled()); // one change at a time
    QVERIFY(done.wait(kWaitMs));
    QVERIFY(!actions.isBusy());
    QCOMPARE(stored(svc.service(), ids.value("a")).tier, QStringLiteral("hot"));
    const CommitRecord commit = latestCommit(svc.service());
    QCOMPARE(commit.kind, QStringLiteral("archive_rehydrate"));
    QCOMPARE(commit.actor, NodeActions::operatorActor());
    QVERIFY(done.first().at(1).toString().contains(QStringLiteral("hot")));
}

void tst_NodeActions::editDialogValidatesSlotsAndChangesTheNode()
{
    Test::TempService svc(noEmbeddings());
    const auto ids = writeNodes(svc.service(), {node("e", "hot")});
    QWidget parent;
    Ui::UiExecutor executor;
    NodeActions actions(svc.service(), &executor, &parent);
    actions.setNode(stored(svc.service(), ids.value("e")));
    actions.editAction()->trigger();
    auto *dialog = qobject_cast<NodeEditDialog *>(actions.openDialog());
    QVERIFY(dialog);
    QCOMPARE(dialog->titleEdit()->text(), QStringLiteral("Title of e"));
    QPushButton *save = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Save);
    QVERIFY(save->isEnabled());
    QVERIFY(!dialog->request().title && !dialog->request().slotData && !dialog->request().salience);

    dialog->slotsEdit()->setPlainText(QStringLiteral("{\"pin\": tru"));
    QVERIFY(!dialog->isValid());
    QVERIFY(!save->isEnabled());
    QVERIFY(!dialog->slotsError().isEmpty());
    dialog->slotsEdit()->setPlainText(QStringLiteral("[1, 2]"));
    QVERIFY(!dialog->isValid());
    dialog->slotsEdit()->setPlainText(QStringLiteral("{\"pin\": true}"));
    QVERIFY(dialog->isValid());
    QVERIFY(save->isEnabled());

    dialog->titleEdit()->setText(QStringLiteral("Renamed by the operator"));
    dialog->tierCombo()->setCurrentText(QStringLiteral("cold"));
    QSignalSpy done(&actions, &NodeActions::succeeded);
    save->click();
    QVERIFY(done.wait(kWaitMs));
    const NodeRecord n = stored(svc.service(), ids.value("e"));
    QCOMPARE(n.title, QStringLiteral("Renamed by the operator"));
    QCOMPARE(n.tier, QStringLiteral("cold"));
    QCOMPARE(n.slotData, (QJsonObject{{QStringLiteral("pin"), true}}));
    QCOMPARE(n.textSummary, QStringLiteral("summary of e")); // untouched fields stay
    const CommitRecord commit = latestCommit(svc.service());
    QCOMPARE(commit.kind, QStringLiteral("node_edit"));
    QCOMPARE(commit.actor, NodeActions::operatorActor());
    QCOMPARE(commit.diff.value(QStringLiteral("changes")).toObject().keys(),
             (QStringList{"slots", "tier", "title"}));
}

void tst_NodeActions::activationDialogRecordsTheOutcome()
{
    Test::TempService svc(noEmbeddings());
    const auto ids = writeNodes(svc.service(), {node("u", "warm")});
    QWidget parent;
    Ui::UiExecutor executor;
    NodeActions actions(svc.service(), &executor, &parent);
    actions.setNode(stored(svc.service(), ids.value("u")));
    actions.activateAction()->trigger();
    auto *dialog = qobject_cast<ActivateDialog *>(actions.openDialog());
    QVERIFY(dialog);
    QCOMPARE(dialog->outcome(), QStringLiteral("neutral"));
    QVERIFY(dialog->activate());
    dialog->outcomeCombo()->setCurrentIndex(
        dialog->outcomeCombo()->findData(QStringLiteral("positive")));
    dialog->activateCheck()->setChecked(false);
    dialog->reasonEdit()->setText(QStringLiteral("answered the question"));
    QSignalSpy done(&actions, &NodeActions::succeeded);
    dialog->accept();
    QVERIFY(done.wait(kWaitMs));
    const NodeRecord n = stored(svc.service(), ids.value("u"));
    QCOMPARE(n.slotData.value(QStringLiteral("feedback_positive")).toInt(), 1);
    QCOMPARE(n.slotData.value(QStringLiteral("feedback_quality")).toDouble(), 0.2);
    QCOMPARE(n.slotData.value(QStringLiteral("last_feedback_reason")).toString(),
             QStringLiteral("answered the question"));
    QVERIFY(!n.lastActivated.isValid());
    QCOMPARE(latestCommit(svc.service()).kind, QStringLiteral("nodes_activate"));
}

void tst_NodeActions::failureIsReported()
{
    Test::TempService svc(noEmbeddings());
    QJsonObject rule = node("r", "hot", QStringLiteral("rule"));
    rule.insert(QStringLiteral("slots"), QJsonObject{{QStringLiteral("if"), QJsonObject()},
                                                     {QStringLiteral("then"), QJsonObject()}});
    const auto ids = writeNodes(svc.service(), {rule});
    QWidget parent;
    Ui::UiExecutor executor;
    NodeActions actions(svc.service(), &executor, &parent);
    actions.setNode(stored(svc.service(), ids.value("r")));
    NodeEditRequest edit;
    edit.memoryLane = QStringLiteral("private");
    edit.ownerAgentId = QString();
    edit.ownerTeamId = QString();
    QSignalSpy failed(&actions, &NodeActions::failed);
    actions.submitEdit(edit);
    QVERIFY(failed.wait(kWaitMs));
    QVERIFY(
        failed.first().first().toString().contains(QStringLiteral("invalid_private_rule_owner")));
    auto *box = parent.findChild<QMessageBox *>(QStringLiteral("nodeActionErrorBox"));
    QVERIFY(box);
    QVERIFY(box->text().contains(QStringLiteral("invalid_private_rule_owner")));
    box->close();
    QCOMPARE(stored(svc.service(), ids.value("r")).memoryLane, QStringLiteral("shared"));
    QVERIFY(actions.editAction()->isEnabled());
}

void tst_NodeActions::deleteKeyForgetsNodeFromTheTable()
{
    Test::TempService svc(noEmbeddings());
    const auto ids = writeNodes(svc.service(), {node("keep", "hot"), node("drop", "cold")});
    Ui::UiExecutor executor;
    MemoryPage page(svc.service(), &executor);
    page.resize(1200, 700);
    page.show();
    QVERIFY(QTest::qWaitForWindowActive(&page));
    QTRY_COMPARE_WITH_TIMEOUT(page.nodeModel()->rowCount(), 2, kWaitMs);

    const QString dropId = ids.value("drop");
    const int row = page.nodeModel()->rowOf(dropId);
    QVERIFY(row >= 0);
    page.nodeView()->setFocus();
    page.nodeView()->selectRow(row);
    QTRY_COMPARE_WITH_TIMEOUT(page.nodeActions()->node().id, dropId, kWaitMs);
    QVERIFY(page.nodeView()->actions().contains(page.nodeActions()->forgetAction()));

    QTest::keyClick(page.nodeView(), Qt::Key_Delete);
    auto *dialog = qobject_cast<ForgetDialog *>(page.nodeActions()->openDialog());
    QVERIFY2(dialog, "Delete in the node table opens the forget confirmation");
    QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("forgetQuestion"))
                ->text()
                .contains(QStringLiteral("Title of drop")));
    dialog->reasonEdit()->setText(QStringLiteral("duplicate"));
    dialog->findChild<QPushButton *>(QStringLiteral("forgetButton"))->click();

    QTRY_COMPARE_WITH_TIMEOUT(page.nodeModel()->rowCount(), 1, kWaitMs);
    QCOMPARE(page.nodeModel()->rowOf(dropId), -1);
    QVERIFY(page.nodeModel()->rowOf(ids.value("keep")) >= 0);
    QCOMPARE(svc->nodeDetail(QStringLiteral("default"), QStringLiteral("default"), dropId)
                 .error()
                 .status,
             404);
    QVERIFY(page.actionStatusText().contains(QStringLiteral("Title of drop")));
    const CommitRecord commit = latestCommit(svc.service());
    QCOMPARE(commit.kind, QStringLiteral("node_forget"));
    QCOMPARE(commit.diff.value(QStringLiteral("reason")).toString(), QStringLiteral("duplicate"));
}

void tst_NodeActions::graphPageActsOnTheSelectedCanvasNode()
{
    Test::TempService svc(noEmbeddings());
    const auto ids = writeNodes(svc.service(), {node("centre", "cold"), node("leaf", "hot")});
    const auto linked = WriteRequest::fromJson(
        {{QStringLiteral("input_text"), QStringLiteral("link")},
         {QStringLiteral("edges"),
          QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("related_to")},
                                 {QStringLiteral("src"), QJsonObject{{QStringLiteral("client_id"),
                                                                      QStringLiteral("centre")}}},
                                 {QStringLiteral("dst"), QJsonObject{{QStringLiteral("client_id"),
                                                                      QStringLiteral("leaf")}}}}}}},
        svc->config().maxTextLength);
    QVERIFY(linked && svc->write(linked.value(), RequestMeta()));

    Ui::UiExecutor executor;
    GraphPage page(svc.service(), &executor);
    page.resize(1200, 700);
    page.show();
    QVERIFY(QTest::qWaitForWindowActive(&page));
    page.showNode(QStringLiteral("default"), QStringLiteral("default"), ids.value("centre"));
    QTRY_COMPARE_WITH_TIMEOUT(page.canvas()->nodeCount(), 2, kWaitMs);
    page.canvas()->selectNode(ids.value("centre"));
    QTRY_COMPARE_WITH_TIMEOUT(page.nodeActions()->node().id, ids.value("centre"), kWaitMs);
    QVERIFY(page.nodeActions()->rehydrateWarmAction()->isEnabled());
    QVERIFY(page.canvas()->actions().contains(page.nodeActions()->editAction()));

    QSignalSpy done(page.nodeActions(), &NodeActions::succeeded);
    page.nodeActions()->rehydrateWarmAction()->trigger();
    QVERIFY(done.wait(kWaitMs));
    QCOMPARE(stored(svc.service(), ids.value("centre")).tier, QStringLiteral("warm"));
    QTRY_COMPARE_WITH_TIMEOUT(page.canvas()->node(ids.value("centre")).tier, QStringLiteral("warm"),
                              kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(!page.nodeActions()->rehydrateWarmAction()->isEnabled(), kWaitMs);

    // Forgetting the centre leaves nothing to draw around: back to the scope's most salient
    // nodes, of which only the leaf is left.
    page.canvas()->selectNode(ids.value("centre"));
    QTRY_COMPARE_WITH_TIMEOUT(page.nodeActions()->node().id, ids.value("centre"), kWaitMs);
    page.nodeActions()->submitForget(QStringLiteral("test"));
    QTRY_VERIFY_WITH_TIMEOUT(!page.canvas()->containsNode(ids.value("centre")), kWaitMs);
    QVERIFY(page.centreNodeId().isEmpty());
    QVERIFY(page.isShowingOverview());
    QTRY_COMPARE_WITH_TIMEOUT(page.canvas()->nodeIds(), QStringList{ids.value("leaf")}, kWaitMs);
    QVERIFY(!page.nodeActions()->hasNode());
}

QTEST_MAIN(tst_NodeActions)
#include "tst_nodeactions.moc"
