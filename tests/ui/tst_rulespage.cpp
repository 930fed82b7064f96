#include "tests/support/tempservice.h"
#include "ui/models/ruletablemodel.h"
#include "ui/pages/rulespage.h"
#include "ui/theme.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/ruleeditor.h"
#include "ui/widgets/ruletrypanel.h"
#include "ui/widgets/scopepicker.h"

#include <QApplication>
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
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::RuleEditor;
using MemoryGraph::Ui::RulesPage;
using MemoryGraph::Ui::RuleTableModel;
using MemoryGraph::Ui::RuleTryPanel;
using Column = RuleTableModel::Column;

namespace {

const QString LookupTitle = QStringLiteral("Prefer search for lookups");
const QString MarkdownTitle = QStringLiteral("Markdown answers for support");

QJsonObject json(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

QJsonObject ruleNode(const QString &clientId, const QString &title, const QJsonObject &ifJson,
                     const QJsonObject &thenJson, const QJsonObject &extraSlots = {})
{
    QJsonObject ruleSlots{{QStringLiteral("if"), ifJson}, {QStringLiteral("then"), thenJson}};
    for (auto it = extraSlots.begin(); it != extraSlots.end(); ++it)
        ruleSlots.insert(it.key(), it.value());
    return {{QStringLiteral("client_id"), clientId},
            {QStringLiteral("type"), QStringLiteral("rule")},
            {QStringLiteral("title"), title},
            {QStringLiteral("text_summary"), title + QStringLiteral(": written by the test")},
            {QStringLiteral("memory_lane"), QStringLiteral("shared")},
            {QStringLiteral("slots"), ruleSlots}};
}

/// Writes nodes through the facade exactly like an HTTP write; returns their ids.
QStringList writeNodes(MemoryService *service, const QJsonArray &nodes,
                       const QString &scope = QString())
{
    QJsonObject body = Test::writeBody(nodes, {}, QStringLiteral("rules for the UI test"));
    if (!scope.isEmpty())
        body.insert(QStringLiteral("scope"), scope);
    const auto request = WriteRequest::fromJson(body, service->config().maxTextLength);
    if (!request)
        qFatal("bad write body: %s", qPrintable(request.error().message));
    const auto written = service->write(request.value(), RequestMeta());
    if (!written)
        qFatal("write failed: %s", qPrintable(written.error().message));
    QStringList ids;
    for (const WrittenNode &n : written.value().nodes)
        ids << n.id;
    return ids;
}

bool setState(MemoryService *service, const QString &ruleId, const char *state)
{
    const auto request
        = RuleStateRequest::fromJson({{QStringLiteral("rule_node_id"), ruleId},
                                      {QStringLiteral("state"), QLatin1String(state)},
                                      {QStringLiteral("input_text"), QStringLiteral("test")}});
    return request && service->setRuleState(request.value(), RequestMeta()).ok();
}

/// The two rules of the brief: a global lookup rule and a team rule for support.
QStringList writeTwoRules(MemoryService *service)
{
    return writeNodes(
        service,
        {ruleNode(QStringLiteral("lookup-rule"), LookupTitle, json(R"({"intent": "lookup"})"),
                  json(R"({"tool": {"deny": ["shell"], "prefer": ["search"]}})"),
                  json(R"({"rule_meta": {"priority": 10, "weight": 1}})")),
         ruleNode(QStringLiteral("markdown-rule"), MarkdownTitle, json(R"({"intent": "lookup"})"),
                  json(R"({"output": {"format": "markdown"}, "tool": {"prefer": ["browser"]}})"),
                  json(R"({"rule_scope": "team", "target_team_id": "support"})"))});
}

QString stateOf(const RulesPage &page, const QString &ruleId)
{
    const RuleTableModel *model = page.ruleModel();
    const int row = model->rowOf(ruleId);
    return row < 0 ? QString() : model->data(model->index(row, int(Column::State))).toString();
}

QString titleOf(const RulesPage &page, const QString &ruleId)
{
    const RuleTableModel *model = page.ruleModel();
    const int row = model->rowOf(ruleId);
    return row < 0 ? QString() : model->data(model->index(row, int(Column::Title))).toString();
}

/// Clicks the table row showing `ruleId`, as an operator would.
bool clickRule(RulesPage &page, const QString &ruleId)
{
    const int sourceRow = page.ruleModel()->rowOf(ruleId);
    if (sourceRow < 0)
        return false;
    const QModelIndex index
        = page.filterModel()->mapFromSource(page.ruleModel()->index(sourceRow, 0));
    if (!index.isValid())
        return false;
    QTableView *view = page.ruleView();
    view->scrollTo(index);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(index).center());
    return true;
}

bool runTry(RuleTryPanel *panel, bool *ok)
{
    QSignalSpy finished(panel, &RuleTryPanel::finished);
    QTest::mouseClick(panel->runButton(), Qt::LeftButton);
    if (finished.isEmpty() && !finished.wait(10000))
        return false;
    *ok = finished.at(0).at(0).toBool();
    return true;
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

QString matchCell(const RuleTryPanel *panel, int row, int column)
{
    const QTableWidgetItem *item = panel->matchTable()->item(row, column);
    return item ? item->text() : QString();
}

} // namespace

class tst_RulesPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void editActivateValidateAndTry();
    void savesEditsAndNewRules();
    void filtersNarrowTheTable();
    void keyboardOrderAndShortcuts();
    void allFourStatesFromTheKeyboard();
    void tryItExplainsConflictsAndEmptySelections();
    void showRuleSwitchesScopeAndClearsFilters();
    void darkPaletteScreenshot(); // last: it switches the whole application to the dark palette
};

