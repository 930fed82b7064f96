#include "service/index/indexmanager.h"

#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/core/privatefiles.h"
#include "service/core/vocabulary.h"
#include "service/index/codeblocks.h"
#include "service/index/vectorcode.h"
#include "service/index/vectorscorer.h"
#include "service/storage/database.h"
#include "service/storage/indexstore.h"

#include <QDir>
#include <QLoggingCategory>
#include <QThread>
#include <QWaitCondition>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>

Q_LOGGING_CATEGORY(lcIndex, "memorygraph.service.index")

namespace MemoryGraph {

namespace {
constexpr int kExactScanBelow = 1000;   // small scopes: exact search is cheap and perfect
constexpr int kSaveEveryChanges = 5000; // bound the catch-up work after a crash
constexpr int kAskIndexUpTo = 1024;     // pending labels checked against the index per search
constexpr int kDim = Vocabulary::kEmbeddingDimension;
constexpr qsizetype kVectorBytes = qsizetype(kDim * sizeof(float));
constexpr int kEfSearch = 128; // recall@10 >= 0.95 on clustered 1536-d data
// Changes a drain takes per trip under the scope lock; it inserts them one by one so a search
// waits for at most one hnswlib insert, never for a whole batch.
constexpr int kDrainBatch = 64;
// Between two inserts the drain lets running searches finish first, so a search has a core
// to itself rather than sharing it with graph building (during a bulk write a search took
// twice as long when it did). The wait is bounded so a steady stream of searches cannot stop
// the drain, and it ends past this backlog: the exact scan of the backlog would then cost
// every search more than the drain does (about 25 ms at 1536 dimensions).
constexpr int kMaxYieldMs = 100;
constexpr qsizetype kYieldBelowBacklog = 250000;
// It holds back for writes too while its backlog stays this small: a write then has the CPU
// the drain would take (a 10k bulk load wrote about a fifth faster with the drain paused), and
// a search pays little for scanning the backlog exactly. Past it the drain keeps pace with a
// bulk load, so searches during the load do not scan an ever longer backlog.
constexpr qsizetype kYieldToWritesBelowBacklog = 20000;
// No back-pressure: a bulk load may run any distance ahead of its drain, so writers never
// wait for hnswlib. The backlog is held as VectorCode bytes in CodeBlocks (a quarter of the
// float32 size, the memory a bulk load holds on top of the index; stored back to back, the
// bytes a search streams through); its floats stay in SQLite, read back by the drain and for
// the exact score of a search's best candidates.
constexpr int kCatchUpBatch = 500; // labels per vector read (SQLite's parameter limit)

/// A vector change committed to SQLite that the hnswlib index does not hold yet.
struct PendingChange
{
    qint64 version = 0;
    CodeBlocks::Slot code; // VectorCode of the unit-length vector; none = removal
    bool isRemoval() const { return code.isNull(); }
};

const float *floats(const QByteArray &bytes)
{
    return reinterpret_cast<const float *>(bytes.constData());
}

/// The unit-length copy VectorIndex stores (double sum, as it does), so pending vectors are
/// scored like indexed ones. Empty for a zero or non-finite vector, which the index refuses.
QByteArray unitVector(const float *vector)
{
    double sum = 0.0;
    for (int i = 0; i < kDim; ++i) {
        if (!std::isfinite(vector[i]))
            return {};
        sum += double(vector[i]) * double(vector[i]);
    }
    if (!(sum > 0.0) || !std::isfinite(sum))
        return {};
    const double scale = 1.0 / std::sqrt(sum);
    QByteArray unit(kVectorBytes, Qt::Uninitialized);
    auto *out = reinterpret_cast<float *>(unit.data());
    for (int i = 0; i < kDim; ++i)
        out[i] = float(double(vector[i]) * scale);
    return unit;
}

/// The VectorCode a pending change holds; empty stays empty (a removal).
QByteArray codeOf(const QByteArray &unit)
{
    return unit.isEmpty() ? QByteArray() : VectorCode::encode(floats(unit), kDim);
}

/// Whether a change supersedes another of the same label. A removal wins a tie: forgetting a
/// node deletes its row without bumping the version the upsert carried.
bool supersedes(qint64 version, bool removal, qint64 otherVersion, bool otherRemoval)
{
    return version > otherVersion || (version == otherVersion && removal && !otherRemoval);
}

/// Best first; the label breaks ties so equal scores always come back in the same order.
bool betterMatch(const VectorMatch &a, const VectorMatch &b)
{
    return a.similarity > b.similarity || (a.similarity == b.similarity && a.label < b.label);
}

/// The unit-length vectors SQLite holds now for these labels, one visit per label that has
/// a ready, indexable vector (a forgotten node or a cleared embedding has none).
Result<void> readUnits(QSqlDatabase &db, const QVector<qint64> &labels,
                       const std::function<void(qint64 label, const QByteArray &unit)> &visit)
{
    for (qsizetype from = 0; from < labels.size(); from += kCatchUpBatch) {
        auto read = IndexStore::forEachEmbedding(
            db, labels.mid(from, kCatchUpBatch), [&](const IndexStore::StoredEmbedding &row) {
                if (row.status != QLatin1String("ready") || row.vector.size() != kVectorBytes)
                    return;
                const QByteArray unit = unitVector(floats(row.vector));
                if (!unit.isEmpty())
                    visit(row.label, unit);
            });
        if (!read)
            return read.error();
    }
    return {};
}

/// How a batch takes the index's exclusive lock: per vector while searches run, or once for
/// the whole batch (multi-threaded inserts) when nothing is waiting on it.
enum class Locking { PerVector, WholeBatch };

/// Upserts vectors (stored row after row) into the index, in one multi-threaded batch when
/// allowed; a batch holding a vector the index refuses falls back to one by one so the others
/// still land.
void upsertWithFallback(VectorIndex &index, const QVector<quint64> &labels,
                        const QByteArray &vectors, Locking locking,
                        const std::function<void()> &beforeEachInsert)
{
    if (labels.isEmpty()
        || (locking == Locking::WholeBatch && index.upsertMany(labels, floats(vectors))))
        return;
    for (qsizetype i = 0; i < labels.size(); ++i) {
        if (beforeEachInsert)
            beforeEachInsert();
        if (auto r = index.upsert(labels.at(i), floats(vectors) + i * kDim); !r)
            qCWarning(lcIndex) << "cannot index label" << labels.at(i) << r.error().message;
    }
}

/// Writes a batch of changes (one per label) into the index, the vectors as SQLite holds them
/// now (a newer version than the change is fine: it stays pending and is written again). The
/// index has its own lock.
Result<void> writeChanges(QSqlDatabase &db, VectorIndex &index, const QVector<qint64> &labels,
                          const QVector<PendingChange> &changes, Locking locking,
                          const std::function<void()> &beforeEachInsert = {})
{
    QVector<qint64> upserts;
    for (qsizetype i = 0; i < labels.size(); ++i) {
        if (!changes.at(i).isRemoval())
            upserts.append(labels.at(i));
        else if (auto r = index.remove(quint64(labels.at(i))); !r)
            qCWarning(lcIndex) << "cannot unindex label" << labels.at(i) << r.error().message;
    }
    QVector<quint64> upsertLabels;
    QByteArray upsertVectors;
    upsertVectors.reserve(upserts.size() * kVectorBytes);
    auto read = readUnits(db, upserts, [&](qint64 label, const QByteArray &unit) {
        upsertLabels.append(quint64(label));
        upsertVectors.append(unit);
    });
    if (!read)
        return read.error();
    upsertWithFallback(index, upsertLabels, upsertVectors, locking, beforeEachInsert);
    return {};
}

/// What a search reads of a scope, taken under the scope lock and used without it.
struct SearchSnapshot
{
    VectorIndex *index = nullptr;
    QHash<qint64, PendingChange> pending; // implicitly shared: copying it is O(1)
    CodeBlocks::View codes;               // the pending codes, as written when taken
    int inFlight = 0;
};

/// The index's hits for the query, none of them a label with a pending change.
///
/// A pending change overrides what the index holds for its label. When some pending label is
/// in the index, a filter keeps it out and lets the index widen its search, so overrides never
/// starve the result. Without one, only labels a drain is inserting right now can appear after
/// the check: fetch that many more and drop them when merging.
QVector<VectorHit> indexHits(const SearchSnapshot &snap, const QVector<float> &query, int k,
                             const std::function<bool(qint64)> &accept, int ef)
{
    const QHash<qint64, PendingChange> &pending = snap.pending;
    // Asking the index about every pending label costs more than filtering its candidates
    // once the backlog is large (8 ms at 90,000): then the filter is simply assumed.
    const bool pendingIndexed = pending.size() > kAskIndexUpTo
                                || (!pending.isEmpty() && snap.index->containsAny(pending.keys()));
    std::function<bool(quint64)> filter;
    if (accept || pendingIndexed) {
        filter = [&accept, &pending](quint64 label) {
            return !pending.contains(qint64(label)) && (!accept || accept(qint64(label)));
        };
    }
    const int fetch = filter ? k : k + qMin(snap.inFlight, int(pending.size()));
    return snap.index->size() < kExactScanBelow
               ? snap.index->exactSearch(query.constData(), fetch, filter)
               : snap.index->search(query.constData(), fetch, filter, ef);
}

/// Pending candidates scored again exactly: the approximate scan's best, with a margin far
/// wider than its error can reorder.
qsizetype exactCandidates(int k)
{
    return qMax(2 * qsizetype(k), qsizetype(k) + 64);
}

/// Every pending upsert the filter accepts, scored the way the index scores (dot of unit
/// vectors): all of them through their codes, then the best exactly from SQLite's floats.
Result<void> scorePending(QSqlDatabase &db, const SearchSnapshot &snap, const QVector<float> &query,
                          int k, const std::function<bool(qint64)> &accept,
                          QVector<VectorMatch> *matches)
{
    const QHash<qint64, PendingChange> &pending = snap.pending;
    const QByteArray unitQuery = pending.isEmpty() ? QByteArray() : unitVector(query.constData());
    if (unitQuery.isEmpty())
        return {};
    const QByteArray queryCode = codeOf(unitQuery);
    QVector<VectorMatch> rough;
    rough.reserve(pending.size());
    // A slot counts while its change is the label's pending one: released codes (superseded
    // or indexed before the snapshot) are skipped without a hash lookup per slot, which cost
    // three times the scoring at 90,000 pending.
    for (const auto &[block, used] : snap.codes.blocks) {
        for (int slot = 0; slot < used; ++slot) {
            const qint64 label = block->labels[size_t(slot)];
            if (!snap.codes.counted(*block, slot) || (accept && !accept(label)))
                continue;
            rough.append({label, VectorCode::approximateDot(queryCode.constData(),
                                                            block->code(slot), kDim)});
        }
    }
    const qsizetype keep = qMin(exactCandidates(k), rough.size());
    std::nth_element(rough.begin(), rough.begin() + keep, rough.end(), betterMatch);
    QVector<qint64> labels;
    labels.reserve(keep);
    for (qsizetype i = 0; i < keep; ++i)
        labels.append(rough.at(i).label);
    const VectorScorer::DotFunction dot = VectorScorer::dotFunction();
    return readUnits(db, labels, [&](qint64 label, const QByteArray &unit) {
        const float score = dot(floats(unitQuery), floats(unit), kDim);
        matches->append({label, std::clamp(score, -1.0f, 1.0f)});
    });
}

/// The index's hits and the pending upserts, scored alike, best k first.
Result<QVector<VectorMatch>> mergeWithPending(QSqlDatabase &db, const QVector<VectorHit> &hits,
                                              const SearchSnapshot &snap,
                                              const QVector<float> &query, int k,
                                              const std::function<bool(qint64)> &accept)
{
    QVector<VectorMatch> matches;
    matches.reserve(hits.size() + qMin(qsizetype(snap.pending.size()), exactCandidates(k)));
    for (const VectorHit &h : hits) {
        if (!snap.pending.contains(qint64(h.label)))
            matches.append({qint64(h.label), h.similarity});
    }
    if (auto scored = scorePending(db, snap, query, k, accept, &matches); !scored)
        return scored.error();
    // Only the best k are ordered: the pending set may hold a whole bulk load.
    const qsizetype keep = qMin(qsizetype(k), matches.size());
    std::partial_sort(matches.begin(), matches.begin() + keep, matches.end(), betterMatch);
    matches.resize(keep);
    return matches;
}

/// A stored vector change read by a catch-up.
struct StoredChange
{
    qint64 label = 0;
    qint64 version = 0;
    QByteArray code; // VectorCode; empty: not (or no longer) a ready vector
};

/// What a catch-up read from SQLite without the scope lock.
struct StoredChanges
{
    QVector<StoredChange> changes;
    qint64 newestVersion = 0;
};

/// Versions already mirrored for labels (pending or drained since the last catch-up): taken
/// under the scope lock as implicitly shared copies, read without it.
struct MirroredVersions
{
    QHash<qint64, PendingChange> pending;
    QHash<qint64, qint64> held;

