#include "service/index/vectorindex.h"

#include "service/core/privatefiles.h"
#include "service/index/sha256stream.h"
#include "service/index/vectorscorer.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonObject>
#include <QSaveFile>
#include <QTemporaryFile>
#include <QThread>
#include <QtEndian>
#include <queue>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>
#include <vector>

// hnswlib's SSE prefetches read one id past the end of an upper-layer link list: harmless with a
// real allocator, fatal under AddressSanitizer. Sanitizer builds use its plain C++ kernels.
#if defined(__SANITIZE_ADDRESS__)
#define NO_MANUAL_VECTORIZATION
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_MANUAL_VECTORIZATION
#endif
#endif
// hnswlib.h defines non-inline functions and globals: this must stay the only file including it.
#include <hnswlib/hnswlib.h>

// hnswlib's own version memcpy()s from an empty vector's null data() when a link list is empty,
// which UBSan (fatal in the asan preset) rejects. Same behaviour, minus the null pointer.
template<>
inline std::vector<hnswlib::tableint>
hnswlib::HierarchicalNSW<float>::getConnectionsWithLock(hnswlib::tableint internalId, int level)
{
    std::unique_lock<std::mutex> guard(link_list_locks_[internalId]);
    linklistsizeint *list = get_linklist_at_level(internalId, level);
    std::vector<tableint> result(getListCount(list));
    if (!result.empty())
        std::memcpy(result.data(), list + 1, result.size() * sizeof(tableint));
    return result;
}