void tst_RulesPage::editActivateValidateAndTry()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const QStringList ids = writeTwoRules(service.service());
    QCOMPARE(ids.size(), 2);
    const QString lookupId = ids.at(0);
    const QString markdownId = ids.at(1);
    const qsizetype commitsBefore
        = service->listCommits(QStringLiteral("default"), QStringLiteral("default")).value().size();

    Ui::UiExecutor executor;
    RulesPage page(service.service(), &executor);
    page.resize(1280, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));

    // Both rules are listed, freshly written rules start in SHADOW.
    QTRY_COMPARE(page.ruleModel()->rowCount(), 2);
    QCOMPARE(page.currentScope(), QStringLiteral("default"));
    QCOMPARE(stateOf(page, lookupId), QStringLiteral("SHADOW"));
    QCOMPARE(stateOf(page, markdownId), QStringLiteral("SHADOW"));
    const RuleTableModel *model = page.ruleModel();
    const int markdownRow = model->rowOf(markdownId);
    QCOMPARE(model->data(model->index(markdownRow, int(Column::Scope))).toString(),
             QStringLiteral("team"));
    QCOMPARE(model->data(model->index(markdownRow, int(Column::Target))).toString(),
             QStringLiteral("support"));
    QCOMPARE(model->data(model->index(model->rowOf(lookupId), int(Column::Priority))).toInt(), 10);
    QVERIFY(page.statusText().isEmpty());

    // Selecting a row opens it in the editor.
    RuleEditor *editor = page.editor();
    QVERIFY(!editor->hasRule());
    QVERIFY(clickRule(page, lookupId));
    QTRY_COMPARE(editor->ruleId(), lookupId);
    QCOMPARE(editor->titleEdit()->text(), LookupTitle);
    QCOMPARE(editor->prioritySpin()->value(), 10);
    QCOMPARE(editor->clientId(), QStringLiteral("lookup-rule"));
    QVERIFY(editor->thenEdit()->toPlainText().contains(QStringLiteral("\"prefer\"")));
    QVERIFY(editor->isValid());
    QVERIFY(!editor->isDirty());
    QVERIFY(!editor->saveButton()->isEnabled()); // nothing to save yet
    QVERIFY(editor->stateButton()->isEnabled());
    QCOMPARE(editor->stateButton()->text().remove(QLatin1Char('&')), QStringLiteral("Activate"));

    // SHADOW -> ACTIVE through the state button; the table follows.
    QSignalSpy stateChanged(&page, &RulesPage::ruleStateChanged);
    QTest::mouseClick(editor->stateButton(), Qt::LeftButton);
    QTRY_COMPARE(stateOf(page, lookupId), QStringLiteral("ACTIVE"));
    QCOMPARE(stateOf(page, markdownId), QStringLiteral("SHADOW"));
    QTRY_COMPARE(stateChanged.size(), 1);
    QCOMPARE(stateChanged.at(0).at(0).toBool(), true);
    QCOMPARE(stateChanged.at(0).at(2).toString(), QStringLiteral("active"));
    QTRY_COMPARE(editor->ruleState(), QStringLiteral("active"));
    QCOMPARE(editor->stateButton()->text().remove(QLatin1Char('&')),
             QStringLiteral("Move to shadow"));
    QCOMPARE(page.ruleView()
                 ->selectionModel()
                 ->currentIndex()
                 .data(RuleTableModel::RuleIdRole)
                 .toString(),
             lookupId);

    // An invalid then (schema error): the message names the path and Save is disabled.
    QPlainTextEdit *thenEdit = editor->thenEdit();
    thenEdit->setFocus();
    thenEdit->selectAll();
    QTest::keyClicks(thenEdit, QStringLiteral("{\"tool\": {\"allow\": \"search\"}}"));
    QCOMPARE(thenEdit->toPlainText(), QStringLiteral("{\"tool\": {\"allow\": \"search\"}}"));
    QVERIFY(editor->isDirty());
    QVERIFY(!editor->isValid());
    const QString schemaError = editor->validationMessage(RuleEditor::Section::Then);
    QVERIFY2(schemaError.contains(QStringLiteral("then.tool.allow")), qPrintable(schemaError));
    auto *thenStatus = editor->findChild<QLabel *>(QStringLiteral("ruleThenStatus"));
    QVERIFY(thenStatus);
    QCOMPARE(thenStatus->text(), schemaError);
    QVERIFY(!editor->saveButton()->isEnabled());
    QVERIFY(!editor->stateButton()->isEnabled()); // unsaved edits: save or revert first

    // A parse error names the line and column; an unknown key names its path.
    thenEdit->setPlainText(
        QStringLiteral("{\n    \"tool\": {\n        \"prefer\": [\"search\"\n    }\n}"));
    const QString parseError = editor->validationMessage(RuleEditor::Section::Then);
    QVERIFY2(parseError.startsWith(QStringLiteral("then: line 4, column")), qPrintable(parseError));
    QVERIFY(!editor->saveButton()->isEnabled());
    QCOMPARE(thenEdit->extraSelections().size(), 1); // the error line is marked
    thenEdit->setPlainText(QStringLiteral("{\"tool\": {\"block\": [\"shell\"]}}"));
    QVERIFY2(editor->validationMessage(RuleEditor::Section::Then)
                 .contains(QStringLiteral("then.tool.block")),
             qPrintable(editor->validationMessage(RuleEditor::Section::Then)));
    QVERIFY(thenEdit->extraSelections().isEmpty());

    // Conditions are checked too: an unknown operator, an operator beside other keys.
    editor->ifEdit()->setPlainText(QStringLiteral("{\"intent\": {\"$like\": \"look\"}}"));
    QString ifError = editor->validationMessage(RuleEditor::Section::If);
    QVERIFY2(ifError.contains(QStringLiteral("if.intent"))
                 && ifError.contains(QStringLiteral("$like")),
             qPrintable(ifError));
    editor->exceptionsEdit()->setPlainText(QStringLiteral("[{\"n\": {\"$gte\": 1, \"$lte\": 5}}]"));
    const QString exceptionError = editor->validationMessage(RuleEditor::Section::Exceptions);
    QVERIFY2(exceptionError.contains(QStringLiteral("exceptions[0].n")),
             qPrintable(exceptionError));
    QVERIFY(!editor->saveButton()->isEnabled());

    // Revert restores the stored, valid rule.
    QVERIFY(editor->revertButton()->isEnabled());
    QTest::mouseClick(editor->revertButton(), Qt::LeftButton);
    QVERIFY(editor->isValid());
    QVERIFY(!editor->isDirty());
    QVERIFY(editor->validationMessage(RuleEditor::Section::Then).isEmpty());
    QVERIFY(editor->thenEdit()->toPlainText().contains(QStringLiteral("\"deny\"")));

    // Try it: a matching context previews the selection without recording anything.
    RuleTryPanel *tryPanel = page.tryPanel();
    tryPanel->setContextText(
        QStringLiteral("{\n    \"intent\": \"lookup\",\n    \"agent\": {\n        \"id\": \"a1\",\n"
                       "        \"team_id\": \"support\"\n    }\n}"));
    tryPanel->candidatesEdit()->setFocus();
    QTest::keyClicks(tryPanel->candidatesEdit(), QStringLiteral("shell, search, browser"));
    QVERIFY(tryPanel->strictCheck()->isChecked());
    bool ok = false;
    QVERIFY(runTry(tryPanel, &ok));
    QVERIFY2(ok, qPrintable(tryPanel->statusText()));
    // Active lookup rule first, then the shadow team rule.
    QCOMPARE(tryPanel->matchedRuleIds(), (QStringList{lookupId, markdownId}));
    QCOMPARE(matchCell(tryPanel, 0, RuleTryPanel::MatchRule), LookupTitle);
    QCOMPARE(matchCell(tryPanel, 0, RuleTryPanel::MatchState), QStringLiteral("ACTIVE"));
    QCOMPARE(matchCell(tryPanel, 0, RuleTryPanel::MatchScore),
             QStringLiteral("10001")); // 10*1000 + 0 + 1
    QCOMPARE(matchCell(tryPanel, 0, RuleTryPanel::MatchPriority), QStringLiteral("10"));
    QCOMPARE(matchCell(tryPanel, 0, RuleTryPanel::MatchSpecificity), QStringLiteral("1"));
    QCOMPARE(matchCell(tryPanel, 0, RuleTryPanel::MatchPaths), QStringLiteral("intent"));
    QCOMPARE(matchCell(tryPanel, 1, RuleTryPanel::MatchRule), MarkdownTitle);
    QCOMPARE(matchCell(tryPanel, 1, RuleTryPanel::MatchState), QStringLiteral("SHADOW"));
    // Only the active rule shapes the selection: shell denied, search preferred and selected.
    QCOMPARE(tryPanel->selectedTool(), QStringLiteral("search"));
    QVERIFY(tryPanel->errorCode().isEmpty());
    const QString selection = tryPanel->selectionText();
    QVERIFY2(selection.contains(QStringLiteral("Selected: search")), qPrintable(selection));
    QVERIFY2(selection.contains(QStringLiteral("Allowed: search, browser")), qPrintable(selection));
    QVERIFY2(selection.contains(QStringLiteral("shell: deny_list")), qPrintable(selection));
    QVERIFY2(selection.contains(QStringLiteral("Ordered: search \u2192 browser")),
             qPrintable(selection));
    QVERIFY2(selection.contains(QStringLiteral("would select browser instead")),
             qPrintable(selection));
    const QJsonObject policy = QJsonDocument::fromJson(tryPanel->policyText().toUtf8()).object();
    QCOMPARE(
        policy.value(QStringLiteral("tool")).toObject().value(QStringLiteral("deny")).toArray(),
        (QJsonArray{QStringLiteral("shell")}));
    QVERIFY(tryPanel->statusText().contains(QStringLiteral("nothing was recorded")));
    QCOMPARE(tryPanel->resultTabs()->tabText(1), QStringLiteral("Matched rules (2)"));

    // Nothing was persisted: no decision, no commit, no "last matched" time.
    DecisionQuery query;
    query.tenantId = QStringLiteral("default");
    query.scope = QStringLiteral("default");
    const auto decisions = service->listDecisions(query);
    QVERIFY(decisions.ok());
    QVERIFY(decisions.value().isEmpty());
    const auto rules = service->listRules(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(rules.ok());
    for (const RuleSummary &r : rules.value())
        QVERIFY(!r.status.lastMatchedAt.isValid());
    // One commit more than before: the state change, not the preview.
    QCOMPARE(
        service->listCommits(QStringLiteral("default"), QStringLiteral("default")).value().size(),
        commitsBefore + 1);

    QVERIFY(saveShot(&page, QStringLiteral("rules-page.png")));
}

