#pragma once

#include "service/api/backuptypes.h"
#include "service/api/progress.h"
#include "service/core/result.h"

#include <QString>

namespace MemoryGraph::StoreBackup {

/// Copies the store `databaseFile` (in use by a running service or not) to `targetFile`:
/// stage "copying pages" from one snapshot of the store, then "checking" the copy, and only a
/// complete, checked and synced copy is renamed to `targetFile` (owner-only, 0600). Until then
/// it is a `<targetFile>.XXXXXX.partial` file in the same folder, removed on failure or
/// cancel, so `targetFile` never holds half a backup; an existing `targetFile` is replaced.
/// Errors: `invalid_target` (400) for a target that is the store itself, a folder or in a
/// folder that does not exist; `cancelled`; the copy's and the check's errors.
Result<BackupOutcome> run(const QString &databaseFile, const QString &targetFile,
                          const ProgressCallback &progress);

} // namespace MemoryGraph::StoreBackup
