// Backup and restore of the whole store through the facade: a backup taken while another thread
// writes, cancel, checks on the file, restore (now and on the next start), and recall answering
// the same from the restored store before its vector index is rebuilt.

#include "service/storage/storecopy.h"
#include "tests/support/tempservice.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;
using MemoryGraph::Test::why;

namespace {

const QString kTenant = QStringLiteral("default");
const QString kScope = QStringLiteral("default");

QProcessEnvironment environment(const char *provider)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QString::fromLatin1(provider));
    return env;
}

/// One node per commit; a long summary so that a few hundred fill many SQLite pages.
bool writeNode(MemoryService *svc, const QString &clientId, const QString &summary)
{
    auto req = WriteRequest::fromJson(
        Test::writeBody({QJsonObject{{QStringLiteral("client_id"), clientId},
                                     {QStringLiteral("type"), QStringLiteral("event")},
                                     {QStringLiteral("title"), clientId},
                                     {QStringLiteral("text_summary"), summary}}},
                        {}, QStringLiteral("input ") + clientId));
    return req && svc->write(req.value(), RequestMeta()).ok();
}

QString filler(int i)
{
    return QStringLiteral("Entry %1 records what the team decided about release %1. ")
        .arg(i)
        .repeated(30);
}

const QStringList kFacts{
    QStringLiteral("The staging database listens on port 6543."),
    QStringLiteral("Alice prefers short answers without bullet lists."),
    QStringLiteral("Deploys happen on Tuesdays after the standup."),
    QStringLiteral("The office coffee machine is descaled every Friday."),
    QStringLiteral("Bob owns the billing service and its alerts."),
    QStringLiteral("Backups of the wiki run nightly at two in the morning."),
    QStringLiteral("The mobile app release train leaves every second Thursday."),
    QStringLiteral("Carol reviews every change to the payment gateway."),
    QStringLiteral("Production logs are kept for thirty days."),
    QStringLiteral("The design system uses an eight pixel grid."),
};

std::unique_ptr<MemoryService> openService(const QString &dataDir, const char *provider)
{
    auto config = ServiceConfig::fromEnvironment(environment(provider));
    if (!config)
        return nullptr;
    ServiceConfig c = config.value();
    c.dataDir = dataDir;
    auto opened = MemoryService::open(c);
    return opened ? std::move(opened).value() : nullptr;
}

QStringList seedIds(MemoryService *svc, const QString &query)
{
    auto req = RecallRequest::fromJson(
        {{QStringLiteral("query_text"), query}, {QStringLiteral("limit"), 5}}, true, 8000);
    if (!req)
        return {QStringLiteral("bad request")};
    auto r = svc->recallText(req.value(), RequestMeta());
    if (!r)
        return {QStringLiteral("recall failed: ") + r.error().message};
    QStringList ids;
    for (const RecallSeed &s : r.value().seeds)
        ids << s.node.id;
    return ids;
}

QStringList filesIn(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System);
}

} // namespace

class tst_StoreBackup : public QObject
{
    Q_OBJECT

private slots:
    void backupUnderConcurrentWrites();
    void backupReportsCountsAndIsOneFile();
    void cancelLeavesNoFile();
    void targetThatIsTheStoreIsRefused();
    void restoreThenRecallAnswersTheSame();
    void restoreKeepsThePreviousStore();
    void restoreRefusesAFileThatIsNoStore();
    void restoreRefusesANewerSchema();
    void cancelledRestoreChangesNothing();
    void pendingRestoreAppliesOnTheNextOpen();
    void pendingRestoreCanBeDiscarded();
};