void tst_RulesPage::savesEditsAndNewRules()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const QStringList ids = writeTwoRules(service.service());
    const QString lookupId = ids.at(0);
    QVERIFY(setState(service.service(), lookupId, "ACTIVE"));

    Ui::UiExecutor executor;
    RulesPage page(service.service(), &executor);
    page.resize(1280, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QTRY_COMPARE(page.ruleModel()->rowCount(), 2);
    QCOMPARE(stateOf(page, lookupId), QStringLiteral("ACTIVE"));

    // Edit an existing rule: the write keeps its id (client_id) and its ACTIVE state.
    page.selectRule(lookupId);
    RuleEditor *editor = page.editor();
    QCOMPARE(editor->ruleId(), lookupId);
    editor->titleEdit()->setFocus();
    editor->titleEdit()->end(false);
    QTest::keyClicks(editor->titleEdit(), QStringLiteral(" (edited)"));
    editor->prioritySpin()->setValue(20);
    QVERIFY(editor->isDirty());
    QVERIFY(editor->saveButton()->isEnabled());
    QCOMPARE(editor->nodeJson().value(QStringLiteral("client_id")).toString(),
             QStringLiteral("lookup-rule"));

    QSignalSpy saved(&page, &RulesPage::ruleSaved);
    QTest::keyClick(editor->titleEdit(), Qt::Key_S, Qt::ControlModifier); // Ctrl+S saves
    QTRY_COMPARE(saved.size(), 1);
    QVERIFY2(saved.at(0).at(0).toBool(), qPrintable(page.statusText()));
    QCOMPARE(saved.at(0).at(1).toString(), lookupId);
    QTRY_COMPARE(titleOf(page, lookupId), LookupTitle + QStringLiteral(" (edited)"));
    QCOMPARE(stateOf(page, lookupId), QStringLiteral("ACTIVE"));
    const RuleTableModel *model = page.ruleModel();
    QCOMPARE(model->data(model->index(model->rowOf(lookupId), int(Column::Priority))).toInt(), 20);
    QTRY_VERIFY(!editor->isDirty());
    QVERIFY(page.statusText().startsWith(QStringLiteral("Saved")));
    // Slots the editor does not show survive, and the definition is intact.
    const auto stored
        = service->nodeDetail(QStringLiteral("default"), QStringLiteral("default"), lookupId);
    QVERIFY(stored.ok());
    const QJsonObject storedSlots = stored.value().node.slotData;
    QCOMPARE(storedSlots.value(QStringLiteral("rule_meta"))
                 .toObject()
                 .value(QStringLiteral("priority"))
                 .toInt(),
             20);
    QCOMPARE(storedSlots.value(QStringLiteral("then"))
                 .toObject()
                 .value(QStringLiteral("tool"))
                 .toObject()
                 .value(QStringLiteral("deny"))
                 .toArray(),
             (QJsonArray{QStringLiteral("shell")}));

    // A new rule gets a generated client_id and starts in SHADOW.
    QTest::mouseClick(page.findChild<QPushButton *>(QStringLiteral("newRuleButton")),
                      Qt::LeftButton);
    QVERIFY(editor->isNewRule());
    QVERIFY(editor->clientId().startsWith(QStringLiteral("rule-")));
    QVERIFY(!editor->stateButton()->isEnabled());
    QVERIFY(!editor->isValid()); // no title or summary yet
    QVERIFY(!editor->saveButton()->isEnabled());
    QTest::keyClicks(editor->titleEdit(), QStringLiteral("Agent-only JSON output"));
    editor->ruleScopeCombo()->setCurrentIndex(
        editor->ruleScopeCombo()->findData(QStringLiteral("agent")));
    QVERIFY(editor->validationMessage(RuleEditor::Section::Form)
                .contains(QStringLiteral("target_agent_id")));
    QVERIFY(!editor->saveButton()->isEnabled());
    QTest::keyClicks(editor->targetEdit(), QStringLiteral("bot-7"));
    editor->thenEdit()->setPlainText(
        QStringLiteral("{\"output\": {\"format\": \"json\", \"strict\": true}}"));
    QVERIFY2(editor->isValid(), qPrintable(editor->validationMessage(RuleEditor::Section::Form)));
    QVERIFY(editor->saveButton()->isEnabled());
    const QString clientId = editor->clientId();
    QTest::mouseClick(editor->saveButton(), Qt::LeftButton);
    QTRY_COMPARE(saved.size(), 2);
    QVERIFY2(saved.at(1).at(0).toBool(), qPrintable(page.statusText()));
    const QString newId = saved.at(1).at(1).toString();
    QTRY_COMPARE(page.ruleModel()->rowCount(), 3);
    QCOMPARE(stateOf(page, newId), QStringLiteral("SHADOW"));
    QCOMPARE(page.ruleModel()->rule(page.ruleModel()->rowOf(newId)).node.clientId, clientId);
    QCOMPARE(model->data(model->index(model->rowOf(newId), int(Column::Target))).toString(),
             QStringLiteral("bot-7"));
    QTRY_COMPARE(editor->ruleId(), newId); // the saved rule stays in the editor, now stored
    QVERIFY(!editor->isNewRule());
    QVERIFY(editor->stateButton()->isEnabled());
}

