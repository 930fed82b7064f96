#include "tests/support/tempservice.h"
#include "ui/mainwindow.h"
#include "ui/models/nodetablemodel.h"
#include "ui/models/rankedtablemodel.h"
#include "ui/models/seedtablemodel.h"
#include "ui/pages/graphpage.h"
#include "ui/pages/memorypage.h"
#include "ui/pages/recallpage.h"
#include "ui/theme.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/graphcanvas.h"
#include "ui/widgets/nodeinspector.h"
#include "ui/widgets/scopepicker.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::MainWindow;

namespace {

const QString CustomerTitle = QStringLiteral("Northwind Traders");
// "sync" appears in many sample titles and summaries.
const QString Query = QStringLiteral("sync stalls after the update");

bool saveShot(QWidget *widget, const QString &name)
{
    const QString path = QDir(Test::testOutputDir()).filePath(name);
    const bool saved = widget->grab().save(path);
    if (saved)
        qInfo("screenshot: %s", qUtf8Printable(path));
    return saved;
}

/// Loads the sample memories through the window and waits until every embedding is ready.
bool loadSamples(MainWindow &window, MemoryService *service)
{
    QSignalSpy loaded(&window, &MainWindow::sampleMemoriesLoaded);
    window.loadSampleMemories();
    if (!loaded.wait(20000) && loaded.isEmpty())
        return false;
    if (!loaded.at(0).at(0).toBool())
        return false;
    return service->waitForEmbeddings(10000);
}

/// Types the query into the Recall page and presses Enter; waits for the answer.
bool runQuery(Ui::RecallPage *page, const QString &text, bool *ok)
{
    QSignalSpy finished(page, &Ui::RecallPage::recallFinished);
    QLineEdit *edit = page->queryEdit();
    edit->clear();
    edit->setFocus();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
    if (!finished.wait(20000))
        return false;
    *ok = finished.at(0).at(0).toBool();
    return true;
}

QString rowTitle(const Ui::NodeTableModel *model, const QString &title, int *rowOut)
{
    for (int r = 0; r < model->rowCount(); ++r) {
        if (model->node(r).title == title) {
            *rowOut = r;
            return model->node(r).id;
        }
    }
    *rowOut = -1;
    return {};
}

} // namespace

class tst_RecallPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shortcutsReachNewPages();
    void knobsAreSentOnlyWhenPinned();
    void recallShowsSeedsContextAndSubgraph();
    void reportsMissingEmbeddingProvider();
    void graphPageShowsSampleNeighbourhood();
    void darkPaletteScreenshots(); // last: it switches the whole application to the dark palette
};

void tst_RecallPage::shortcutsReachNewPages()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));

    QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), MainWindow::Page::Recall);
    QTest::keyClick(&window, Qt::Key_4, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), MainWindow::Page::Graph);
    QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), MainWindow::Page::Memory);
    QTest::keyClick(&window, Qt::Key_5, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), MainWindow::Page::Rules);
    QTest::keyClick(&window, Qt::Key_6, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), MainWindow::Page::Decisions);
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), MainWindow::Page::Server);

    auto *sidebar = window.findChild<QWidget *>(QStringLiteral("navigation"));
    QVERIFY(sidebar);
    sidebar->setFocus();
    QTest::keyClick(sidebar, Qt::Key_End);
    QCOMPARE(window.currentPage(), MainWindow::Page::Automations);
}

