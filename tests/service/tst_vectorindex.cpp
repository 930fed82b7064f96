#include "service/index/vectorindex.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cmath>
#include <functional>
#include <random>
#include <thread>
#include <vector>

using namespace MemoryGraph;

namespace {

using Vec = std::vector<float>;

Vec randomVector(std::mt19937 &rng, int dim)
{
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    Vec v(size_t(dim), 0.0f);
    for (float &x : v)
        x = gauss(rng);
    return v;
}

/// Points around a few random centres. Uniform random vectors have no real neighbours, so
/// recall measured on them says nothing about how the index behaves on embeddings.
std::vector<Vec> clustered(std::mt19937 &rng, int count, int dim, int centres, float noise)
{
    std::vector<Vec> centre;
    for (int c = 0; c < centres; ++c)
        centre.push_back(randomVector(rng, dim));
    std::normal_distribution<float> gauss(0.0f, noise);
    std::uniform_int_distribution<int> pick(0, centres - 1);
    std::vector<Vec> points;
    points.reserve(size_t(count));
    for (int i = 0; i < count; ++i) {
        Vec p = centre[size_t(pick(rng))];
        double norm = 0;
        for (float &x : p) {
            x += gauss(rng);
            norm += double(x) * x;
        }
        for (float &x : p)
            x = float(x / std::sqrt(norm));
        points.push_back(std::move(p));
    }
    return points;
}

double cosine(const Vec &a, const Vec &b)
{
    double dot = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        dot += double(a[i]) * b[i];
        na += double(a[i]) * a[i];
        nb += double(b[i]) * b[i];
    }
    return dot / std::sqrt(na * nb);
}

QList<quint64> labelsOf(const QVector<VectorHit> &hits)
{
    QList<quint64> labels;
    for (const VectorHit &hit : hits)
        labels.append(hit.label);
    return labels;
}

QSet<quint64> labelSet(const QVector<VectorHit> &hits)
{
    QSet<quint64> labels;
    for (const VectorHit &hit : hits)
        labels.insert(hit.label);
    return labels;
}

bool sortedBestFirst(const QVector<VectorHit> &hits)
{
    for (qsizetype i = 1; i < hits.size(); ++i) {
        if (hits[i].similarity > hits[i - 1].similarity)
            return false;
    }
    return true;
}

void fill(VectorIndex &index, const std::vector<Vec> &points, quint64 firstLabel = 0)
{
    for (size_t i = 0; i < points.size(); ++i) {
        auto r = index.upsert(firstLabel + i, points[i].data());
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
    }
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
}

constexpr int kHeaderSize = 88; // must match vectorindex.cpp: payload starts here

} // namespace

class tst_VectorIndex : public QObject
{
    Q_OBJECT

private slots:
    void upsertThenSearchFindsTheVectorFirst();
    void ordersByCosine();
    void rejectsZeroVectors();
    void upsertReplacesVector();
    void removeHidesLabelAndIsIdempotent();
    void growsPastInitialCapacity();
    void filterStillReturnsKAcceptedHits();
    void upsertManyMatchesSingleUpserts();
    void saveLoadRoundTrip();
    void saveLoadEmptyIndex();
    void loadRejectsDamagedFiles();
    void recallAt10OnClusteredData();
    void aSearchCanNameItsCandidateList();
    void concurrentSearchesWhileUpserting();
};

void tst_VectorIndex::upsertThenSearchFindsTheVectorFirst()
{
    std::mt19937 rng(1);
    VectorIndex index(32, 64);
    QCOMPARE(index.dimension(), 32);
    QCOMPARE(index.efSearch(), 64);
    std::vector<Vec> points;
    for (int i = 0; i < 200; ++i)
        points.push_back(randomVector(rng, 32));
    fill(index, points, 1000);
    QCOMPARE(index.size(), qint64(200));
    QVERIFY(index.contains(1000));
    QVERIFY(index.contains(1199));
    QVERIFY(!index.contains(1200));

    for (int i = 0; i < 200; i += 7) {
        // Scaled copies have the same direction: cosine ignores length.
        Vec query = points[size_t(i)];
        for (float &x : query)
            x *= 3.5f;
        const auto hits = index.search(query.data(), 5);
        QCOMPARE(hits.size(), 5);
        QCOMPARE(hits.first().label, quint64(1000 + i));
        QVERIFY(std::abs(hits.first().similarity - 1.0f) < 1e-5f);
        QVERIFY(sortedBestFirst(hits));
    }
}