void tst_RulesPage::filtersNarrowTheTable()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const QStringList ids = writeTwoRules(service.service());
    QVERIFY(setState(service.service(), ids.at(0), "ACTIVE"));

    Ui::UiExecutor executor;
    RulesPage page(service.service(), &executor);
    page.show();
    QTRY_COMPARE(page.ruleModel()->rowCount(), 2);
    auto *count = page.findChild<QLabel *>(QStringLiteral("ruleCountLabel"));
    QCOMPARE(count->text(), QStringLiteral("2 rule(s)"));

    page.stateFilterCombo()->setCurrentIndex(
        page.stateFilterCombo()->findData(QStringLiteral("active")));
    QCOMPARE(page.filterModel()->rowCount(), 1);
    QCOMPARE(page.filterModel()->index(0, 0).data(RuleTableModel::RuleIdRole).toString(),
             ids.at(0));
    QCOMPARE(count->text(), QStringLiteral("1 of 2 rule(s) shown"));
    page.setStateFilter(QString());
    page.setRuleScopeFilter(QStringLiteral("team"));
    QCOMPARE(page.filterModel()->rowCount(), 1);
    QCOMPARE(page.filterModel()->index(0, 0).data(RuleTableModel::RuleIdRole).toString(),
             ids.at(1));
    page.setRuleScopeFilter(QString());
    QTest::keyClicks(page.filterEdit(), QStringLiteral("markdown"));
    QCOMPARE(page.filterModel()->rowCount(), 1);
    page.setTextFilter(QStringLiteral("support")); // the team target matches too
    QCOMPARE(page.filterModel()->rowCount(), 1);
    page.setTextFilter(QString());
    QCOMPARE(page.filterModel()->rowCount(), 2);
}

