#include "ui/models/requestlogmodel.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QTest>

using MemoryGraph::RequestLogEntry;
using MemoryGraph::Ui::RequestLogModel;
using Column = RequestLogModel::Column;

namespace {

RequestLogEntry makeEntry(int n, int status = 200)
{
    RequestLogEntry e;
    e.at = QDateTime(QDate(2024, 3, 4), QTime(10, 20, 30, 456));
    e.method = QStringLiteral("POST");
    e.path = QStringLiteral("/v1/memory/write");
    e.status = status;
    e.latencyMs = 12.345;
    e.tenantId = QStringLiteral("default");
    e.requestId = QStringLiteral("req-%1").arg(n);
    if (status >= 400)
        e.errorCode = QStringLiteral("invalid_request");
    return e;
}

QString requestId(const RequestLogModel &model, int row)
{
    return model.data(model.index(row, int(Column::RequestId))).toString();
}

} // namespace

class tst_RequestLogModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hasNamedColumns();
    void showsEntryFields();
    void newestEntryIsFirst();
    void dropsOldestBeyondBound();
    void keepsNewestOfOversizedBatch();
    void colorsErrorStatuses();
    void clearEmptiesLog();
};

void tst_RequestLogModel::hasNamedColumns()
{
    RequestLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.maxRows(), RequestLogModel::DefaultMaxRows);
    QCOMPARE(model.columnCount(), 7);
    const QStringList expected{QStringLiteral("Time"),         QStringLiteral("Method"),
                               QStringLiteral("Path"),         QStringLiteral("Status"),
                               QStringLiteral("Latency (ms)"), QStringLiteral("Tenant"),
                               QStringLiteral("Request id")};
    for (int section = 0; section < expected.size(); ++section)
        QCOMPARE(model.headerData(section, Qt::Horizontal).toString(), expected.at(section));
}

void tst_RequestLogModel::showsEntryFields()
{
    RequestLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.append({makeEntry(1)});
    QCOMPARE(model.rowCount(), 1);
    auto text = [&](Column column) { return model.data(model.index(0, int(column))).toString(); };
    QCOMPARE(text(Column::Time), QDateTime(QDate(2024, 3, 4), QTime(10, 20, 30, 456))
                                     .toLocalTime()
                                     .toString(QStringLiteral("HH:mm:ss.zzz")));
    QCOMPARE(text(Column::Method), QStringLiteral("POST"));
    QCOMPARE(text(Column::Path), QStringLiteral("/v1/memory/write"));
    QCOMPARE(text(Column::Status), QStringLiteral("200"));
    QCOMPARE(text(Column::Latency), QStringLiteral("12.3"));
    QCOMPARE(text(Column::Tenant), QStringLiteral("default"));
    QCOMPARE(text(Column::RequestId), QStringLiteral("req-1"));
}

void tst_RequestLogModel::newestEntryIsFirst()
{
    RequestLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.append({makeEntry(1), makeEntry(2)});
    model.append({makeEntry(3)});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(requestId(model, 0), QStringLiteral("req-3"));
    QCOMPARE(requestId(model, 1), QStringLiteral("req-2"));
    QCOMPARE(requestId(model, 2), QStringLiteral("req-1"));
    QCOMPARE(model.entry(0).requestId, QStringLiteral("req-3"));
}

void tst_RequestLogModel::dropsOldestBeyondBound()
{
    RequestLogModel model(3);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    for (int n = 1; n <= 5; ++n)
        model.append({makeEntry(n)});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.totalAppended(), 5);
    QCOMPARE(requestId(model, 0), QStringLiteral("req-5"));
    QCOMPARE(requestId(model, 2), QStringLiteral("req-3"));
}

void tst_RequestLogModel::keepsNewestOfOversizedBatch()
{
    RequestLogModel model(3);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.append({makeEntry(1)});
    model.append({makeEntry(2), makeEntry(3), makeEntry(4), makeEntry(5), makeEntry(6)});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(requestId(model, 0), QStringLiteral("req-6"));
    QCOMPARE(requestId(model, 1), QStringLiteral("req-5"));
    QCOMPARE(requestId(model, 2), QStringLiteral("req-4"));
}

void tst_RequestLogModel::colorsErrorStatuses()
{
    RequestLogModel model;
    model.append({makeEntry(1, 200), makeEntry(2, 404), makeEntry(3, 503)});
    auto status = [&](int row, int role) {
        return model.data(model.index(row, int(Column::Status)), role);
    };
    // Rows are newest first: 503, 404, 200.
    QVERIFY(status(0, Qt::ForegroundRole).value<QBrush>().color().isValid());
    QVERIFY(status(1, Qt::ForegroundRole).isValid());
    QVERIFY(!status(2, Qt::ForegroundRole).isValid());
    QCOMPARE(status(1, Qt::ToolTipRole).toString(), QStringLiteral("Error: invalid_request"));
}

void tst_RequestLogModel::clearEmptiesLog()
{
    RequestLogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.append({makeEntry(1), makeEntry(2)});
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    model.append({makeEntry(3)});
    QCOMPARE(model.rowCount(), 1);
}

QTEST_GUILESS_MAIN(tst_RequestLogModel)
#include "tst_requestlogmodel.moc"
