#include "tests/support/tempservice.h"
#include "ui/uiexecutor.h"
#include "ui/widgets/graphcanvas.h"
#include "ui/widgets/graphlayout.h"
#include "ui/widgets/graphstyle.h"

#include <QDir>
#include <QElapsedTimer>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

using MemoryGraph::EdgeRecord;
using MemoryGraph::NodeRecord;
using MemoryGraph::Ui::GraphCanvas;

namespace {

const QStringList Types{QStringLiteral("event"),     QStringLiteral("entity"),
                        QStringLiteral("topic"),     QStringLiteral("concept"),
                        QStringLiteral("rule"),      QStringLiteral("evidence"),
                        QStringLiteral("procedure"), QStringLiteral("self_model")};
const QStringList Tiers{QStringLiteral("hot"), QStringLiteral("warm"), QStringLiteral("cold"),
                        QStringLiteral("archive")};

struct Graph
{
    QVector<NodeRecord> nodes;
    QVector<EdgeRecord> edges;
};

QString nodeId(int i)
{
    return QStringLiteral("node-%1").arg(i, 3, 10, QLatin1Char('0'));
}

/// A neighbourhood-shaped graph: a centre, a ring of hubs, leaves under the hubs and a few
/// cross links, listed centre first like the service does.
Graph makeGraph(int count)
{
    Graph g;
    for (int i = 0; i < count; ++i) {
        NodeRecord n;
        n.id = nodeId(i);
        n.type = Types.at(i % Types.size());
        n.tier = Tiers.at((i / 3) % Tiers.size());
        n.memoryLane = i % 5 == 0 ? QStringLiteral("private") : QStringLiteral("shared");
        n.title = QStringLiteral("Node %1 about %2").arg(i).arg(n.type);
        g.nodes.append(n);
    }
    const int hubs = std::min(12, std::max(0, count - 1));
    auto addEdge = [&g](int from, int to, double weight) {
        EdgeRecord e;
        e.id = QStringLiteral("edge-%1-%2").arg(from).arg(to);
        e.type = from % 2 ? QStringLiteral("part_of") : QStringLiteral("derived_from");
        e.fromId = nodeId(from);
        e.toId = nodeId(to);
        e.weight = weight;
        e.confidence = 0.8;
        g.edges.append(e);
    };
    for (int i = 1; i <= hubs; ++i)
        addEdge(0, i, 0.9);
    for (int i = hubs + 1; i < count; ++i)
        addEdge(i, 1 + (i * 7) % hubs, 0.2 + 0.1 * (i % 7));
    for (int i = hubs + 1; i + 17 < count; i += 23)
        addEdge(i, i + 17, 0.3);
    return g;
}

QHash<QString, QPointF> positionsOf(const GraphCanvas &canvas)
{
    QHash<QString, QPointF> out;
    for (const QString &id : canvas.nodeIds())
        out.insert(id, canvas.nodePosition(id));
    return out;
}

int countItems(const GraphCanvas &canvas, int type)
{
    int count = 0;
    const QList<QGraphicsItem *> items = canvas.scene()->items();
    for (const QGraphicsItem *item : items) {
        if (item->type() == type)
            ++count;
    }
    return count;
}

bool waitForLayout(GraphCanvas &canvas, QSignalSpy &spy)
{
    if (!canvas.isLayoutPending())
        return true;
    return spy.wait(30000);
}

} // namespace

class tst_GraphCanvas : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void emptyCanvasShowsPlaceholder();
    void smallGraphIsLaidOutAtOnce();
    void capsAtMaxNodesWithMoreMarker();
    void truncatedFlagShowsMarkerWithoutCount();
    void coloursDifferByType();
    void layoutIsDeterministic();
    void selectionAndActivationSignals();
    void mergeKeepsExistingPositions();
    void wheelAndKeysZoom();
    void measuresThreeHundredNodes();
};

void tst_GraphCanvas::emptyCanvasShowsPlaceholder()
{
    MemoryGraph::Ui::UiExecutor executor;
    GraphCanvas canvas(&executor);
    QCOMPARE(canvas.nodeCount(), 0);
    QVERIFY(!canvas.hasMoreMarker());
    canvas.setPlaceholderText(QStringLiteral("Pick a node"));
    QCOMPARE(canvas.placeholderText(), QStringLiteral("Pick a node"));
    QVERIFY(!canvas.isLayoutPending());
}

