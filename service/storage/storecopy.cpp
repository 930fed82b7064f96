#include "service/storage/storecopy.h"

#include "service/storage/schema.h"

#include <QFileInfo>
#include <QSet>
#include <QStringList>
#include <QUrl>

#include <chrono>
#include <memory>
#include <sqlite3.h>
#include <thread>

namespace MemoryGraph::StoreCopy {

namespace {

constexpr int kBusyTimeoutMs = 10000;
/// SQLite virtual-machine steps between two looks at the progress callback during a check.
constexpr int kCheckStepsPerProgress = 20000;
/// Problems an integrity check lists in its error.
constexpr int kProblemsShown = 5;

const QString kCopying = QStringLiteral("copying pages");
const QString kChecking = QStringLiteral("checking");

struct CloseConnection
{
    void operator()(sqlite3 *db) const { sqlite3_close_v2(db); }
};
using Connection = std::unique_ptr<sqlite3, CloseConnection>;

struct FinalizeStatement
{
    void operator()(sqlite3_stmt *statement) const { sqlite3_finalize(statement); }
};
using Statement = std::unique_ptr<sqlite3_stmt, FinalizeStatement>;

QString sqliteMessage(sqlite3 *db)
{
    return db ? QString::fromUtf8(sqlite3_errmsg(db)) : QStringLiteral("out of memory");
}

Error copyError(const QString &what, sqlite3 *db)
{
    return Error::internal(QStringLiteral("%1: %2").arg(what, sqliteMessage(db)));
}

Error notAStore(const QString &file, const QString &why)
{
    return Error::make(422, QStringLiteral("not_a_store"),
                       QStringLiteral("%1 is not a Memory Graph store: %2").arg(file, why));
}

Result<Connection> openFile(const QString &path, int flags)
{
    sqlite3 *raw = nullptr;
    const int rc = sqlite3_open_v2(path.toUtf8().constData(), &raw, flags, nullptr);
    Connection db(raw);
    if (rc != SQLITE_OK)
        return copyError(QStringLiteral("cannot open ") + path, raw);
    sqlite3_busy_timeout(db.get(), kBusyTimeoutMs);
    return db;
}

/// Runs `sql` and returns the first column of every row as text.
Result<QStringList> queryColumn(sqlite3 *db, const QString &sql)
{
    const auto failed = [db, &sql](int rc) {
        Error e = copyError(sql, db);
        e.details.insert(QStringLiteral("sqlite_code"), rc & 0xff); // the primary code
        return e;
    };
    sqlite3_stmt *raw = nullptr;
    if (const int rc = sqlite3_prepare_v2(db, sql.toUtf8().constData(), -1, &raw, nullptr);
        rc != SQLITE_OK)
        return failed(rc);
    Statement statement(raw);
    QStringList rows;
    for (;;) {
        const int rc = sqlite3_step(statement.get());
        if (rc == SQLITE_DONE)
            return rows;
        if (rc != SQLITE_ROW)
            return failed(rc);
        const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(statement.get(), 0));
        rows << (text ? QString::fromUtf8(text) : QString());
    }
}

int sqliteCode(const Error &e)
{
    return e.details.value(QStringLiteral("sqlite_code")).toInt();
}

/// Opens a file for reading. A store in WAL mode needs its -shm file; where that cannot be
/// created (a read-only folder) the file is read as immutable, as it is then unchanging.
Result<Connection> openReadOnly(const QString &path)
{
    if (!QFileInfo(path).isFile())
        return Error::make(404, QStringLiteral("not_found"),
                           QStringLiteral("%1 does not exist or is not a file").arg(path));
    auto db = openFile(path, SQLITE_OPEN_READONLY);
    if (!db)
        return db.error();
    auto probe
        = queryColumn(db.value().get(), QStringLiteral("SELECT COUNT(*) FROM sqlite_schema"));
    if (probe || sqliteCode(probe.error()) != SQLITE_CANTOPEN)
        return db;
    const QString uri
        = QUrl::fromLocalFile(path).toString(QUrl::FullyEncoded) + QStringLiteral("?immutable=1");
    return openFile(uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
}

/// Runs `sql` (no rows expected).
Result<void> execute(sqlite3 *db, const QString &sql)
{
    auto rows = queryColumn(db, sql);
    if (!rows)
        return rows.error();
    return {};
}

/// Holds a read transaction on the source, so the backup copies one snapshot: the backup API
/// uses an open read transaction of its source instead of taking (and dropping) one per step,
/// and a snapshot never changes, so writers elsewhere never restart the copy.
class ReadSnapshot
{
public:
    explicit ReadSnapshot(sqlite3 *db) : m_db(db) { }
    ~ReadSnapshot()
    {
        if (m_open)
            (void)execute(m_db, QStringLiteral("COMMIT"));
    }
    ReadSnapshot(const ReadSnapshot &) = delete;
    ReadSnapshot &operator=(const ReadSnapshot &) = delete;

    Result<void> begin()
    {
        if (auto begun = execute(m_db, QStringLiteral("BEGIN")); !begun)
            return begun;
        m_open = true;
        // The first read starts the transaction; the schema is what every reader looks at.
        auto read = queryColumn(m_db, QStringLiteral("SELECT COUNT(*) FROM sqlite_schema"));
        if (!read)
            return read.error();
        return {};
    }

private:
    sqlite3 *m_db;
    bool m_open = false;
};

struct FinishBackup
{
    void operator()(sqlite3_backup *backup) const { sqlite3_backup_finish(backup); }
};
using Backup = std::unique_ptr<sqlite3_backup, FinishBackup>;

/// Steps the backup to its end; false from `progress` stops it (cancelled).
Result<qint64> stepThrough(sqlite3_backup *backup, sqlite3 *target,
                           const ProgressCallback &progress, int pagesPerStep)
{
    for (;;) {
        const int rc = sqlite3_backup_step(backup, qMax(1, pagesPerStep));
        const qint64 total = sqlite3_backup_pagecount(backup);
        const qint64 done = total - sqlite3_backup_remaining(backup);
        if (rc == SQLITE_DONE) {
            if (progress)
                (void)progress(Progress{kCopying, total, total});
            return total;
        }
        if (rc != SQLITE_OK && rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
            return copyError(QStringLiteral("backup step"), target);
        if (progress && !progress(Progress{kCopying, done, total}))
            return Error::cancelled(
                QStringLiteral("backup cancelled after %1 of %2 pages").arg(done).arg(total));
        // Between steps: let the store's own work run first.
        if (rc == SQLITE_OK)
            std::this_thread::yield();
        else
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

struct ProgressContext
{
    const ProgressCallback *progress = nullptr;
    bool cancelled = false;
};

/// sqlite3_progress_handler: non-zero interrupts the running statement.
int checkProgress(void *context)
{
    auto *c = static_cast<ProgressContext *>(context);
    if (*c->progress && !(*c->progress)(Progress{kChecking, 0, 0}))
        c->cancelled = true;
    return c->cancelled ? 1 : 0;
}

/// The schema_migrations version of the file and the graph tables it must have.
Result<int> checkSchema(sqlite3 *db, const QString &file)
{
    auto tables = queryColumn(db, QStringLiteral("SELECT name FROM sqlite_schema WHERE type = "
                                                 "'table'"));
    if (!tables)
        return sqliteCode(tables.error()) == SQLITE_NOTADB
                   ? notAStore(file, QStringLiteral("not an SQLite database"))
                   : tables.error();
    const QSet<QString> present(tables.value().cbegin(), tables.value().cend());
    if (!present.contains(QStringLiteral("schema_migrations")))
        return notAStore(file, QStringLiteral("it has no schema_migrations table"));
    for (const char *table : {"nodes", "edges", "commits"}) {
        if (!present.contains(QString::fromLatin1(table)))
            return notAStore(file, QStringLiteral("it has no %1 table").arg(QLatin1String(table)));
    }
    auto version = queryColumn(
        db, QStringLiteral("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"));
    if (!version)
        return version.error();
    const int applied = version.value().value(0).toInt();
    const int known = int(schemaMigrations().size());
    if (applied < 1)
        return notAStore(file, QStringLiteral("no migration was ever applied to it"));
    if (applied > known)
        return Error::make(422, QStringLiteral("schema_too_new"),
                           QStringLiteral("%1 was written by a newer Memory Graph (schema %2, "
                                          "this build knows %3)")
                               .arg(file)
                               .arg(applied)
                               .arg(known));
    return applied;
}

/// PRAGMA quick_check / integrity_check, interruptible through `progress`.
Result<void> checkIntegrity(sqlite3 *db, const QString &file, Check check,
                            const ProgressCallback &progress)
{
    ProgressContext context{&progress, false};
    sqlite3_progress_handler(db, kCheckStepsPerProgress, &checkProgress, &context);
    auto rows = queryColumn(db, check == Check::Quick ? QStringLiteral("PRAGMA quick_check")
                                                      : QStringLiteral("PRAGMA integrity_check"));
    sqlite3_progress_handler(db, 0, nullptr, nullptr);
    if (context.cancelled)
        return Error::cancelled(QStringLiteral("integrity check cancelled"));
    if (!rows)
        return sqliteCode(rows.error()) == SQLITE_NOTADB
                       || sqliteCode(rows.error()) == SQLITE_CORRUPT
                   ? Error::make(
                       422, QStringLiteral("integrity_check_failed"),
                       QStringLiteral("%1 is damaged: %2").arg(file, rows.error().message))
                   : rows.error();
    if (rows.value() == QStringList{QStringLiteral("ok")})
        return {};
    return Error::make(
        422, QStringLiteral("integrity_check_failed"),
        QStringLiteral("%1 failed SQLite's integrity check: %2")
            .arg(file, rows.value().mid(0, kProblemsShown).join(QStringLiteral("; "))));
}

Result<qint64> countRows(sqlite3 *db, const char *table)
{
    auto rows
        = queryColumn(db, QStringLiteral("SELECT COUNT(*) FROM %1").arg(QLatin1String(table)));
    if (!rows)
        return rows.error();
    return rows.value().value(0).toLongLong();
}

} // namespace

Result<qint64> copy(const QString &source, const QString &target, const ProgressCallback &progress,
                    int pagesPerStep)
{
    auto from = openReadOnly(source);
    if (!from)
        return from.error();
    ReadSnapshot snapshot(from.value().get());
    if (auto begun = snapshot.begin(); !begun)
        return sqliteCode(begun.error()) == SQLITE_NOTADB
                   ? notAStore(source, QStringLiteral("not an SQLite database"))
                   : begun.error();
    auto to = openFile(target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (!to)
        return to.error();
    sqlite3 *out = to.value().get();
    // A scratch file: the caller syncs it once complete and removes it otherwise.
    (void)execute(out, QStringLiteral("PRAGMA synchronous=OFF"));
    Backup backup(sqlite3_backup_init(out, "main", from.value().get(), "main"));
    if (!backup)
        return copyError(QStringLiteral("cannot start the backup"), out);
    auto pages = stepThrough(backup.get(), out, progress, pagesPerStep);
    if (!pages)
        return pages.error();
    if (sqlite3_backup_finish(backup.release()) != SQLITE_OK)
        return copyError(QStringLiteral("backup"), out);
    // The copy carries the source's WAL mark; as a rollback-journal database it is one file
    // that opens anywhere, even read-only.
    auto mode = queryColumn(out, QStringLiteral("PRAGMA journal_mode=DELETE"));
    if (!mode)
        return mode.error();
    if (sqlite3_close(to.value().release()) != SQLITE_OK)
        return Error::internal(QStringLiteral("cannot close the copy ") + target);
    return pages.value();
}

Result<StoreSummary> inspect(const QString &file, Check check, const ProgressCallback &progress)
{
    if (progress && !progress(Progress{kChecking, 0, 0}))
        return Error::cancelled(QStringLiteral("integrity check cancelled"));
    auto opened = openReadOnly(file);
    if (!opened)
        return opened.error();
    sqlite3 *db = opened.value().get();
    auto version = checkSchema(db, file);
    if (!version)
        return version.error();
    StoreSummary summary;
    summary.schemaVersion = version.value();
    summary.bytes = QFileInfo(file).size();
    if (check == Check::SchemaOnly)
        return summary;
    if (auto intact = checkIntegrity(db, file, check, progress); !intact)
        return intact.error();

    const std::pair<const char *, qint64 *> counts[]
        = {{"nodes", &summary.nodes}, {"edges", &summary.edges}, {"commits", &summary.commits}};
    for (const auto &[table, into] : counts) {
        auto n = countRows(db, table);
        if (!n)
            return n.error();
        *into = n.value();
    }
    auto pages = queryColumn(db, QStringLiteral("PRAGMA page_count"));
    if (!pages)
        return pages.error();
    summary.pages = pages.value().value(0).toLongLong();
    return summary;
}

void settle(const QString &file)
{
    if (!QFileInfo::exists(file + QStringLiteral("-wal")))
        return;
    auto db = openFile(file, SQLITE_OPEN_READWRITE);
    if (!db)
        return;
    // Closing the last connection after a complete checkpoint removes the -wal and -shm.
    (void)execute(db.value().get(), QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
}

} // namespace MemoryGraph::StoreCopy