void tst_RecallPage::knobsAreSentOnlyWhenPinned()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    Ui::UiExecutor executor;
    Ui::RecallPage page(service.service(), &executor);
    page.setQueryText(QStringLiteral("token cache"));

    // Server default: the spin boxes show the server's profile, and nothing is pinned.
    QCOMPARE(page.profile(), QString());
    QVERIFY(page.pinnedKnobs().isEmpty());
    auto *limit = page.findChild<QSpinBox *>(QStringLiteral("limitSpin"));
    auto *maxNodes = page.findChild<QSpinBox *>(QStringLiteral("max_nodesSpin"));
    auto *minWeight = page.findChild<QDoubleSpinBox *>(QStringLiteral("min_edge_weightSpin"));
    QVERIFY(limit && maxNodes && minWeight);
    QCOMPARE(limit->value(), 24); // strict_edges, spec §4.3.1
    QCOMPARE(maxNodes->value(), 60);
    QCOMPARE(minWeight->value(), 0.2);
    QJsonObject body = page.requestBody();
    QCOMPARE(body.value(QStringLiteral("query_text")).toString(), QStringLiteral("token cache"));
    for (const char *key :
         {"limit", "neighborhood_hops", "max_nodes", "max_edges", "ranked_limit", "min_edge_weight",
          "min_edge_confidence", "context_token_budget", "context_char_budget",
          "context_compaction_profile", "consumer_agent_id"})
        QVERIFY2(!body.contains(QLatin1String(key)), key);

    // Editing a knob pins just that one.
    limit->setValue(7);
    QCOMPARE(page.pinnedKnobs(), QStringList{QStringLiteral("limit")});
    body = page.requestBody();
    QCOMPARE(body.value(QStringLiteral("limit")).toInt(), 7);
    QVERIFY(!body.contains(QStringLiteral("max_nodes")));
    auto *hint = page.findChild<QLabel *>(QStringLiteral("knobHint"));
    QVERIFY(hint->text().contains(QStringLiteral("limit")));

    // A named profile fills its values and sends all seven.
    auto *profileCombo = page.findChild<QComboBox *>(QStringLiteral("profileCombo"));
    profileCombo->setCurrentIndex(profileCombo->findData(QStringLiteral("quality_first")));
    QCOMPARE(page.profile(), QStringLiteral("quality_first"));
    QCOMPARE(limit->value(), 30);
    QCOMPARE(maxNodes->value(), 80);
    QCOMPARE(minWeight->value(), 0.05);
    QCOMPARE(page.pinnedKnobs().size(), 7);
    body = page.requestBody();
    QCOMPARE(body.value(QStringLiteral("max_edges")).toInt(), 100);
    QCOMPARE(body.value(QStringLiteral("ranked_limit")).toInt(), 180);
    QCOMPARE(body.value(QStringLiteral("min_edge_confidence")).toDouble(), 0.05);

    page.setProfile(QStringLiteral("legacy"));
    QCOMPARE(maxNodes->value(), 50);
    QCOMPARE(page.requestBody().value(QStringLiteral("min_edge_weight")).toDouble(), 0.0);

    // Back to the server default: nothing pinned again.
    page.setProfile(QString());
    QVERIFY(page.pinnedKnobs().isEmpty());
    QCOMPARE(limit->value(), 24);

    // Budgets and consumer are sent only when set.
    page.findChild<QSpinBox *>(QStringLiteral("tokenBudgetSpin"))->setValue(300);
    auto *compaction = page.findChild<QComboBox *>(QStringLiteral("compactionCombo"));
    compaction->setCurrentIndex(compaction->findData(QStringLiteral("aggressive")));
    page.findChild<QLineEdit *>(QStringLiteral("consumerAgentEdit"))
        ->setText(QStringLiteral("agent-7"));
    body = page.requestBody();
    QCOMPARE(body.value(QStringLiteral("context_token_budget")).toInt(), 300);
    QCOMPARE(body.value(QStringLiteral("context_compaction_profile")).toString(),
             QStringLiteral("aggressive"));
    QCOMPARE(body.value(QStringLiteral("consumer_agent_id")).toString(), QStringLiteral("agent-7"));
    QVERIFY(!body.contains(QStringLiteral("context_char_budget")));

    // The body is a valid recall_text request as the HTTP layer would parse it.
    QVERIFY(RecallRequest::fromJson(body, true, service->config().maxTextLength).ok());
}

