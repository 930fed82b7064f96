#include "ui/models/rankedtablemodel.h"

#include <QAbstractItemModelTester>
#include <QIcon>
#include <QTest>

using MemoryGraph::RankedEntry;
using MemoryGraph::Ui::RankedTableModel;
using Column = RankedTableModel::Column;

namespace {

RankedEntry entry(const QString &id, double activation, double score)
{
    RankedEntry e;
    e.id = id;
    e.activation = activation;
    e.score = score;
    return e;
}

QVariant cell(const RankedTableModel &model, int row, Column column, int role = Qt::DisplayRole)
{
    return model.data(model.index(row, int(column)), role);
}

} // namespace

class tst_RankedTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void startsEmptyWithNamedColumns();
    void showsEntriesWithKnownTitles();
    void unknownNodesShowTheirId();
    void sortRoleIsNumeric();
    void findsRowsById();
    void resetReplacesEntries();
};

void tst_RankedTableModel::startsEmptyWithNamedColumns()
{
    RankedTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 4);
    const QStringList expected{QStringLiteral("#"), QStringLiteral("Title"),
                               QStringLiteral("Activation"), QStringLiteral("Score")};
    for (int section = 0; section < expected.size(); ++section)
        QCOMPARE(model.headerData(section, Qt::Horizontal).toString(), expected.at(section));
}

void tst_RankedTableModel::showsEntriesWithKnownTitles()
{
    RankedTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QHash<QString, RankedTableModel::NodeInfo> info;
    info.insert(QStringLiteral("r1"),
                {QStringLiteral("Escalation policy"), QStringLiteral("concept")});
    info.insert(QStringLiteral("r2"),
                {QStringLiteral("Northwind Traders"), QStringLiteral("entity")});
    model.setRanked(
        {entry(QStringLiteral("r1"), 1.0, 0.9321), entry(QStringLiteral("r2"), 0.55, 0.4)}, info);

    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(cell(model, 0, Column::Rank).toInt(), 1);
    QCOMPARE(cell(model, 1, Column::Rank).toInt(), 2);
    QCOMPARE(cell(model, 0, Column::Title).toString(), QStringLiteral("Escalation policy"));
    QCOMPARE(cell(model, 1, Column::Title).toString(), QStringLiteral("Northwind Traders"));
    QCOMPARE(cell(model, 0, Column::Activation).toString(), QStringLiteral("1.000"));
    QCOMPARE(cell(model, 0, Column::Score).toString(), QStringLiteral("0.932"));
    QCOMPARE(cell(model, 1, Column::Activation).toString(), QStringLiteral("0.550"));
    QCOMPARE(cell(model, 1, Column::Score, RankedTableModel::NodeIdRole).toString(),
             QStringLiteral("r2"));
    QCOMPARE(cell(model, 0, Column::Title, Qt::ToolTipRole).toString(),
             QStringLiteral("concept node r1"));
    QVERIFY(cell(model, 0, Column::Title, Qt::DecorationRole).canConvert<QIcon>());
    QCOMPARE(cell(model, 0, Column::Score, Qt::TextAlignmentRole).toInt(),
             int(Qt::AlignRight | Qt::AlignVCenter));
    QVERIFY(!cell(model, 0, Column::Title, Qt::TextAlignmentRole).isValid());
    QCOMPARE(model.entry(1).score, 0.4);
}

void tst_RankedTableModel::unknownNodesShowTheirId()
{
    RankedTableModel model;
    model.setRanked({entry(QStringLiteral("beyond-the-subgraph"), 0.1, 0.05)});
    QCOMPARE(cell(model, 0, Column::Title).toString(), QStringLiteral("beyond-the-subgraph"));
    QCOMPARE(model.titleOf(QStringLiteral("beyond-the-subgraph")),
             QStringLiteral("beyond-the-subgraph"));
    QCOMPARE(cell(model, 0, Column::Title, Qt::ToolTipRole).toString(),
             QStringLiteral("Node beyond-the-subgraph"));
    QVERIFY(!cell(model, 0, Column::Title, Qt::DecorationRole).isValid());
}

void tst_RankedTableModel::sortRoleIsNumeric()
{
    RankedTableModel model;
    model.setRanked({entry(QStringLiteral("a"), 0.75, 0.125)});
    QCOMPARE(cell(model, 0, Column::Activation, RankedTableModel::SortRole).toDouble(), 0.75);
    QCOMPARE(cell(model, 0, Column::Score, RankedTableModel::SortRole).toDouble(), 0.125);
    QCOMPARE(cell(model, 0, Column::Rank, RankedTableModel::SortRole).toInt(), 1);
}

void tst_RankedTableModel::findsRowsById()
{
    RankedTableModel model;
    model.setRanked({entry(QStringLiteral("a"), 1, 1), entry(QStringLiteral("b"), 0.5, 0.5)});
    QCOMPARE(model.rowOf(QStringLiteral("b")), 1);
    QCOMPARE(model.rowOf(QStringLiteral("missing")), -1);
}

void tst_RankedTableModel::resetReplacesEntries()
{
    RankedTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRanked({entry(QStringLiteral("a"), 1, 1), entry(QStringLiteral("b"), 0.5, 0.5)});
    model.setRanked({entry(QStringLiteral("c"), 0.3, 0.2)},
                    {{QStringLiteral("c"), {QStringLiteral("C"), QString()}}});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(cell(model, 0, Column::Title).toString(), QStringLiteral("C"));
    QCOMPARE(cell(model, 0, Column::Title, Qt::ToolTipRole).toString(), QStringLiteral("Node c"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.index(0, 0).isValid());
}

QTEST_MAIN(tst_RankedTableModel)
#include "tst_rankedtablemodel.moc"
