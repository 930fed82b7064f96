#pragma once

#include "service/core/result.h"
#include "service/storage/checkpointer.h"

#include <QMutex>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

#include <functional>
#include <memory>

namespace MemoryGraph {

/// The SQLite store: WAL, foreign keys on, one connection per thread, one writer at a time.
/// Connections are opened lazily on the calling thread and closed when that thread ends.
class Database
{
public:
    /// Opens (creating if needed, owner-only: 0600 with its -wal/-shm) the file and applies
    /// pending migrations.
    static Result<std::unique_ptr<Database>> open(const QString &filePath);
    ~Database();

    Database(const Database &) = delete;
    Database &operator=(const Database &) = delete;

    QString filePath() const { return m_filePath; }

    /// This thread's connection (opened on first use).
    Result<QSqlDatabase> connection() const;

    /// Runs work inside BEGIN IMMEDIATE ... COMMIT holding the writer lock; rolls back on error.
    /// Before it commits, it indexes the text of the nodes the work wrote (TextIndexQueue).
    Result<void> write(const std::function<Result<void>(QSqlDatabase &)> &work);

    /// Applied schema version.
    int schemaVersion() const;

    /// Waits until the WAL pages of every commit so far are in the database file (the
    /// checkpoint runs in the background; tests and copies of the file use this).
    void waitForCheckpoint();

private:
    explicit Database(const QString &filePath);
    Result<void> migrate();
    Result<void> compactFile();
    void restrictCompanionFiles() const;
    void startCheckpointer();

    QString m_filePath;
    QString m_instanceTag;
    QMutex m_writeLock;
    std::unique_ptr<Checkpointer> m_checkpointer; // last: stops before the connections close
};

/// Prepares and runs a statement with positional bindings; the error names the SQL failure.
Result<QSqlQuery> runSql(QSqlDatabase &db, const QString &sql, const QVariantList &bindings = {});

/// runSql() for the statements a write runs for every node: prepared once per connection and
/// kept, since parsing the SQL cost as much as running it. `read` sees the executed statement;
/// the statement is reset after it (an unfinished statement would hold its transaction open),
/// so nothing of it may be kept. Not for SQL text built from values (each text is kept).
Result<void> runCachedSql(QSqlDatabase &db, const QString &sql, const QVariantList &bindings,
                          const std::function<void(QSqlQuery &)> &read = {});

} // namespace MemoryGraph