void tst_StoreBackup::backupUnderConcurrentWrites()
{
    TempService svc(environment("none"));
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    for (int i = 0; i < 300; ++i)
        QVERIFY(writeNode(svc.service(), QStringLiteral("before-%1").arg(i), filler(i)));

    std::atomic<int> acknowledged{300};
    std::atomic<bool> stop{false};
    std::atomic<bool> writeFailed{false};
    std::thread writer([&]() {
        for (int i = 0; !stop.load(); ++i) {
            if (!writeNode(svc.service(), QStringLiteral("during-%1").arg(i), filler(i))) {
                writeFailed = true;
                return;
            }
            ++acknowledged;
        }
    });
    // Let the writer get going, then take the backup while it writes.
    QTRY_VERIFY(acknowledged.load() > 320);
    const int beforeBackup = acknowledged.load();
    const int commitsBefore = int(svc->health().commits);

    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("live.sqlite"));
    int steps = 0;
    Progress last;
    auto backup = svc->backup(file, [&](const Progress &p) {
        if (p.stage == QLatin1String("copying pages")) {
            ++steps;
            last = p;
            // Slow the copy down, so many writes land while it runs.
            std::this_thread::sleep_for(std::chrono::milliseconds(3));
        }
        return true;
    });
    const int whileBacking = acknowledged.load();
    stop = true;
    writer.join();
    QVERIFY(!writeFailed.load());
    QVERIFY2(backup, why(backup).constData());
    QVERIFY2(steps > 2, qPrintable(QStringLiteral("%1 steps").arg(steps)));
    QCOMPARE(last.done, last.total);
    QVERIFY2(whileBacking > beforeBackup, "no write landed while the backup ran");

    // Everything acknowledged before the backup began is in it; the copy opens and verifies.
    const StoreSummary &copied = backup.value().store;
    QVERIFY2(copied.nodes >= beforeBackup && copied.nodes <= whileBacking,
             qPrintable(QStringLiteral("%1 nodes, %2..%3 acknowledged")
                            .arg(copied.nodes)
                            .arg(beforeBackup)
                            .arg(whileBacking)));
    QVERIFY(copied.commits >= commitsBefore);

    QTemporaryDir restored;
    auto done = MemoryService::restoreDataDir(restored.path(), file);
    QVERIFY2(done, why(done).constData());
    auto reopened = openService(restored.path(), "none");
    QVERIFY(reopened);
    QCOMPARE(reopened->health().nodes, copied.nodes);
    auto chain = reopened->verifyChain(kTenant, kScope);
    QVERIFY2(chain, why(chain).constData());
    QVERIFY(chain.value().ok);
    QCOMPARE(chain.value().commitsChecked, copied.commits);
}

void tst_StoreBackup::backupReportsCountsAndIsOneFile()
{
    TempService svc(environment("none"));
    for (int i = 0; i < 5; ++i)
        QVERIFY(writeNode(svc.service(), QStringLiteral("n-%1").arg(i), kFacts.at(i)));
    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("copy.db"));
    auto backup = svc->backup(file);
    QVERIFY2(backup, why(backup).constData());
    QCOMPARE(backup.value().file, file);
    QCOMPARE(backup.value().store.nodes, qint64(5));
    QCOMPARE(backup.value().store.commits, svc->health().commits);
    QVERIFY(backup.value().store.schemaVersion > 0);
    QCOMPARE(backup.value().store.bytes, QFileInfo(file).size());
    // One owner-only file with a rollback journal: nothing beside it.
    QCOMPARE(filesIn(out.path()), QStringList{QStringLiteral("copy.db")});
    QCOMPARE(QFileInfo(file).permissions() & 0x0077, QFileDevice::Permissions());
    auto checked = StoreCopy::inspect(file, StoreCopy::Check::Full, {});
    QVERIFY2(checked, why(checked).constData());
    QCOMPARE(checked.value().nodes, qint64(5));
    QCOMPARE(filesIn(out.path()), QStringList{QStringLiteral("copy.db")});
}

void tst_StoreBackup::cancelLeavesNoFile()
{
    TempService svc(environment("none"));
    for (int i = 0; i < 200; ++i)
        QVERIFY(writeNode(svc.service(), QStringLiteral("n-%1").arg(i), filler(i)));
    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("copy.db"));
    int calls = 0;
    auto cancelled = svc->backup(file, [&calls](const Progress &) { return ++calls < 2; });
    QVERIFY(!cancelled);
    QCOMPARE(cancelled.error().code, QStringLiteral("cancelled"));
    QVERIFY(filesIn(out.path()).isEmpty());

    // Cancelled in the check of the copy, an older file of that name stays as it was.
    QFile old(file);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("an older backup");
    old.close();
    auto late
        = svc->backup(file, [](const Progress &p) { return p.stage != QLatin1String("checking"); });
    QVERIFY(!late);
    QCOMPARE(late.error().code, QStringLiteral("cancelled"));
    QCOMPARE(filesIn(out.path()), QStringList{QStringLiteral("copy.db")});
    QVERIFY(old.open(QIODevice::ReadOnly));
    QCOMPARE(old.readAll(), QByteArray("an older backup"));
}

void tst_StoreBackup::targetThatIsTheStoreIsRefused()
{
    TempService svc(environment("none"));
    QVERIFY(writeNode(svc.service(), QStringLiteral("n"), kFacts.at(0)));
    const QString store = QDir(svc.dataDir()).filePath(QStringLiteral("memorygraph.sqlite"));
    for (const QString &target : {store, store + QStringLiteral("-wal")}) {
        auto refused = svc->backup(target);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, QStringLiteral("invalid_target"));
    }
    auto noFolder = svc->backup(QDir(svc.dataDir()).filePath(QStringLiteral("missing/x.db")));
    QVERIFY(!noFolder);
    QCOMPARE(noFolder.error().code, QStringLiteral("invalid_target"));
    QCOMPARE(svc->health().nodes, qint64(1));
}

