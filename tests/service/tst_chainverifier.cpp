#include "tests/support/tempservice.h"

#include <QDir>
#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTest>
#include <QUuid>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;

namespace {

QProcessEnvironment quietEnv()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    return env;
}

/// Writes `count` one-node commits into (tenant, scope).
bool writeCommits(MemoryService *svc, int count, const QString &tenant = QStringLiteral("default"),
                  const QString &scope = QStringLiteral("default"))
{
    for (int i = 0; i < count; ++i) {
        QJsonObject body = Test::writeBody(
            {QJsonObject{
                {QStringLiteral("client_id"), QStringLiteral("n-%1").arg(i)},
                {QStringLiteral("type"), QStringLiteral("event")},
                {QStringLiteral("text_summary"), QStringLiteral("event number %1").arg(i)}}},
            {}, QStringLiteral("input %1").arg(i));
        body.insert(QStringLiteral("tenant_id"), tenant);
        body.insert(QStringLiteral("scope"), scope);
        auto req = WriteRequest::fromJson(body);
        if (!req || !svc->write(req.value(), RequestMeta()))
            return false;
    }
    return true;
}

/// Runs one statement on a separate raw connection, as someone tampering with the file would.
bool tamper(const TempService &svc, const QString &sql)
{
    const QString name = QUuid::createUuid().toString();
    bool ok = false;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(QDir(svc.dataDir()).filePath(QStringLiteral("memorygraph.sqlite")));
        if (db.open()) {
            QSqlQuery q(db);
            ok = q.exec(sql) && q.numRowsAffected() > 0;
            if (!ok)
                qWarning() << q.lastError().text();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return ok;
}

QString commitIdAt(MemoryService *svc, qint64 sequence)
{
    auto commits = svc->listCommits(QStringLiteral("default"), QStringLiteral("default"), 0, 10000);
    if (commits) {
        for (const CommitRecord &c : commits.value()) {
            if (c.sequence == sequence)
                return c.id;
        }
    }
    return {};
}

/// Records every progress report.
struct ChainVerifierProbe
{
    QVector<Progress> seen;
    ProgressCallback callback()
    {
        return [this](const Progress &p) {
            seen.append(p);
            return true;
        };
    }
};

} // namespace

class tst_ChainVerifier : public QObject
{
    Q_OBJECT

private slots:
    void intactChainIsOk();
    void emptyScopeIsOk();
    void otherTenantChainUsesItsScopeKey();
    void changedDiffIsReported();
    void changedHashIsReported();
    void deletedMiddleCommitIsAGap();
    void changedParentIsReported();
    void changedIdIsReported();
    void consistentRewriteStillBreaksTheHash();
    void breakBeyondTheFirstPageIsFound();
    void progressCountsCommits();
    void cancelStopsVerification();
};

void tst_ChainVerifier::intactChainIsOk()
{
    TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 5));
    auto decay = svc->runAdaptiveDecay(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(decay && decay.value().committed()); // a job commit chains like any other

    auto report = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(report);
    QVERIFY(report.value().ok);
    QCOMPARE(report.value().commitsChecked, qint64(6));
    QVERIFY(!report.value().firstBreak);
    const QJsonObject json = report.value().toJson();
    QCOMPARE(json.value(QStringLiteral("ok")).toBool(), true);
    QCOMPARE(json.value(QStringLiteral("commits_checked")).toInt(), 6);
    QVERIFY(json.value(QStringLiteral("first_break")).isNull());
}

void tst_ChainVerifier::emptyScopeIsOk()
{
    TempService svc(quietEnv());
    auto report = svc->verifyChain(QStringLiteral("default"), QStringLiteral("nothing-here"));
    QVERIFY(report);
    QVERIFY(report.value().ok);
    QCOMPARE(report.value().commitsChecked, qint64(0));
}

void tst_ChainVerifier::otherTenantChainUsesItsScopeKey()
{
    TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 3, QStringLiteral("acme"), QStringLiteral("ops")));
    QVERIFY(writeCommits(svc.service(), 2));
    auto acme = svc->verifyChain(QStringLiteral("acme"), QStringLiteral("ops"));
    QVERIFY(acme);
    QVERIFY(acme.value().ok);
    QCOMPARE(acme.value().commitsChecked, qint64(3));
    auto mine = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(mine && mine.value().ok);
    QCOMPARE(mine.value().commitsChecked, qint64(2));
}

void tst_ChainVerifier::changedDiffIsReported()
{
    TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 5));
    QVERIFY(
        tamper(svc, QStringLiteral("UPDATE commits SET diff = replace(diff, 'event', 'tampered')"
                                   " WHERE seq = 3")));
    auto report = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(report);
    QVERIFY(!report.value().ok);
    QVERIFY(report.value().firstBreak);
    QCOMPARE(report.value().firstBreak->sequence, qint64(3));
    QCOMPARE(report.value().firstBreak->reason, QStringLiteral("diff_mismatch"));
    QCOMPARE(report.value().firstBreak->commitId, commitIdAt(svc.service(), 3));
    QCOMPARE(report.value().commitsChecked, qint64(3));
    QVERIFY(report.value().firstBreak->expected != report.value().firstBreak->found);
}