void tst_RecallPage::recallShowsSeedsContextAndSubgraph()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(loadSamples(window, service.service()));

    window.showPage(MainWindow::Page::Recall);
    Ui::RecallPage *page = window.recallPage();
    QTRY_COMPARE(page->scopePicker()->currentScope(), QStringLiteral("default"));

    bool ok = false;
    QVERIFY(runQuery(page, Query, &ok));
    QVERIFY2(ok, qPrintable(page->statusText()));
    QVERIFY(!page->isRunning());

    // Seeds, best first (by the relevance the channels' fusion gave), with a title, type, tier
    // and similarity.
    Ui::SeedTableModel *seeds = page->seedModel();
    QVERIFY(seeds->rowCount() > 0);
    QVERIFY(seeds->rowCount() <= 24);
    using SeedColumn = Ui::SeedTableModel::Column;
    QVERIFY(!seeds->data(seeds->index(0, int(SeedColumn::Title))).toString().isEmpty());
    for (int r = 1; r < seeds->rowCount(); ++r)
        QVERIFY(seeds->seed(r - 1).relevance >= seeds->seed(r).relevance);
    bool sawSyncIncident = false;
    for (const RecallSeed &s : seeds->seeds())
        sawSyncIncident = sawSyncIncident || s.node.title.contains(QStringLiteral("sync stalls"));
    QVERIFY(sawSyncIncident);

    // Ranked entries are named.
    QVERIFY(page->rankedModel()->rowCount() > 0);
    using RankedColumn = Ui::RankedTableModel::Column;
    const QString firstRanked = page->rankedModel()
                                    ->data(page->rankedModel()->index(0, int(RankedColumn::Title)))
                                    .toString();
    QVERIFY(!firstRanked.isEmpty());
    QVERIFY(firstRanked != page->rankedModel()->entry(0).id);

    // Context text and its size.
    QVERIFY(!page->contextText().isEmpty());
    auto *contextEdit = page->findChild<QPlainTextEdit *>(QStringLiteral("contextEdit"));
    QVERIFY(contextEdit && contextEdit->isReadOnly());
    const QRegularExpression sizePattern(
        QStringLiteral("^([\\d,]+) chars \u2248 ([\\d,]+) tokens"));
    const QRegularExpressionMatch size = sizePattern.match(page->contextSizeText());
    QVERIFY2(size.hasMatch(), qPrintable(page->contextSizeText()));
    QCOMPARE(QString(size.captured(1)).remove(QLatin1Char(',')).toInt(),
             int(page->contextText().size()));

    // The subgraph is drawn and the best seed is in the inspector.
    Ui::GraphCanvas *canvas = page->graphCanvas();
    QTRY_VERIFY(canvas->nodeCount() > 0);
    QVERIFY(canvas->containsNode(seeds->seed(0).node.id));
    QTRY_COMPARE(page->inspector()->nodeId(), seeds->seed(0).node.id);
    QCOMPARE(canvas->selectedNodeId(), seeds->seed(0).node.id);

    // Clicking a node on the canvas opens it in the inspector.
    QString otherId;
    for (const QString &id : canvas->nodeIds()) {
        if (id != seeds->seed(0).node.id)
            otherId = id;
    }
    QVERIFY(!otherId.isEmpty());
    const QPoint at = canvas->mapFromScene(canvas->nodePosition(otherId));
    QTest::mouseClick(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QTRY_COMPARE(page->inspector()->nodeId(), otherId);

    // So does a ranked row.
    page->findChild<QTabWidget *>(QStringLiteral("recallTabs"))->setCurrentIndex(1);
    const int lastRanked = page->rankedModel()->rowCount() - 1;
    page->rankedView()->selectRow(lastRanked);
    QTRY_COMPARE(page->inspector()->nodeId(), page->rankedModel()->entry(lastRanked).id);
    page->findChild<QTabWidget *>(QStringLiteral("recallTabs"))->setCurrentIndex(0);
    page->seedView()->selectRow(0);
    QTRY_COMPARE(page->inspector()->nodeId(), seeds->seed(0).node.id);

    QVERIFY(saveShot(&window, QStringLiteral("recall-page.png")));

    // A pinned limit is honoured.
    page->findChild<QSpinBox *>(QStringLiteral("limitSpin"))->setValue(2);
    QVERIFY(runQuery(page, Query, &ok));
    QVERIFY(ok);
    QVERIFY(seeds->rowCount() >= 1 && seeds->rowCount() <= 2);
    const int fullLength = int(page->contextText().size());

    // A tight character budget compacts the text and says so.
    page->resetKnobs();
    page->findChild<QSpinBox *>(QStringLiteral("charBudgetSpin"))->setValue(200);
    QVERIFY(runQuery(page, Query, &ok));
    QVERIFY(ok);
    QVERIFY2(page->contextSizeText().contains(QStringLiteral("Compacted to a 200-char budget")),
             qPrintable(page->contextSizeText()));
    QVERIFY(page->contextText().size() < fullLength || fullLength <= 200);

    // "Show in graph" from the inspector jumps to the Graph page centred on that node.
    QTRY_VERIFY(!page->inspector()->nodeId().isEmpty());
    const QString shown = page->inspector()->nodeId();
    auto *button
        = page->inspector()->findChild<QAbstractButton *>(QStringLiteral("showInGraphButton"));
    QVERIFY(button && button->isVisible());
    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(window.currentPage(), MainWindow::Page::Graph);
    Ui::GraphPage *graph = window.graphPage();
    QCOMPARE(graph->centreNodeId(), shown);
    QTRY_VERIFY(graph->canvas()->containsNode(shown));
    QTRY_COMPARE(graph->inspector()->nodeId(), shown);
}

