#include "tests/support/tempservice.h"
#include "ui/mainwindow.h"
#include "ui/models/commitlistmodel.h"
#include "ui/models/nodetablemodel.h"
#include "ui/models/requestlogmodel.h"
#include "ui/pages/auditpage.h"
#include "ui/pages/memorypage.h"
#include "ui/pages/replaypage.h"
#include "ui/pages/serverpage.h"
#include "ui/theme.h"
#include "ui/widgets/nodeinspector.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Ui::MainWindow;

namespace {

const QString KnownTitle = QStringLiteral("Escalate enterprise sync outages to tier 2");

struct SampleFacts
{
    int nodes = 0;
    int writes = 0;
};

SampleFacts readSampleFacts()
{
    QFile file(QStringLiteral(":/samples/sample-memories.json"));
    SampleFacts facts;
    if (!file.open(QIODevice::ReadOnly))
        return facts;
    const QJsonArray bodies = QJsonDocument::fromJson(file.readAll()).array();
    facts.writes = int(bodies.size());
    for (const QJsonValue &body : bodies)
        facts.nodes += int(body.toObject().value(QStringLiteral("nodes")).toArray().size());
    return facts;
}

RequestLogEntry makeRequest(const QString &path, int status, const QString &requestId)
{
    RequestLogEntry e;
    e.at = QDateTime::currentDateTime();
    e.method = QStringLiteral("POST");
    e.path = path;
    e.status = status;
    e.latencyMs = 3.75;
    e.tenantId = QStringLiteral("default");
    e.requestId = requestId;
    if (status >= 400)
        e.errorCode = QStringLiteral("invalid_request");
    return e;
}

bool saveShot(QWidget *widget, const QString &name)
{
    const QString path = QDir(Test::testOutputDir()).filePath(name);
    const bool saved = widget->grab().save(path);
    if (saved)
        qInfo("screenshot: %s", qUtf8Printable(path));
    return saved;
}

} // namespace

class tst_MainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void opensWithTitleAndStatusBar();
    void shortcutsSwitchPages();
    void serverLogShowsAppendedRequests();
    void serverPageFollowsHostState();
    void sampleMemoriesAppearOnMemoryPage();
    void pagesThroughLargeScopes();
    void darkPaletteScreenshots();

private:
    static void waitForSamples(MainWindow &window, const SampleFacts &facts);
};

void tst_MainWindow::opensWithTitleAndStatusBar()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    QCOMPARE(window.windowTitle(), QStringLiteral("Memory Graph"));
    QVERIFY(window.serverPage());
    QCOMPARE(window.currentPage(), MainWindow::Page::Server);
    QCOMPARE(window.size(), QSize(1280, 800));
    auto *state = window.statusBar()->findChild<QLabel *>(QStringLiteral("serverStateStatus"));
    QVERIFY(state);
    QCOMPARE(state->text(), QStringLiteral("Server stopped"));
    auto *counts = window.statusBar()->findChild<QLabel *>(QStringLiteral("countsStatus"));
    QVERIFY(counts);
    QTRY_VERIFY(counts->text().startsWith(QStringLiteral("0 nodes")));
    // An empty store then shows the Welcome page (tst_welcomepage has the details).
    QCOMPARE(window.currentPage(), MainWindow::Page::Welcome);
}

void tst_MainWindow::shortcutsSwitchPages()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));

    QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), MainWindow::Page::Memory);
    QTest::keyClick(&window, Qt::Key_7, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), MainWindow::Page::Replay);
    QVERIFY(window.replayPage()->isVisible());
    QTest::keyClick(&window, Qt::Key_8, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), MainWindow::Page::Audit);
    QVERIFY(window.auditPage()->isVisible());
    QVERIFY(!window.replayPage()->isVisible());
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(window.currentPage(), MainWindow::Page::Server);

    // The sidebar is keyboard navigable on its own.
    auto *sidebar = window.findChild<QWidget *>(QStringLiteral("navigation"));
    QVERIFY(sidebar);
    sidebar->setFocus();
    QTest::keyClick(sidebar, Qt::Key_Down);
    QCOMPARE(window.currentPage(), MainWindow::Page::Memory);
}

