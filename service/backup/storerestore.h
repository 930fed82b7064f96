#pragma once

#include "service/api/backuptypes.h"
#include "service/api/progress.h"
#include "service/core/result.h"

#include <QString>

#include <optional>

/// Replacing a data folder's store with a backup. Each function that changes the folder's store
/// expects the caller to own the folder (its instance lock) with the store closed; the others
/// only add files beside it.
///
/// A restore first looks at the file (a Memory Graph store this build can open), copies it into
/// the data folder (stage "copying pages") and checks the copy in full (stage "checking"); the
/// store is untouched until then. Then it swaps: the store's write-ahead log is folded in, the
/// store is kept as `memorygraph.sqlite.before-restore-<yyyyMMdd-HHmmss>` (a hard link where
/// possible, with its -wal when that could not be folded in), the checked copy is renamed over
/// `memorygraph.sqlite` in one step, and the vector index files and stale -shm go, so the
/// indexes are rebuilt from the restored store (recall scans the vectors not indexed yet
/// exactly meanwhile).
namespace MemoryGraph::StoreRestore {

/// Restores `sourceFile` into `dataDir` now (created if missing). A restore prepared for the
/// next start is dropped: this one wins. Errors: `invalid_source` (400), the inspection errors
/// of StoreCopy::inspect, `cancelled` (nothing changed), I/O errors.
Result<RestoreOutcome> restore(const QString &dataDir, const QString &sourceFile,
                               const ProgressCallback &progress);

/// Prepares a restore of `sourceFile` for the next start (the folder's owner is running): the
/// checked copy and a marker, `memorygraph.restore-pending.json`, wait in the data folder
/// until applyPending() swaps them in. Replaces a restore already pending.
Result<PendingRestore> schedule(const QString &dataDir, const QString &sourceFile,
                                const ProgressCallback &progress);

/// The restore waiting for the next start, if any.
std::optional<PendingRestore> pending(const QString &dataDir);

/// Drops the restore waiting for the next start (nothing when none is).
void discardPending(const QString &dataDir);

/// Swaps in the restore waiting for the next start, if any; called before the store is opened.
/// A pending restore that cannot be applied is dropped and its error returned: the store is
/// then left as it was.
Result<std::optional<RestoreOutcome>> applyPending(const QString &dataDir);

} // namespace MemoryGraph::StoreRestore
