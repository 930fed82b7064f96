#pragma once

#include "service/core/result.h"

#include <QString>
#include <QVector>
#include <QtGlobal>

#include <functional>
#include <memory>

namespace MemoryGraph {

/// One nearest-neighbour hit: the caller's label and the cosine similarity in [-1, 1].
struct VectorHit
{
    quint64 label = 0;
    float similarity = 0.0f;
};

/// Approximate cosine nearest-neighbour index over fixed-dimension float vectors (hnswlib HNSW,
/// M=16, ef_construction=200, inner product on L2-normalised copies).
///
/// The index is a cache of the embeddings held in SQLite: it is persisted with its own header
/// (magic, format version, dimension, counts, the caller's watermark, SHA-256) and load() refuses
/// anything it cannot trust, so the caller rebuilds instead of serving from a damaged file.
///
/// Every public method is thread-safe. hnswlib 0.6.2 cannot search while it inserts, so searches
/// share a reader-writer lock (one that does not starve writers) and every mutation takes it
/// exclusively. No hnswlib exception ever leaves this class; failures come back as Error values.
class VectorIndex
{
public:
    explicit VectorIndex(int dimension = 1536, int initialCapacity = 1024);
    ~VectorIndex();

    VectorIndex(const VectorIndex &) = delete;
    VectorIndex &operator=(const VectorIndex &) = delete;

    int dimension() const;
    /// Live (not removed) elements.
    qint64 size() const;
    /// Slots the index can hold before it has to grow (removed elements keep their slot).
    qint64 capacity() const;
    bool contains(quint64 label) const;
    /// Whether any of the labels is live, under one shared lock (a pending set may hold a
    /// whole bulk load; one lock per label would queue behind every insert).
    bool containsAny(const QList<qint64> &labels) const;

    /// Inserts or replaces the vector of a label (dimension() floats, copied and L2-normalised).
    /// A zero or non-finite vector is rejected. Doubles the capacity when the index is full.
    Result<void> upsert(quint64 label, const float *vector);

    /// Bulk upsert for (re)building from SQLite: labels.size() vectors stored row after row in
    /// vectors. All vectors are validated before anything changes; the inserts then run on
    /// several threads while the index is locked exclusively, which is why a rebuild should
    /// fill a fresh index that is swapped in afterwards. A repeated label keeps its last vector.
    Result<void> upsertMany(const QVector<quint64> &labels, const float *vectors);

    /// Hides a label from searches. Unknown or already removed labels are fine (idempotent).
    Result<void> remove(quint64 label);

    /// The k nearest live labels by cosine similarity, best first. accept, when given, filters
    /// labels; it runs under the index's shared lock, so it must be cheap and must not call back
    /// into this index (a waiting writer would deadlock it). With a filter the search widens
    /// until k accepted hits are found, falling back to an exact scan when the filter is so
    /// selective that a scan is cheaper. A zero query yields no hits. ef: the candidate list of
    /// this search (hnswlib's ef; it uses max(ef, k)), 0 for efSearch().
    QVector<VectorHit> search(const float *query, int k,
                              const std::function<bool(quint64)> &accept = {}, int ef = 0) const;

    /// Exact brute-force scan over the stored vectors: for small indexes and recall checks.
    QVector<VectorHit> exactSearch(const float *query, int k,
                                   const std::function<bool(quint64)> &accept = {}) const;

    /// Size of the dynamic candidate list of searches that name none (hnswlib's ef); a search
    /// uses max(ef, k). Default 64.
    void setEfSearch(int ef);
    int efSearch() const;

    /// Writes the index atomically. watermark is the last embedding change the index reflects;
    /// load() hands it back so the caller can replay what came after.
    Result<void> save(const QString &path, quint64 watermark) const;

    /// Reads an index written by save(). Fails with index_missing (no file), index_corrupt
    /// (bad magic, truncated, checksum mismatch, hnswlib refused it) or index_incompatible
    /// (other format version, other dimension, other hnswlib layout).
    static Result<std::unique_ptr<VectorIndex>> load(const QString &path, int expectedDimension,
                                                     quint64 *watermark);

private:
    struct Private;
    explicit VectorIndex(std::unique_ptr<Private> d);
    std::unique_ptr<Private> m_d;
};

} // namespace MemoryGraph