void tst_MainWindow::serverLogShowsAppendedRequests()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    Ui::ServerPage *page = window.serverPage();

    page->appendRequest(
        makeRequest(QStringLiteral("/v1/memory/write"), 200, QStringLiteral("req-1")));
    page->appendRequest(
        makeRequest(QStringLiteral("/v1/memory/recall"), 400, QStringLiteral("req-2")));

    QTableView *view = page->requestLogView();
    QTRY_COMPARE(view->model()->rowCount(), 2);
    using Column = Ui::RequestLogModel::Column;
    const QAbstractItemModel *model = view->model();
    // Newest first.
    QCOMPARE(model->data(model->index(0, int(Column::RequestId))).toString(),
             QStringLiteral("req-2"));
    QCOMPARE(model->data(model->index(0, int(Column::Path))).toString(),
             QStringLiteral("/v1/memory/recall"));
    QCOMPARE(model->data(model->index(0, int(Column::Status))).toInt(), 400);
    QCOMPARE(model->data(model->index(1, int(Column::Method))).toString(), QStringLiteral("POST"));
    auto *summary = page->findChild<QLabel *>(QStringLiteral("logSummaryLabel"));
    QVERIFY(summary);
    QCOMPARE(summary->text(), QStringLiteral("2 requests logged"));

    page->clearRequestLog();
    QCOMPARE(view->model()->rowCount(), 0);
}

void tst_MainWindow::serverPageFollowsHostState()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    Ui::ServerPage *page = window.serverPage();
    page->setBindAddress(QStringLiteral("127.0.0.1"));
    page->setPort(0);
    page->setAuthMode(QStringLiteral("off"));

    QSignalSpy startSpy(page, &Ui::ServerPage::startRequested);
    QSignalSpy stopSpy(page, &Ui::ServerPage::stopRequested);
    auto *button = page->findChild<QAbstractButton *>(QStringLiteral("startStopButton"));
    QVERIFY(button);
    QCOMPARE(button->text(), QStringLiteral("Start"));

    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(startSpy.count(), 1);
    QCOMPARE(startSpy.at(0).at(0).toString(), QStringLiteral("127.0.0.1"));
    QCOMPARE(startSpy.at(0).at(1).value<quint16>(), quint16(0));
    QCOMPARE(page->state(), Ui::ServerPage::State::Starting);
    QVERIFY(!button->isEnabled());

    // The host reports the port it actually bound.
    page->onServerStarted(QStringLiteral("127.0.0.1"), 48123);
    QCOMPARE(page->state(), Ui::ServerPage::State::Running);
    QCOMPARE(page->port(), quint16(48123));
    QCOMPARE(button->text(), QStringLiteral("Stop"));
    auto *state = window.statusBar()->findChild<QLabel *>(QStringLiteral("serverStateStatus"));
    QCOMPARE(state->text(), QStringLiteral("Listening on 127.0.0.1:48123"));
    auto *url = page->findChild<QLabel *>(QStringLiteral("baseUrlLabel"));
    QCOMPARE(url->text(), QStringLiteral("http://127.0.0.1:48123/v1"));

    QTest::mouseClick(button, Qt::LeftButton);
    QCOMPARE(stopSpy.count(), 1);
    page->onServerStopped();
    QCOMPARE(page->state(), Ui::ServerPage::State::Stopped);

    page->onServerFailed(QStringLiteral("address in use"));
    QCOMPARE(page->state(), Ui::ServerPage::State::Failed);
    QCOMPARE(state->text(), QStringLiteral("Server failed: address in use"));
    QVERIFY(button->isEnabled());
}

void tst_MainWindow::waitForSamples(MainWindow &window, const SampleFacts &facts)
{
    // Loaded from any page but Welcome (which keeps the operator there), the samples open on
    // the Memory page.
    window.showPage(MainWindow::Page::Server);
    QSignalSpy loaded(&window, &MainWindow::sampleMemoriesLoaded);
    window.loadSampleMemories();
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    QVERIFY2(loaded.at(0).at(0).toBool(), qPrintable(loaded.at(0).at(1).toString()));

    Ui::MemoryPage *page = window.memoryPage();
    QTRY_COMPARE_WITH_TIMEOUT(page->nodeModel()->rowCount(), facts.nodes, 10000);
    QCOMPARE(page->totalNodes(), qint64(facts.nodes));
}