void tst_VectorIndex::ordersByCosine()
{
    VectorIndex index(4, 8);
    const Vec same{2, 0, 0, 0};       // cos 1
    const Vec close{3, 1, 0, 0};      // cos 3/sqrt(10)
    const Vec diagonal{5, 5, 0, 0};   // cos 1/sqrt(2)
    const Vec orthogonal{0, 0, 1, 0}; // cos 0
    const Vec away{-1, -1, 0, 0};     // cos -1/sqrt(2)
    const Vec opposite{-4, 0, 0, 0};  // cos -1
    QVERIFY(index.upsert(6, opposite.data()).ok());
    QVERIFY(index.upsert(4, orthogonal.data()).ok());
    QVERIFY(index.upsert(1, same.data()).ok());
    QVERIFY(index.upsert(5, away.data()).ok());
    QVERIFY(index.upsert(3, diagonal.data()).ok());
    QVERIFY(index.upsert(2, close.data()).ok());

    const Vec query{1, 0, 0, 0};
    const QList<quint64> expected{1, 2, 3, 4, 5, 6};
    const float sims[] = {1.0f, float(3 / std::sqrt(10.0)), float(1 / std::sqrt(2.0)),
                          0.0f, float(-1 / std::sqrt(2.0)), -1.0f};
    for (const auto &hits : {index.search(query.data(), 6), index.exactSearch(query.data(), 6)}) {
        QCOMPARE(labelsOf(hits), expected);
        for (int i = 0; i < 6; ++i)
            QVERIFY2(std::abs(hits[i].similarity - sims[i]) < 1e-5f,
                     qPrintable(QString::number(i)));
    }
    // k larger than the index returns everything; k <= 0 returns nothing.
    QCOMPARE(index.search(query.data(), 100).size(), 6);
    QCOMPARE(labelsOf(index.search(query.data(), 2)), (QList<quint64>{1, 2}));
    QVERIFY(index.search(query.data(), 0).isEmpty());
}

void tst_VectorIndex::rejectsZeroVectors()
{
    VectorIndex index(3, 4);
    const Vec zero{0, 0, 0};
    const Vec nan{1, std::nanf(""), 0};
    auto r = index.upsert(1, zero.data());
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, QStringLiteral("invalid_vector"));
    QVERIFY(!index.upsert(2, nan.data()).ok());
    QVERIFY(!index.upsert(3, nullptr).ok());
    QCOMPARE(index.size(), qint64(0));

    const Vec one{0, 1, 0};
    QVERIFY(index.upsert(4, one.data()).ok());
    QVERIFY(index.search(zero.data(), 3).isEmpty());
    QVERIFY(index.exactSearch(zero.data(), 3).isEmpty());
}

void tst_VectorIndex::upsertReplacesVector()
{
    std::mt19937 rng(2);
    VectorIndex index(16, 32);
    std::vector<Vec> points;
    for (int i = 0; i < 50; ++i)
        points.push_back(randomVector(rng, 16));
    fill(index, points);

    const Vec replacement = randomVector(rng, 16);
    QVERIFY(index.upsert(7, replacement.data()).ok());
    QCOMPARE(index.size(), qint64(50));

    auto hits = index.search(replacement.data(), 1);
    QCOMPARE(hits.size(), 1);
    QCOMPARE(hits.first().label, quint64(7));
    QVERIFY(std::abs(hits.first().similarity - 1.0f) < 1e-5f);

    // The old vector is gone: label 7 now scores as the replacement does.
    hits = index.exactSearch(points[7].data(), 50);
    for (const VectorHit &hit : hits) {
        if (hit.label == 7)
            QVERIFY(std::abs(hit.similarity - float(cosine(points[7], replacement))) < 1e-5f);
    }
}