void tst_RulesPage::keyboardOrderAndShortcuts()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const QStringList ids = writeTwoRules(service.service());

    Ui::UiExecutor executor;
    RulesPage page(service.service(), &executor);
    page.resize(1280, 800);
    page.show();
    page.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&page));
    QTRY_COMPARE(page.ruleModel()->rowCount(), 2);

    // Tab walks the filter bar, the table, the editor's form, its JSON, then Try it.
    const QStringList expected{
        QStringLiteral("ruleFilterEdit"),    QStringLiteral("ruleTable"),
        QStringLiteral("ruleTitleEdit"),     QStringLiteral("rulePrioritySpin"),
        QStringLiteral("ruleIfEdit"),        QStringLiteral("ruleThenEdit"),
        QStringLiteral("saveRuleButton"),    QStringLiteral("tryContextEdit"),
        QStringLiteral("tryCandidatesEdit"), QStringLiteral("tryRunButton")};
    QStringList chain;
    QWidget *w = &page;
    for (int i = 0; i < 500; ++i) {
        w = w->nextInFocusChain();
        if (w == &page)
            break;
        if (expected.contains(w->objectName()) && !chain.contains(w->objectName()))
            chain << w->objectName();
    }
    QCOMPARE(chain, expected);

    // Arrow keys in the table open rules in the editor.
    QTableView *view = page.ruleView();
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Home);
    QTRY_VERIFY(page.editor()->hasRule());
    const QString first = page.editor()->ruleId();
    QTest::keyClick(view, Qt::Key_Down);
    QTRY_VERIFY(page.editor()->ruleId() != first);
    QVERIFY(ids.contains(page.editor()->ruleId()));

    // Ctrl+F goes to the filter, Ctrl+N starts a new rule with the title focused.
    QTest::keyClick(view, Qt::Key_F, Qt::ControlModifier);
    QTRY_COMPARE(QApplication::focusWidget(), page.filterEdit());
    QTest::keyClick(page.filterEdit(), Qt::Key_N, Qt::ControlModifier);
    QVERIFY(page.editor()->isNewRule());
    QTRY_COMPARE(QApplication::focusWidget(), page.editor()->titleEdit());
}

