#pragma once

#include "service/api/progress.h"
#include "service/core/result.h"

namespace MemoryGraph {

/// Hands a long operation's progress to its ProgressCallback without flooding it (every
/// kEvery steps, on each new stage and at the end) and remembers a request to stop.
class ProgressReporter
{
public:
    static constexpr qint64 kEvery = 50;

    ProgressReporter(const ProgressCallback &callback, qint64 total)
        : m_callback(callback), m_progress{QString(), 0, total}
    {
    }

    /// Starts a stage ("nodes", "checking", ...); false once the caller asked to stop.
    bool stage(const QString &name)
    {
        m_progress.stage = name;
        return report();
    }

    /// One more step done; false once the caller asked to stop.
    bool step(qint64 count = 1)
    {
        const qint64 before = m_progress.done;
        m_progress.done += count;
        if (m_progress.done / kEvery == before / kEvery && m_progress.done != m_progress.total)
            return !m_stopped;
        return report();
    }

    void setTotal(qint64 total) { m_progress.total = total; }
    /// Starts counting again from 0 of `total` (a second pass over the same records).
    bool restart(const QString &stageName, qint64 total)
    {
        m_progress.done = 0;
        m_progress.total = total;
        return stage(stageName);
    }
    qint64 done() const { return m_progress.done; }
    bool stopped() const { return m_stopped; }

    /// The error every cancelled operation returns: code `cancelled`.
    static Error cancelled(const QString &what)
    {
        return Error::make(409, QStringLiteral("cancelled"),
                           what + QStringLiteral(" was cancelled; nothing was written"));
    }

private:
    bool report()
    {
        if (!m_stopped && m_callback && !m_callback(m_progress))
            m_stopped = true;
        return !m_stopped;
    }

    ProgressCallback m_callback;
    Progress m_progress;
    bool m_stopped = false;
};

} // namespace MemoryGraph
