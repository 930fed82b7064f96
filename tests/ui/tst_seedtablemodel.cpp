#include "ui/models/seedtablemodel.h"

#include <QAbstractItemModelTester>
#include <QIcon>
#include <QTest>

using MemoryGraph::NodeRecord;
using MemoryGraph::RecallSeed;
using MemoryGraph::Ui::SeedTableModel;
using Column = SeedTableModel::Column;

namespace {

RecallSeed makeSeed(const QString &id, const QString &title, const QString &type, double similarity)
{
    RecallSeed s;
    s.node.id = id;
    s.node.type = type;
    s.node.tier = QStringLiteral("hot");
    s.node.memoryLane = QStringLiteral("shared");
    s.node.title = title;
    s.node.textSummary = title + QStringLiteral(" in detail");
    s.similarity = similarity;
    return s;
}

QVariant cell(const SeedTableModel &model, int row, Column column, int role = Qt::DisplayRole)
{
    return model.data(model.index(row, int(column)), role);
}

} // namespace

class tst_SeedTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void startsEmptyWithNamedColumns();
    void showsSeedFields();
    void saysWhichChannelFoundASeed();
    void titleFallsBackToSummary();
    void sortRoleIsNumeric();
    void findsRowsById();
    void resetReplacesSeeds();
};

void tst_SeedTableModel::startsEmptyWithNamedColumns()
{
    SeedTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 5);
    const QStringList expected{QStringLiteral("Title"), QStringLiteral("Type"),
                               QStringLiteral("Tier"), QStringLiteral("Similarity"),
                               QStringLiteral("Found by")};
    for (int section = 0; section < expected.size(); ++section)
        QCOMPARE(model.headerData(section, Qt::Horizontal).toString(), expected.at(section));
    QVERIFY(!model.index(0, 0).isValid());
}

void tst_SeedTableModel::showsSeedFields()
{
    SeedTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    RecallSeed warm = makeSeed(QStringLiteral("n2"), QStringLiteral("Token cache workaround"),
                               QStringLiteral("event"), 0.41234);
    warm.node.tier = QStringLiteral("warm");
    model.setSeeds({makeSeed(QStringLiteral("n1"), QStringLiteral("Sync stalls"),
                             QStringLiteral("entity"), 0.87654),
                    warm});

    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(cell(model, 0, Column::Title).toString(), QStringLiteral("Sync stalls"));
    QCOMPARE(cell(model, 0, Column::Type).toString(), QStringLiteral("entity"));
    QCOMPARE(cell(model, 1, Column::Tier).toString(), QStringLiteral("warm"));
    QCOMPARE(cell(model, 0, Column::Similarity).toString(), QStringLiteral("0.877"));
    QCOMPARE(cell(model, 1, Column::Similarity).toString(), QStringLiteral("0.412"));
    QCOMPARE(cell(model, 1, Column::Title, SeedTableModel::NodeIdRole).toString(),
             QStringLiteral("n2"));
    QCOMPARE(cell(model, 1, Column::Similarity, SeedTableModel::NodeIdRole).toString(),
             QStringLiteral("n2"));
    QVERIFY(cell(model, 0, Column::Title, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("Sync stalls in detail")));
    QVERIFY(
        cell(model, 0, Column::Title, Qt::ToolTipRole).toString().contains(QStringLiteral("n1")));
    QVERIFY(cell(model, 0, Column::Similarity, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("0.876540")));
    // The type column carries the graph's colour; numbers are right-aligned.
    QVERIFY(cell(model, 0, Column::Type, Qt::DecorationRole).canConvert<QIcon>());
    QVERIFY(!cell(model, 0, Column::Title, Qt::DecorationRole).isValid());
    QCOMPARE(cell(model, 0, Column::Similarity, Qt::TextAlignmentRole).toInt(),
             int(Qt::AlignRight | Qt::AlignVCenter));
    QCOMPARE(model.seed(1).node.title, QStringLiteral("Token cache workaround"));
}

void tst_SeedTableModel::saysWhichChannelFoundASeed()
{
    SeedTableModel model;
    RecallSeed both
        = makeSeed(QStringLiteral("b"), QStringLiteral("Both"), QStringLiteral("event"), 0.5);
    both.vectorRank = 2;
    both.lexicalRank = 1;
    RecallSeed dated
        = makeSeed(QStringLiteral("d"), QStringLiteral("Dated"), QStringLiteral("event"), 0.1);
    dated.timeRank = 3;
    RecallSeed meant
        = makeSeed(QStringLiteral("m"), QStringLiteral("Meant"), QStringLiteral("event"), 0.2);
    meant.lexicalRank = 5;
    meant.conceptRank = 1;
    model.setSeeds({both, dated, meant});
    QCOMPARE(cell(model, 0, Column::FoundBy).toString(), QStringLiteral("vec+word"));
    QCOMPARE(cell(model, 1, Column::FoundBy).toString(), QStringLiteral("date"));
    QCOMPARE(cell(model, 2, Column::FoundBy).toString(), QStringLiteral("word+sense"));
    QVERIFY(cell(model, 0, Column::FoundBy, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("vector #2, words #1")));
    QVERIFY(cell(model, 2, Column::FoundBy, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("words #5, word senses #1")));
}

void tst_SeedTableModel::titleFallsBackToSummary()
{
    SeedTableModel model;
    RecallSeed s = makeSeed(QStringLiteral("s"), QString(), QStringLiteral("event"), 0.5);
    s.node.textSummary = QStringLiteral("Only a summary");
    model.setSeeds({s});
    QCOMPARE(cell(model, 0, Column::Title).toString(), QStringLiteral("Only a summary"));
}

void tst_SeedTableModel::sortRoleIsNumeric()
{
    SeedTableModel model;
    model.setSeeds(
        {makeSeed(QStringLiteral("a"), QStringLiteral("A"), QStringLiteral("rule"), 0.25)});
    const QVariant value = cell(model, 0, Column::Similarity, SeedTableModel::SortRole);
    QCOMPARE(value.typeId(), QMetaType::Double);
    QCOMPARE(value.toDouble(), 0.25);
    QCOMPARE(cell(model, 0, Column::Type, SeedTableModel::SortRole).toString(),
             QStringLiteral("rule"));
}

void tst_SeedTableModel::findsRowsById()
{
    SeedTableModel model;
    model.setSeeds(
        {makeSeed(QStringLiteral("a"), QStringLiteral("A"), QStringLiteral("event"), 0.9),
         makeSeed(QStringLiteral("b"), QStringLiteral("B"), QStringLiteral("event"), 0.8)});
    QCOMPARE(model.rowOf(QStringLiteral("b")), 1);
    QCOMPARE(model.rowOf(QStringLiteral("missing")), -1);
}

void tst_SeedTableModel::resetReplacesSeeds()
{
    SeedTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSeeds(
        {makeSeed(QStringLiteral("a"), QStringLiteral("A"), QStringLiteral("event"), 0.9),
         makeSeed(QStringLiteral("b"), QStringLiteral("B"), QStringLiteral("topic"), 0.8)});
    model.setSeeds(
        {makeSeed(QStringLiteral("c"), QStringLiteral("C"), QStringLiteral("concept"), 0.7)});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(cell(model, 0, Column::Title).toString(), QStringLiteral("C"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.seeds().isEmpty());
}

QTEST_MAIN(tst_SeedTableModel)
#include "tst_seedtablemodel.moc"