void tst_RulesPage::allFourStatesFromTheKeyboard()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const QStringList ids = writeTwoRules(service.service());
    const QString lookupId = ids.at(0);
    QVERIFY(setState(service.service(), lookupId, "ACTIVE"));

    Ui::UiExecutor executor;
    RulesPage page(service.service(), &executor);
    page.resize(1280, 800);
    page.show();
    page.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&page));
    QTRY_COMPARE(page.ruleModel()->rowCount(), 2);

    // The state filter offers all four states.
    QComboBox *filter = page.stateFilterCombo();
    QStringList filterStates;
    for (int i = 1; i < filter->count(); ++i)
        filterStates << filter->itemText(i);
    QCOMPARE(filterStates, (QStringList{QStringLiteral("DRAFT"), QStringLiteral("SHADOW"),
                                        QStringLiteral("ACTIVE"), QStringLiteral("DISABLED")}));

    QVERIFY(clickRule(page, lookupId));
    RuleEditor *editor = page.editor();
    QTRY_COMPARE(editor->ruleId(), lookupId);
    QComboBox *target = editor->targetStateCombo();
    QCOMPARE(target->count(), 4);
    QCOMPARE(target->currentData().toString(), QStringLiteral("shadow")); // the usual next step
    QCOMPARE(editor->stateButton()->text().remove(QLatin1Char('&')),
             QStringLiteral("Move to shadow"));

    // Alt+Y reaches the state list; Down skips ACTIVE (the current state) to DISABLED; Tab
    // reaches the button, Space presses it.
    QSignalSpy stateChanged(&page, &RulesPage::ruleStateChanged);
    QTest::keyClick(editor->titleEdit(), Qt::Key_Y, Qt::AltModifier);
    QTRY_COMPARE(QApplication::focusWidget(), target);
    QTest::keyClick(target, Qt::Key_Down);
    QCOMPARE(target->currentData().toString(), QStringLiteral("disabled"));
    QCOMPARE(editor->stateButton()->text().remove(QLatin1Char('&')), QStringLiteral("Disable"));
    QTest::keyClick(target, Qt::Key_Tab);
    QTRY_COMPARE(QApplication::focusWidget(), editor->stateButton());
    QTest::keyClick(editor->stateButton(), Qt::Key_Space);
    QTRY_COMPARE(stateOf(page, lookupId), QStringLiteral("DISABLED"));
    QTRY_COMPARE(stateChanged.size(), 1);
    QCOMPARE(stateChanged.at(0).at(2).toString(), QStringLiteral("disabled"));
    QTRY_COMPARE(editor->ruleState(), QStringLiteral("disabled"));
    auto *badge = editor->findChild<QLabel *>(QStringLiteral("ruleStateBadge"));
    QVERIFY(badge);
    QCOMPARE(badge->text(), QStringLiteral("DISABLED"));

    // A disabled rule is not evaluated: Try it no longer matches it.
    RuleTryPanel *panel = page.tryPanel();
    panel->setContextText(QStringLiteral("{\"intent\": \"lookup\"}"));
    panel->setCandidatesText(QStringLiteral("shell, search"));
    bool ok = false;
    QVERIFY(runTry(panel, &ok));
    QVERIFY2(ok, qPrintable(panel->statusText()));
    QVERIFY(!panel->matchedRuleIds().contains(lookupId));
    QCOMPARE(panel->selectedTool(), QStringLiteral("shell"));

    // Back to draft the same way (Up from the preselected SHADOW), then filter on drafts.
    QTRY_COMPARE(target->currentData().toString(), QStringLiteral("shadow"));
    QTest::keyClick(editor->titleEdit(), Qt::Key_Y, Qt::AltModifier);
    QTRY_COMPARE(QApplication::focusWidget(), target);
    QTest::keyClick(target, Qt::Key_Up);
    QCOMPARE(target->currentData().toString(), QStringLiteral("draft"));
    QTest::keyClick(target, Qt::Key_Tab);
    QTest::keyClick(editor->stateButton(), Qt::Key_Space);
    QTRY_COMPARE(stateOf(page, lookupId), QStringLiteral("DRAFT"));
    filter->setCurrentIndex(filter->findData(QStringLiteral("draft")));
    QCOMPARE(page.filterModel()->rowCount(), 1);
    QCOMPARE(page.filterModel()->index(0, 0).data(RuleTableModel::RuleIdRole).toString(), lookupId);
    const auto commits = service->listCommits(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(commits);
    int stateCommits = 0; // ACTIVE from the test, DISABLED and DRAFT from the page
    for (const CommitRecord &c : commits.value())
        stateCommits += c.kind == QLatin1String("rule_state_change") ? 1 : 0;
    QCOMPARE(stateCommits, 3);
}