    bool has(qint64 label, qint64 version) const
    {
        const auto p = pending.constFind(label);
        return (p != pending.cend() && p->version == version) || held.value(label, -1) == version;
    }
};

/// The scope's stored changes above afterVersion that are not mirrored yet. Phase 1 reads only
/// the covering (tenant, scope, version, label) index: after a bulk load almost every changed
/// row was already mirrored by apply(), and reading their vectors again would cost a full table
/// read. Phase 2 reads the vectors of the others by primary label lookups.
Result<StoredChanges> readStoredChanges(QSqlDatabase &db, const QString &tenantId,
                                        const QString &scope, qint64 afterVersion,
                                        const MirroredVersions &mirrored)
{
    StoredChanges out;
    out.newestVersion = afterVersion;
    QVector<qint64> stale;
    auto listed = IndexStore::forEachChangedLabel(
        db, tenantId, scope, afterVersion, [&](qint64 label, qint64 version) {
            out.newestVersion = qMax(out.newestVersion, version);
            if (!mirrored.has(label, version))
                stale.append(label);
        });
    if (!listed)
        return listed.error();
    for (qsizetype from = 0; from < stale.size(); from += kCatchUpBatch) {
        auto read = IndexStore::forEachEmbedding(
            db, stale.mid(from, kCatchUpBatch), [&](const IndexStore::StoredEmbedding &row) {
                const bool usable
                    = row.status == QLatin1String("ready") && row.vector.size() == kVectorBytes;
                out.changes.append(
                    {row.label, row.version,
                     usable ? codeOf(unitVector(floats(row.vector))) : QByteArray()});
            });
        if (!read)
            return read.error();
    }
    return out;
}

/// The scope's index from its file (watermark: the newest change it holds), or a new empty
/// one when there is no file or it cannot be trusted (rebuilt is then set).
Result<std::unique_ptr<VectorIndex>> openIndex(QSqlDatabase &db, const QString &path,
                                               const QString &tenantId, const QString &scope,
                                               qint64 *watermark, bool *rebuilt)
{
    quint64 saved = 0;
    auto loaded = VectorIndex::load(path, kDim, &saved);
    *watermark = qint64(saved);
    *rebuilt = !loaded;
    if (loaded) {
        loaded.value()->setEfSearch(kEfSearch);
        return std::move(loaded).value();
    }
    if (loaded.error().code != QLatin1String("index_missing"))
        qCWarning(lcIndex) << "rebuilding index of" << tenantId << scope << ":"
                           << loaded.error().message;
    *watermark = 0;
    auto size = IndexStore::scopeSize(db, tenantId, scope);
    if (!size)
        return size.error();
    auto index = std::make_unique<VectorIndex>(kDim, qMax(1024, int(size.value().rows) + 1024));
    index->setEfSearch(kEfSearch);
    return index;
}
} // namespace

struct IndexManager::ScopeIndex
{
    QString tenantId;
    QString scope;
    QMutex mutex;                       // guards the fields below (not the index internals)
    std::unique_ptr<VectorIndex> index; // set once loaded, never replaced
    std::atomic<bool> ready{false};     // index set and the store's changes mirrored
    bool loading = false;               // a load task is queued or running
    Error loadError;                    // why the last load failed (ready stays false)
    bool loadFailed = false;
    QWaitCondition loadDone;              // loading went down
    qint64 appliedVersion = 0;            // every row with embedding_version <= this is mirrored
                                          // (in the index or in pending)
    qint64 newestRecorded = 0;            // newest version apply() or a catch-up mirrored
    QHash<qint64, qint64> heldVersion;    // label -> version written after appliedVersion
    QHash<qint64, PendingChange> pending; // label -> newest change not yet in the index
    CodeBlocks codes;                     // the codes of the pending upserts
    bool draining = false;                // a drain task is queued or running
    int inFlight = 0;                     // pending changes the running drain is writing
    QWaitCondition drainIdle;             // draining or inFlight went down
    int unsaved = 0;