void tst_GraphCanvas::smallGraphIsLaidOutAtOnce()
{
    MemoryGraph::Ui::UiExecutor executor;
    GraphCanvas canvas(&executor);
    QSignalSpy changed(&canvas, &GraphCanvas::graphChanged);
    const Graph g = makeGraph(20);
    canvas.setGraph(g.nodes, g.edges);
    // Below the async threshold the items exist as soon as setGraph returns.
    QVERIFY(!canvas.isLayoutPending());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(canvas.nodeCount(), 20);
    QCOMPARE(countItems(canvas, GraphCanvas::NodeItemType), 20);
    QCOMPARE(canvas.edgeCount(), int(g.edges.size()));
    QCOMPARE(countItems(canvas, GraphCanvas::EdgeItemType), int(g.edges.size()));
    QVERIFY(!canvas.hasMoreMarker());
    QCOMPARE(canvas.node(nodeId(3)).title, QStringLiteral("Node 3 about concept"));

    // Edges to nodes that are not drawn are dropped quietly.
    Graph broken = g;
    EdgeRecord dangling;
    dangling.id = QStringLiteral("dangling");
    dangling.fromId = nodeId(1);
    dangling.toId = QStringLiteral("elsewhere");
    broken.edges.append(dangling);
    canvas.setGraph(broken.nodes, broken.edges);
    QCOMPARE(canvas.edgeCount(), int(g.edges.size()));
}

void tst_GraphCanvas::capsAtMaxNodesWithMoreMarker()
{
    MemoryGraph::Ui::UiExecutor executor;
    GraphCanvas canvas(&executor);
    canvas.resize(900, 700);
    QSignalSpy changed(&canvas, &GraphCanvas::graphChanged);

    // Exactly 300 nodes, with the source saying it held more back.
    const Graph full = makeGraph(GraphCanvas::MaxNodes);
    canvas.setGraph(full.nodes, full.edges, true);
    QVERIFY(canvas.isLayoutPending()); // above the threshold: laid out on the worker
    QVERIFY(waitForLayout(canvas, changed));
    QCOMPARE(canvas.nodeCount(), 300);
    QCOMPARE(countItems(canvas, GraphCanvas::NodeItemType), 300);
    QCOMPARE(countItems(canvas, GraphCanvas::MoreMarkerItemType), 1);
    QVERIFY(canvas.hasMoreMarker());

    // More than 300: the first 300 are drawn and the marker counts the rest.
    const Graph big = makeGraph(345);
    changed.clear();
    canvas.setGraph(big.nodes, big.edges, false);
    QVERIFY(waitForLayout(canvas, changed));
    QCOMPARE(countItems(canvas, GraphCanvas::NodeItemType), 300);
    QVERIFY(canvas.containsNode(nodeId(299)));
    QVERIFY(!canvas.containsNode(nodeId(300)));
    QCOMPARE(canvas.hiddenNodeCount(), 45);
    QCOMPARE(canvas.moreMarkerText(), QStringLiteral("+45 more"));
    QCOMPARE(countItems(canvas, GraphCanvas::MoreMarkerItemType), 1);

    // The marker stays in the visible corner whatever the zoom.
    QGraphicsItem *marker = nullptr;
    const QList<QGraphicsItem *> items = canvas.scene()->items();
    for (QGraphicsItem *item : items) {
        if (item->type() == GraphCanvas::MoreMarkerItemType)
            marker = item;
    }
    QVERIFY(marker);
    canvas.zoomIn();
    canvas.zoomIn();
    const QPoint markerInView = canvas.mapFromScene(marker->pos());
    QVERIFY(canvas.viewport()->rect().contains(markerInView));

    // A graph that fits removes the marker.
    const Graph small = makeGraph(10);
    canvas.setGraph(small.nodes, small.edges, false);
    QVERIFY(!canvas.hasMoreMarker());
    QCOMPARE(countItems(canvas, GraphCanvas::MoreMarkerItemType), 0);
}

void tst_GraphCanvas::truncatedFlagShowsMarkerWithoutCount()
{
    MemoryGraph::Ui::UiExecutor executor;
    GraphCanvas canvas(&executor);
    const Graph g = makeGraph(8);
    canvas.setGraph(g.nodes, g.edges, true);
    QVERIFY(canvas.hasMoreMarker());
    QCOMPARE(canvas.hiddenNodeCount(), 0);
    QCOMPARE(canvas.moreMarkerText(), QStringLiteral("+ more"));
}