namespace MemoryGraph {

namespace {

using Hnsw = hnswlib::HierarchicalNSW<float>;
using Filter = std::function<bool(quint64)>;

constexpr size_t kM = 16;
constexpr size_t kEfConstruction = 200;
constexpr int kDefaultEfSearch = 64;

// File layout (little-endian), followed by payloadSize bytes of hnswlib's saveIndex output:
//   0 magic "MGVI" | 4 u32 format version | 8 u32 dimension | 12 u32 reserved (0)
//  16 u64 live count | 24 u64 element count (incl. removed) | 32 u64 capacity
//  40 u64 watermark | 48 u64 payload size | 56 SHA-256 over bytes 0..55 and the payload
// The checksum covers the header fields too, so a flipped watermark or count is caught as well.
constexpr char kMagic[4] = {'M', 'G', 'V', 'I'};
constexpr quint32 kFormatVersion = 1;
constexpr qint64 kChecksumOffset = 56;
constexpr qint64 kChecksumSize = 32;
constexpr qint64 kHeaderSize = kChecksumOffset + kChecksumSize;
constexpr qint64 kCopyChunk = qint64(1) << 20;

// hnswlib addresses elements with 32-bit ids; one id value is its "no entry point" marker.
constexpr quint64 kMaxElements = std::numeric_limits<hnswlib::tableint>::max() - 1;

Error vectorError(const QString &message)
{
    return Error::make(400, QStringLiteral("invalid_vector"), message);
}

Error indexError(const QString &message)
{
    return Error::make(500, QStringLiteral("index_error"), message);
}

Error loadError(const QString &code, const QString &path, const QString &reason)
{
    return Error::make(code == QLatin1String("index_missing") ? 404 : 500, code,
                       QStringLiteral("Vector index %1: %2").arg(path, reason),
                       {{QStringLiteral("path"), path}, {QStringLiteral("reason"), reason}});
}

QString describe(const std::exception &e)
{
    return QString::fromLocal8Bit(e.what());
}

/// Copies vector into out scaled to unit length. False for a zero or non-finite vector, which
/// has no direction and would poison every inner product it takes part in.
bool normalise(const float *vector, int dimension, float *out)
{
    double sum = 0.0; // double: 1536 small squares lose digits in float
    for (int i = 0; i < dimension; ++i) {
        if (!std::isfinite(vector[i]))
            return false;
        sum += double(vector[i]) * double(vector[i]);
    }
    if (!(sum > 0.0) || !std::isfinite(sum))
        return false;
    const double scale = 1.0 / std::sqrt(sum);
    for (int i = 0; i < dimension; ++i)
        out[i] = float(double(vector[i]) * scale);
    return true;
}

float similarityOf(float distance)
{
    // InnerProductSpace's distance is 1 - dot; rounding can push the dot a hair past ±1.
    return std::clamp(1.0f - distance, -1.0f, 1.0f);
}

void putU32(char *at, quint32 value)
{
    qToLittleEndian(value, at);
}
void putU64(char *at, quint64 value)
{
    qToLittleEndian(value, at);
}
quint32 getU32(const char *at)
{
    return qFromLittleEndian<quint32>(at);
}
quint64 getU64(const char *at)
{
    return qFromLittleEndian<quint64>(at);
}

std::string localPath(const QString &path)
{
    return QFile::encodeName(path).toStdString();
}

template<typename T> T readPod(const QByteArray &bytes, qint64 offset)
{
    T value;
    std::memcpy(&value, bytes.constData() + offset, sizeof(T));
    return value;
}

/// Checks that a payload is an hnswlib 0.6.2 index of the expected shape before hnswlib's
/// loadIndex sees it: loadIndex trusts its input and would allocate or read out of bounds on
/// a layout it did not write itself. Returns an empty string when the payload looks right.
QString checkPayload(QIODevice &payload, int dimension, quint64 elementCount)
{
    // Field order and types of HierarchicalNSW::saveIndex (native byte order).
    constexpr qint64 kPayloadHeader = 6 * sizeof(size_t) + sizeof(int) + sizeof(hnswlib::tableint)
                                      + 3 * sizeof(size_t) + sizeof(double) + sizeof(size_t);
    if (!payload.seek(0))
        return QStringLiteral("payload not readable");
    const QByteArray head = payload.read(kPayloadHeader);
    if (head.size() != kPayloadHeader)
        return QStringLiteral("payload header truncated");

    qint64 at = 0;
    auto nextSize = [&] {
        const auto value = readPod<size_t>(head, at);
        at += sizeof(size_t);
        return value;
    };
    const size_t offsetLevel0 = nextSize();
    nextSize(); // max_elements_: replaced by our own capacity on load
    const size_t count = nextSize();
    const size_t sizeDataPerElement = nextSize();
    const size_t labelOffset = nextSize();
    const size_t offsetData = nextSize();
    const int maxLevel = readPod<int>(head, at);
    at += sizeof(int);
    const auto entryPoint = readPod<hnswlib::tableint>(head, at);
    at += sizeof(hnswlib::tableint);
    const size_t maxM = nextSize();
    const size_t maxM0 = nextSize();
    const size_t m = nextSize();

    const size_t dataSize = size_t(dimension) * sizeof(float);
    constexpr size_t kId = sizeof(hnswlib::tableint);
    constexpr size_t kCount = sizeof(hnswlib::linklistsizeint);
    const size_t linksLevel0 = maxM0 * kId + kCount;
    const size_t linksPerElement = maxM * kId + kCount;
    if (offsetLevel0 != 0 || m < 2 || m > 10000 || maxM != m || maxM0 != 2 * m
        || offsetData != linksLevel0 || labelOffset != offsetData + dataSize
        || sizeDataPerElement != labelOffset + sizeof(hnswlib::labeltype))
        return QStringLiteral("payload layout does not match this hnswlib build");
    if (count != elementCount)
        return QStringLiteral("payload element count differs from the header");
    if (count == 0 ? (maxLevel != -1) : (maxLevel < 0 || entryPoint >= count))
        return QStringLiteral("payload entry point out of range");

    // Walk the upper-layer link lists the way loadIndex does, but without trusting them.
    qint64 pos = kPayloadHeader + qint64(count * sizeDataPerElement);
    const qint64 total = payload.size();
    for (size_t i = 0; i < count; ++i) {
        if (pos + qint64(sizeof(quint32)) > total || !payload.seek(pos))
            return QStringLiteral("payload link lists truncated");
        const QByteArray sizeBytes = payload.read(sizeof(hnswlib::linklistsizeint));
        if (sizeBytes.size() != qint64(sizeof(hnswlib::linklistsizeint)))
            return QStringLiteral("payload link lists truncated");
        const auto listSize = readPod<hnswlib::linklistsizeint>(sizeBytes, 0);
        if (listSize % linksPerElement != 0 || listSize / linksPerElement > size_t(maxLevel))
            return QStringLiteral("payload link list size out of range");
        pos += qint64(sizeof(hnswlib::linklistsizeint)) + qint64(listSize);
    }
    if (pos != total)
        return QStringLiteral("payload size does not match its content");
    return {};
}

/// A reader-writer lock that does not starve writers. std::shared_mutex maps to a
/// reader-preferring pthread rwlock on glibc: under a steady stream of searches an upsert could
/// wait forever. A writer holds the turnstile while it waits, so readers that arrive after it
/// queue behind it; readers only pass through the turnstile. Not recursive for readers.
class IndexLock
{
public:
    void lock()
    {
        std::lock_guard<std::mutex> turn(m_turnstile);
        m_lock.lock();
    }
    void unlock() { m_lock.unlock(); }
    void lock_shared()
    {
        {
            std::lock_guard<std::mutex> turn(m_turnstile);
        }
        m_lock.lock_shared();
    }
    void unlock_shared() { m_lock.unlock_shared(); }

private:
    std::mutex m_turnstile;
    std::shared_mutex m_lock;
};

/// Validates and normalises every row into units so a bad row fails the batch before the
/// index changes.
Result<void> normaliseRows(const QVector<quint64> &labels, const float *vectors, int dimension,
                           std::vector<float> &units)
{
    const auto dim = size_t(dimension);
    units.resize(size_t(labels.size()) * dim);
    for (qsizetype row = 0; row < labels.size(); ++row) {
        const size_t at = size_t(row) * dim;
        if (!normalise(vectors + at, dimension, units.data() + at))
            return vectorError(
                QStringLiteral("Vector for label %1 is zero or not finite").arg(labels.at(row)));
    }
    return {};
}

/// The last row of each label, in row order: two threads must never insert the same new label
/// at once, and a repeated label keeps its last vector.
std::vector<qsizetype> lastRowPerLabel(const QVector<quint64> &labels)
{
    QHash<quint64, qsizetype> lastRow;
    lastRow.reserve(labels.size());
    for (qsizetype row = 0; row < labels.size(); ++row)
        lastRow.insert(labels.at(row), row);
    std::vector<qsizetype> rows;
    rows.reserve(size_t(lastRow.size()));
    for (qsizetype row = 0; row < labels.size(); ++row) {
        if (lastRow.value(labels.at(row)) == row)
            rows.push_back(row);
    }
    return rows;
}

/// Labels among rows the index has never held: each needs a new slot.
quint64 newLabelCount(const Hnsw &index, const QVector<quint64> &labels,
                      const std::vector<qsizetype> &rows)
{
    quint64 fresh = 0;
    for (qsizetype row : rows)
        fresh += index.label_lookup_.count(hnswlib::labeltype(labels.at(row))) == 0 ? 1 : 0;
    return fresh;
}

/// Inserts rows[start..] on several threads. Parallel addPoint once the first element exists is
/// how hnswlib's own bindings build an index: element and link-list locks keep the graph
/// consistent. The one unguarded shared state is its level RNG (ThreadSanitizer reports it); the
/// worst a race there does is repeat a random level. Exceptions are caught inside each worker
/// since one escaping a std::thread would terminate the process. Returns the first failure.
QString insertInParallel(Hnsw &index, const std::vector<float> &units, size_t dim,
                         const QVector<quint64> &labels, const std::vector<qsizetype> &rows,
                         size_t start)
{
    const size_t remaining = rows.size() - start;
    const size_t threads
        = std::clamp<size_t>(remaining / 256, 1, size_t(std::max(1, QThread::idealThreadCount())));
    std::atomic<size_t> next{start};
    std::atomic<bool> failed{false};
    std::mutex failureLock;
    QString failure;
    auto work = [&] {
        for (size_t i = next++; i < rows.size() && !failed.load(); i = next++) {
            const qsizetype row = rows[i];
            try {
                index.addPoint(units.data() + size_t(row) * dim,
                               hnswlib::labeltype(labels.at(row)));
            } catch (const std::exception &e) {
                std::lock_guard<std::mutex> failureGuard(failureLock);
                failure = QStringLiteral("Cannot store label %1: %2")
                              .arg(labels.at(row))
                              .arg(describe(e));
                failed = true;
            } catch (...) {
                std::lock_guard<std::mutex> failureGuard(failureLock);
                failure = QStringLiteral("Cannot store label %1").arg(labels.at(row));
                failed = true;
            }
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(threads - 1);
    for (size_t t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (auto &thread : pool)
        thread.join();
    return failed ? failure : QString();
}

Error saveError(const QString &path, const QString &reason)
{
    return Error::make(500, QStringLiteral("index_write_failed"),
                       QStringLiteral("Cannot save vector index %1: %2").arg(path, reason),
                       {{QStringLiteral("path"), path}, {QStringLiteral("reason"), reason}});
}

/// What the file header records besides magic and format version.
struct HeaderFields
{
    quint32 dimension = 0;
    quint64 live = 0;
    quint64 elements = 0;
    quint64 capacity = 0;
    quint64 watermark = 0;
    quint64 payloadSize = 0;
};

/// The header with a zero checksum: the checksum is patched in once the payload streamed past.
QByteArray encodeHeader(const HeaderFields &f)
{
    QByteArray header(kHeaderSize, '\0');
    char *h = header.data();
    std::memcpy(h, kMagic, sizeof(kMagic));
    putU32(h + 4, kFormatVersion);
    putU32(h + 8, f.dimension);
    putU32(h + 12, 0);
    putU64(h + 16, f.live);
    putU64(h + 24, f.elements);
    putU64(h + 32, f.capacity);
    putU64(h + 40, f.watermark);
    putU64(h + 48, f.payloadSize);
    return header;
}

/// Writes header and payload to path atomically, with the checksum over both.
Result<void> writeIndexFile(const QString &path, const QByteArray &header, QFile &payload)
{
    Sha256Stream hash;
    hash.addData(QByteArrayView(header.constData(), kChecksumOffset));

    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return saveError(path, out.errorString());
    // QSaveFile gives a new file 0666 minus the umask; vectors are as private as the database.
    // A file system without Unix modes may refuse, which must not stop the save.
    if (!out.setPermissions(PrivateFiles::kFilePermissions))
        qWarning("VectorIndex: cannot make the index file owner-only");
    // The checksum is only known after the payload has streamed past, so write a placeholder
    // and patch it; QSaveFile makes the file appear complete or not at all.
    if (out.write(header) != kHeaderSize)
        return saveError(path, out.errorString());
    while (!payload.atEnd()) {
        const QByteArray chunk = payload.read(kCopyChunk);
        if (chunk.isEmpty() && payload.error() != QFileDevice::NoError)
            return saveError(path, payload.errorString());
        hash.addData(chunk);
        if (out.write(chunk) != chunk.size())
            return saveError(path, out.errorString());
    }
    const QByteArray digest = hash.result();
    if (!out.seek(kChecksumOffset) || out.write(digest) != kChecksumSize)
        return saveError(path, out.errorString());
    if (!out.commit())
        return saveError(path, out.errorString());
    return {};
}

const QString kIndexMissing = QStringLiteral("index_missing");
const QString kIndexCorrupt = QStringLiteral("index_corrupt");
const QString kIndexIncompatible = QStringLiteral("index_incompatible");

/// Reads and checks the header: magic, format version, dimension, the file size it promises
/// and counts that can hold together.
Result<HeaderFields> readHeader(QFile &file, const QString &path, int expectedDimension,
                                QByteArray *raw)
{
    const QByteArray header = file.read(kHeaderSize);
    if (header.size() != kHeaderSize)
        return loadError(kIndexCorrupt, path, QStringLiteral("header truncated"));
    const char *h = header.constData();
    if (std::memcmp(h, kMagic, sizeof(kMagic)) != 0)
        return loadError(kIndexCorrupt, path, QStringLiteral("not a vector index file"));
    const quint32 version = getU32(h + 4);
    if (version != kFormatVersion)
        return loadError(
            kIndexIncompatible, path,
            QStringLiteral("format version %1, expected %2").arg(version).arg(kFormatVersion));
    HeaderFields f;
    f.dimension = getU32(h + 8);
    if (expectedDimension <= 0 || f.dimension != quint32(expectedDimension))
        return loadError(
            kIndexIncompatible, path,
            QStringLiteral("dimension %1, expected %2").arg(f.dimension).arg(expectedDimension));
    f.live = getU64(h + 16);
    f.elements = getU64(h + 24);
    f.capacity = getU64(h + 32);
    f.watermark = getU64(h + 40);
    f.payloadSize = getU64(h + 48);
    if (f.payloadSize > quint64(std::numeric_limits<qint64>::max() - kHeaderSize)
        || file.size() != kHeaderSize + qint64(f.payloadSize))
        return loadError(kIndexCorrupt, path,
                         QStringLiteral("file is %1 bytes, header promises %2")
                             .arg(file.size())
                             .arg(kHeaderSize + f.payloadSize));
    if (f.live > f.elements || f.elements > f.capacity || f.capacity > kMaxElements
        || f.capacity == 0)
        return loadError(kIndexCorrupt, path, QStringLiteral("inconsistent element counts"));
    *raw = header;
    return f;
}

/// Opens a temporary file for the payload next to the index, else in the temp folder.
Result<void> openPayloadCopy(QTemporaryFile &copy, const QString &path)
{
    const QString pattern
        = QStringLiteral("/.") + QFileInfo(path).fileName() + QStringLiteral(".load-XXXXXX");
    copy.setFileTemplate(QFileInfo(path).absolutePath() + pattern);
    if (copy.open())
        return {};
    copy.setFileTemplate(QDir::tempPath() + pattern);
    if (!copy.open())
        return loadError(
            kIndexCorrupt, path,
            QStringLiteral("no room for a temporary copy: %1").arg(copy.errorString()));
    return {};
}

/// Copies the payload into copy, hashing it on the way; fails unless the checksum matches.
Result<void> copyVerifiedPayload(QFile &file, const QByteArray &header, QTemporaryFile &copy,
                                 const QString &path)
{
    Sha256Stream hash;
    hash.addData(QByteArrayView(header.constData(), kChecksumOffset));
    while (!file.atEnd()) {
        const QByteArray chunk = file.read(kCopyChunk);
        if (chunk.isEmpty() && file.error() != QFileDevice::NoError)
            return loadError(kIndexCorrupt, path, file.errorString());
        hash.addData(chunk);
        if (copy.write(chunk) != chunk.size())
            return loadError(kIndexCorrupt, path,
                             QStringLiteral("cannot copy the payload: %1").arg(copy.errorString()));
    }
    if (hash.result() != header.mid(kChecksumOffset, kChecksumSize))
        return loadError(kIndexCorrupt, path, QStringLiteral("checksum mismatch"));
    if (!copy.flush())
        return loadError(kIndexCorrupt, path, copy.errorString());
    return {};
}

} // namespace

/// hnswlib's inner-product space (distance 1 - dot, same data layout, so files are unchanged)
/// with the dot product chosen at run time: hnswlib's own kernels are fixed when it is
/// compiled, which for a portable build means SSE only.
class ScorerSpace : public hnswlib::SpaceInterface<float>
{
public:
    explicit ScorerSpace(size_t dim) : m_dim(dim) { }

    size_t get_data_size() override { return m_dim * sizeof(float); }
    hnswlib::DISTFUNC<float> get_dist_func() override { return &distance; }
    void *get_dist_func_param() override { return &m_dim; }

private:
    static float distance(const void *a, const void *b, const void *dim)
    {
        static const VectorScorer::DotFunction dot = VectorScorer::dotFunction();
        return 1.0f
               - dot(static_cast<const float *>(a), static_cast<const float *>(b),
                     qsizetype(*static_cast<const size_t *>(dim)));
    }

    size_t m_dim;
};

struct VectorIndex::Private
{
    explicit Private(int dim) : dimension(dim), space(size_t(dim)) { }

    qint64 liveCount() const
    {
        return index ? qint64(index->cur_element_count - index->num_deleted_) : 0;
    }

    bool isLive(quint64 label) const
    {
        if (!index)
            return false;
        const auto found = index->label_lookup_.find(hnswlib::labeltype(label));
        return found != index->label_lookup_.end() && !index->isMarkedDeleted(found->second);
    }

    /// Makes room for extra new elements, doubling so a stream of inserts resizes rarely.
    /// Caller holds the exclusive lock: resizeIndex reallocates everything searches read.
    Result<void> reserve(quint64 extra)
    {
        const quint64 needed = quint64(index->cur_element_count) + extra;
        if (needed <= index->max_elements_)
            return {};
        if (needed > kMaxElements)
            return indexError(
                QStringLiteral("Vector index is full (%1 elements)").arg(kMaxElements));
        const quint64 doubled = quint64(index->max_elements_) * 2;
        const quint64 grown = std::min(kMaxElements, std::max(needed, doubled));
        index->resizeIndex(size_t(grown));
        return {};
    }

    /// hnswlib's searchKnn with the candidate list (ef) chosen per search: its own reads ef_,
    /// which only the exclusive lock may change. A greedy walk down the upper layers to the
    /// closest entry, then the base layer searched with max(ef, k) candidates. Farthest first,
    /// as hnswlib hands them out. Caller holds the lock (shared is enough).
    std::priority_queue<std::pair<float, hnswlib::labeltype>> knnLocked(const float *unitQuery,
                                                                        size_t k, size_t ef) const
    {
        std::priority_queue<std::pair<float, hnswlib::labeltype>> found;
        const Hnsw &h = *index;
        if (h.cur_element_count == 0)
            return found;
        hnswlib::tableint closest = h.enterpoint_node_;
        float closestDistance = distanceTo(unitQuery, closest);
        for (int level = h.maxlevel_; level > 0; --level) {
            for (bool moved = true; moved;) {
                moved = false;
                hnswlib::linklistsizeint *links = h.get_linklist(closest, level);
                const auto *neighbours = reinterpret_cast<const hnswlib::tableint *>(links + 1);
                for (int i = 0, n = h.getListCount(links); i < n; ++i) {
                    if (neighbours[i] >= h.cur_element_count)
                        throw std::runtime_error("link to an element out of range");
                    const float d = distanceTo(unitQuery, neighbours[i]);
                    if (d < closestDistance) {
                        closestDistance = d;
                        closest = neighbours[i];
                        moved = true;
                    }
                }
            }
        }
        const size_t candidates = std::max(ef, k);
        auto best = h.num_deleted_ ? h.searchBaseLayerST<true>(closest, unitQuery, candidates)
                                   : h.searchBaseLayerST<false>(closest, unitQuery, candidates);
        while (best.size() > k)
            best.pop();
        for (; !best.empty(); best.pop())
            found.emplace(best.top().first, h.getExternalLabel(best.top().second));
        return found;
    }

    float distanceTo(const float *unitQuery, hnswlib::tableint id) const
    {
        return index->fstdistfunc_(unitQuery, index->getDataByInternalId(id),
                                   index->dist_func_param_);
    }

    /// Top k (distance, label) of a full scan. Caller holds the lock (shared is enough).
    QVector<VectorHit> exactLocked(const float *unitQuery, int k, const Filter &accept) const
    {
        if (!index || k <= 0)
            return {};
        // Max-heap on distance keeps the k closest seen so far; the label breaks ties so
        // equal distances always come back in the same order.
        std::priority_queue<std::pair<float, quint64>> best;
        const size_t count = index->cur_element_count;
        for (size_t i = 0; i < count; ++i) {
            const auto id = hnswlib::tableint(i);
            if (index->isMarkedDeleted(id))
                continue;
            const quint64 label = index->getExternalLabel(id);
            if (accept && !accept(label))
                continue;
            const float distance = distanceTo(unitQuery, id);
            if (best.size() < size_t(k)) {
                best.emplace(distance, label);
            } else if (std::make_pair(distance, label) < best.top()) {
                best.pop();
                best.emplace(distance, label);
            }
        }
        QVector<VectorHit> hits(qsizetype(best.size()));
        for (qsizetype i = hits.size() - 1; i >= 0; --i) {
            hits[i] = VectorHit{best.top().second, similarityOf(best.top().first)};
            best.pop();
        }
        return hits;
    }

    /// Has hnswlib write the payload to payloadPath under the shared lock (saveIndex only reads
    /// the graph, so searches go on) and returns the counts the header records.
    Result<HeaderFields> savePayload(const QString &payloadPath, const QString &path) const
    {
        std::shared_lock guard(lock);
        if (!index)
            return saveError(path, QStringLiteral("index not allocated"));
        HeaderFields f;
        f.dimension = quint32(dimension);
        f.live = quint64(liveCount());
        f.elements = quint64(index->cur_element_count);
        f.capacity = quint64(index->max_elements_);
        try {
            index->saveIndex(localPath(payloadPath));
        } catch (const std::exception &e) {
            return saveError(path, describe(e));
        } catch (...) {
            return saveError(path, QStringLiteral("hnswlib saveIndex failed"));
        }
        return f;
    }

    /// Builds the index from a verified payload and checks it against the header's counts.
    Result<void> loadPayload(const QString &payloadPath, const HeaderFields &header,
                             const QString &path)
    {
        try {
            // The loading constructor, not default construction + loadIndex: if loading throws,
            // the half-built object is never destroyed (its destructor would free garbage).
            index = std::make_unique<Hnsw>(&space, localPath(payloadPath), false,
                                           size_t(header.capacity));
        } catch (const std::exception &e) {
            return loadError(kIndexCorrupt, path, QStringLiteral("hnswlib: %1").arg(describe(e)));
        } catch (...) {
            return loadError(kIndexCorrupt, path, QStringLiteral("hnswlib refused the payload"));
        }
        // hnswlib 0.6.2's loadIndex adds to num_deleted_ without ever zeroing it: recount.
        size_t removed = 0;
        for (size_t i = 0; i < index->cur_element_count; ++i)
            removed += index->isMarkedDeleted(hnswlib::tableint(i)) ? 1 : 0;
        index->num_deleted_ = removed;
        if (quint64(index->cur_element_count) != header.elements
            || header.elements - removed != header.live)
            return loadError(kIndexCorrupt, path,
                             QStringLiteral("live count differs from the header"));
        return {};
    }

    int dimension;
    int efSearch = kDefaultEfSearch;
    // Declared before index: the index keeps pointers into the space, so it must die first.
    ScorerSpace space;
    std::unique_ptr<Hnsw> index; // null only if hnswlib could not allocate the initial index
    // hnswlib 0.6.2 is not safe to search while it inserts: shared for searches and saves,
    // exclusive for addPoint, markDelete, resizeIndex and efSearch.
    mutable IndexLock lock;
};

VectorIndex::VectorIndex(int dimension, int initialCapacity)
    : m_d(std::make_unique<Private>(std::max(dimension, 1)))
{
    try {
        m_d->index = std::make_unique<Hnsw>(&m_d->space, size_t(std::max(initialCapacity, 1)), kM,
                                            kEfConstruction);
    } catch (const std::exception &e) {
        // A constructor cannot return an Error: leave the index empty and let every write
        // report the failure instead.
        qWarning("VectorIndex: cannot allocate an index: %s", e.what());
        m_d->index.reset();
    }
}

VectorIndex::VectorIndex(std::unique_ptr<Private> d) : m_d(std::move(d)) { }

VectorIndex::~VectorIndex() = default;

int VectorIndex::dimension() const
{
    return m_d->dimension;
}

qint64 VectorIndex::size() const
{
    std::shared_lock guard(m_d->lock);
    return m_d->liveCount();
}

qint64 VectorIndex::capacity() const
{
    std::shared_lock guard(m_d->lock);
    return m_d->index ? qint64(m_d->index->max_elements_) : 0;
}

bool VectorIndex::contains(quint64 label) const
{
    std::shared_lock guard(m_d->lock);
    return m_d->isLive(label);
}

bool VectorIndex::containsAny(const QList<qint64> &labels) const
{
    std::shared_lock guard(m_d->lock);
    return std::any_of(labels.cbegin(), labels.cend(),
                       [this](qint64 label) { return m_d->isLive(quint64(label)); });
}

Result<void> VectorIndex::upsert(quint64 label, const float *vector)
{
    std::vector<float> unit(size_t(m_d->dimension));
    if (!vector || !normalise(vector, m_d->dimension, unit.data()))
        return vectorError(QStringLiteral("Vector for label %1 is zero or not finite").arg(label));

    std::unique_lock guard(m_d->lock);
    if (!m_d->index)
        return indexError(QStringLiteral("Vector index is not allocated"));
    try {
        // An existing label (even a removed one) is updated in place and needs no new slot.
        if (m_d->index->label_lookup_.count(hnswlib::labeltype(label)) == 0) {
            auto room = m_d->reserve(1);
            if (!room)
                return room;
        }
        m_d->index->addPoint(unit.data(), hnswlib::labeltype(label));
    } catch (const std::exception &e) {
        return indexError(QStringLiteral("Cannot store label %1: %2").arg(label).arg(describe(e)));
    } catch (...) {
        return indexError(QStringLiteral("Cannot store label %1").arg(label));
    }
    return {};
}

Result<void> VectorIndex::upsertMany(const QVector<quint64> &labels, const float *vectors)
{
    if (labels.isEmpty())
        return {};
    if (!vectors)
        return vectorError(QStringLiteral("No vectors given for %1 labels").arg(labels.size()));
    std::vector<float> units;
    if (auto valid = normaliseRows(labels, vectors, m_d->dimension, units); !valid)
        return valid;
    const std::vector<qsizetype> rows = lastRowPerLabel(labels);
    const auto dim = size_t(m_d->dimension);

    std::unique_lock guard(m_d->lock);
    if (!m_d->index)
        return indexError(QStringLiteral("Vector index is not allocated"));
    Hnsw &index = *m_d->index;
    try {
        auto room = m_d->reserve(newLabelCount(index, labels, rows));
        if (!room)
            return room;
        size_t start = 0;
        // hnswlib sets up the entry point on the first insert without locking: do it alone.
        if (index.cur_element_count == 0) {
            index.addPoint(units.data() + size_t(rows[0]) * dim,
                           hnswlib::labeltype(labels.at(rows[0])));
            start = 1;
        }
        const QString failure = insertInParallel(index, units, dim, labels, rows, start);
        if (!failure.isNull())
            return indexError(failure);
    } catch (const std::exception &e) {
        return indexError(QStringLiteral("Cannot store vectors: %1").arg(describe(e)));
    } catch (...) {
        return indexError(QStringLiteral("Cannot store vectors"));
    }
    return {};
}

Result<void> VectorIndex::remove(quint64 label)
{
    std::unique_lock guard(m_d->lock);
    // Checked here rather than left to hnswlib, which throws for unknown and repeated deletes.
    if (!m_d->isLive(label))
        return {};
    try {
        m_d->index->markDelete(hnswlib::labeltype(label));
    } catch (const std::exception &e) {
        return indexError(QStringLiteral("Cannot remove label %1: %2").arg(label).arg(describe(e)));
    } catch (...) {
        return indexError(QStringLiteral("Cannot remove label %1").arg(label));
    }
    return {};
}

QVector<VectorHit> VectorIndex::search(const float *query, int k, const Filter &accept,
                                       int ef) const
{
    if (!query || k <= 0)
        return {};
    std::vector<float> unit(size_t(m_d->dimension));
    if (!normalise(query, m_d->dimension, unit.data()))
        return {};

    std::shared_lock guard(m_d->lock);
    const qint64 live = m_d->liveCount();
    if (live == 0)
        return {};
    const size_t want = size_t(std::min<qint64>(k, live));
    // The search uses max(ef, k) candidates, so asking for more hits widens it too.
    const size_t candidates = size_t(ef > 0 ? ef : m_d->efSearch);
    size_t fetch = accept ? std::min(size_t(live), std::max(want * 2, want + 16)) : want;
    try {
        for (;;) {
            auto found = m_d->knnLocked(unit.data(), fetch, candidates);
            const size_t returned = found.size();
            QVector<VectorHit> hits(static_cast<qsizetype>(returned));
            for (qsizetype i = hits.size() - 1; i >= 0; --i) { // the queue pops farthest first
                hits[i] = VectorHit{quint64(found.top().second), similarityOf(found.top().first)};
                found.pop();
            }
            if (accept) {
                hits.erase(std::remove_if(hits.begin(), hits.end(),
                                          [&](const VectorHit &hit) { return !accept(hit.label); }),
                           hits.end());
            }
            if (size_t(hits.size()) >= want) {
                hits.resize(qsizetype(want));
                return hits;
            }
            // Too few hits (a filter rejected most, or the graph search came up short). Widen
            // by the acceptance rate seen so far. A graph search over more than about a
            // sixteenth of the index costs more than a scan (measured at 1536-d: ef=64 is 1/13
            // of a 20k scan), and the scan also finds every accepted label.
            size_t wider = fetch * 8;
            if (!hits.isEmpty() && returned > 0)
                wider = size_t(double(want) * double(returned) / double(hits.size()) * 1.5) + 1;
            wider = std::max(wider, fetch * 2);
            if (!accept || fetch >= size_t(live) || wider >= size_t(live) / 16)
                return m_d->exactLocked(unit.data(), int(want), accept);
            fetch = wider;
        }
    } catch (const std::exception &e) {
        qWarning("VectorIndex: search failed: %s", e.what());
    } catch (...) {
        qWarning("VectorIndex: search failed");
    }
    return {};
}

QVector<VectorHit> VectorIndex::exactSearch(const float *query, int k, const Filter &accept) const
{
    if (!query || k <= 0)
        return {};
    std::vector<float> unit(size_t(m_d->dimension));
    if (!normalise(query, m_d->dimension, unit.data()))
        return {};
    std::shared_lock guard(m_d->lock);
    return m_d->exactLocked(unit.data(), k, accept);
}

void VectorIndex::setEfSearch(int ef)
{
    std::unique_lock guard(m_d->lock);
    m_d->efSearch = std::max(ef, 1);
}

int VectorIndex::efSearch() const
{
    std::shared_lock guard(m_d->lock);
    return m_d->efSearch;
}

Result<void> VectorIndex::save(const QString &path, quint64 watermark) const
{
    const QFileInfo target(path);
    if (!target.absoluteDir().exists() && !PrivateFiles::ensureFolder(target.absolutePath()))
        return saveError(path, QStringLiteral("cannot create the directory"));

    // hnswlib only writes to a path: let it write the payload next to the target, then wrap it.
    QTemporaryFile payload(target.absolutePath() + QStringLiteral("/.") + target.fileName()
                           + QStringLiteral(".payload-XXXXXX"));
    if (!payload.open())
        return saveError(path, payload.errorString());
    payload.close();
    auto header = m_d->savePayload(payload.fileName(), path);
    if (!header)
        return header.error();

    QFile in(payload.fileName());
    if (!in.open(QIODevice::ReadOnly))
        return saveError(path, in.errorString());
    // hnswlib's ofstream never reports a short write (disk full): check what landed on disk.
    const QString problem = checkPayload(in, m_d->dimension, header.value().elements);
    if (!problem.isEmpty())
        return saveError(path, problem);
    if (!in.seek(0))
        return saveError(path, in.errorString());
    header.value().watermark = watermark;
    header.value().payloadSize = quint64(in.size());
    return writeIndexFile(path, encodeHeader(header.value()), in);
}

Result<std::unique_ptr<VectorIndex>> VectorIndex::load(const QString &path, int expectedDimension,
                                                       quint64 *watermark)
{
    QFile file(path);
    if (!file.exists())
        return loadError(kIndexMissing, path, QStringLiteral("no such file"));
    if (!file.open(QIODevice::ReadOnly))
        return loadError(kIndexMissing, path, file.errorString());
    QByteArray rawHeader;
    auto header = readHeader(file, path, expectedDimension, &rawHeader);
    if (!header)
        return header.error();

    // loadIndex reads a path, so the payload goes to a file of its own; it is hashed on the
    // way and only reaches hnswlib once the checksum matched.
    QTemporaryFile copy;
    if (auto opened = openPayloadCopy(copy, path); !opened)
        return opened.error();
    if (auto copied = copyVerifiedPayload(file, rawHeader, copy, path); !copied)
        return copied.error();
    // The bytes are exactly what save() wrote, so a layout mismatch means another hnswlib.
    const QString problem
        = checkPayload(copy, int(header.value().dimension), header.value().elements);
    if (!problem.isEmpty())
        return loadError(kIndexIncompatible, path, problem);
    copy.close();

    auto d = std::make_unique<Private>(int(header.value().dimension));
    if (auto built = d->loadPayload(copy.fileName(), header.value(), path); !built)
        return built.error();
    if (watermark)
        *watermark = header.value().watermark;
    return std::unique_ptr<VectorIndex>(new VectorIndex(std::move(d)));
}

} // namespace MemoryGraph
