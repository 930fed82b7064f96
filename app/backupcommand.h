#pragma once

#include "app/commandline.h"

#include <QString>

namespace MemoryGraph {

/// `memorygraph backup FILE`: copies the store of the data folder to FILE, whether another
/// memorygraph serves the folder or nobody has it open. Never takes the folder's lock: it reads
/// the store through a read-only SQLite connection of its own, from one snapshot, and the owner
/// goes on writing. Progress on stderr, the outcome on stdout. Ctrl+C stops it (FILE is then
/// untouched). Returns the exit code (ExitCode).
int runBackupCommand(const CommandLineOptions &options);

/// `memorygraph restore FILE`: replaces the store of the data folder (created if missing) with
/// the backup FILE, holding the folder's lock; refused with ExitInUse, naming the owner, while
/// another process has the folder. Progress on stderr, the outcome on stdout.
int runRestoreCommand(const CommandLineOptions &options);

/// What applyPendingRestore() did.
struct PendingRestoreNotice
{
    enum class Kind { None, Applied, Failed };
    Kind kind = Kind::None;
    QString text; ///< one sentence for stderr or a message box
};

/// For a process that has just taken the folder's lock, before it opens the store: swaps in the
/// restore that File → Restore… prepared, if any, and says so on stderr. A restore that cannot
/// be applied is dropped (the store stays as it was) and reported as Failed.
PendingRestoreNotice applyPendingRestore(const QString &dataDir);

} // namespace MemoryGraph
