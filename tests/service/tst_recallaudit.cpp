#include "service/recall/recallaudit.h"
#include "service/storage/database.h"

#include <QElapsedTimer>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;

class tst_RecallAudit : public QObject
{
    Q_OBJECT

private slots:
    void aBurstOfRecallsIsWrittenTogether();
    void closingWritesWhatIsQueued();
};

namespace {

RecallStore::AuditRow row(int n)
{
    return {QStringLiteral("default"),
            QStringLiteral("default"),
            QStringLiteral("recall"),
            QStringLiteral("agent"),
            QString(),
            QStringLiteral("%1").arg(n, 64, 10, QLatin1Char('0')),
            n,
            n,
            0};
}

qint64 auditRows(Database &db)
{
    auto conn = db.connection();
    if (!conn)
        return -1;
    QSqlQuery q(conn.value());
    if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM recall_audit")) || !q.next())
        return -1;
    return q.value(0).toLongLong();
}

} // namespace

void tst_RecallAudit::aBurstOfRecallsIsWrittenTogether()
{
    QTemporaryDir dir;
    auto db = Database::open(dir.filePath(QStringLiteral("a.sqlite")));
    QVERIFY(db.ok());
    RecallAudit audit(*db.value());
    QElapsedTimer sinceFirst;
    sinceFirst.start();
    for (int n = 1; n <= 20; ++n)
        audit.record(row(n));
    const qint64 early = auditRows(*db.value());
    const bool stillGathering = sinceFirst.elapsed() < RecallAudit::kGatherMs;
    // Each recall is not its own transaction: within the gathering time nothing is written.
    if (stillGathering)
        QCOMPARE(early, qint64(0));
    QTRY_COMPARE_WITH_TIMEOUT(auditRows(*db.value()), qint64(20), 10000);
    if (!stillGathering)
        QSKIP("the machine was too slow to look within the gathering time");
}

void tst_RecallAudit::closingWritesWhatIsQueued()
{
    QTemporaryDir dir;
    auto db = Database::open(dir.filePath(QStringLiteral("a.sqlite")));
    QVERIFY(db.ok());
    {
        RecallAudit audit(*db.value());
        for (int n = 1; n <= 5; ++n)
            audit.record(row(n));
    }
    QCOMPARE(auditRows(*db.value()), qint64(5));
}

QTEST_GUILESS_MAIN(tst_RecallAudit)
#include "tst_recallaudit.moc"