void tst_VectorIndex::removeHidesLabelAndIsIdempotent()
{
    std::mt19937 rng(3);
    VectorIndex index(16, 64);
    std::vector<Vec> points;
    for (int i = 0; i < 50; ++i)
        points.push_back(randomVector(rng, 16));
    fill(index, points);

    QVERIFY(index.remove(10).ok());
    QVERIFY(!index.contains(10));
    QCOMPARE(index.size(), qint64(49));
    QVERIFY(!labelsOf(index.search(points[10].data(), 50)).contains(10));
    QVERIFY(!labelsOf(index.exactSearch(points[10].data(), 50)).contains(10));
    QCOMPARE(index.search(points[10].data(), 50).size(), 49);

    QVERIFY(index.remove(10).ok());  // twice
    QVERIFY(index.remove(999).ok()); // never existed
    QCOMPARE(index.size(), qint64(49));

    // Upserting a removed label brings it back with the new vector.
    QVERIFY(index.upsert(10, points[11].data()).ok());
    QVERIFY(index.contains(10));
    QCOMPARE(index.size(), qint64(50));
    const auto hits = index.exactSearch(points[11].data(), 2);
    QCOMPARE(labelSet(hits), (QSet<quint64>{10, 11}));

    // Removing everything leaves an index that searches to nothing.
    for (quint64 label = 0; label < 50; ++label)
        QVERIFY(index.remove(label).ok());
    QCOMPARE(index.size(), qint64(0));
    QVERIFY(index.search(points[0].data(), 5).isEmpty());
}

void tst_VectorIndex::growsPastInitialCapacity()
{
    std::mt19937 rng(4);
    VectorIndex index(16, 4);
    QCOMPARE(index.capacity(), qint64(4));
    std::vector<Vec> points;
    for (int i = 0; i < 300; ++i)
        points.push_back(randomVector(rng, 16));
    fill(index, points);
    QCOMPARE(index.size(), qint64(300));
    QCOMPARE(index.capacity(), qint64(512)); // 4 doubled until 300 fitted
    for (int i = 0; i < 300; i += 11)
        QCOMPARE(index.search(points[size_t(i)].data(), 1).value(0).label, quint64(i));
}

void tst_VectorIndex::filterStillReturnsKAcceptedHits()
{
    std::mt19937 rng(5);
    VectorIndex index(32, 256);
    const auto points = clustered(rng, 1000, 32, 20, 0.4f);
    fill(index, points);

    const auto everySeventh = [](quint64 label) { return label % 7 == 0; };
    int overlap = 0;
    for (int q = 0; q < 20; ++q) {
        const Vec &query = points[size_t(q * 37 + 1)];
        const auto hits = index.search(query.data(), 10, everySeventh);
        QCOMPARE(hits.size(), 10);
        QVERIFY(sortedBestFirst(hits));
        for (const VectorHit &hit : hits)
            QVERIFY(everySeventh(hit.label));
        const auto exact = index.exactSearch(query.data(), 10, everySeventh);
        const QList<quint64> exactLabels = labelsOf(exact);
        for (const VectorHit &hit : hits)
            overlap += exactLabels.contains(hit.label) ? 1 : 0;
    }
    QVERIFY2(overlap >= 190, qPrintable(QString::number(overlap)));

    // A very selective filter: the search must widen until it has found all three.
    const QSet<quint64> few{3, 500, 999};
    const auto inFew = [&](quint64 l) { return few.contains(l); };
    const auto hits = index.search(points[0].data(), 10, inFew);
    QCOMPARE(labelSet(hits), few);
    QVERIFY(sortedBestFirst(hits));
    QVERIFY(index.search(points[0].data(), 10, [](quint64) { return false; }).isEmpty());
}

