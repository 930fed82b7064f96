#pragma once

#include "service/api/backuptypes.h"
#include "service/api/progress.h"
#include "service/core/result.h"

#include <QString>

/// Whole-store copies with SQLite's own tools, on connections of their own (not the service's
/// Qt connections), so they work on a live store of this or another process and on a store
/// nobody has open.
///
/// NOTE: the copy opens the store through the SQLite library this module links. Qt's SQLite
/// driver must use the same library (Debian's does: both link the system libsqlite3), or POSIX
/// file locks of the two libraries would not see each other.
namespace MemoryGraph::StoreCopy {

/// Pages copied per backup step: small, so progress moves and Cancel answers at once.
inline constexpr int kPagesPerStep = 256;

/// Copies the SQLite database `source` into `target` (an empty or scratch file: overwritten)
/// with the online backup API. The source is opened read-only and copied from one read
/// snapshot taken at the start: everything committed before the copy began, nothing after, and
/// writers of any connection are never blocked (WAL readers do not block writers; the WAL only
/// grows until the copy ends). The copy gets a rollback journal, so it is one self-contained
/// file. Reports stage "copying pages" (done/total in pages). Returns the pages copied; a false
/// from `progress` stops it with the error `cancelled` (the target is then incomplete: the
/// caller removes it).
Result<qint64> copy(const QString &source, const QString &target, const ProgressCallback &progress,
                    int pagesPerStep = kPagesPerStep);

/// How thoroughly inspect() checks the file.
enum class Check {
    SchemaOnly, ///< is it a store this build can open: a first look before copying a file in
    Quick,      ///< PRAGMA quick_check: every page readable and well formed (for our own copies)
    Full, ///< PRAGMA integrity_check: also every index against its table (for files from outside)
};

/// Opens `file` read-only and checks that it is a Memory Graph store this build can open: an
/// SQLite database whose schema_migrations names a version no newer than this build's, with
/// the graph tables, passing SQLite's check. Reports stage "checking"; counts nodes, edges and
/// commits (not for Check::SchemaOnly). Errors: `not_a_store` (422), `schema_too_new` (422),
/// `integrity_check_failed` (422), `not_found` (404), `cancelled`.
Result<StoreSummary> inspect(const QString &file, Check check, const ProgressCallback &progress);

/// Folds the write-ahead log of a store that nobody has open into the database file, as a
/// clean close would, so the file alone holds every commit. Best effort: a store that cannot
/// be opened is left as it is (the caller then keeps its -wal with it).
void settle(const QString &file);

} // namespace MemoryGraph::StoreCopy