void tst_StoreBackup::restoreThenRecallAnswersTheSame()
{
    TempService svc(environment("local"));
    for (int i = 0; i < kFacts.size(); ++i)
        QVERIFY(writeNode(svc.service(), QStringLiteral("fact-%1").arg(i), kFacts.at(i)));
    QVERIFY(svc->waitForEmbeddings(30000));
    svc->waitForIndexes();
    const QStringList queries{QStringLiteral("Which port does the staging database use?"),
                              QStringLiteral("who looks after billing"),
                              QStringLiteral("when are deploys")};
    QList<QStringList> before;
    for (const QString &q : queries)
        before << seedIds(svc.service(), q);
    QVERIFY(!before.first().isEmpty());

    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("facts.sqlite"));
    QVERIFY(svc->backup(file));

    QTemporaryDir target;
    auto restored = MemoryService::restoreDataDir(target.path(), file);
    QVERIFY2(restored, why(restored).constData());
    QCOMPARE(restored.value().previousStore, QString());
    QCOMPARE(restored.value().store.nodes, qint64(kFacts.size()));
    QVERIFY(!QFileInfo::exists(QDir(target.path()).filePath(QStringLiteral("index"))));

    // Recall right after opening, with the index still to be built, answers as before.
    auto reopened = openService(target.path(), "local");
    QVERIFY(reopened);
    for (int i = 0; i < queries.size(); ++i)
        QCOMPARE(seedIds(reopened.get(), queries.at(i)), before.at(i));
    reopened->waitForIndexes();
    QCOMPARE(reopened->indexedVectorCount(kTenant, kScope), qint64(kFacts.size()));
    for (int i = 0; i < queries.size(); ++i)
        QCOMPARE(seedIds(reopened.get(), queries.at(i)), before.at(i));
}

void tst_StoreBackup::restoreKeepsThePreviousStore()
{
    TempService source(environment("local"));
    for (int i = 0; i < 3; ++i)
        QVERIFY(writeNode(source.service(), QStringLiteral("b-%1").arg(i), kFacts.at(i)));
    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("b.sqlite"));
    QVERIFY(source->backup(file));

    // A folder with a store of its own, index files saved, closed.
    QTemporaryDir folder;
    {
        auto own = openService(folder.path(), "local");
        QVERIFY(own);
        for (int i = 3; i < 10; ++i)
            QVERIFY(writeNode(own.get(), QStringLiteral("a-%1").arg(i), kFacts.at(i)));
        QVERIFY(own->waitForEmbeddings(30000));
        own->saveIndexes();
    }
    const QString indexes = QDir(folder.path()).filePath(QStringLiteral("index"));
    QVERIFY(!filesIn(indexes).isEmpty());

    auto restored = MemoryService::restoreDataDir(folder.path(), file);
    QVERIFY2(restored, why(restored).constData());
    QVERIFY(restored.value().indexFilesRemoved > 0);
    QVERIFY(filesIn(indexes).isEmpty());
    const QString kept = restored.value().previousStore;
    QVERIFY(kept.contains(QStringLiteral("memorygraph.sqlite.before-restore-")));
    auto previous = StoreCopy::inspect(kept, StoreCopy::Check::Full, {});
    QVERIFY2(previous, why(previous).constData());
    QCOMPARE(previous.value().nodes, qint64(7));

    auto reopened = openService(folder.path(), "local");
    QVERIFY(reopened);
    QCOMPARE(reopened->health().nodes, qint64(3));
    QVERIFY(reopened->verifyChain(kTenant, kScope).value().ok);
}

void tst_StoreBackup::restoreRefusesAFileThatIsNoStore()
{
    TempService svc(environment("none"));
    QVERIFY(writeNode(svc.service(), QStringLiteral("n"), kFacts.at(0)));
    const QString dataDir = svc.dataDir();
    svc.service()->saveIndexes();
    QTemporaryDir out;
    const QString text = QDir(out.path()).filePath(QStringLiteral("notes.txt"));
    QFile f(text);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray("not a database at all, just some words\n").repeated(200));
    f.close();
    const QStringList filesBefore = filesIn(dataDir);

    auto refused = MemoryService::restoreDataDir(dataDir, text);
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, QStringLiteral("not_a_store"));
    auto missing = MemoryService::restoreDataDir(dataDir, text + QStringLiteral(".missing"));
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, QStringLiteral("not_found"));
    QCOMPARE(filesIn(dataDir), filesBefore);
    QCOMPARE(svc->health().nodes, qint64(1));
}