void tst_RulesPage::tryItExplainsConflictsAndEmptySelections()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const QStringList ids = writeNodes(
        service.service(),
        {ruleNode(
             QStringLiteral("high"), QStringLiteral("High: JSON, prefer search"),
             json(R"({"intent": "lookup"})"),
             json(
                 R"({"output": {"format": "json"}, "tool": {"prefer": ["search"], "deny": ["shell"]}})"),
             json(R"({"rule_meta": {"priority": 50}})")),
         ruleNode(QStringLiteral("low"), QStringLiteral("Low: markdown, prefer browser"),
                  json(R"({"intent": "lookup"})"),
                  json(R"({"output": {"format": "markdown"}, "tool": {"prefer": ["browser"]}})"),
                  json(R"({"rule_meta": {"priority": 5}})"))});
    QVERIFY(setState(service.service(), ids.at(0), "ACTIVE"));
    QVERIFY(setState(service.service(), ids.at(1), "ACTIVE"));

    Ui::UiExecutor executor;
    RulesPage page(service.service(), &executor);
    page.show();
    QTRY_COMPARE(page.ruleModel()->rowCount(), 2);
    RuleTryPanel *panel = page.tryPanel();
    panel->setContextText(QStringLiteral("{\"intent\": \"lookup\"}"));
    panel->setCandidatesText(QStringLiteral("shell, browser, search"));
    bool ok = false;
    QVERIFY(runTry(panel, &ok));
    QVERIFY2(ok, qPrintable(panel->statusText()));
    QCOMPARE(panel->selectedTool(), QStringLiteral("search"));
    QVERIFY(panel->selectionText().contains(QStringLiteral("Preferred: search \u2192 browser")));

    // output.format: the higher-ranked rule wins, the other loses.
    QTableWidget *conflicts = panel->conflictTable();
    QCOMPARE(conflicts->rowCount(), 2);
    QCOMPARE(conflicts->item(0, RuleTryPanel::ConflictWhat)->text(),
             QStringLiteral("output.format"));
    QVERIFY(conflicts->item(0, RuleTryPanel::ConflictWinner)
                ->text()
                .startsWith(QStringLiteral("High: JSON")));
    QVERIFY(conflicts->item(0, RuleTryPanel::ConflictLosers)
                ->text()
                .startsWith(QStringLiteral("Low: markdown")));
    QVERIFY(conflicts->item(0, RuleTryPanel::ConflictReason)
                ->text()
                .contains(QStringLiteral("higher rank wins")));
    // The competing first choices of tool.prefer (tool_explain.conflicts).
    QCOMPARE(conflicts->item(1, RuleTryPanel::ConflictWhat)->text(),
             QStringLiteral("prefer_competing_top_choice"));
    QVERIFY(conflicts->item(1, RuleTryPanel::ConflictWinner)
                ->text()
                .startsWith(QStringLiteral("High: JSON")));
    QVERIFY(conflicts->item(1, RuleTryPanel::ConflictLosers)
                ->text()
                .startsWith(QStringLiteral("Low: markdown")));
    QCOMPARE(panel->resultTabs()->tabText(3), QStringLiteral("Conflicts (2)"));
    const QJsonObject policy = QJsonDocument::fromJson(panel->policyText().toUtf8()).object();
    QCOMPARE(policy.value(QStringLiteral("output"))
                 .toObject()
                 .value(QStringLiteral("format"))
                 .toString(),
             QStringLiteral("json"));

    // Double-clicking a matched rule opens it in the editor.
    panel->matchTable()->setCurrentCell(1, RuleTryPanel::MatchRule);
    Q_EMIT panel->matchTable()->cellActivated(1, RuleTryPanel::MatchRule);
    QCOMPARE(page.editor()->ruleId(), ids.at(1));

    // Only denied candidates: strict reports no_tools_allowed, non-strict falls back.
    panel->setCandidatesText(QStringLiteral("shell"));
    QVERIFY(runTry(panel, &ok));
    QVERIFY(!ok);
    QCOMPARE(panel->errorCode(), QStringLiteral("no_tools_allowed"));
    QVERIFY(panel->selectedTool().isEmpty());
    QVERIFY(panel->selectionText().contains(QStringLiteral("no_tools_allowed")));
    panel->setStrict(false);
    QVERIFY(runTry(panel, &ok));
    QVERIFY(ok);
    QVERIFY(panel->errorCode().isEmpty());
    QVERIFY(panel->selectedTool().isEmpty());
    QVERIFY2(panel->selectionText().contains(QStringLiteral("deny_filtered_all")),
             qPrintable(panel->selectionText()));

    // A context that is not JSON is reported without calling the service.
    panel->setContextText(QStringLiteral("{\"intent\": "));
    QVERIFY(runTry(panel, &ok));
    QVERIFY(!ok);
    QCOMPARE(panel->errorCode(), QStringLiteral("invalid_request"));
    QVERIFY(panel->statusText().startsWith(QStringLiteral("context: line 1")));

    DecisionQuery query;
    query.tenantId = QStringLiteral("default");
    query.scope = QStringLiteral("default");
    QVERIFY(service->listDecisions(query).value().isEmpty());
}

