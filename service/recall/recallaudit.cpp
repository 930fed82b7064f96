#include "service/recall/recallaudit.h"

#include "service/storage/database.h"

#include <QLoggingCategory>

#include <chrono>

Q_LOGGING_CATEGORY(lcAudit, "memorygraph.service.audit")

namespace MemoryGraph {

namespace {
constexpr int kMaxQueued = 10000; // beyond this, rows are dropped rather than hold memory
}

RecallAudit::RecallAudit(Database &db) : m_db(db)
{
    m_pool.setMaxThreadCount(1);
}

RecallAudit::~RecallAudit()
{
    {
        const std::lock_guard lock(m_mutex);
        m_closing = true;
    }
    m_stopping.notify_all();
    m_pool.waitForDone();
    flush();
}

void RecallAudit::record(const RecallStore::AuditRow &row)
{
    const std::lock_guard lock(m_mutex);
    if (m_queue.size() >= kMaxQueued)
        return;
    m_queue.append(row);
    if (m_flushScheduled)
        return;
    m_flushScheduled = true;
    m_pool.start([this] { flushWhenGathered(); });
}

void RecallAudit::flushWhenGathered()
{
    {
        std::unique_lock lock(m_mutex);
        m_stopping.wait_for(lock, std::chrono::milliseconds(kGatherMs),
                            [this] { return m_closing; });
    }
    flush();
}

void RecallAudit::flush()
{
    QVector<RecallStore::AuditRow> rows;
    {
        const std::lock_guard lock(m_mutex);
        rows.swap(m_queue);
        m_flushScheduled = false;
    }
    if (rows.isEmpty())
        return;
    auto written = m_db.write([&rows](QSqlDatabase &db) -> Result<void> {
        for (const RecallStore::AuditRow &row : rows) {
            if (auto r = RecallStore::insertAudit(db, row); !r)
                return r;
        }
        return {};
    });
    if (!written)
        qCWarning(lcAudit) << "recall audit dropped" << rows.size()
                           << "rows:" << written.error().message;
}

} // namespace MemoryGraph
