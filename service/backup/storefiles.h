#pragma once

#include "service/core/result.h"

#include <QString>
#include <QStringList>

/// Where a data folder keeps its store and the file operations that replace it safely: a file
/// is complete on disk (synced) before it is renamed into place, and a rename replaces the old
/// file in one step.
namespace MemoryGraph::StoreFiles {

/// <dataDir>/memorygraph.sqlite: the store, the source of truth.
QString databasePath(const QString &dataDir);
/// <dataDir>/index: the vector index files, a cache rebuilt from the store.
QString indexFolder(const QString &dataDir);
/// The files SQLite keeps beside a database: "-wal", "-shm", "-journal".
QStringList companionSuffixes();

/// The same file, compared by canonical path (false when either does not exist).
bool sameFile(const QString &a, const QString &b);

/// Flushes a file's contents to the disk.
Result<void> syncFile(const QString &path);
/// Flushes a folder's entries (a rename in it) to the disk; a no-op where folders cannot be
/// synced.
void syncFolder(const QString &path);
/// Renames `from` to `to` in one step, replacing `to` if it exists (same folder).
Result<void> replaceFile(const QString &from, const QString &to);
/// Gives `to` the contents of `from` without moving `from`: a hard link where the file system
/// has them, else a copy.
Result<void> keepCopy(const QString &from, const QString &to);
/// Removes the file and its SQLite companions; missing ones are fine.
void removeWithCompanions(const QString &path);

/// A file written beside the one it will become: `<finalPath>.XXXXXX.partial`, created empty
/// and owner-only, removed (with its SQLite companions) on destruction unless released.
class ScratchFile
{
public:
    explicit ScratchFile(const QString &finalPath);
    ~ScratchFile();
    ScratchFile(const ScratchFile &) = delete;
    ScratchFile &operator=(const ScratchFile &) = delete;

    /// Empty when it could not be created (errorText() says why).
    QString path() const { return m_path; }
    QString errorText() const { return m_error; }
    /// It became the final file (renamed): nothing is left to remove.
    void release() { m_path.clear(); }

private:
    QString m_path;
    QString m_error;
};

} // namespace MemoryGraph::StoreFiles