void tst_RulesPage::showRuleSwitchesScopeAndClearsFilters()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    writeTwoRules(service.service());
    const QStringList other
        = writeNodes(service.service(),
                     {ruleNode(QStringLiteral("elsewhere"), QStringLiteral("Rule in another scope"),
                               json("{}"), json(R"({"tool": {"allow": ["search"]}})"))},
                     QStringLiteral("other"));

    Ui::UiExecutor executor;
    RulesPage page(service.service(), &executor);
    page.show();
    QTRY_COMPARE(page.ruleModel()->rowCount(), 2);
    QCOMPARE(page.currentScope(), QStringLiteral("default"));
    page.setStateFilter(QStringLiteral("active")); // would hide the (shadow) rule
    QCOMPARE(page.filterModel()->rowCount(), 0);

    page.showRule(QStringLiteral("default"), QStringLiteral("other"), other.at(0));
    QTRY_COMPARE(page.currentScope(), QStringLiteral("other"));
    QTRY_COMPARE(page.editor()->ruleId(), other.at(0));
    QCOMPARE(page.ruleModel()->rowCount(), 1);
    QCOMPARE(page.filterModel()->rowCount(), 1);
    QCOMPARE(page.stateFilterCombo()->currentIndex(), 0);
    QCOMPARE(page.ruleView()
                 ->selectionModel()
                 ->currentIndex()
                 .data(RuleTableModel::RuleIdRole)
                 .toString(),
             other.at(0));
    QCOMPARE(page.editor()->titleEdit()->text(), QStringLiteral("Rule in another scope"));
}

void tst_RulesPage::darkPaletteScreenshot()
{
    Ui::applyDarkPalette(*qobject_cast<QApplication *>(QCoreApplication::instance()));
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const QStringList ids = writeTwoRules(service.service());
    QVERIFY(setState(service.service(), ids.at(0), "ACTIVE"));

    Ui::UiExecutor executor;
    RulesPage page(service.service(), &executor);
    page.resize(1280, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QTRY_COMPARE(page.ruleModel()->rowCount(), 2);
    page.selectRule(ids.at(0));
    QCOMPARE(page.editor()->ruleId(), ids.at(0));
    // Show a validation error, so the screenshot covers the error colours too.
    page.editor()->thenEdit()->setPlainText(
        QStringLiteral("{\n    \"tool\": {\n        \"deny\": [\"shell\"],\n"
                       "        \"prefer\": \"search\"\n    }\n}"));
    QVERIFY(page.editor()
                ->validationMessage(RuleEditor::Section::Then)
                .contains(QStringLiteral("then.tool.prefer")));

    RuleTryPanel *panel = page.tryPanel();
    panel->setContextText(QStringLiteral(
        "{\n    \"intent\": \"lookup\",\n    \"agent\": {\n        \"id\": \"a1\",\n"
        "        \"team_id\": \"support\"\n    },\n    \"urgent\": true,\n    \"attempt\": 2\n}"));
    panel->setCandidatesText(QStringLiteral("shell, search, browser"));
    bool ok = false;
    QVERIFY(runTry(panel, &ok));
    QVERIFY(ok);
    QCOMPARE(panel->selectedTool(), QStringLiteral("search"));
    QVERIFY(saveShot(&page, QStringLiteral("rules-page-dark.png")));
}

QTEST_MAIN(tst_RulesPage)
#include "tst_rulespage.moc"
