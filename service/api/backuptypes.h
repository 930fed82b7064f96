#pragma once

// What a backup or a restore of the whole store did, and what a store file holds.

#include <QDateTime>
#include <QString>
#include <QtGlobal>

namespace MemoryGraph {

/// A store file as checked after a backup and before a restore: it passed SQLite's integrity
/// check and carries a schema this build can open.
struct StoreSummary
{
    int schemaVersion = 0; ///< newest applied migration
    qint64 nodes = 0;
    qint64 edges = 0;
    qint64 commits = 0;
    qint64 pages = 0; ///< SQLite pages copied
    qint64 bytes = 0; ///< size of the file
};

/// A finished backup: `file` holds a complete, checked copy of the store as it was when the
/// backup began.
struct BackupOutcome
{
    QString file;
    StoreSummary store;
};

/// A finished restore: the data folder's store now is the copy of `source`.
struct RestoreOutcome
{
    QString dataDir;
    QString source;
    /// Where the store that was replaced is kept (with its -wal when it had one); empty when
    /// the folder held no store.
    QString previousStore;
    /// Vector index files removed; the indexes are rebuilt from the restored store.
    int indexFilesRemoved = 0;
    StoreSummary store;
};

/// A restore the window prepared for the next start (File → Restore…): the file is already
/// copied into the data folder and checked; the next process that opens the folder swaps it in.
struct PendingRestore
{
    QString source;
    QDateTime requestedAt;
    StoreSummary store;
};

} // namespace MemoryGraph