void tst_VectorIndex::upsertManyMatchesSingleUpserts()
{
    std::mt19937 rng(6);
    const auto points = clustered(rng, 700, 16, 10, 0.3f);
    QVector<quint64> labels;
    std::vector<float> rows;
    for (size_t i = 0; i < points.size(); ++i) {
        labels.append(quint64(i));
        rows.insert(rows.end(), points[i].begin(), points[i].end());
    }
    // A repeated label keeps its last vector.
    labels.append(5);
    rows.insert(rows.end(), points[6].begin(), points[6].end());

    VectorIndex index(16, 8);
    auto r = index.upsertMany(labels, rows.data());
    QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
    QCOMPARE(index.size(), qint64(700));
    for (int i = 0; i < 700; i += 13) {
        const auto hits = index.search(points[size_t(i)].data(), 2);
        QVERIFY(labelsOf(hits).contains(quint64(i)) || i == 5);
    }
    const auto five = index.exactSearch(points[6].data(), 2);
    QCOMPARE(labelSet(five), (QSet<quint64>{5, 6}));

    // One bad row rejects the whole batch before anything changes.
    const Vec zero(16, 0.0f);
    std::vector<float> bad(points[0].begin(), points[0].end());
    bad.insert(bad.end(), zero.begin(), zero.end());
    r = index.upsertMany({5000, 5001}, bad.data());
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, QStringLiteral("invalid_vector"));
    QVERIFY(!index.contains(5000));
    QCOMPARE(index.size(), qint64(700));

    // Batch updates of existing labels (hnswlib re-links their neighbourhoods: costly) and
    // new labels together, on several threads.
    const auto newcomers = clustered(rng, 200, 16, 10, 0.3f);
    QVector<quint64> mixed;
    std::vector<float> mixedRows;
    for (quint64 label = 100; label < 300; ++label) {
        mixed.append(label);
        mixedRows.insert(mixedRows.end(), points[label].begin(), points[label].end());
    }
    for (quint64 i = 0; i < 200; ++i) {
        mixed.append(700 + i);
        mixedRows.insert(mixedRows.end(), newcomers[i].begin(), newcomers[i].end());
    }
    QVERIFY(index.upsertMany(mixed, mixedRows.data()).ok());
    QCOMPARE(index.size(), qint64(900));
    QCOMPARE(index.search(points[150].data(), 1).value(0).label, quint64(150));
    QCOMPARE(index.search(newcomers[50].data(), 1).value(0).label, quint64(750));
}

void tst_VectorIndex::saveLoadRoundTrip()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("sub/scope.mgvi"));
    std::mt19937 rng(7);
    const auto points = clustered(rng, 600, 32, 20, 0.4f);

    VectorIndex index(32, 128);
    fill(index, points);
    for (quint64 label = 0; label < 600; label += 30)
        QVERIFY(index.remove(label).ok());
    const quint64 watermark = 0x1234567890abcdefULL;
    auto saved = index.save(path, watermark);
    QVERIFY2(saved.ok(), qPrintable(saved ? QString() : saved.error().message));
    QVERIFY(QFile::exists(path));

    quint64 loadedMark = 0;
    auto loaded = VectorIndex::load(path, 32, &loadedMark);
    QVERIFY2(loaded.ok(), qPrintable(loaded ? QString() : loaded.error().message));
    VectorIndex &copy = *loaded.value();
    QCOMPARE(loadedMark, watermark);
    QCOMPARE(copy.dimension(), 32);
    QCOMPARE(copy.size(), index.size());
    QCOMPARE(copy.size(), qint64(580));
    QCOMPARE(copy.capacity(), index.capacity());
    QVERIFY(!copy.contains(30));
    QVERIFY(copy.contains(31));
    QCOMPARE(copy.efSearch(), index.efSearch());

    const auto accept = [](quint64 l) { return l % 3 == 0; };
    for (int q = 0; q < 40; ++q) {
        const Vec &query = points[size_t(q * 13 + 2)];
        const auto a = index.search(query.data(), 10);
        const auto b = copy.search(query.data(), 10);
        QCOMPARE(labelsOf(b), labelsOf(a));
        for (qsizetype i = 0; i < a.size(); ++i)
            QCOMPARE(b[i].similarity, a[i].similarity);
        QCOMPARE(labelsOf(copy.search(query.data(), 5, accept)),
                 labelsOf(index.search(query.data(), 5, accept)));
    }

    // The loaded index stays writable, including growth and removals.
    std::mt19937 more(8);
    for (quint64 label = 1000; label < 1200; ++label) {
        const Vec v = randomVector(more, 32);
        QVERIFY(copy.upsert(label, v.data()).ok());
    }
    QCOMPARE(copy.size(), qint64(780));
    QVERIFY(copy.remove(31).ok());
    QVERIFY(copy.upsert(30, points[30].data()).ok());
    QCOMPARE(copy.search(points[30].data(), 1).value(0).label, quint64(30));

    // Saving over an existing file replaces it.
    QVERIFY(copy.save(path, watermark + 1).ok());
    auto again = VectorIndex::load(path, 32, &loadedMark);
    QVERIFY(again.ok());
    QCOMPARE(loadedMark, watermark + 1);
    QCOMPARE(again.value()->size(), qint64(780));
    QCOMPARE(QDir(dir.filePath(QStringLiteral("sub"))).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("scope.mgvi")}); // no temporary files left behind
}

