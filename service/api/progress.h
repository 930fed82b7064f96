#pragma once

#include <QString>
#include <QtGlobal>

#include <functional>

namespace MemoryGraph {

/// Where a long operation (backup, restore, export, import, chain verification, consolidation)
/// stands. total is 0 while it is not known yet.
struct Progress
{
    QString stage; ///< short, human-readable: "copying pages", "nodes", ...
    qint64 done = 0;
    qint64 total = 0;
};

/// Called on the thread that runs the operation, often (at most every few milliseconds is
/// fine). Returning false asks the operation to stop: it undoes what it has not committed and
/// returns the error code `cancelled`.
using ProgressCallback = std::function<bool(const Progress &)>;

} // namespace MemoryGraph
