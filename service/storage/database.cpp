#include "service/storage/database.h"

#include "service/core/ids.h"
#include "service/core/privatefiles.h"
#include "service/storage/conceptindex.h"
#include "service/storage/schema.h"
#include "service/storage/textindexqueue.h"
#include "service/storage/textrank.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QLoggingCategory>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <QThreadStorage>

#include <atomic>
#include <vector>

Q_LOGGING_CATEGORY(lcStorage, "memorygraph.service.storage")

namespace MemoryGraph {

namespace {

/// Closes the connections a thread opened when that thread ends, so pool threads that expire
/// do not leave SQLite handles behind. QThreadStorage (not thread_local) because Qt runs its
/// cleanup inside the thread before QThread::wait() returns, so it never races process exit.
///
/// It also keeps the prepared statements of runCachedSql(), per connection. They are dropped
/// before their connection; a connection that its Database closed first (the thread outlived
/// the store) finalises them itself when it closes, so dropping them later is harmless.
struct ThreadConnections
{
    /// Statements a connection keeps at the most; past it the cache starts over.
    static constexpr int kMaxStatements = 64;

    std::vector<QString> names;
    QHash<QString, QHash<QString, QSqlQuery>> statements; // connection name -> SQL -> statement

    ~ThreadConnections()
    {
        statements.clear();
        for (const QString &name : names)
            QSqlDatabase::removeDatabase(name);
    }
};

QThreadStorage<ThreadConnections *> &threadConnections()
{
    static auto *storage = new QThreadStorage<ThreadConnections *>(); // outlives every thread
    return *storage;
}

quint64 threadSerial()
{
    static std::atomic<quint64> counter{0};
    thread_local const quint64 serial = ++counter;
    return serial;
}

Error sqlError(const QString &what, const QSqlError &error)
{
    qCWarning(lcStorage) << what << error.text();
    return Error::internal(QStringLiteral("storage error: ") + what + QStringLiteral(": ")
                           + error.text());
}

} // namespace

Database::Database(const QString &filePath) : m_filePath(filePath), m_instanceTag(randomUuid()) { }

Database::~Database()
{
    m_checkpointer.reset(); // its thread uses a connection of this store
    // Connections of threads that are still alive are closed here; their thread-exit cleanup
    // then finds the names already gone.
    const QStringList names = QSqlDatabase::connectionNames();
    for (const QString &name : names) {
        if (name.startsWith(m_instanceTag))
            QSqlDatabase::removeDatabase(name);
    }
}

Result<std::unique_ptr<Database>> Database::open(const QString &filePath)
{
    // SQLite creates a new database 0644 and gives its -wal and -shm files the database's mode,
    // so an owner-only file made here first keeps all three private.
    if (auto created = PrivateFiles::ensureFile(filePath); !created)
        return created.error();
    std::unique_ptr<Database> db(new Database(filePath));
    auto conn = db->connection();
    if (!conn)
        return conn.error();
    auto migrated = db->migrate();
    if (!migrated)
        return migrated.error();
    db->restrictCompanionFiles();
    db->startCheckpointer();
    return db;
}

void Database::restrictCompanionFiles() const
{
    // Files left by an older build may carry the looser mode.
    for (const char *suffix : {"-wal", "-shm", "-journal"})
        PrivateFiles::restrictFile(m_filePath + QLatin1String(suffix));
}

Result<QSqlDatabase> Database::connection() const
{
    const QString name = m_instanceTag + QLatin1Char('-') + QString::number(threadSerial());
    if (QSqlDatabase::contains(name))
        return QSqlDatabase::database(name, false);

    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(m_filePath);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000"));
    if (!db.open()) {
        const QSqlError err = db.lastError();
        db = QSqlDatabase();
        QSqlDatabase::removeDatabase(name);
        return sqlError(QStringLiteral("cannot open ") + m_filePath, err);
    }
    if (!threadConnections().hasLocalData())
        threadConnections().setLocalData(new ThreadConnections);
    threadConnections().localData()->names.push_back(name);
    // WAL gives concurrent readers with one writer; FULL sync makes every acknowledged commit
    // survive a crash or power loss.
    // The WAL is checkpointed by the Checkpointer's thread, not by the commit that crosses the
    // threshold; the automatic one stays only as a bound (about 40 MB) should that thread fall
    // behind.
    for (const char *pragma :
         {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON",
          "PRAGMA temp_store=MEMORY", "PRAGMA wal_autocheckpoint=10000"}) {
        QSqlQuery q(db);
        if (!q.exec(QString::fromLatin1(pragma)))
            return sqlError(QString::fromLatin1(pragma), q.lastError());
    }
    // Every write that changes a node's text calls it (TextIndexQueue).
    if (auto registered = ConceptIndex::registerSqlFunction(db); !registered)
        return registered.error();
    // The text channels rank their matches with it.
    if (auto registered = TextRank::registerFunction(db); !registered)
        return registered.error();
    return db;
}

Result<void> Database::write(const std::function<Result<void>(QSqlDatabase &)> &work)
{
    QMutexLocker lock(&m_writeLock);
    auto conn = connection();
    if (!conn)
        return conn.error();
    QSqlDatabase db = conn.value();
    QSqlQuery begin(db);
    if (!begin.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return sqlError(QStringLiteral("begin"), begin.lastError());
    Result<void> result = work(db);
    if (result.ok()) // the nodes' words and senses, one index statement for the whole write
        result = TextIndexQueue::indexQueued(db);
    QSqlQuery end(db);
    if (!result.ok()) {
        end.exec(QStringLiteral("ROLLBACK"));
        return result;
    }
    if (!end.exec(QStringLiteral("COMMIT"))) {
        const QSqlError err = end.lastError();
        QSqlQuery(db).exec(QStringLiteral("ROLLBACK"));
        return sqlError(QStringLiteral("commit"), err);
    }
    if (m_checkpointer)
        m_checkpointer->committed();
    return {};
}

void Database::startCheckpointer()
{
    m_checkpointer = std::make_unique<Checkpointer>([this] {
        auto conn = connection();
        if (!conn)
            return;
        // PASSIVE: copies what no reader still needs and never blocks a writer or a reader.
        QSqlQuery q(conn.value());
        if (!q.exec(QStringLiteral("PRAGMA wal_checkpoint(PASSIVE)")))
            qCWarning(lcStorage) << "checkpoint failed:" << q.lastError().text();
    });
}

void Database::waitForCheckpoint()
{
    if (m_checkpointer)
        m_checkpointer->waitIdle();
}

int Database::schemaVersion() const
{
    auto conn = connection();
    if (!conn)
        return 0;
    QSqlQuery q(conn.value());
    if (!q.exec(QStringLiteral("SELECT MAX(version) FROM schema_migrations")) || !q.next())
        return 0;
    return q.value(0).toInt();
}

Result<void> Database::migrate()
{
    bool compact = false;
    auto migrated = write([&compact](QSqlDatabase &db) -> Result<void> {
        auto created = runSql(
            db,
            QStringLiteral(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)"));
        if (!created)
            return created.error();
        auto current
            = runSql(db, QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"));
        if (!current)
            return current.error();
        current.value().next();
        const int applied = current.value().value(0).toInt();
        current.value().finish(); // an open read would block DROP statements below
        const auto &steps = schemaMigrations();
        if (applied > int(steps.size()))
            return Error::make(500, QStringLiteral("schema_too_new"),
                               QStringLiteral("the database was written by a newer Memory Graph "
                                              "(schema %1, this build knows %2)")
                                   .arg(applied)
                                   .arg(steps.size()));
        for (int v = applied + 1; v <= int(steps.size()); ++v) {
            const Migration &m = steps[size_t(v - 1)];
            compact = compact || (m.compactAfter && applied > 0);
            for (const QString &statement : m.statements) {
                auto r = runSql(db, statement);
                if (!r)
                    return r.error();
            }
            auto mark = runSql(
                db,
                QStringLiteral(
                    "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)"),
                {v, m.name, QDateTime::currentMSecsSinceEpoch()});
            if (!mark)
                return mark.error();
        }
        return {};
    });
    if (!migrated || !compact)
        return migrated;
    return compactFile();
}

Result<void> Database::compactFile()
{
    QMutexLocker lock(&m_writeLock);
    auto conn = connection();
    if (!conn)
        return conn.error();
    qCInfo(lcStorage) << "compacting the store after its upgrade";
    auto vacuumed = runSql(conn.value(), QStringLiteral("VACUUM"));
    if (!vacuumed)
        return vacuumed.error();
    return {};
}

Result<void> runCachedSql(QSqlDatabase &db, const QString &sql, const QVariantList &bindings,
                          const std::function<void(QSqlQuery &)> &read)
{
    if (!threadConnections().hasLocalData())
        threadConnections().setLocalData(new ThreadConnections);
    auto &cache = threadConnections().localData()->statements[db.connectionName()];
    auto found = cache.find(sql);
    if (found == cache.end()) {
        if (cache.size() >= ThreadConnections::kMaxStatements)
            cache.clear();
        QSqlQuery q(db);
        q.setForwardOnly(true);
        if (!q.prepare(sql))
            return sqlError(QStringLiteral("prepare"), q.lastError());
        found = cache.insert(sql, q);
    }
    QSqlQuery &q = found.value();
    for (int i = 0; i < bindings.size(); ++i)
        q.bindValue(i, bindings.at(i));
    const bool ran = q.exec();
    if (ran && read)
        read(q);
    const QSqlError error = q.lastError();
    q.finish();
    if (!ran)
        return sqlError(QStringLiteral("exec"), error);
    return {};
}

Result<QSqlQuery> runSql(QSqlDatabase &db, const QString &sql, const QVariantList &bindings)
{
    QSqlQuery q(db);
    q.setForwardOnly(true);
    if (!q.prepare(sql))
        return sqlError(QStringLiteral("prepare"), q.lastError());
    for (int i = 0; i < bindings.size(); ++i)
        q.bindValue(i, bindings.at(i));
    if (!q.exec())
        return sqlError(QStringLiteral("exec"), q.lastError());
    return q;
}

} // namespace MemoryGraph
