// The Graph page before a start node is picked: the scope's most salient nodes in salience
// order, SalientBatch at a time with "Show more" until the scope (or the canvas cap) ends, the
// edges among what is drawn, and picking a node as before.

#include "tests/support/tempservice.h"
#include "ui/pages/graphpage.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/graphcanvas.h"
#include "ui/widgets/nodeactions.h"
#include "ui/widgets/scopepicker.h"

#include <QComboBox>
#include <QDir>
#include <QJsonArray>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>

using namespace MemoryGraph;
using MemoryGraph::Ui::GraphCanvas;
using MemoryGraph::Ui::GraphPage;

namespace {

constexpr int kWaitMs = 15000;
constexpr int kNodes = 60;

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

QProcessEnvironment quietEnv()
{
    QProcessEnvironment env;
    env.insert(s("EMBEDDING_PROVIDER"), s("none"));
    return env;
}

/// "n00" .. "n59"; n59 is the most salient.
QString clientIdOf(int i)
{
    return QStringLiteral("n%1").arg(i, 2, 10, QLatin1Char('0'));
}

QJsonObject edgeBetween(const QString &from, const QString &to)
{
    return {{s("type"), s("related_to")},
            {s("src"), QJsonObject{{s("client_id"), from}}},
            {s("dst"), QJsonObject{{s("client_id"), to}}}};
}

/// kNodes nodes of distinct salience in default/default, an edge inside the first batch and
/// one from the first batch to the second; returns the ids by client id.
QHash<QString, QString> writeRankedNodes(MemoryService *service)
{
    QJsonArray nodes;
    for (int i = 0; i < kNodes; ++i) {
        nodes.append(QJsonObject{{s("client_id"), clientIdOf(i)},
                                 {s("type"), i % 3 == 0 ? s("entity") : s("event")},
                                 {s("title"), s("Node %1").arg(clientIdOf(i))},
                                 {s("text_summary"), s("salience rank %1").arg(kNodes - i)},
                                 {s("salience"), 0.01 * (i + 1)}});
    }
    // n59 and n58 are in the first batch, n20 only in the second.
    const QJsonArray edges{edgeBetween(s("n59"), s("n58")), edgeBetween(s("n59"), s("n20"))};
    auto request = WriteRequest::fromJson(Test::writeBody(nodes, edges));
    QHash<QString, QString> ids;
    if (!request)
        return ids;
    auto written = service->write(request.value(), RequestMeta());
    if (!written)
        return ids;
    for (const auto &n : written.value().nodes)
        ids.insert(n.clientId, n.id);
    return ids;
}

/// Ids of the `count` most salient nodes, most salient first.
QStringList expectedTop(const QHash<QString, QString> &ids, int count)
{
    QStringList top;
    for (int i = kNodes - 1; i >= 0 && top.size() < count; --i)
        top << ids.value(clientIdOf(i));
    return top;
}

bool save(QWidget *widget, const QString &name)
{
    QCoreApplication::processEvents();
    const QString path = QDir(Test::testOutputDir()).filePath(name);
    const bool saved = widget->grab().save(path);
    if (saved)
        qInfo("screenshot: %s", qUtf8Printable(path));
    return saved;
}

} // namespace

class tst_GraphOverview : public QObject
{
    Q_OBJECT

private slots:
    void showsTheMostSalientInOrderAndMoreOnRequest();
    void pickingANodeKeepsTheNeighbourhood();
    void anEmptyScopeFillsInWhenNodesArrive();
};