void tst_StoreBackup::restoreRefusesANewerSchema()
{
    TempService svc(environment("none"));
    QVERIFY(writeNode(svc.service(), QStringLiteral("n"), kFacts.at(0)));
    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("future.sqlite"));
    QVERIFY(svc->backup(file));
    QCOMPARE(Test::runSqlOnFile(file, {QStringLiteral("INSERT INTO schema_migrations(version, "
                                                      "name, applied_at) VALUES (9999, 'x', 0)")}),
             QString());
    QTemporaryDir folder;
    auto refused = MemoryService::restoreDataDir(folder.path(), file);
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, QStringLiteral("schema_too_new"));
    QVERIFY(filesIn(folder.path()).isEmpty());
}

void tst_StoreBackup::cancelledRestoreChangesNothing()
{
    TempService svc(environment("none"));
    for (int i = 0; i < 100; ++i)
        QVERIFY(writeNode(svc.service(), QStringLiteral("n-%1").arg(i), filler(i)));
    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("b.sqlite"));
    QVERIFY(svc->backup(file));
    QTemporaryDir folder;
    auto cancelled = MemoryService::restoreDataDir(folder.path(), file,
                                                   [](const Progress &) { return false; });
    QVERIFY(!cancelled);
    QCOMPARE(cancelled.error().code, QStringLiteral("cancelled"));
    QVERIFY(filesIn(folder.path()).isEmpty());
}

void tst_StoreBackup::pendingRestoreAppliesOnTheNextOpen()
{
    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("b.sqlite"));
    QTemporaryDir folder;
    auto svc = openService(folder.path(), "none");
    QVERIFY(svc);
    for (int i = 0; i < 4; ++i)
        QVERIFY(writeNode(svc.get(), QStringLiteral("n-%1").arg(i), kFacts.at(i)));
    QVERIFY(svc->backup(file));
    QVERIFY(!svc->pendingRestore());

    auto scheduled = svc->scheduleRestore(file);
    QVERIFY2(scheduled, why(scheduled).constData());
    QCOMPARE(scheduled.value().store.nodes, qint64(4));
    auto pending = svc->pendingRestore();
    QVERIFY(pending);
    QCOMPARE(pending->source, file);
    QCOMPARE(pending->store.nodes, qint64(4));
    // The running store goes on as it was until the next start.
    for (int i = 4; i < 8; ++i)
        QVERIFY(writeNode(svc.get(), QStringLiteral("n-%1").arg(i), kFacts.at(i)));
    QCOMPARE(svc->health().nodes, qint64(8));
    svc.reset();

    // What a start does, holding the folder, before it opens the store.
    auto applied = MemoryService::applyPendingRestore(folder.path());
    QVERIFY2(applied, why(applied).constData());
    QVERIFY(applied.value());
    QCOMPARE(applied.value()->source, file);
    auto kept = StoreCopy::inspect(applied.value()->previousStore, StoreCopy::Check::Full, {});
    QVERIFY2(kept, why(kept).constData());
    QCOMPARE(kept.value().nodes, qint64(8));

    svc = openService(folder.path(), "none");
    QVERIFY(svc);
    QCOMPARE(svc->health().nodes, qint64(4));
    QVERIFY(!svc->pendingRestore());
    QVERIFY(svc->verifyChain(kTenant, kScope).value().ok);
    auto again = MemoryService::applyPendingRestore(folder.path());
    QVERIFY(again);
    QVERIFY(!again.value());
}

void tst_StoreBackup::pendingRestoreCanBeDiscarded()
{
    TempService svc(environment("none"));
    QVERIFY(writeNode(svc.service(), QStringLiteral("n"), kFacts.at(0)));
    QTemporaryDir out;
    const QString file = QDir(out.path()).filePath(QStringLiteral("b.sqlite"));
    QVERIFY(svc->backup(file));
    const QStringList filesBefore = filesIn(svc.dataDir());
    QVERIFY(svc->scheduleRestore(file));
    QVERIFY(svc->pendingRestore());
    svc->discardPendingRestore();
    QVERIFY(!svc->pendingRestore());
    QCOMPARE(filesIn(svc.dataDir()), filesBefore);
    auto nothing = MemoryService::applyPendingRestore(svc.dataDir());
    QVERIFY(nothing);
    QVERIFY(!nothing.value());
}

QTEST_GUILESS_MAIN(tst_StoreBackup)
#include "tst_storebackup.moc"