void tst_VectorIndex::saveLoadEmptyIndex()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("empty.mgvi"));
    VectorIndex index(8, 16);
    QVERIFY(index.save(path, 0).ok());
    quint64 mark = 99;
    auto loaded = VectorIndex::load(path, 8, &mark);
    QVERIFY2(loaded.ok(), qPrintable(loaded ? QString() : loaded.error().message));
    QCOMPARE(mark, quint64(0));
    QCOMPARE(loaded.value()->size(), qint64(0));
    const Vec v{1, 2, 3, 4, 5, 6, 7, 8};
    QVERIFY(loaded.value()->search(v.data(), 3).isEmpty());
    QVERIFY(loaded.value()->upsert(1, v.data()).ok());
    QCOMPARE(loaded.value()->search(v.data(), 3).value(0).label, quint64(1));
}

void tst_VectorIndex::loadRejectsDamagedFiles()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("good.mgvi"));
    std::mt19937 rng(9);
    VectorIndex index(16, 64);
    for (quint64 label = 0; label < 100; ++label) {
        const Vec v = randomVector(rng, 16);
        QVERIFY(index.upsert(label, v.data()).ok());
    }
    QVERIFY(index.save(path, 5).ok());
    const QByteArray good = readAll(path);
    QVERIFY(good.size() > kHeaderSize + 1000);

    auto expectFailure = [&](const QByteArray &bytes, int dimension, const QString &code) {
        const QString damaged = dir.filePath(QStringLiteral("damaged.mgvi"));
        QVERIFY(writeAll(damaged, bytes));
        quint64 mark = 77;
        auto loaded = VectorIndex::load(damaged, dimension, &mark);
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().code, code);
        QCOMPARE(mark, quint64(77)); // untouched on failure
    };

    QByteArray flipped = good;
    flipped[kHeaderSize + (good.size() - kHeaderSize) / 2]
        = char(flipped[kHeaderSize + (good.size() - kHeaderSize) / 2] ^ 0x01);
    expectFailure(flipped, 16, QStringLiteral("index_corrupt"));

    QByteArray lastByte = good;
    lastByte[good.size() - 1] = char(lastByte[good.size() - 1] ^ 0x80);
    expectFailure(lastByte, 16, QStringLiteral("index_corrupt"));

    QByteArray watermark = good;
    watermark[40] = char(watermark[40] ^ 0x01); // header fields are covered by the checksum too
    expectFailure(watermark, 16, QStringLiteral("index_corrupt"));

    // Whatever header byte flips, the file is refused rather than half-trusted.
    for (int at = 0; at < kHeaderSize; ++at) {
        QByteArray header = good;
        header[at] = char(header[at] ^ 0x10);
        const QString damaged = dir.filePath(QStringLiteral("header.mgvi"));
        QVERIFY(writeAll(damaged, header));
        quint64 mark = 0;
        auto loaded = VectorIndex::load(damaged, 16, &mark);
        QVERIFY2(!loaded.ok(), qPrintable(QString::number(at)));
        QVERIFY(loaded.error().code == QLatin1String("index_corrupt")
                || loaded.error().code == QLatin1String("index_incompatible"));
    }

    expectFailure(good, 32, QStringLiteral("index_incompatible"));

    QByteArray version = good;
    version[4] = char(version[4] + 1);
    expectFailure(version, 16, QStringLiteral("index_incompatible"));

    QByteArray magic = good;
    magic[0] = 'X';
    expectFailure(magic, 16, QStringLiteral("index_corrupt"));

    expectFailure(good.left(good.size() - 100), 16, QStringLiteral("index_corrupt"));
    expectFailure(good.left(kHeaderSize + 10), 16, QStringLiteral("index_corrupt"));
    expectFailure(good.left(20), 16, QStringLiteral("index_corrupt"));
    expectFailure(QByteArray(), 16, QStringLiteral("index_corrupt"));
    expectFailure(good + QByteArray("tail"), 16, QStringLiteral("index_corrupt"));

    quint64 mark = 0;
    auto missing = VectorIndex::load(dir.filePath(QStringLiteral("nope.mgvi")), 16, &mark);
    QVERIFY(!missing.ok());
    QCOMPARE(missing.error().code, QStringLiteral("index_missing"));

    // The untouched file still loads.
    QVERIFY(VectorIndex::load(path, 16, &mark).ok());
    QCOMPARE(mark, quint64(5));
}