void tst_RecallPage::reportsMissingEmbeddingProvider()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    Test::TempService service(env);
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    Ui::UiExecutor executor;
    Ui::RecallPage page(service.service(), &executor);
    page.resize(1100, 700);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));

    bool ok = true;
    QVERIFY(runQuery(&page, QStringLiteral("anything"), &ok));
    QVERIFY(!ok);
    QCOMPARE(page.errorCode(), QStringLiteral("no_embedding_provider"));
    QVERIFY2(page.statusText().contains(QStringLiteral("no_embedding_provider")),
             qPrintable(page.statusText()));
    QVERIFY(page.statusText().contains(QStringLiteral("EMBEDDING_PROVIDER")));
    QCOMPARE(page.seedModel()->rowCount(), 0);
    QVERIFY(page.contextText().isEmpty());

    // An empty query is caught before the service is asked.
    QSignalSpy finished(&page, &Ui::RecallPage::recallFinished);
    page.setQueryText(QString());
    page.run();
    QCOMPARE(finished.count(), 0);
    QCOMPARE(page.statusText(), QStringLiteral("Type a query first."));
}

void tst_RecallPage::graphPageShowsSampleNeighbourhood()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(loadSamples(window, service.service()));

    // From the Memory page: select the customer and use "Show in graph" (Ctrl+G on the table).
    Ui::MemoryPage *memory = window.memoryPage();
    QTRY_VERIFY(memory->nodeModel()->rowCount() >= 15);
    int row = -1;
    const QString customerId = rowTitle(memory->nodeModel(), CustomerTitle, &row);
    QVERIFY(row >= 0);
    memory->nodeView()->selectRow(row);
    QTRY_COMPARE(memory->inspector()->titleText(), CustomerTitle);
    auto *action = memory->nodeView()->findChild<QAction *>(QStringLiteral("showInGraphAction"));
    QVERIFY(action);
    QVERIFY(memory->nodeView()->actions().contains(action)); // also in the context menu
    action->trigger();

    QCOMPARE(window.currentPage(), MainWindow::Page::Graph);
    Ui::GraphPage *graph = window.graphPage();
    Ui::GraphCanvas *canvas = graph->canvas();
    QCOMPARE(graph->centreNodeId(), customerId);
    QTRY_VERIFY(canvas->containsNode(customerId));
    // Northwind has direct edges from Dana and the weekend freeze, and the topic links to it.
    QVERIFY2(canvas->nodeCount() >= 3, qPrintable(QString::number(canvas->nodeCount())));
    QVERIFY(canvas->edgeCount() >= 2);
    QVERIFY(!canvas->hasMoreMarker());
    QTRY_COMPARE(graph->inspector()->titleText(), CustomerTitle);
    QVERIFY(graph->statusText().contains(CustomerTitle));
    const int oneHop = canvas->nodeCount();

    // Two hops reach further.
    graph->hopsSpin()->setValue(2);
    QTRY_VERIFY(canvas->nodeCount() > oneHop);
    const int twoHops = canvas->nodeCount();

    // Double-clicking a leaf expands around it; nothing already drawn disappears.
    QString leaf;
    for (const QString &id : canvas->nodeIds()) {
        if (id != customerId)
            leaf = id;
    }
    const QStringList before = canvas->nodeIds();
    QSignalSpy changed(canvas, &Ui::GraphCanvas::graphChanged);
    const QPoint at = canvas->mapFromScene(canvas->nodePosition(leaf));
    QTest::mouseDClick(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QVERIFY(changed.wait(5000) || changed.count() > 0);
    QVERIFY(graph->expandedNodeIds().contains(leaf));
    QVERIFY(canvas->nodeCount() >= twoHops);
    for (const QString &id : before)
        QVERIFY(canvas->containsNode(id));

    // Searching by title and pressing Enter draws the first match.
    QLineEdit *search = graph->searchEdit();
    search->setFocus();
    QTest::keyClicks(search, QStringLiteral("token cache"));
    QTest::keyClick(search, Qt::Key_Return);
    QTRY_COMPARE(graph->inspector()->titleText(),
                 QStringLiteral("Workaround: clear the local token cache"));
    QTRY_COMPARE(graph->searchResults()->count(), 1);
    QCOMPARE(canvas->selectedNodeId(), graph->centreNodeId());

    // A pasted node id works too.
    search->setText(customerId);
    QTest::keyClick(search, Qt::Key_Return);
    QTRY_COMPARE(graph->centreNodeId(), customerId);
    QTRY_COMPARE(graph->inspector()->titleText(), CustomerTitle);

    // Screenshot: the customer's whole component (three hops), the customer selected.
    graph->hopsSpin()->setValue(3);
    QSignalSpy loaded(graph, &Ui::GraphPage::graphLoaded);
    graph->showNode(QStringLiteral("default"), QStringLiteral("default"), customerId);
    QVERIFY(loaded.wait(5000));
    QTRY_VERIFY(graph->statusText().contains(QStringLiteral("(3 hops)")));
    QVERIFY(canvas->nodeCount() > twoHops);
    QTRY_COMPARE(graph->inspector()->titleText(), CustomerTitle);
    QTRY_COMPARE(graph->searchResults()->count(), 17); // a pasted id lists every node
    QVERIFY(saveShot(&window, QStringLiteral("graph-page.png")));

    // An unknown id says so instead of drawing nothing silently.
    graph->showNode(QStringLiteral("default"), QStringLiteral("default"),
                    QStringLiteral("00000000-0000-4000-8000-000000000000"));
    QTRY_VERIFY(graph->statusText().contains(QStringLiteral("was not found")));
    QCOMPARE(canvas->nodeCount(), 0);
}

