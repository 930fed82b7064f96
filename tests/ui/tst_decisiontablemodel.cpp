#include "ui/models/decisiontablemodel.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QTest>

using MemoryGraph::DecisionRecord;
using MemoryGraph::Ui::DecisionTableModel;
using Column = DecisionTableModel::Column;

namespace {

const QString PolicyHash
    = QStringLiteral("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");

DecisionRecord makeDecision(const QString &id, const QString &runId, const QString &selected)
{
    DecisionRecord d;
    d.id = id;
    d.tenantId = QStringLiteral("default");
    d.scope = QStringLiteral("default");
    d.kind = QStringLiteral("tools_select");
    d.runId = runId;
    d.selectedTool = selected;
    d.candidates = {QStringLiteral("shell"), QStringLiteral("search"), QStringLiteral("browser")};
    d.policySha256 = PolicyHash;
    d.sourceRuleIds = {QStringLiteral("rule-a"), QStringLiteral("rule-b")};
    d.createdAt = QDateTime(QDate(2024, 5, 6), QTime(7, 8, 9));
    return d;
}

QVariant cell(const DecisionTableModel &model, int row, Column column, int role = Qt::DisplayRole)
{
    return model.data(model.index(row, int(column)), role);
}

} // namespace

class tst_DecisionTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void startsEmptyWithNamedColumns();
    void showsDecisionFields();
    void flagsMissingSelection();
    void tooltipsCarryTheFullValues();
    void findsRowsById();
    void resetReplacesDecisions();
};

void tst_DecisionTableModel::startsEmptyWithNamedColumns()
{
    DecisionTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 6);
    const QStringList expected{QStringLiteral("Time"),          QStringLiteral("Run"),
                               QStringLiteral("Selected tool"), QStringLiteral("Candidates"),
                               QStringLiteral("Source rules"),  QStringLiteral("Policy hash")};
    for (int section = 0; section < expected.size(); ++section)
        QCOMPARE(model.headerData(section, Qt::Horizontal).toString(), expected.at(section));
    QCOMPARE(model.headerData(int(Column::Candidates), Qt::Horizontal, Qt::TextAlignmentRole)
                 .value<Qt::Alignment>(),
             Qt::AlignRight | Qt::AlignVCenter);
}

void tst_DecisionTableModel::showsDecisionFields()
{
    DecisionTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    DecisionRecord second
        = makeDecision(QStringLiteral("d2"), QString(), QStringLiteral("browser"));
    second.candidates = {QStringLiteral("browser")};
    second.sourceRuleIds.clear();
    model.setDecisions(
        {makeDecision(QStringLiteral("d1"), QStringLiteral("run-1"), QStringLiteral("search")),
         second});

    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(cell(model, 0, Column::Time).toString(),
             QDateTime(QDate(2024, 5, 6), QTime(7, 8, 9))
                 .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    QCOMPARE(cell(model, 0, Column::Run).toString(), QStringLiteral("run-1"));
    QCOMPARE(cell(model, 0, Column::SelectedTool).toString(), QStringLiteral("search"));
    QCOMPARE(cell(model, 0, Column::Candidates).toInt(), 3);
    QCOMPARE(cell(model, 0, Column::SourceRules).toInt(), 2);
    QCOMPARE(cell(model, 0, Column::PolicyHash).toString(), QStringLiteral("0123456789ab"));
    QCOMPARE(cell(model, 0, Column::SelectedTool, DecisionTableModel::DecisionIdRole).toString(),
             QStringLiteral("d1"));

    QCOMPARE(cell(model, 1, Column::Run).toString(), QStringLiteral("\u2014"));
    QCOMPARE(cell(model, 1, Column::Candidates).toInt(), 1);
    QCOMPARE(cell(model, 1, Column::SourceRules).toInt(), 0);
    QCOMPARE(cell(model, 1, Column::Time, DecisionTableModel::DecisionIdRole).toString(),
             QStringLiteral("d2"));

    QCOMPARE(cell(model, 0, Column::Candidates, Qt::TextAlignmentRole).value<Qt::Alignment>(),
             Qt::AlignRight | Qt::AlignVCenter);
    QVERIFY(!cell(model, 0, Column::SelectedTool, Qt::ForegroundRole).isValid());
    QVERIFY(!cell(model, 0, Column::SelectedTool, Qt::FontRole).isValid());
}

void tst_DecisionTableModel::flagsMissingSelection()
{
    DecisionTableModel model;
    model.setDecisions({makeDecision(QStringLiteral("d"), QStringLiteral("run"), QString())});
    QCOMPARE(cell(model, 0, Column::SelectedTool).toString(), QStringLiteral("(none)"));
    QVERIFY(cell(model, 0, Column::SelectedTool, Qt::ForegroundRole).isValid());
    QVERIFY(cell(model, 0, Column::SelectedTool, Qt::FontRole).value<QFont>().italic());
}

void tst_DecisionTableModel::tooltipsCarryTheFullValues()
{
    DecisionTableModel model;
    model.setDecisions(
        {makeDecision(QStringLiteral("d1"), QStringLiteral("run-1"), QStringLiteral("search"))});
    QVERIFY(cell(model, 0, Column::PolicyHash, Qt::ToolTipRole).toString().contains(PolicyHash));
    QCOMPARE(cell(model, 0, Column::Candidates, Qt::ToolTipRole).toString(),
             QStringLiteral("shell, search, browser"));
    QCOMPARE(cell(model, 0, Column::SourceRules, Qt::ToolTipRole).toString(),
             QStringLiteral("rule-a\nrule-b"));
    QVERIFY(
        cell(model, 0, Column::Time, Qt::ToolTipRole).toString().contains(QStringLiteral("d1")));
}

void tst_DecisionTableModel::findsRowsById()
{
    DecisionTableModel model;
    model.setDecisions({makeDecision(QStringLiteral("a"), QString(), QStringLiteral("x")),
                        makeDecision(QStringLiteral("b"), QString(), QStringLiteral("y"))});
    QCOMPARE(model.rowOf(QStringLiteral("b")), 1);
    QCOMPARE(model.rowOf(QStringLiteral("missing")), -1);
    QCOMPARE(model.decision(1).selectedTool, QStringLiteral("y"));
}

void tst_DecisionTableModel::resetReplacesDecisions()
{
    DecisionTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setDecisions({makeDecision(QStringLiteral("a"), QString(), QStringLiteral("x")),
                        makeDecision(QStringLiteral("b"), QString(), QStringLiteral("y"))});
    model.setDecisions(
        {makeDecision(QStringLiteral("c"), QStringLiteral("run-c"), QStringLiteral("z"))});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(cell(model, 0, Column::Run).toString(), QStringLiteral("run-c"));
    model.setDecisions({});
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.index(0, 0).isValid());
}

QTEST_MAIN(tst_DecisionTableModel)
#include "tst_decisiontablemodel.moc"