void tst_VectorIndex::recallAt10OnClusteredData()
{
    constexpr int kDim = 64;
    constexpr int kCount = 5000;
    constexpr int kQueries = 200;
    std::mt19937 rng(10);
    // Noise as strong as the spread of the centres: neighbourhoods overlap enough that a
    // sloppy search misses (ef=10 gives about 0.92), yet clusters still mean something.
    const auto data = clustered(rng, kCount + kQueries, kDim, 100, 1.25f);

    QVector<quint64> labels;
    std::vector<float> rows;
    for (int i = 0; i < kCount; ++i) {
        labels.append(quint64(i));
        rows.insert(rows.end(), data[size_t(i)].begin(), data[size_t(i)].end());
    }
    VectorIndex index(kDim, 1024);
    QElapsedTimer timer;
    timer.start();
    QVERIFY(index.upsertMany(labels, rows.data()).ok());
    const qint64 buildMs = timer.elapsed();
    QCOMPARE(index.size(), qint64(kCount));

    // Ground truth from the exact scan over the same stored vectors.
    std::vector<QList<quint64>> truth;
    timer.restart();
    for (int q = 0; q < kQueries; ++q) {
        const auto exact = index.exactSearch(data[size_t(kCount + q)].data(), 10);
        QCOMPARE(exact.size(), 10);
        truth.push_back(labelsOf(exact));
    }
    const double exactMs = timer.nsecsElapsed() / 1e6 / kQueries;

    auto measure = [&](int ef, double *msPerQuery) {
        index.setEfSearch(ef);
        int found = 0;
        QElapsedTimer clock;
        clock.start();
        for (int q = 0; q < kQueries; ++q) { // unseen points from the same clusters
            const auto approx = index.search(data[size_t(kCount + q)].data(), 10);
            for (const VectorHit &hit : approx)
                found += truth[size_t(q)].contains(hit.label) ? 1 : 0;
        }
        *msPerQuery = clock.nsecsElapsed() / 1e6 / kQueries;
        return double(found) / (kQueries * 10);
    };
    double lowMs = 0;
    double defaultMs = 0;
    const double lowRecall = measure(10, &lowMs);
    const double recall = measure(64, &defaultMs);
    qInfo("recall@10 = %.4f at ef=64 (%.4f at ef=10), %d x %d-d clustered; build %lld ms,"
          " search %.3f ms/query (ef=10: %.3f), exact %.3f ms/query",
          recall, lowRecall, kCount, kDim, buildMs, defaultMs, lowMs, exactMs);
    QVERIFY2(recall >= 0.95, qPrintable(QString::number(recall)));
}

