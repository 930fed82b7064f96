#include "service/engine/indexmanager.h"

#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/engine/vectormath.h"
#include "service/engine/vocabulary.h"
#include "service/storage/database.h"

#include <QDir>
#include <QLoggingCategory>
#include <QThreadPool>

#include <algorithm>
#include <atomic>

Q_LOGGING_CATEGORY(lcIndex, "memorygraph.service.index")

namespace MemoryGraph {

namespace {
constexpr int kExactScanBelow = 1000;     // small scopes: exact search is cheap and perfect
constexpr int kSaveEveryChanges = 5000;   // bound the catch-up work after a crash
constexpr int kDim = Vocabulary::kEmbeddingDimension;
constexpr int kEfSearch = 128;            // recall@10 >= 0.95 on clustered 1536-d data
} // namespace

struct IndexManager::ScopeIndex
{
    QString tenantId;
    QString scope;
    QMutex mutex;                          // guards the fields below (not the index internals)
    std::unique_ptr<VectorIndex> index;    // set once loaded
    std::atomic<bool> ready{false};
    bool loading = false;
    qint64 appliedVersion = 0;             // every row with embedding_version <= this is mirrored
    QHash<qint64, qint64> heldVersion;     // label -> version applied after appliedVersion
    int unsaved = 0;
};

IndexManager::IndexManager(Database &db, const QString &directory)
    : m_db(db), m_directory(directory)
{
    QDir().mkpath(m_directory);
}

IndexManager::~IndexManager()
{
    QThreadPool::globalInstance()->waitForDone();
    saveAll();
}

QString IndexManager::indexPath(const QString &tenantId, const QString &scope) const
{
    const QString key = sha256Hex((tenantId + QLatin1Char('\n') + scope).toUtf8()).left(32);
    return QDir(m_directory).filePath(key + QStringLiteral(".mgvi"));
}

std::shared_ptr<IndexManager::ScopeIndex> IndexManager::scopeIndex(const QString &tenantId,
                                                                   const QString &scope)
{
    QMutexLocker lock(&m_lock);
    const QString key = tenantId + QLatin1Char('\n') + scope;
    auto &entry = m_indexes[key];
    if (!entry) {
        entry = std::make_shared<ScopeIndex>();
        entry->tenantId = tenantId;
        entry->scope = scope;
    }
    return entry;
}

Result<void> IndexManager::load(ScopeIndex &entry)
{
    quint64 watermark = 0;
    auto loaded = VectorIndex::load(indexPath(entry.tenantId, entry.scope), kDim, &watermark);
    if (loaded) {
        entry.index = std::move(loaded).value();
        entry.index->setEfSearch(kEfSearch);
        entry.appliedVersion = qint64(watermark);
        return catchUp(entry);
    }
    if (loaded.error().code != QLatin1String("index_missing"))
        qCWarning(lcIndex) << "rebuilding index of" << entry.tenantId << entry.scope << ":"
                           << loaded.error().message;
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto count = runSql(conn.value(), QStringLiteral(
        "SELECT COUNT(*), COALESCE(MAX(embedding_version), 0) FROM nodes"
        " WHERE tenant_id = ? AND scope = ?"), {entry.tenantId, entry.scope});
    if (!count)
        return count.error();
    count.value().next();
    const int capacity = qMax(1024, count.value().value(0).toInt() + 1024);
    entry.index = std::make_unique<VectorIndex>(kDim, capacity);
    entry.index->setEfSearch(kEfSearch);
    entry.appliedVersion = 0;
    auto built = catchUp(entry);
    if (built)
        entry.unsaved = qMax(entry.unsaved, 1);
    return built;
}

Result<void> IndexManager::catchUp(ScopeIndex &entry)
{
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase db = conn.value();
    // Phase 1 reads only the covering (tenant, scope, version, label) index: after a bulk load
    // almost every changed row was already mirrored by apply(), and reading their vectors
    // again would cost a full table read.
    auto changed = runSql(db, QStringLiteral(
        "SELECT vector_label, embedding_version FROM nodes INDEXED BY nodes_embedding_version"
        " WHERE tenant_id = ? AND scope = ? AND embedding_version > ?"),
        {entry.tenantId, entry.scope, entry.appliedVersion});
    if (!changed)
        return changed.error();
    qint64 newest = entry.appliedVersion;
    QVector<qint64> stale;
    while (changed.value().next()) {
        const qint64 label = changed.value().value(0).toLongLong();
        const qint64 version = changed.value().value(1).toLongLong();
        newest = qMax(newest, version);
        if (entry.heldVersion.value(label, -1) != version)
            stale.append(label);
    }
    // Phase 2: vectors of the rows not mirrored yet, by primary label lookups.
    constexpr int kBatch = 500;
    for (int from = 0; from < stale.size(); from += kBatch) {
        const int n = qMin(kBatch, int(stale.size()) - from);
        QStringList marks;
        QVariantList labels;
        for (int i = 0; i < n; ++i) {
            marks << QStringLiteral("?");
            labels << stale.at(from + i);
        }
        auto rows = runSql(db, QStringLiteral(
            "SELECT vector_label, embedding_status, embedding FROM nodes WHERE vector_label IN (%1)")
            .arg(marks.join(QLatin1Char(','))), labels);
        if (!rows)
            return rows.error();
        QSqlQuery &q = rows.value();
        QVector<quint64> readyLabels;
        QByteArray readyVectors;
        while (q.next()) {
            const qint64 label = q.value(0).toLongLong();
            const QByteArray vector = q.value(2).toByteArray();
            ++entry.unsaved;
            if (q.value(1).toString() == QLatin1String("ready")
                && vector.size() == qsizetype(kDim * sizeof(float))) {
                readyLabels.append(quint64(label));
                readyVectors.append(vector);
            } else if (auto r = entry.index->remove(quint64(label)); !r) {
                qCWarning(lcIndex) << "cannot unindex label" << label << r.error().message;
            }
        }
        // Batches insert on several threads (a rebuild of 100k vectors); a batch holding a
        // vector the index refuses falls back to one by one so the others still land.
        const auto *vectors = reinterpret_cast<const float *>(readyVectors.constData());
        if (!readyLabels.isEmpty() && !entry.index->upsertMany(readyLabels, vectors)) {
            for (int i = 0; i < readyLabels.size(); ++i) {
                if (auto r = entry.index->upsert(readyLabels.at(i), vectors + qsizetype(i) * kDim); !r)
                    qCWarning(lcIndex) << "cannot index label" << readyLabels.at(i) << r.error().message;
            }
        }
    }
    entry.appliedVersion = newest;
    entry.heldVersion.clear();
    return {};
}

void IndexManager::apply(const QString &tenantId, const QString &scope, qint64 label,
                         qint64 version, const QByteArray &vector)
{
    auto entry = scopeIndex(tenantId, scope);
    QMutexLocker lock(&entry->mutex);
    if (!entry->ready.load())
        return;   // the loader reads it from SQLite
    Result<void> r = vector.size() == qsizetype(kDim * sizeof(float))
                         ? entry->index->upsert(quint64(label),
                                                reinterpret_cast<const float *>(vector.constData()))
                         : entry->index->remove(quint64(label));
    if (!r) {
        qCWarning(lcIndex) << "cannot index label" << label << r.error().message;
        return;
    }
    entry->heldVersion.insert(label, version);
    if (++entry->unsaved >= kSaveEveryChanges) {
        entry->unsaved = 0;
        const quint64 watermark = quint64(entry->appliedVersion);
        QThreadPool::globalInstance()->start([this, entry, watermark] {
            // No scope lock across the file write: VectorIndex::save takes its own shared lock,
            // so writes and searches go on while the file is hashed and written.
            auto saved = entry->index->save(indexPath(entry->tenantId, entry->scope), watermark);
            if (!saved)
                qCWarning(lcIndex) << "cannot save index:" << saved.error().message;
        });
    }
}

Result<QVector<VectorMatch>> IndexManager::search(const QString &tenantId, const QString &scope,
                                                  const QVector<float> &query, int k,
                                                  const std::function<bool(qint64)> &accept)
{
    if (query.size() != kDim)
        return Error::invalidField(QStringLiteral("query_embedding"),
                                   QStringLiteral("must have %1 numbers").arg(kDim));
    auto entry = scopeIndex(tenantId, scope);
    // Cheap check (indexed MAX) so steady-state searches never wait for each other.
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    // Answered from the (tenant, scope, embedding_version) index alone: no row is read.
    auto newest = runSql(conn.value(), QStringLiteral(
        "SELECT embedding_version FROM nodes INDEXED BY nodes_embedding_version"
        " WHERE tenant_id = ? AND scope = ? ORDER BY embedding_version DESC LIMIT 1"),
        {tenantId, scope});
    if (!newest)
        return newest.error();
    const qint64 newestVersion = newest.value().next() ? newest.value().value(0).toLongLong() : 0;
    VectorIndex *index = nullptr;
    {
        QMutexLocker lock(&entry->mutex);
        if (!entry->ready.load()) {
            auto loaded = load(*entry);
            if (!loaded)
                return loaded.error();
            entry->ready = true;
        } else if (newestVersion > entry->appliedVersion) {
            auto caught = catchUp(*entry);
            if (!caught)
                return caught.error();
        }
        index = entry->index.get();
    }
    // No filter at all when the caller has none, so the index does not over-fetch.
    std::function<bool(quint64)> filter;
    if (accept)
        filter = [&accept](quint64 label) { return accept(qint64(label)); };
    const QVector<VectorHit> hits = index->size() < kExactScanBelow
                                        ? index->exactSearch(query.constData(), k, filter)
                                        : index->search(query.constData(), k, filter);
    QVector<VectorMatch> matches;
    matches.reserve(hits.size());
    for (const VectorHit &h : hits)
        matches.append({qint64(h.label), h.similarity});
    return matches;
}

void IndexManager::warmUp()
{
    auto conn = m_db.connection();
    if (!conn)
        return;
    auto scopes = runSql(conn.value(), QStringLiteral(
        "SELECT DISTINCT tenant_id, scope FROM nodes WHERE embedding IS NOT NULL"));
    if (!scopes)
        return;
    while (scopes.value().next()) {
        auto entry = scopeIndex(scopes.value().value(0).toString(), scopes.value().value(1).toString());
        QThreadPool::globalInstance()->start([this, entry] {
            QMutexLocker lock(&entry->mutex);
            if (entry->ready.load())
                return;
            if (load(*entry))
                entry->ready = true;
        });
    }
}

void IndexManager::saveAll()
{
    QList<std::shared_ptr<ScopeIndex>> entries;
    {
        QMutexLocker lock(&m_lock);
        entries = m_indexes.values();
    }
    for (const auto &entry : entries) {
        QMutexLocker lock(&entry->mutex);
        if (!entry->ready.load() || entry->unsaved == 0)
            continue;
        auto caught = catchUp(*entry);
        if (!caught)
            continue;
        auto saved = entry->index->save(indexPath(entry->tenantId, entry->scope),
                                        quint64(entry->appliedVersion));
        if (saved)
            entry->unsaved = 0;
        else
            qCWarning(lcIndex) << "cannot save index:" << saved.error().message;
    }
}

qint64 IndexManager::indexedCount(const QString &tenantId, const QString &scope) const
{
    QMutexLocker lock(&m_lock);
    const auto entry = m_indexes.value(tenantId + QLatin1Char('\n') + scope);
    if (!entry || !entry->ready.load())
        return -1;
    return entry->index->size();
}

} // namespace MemoryGraph
