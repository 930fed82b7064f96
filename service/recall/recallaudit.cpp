#include "service/recall/recallaudit.h"

#include "service/storage/database.h"

#include <QLoggingCategory>

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
    m_pool.waitForDone();
    flush();
}

void RecallAudit::record(const RecallStore::AuditRow &row)
{
    QMutexLocker lock(&m_mutex);
    if (m_queue.size() >= kMaxQueued)
        return;
    m_queue.append(row);
    if (m_flushScheduled)
        return;
    m_flushScheduled = true;
    m_pool.start([this] { flush(); });
}

void RecallAudit::flush()
{
    QVector<RecallStore::AuditRow> rows;
    {
        QMutexLocker lock(&m_mutex);
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