void tst_MainWindow::sampleMemoriesAppearOnMemoryPage()
{
    const SampleFacts facts = readSampleFacts();
    QVERIFY2(facts.nodes >= 15, "the sample resource should be embedded in memorygraph_ui");

    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    MainWindow window(service.service());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    waitForSamples(window, facts);
    QCOMPARE(window.currentPage(), MainWindow::Page::Memory);
    Ui::MemoryPage *page = window.memoryPage();
    QCOMPARE(page->currentTenant(), QStringLiteral("default"));
    QCOMPARE(page->currentScope(), QStringLiteral("default"));

    // The known title is in the table.
    Ui::NodeTableModel *nodes = page->nodeModel();
    // Embedding backfill ends without a commit; the page polls until no node is pending.
    auto anyPending = [nodes]() {
        for (const NodeRecord &n : nodes->nodes()) {
            if (n.embeddingStatus == QLatin1String("pending"))
                return true;
        }
        return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(!anyPending(), 15000);
    int row = -1;
    for (int r = 0; r < nodes->rowCount(); ++r) {
        if (nodes->node(r).title == KnownTitle)
            row = r;
    }
    QVERIFY2(row >= 0, "the sample rule should be listed");
    auto *pageLabel = page->findChild<QLabel *>(QStringLiteral("pageLabel"));
    QCOMPARE(pageLabel->text(), QStringLiteral("Rows 1\u2013%1 of %1").arg(facts.nodes));

    // Selecting it fills the inspector with its fields, slots and edges.
    page->nodeView()->selectRow(row);
    Ui::NodeInspector *inspector = page->inspector();
    QTRY_COMPARE(inspector->titleText(), KnownTitle);
    QCOMPARE(inspector->fieldText(QStringLiteral("client_id")),
             QStringLiteral("rule-escalate-enterprise-sync"));
    QCOMPARE(inspector->fieldText(QStringLiteral("type")), QStringLiteral("rule"));
    QCOMPARE(inspector->fieldText(QStringLiteral("owner_team_id")),
             QStringLiteral("support-tier2"));
    QVERIFY(inspector->slotsText().contains(QStringLiteral("\"rule_scope\": \"global\"")));
    QVERIFY(inspector->slotsText().contains(QStringLiteral("\"rule_meta\"")));
    QCOMPARE(inspector->edgeRowCount(), 1);

    // One commit per sample write, newest first.
    QTRY_COMPARE(page->commitModel()->rowCount(), facts.writes);
    QVERIFY(page->commitModel()->commits().first().sequence
            > page->commitModel()->commits().last().sequence);

    // Filters narrow the table through the facade.
    auto *filterEdit = page->findChild<QLineEdit *>(QStringLiteral("filterEdit"));
    QVERIFY(filterEdit);
    filterEdit->setText(QStringLiteral("token cache"));
    QTRY_COMPARE(nodes->rowCount(), 1);
    QCOMPARE(nodes->node(0).clientId, QStringLiteral("inc-2041-workaround"));
    filterEdit->clear();
    QTRY_COMPARE(nodes->rowCount(), facts.nodes);

    auto *typeCombo = page->findChild<QComboBox *>(QStringLiteral("typeCombo"));
    QVERIFY(typeCombo);
    typeCombo->setCurrentIndex(typeCombo->findData(QStringLiteral("rule")));
    QTRY_COMPARE(nodes->rowCount(), 2);
    QCOMPARE(inspector->titleText(), KnownTitle); // still selected: it passed the filter
    typeCombo->setCurrentIndex(0);
    QTRY_COMPARE(nodes->rowCount(), facts.nodes);

    auto *counts = window.statusBar()->findChild<QLabel *>(QStringLiteral("countsStatus"));
    QTRY_VERIFY(counts->text().startsWith(QStringLiteral("%1 nodes").arg(facts.nodes)));

    // Screenshots: the Server page with a running listener and a few requests, and the Memory page.
    Ui::ServerPage *server = window.serverPage();
    server->onServerStarted(QStringLiteral("127.0.0.1"), 8080);
    server->appendRequest(makeRequest(QStringLiteral("/v1/memory/write"), 200,
                                      QStringLiteral("4f1c2a9e-6b0d-4c55-9a51-2d7f0f3b8e11")));
    server->appendRequest(makeRequest(QStringLiteral("/v1/memory/recall_text"), 200,
                                      QStringLiteral("a3e0b6c4-19d2-4f7a-8c3e-5b9d7e21f604")));
    server->appendRequest(makeRequest(QStringLiteral("/v1/memory/rules/evaluate"), 400,
                                      QStringLiteral("0d9b7c13-2e4f-4a86-b1c0-77e5f9a2c3d8")));
    QTRY_COMPARE(server->requestLogModel()->rowCount(), 3);
    QVERIFY(saveShot(&window, QStringLiteral("memory-page.png")));
    window.showPage(MainWindow::Page::Server);
    QVERIFY(saveShot(&window, QStringLiteral("server-page.png")));

    // Loading again re-sends the same client_ids: the nodes are updated in place, not duplicated.
    window.showPage(MainWindow::Page::Memory);
    QSignalSpy again(&window, &MainWindow::sampleMemoriesLoaded);
    window.loadSampleMemories();
    QTRY_COMPARE_WITH_TIMEOUT(again.count(), 1, 20000);
    QVERIFY2(again.at(0).at(0).toBool(), qPrintable(again.at(0).at(1).toString()));
    QTRY_COMPARE(page->totalNodes(), qint64(facts.nodes));
    QCOMPARE(nodes->rowCount(), facts.nodes);
}

void tst_MainWindow::pagesThroughLargeScopes()
{
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    QJsonArray bulk;
    for (int i = 0; i < 230; ++i) {
        bulk.append(QJsonObject{
            {QStringLiteral("client_id"), QStringLiteral("bulk-%1").arg(i)},
            {QStringLiteral("type"), QStringLiteral("event")},
            {QStringLiteral("title"), QStringLiteral("Bulk event %1").arg(i)},
            {QStringLiteral("text_summary"), QStringLiteral("Imported log line %1").arg(i)}});
    }
    QJsonObject body = Test::writeBody(bulk, {}, QStringLiteral("bulk import"));
    body.insert(QStringLiteral("scope"), QStringLiteral("bulk"));
    const auto request = WriteRequest::fromJson(body);
    QVERIFY2(request.ok(), request.ok() ? "" : qPrintable(request.error().message));
    const auto written = service->write(request.value(), RequestMeta{});
    QVERIFY2(written.ok(), written.ok() ? "" : qPrintable(written.error().message));

    MainWindow window(service.service());
    Ui::MemoryPage *page = window.memoryPage();
    page->selectScope(QStringLiteral("default"), QStringLiteral("bulk"));
    auto *label = page->findChild<QLabel *>(QStringLiteral("pageLabel"));
    auto *next = page->findChild<QPushButton *>(QStringLiteral("nextPageButton"));
    auto *previous = page->findChild<QPushButton *>(QStringLiteral("previousPageButton"));
    QVERIFY(label && next && previous);

    QTRY_COMPARE(label->text(), QStringLiteral("Rows 1\u2013100 of 230"));
    QCOMPARE(page->nodeModel()->rowCount(), Ui::MemoryPage::PageSize);
    QVERIFY(!previous->isEnabled());
    QVERIFY(next->isEnabled());

    next->click();
    QTRY_COMPARE(label->text(), QStringLiteral("Rows 101\u2013200 of 230"));
    next->click();
    QTRY_COMPARE(label->text(), QStringLiteral("Rows 201\u2013230 of 230"));
    QCOMPARE(page->nodeModel()->rowCount(), 30);
    QVERIFY(!next->isEnabled());
    previous->click();
    QTRY_COMPARE(label->text(), QStringLiteral("Rows 101\u2013200 of 230"));

    // A filter starts again from the first page.
    auto *tierCombo = page->findChild<QComboBox *>(QStringLiteral("tierCombo"));
    tierCombo->setCurrentIndex(tierCombo->findData(QStringLiteral("cold")));
    QTRY_COMPARE(label->text(), QStringLiteral("No nodes"));
    tierCombo->setCurrentIndex(0);
    QTRY_COMPARE(label->text(), QStringLiteral("Rows 1\u2013100 of 230"));
}

void tst_MainWindow::darkPaletteScreenshots()
{
    const SampleFacts facts = readSampleFacts();
    Test::TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));

    Ui::applyDarkPalette(*qApp);
    QVERIFY(Ui::isDarkPalette(QApplication::palette()));

    MainWindow window(service.service());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    waitForSamples(window, facts);

    Ui::MemoryPage *page = window.memoryPage();
    page->nodeView()->selectRow(0);
    QTRY_VERIFY(!page->inspector()->titleText().isEmpty());
    QTRY_VERIFY(page->commitModel()->rowCount() > 0);
    QVERIFY(saveShot(&window, QStringLiteral("memory-page-dark.png")));

    window.showPage(MainWindow::Page::Server);
    window.serverPage()->appendRequest(
        makeRequest(QStringLiteral("/v1/memory/write"), 200, QStringLiteral("req-dark-1")));
    window.serverPage()->appendRequest(
        makeRequest(QStringLiteral("/v1/memory/recall"), 503, QStringLiteral("req-dark-2")));
    QTRY_COMPARE(window.serverPage()->requestLogModel()->rowCount(), 2);
    QVERIFY(saveShot(&window, QStringLiteral("server-page-dark.png")));
}

QTEST_MAIN(tst_MainWindow)
#include "tst_mainwindow.moc"
