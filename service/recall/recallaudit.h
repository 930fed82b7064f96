#pragma once

#include "service/storage/recallstore.h"

#include <QMutex>
#include <QThreadPool>
#include <QVector>

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

private:
    Database &m_db;
    QMutex m_mutex;
    QVector<RecallStore::AuditRow> m_queue;
    bool m_flushScheduled = false;
    QThreadPool m_pool;
};

} // namespace MemoryGraph