void tst_GraphCanvas::coloursDifferByType()
{
    MemoryGraph::Ui::UiExecutor executor;
    GraphCanvas canvas(&executor);
    const Graph g = makeGraph(int(Types.size()));
    canvas.setGraph(g.nodes, g.edges);
    QSet<QRgb> colours;
    for (int i = 0; i < Types.size(); ++i) {
        const QColor c = canvas.nodeFillColor(nodeId(i));
        QVERIFY(c.isValid());
        QCOMPARE(c, MemoryGraph::Ui::GraphStyle::typeColor(Types.at(i)));
        colours.insert(c.rgb());
    }
    QCOMPARE(colours.size(), Types.size());
    // Unknown types share a neutral colour distinct from all known ones.
    QVERIFY(
        !colours.contains(MemoryGraph::Ui::GraphStyle::typeColor(QStringLiteral("mystery")).rgb()));

    // Every colour keeps some contrast against both the light and the dark base colour.
    for (const QString &type : Types) {
        const int lightness = MemoryGraph::Ui::GraphStyle::typeColor(type).lightness();
        QVERIFY2(lightness > 0x50 && lightness < 0xd0, qPrintable(type));
    }
}

void tst_GraphCanvas::layoutIsDeterministic()
{
    const Graph g = makeGraph(120);
    MemoryGraph::Ui::UiExecutor executor;
    GraphCanvas first(&executor);
    QSignalSpy firstChanged(&first, &GraphCanvas::graphChanged);
    first.setGraph(g.nodes, g.edges);
    QVERIFY(waitForLayout(first, firstChanged));
    const QHash<QString, QPointF> a = positionsOf(first);

    GraphCanvas second(&executor);
    QSignalSpy secondChanged(&second, &GraphCanvas::graphChanged);
    second.setGraph(g.nodes, g.edges);
    QVERIFY(waitForLayout(second, secondChanged));
    const QHash<QString, QPointF> b = positionsOf(second);

    QCOMPARE(a.size(), 120);
    QCOMPARE(a, b);

    // Setting the same graph again on the same canvas gives the same picture too.
    firstChanged.clear();
    first.setGraph(g.nodes, g.edges);
    QVERIFY(waitForLayout(first, firstChanged));
    QCOMPARE(positionsOf(first), a);

    // And nodes do not sit on top of each other.
    const QList<QPointF> points = a.values();
    double closest = 1e9;
    for (int i = 0; i < points.size(); ++i) {
        for (int j = i + 1; j < points.size(); ++j)
            closest = std::min(closest, QLineF(points.at(i), points.at(j)).length());
    }
    QVERIFY2(closest > 30.0, qPrintable(QString::number(closest)));
}

void tst_GraphCanvas::selectionAndActivationSignals()
{
    MemoryGraph::Ui::UiExecutor executor;
    GraphCanvas canvas(&executor);
    canvas.resize(640, 480);
    canvas.show();
    QVERIFY(QTest::qWaitForWindowExposed(&canvas));
    const Graph g = makeGraph(12);
    canvas.setGraph(g.nodes, g.edges);

    QSignalSpy selected(&canvas, &GraphCanvas::nodeSelected);
    QSignalSpy cleared(&canvas, &GraphCanvas::selectionCleared);
    QSignalSpy activated(&canvas, &GraphCanvas::nodeActivated);

    // A real click on a node's circle.
    const QString target = nodeId(5);
    const QPoint at = canvas.mapFromScene(canvas.nodePosition(target));
    QTest::mouseClick(canvas.viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.at(0).at(0).toString(), target);
    QCOMPARE(canvas.selectedNodeId(), target);

    // Programmatic selection reports the new node once, without a "cleared" in between.
    canvas.selectNode(nodeId(2));
    QCOMPARE(selected.count(), 2);
    QCOMPARE(selected.last().at(0).toString(), nodeId(2));
    QCOMPARE(cleared.count(), 0);
    canvas.selectNode(nodeId(2)); // already selected: no repeat
    QCOMPARE(selected.count(), 2);

    // Double-click activates; so does Enter on the selection.
    const QPoint other = canvas.mapFromScene(canvas.nodePosition(nodeId(7)));
    QTest::mouseDClick(canvas.viewport(), Qt::LeftButton, Qt::NoModifier, other);
    QVERIFY(activated.count() >= 1);
    QCOMPARE(activated.last().at(0).toString(), nodeId(7));
    canvas.setFocus();
    canvas.selectNode(nodeId(3));
    QTest::keyClick(&canvas, Qt::Key_Return);
    QCOMPARE(activated.last().at(0).toString(), nodeId(3));

    // Escape clears.
    QTest::keyClick(&canvas, Qt::Key_Escape);
    QVERIFY(canvas.selectedNodeId().isEmpty());
    QCOMPARE(cleared.count(), 1);
}

