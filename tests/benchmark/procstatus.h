#pragma once

#include <QString>
#include <QtGlobal>

namespace MemoryGraph::Bench {

/// Memory figures of a process from /proc/<pid>/status (Linux), in bytes; -1 when unknown.
struct ProcMemory
{
    qint64 peakRss = -1; ///< VmHWM: the resident set's high-water mark
    qint64 rss = -1;     ///< VmRSS: resident now
};

/// pid 0 = this process.
ProcMemory readProcMemory(qint64 pid = 0);

/// The 1, 5 and 15 minute load averages ("1.20 0.80 0.50"); empty when unknown. The numbers
/// of a run on a busy machine are only comparable with its load in view.
QString readLoadAverage();

} // namespace MemoryGraph::Bench
