// The data folder holds every tenant's memory: whatever the umask, the folder (and the index
// folder inside it) is 0700 and every file the service writes there is 0600.

#include "service/api/recallrequest.h"
#include "service/api/writerequest.h"
#include "service/core/config.h"
#include "service/core/vocabulary.h"
#include "service/lifecycle/maintenancescheduler.h"
#include "service/memoryservice.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <sys/types.h>

using namespace MemoryGraph;

namespace {

constexpr mode_t kFolderMode = 0700;
constexpr mode_t kFileMode = 0600;

mode_t modeOf(const QString &path)
{
    struct stat st
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return mode_t(-1);
    return st.st_mode & 07777;
}

QString octal(mode_t mode)
{
    return QStringLiteral("0%1").arg(uint(mode), 0, 8);
}

std::unique_ptr<MemoryService> openService(const QString &dataDir)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    auto config = ServiceConfig::fromEnvironment(env);
    if (!config)
        return nullptr;
    ServiceConfig c = config.value();
    c.dataDir = dataDir;
    auto opened = MemoryService::open(c);
    return opened ? std::move(opened).value() : nullptr;
}

QJsonArray unitVector()
{
    QJsonArray vector;
    for (int i = 0; i < Vocabulary::kEmbeddingDimension; ++i)
        vector.append(i == 0 ? 1.0 : 0.0);
    return vector;
}

/// Writes a node with a vector and recalls it, so the scope's vector index exists in memory.
bool writeAndRecall(MemoryService *service)
{
    const QJsonObject node{{QStringLiteral("client_id"), QStringLiteral("n1")},
                           {QStringLiteral("type"), QStringLiteral("event")},
                           {QStringLiteral("text_summary"), QStringLiteral("private memory")},
                           {QStringLiteral("embedding"), unitVector()}};
    auto write = WriteRequest::fromJson({{QStringLiteral("input_text"), QStringLiteral("x")},
                                         {QStringLiteral("nodes"), QJsonArray{node}}});
    if (!write || !service->write(write.value(), RequestMeta{}))
        return false;
    auto recall
        = RecallRequest::fromJson({{QStringLiteral("query_embedding"), unitVector()}}, false, 4096);
    return recall && service->recall(recall.value(), RequestMeta{});
}

/// Every folder under (and including) root, and every file, with the wrong mode.
QStringList wrongModes(const QString &root)
{
    QStringList wrong;
    if (modeOf(root) != kFolderMode)
        wrong << QStringLiteral("%1 is %2").arg(root, octal(modeOf(root)));
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const mode_t wanted = it.fileInfo().isDir() ? kFolderMode : kFileMode;
        if (modeOf(path) != wanted)
            wrong << QStringLiteral("%1 is %2, expected %3")
                         .arg(path, octal(modeOf(path)), octal(wanted));
    }
    return wrong;
}

QStringList entriesUnder(const QString &root)
{
    QStringList names;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        names << QDir(root).relativeFilePath(it.next());
    names.sort();
    return names;
}

} // namespace

class tst_FilePermissions : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void freshFolderIsOwnerOnly();
    void looseExistingFolderIsTightened();

private:
    mode_t m_savedUmask = 022;
};

void tst_FilePermissions::initTestCase()
{
    // The most permissive umask: any mode the service does not set itself would show as 0666/0777.
    m_savedUmask = ::umask(0);
}

void tst_FilePermissions::cleanupTestCase()
{
    ::umask(m_savedUmask);
}

void tst_FilePermissions::freshFolderIsOwnerOnly()
{
    QTemporaryDir base;
    QVERIFY(base.isValid());
    const QString dataDir = base.filePath(QStringLiteral("new/data"));

    auto service = openService(dataDir);
    QVERIFY(service);
    QVERIFY(writeAndRecall(service.get()));
    service->saveIndexes();
    {
        MaintenanceScheduler scheduler(service.get()); // writes maintenance.json
        scheduler.setInterval(std::chrono::hours(1));
        QSignalSpy finished(&scheduler, &MaintenanceScheduler::sweepFinished);
        scheduler.start(std::chrono::milliseconds(0));
        QVERIFY(finished.wait(10000));
        scheduler.stop();
    }

    // While open: the database with its -wal and -shm, the saved index, maintenance.json.
    const QStringList names = entriesUnder(dataDir);
    QVERIFY2(names.contains(QStringLiteral("memorygraph.sqlite-wal")),
             qPrintable(names.join(u' ')));
    QVERIFY2(names.contains(QStringLiteral("memorygraph.sqlite-shm")),
             qPrintable(names.join(u' ')));
    QVERIFY2(names.contains(QStringLiteral("maintenance.json")), qPrintable(names.join(u' ')));
    QVERIFY2(std::any_of(
                 names.begin(), names.end(),
                 [](const QString &n) { return n.startsWith(u"index/") && n.endsWith(u".mgvi"); }),
             qPrintable(names.join(u' ')));
    QStringList wrong = wrongModes(dataDir);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QStringLiteral("; "))));

    // After shutdown (which saves the indexes again) nothing was loosened.
    service.reset();
    wrong = wrongModes(dataDir);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QStringLiteral("; "))));
}

void tst_FilePermissions::looseExistingFolderIsTightened()
{
    QTemporaryDir base;
    QVERIFY(base.isValid());
    const QString dataDir = base.filePath(QStringLiteral("data"));
    QVERIFY(QDir().mkpath(dataDir + QStringLiteral("/index")));
    QVERIFY(::chmod(QFile::encodeName(dataDir).constData(), 0777) == 0);
    QVERIFY(::chmod(QFile::encodeName(dataDir + QStringLiteral("/index")).constData(), 0755) == 0);
    {
        // A database an older build left world-readable (an empty file is a valid new database).
        QFile old(dataDir + QStringLiteral("/memorygraph.sqlite"));
        QVERIFY(old.open(QIODevice::WriteOnly));
    }
    QVERIFY(::chmod(QFile::encodeName(dataDir + QStringLiteral("/memorygraph.sqlite")).constData(),
                    0644)
            == 0);

    auto service = openService(dataDir);
    QVERIFY(service);
    QVERIFY(writeAndRecall(service.get()));
    service->saveIndexes();
    const QStringList wrong = wrongModes(dataDir);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(QStringLiteral("; "))));
}

QTEST_GUILESS_MAIN(tst_FilePermissions)
#include "tst_filepermissions.moc"
