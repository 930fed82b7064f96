#include "ui/models/nodetablemodel.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QColor>
#include <QTest>

using MemoryGraph::NodeRecord;
using MemoryGraph::Ui::NodeTableModel;
using Column = NodeTableModel::Column;

namespace {

NodeRecord makeNode(const QString &id, const QString &title)
{
    NodeRecord n;
    n.id = id;
    n.tenantId = QStringLiteral("default");
    n.scope = QStringLiteral("default");
    n.clientId = QStringLiteral("client-") + id;
    n.type = QStringLiteral("event");
    n.tier = QStringLiteral("hot");
    n.memoryLane = QStringLiteral("shared");
    n.ownerAgentId = QStringLiteral("support-agent");
    n.title = title;
    n.textSummary = title + QStringLiteral(" summary");
    n.embeddingStatus = QStringLiteral("ready");
    n.embeddingModel = QStringLiteral("local");
    n.updatedAt = QDateTime(QDate(2024, 5, 6), QTime(7, 8, 9));
    return n;
}

QVariant cell(const NodeTableModel &model, int row, Column column, int role = Qt::DisplayRole)
{
    return model.data(model.index(row, int(column)), role);
}

} // namespace

class tst_NodeTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void startsEmptyWithNamedColumns();
    void showsNodeFields();
    void flagsEmbeddingProblems();
    void notRequestedEmbeddingIsNotAnError();
    void ownerFallsBackToTeamThenDash();
    void titleFallsBackToSummary();
    void findsRowsById();
    void resetReplacesPage();
};

void tst_NodeTableModel::startsEmptyWithNamedColumns()
{
    NodeTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 9);
    const QStringList expected{
        QStringLiteral("Title"),   QStringLiteral("Type"),      QStringLiteral("Tier"),
        QStringLiteral("Lane"),    QStringLiteral("Owner"),     QStringLiteral("Embedding"),
        QStringLiteral("Updated"), QStringLiteral("Client id"), QStringLiteral("Id")};
    for (int section = 0; section < expected.size(); ++section)
        QCOMPARE(model.headerData(section, Qt::Horizontal).toString(), expected.at(section));
}

