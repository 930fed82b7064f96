#include "ui/models/commitlistmodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using MemoryGraph::CommitRecord;
using MemoryGraph::Ui::CommitListModel;
using Column = CommitListModel::Column;

namespace {

CommitRecord makeCommit(qint64 sequence)
{
    CommitRecord c;
    c.id = QStringLiteral("commit-%1").arg(sequence);
    c.sequence = sequence;
    c.kind = QStringLiteral("write");
    c.actor = QStringLiteral("system");
    c.commitHash = QStringLiteral("0123456789abcdef0123456789abcdef");
    c.uri = QStringLiteral("memorygraph://default/default/commit/") + c.id;
    c.createdAt = QDateTime(QDate(2024, 1, 2), QTime(3, 4, 5));
    return c;
}

QVariant cell(const CommitListModel &model, int row, Column column, int role = Qt::DisplayRole)
{
    return model.data(model.index(row, int(column)), role);
}

} // namespace

class tst_CommitListModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hasNamedColumns();
    void showsCommitFields();
    void resetReplacesList();
};

void tst_CommitListModel::hasNamedColumns()
{
    CommitListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 6);
    const QStringList expected{QStringLiteral("Seq"),  QStringLiteral("Time"),
                               QStringLiteral("Kind"), QStringLiteral("Actor"),
                               QStringLiteral("Hash"), QStringLiteral("Commit id")};
    for (int section = 0; section < expected.size(); ++section)
        QCOMPARE(model.headerData(section, Qt::Horizontal).toString(), expected.at(section));
}

void tst_CommitListModel::showsCommitFields()
{
    CommitListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCommits({makeCommit(2), makeCommit(1)});

    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(cell(model, 0, Column::Sequence).toLongLong(), 2);
    QCOMPARE(cell(model, 1, Column::Sequence).toLongLong(), 1);
    QCOMPARE(cell(model, 0, Column::Time).toString(),
             QDateTime(QDate(2024, 1, 2), QTime(3, 4, 5))
                 .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    QCOMPARE(cell(model, 0, Column::Kind).toString(), QStringLiteral("write"));
    QCOMPARE(cell(model, 0, Column::Actor).toString(), QStringLiteral("system"));
    // The hash column is shortened; the full hash stays reachable as a tooltip.
    QCOMPARE(cell(model, 0, Column::Hash).toString(), QStringLiteral("0123456789ab"));
    QCOMPARE(cell(model, 0, Column::Hash, Qt::ToolTipRole).toString(),
             QStringLiteral("0123456789abcdef0123456789abcdef"));
    QCOMPARE(cell(model, 1, Column::CommitId).toString(), QStringLiteral("commit-1"));
    QCOMPARE(cell(model, 1, Column::Kind, CommitListModel::CommitIdRole).toString(),
             QStringLiteral("commit-1"));
    QCOMPARE(cell(model, 0, Column::Sequence, Qt::TextAlignmentRole).toInt(),
             int(Qt::AlignRight | Qt::AlignVCenter));
}

void tst_CommitListModel::resetReplacesList()
{
    CommitListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setCommits({makeCommit(1), makeCommit(2), makeCommit(3)});
    model.setCommits({makeCommit(7)});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(cell(model, 0, Column::Sequence).toLongLong(), 7);
    model.setCommits({});
    QCOMPARE(model.rowCount(), 0);
}

QTEST_GUILESS_MAIN(tst_CommitListModel)
#include "tst_commitlistmodel.moc"