void tst_VectorIndex::aSearchCanNameItsCandidateList()
{
    constexpr int kDim = 64;
    constexpr int kCount = 3000;
    constexpr int kQueries = 100;
    std::mt19937 rng(11);
    const auto data = clustered(rng, kCount + kQueries, kDim, 100, 1.25f);
    VectorIndex index(kDim, 1024);
    fill(index, std::vector<Vec>(data.begin(), data.begin() + kCount));
    index.setEfSearch(256);

    int narrowFound = 0;
    int wideFound = 0;
    for (int q = 0; q < kQueries; ++q) {
        const float *query = data[size_t(kCount + q)].data();
        const QSet<quint64> truth = labelSet(index.exactSearch(query, 10));
        const auto narrow = index.search(query, 10, {}, 10);
        const auto wide = index.search(query, 10);
        QCOMPARE(narrow.size(), 10);
        QVERIFY(sortedBestFirst(narrow));
        for (const VectorHit &hit : narrow)
            narrowFound += truth.contains(hit.label) ? 1 : 0;
        for (const VectorHit &hit : wide)
            wideFound += truth.contains(hit.label) ? 1 : 0;
    }
    // The search's own candidate list is used, not the index's: ten miss neighbours that
    // 256 find, and 256 finds nearly all.
    QVERIFY2(narrowFound < wideFound,
             qPrintable(QStringLiteral("%1 of %2 found with ef 10, %3 with 256")
                            .arg(narrowFound)
                            .arg(kQueries * 10)
                            .arg(wideFound)));
    QVERIFY2(wideFound >= kQueries * 10 * 95 / 100, qPrintable(QString::number(wideFound)));
}

void tst_VectorIndex::concurrentSearchesWhileUpserting()
{
    constexpr int kDim = 32;
    std::mt19937 rng(11);
    const auto base = clustered(rng, 600, kDim, 20, 0.5f);
    std::vector<Vec> extra;
    for (int i = 0; i < 300; ++i)
        extra.push_back(randomVector(rng, kDim));

    // Capacity just above the base set, so the writer forces resizes while readers search.
    VectorIndex index(kDim, 640);
    fill(index, base);

    std::atomic<bool> writing{true};
    std::atomic<int> writeFailures{0};
    std::atomic<int> wrongTop{0};
    std::atomic<int> badOrder{0};
    std::atomic<int> searches{0};

    std::thread writer([&] {
        for (size_t i = 0; i < extra.size(); ++i) {
            const quint64 label = 10000 + i;
            if (!index.upsert(label, extra[i].data()).ok())
                ++writeFailures;
            if (i % 3 == 0 && !index.remove(label).ok())
                ++writeFailures;
            if (i % 100 == 0)
                index.setEfSearch(i % 200 == 0 ? 64 : 80);
        }
        writing = false;
    });
    const std::function<bool(quint64)> evenExtras
        = [](quint64 l) { return l < 10000 || l % 2 == 0; };
    std::vector<std::thread> readers;
    for (int t = 0; t < 4; ++t) {
        readers.emplace_back([&, t] {
            size_t i = size_t(t) * 97;
            // Keep searching until the writer is done (and at least a few rounds).
            for (int round = 0; writing || round < 50; ++round, i = (i + 31) % base.size()) {
                QVector<VectorHit> hits;
                if (round % 10 == 9)
                    hits = index.exactSearch(base[i].data(), 10);
                else if (round % 4 == 0)
                    hits = index.search(base[i].data(), 10, evenExtras);
                else
                    hits = index.search(base[i].data(), 10);
                ++searches;
                // Base vectors are never touched by the writer: each must still find itself.
                if (hits.size() != 10 || hits.first().label != i
                    || std::abs(hits.first().similarity - 1.0f) > 1e-4f)
                    ++wrongTop;
                if (!sortedBestFirst(hits))
                    ++badOrder;
                (void)index.size();
                (void)index.contains(quint64(10000 + i));
            }
        });
    }
    writer.join();
    for (auto &reader : readers)
        reader.join();

    qInfo("concurrent: %d searches while 300 upserts / 100 removals ran", searches.load());
    QCOMPARE(writeFailures.load(), 0);
    QCOMPARE(wrongTop.load(), 0);
    QCOMPARE(badOrder.load(), 0);
    QCOMPARE(index.size(), qint64(600 + 300 - 100));
    QVERIFY(index.capacity() >= 900); // grew while readers were searching
    for (size_t i = 0; i < extra.size(); i += 25) {
        const auto hits = index.search(extra[i].data(), 1);
        if (i % 3 == 0)
            QVERIFY(hits.isEmpty() || hits.first().label != 10000 + i);
        else
            QCOMPARE(hits.value(0).label, quint64(10000 + i));
    }
}

QTEST_GUILESS_MAIN(tst_VectorIndex)
#include "tst_vectorindex.moc"