void tst_ChainVerifier::changedHashIsReported()
{
    TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 5));
    const QString forged = QString(64, QLatin1Char('a'));
    QVERIFY(tamper(
        svc, QStringLiteral("UPDATE commits SET commit_hash = '%1' WHERE seq = 3").arg(forged)));
    auto report = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(report && report.value().firstBreak);
    QCOMPARE(report.value().firstBreak->sequence, qint64(3));
    QCOMPARE(report.value().firstBreak->reason, QStringLiteral("hash_mismatch"));
    QCOMPARE(report.value().firstBreak->found, forged);
}

void tst_ChainVerifier::deletedMiddleCommitIsAGap()
{
    TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 5));
    QVERIFY(tamper(svc, QStringLiteral("DELETE FROM commits WHERE seq = 3")));
    auto report = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(report && report.value().firstBreak);
    QCOMPARE(report.value().firstBreak->sequence, qint64(4));
    QCOMPARE(report.value().firstBreak->reason, QStringLiteral("sequence_gap"));
    QCOMPARE(report.value().firstBreak->expected, QStringLiteral("3"));
    QCOMPARE(report.value().firstBreak->found, QStringLiteral("4"));
    QCOMPARE(report.value().commitsChecked, qint64(3));
}

void tst_ChainVerifier::changedParentIsReported()
{
    TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 4));
    QVERIFY(tamper(svc, QStringLiteral("UPDATE commits SET parent_hash = '%1' WHERE seq = 2")
                            .arg(QString(64, QLatin1Char('b')))));
    auto report = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(report && report.value().firstBreak);
    QCOMPARE(report.value().firstBreak->sequence, qint64(2));
    QCOMPARE(report.value().firstBreak->reason, QStringLiteral("parent_mismatch"));
}

void tst_ChainVerifier::changedIdIsReported()
{
    TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 4));
    const QString fake = QUuid::createUuid().toString(QUuid::WithoutBraces);
    QVERIFY(tamper(svc, QStringLiteral("UPDATE commits SET id = '%1' WHERE seq = 4").arg(fake)));
    auto report = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(report && report.value().firstBreak);
    QCOMPARE(report.value().firstBreak->sequence, qint64(4));
    QCOMPARE(report.value().firstBreak->reason, QStringLiteral("id_mismatch"));
    QCOMPARE(report.value().firstBreak->found, fake);
}

void tst_ChainVerifier::consistentRewriteStillBreaksTheHash()
{
    // Rewriting a diff together with its diff_sha256 does not help: the commit hash covers it.
    TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 3));
    QVERIFY(tamper(
        svc, QStringLiteral("UPDATE commits SET diff = '{}', diff_sha256 = '%1' WHERE seq = 2")
                 .arg(QStringLiteral(
                     "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"))));
    auto report = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(report && report.value().firstBreak);
    QCOMPARE(report.value().firstBreak->sequence, qint64(2));
    QCOMPARE(report.value().firstBreak->reason, QStringLiteral("hash_mismatch"));
}

void tst_ChainVerifier::breakBeyondTheFirstPageIsFound()
{
    // The verifier reads 500 commits per page; the break sits in the second page.
    TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 520));
    auto intact = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(intact && intact.value().ok);
    QCOMPARE(intact.value().commitsChecked, qint64(520));

    QVERIFY(tamper(svc, QStringLiteral("UPDATE commits SET actor = 'mallory' WHERE seq = 510")));
    auto report = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(report && report.value().firstBreak);
    QCOMPARE(report.value().firstBreak->sequence, qint64(510));
    QCOMPARE(report.value().firstBreak->reason, QStringLiteral("hash_mismatch"));
    QCOMPARE(report.value().commitsChecked, qint64(510));
}

void tst_ChainVerifier::progressCountsCommits()
{
    TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 12));
    ChainVerifierProbe probe;
    auto report
        = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"), probe.callback());
    QVERIFY(report && report.value().ok);
    QVERIFY(!probe.seen.isEmpty());
    QCOMPARE(probe.seen.first().stage, QStringLiteral("verifying commits"));
    QCOMPARE(probe.seen.first().done, qint64(0));
    QCOMPARE(probe.seen.first().total, qint64(12));
}

void tst_ChainVerifier::cancelStopsVerification()
{
    TempService svc(quietEnv());
    QVERIFY(writeCommits(svc.service(), 3));
    auto report = svc->verifyChain(QStringLiteral("default"), QStringLiteral("default"),
                                   [](const Progress &) { return false; });
    QVERIFY(!report);
    QCOMPARE(report.error().code, QStringLiteral("cancelled"));
    QVERIFY(report.error().message.contains(QStringLiteral("cancelled")));
}

QTEST_GUILESS_MAIN(tst_ChainVerifier)
#include "tst_chainverifier.moc"
