#pragma once

#include "service/storage/recallstore.h"

#include <QThreadPool>
#include <QVector>

#include <condition_variable>
#include <mutex>

namespace MemoryGraph {

class Database;

/// Read-side audit of recalls (spec §2.10): rows are queued and written in batches on a
/// background thread, so a recall never waits for the writer lock or an fsync. Best effort:
/// a failed flush is logged and dropped.
class RecallAudit
{
public:
    explicit RecallAudit(Database &db);
    ~RecallAudit(); ///< flushes what is queued

    void record(const RecallStore::AuditRow &row);
    void flush();

    /// How long queued rows wait for more: one transaction (and one file sync) per interval
    /// rather than one per recall, which cost a busy agent a sync for every question.
    static constexpr int kGatherMs = 250;

private:
    void flushWhenGathered();

    Database &m_db;
    std::mutex m_mutex;
    std::condition_variable m_stopping;
    QVector<RecallStore::AuditRow> m_queue;
    bool m_flushScheduled = false;
    bool m_closing = false;
    QThreadPool m_pool;
};

} // namespace MemoryGraph