    /// Records a change unless one already seen for the label supersedes it (writers call
    /// apply() after their commit, so two writers' calls can arrive out of order).
    bool record(qint64 label, qint64 version, const QByteArray &code)
    {
        const bool removal = code.isEmpty();
        if (const auto p = pending.constFind(label); p != pending.cend()) {
            if (!supersedes(version, removal, p->version, p->isRemoval()))
                return false;
        } else if (const auto held = heldVersion.constFind(label); held != heldVersion.cend()) {
            if (!supersedes(version, removal, *held, false))
                return false;
        } else if (!removal && version <= appliedVersion) {
            return false; // a catch-up already read this row at this version or a newer one
        }
        if (const auto previous = pending.constFind(label); previous != pending.cend())
            codes.release(previous->code);
        pending.insert(label, PendingChange{version, code.isEmpty() ? CodeBlocks::Slot()
                                                                    : codes.append(label, code)});
        newestRecorded = qMax(newestRecorded, version);
        return true;
    }

    /// Takes in what a catch-up read: every change not superseded meanwhile becomes pending,
    /// and everything up to the newest version it saw counts as mirrored.
    void absorb(const StoredChanges &read)
    {
        for (const StoredChange &change : read.changes)
            record(change.label, change.version, change.code);
        appliedVersion = qMax(appliedVersion, read.newestVersion);
        newestRecorded = qMax(newestRecorded, appliedVersion);
        for (auto it = heldVersion.begin(); it != heldVersion.end();)
            it = it.value() <= appliedVersion ? heldVersion.erase(it) : std::next(it);
    }