void tst_NodeTableModel::showsNodeFields()
{
    NodeTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setNodes({makeNode(QStringLiteral("n1"), QStringLiteral("First")),
                    makeNode(QStringLiteral("n2"), QStringLiteral("Second"))});

    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(cell(model, 1, Column::Title).toString(), QStringLiteral("Second"));
    QCOMPARE(cell(model, 1, Column::Title, Qt::ToolTipRole).toString(),
             QStringLiteral("Second summary"));
    QCOMPARE(cell(model, 0, Column::Type).toString(), QStringLiteral("event"));
    QCOMPARE(cell(model, 0, Column::Tier).toString(), QStringLiteral("hot"));
    QCOMPARE(cell(model, 0, Column::Lane).toString(), QStringLiteral("shared"));
    QCOMPARE(cell(model, 0, Column::Owner).toString(), QStringLiteral("support-agent"));
    QCOMPARE(cell(model, 0, Column::Embedding).toString(), QStringLiteral("ready"));
    QCOMPARE(cell(model, 0, Column::Updated).toString(),
             QDateTime(QDate(2024, 5, 6), QTime(7, 8, 9))
                 .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    QCOMPARE(cell(model, 0, Column::ClientId).toString(), QStringLiteral("client-n1"));
    QCOMPARE(cell(model, 0, Column::Id).toString(), QStringLiteral("n1"));
    QCOMPARE(cell(model, 1, Column::Type, NodeTableModel::NodeIdRole).toString(),
             QStringLiteral("n2"));
    QCOMPARE(model.node(1).title, QStringLiteral("Second"));
    QVERIFY(!cell(model, 0, Column::Embedding, Qt::ForegroundRole).isValid());
}

void tst_NodeTableModel::flagsEmbeddingProblems()
{
    NodeTableModel model;
    NodeRecord failed = makeNode(QStringLiteral("f"), QStringLiteral("Failed"));
    failed.embeddingStatus = QStringLiteral("failed");
    failed.embeddingError = QStringLiteral("no_embed_text");
    NodeRecord pending = makeNode(QStringLiteral("p"), QStringLiteral("Pending"));
    pending.embeddingStatus = QStringLiteral("pending");
    model.setNodes({failed, pending});
    QVERIFY(cell(model, 0, Column::Embedding, Qt::ForegroundRole).isValid());
    QVERIFY(cell(model, 1, Column::Embedding, Qt::ForegroundRole).isValid());
    QCOMPARE(cell(model, 0, Column::Embedding, Qt::ToolTipRole).toString(),
             QStringLiteral("Error: no_embed_text"));
}

void tst_NodeTableModel::notRequestedEmbeddingIsNotAnError()
{
    NodeTableModel model;
    NodeRecord quiet = makeNode(QStringLiteral("q"), QStringLiteral("Replay step"));
    quiet.embeddingStatus = QStringLiteral("failed");
    quiet.embeddingError = QStringLiteral("auto_embed_disabled_or_no_provider");
    NodeRecord broken = makeNode(QStringLiteral("b"), QStringLiteral("Broken"));
    broken.embeddingStatus = QStringLiteral("failed");
    broken.embeddingError = QStringLiteral("provider_timeout");
    model.setNodes({quiet, broken});

    QCOMPARE(cell(model, 0, Column::Embedding).toString(), QStringLiteral("not requested"));
    QCOMPARE(cell(model, 1, Column::Embedding).toString(), QStringLiteral("failed"));
    const QColor quietColour
        = cell(model, 0, Column::Embedding, Qt::ForegroundRole).value<QBrush>().color();
    const QColor failedColour
        = cell(model, 1, Column::Embedding, Qt::ForegroundRole).value<QBrush>().color();
    QVERIFY(quietColour != failedColour);
    QCOMPARE(cell(model, 1, Column::Embedding, Qt::ToolTipRole).toString(),
             QStringLiteral("Error: provider_timeout"));
}

void tst_NodeTableModel::ownerFallsBackToTeamThenDash()
{
    NodeTableModel model;
    NodeRecord team = makeNode(QStringLiteral("t"), QStringLiteral("Team owned"));
    team.ownerAgentId.clear();
    team.ownerTeamId = QStringLiteral("tier2");
    NodeRecord none = makeNode(QStringLiteral("u"), QStringLiteral("Unowned"));
    none.ownerAgentId.clear();
    model.setNodes({team, none});

    QCOMPARE(cell(model, 0, Column::Owner).toString(), QStringLiteral("team tier2"));
    QCOMPARE(cell(model, 1, Column::Owner).toString(), QStringLiteral("\u2014"));
}

void tst_NodeTableModel::titleFallsBackToSummary()
{
    NodeTableModel model;
    NodeRecord n = makeNode(QStringLiteral("s"), QString());
    n.textSummary = QStringLiteral("Only a summary");
    model.setNodes({n});
    QCOMPARE(cell(model, 0, Column::Title).toString(), QStringLiteral("Only a summary"));
}

void tst_NodeTableModel::findsRowsById()
{
    NodeTableModel model;
    model.setNodes({makeNode(QStringLiteral("a"), QStringLiteral("A")),
                    makeNode(QStringLiteral("b"), QStringLiteral("B"))});
    QCOMPARE(model.rowOf(QStringLiteral("b")), 1);
    QCOMPARE(model.rowOf(QStringLiteral("missing")), -1);
}

void tst_NodeTableModel::resetReplacesPage()
{
    NodeTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setNodes({makeNode(QStringLiteral("a"), QStringLiteral("A")),
                    makeNode(QStringLiteral("b"), QStringLiteral("B"))});
    model.setNodes({makeNode(QStringLiteral("c"), QStringLiteral("C"))});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(cell(model, 0, Column::Title).toString(), QStringLiteral("C"));
    model.setNodes({});
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.index(0, 0).isValid());
}

QTEST_GUILESS_MAIN(tst_NodeTableModel)
#include "tst_nodetablemodel.moc"