void tst_GraphOverview::showsTheMostSalientInOrderAndMoreOnRequest()
{
    Test::TempService service(quietEnv());
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const auto ids = writeRankedNodes(service.service());
    QCOMPARE(ids.size(), kNodes);

    Ui::UiExecutor executor;
    GraphPage page(service.service(), &executor);
    page.resize(1200, 760);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    GraphCanvas *canvas = page.canvas();
    QPushButton *more = page.showMoreButton();

    // Nothing picked: the first batch, most salient first, with the edge inside it only.
    QTRY_COMPARE_WITH_TIMEOUT(canvas->nodeCount(), GraphPage::SalientBatch, kWaitMs);
    QVERIFY(page.isShowingOverview());
    QVERIFY(page.centreNodeId().isEmpty());
    QCOMPARE(canvas->nodeIds(), expectedTop(ids, GraphPage::SalientBatch));
    QCOMPARE(canvas->edgeCount(), 1);
    QCOMPARE(page.overviewTotal(), qint64(kNodes));
    QTRY_COMPARE(page.statusText(), s("The 25 most salient of 60 nodes \u00b7 1 edge. Double-click "
                                      "a node to draw its neighbourhood."));
    QVERIFY(more->isVisible());
    QVERIFY(more->isEnabled());
    QVERIFY(!page.overviewButton()->isVisible());
    QVERIFY(save(&page, s("graph-overview-first-batch.png")));

    // Show more adds the next batch to what is drawn, with the edge that joins the batches.
    QSignalSpy loaded(&page, &GraphPage::overviewLoaded);
    QTest::mouseClick(more, Qt::LeftButton);
    QVERIFY(loaded.wait(kWaitMs));
    QTRY_COMPARE_WITH_TIMEOUT(canvas->nodeCount(), 2 * GraphPage::SalientBatch, kWaitMs);
    QCOMPARE(canvas->nodeIds(), expectedTop(ids, 2 * GraphPage::SalientBatch));
    QCOMPARE(canvas->edgeCount(), 2);
    QVERIFY(canvas->containsNode(ids.value(s("n20"))));
    QVERIFY(more->isEnabled());

    // The last batch is short; then there is no more.
    QTest::mouseClick(more, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(canvas->nodeCount(), kNodes, kWaitMs);
    QCOMPARE(canvas->nodeIds(), expectedTop(ids, kNodes));
    QVERIFY(!more->isEnabled());
    QTRY_VERIFY(page.statusText().startsWith(s("All 60 nodes of the scope, most salient first")));
    QTRY_VERIFY(!canvas->isLayoutPending());
    QVERIFY(save(&page, s("graph-overview-all.png")));

    // F5 keeps what is shown.
    page.refresh();
    QVERIFY(loaded.wait(kWaitMs));
    QTRY_COMPARE_WITH_TIMEOUT(canvas->nodeCount(), kNodes, kWaitMs);
    QVERIFY(!more->isEnabled());
}

void tst_GraphOverview::pickingANodeKeepsTheNeighbourhood()
{
    Test::TempService service(quietEnv());
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const auto ids = writeRankedNodes(service.service());
    QCOMPARE(ids.size(), kNodes);

    Ui::UiExecutor executor;
    GraphPage page(service.service(), &executor);
    page.resize(1200, 760);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    GraphCanvas *canvas = page.canvas();
    QTRY_COMPARE_WITH_TIMEOUT(canvas->nodeCount(), GraphPage::SalientBatch, kWaitMs);

    // A click selects and inspects, as on any graph.
    const QString top = ids.value(s("n59"));
    canvas->selectNode(top);
    QTRY_COMPARE_WITH_TIMEOUT(page.nodeActions()->node().id, top, kWaitMs);
    QVERIFY(page.isShowingOverview());

    // A double-click picks it: its neighbourhood, as a search result would draw it.
    QSignalSpy neighbourhood(&page, &GraphPage::graphLoaded);
    const QPoint at = canvas->mapFromScene(canvas->nodePosition(top));
    QTest::mouseDClick(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QVERIFY(neighbourhood.wait(kWaitMs));
    QCOMPARE(page.centreNodeId(), top);
    QVERIFY(!page.isShowingOverview());
    QTRY_COMPARE_WITH_TIMEOUT(canvas->nodeCount(), 3, kWaitMs); // n59, n58 and n20
    QVERIFY(!page.showMoreButton()->isVisible());
    QVERIFY(page.overviewButton()->isVisible());
    QTRY_VERIFY(page.statusText().contains(s("around \u201cNode n59\u201d")));

    // A search result draws its node's neighbourhood as before.
    QTRY_VERIFY_WITH_TIMEOUT(page.searchResults()->count() > 0, kWaitMs);
    page.showNode(s("default"), s("default"), ids.value(s("n20")));
    QVERIFY(neighbourhood.wait(kWaitMs));
    QCOMPARE(page.centreNodeId(), ids.value(s("n20")));
    QTRY_COMPARE_WITH_TIMEOUT(canvas->nodeCount(), 2, kWaitMs);

    // "Most salient" goes back to the overview.
    QSignalSpy overview(&page, &GraphPage::overviewLoaded);
    QTest::mouseClick(page.overviewButton(), Qt::LeftButton);
    QVERIFY(overview.wait(kWaitMs));
    QVERIFY(page.isShowingOverview());
    QTRY_COMPARE_WITH_TIMEOUT(canvas->nodeIds(), expectedTop(ids, GraphPage::SalientBatch),
                              kWaitMs);
    QVERIFY(page.showMoreButton()->isVisible());
    QVERIFY(!page.overviewButton()->isVisible());
}

void tst_GraphOverview::anEmptyScopeFillsInWhenNodesArrive()
{
    Test::TempService service(quietEnv());
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    Ui::UiExecutor executor;
    GraphPage page(service.service(), &executor);
    page.resize(1000, 700);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    // The empty store lists no scope yet.
    QTRY_VERIFY_WITH_TIMEOUT(!page.scopePicker()->comboBox()->isEnabled(), kWaitMs);
    QCOMPARE(page.canvas()->nodeCount(), 0);
    QVERIFY(!page.showMoreButton()->isVisible());
    QVERIFY(!page.overviewButton()->isVisible());

    // Written elsewhere (an agent): the first scope appears and its nodes are drawn.
    MemoryService *svc = service.service();
    QFuture<QHash<QString, QString>> written
        = QtConcurrent::run([svc]() { return writeRankedNodes(svc); });
    written.waitForFinished();
    QCOMPARE(written.result().size(), kNodes);
    QTRY_COMPARE_WITH_TIMEOUT(page.canvas()->nodeCount(), GraphPage::SalientBatch, kWaitMs);
    QCOMPARE(page.canvas()->nodeIds(), expectedTop(written.result(), GraphPage::SalientBatch));
    QVERIFY(page.isShowingOverview());
}

QTEST_MAIN(tst_GraphOverview)
#include "tst_graphoverview.moc"