    /// Whether the store may hold a change no apply() or catch-up mirrored: only writes that
    /// bypass apply() (every service path calls it right after its commit) leave one.
    bool mayLag(qint64 storedNewest) const { return storedNewest > newestRecorded; }

    /// The newest version a saved file may claim: everything at or below it is in the index.
    qint64 savableWatermark() const
    {
        qint64 watermark = appliedVersion;
        for (const PendingChange &change : pending)
            watermark = qMin(watermark, change.version - 1);
        return qMax<qint64>(watermark, 0);
    }
};

IndexManager::IndexManager(Database &db, const QString &directory)
    : m_db(db), m_directory(directory)
{
    if (auto folder = PrivateFiles::ensureFolder(m_directory); !folder)
        qCWarning(lcIndex) << "cannot prepare the index folder:" << folder.error().message;
    m_pool.setMaxThreadCount(qMax(4, QThread::idealThreadCount()));
}

IndexManager::~IndexManager()
{
    m_pool.waitForDone();
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

std::shared_ptr<IndexManager::ScopeIndex>
IndexManager::existingScopeIndex(const QString &tenantId, const QString &scope) const
{
    QMutexLocker lock(&m_lock);
    return m_indexes.value(tenantId + QLatin1Char('\n') + scope);
}

QList<std::shared_ptr<IndexManager::ScopeIndex>> IndexManager::allScopeIndexes() const
{
    QMutexLocker lock(&m_lock);
    return m_indexes.values();
}

void IndexManager::startLoadLocked(const std::shared_ptr<ScopeIndex> &entry)
{
    if (entry->ready.load() || entry->loading)
        return;
    entry->loading = true;
    entry->loadFailed = false;
    m_pool.start([this, entry] { load(entry); });
}

void IndexManager::load(const std::shared_ptr<ScopeIndex> &entry)
{
    const Result<void> loaded = openAndCatchUp(entry);
    QMutexLocker lock(&entry->mutex);
    entry->loading = false;
    entry->ready = loaded.ok();
    entry->loadFailed = !loaded;
    if (!loaded) {
        entry->loadError = loaded.error();
        qCWarning(lcIndex) << "cannot load index of" << entry->tenantId << entry->scope << ":"
                           << loaded.error().message;
    }
    entry->loadDone.wakeAll();
    startDrainLocked(entry);
}

Result<void> IndexManager::openAndCatchUp(const std::shared_ptr<ScopeIndex> &entry)
{
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    // The file is read without the scope lock: apply() goes on recording meanwhile.
    qint64 watermark = 0;
    bool rebuilt = false;
    auto opened = openIndex(conn.value(), indexPath(entry->tenantId, entry->scope), entry->tenantId,
                            entry->scope, &watermark, &rebuilt);
    if (!opened)
        return opened.error();
    {
        QMutexLocker lock(&entry->mutex);
        entry->index = std::move(opened).value();
        entry->appliedVersion = watermark;
        if (rebuilt)
            entry->unsaved = qMax(entry->unsaved, 1);
    }
    return catchUp(entry);
}

Result<void> IndexManager::catchUp(const std::shared_ptr<ScopeIndex> &entry)
{
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    MirroredVersions mirrored;
    qint64 after = 0;
    {
        QMutexLocker lock(&entry->mutex);
        mirrored = {entry->pending, entry->heldVersion};
        after = entry->appliedVersion;
    }
    // SQLite is read without the scope lock; absorb() drops what apply() superseded meanwhile.
    auto read = readStoredChanges(conn.value(), entry->tenantId, entry->scope, after, mirrored);
    if (!read)
        return read.error();
    QMutexLocker lock(&entry->mutex);
    entry->absorb(read.value());
    if (entry->ready.load())
        startDrainLocked(entry);
    return {};
}

void IndexManager::apply(const QString &tenantId, const QString &scope, qint64 label,
                         qint64 version, const QByteArray &vector)
{
    // Normalised and encoded here, outside every lock; the hnswlib insert itself is left to
    // the drain.
    QByteArray code;
    if (vector.size() == kVectorBytes) {
        const QByteArray unit = unitVector(floats(vector));
        if (unit.isEmpty()) {
            qCWarning(lcIndex) << "cannot index label" << label << ": zero or non-finite vector";
            return;
        }
        code = codeOf(unit);
    }
    auto entry = scopeIndex(tenantId, scope);
    QMutexLocker lock(&entry->mutex);
    if (!entry->record(label, version, code))
        return;
    // A scope's first write brings its index to life, so its first search finds it ready.
    startLoadLocked(entry);
    startDrainLocked(entry);
}

void IndexManager::startDrainLocked(const std::shared_ptr<ScopeIndex> &entry)
{
    if (!entry->ready.load() || entry->draining || entry->pending.isEmpty() || m_drainPaused.load())
        return;
    entry->draining = true;
    m_pool.start([this, entry] { drain(entry); });
}

void IndexManager::drain(const std::shared_ptr<ScopeIndex> &entry)
{
    VectorIndex &index = *entry->index;
    auto conn = m_db.connection();
    for (;;) {
        QVector<qint64> labels;
        QVector<PendingChange> changes;
        qsizetype backlog = 0;
        {
            QMutexLocker lock(&entry->mutex);
            if (entry->pending.isEmpty() || m_drainPaused.load()) {
                entry->draining = false;
                entry->drainIdle.wakeAll();
                return;
            }
            for (auto it = entry->pending.cbegin();
                 it != entry->pending.cend() && labels.size() < kDrainBatch; ++it) {
                labels.append(it.key());
                changes.append(it.value());
            }
            entry->inFlight = int(labels.size());
            backlog = entry->pending.size();
        }
        // No scope lock here: apply() and searches go on while hnswlib inserts.
        const Result<void> inserted
            = conn ? writeChanges(conn.value(), index, labels, changes, Locking::PerVector,
                                  [this, backlog] { yieldToRequests(backlog); })
                   : Result<void>(conn.error());
        QMutexLocker lock(&entry->mutex);
        if (!inserted) {
            // The batch stays pending (still searched); the next change starts a drain again.
            qCWarning(lcIndex) << "cannot read vectors to index:" << inserted.error().message;
            entry->inFlight = 0;
            entry->draining = false;
            entry->drainIdle.wakeAll();
            return;
        }
        for (qsizetype i = 0; i < labels.size(); ++i) {
            const PendingChange &written = changes.at(i);
            const auto now = entry->pending.find(labels.at(i));
            // A newer change that arrived meanwhile stays pending for the next batch.
            if (now == entry->pending.end() || now->version != written.version
                || now->isRemoval() != written.isRemoval())
                continue;
            entry->codes.release(now->code);
            entry->pending.erase(now);
            if (written.version > entry->appliedVersion)
                entry->heldVersion.insert(labels.at(i), written.version);
        }
        entry->inFlight = 0;
        entry->drainIdle.wakeAll();
        entry->unsaved += int(labels.size());
        if (entry->unsaved >= kSaveEveryChanges)
            saveInBackgroundLocked(entry);
    }
}

void IndexManager::yieldToRequests(qsizetype backlog)
{
    if (backlog >= kYieldBelowBacklog)
        return;
    const bool forWrites = backlog < kYieldToWritesBelowBacklog;
    std::unique_lock lock(m_requestsLock);
    m_requestsDone.wait_for(lock, std::chrono::milliseconds(kMaxYieldMs), [this, forWrites] {
        return m_searches == 0 && (!forWrites || m_writes == 0);
    });
}

IndexManager::RequestInFlight::RequestInFlight(IndexManager &manager, Kind kind)
    : m_manager(manager), m_kind(kind)
{
    const std::lock_guard lock(m_manager.m_requestsLock);
    ++(m_kind == Search ? m_manager.m_searches : m_manager.m_writes);
}

IndexManager::RequestInFlight::~RequestInFlight()
{
    const std::lock_guard lock(m_manager.m_requestsLock);
    if (--(m_kind == Search ? m_manager.m_searches : m_manager.m_writes) == 0)
        m_manager.m_requestsDone.notify_all();
}

void IndexManager::flushPendingLocked(ScopeIndex &entry)
{
    if (entry.pending.isEmpty())
        return;
    const QVector<qint64> labels = entry.pending.keys();
    QVector<PendingChange> changes;
    changes.reserve(labels.size());
    for (qint64 label : labels)
        changes.append(entry.pending.value(label));
    auto conn = m_db.connection();
    const Result<void> written
        = conn ? writeChanges(conn.value(), *entry.index, labels, changes, Locking::WholeBatch)
               : Result<void>(conn.error());
    if (!written) {
        // Still pending, so a saved file claims none of it: the next start catches it up.
        qCWarning(lcIndex) << "cannot read vectors to index:" << written.error().message;
        return;
    }
    for (qsizetype i = 0; i < labels.size(); ++i) {
        if (changes.at(i).version > entry.appliedVersion)
            entry.heldVersion.insert(labels.at(i), changes.at(i).version);
    }
    entry.codes.clear();
    entry.pending.clear();
    entry.unsaved += int(labels.size());
}

void IndexManager::saveInBackgroundLocked(const std::shared_ptr<ScopeIndex> &entry)
{
    entry->unsaved = 0;
    const quint64 watermark = quint64(entry->savableWatermark());
    m_pool.start([this, entry, watermark] {
        // No scope lock across the file write: VectorIndex::save takes its own shared lock,
        // so writes and searches go on while the file is hashed and written.
        auto saved = entry->index->save(indexPath(entry->tenantId, entry->scope), watermark);
        if (!saved)
            qCWarning(lcIndex) << "cannot save index:" << saved.error().message;
    });
}

Result<QVector<VectorMatch>> IndexManager::search(const QString &tenantId, const QString &scope,
                                                  const QVector<float> &query, int k,
                                                  const std::function<bool(qint64)> &accept, int ef)
{
    if (query.size() != kDim)
        return Error::invalidField(QStringLiteral("query_embedding"),
                                   QStringLiteral("must have %1 numbers").arg(kDim));
    if (k <= 0)
        return QVector<VectorMatch>();
    const RequestInFlight running(*this, RequestInFlight::Search);
    auto entry = scopeIndex(tenantId, scope);
    // Cheap check (indexed MAX) so steady-state searches never wait for each other.
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto newest = IndexStore::newestEmbeddingVersion(conn.value(), tenantId, scope);
    if (!newest)
        return newest.error();
    bool lagging = false;
    {
        QMutexLocker lock(&entry->mutex);
        if (auto loaded = waitUntilLoadedLocked(entry); !loaded)
            return loaded.error();
        lagging = entry->mayLag(newest.value());
    }
    if (lagging) {
        if (auto caught = catchUp(entry); !caught)
            return caught.error();
    }
    SearchSnapshot snap;
    {
        QMutexLocker lock(&entry->mutex);
        snap.index = entry->index.get();
        snap.pending = entry->pending;
        snap.codes = entry->codes.view();
        snap.inFlight = entry->inFlight;
    }
    return mergeWithPending(conn.value(), indexHits(snap, query, k, accept, ef), snap, query, k,
                            accept);
}

Result<void> IndexManager::waitUntilLoadedLocked(const std::shared_ptr<ScopeIndex> &entry)
{
    // A load reads the index file and the changes it lacks; it never builds graph. A scope that
    // was written to since the start is ready long before its first search.
    startLoadLocked(entry);
    while (entry->loading)
        entry->loadDone.wait(&entry->mutex);
    if (entry->loadFailed)
        return entry->loadError;
    return {};
}

void IndexManager::warmUp()
{
    auto conn = m_db.connection();
    if (!conn)
        return;
    auto scopes = IndexStore::embeddedScopes(conn.value());
    if (!scopes)
        return;
    for (const IndexStore::ScopeKey &key : std::as_const(scopes.value())) {
        auto entry = scopeIndex(key.tenantId, key.scope);
        QMutexLocker lock(&entry->mutex);
        startLoadLocked(entry);
    }
}

void IndexManager::saveAll()
{
    for (const auto &entry : allScopeIndexes()) {
        QMutexLocker lock(&entry->mutex);
        // wait() releases the scope lock, so the load or drain can finish its batch.
        while (entry->loading || entry->draining) {
            if (entry->loading)
                entry->loadDone.wait(&entry->mutex);
            else
                entry->drainIdle.wait(&entry->mutex);
        }
        if (!entry->ready.load() || (entry->unsaved == 0 && entry->pending.isEmpty()))
            continue;
        flushPendingLocked(*entry);
        // The final catch-up runs under the lock: nothing else should be writing now.
        auto conn = m_db.connection();
        if (!conn)
            continue;
        auto read = readStoredChanges(conn.value(), entry->tenantId, entry->scope,
                                      entry->appliedVersion, {entry->pending, entry->heldVersion});
        if (!read)
            continue;
        entry->absorb(read.value());
        flushPendingLocked(*entry);
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
    const auto entry = existingScopeIndex(tenantId, scope);
    if (!entry)
        return -1;
    QMutexLocker lock(&entry->mutex);
    while (entry->loading)
        entry->loadDone.wait(&entry->mutex);
    if (!entry->ready.load())
        return -1;
    // With no batch in flight the index only changes under this lock, so the count is exact.
    while (entry->inFlight > 0)
        entry->drainIdle.wait(&entry->mutex);
    qint64 count = entry->index->size();
    for (auto it = entry->pending.cbegin(); it != entry->pending.cend(); ++it) {
        const bool indexed = entry->index->contains(quint64(it.key()));
        if (it->isRemoval() && indexed)
            --count;
        else if (!it->isRemoval() && !indexed)
            ++count;
    }
    return count;
}

int IndexManager::pendingCount(const QString &tenantId, const QString &scope) const
{
    const auto entry = existingScopeIndex(tenantId, scope);
    if (!entry)
        return 0;
    QMutexLocker lock(&entry->mutex);
    return int(entry->pending.size());
}

void IndexManager::setDrainPaused(bool paused)
{
    m_drainPaused = paused;
    if (paused)
        return;
    for (const auto &entry : allScopeIndexes()) {
        QMutexLocker lock(&entry->mutex);
        startDrainLocked(entry);
    }
}

void IndexManager::waitForDrains()
{
    for (const auto &entry : allScopeIndexes()) {
        QMutexLocker lock(&entry->mutex);
        while (entry->loading)
            entry->loadDone.wait(&entry->mutex);
        while (entry->draining)
            entry->drainIdle.wait(&entry->mutex);
    }
}

} // namespace MemoryGraph