void tst_RecallPage::darkPaletteScreenshots()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    Ui::applyDarkPalette(*qApp);
    QVERIFY(Ui::isDarkPalette(QApplication::palette()));

    MainWindow window(service.service());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(loadSamples(window, service.service()));

    window.showPage(MainWindow::Page::Recall);
    Ui::RecallPage *page = window.recallPage();
    QTRY_COMPARE(page->scopePicker()->currentScope(), QStringLiteral("default"));
    bool ok = false;
    QVERIFY(runQuery(page, Query, &ok));
    QVERIFY(ok);
    QTRY_VERIFY(!page->inspector()->nodeId().isEmpty());
    QVERIFY(saveShot(&window, QStringLiteral("recall-page-dark.png")));

    // The escalation policy's neighbourhood includes the private rule (lock badge).
    int row = -1;
    QTRY_VERIFY(window.memoryPage()->nodeModel()->rowCount() >= 15);
    const QString policyId
        = rowTitle(window.memoryPage()->nodeModel(), QStringLiteral("Escalation policy"), &row);
    QVERIFY(row >= 0);
    Ui::GraphPage *graph = window.graphPage();
    QSignalSpy loaded(graph, &Ui::GraphPage::graphLoaded);
    window.showNodeInGraph(QStringLiteral("default"), QStringLiteral("default"), policyId);
    QCOMPARE(window.currentPage(), MainWindow::Page::Graph);
    QVERIFY(loaded.wait(5000));
    QTRY_COMPARE(graph->canvas()->nodeCount(), 3);
    QTRY_COMPARE(graph->inspector()->titleText(), QStringLiteral("Escalation policy"));
    QTRY_VERIFY(graph->statusText().contains(QStringLiteral("Escalation policy")));
    QVERIFY(saveShot(&window, QStringLiteral("graph-page-dark.png")));
}

QTEST_MAIN(tst_RecallPage)
#include "tst_recallpage.moc"