void tst_GraphCanvas::mergeKeepsExistingPositions()
{
    MemoryGraph::Ui::UiExecutor executor;
    GraphCanvas canvas(&executor);
    const Graph g = makeGraph(30);
    Graph first;
    first.nodes = g.nodes.mid(0, 10);
    for (const EdgeRecord &e : g.edges) {
        if (e.fromId < nodeId(10) && e.toId < nodeId(10))
            first.edges.append(e);
    }
    canvas.setGraph(first.nodes, first.edges);
    const QHash<QString, QPointF> before = positionsOf(canvas);

    canvas.mergeGraph(g.nodes, g.edges, false, nodeId(1));
    QCOMPARE(canvas.nodeCount(), 30);
    QCOMPARE(canvas.edgeCount(), int(g.edges.size()));
    // Known nodes move, but not far: the operator's picture survives the expansion.
    double moved = 0.0;
    for (auto it = before.cbegin(); it != before.cend(); ++it)
        moved += QLineF(it.value(), canvas.nodePosition(it.key())).length();
    moved /= before.size();
    qInfo("mean displacement of known nodes after expanding: %.1f", moved);
    QVERIFY2(moved < 400.0, qPrintable(QString::number(moved)));

    // Merging beyond the cap counts what was left out.
    const Graph big = makeGraph(320);
    canvas.setGraph(big.nodes.mid(0, 290), {});
    QSignalSpy changed(&canvas, &GraphCanvas::graphChanged);
    QVERIFY(waitForLayout(canvas, changed));
    changed.clear();
    canvas.mergeGraph(big.nodes, big.edges, false, nodeId(0));
    QVERIFY(waitForLayout(canvas, changed));
    QCOMPARE(canvas.nodeCount(), 300);
    QCOMPARE(canvas.hiddenNodeCount(), 20);
    QVERIFY(canvas.hasMoreMarker());
}

void tst_GraphCanvas::wheelAndKeysZoom()
{
    MemoryGraph::Ui::UiExecutor executor;
    GraphCanvas canvas(&executor);
    canvas.resize(640, 480);
    canvas.show();
    QVERIFY(QTest::qWaitForWindowExposed(&canvas));
    const Graph g = makeGraph(25);
    canvas.setGraph(g.nodes, g.edges);
    const qreal fitted = canvas.zoomFactor();
    QVERIFY(fitted > 0.0 && fitted <= 1.5);

    QWheelEvent up(QPointF(320, 240), canvas.viewport()->mapToGlobal(QPointF(320, 240)), QPoint(),
                   QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(canvas.viewport(), &up);
    QVERIFY(canvas.zoomFactor() > fitted);

    canvas.setFocus();
    QTest::keyClick(&canvas, Qt::Key_Minus);
    QTest::keyClick(&canvas, Qt::Key_Minus);
    QVERIFY(canvas.zoomFactor() < fitted * 1.2);
    QTest::keyClick(&canvas, Qt::Key_0);
    QVERIFY(qAbs(canvas.zoomFactor() - fitted) < 1e-6);
}

void tst_GraphCanvas::measuresThreeHundredNodes()
{
    MemoryGraph::Ui::UiExecutor executor;
    GraphCanvas canvas(&executor);
    canvas.resize(1000, 700);
    canvas.show();
    QVERIFY(QTest::qWaitForWindowExposed(&canvas));
    QSignalSpy changed(&canvas, &GraphCanvas::graphChanged);
    const Graph g = makeGraph(GraphCanvas::MaxNodes);

    QElapsedTimer timer;
    timer.start();
    canvas.setGraph(g.nodes, g.edges, true);
    QVERIFY(waitForLayout(canvas, changed));
    const qint64 laidOut = timer.elapsed();
    const QPixmap picture = canvas.grab();
    const qint64 total = timer.elapsed();
    QVERIFY(!picture.isNull());

    QElapsedTimer repaint;
    repaint.start();
    const QPixmap again = canvas.grab();
    const qint64 renderOnly = repaint.elapsed();

    qInfo(
        "300 nodes, %d edges: layout %lld ms (worker), ready after %lld ms, layout+render %lld ms, "
        "repaint %lld ms, %d labels shown",
        canvas.edgeCount(), canvas.lastLayoutMs(), laidOut, total, renderOnly,
        canvas.visibleLabelCount());
    const QString path
        = QDir(MemoryGraph::Test::testOutputDir()).filePath(QStringLiteral("graph-canvas-300.png"));
    QVERIFY(picture.save(path));
    qInfo("screenshot: %s", qUtf8Printable(path));

    // Zoomed in, more labels fit without overlapping.
    const int fittedLabels = canvas.visibleLabelCount();
    for (int i = 0; i < 6; ++i)
        canvas.zoomIn();
    QVERIFY(canvas.visibleLabelCount() >= fittedLabels);
}

QTEST_MAIN(tst_GraphCanvas)
#include "tst_graphcanvas.moc"
