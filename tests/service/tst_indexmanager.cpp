#include "service/core/vocabulary.h"
#include "service/index/indexmanager.h"
#include "service/storage/database.h"

#include <QDir>
#include <QFile>
#include <QMutex>
#include <QSemaphore>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QVariant>
#include <QtSql/QSqlError>
#include <QtSql/QSqlQuery>

#include <algorithm>
#include <atomic>
#include <memory>
#include <random>
#include <vector>

using namespace MemoryGraph;

namespace {

constexpr int kDim = Vocabulary::kEmbeddingDimension;
const QString kTenant = QStringLiteral("default");
const QString kScope = QStringLiteral("default");

QVector<float> randomVector(std::mt19937 &rng)
{
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    QVector<float> v(kDim);
    for (float &x : v)
        x = gauss(rng);
    return v;
}

QByteArray bytesOf(const QVector<float> &v)
{
    return QByteArray(reinterpret_cast<const char *>(v.constData()),
                      qsizetype(v.size()) * qsizetype(sizeof(float)));
}

QVector<float> scaled(QVector<float> v, float factor)
{
    for (float &x : v)
        x *= factor;
    return v;
}

/// A store holding only what the tests commit: one node row per label with its vector, as the
/// write path leaves it. The index manager mirrors what apply() reports and reads the floats
/// back from these rows (the drain, the exact scores).
class Fixture
{
public:
    Fixture()
    {
        auto db = Database::open(m_dir.filePath(QStringLiteral("memory.db")));
        if (db)
            m_db = std::move(db).value();
    }
    bool isValid() const { return m_dir.isValid() && m_db != nullptr; }
    Database &db() { return *m_db; }
    QString indexDir() const { return m_dir.filePath(QStringLiteral("index")); }

    /// A manager whose scope index is loaded, so apply() is not ignored.
    std::unique_ptr<IndexManager> openManager()
    {
        auto manager = std::make_unique<IndexManager>(*m_db, indexDir());
        auto loaded = manager->search(kTenant, kScope, QVector<float>(kDim, 1.0f), 1);
        return loaded ? std::move(manager) : nullptr;
    }

    /// What a writer does: commits the change (an empty vector forgets the node), then reports
    /// it. A change older than the label's newest leaves the row alone, as when two writers
    /// report out of order.
    void commitAndApply(IndexManager &manager, qint64 label, qint64 version,
                        const QByteArray &vector)
    {
        commit({{label, version, vector}});
        manager.apply(kTenant, kScope, label, version, vector);
    }

    /// As the write path does it: the version is taken inside the transaction, so versions
    /// commit in order whatever the number of writers.
    void writeAndApply(IndexManager &manager, qint64 label, const QByteArray &vector)
    {
        qint64 version = 0;
        {
            QMutexLocker lock(&m_writeOrder);
            version = ++m_lastVersion;
            commit({{label, version, vector}});
        }
        manager.apply(kTenant, kScope, label, version, vector);
    }

    struct Change
    {
        qint64 label;
        qint64 version;
        QByteArray vector;
    };

    /// Commits changes in one transaction, as one write of many nodes does.
    bool commit(const QVector<Change> &changes)
    {
        QMutexLocker lock(&m_newestLock);
        auto written = m_db->write([&](QSqlDatabase &db) -> Result<void> {
            for (const Change &c : changes) {
                if (!supersedes(c))
                    continue;
                QSqlQuery q(db);
                if (c.vector.isEmpty()) {
                    q.prepare(QStringLiteral("DELETE FROM nodes WHERE vector_label = ?"));
                    q.addBindValue(c.label);
                } else {
                    q.prepare(QStringLiteral(
                        "INSERT OR REPLACE INTO nodes (id, tenant_id, scope, type,"
                        " embedding_status, embedding_version, vector_label, created_at,"
                        " updated_at, commit_id) VALUES (?, ?, ?, 'event', 'ready', ?, ?, 0, 0,"
                        " 'c')"));
                    for (const QVariant &v :
                         {QVariant(QStringLiteral("node-%1").arg(c.label)), QVariant(kTenant),
                          QVariant(kScope), QVariant(c.version), QVariant(c.label)})
                        q.addBindValue(v);
                    if (!q.exec())
                        return Error::internal(q.lastError().text());
                    q.prepare(QStringLiteral(
                        "INSERT OR REPLACE INTO node_vectors (label, embedding) VALUES (?, ?)"));
                    q.addBindValue(c.label);
                    q.addBindValue(c.vector);
                }
                if (!q.exec())
                    return Error::internal(q.lastError().text());
                m_newest.insert(c.label, {c.version, c.vector.isEmpty()});
            }
            return {};
        });
        return written.ok();
    }

private:
    bool supersedes(const Change &c) const
    {
        const auto newest = m_newest.constFind(c.label);
        return newest == m_newest.cend() || c.version > newest->first
               || (c.version == newest->first && c.vector.isEmpty());
    }

    QTemporaryDir m_dir;
    std::unique_ptr<Database> m_db;
    QMutex m_writeOrder;
    qint64 m_lastVersion = 0;
    QMutex m_newestLock;
    QHash<qint64, QPair<qint64, bool>> m_newest; // label -> (version, removed)
};

QVector<qint64> labelsOf(const QVector<VectorMatch> &matches)
{
    QVector<qint64> labels;
    for (const VectorMatch &m : matches)
        labels << m.label;
    return labels;
}

} // namespace

namespace {

constexpr int kBacklog = 600; // indexed in well under a second when nothing holds the drain

/// Pauses the drain and commits kBacklog random vectors for it: the backlog the yield tests
/// release the drain onto.
bool holdBacklog(Fixture &f, IndexManager &manager, std::mt19937 &rng)
{
    manager.setDrainPaused(true);
    QVector<Fixture::Change> committed;
    for (int i = 0; i < kBacklog; ++i)
        committed.append({i + 1, i + 1, bytesOf(randomVector(rng))});
    if (!f.commit(committed))
        return false;
    for (const Fixture::Change &c : std::as_const(committed))
        manager.apply(kTenant, kScope, c.label, c.version, c.vector);
    return true;
}

} // namespace

class tst_IndexManager : public QObject
{
    Q_OBJECT

private slots:
    void pendingVectorIsFoundBeforeTheDrain();
    void reembeddedLabelReturnsItsNewestVector();
    void removalIsNeverReturned();
    void acceptFilterAppliesToPendingVectors();
    void overridesHoldOnTheGraphSearchPath();
    void concurrentWritesAndSearchesStayConsistent();
    void saveAllWritesPendingChangesToTheFile();
    void firstWriteBringsAFreshScopeToLifeWithoutASearch();
    void writersRunAheadOfTheDrainWithoutWaiting();
    void aLargeBacklogGivesTheExactTopK();
    void theDrainWaitsWhileASearchRuns();
    void theDrainWaitsWhileAWriteRuns();
};

void tst_IndexManager::pendingVectorIsFoundBeforeTheDrain()
{
    Fixture f;
    QVERIFY(f.isValid());
    auto manager = f.openManager();
    QVERIFY(manager);
    std::mt19937 rng(1);
    const QVector<float> a = randomVector(rng);
    const QVector<float> b = randomVector(rng);

    manager->setDrainPaused(true);
    f.commitAndApply(*manager, 11, 1, bytesOf(a));
    f.commitAndApply(*manager, 12, 2, bytesOf(b));
    QCOMPARE(manager->pendingCount(kTenant, kScope), 2);
    QCOMPARE(manager->indexedCount(kTenant, kScope), qint64(2));

    // Scaling the query must not matter: pending vectors are scored by cosine like the index.
    auto hits = manager->search(kTenant, kScope, scaled(a, 3.0f), 2);
    QVERIFY(hits);
    QCOMPARE(labelsOf(hits.value()), QVector<qint64>({11, 12}));
    QVERIFY(qAbs(hits.value().at(0).similarity - 1.0f) < 1e-4f);
    const float pendingSimilarity = hits.value().at(1).similarity;
    QCOMPARE(manager->pendingCount(kTenant, kScope), 2); // searching does not drain

    manager->setDrainPaused(false);
    manager->waitForDrains();
    QCOMPARE(manager->pendingCount(kTenant, kScope), 0);
    QCOMPARE(manager->indexedCount(kTenant, kScope), qint64(2));
    hits = manager->search(kTenant, kScope, a, 2);
    QVERIFY(hits);
    QCOMPARE(labelsOf(hits.value()), QVector<qint64>({11, 12}));
    // The index scores the same pair the same way (up to SIMD rounding).
    QVERIFY(qAbs(hits.value().at(1).similarity - pendingSimilarity) < 1e-4f);
}

void tst_IndexManager::reembeddedLabelReturnsItsNewestVector()
{
    Fixture f;
    QVERIFY(f.isValid());
    auto manager = f.openManager();
    QVERIFY(manager);
    std::mt19937 rng(2);
    const QVector<float> oldVector = randomVector(rng);
    const QVector<float> newVector = randomVector(rng);
    for (qint64 label = 1; label <= 20; ++label)
        f.commitAndApply(*manager, label, label,
                         bytesOf(label == 5 ? oldVector : randomVector(rng)));
    manager->waitForDrains();
    QCOMPARE(manager->pendingCount(kTenant, kScope), 0);

    manager->setDrainPaused(true);
    f.commitAndApply(*manager, 5, 30, bytesOf(newVector));
    // A writer that committed earlier but calls apply() late must not win.
    f.commitAndApply(*manager, 5, 25, bytesOf(oldVector));
    QCOMPARE(manager->pendingCount(kTenant, kScope), 1);
    QCOMPARE(manager->indexedCount(kTenant, kScope), qint64(20));

    auto byOld = manager->search(kTenant, kScope, oldVector, 20);
    QVERIFY(byOld);
    QCOMPARE(byOld.value().size(), 20);
    QVERIFY(byOld.value().at(0).label != 5); // the index still holds the old vector of 5
    QCOMPARE(labelsOf(byOld.value()).count(5), 1);
    auto byNew = manager->search(kTenant, kScope, newVector, 3);
    QVERIFY(byNew);
    QCOMPARE(byNew.value().at(0).label, qint64(5));
    QVERIFY(qAbs(byNew.value().at(0).similarity - 1.0f) < 1e-4f);

    manager->setDrainPaused(false);
    manager->waitForDrains();
    QCOMPARE(manager->pendingCount(kTenant, kScope), 0);
    f.commitAndApply(*manager, 5, 28, bytesOf(oldVector)); // still older than 30
    QCOMPARE(manager->pendingCount(kTenant, kScope), 0);
    byNew = manager->search(kTenant, kScope, newVector, 1);
    QVERIFY(byNew);
    QCOMPARE(byNew.value().at(0).label, qint64(5));
    byOld = manager->search(kTenant, kScope, oldVector, 1);
    QVERIFY(byOld);
    QVERIFY(byOld.value().at(0).label != 5);
}

void tst_IndexManager::removalIsNeverReturned()
{
    Fixture f;
    QVERIFY(f.isValid());
    auto manager = f.openManager();
    QVERIFY(manager);
    std::mt19937 rng(3);
    QVector<QVector<float>> vectors;
    for (qint64 label = 1; label <= 3; ++label) {
        vectors << randomVector(rng);
        f.commitAndApply(*manager, label, label, bytesOf(vectors.last()));
    }
    manager->waitForDrains();

    manager->setDrainPaused(true);
    // Forget deletes the row and reports the version the node already had.
    f.commitAndApply(*manager, 2, 2, QByteArray());
    // The same version as an upsert arriving late is not newer than the removal.
    f.commitAndApply(*manager, 2, 2, bytesOf(vectors.at(1)));
    // A label removed before the drain ever indexed it is hidden too.
    const QVector<float> fresh = randomVector(rng);
    f.commitAndApply(*manager, 4, 4, bytesOf(fresh));
    f.commitAndApply(*manager, 4, 4, QByteArray());
    QCOMPARE(manager->indexedCount(kTenant, kScope), qint64(2));

    for (const QVector<float> &query : {vectors.at(1), fresh}) {
        auto hits = manager->search(kTenant, kScope, query, 10);
        QVERIFY(hits);
        QCOMPARE(hits.value().size(), 2);
        QVERIFY(!labelsOf(hits.value()).contains(2));
        QVERIFY(!labelsOf(hits.value()).contains(4));
    }

    manager->setDrainPaused(false);
    manager->waitForDrains();
    QCOMPARE(manager->pendingCount(kTenant, kScope), 0);
    QCOMPARE(manager->indexedCount(kTenant, kScope), qint64(2));
    auto hits = manager->search(kTenant, kScope, vectors.at(1), 10);
    QVERIFY(hits);
    QVector<qint64> left = labelsOf(hits.value());
    std::sort(left.begin(), left.end());
    QCOMPARE(left, QVector<qint64>({1, 3}));
}

void tst_IndexManager::acceptFilterAppliesToPendingVectors()
{
    Fixture f;
    QVERIFY(f.isValid());
    auto manager = f.openManager();
    QVERIFY(manager);
    std::mt19937 rng(4);
    const QVector<float> query = randomVector(rng);
    manager->setDrainPaused(true);
    f.commitAndApply(*manager, 1, 1, bytesOf(query));
    f.commitAndApply(*manager, 2, 2, bytesOf(randomVector(rng)));
    auto hits = manager->search(kTenant, kScope, query, 5, [](qint64 label) { return label != 1; });
    QVERIFY(hits);
    QCOMPARE(labelsOf(hits.value()), QVector<qint64>({2}));
    // Another scope sees nothing of it.
    auto other = manager->search(kTenant, QStringLiteral("elsewhere"), query, 5);
    QVERIFY(other);
    QVERIFY(other.value().isEmpty());
}

void tst_IndexManager::overridesHoldOnTheGraphSearchPath()
{
    Fixture f;
    QVERIFY(f.isValid());
    auto manager = f.openManager();
    QVERIFY(manager);
    std::mt19937 rng(6);
    constexpr qint64 kCount = 1100; // above the exact-scan threshold: hnswlib answers
    QVector<QVector<float>> vectors;
    for (qint64 label = 1; label <= kCount; ++label) {
        vectors << randomVector(rng);
        f.commitAndApply(*manager, label, label, bytesOf(vectors.last()));
    }
    manager->waitForDrains();
    QCOMPARE(manager->pendingCount(kTenant, kScope), 0);
    QCOMPARE(manager->indexedCount(kTenant, kScope), kCount);

    manager->setDrainPaused(true);
    QHash<qint64, QVector<float>> reembedded;
    for (qint64 label = 1; label <= 40; ++label) {
        reembedded.insert(label, randomVector(rng));
        f.commitAndApply(*manager, label, kCount + label, bytesOf(reembedded.value(label)));
    }
    for (auto it = reembedded.cbegin(); it != reembedded.cend(); ++it) {
        // The index still holds the old vector; the pending one must replace it.
        auto byOld = manager->search(kTenant, kScope, vectors.at(it.key() - 1), 10);
        QVERIFY(byOld);
        QCOMPARE(byOld.value().size(), 10);
        for (const VectorMatch &m : byOld.value())
            QVERIFY2(m.similarity < 0.5f, qPrintable(QString::number(m.label)));
        auto byNew = manager->search(kTenant, kScope, it.value(), 10);
        QVERIFY(byNew);
        QCOMPARE(byNew.value().size(), 10);
        QCOMPARE(byNew.value().at(0).label, it.key());
    }
    // Labels not re-embedded are still found through the graph.
    auto kept = manager->search(kTenant, kScope, vectors.at(500), 1);
    QVERIFY(kept);
    QCOMPARE(kept.value().value(0).label, qint64(501));
}

void tst_IndexManager::concurrentWritesAndSearchesStayConsistent()
{
    Fixture f;
    QVERIFY(f.isValid());
    auto manager = f.openManager();
    QVERIFY(manager);
    constexpr int kWriters = 3;
    constexpr int kLabelsPerWriter = 60;
    std::atomic<int> missed{0};
    std::atomic<int> malformed{0};
    std::atomic<bool> writing{true};
    // Each writer's newest vectors, read once every thread has finished.
    QVector<QHash<qint64, QVector<float>>> newest(kWriters);

    QVector<QThread *> threads;
    for (int w = 0; w < kWriters; ++w) {
        QHash<qint64, QVector<float>> *mine = &newest[w];
        threads << QThread::create([&, w, mine] {
            std::mt19937 rng(100 + w);
            for (int round = 0; round < 2; ++round) { // the second round re-embeds every label
                for (int i = 0; i < kLabelsPerWriter; ++i) {
                    const qint64 label = qint64(w) * 1000 + i;
                    const QVector<float> v = randomVector(rng);
                    f.writeAndApply(*manager, label, bytesOf(v));
                    mine->insert(label, v);
                    // Recallable at once, whatever the drain is doing.
                    auto hits = manager->search(kTenant, kScope, v, 1);
                    if (!hits || hits.value().isEmpty() || hits.value().at(0).label != label)
                        ++missed;
                }
            }
        });
    }
    for (int s = 0; s < 2; ++s) {
        threads << QThread::create([&, s] {
            std::mt19937 rng(200 + s);
            while (writing.load()) {
                auto hits = manager->search(kTenant, kScope, randomVector(rng), 10);
                if (!hits) {
                    ++malformed;
                    continue;
                }
                QSet<qint64> seen;
                for (qsizetype i = 0; i < hits.value().size(); ++i) {
                    const VectorMatch &m = hits.value().at(i);
                    if (seen.contains(m.label)
                        || (i > 0 && hits.value().at(i - 1).similarity < m.similarity))
                        ++malformed;
                    seen.insert(m.label);
                }
                if (hits.value().size() > 10)
                    ++malformed;
            }
        });
    }
    for (QThread *t : threads)
        t->start();
    for (int w = 0; w < kWriters; ++w)
        threads.at(w)->wait();
    writing = false;
    for (QThread *t : threads) {
        t->wait();
        delete t;
    }
    QCOMPARE(missed.load(), 0);
    QCOMPARE(malformed.load(), 0);

    manager->waitForDrains();
    QCOMPARE(manager->pendingCount(kTenant, kScope), 0);
    QCOMPARE(manager->indexedCount(kTenant, kScope), qint64(kWriters * kLabelsPerWriter));
    for (const auto &labels : newest) {
        for (auto it = labels.cbegin(); it != labels.cend(); ++it) {
            auto hits = manager->search(kTenant, kScope, it.value(), 1);
            QVERIFY(hits);
            QCOMPARE(hits.value().value(0).label, it.key());
            QVERIFY(qAbs(hits.value().value(0).similarity - 1.0f) < 1e-4f);
        }
    }
}

void tst_IndexManager::saveAllWritesPendingChangesToTheFile()
{
    Fixture f;
    QVERIFY(f.isValid());
    std::mt19937 rng(5);
    QVector<QVector<float>> vectors;
    {
        auto manager = f.openManager();
        QVERIFY(manager);
        manager->setDrainPaused(true);
        for (qint64 label = 1; label <= 5; ++label) {
            vectors << randomVector(rng);
            f.commitAndApply(*manager, label, label, bytesOf(vectors.last()));
        }
        f.commitAndApply(*manager, 3, 6, QByteArray());
        QCOMPARE(manager->pendingCount(kTenant, kScope), 5);
        manager->saveAll();
        QCOMPARE(manager->pendingCount(kTenant, kScope), 0);
        QVERIFY(QFile::exists(manager->indexPath(kTenant, kScope)));
    }
    // The store has no rows, so a reopened manager only knows what the file holds.
    auto reopened = std::make_unique<IndexManager>(f.db(), f.indexDir());
    for (qint64 label = 1; label <= 5; ++label) {
        auto hits = reopened->search(kTenant, kScope, vectors.at(label - 1), 1);
        QVERIFY(hits);
        if (label == 3) {
            QVERIFY(hits.value().value(0).label != 3);
        } else {
            QCOMPARE(hits.value().value(0).label, label);
        }
    }
    QCOMPARE(reopened->indexedCount(kTenant, kScope), qint64(4));
}

void tst_IndexManager::firstWriteBringsAFreshScopeToLifeWithoutASearch()
{
    Fixture f;
    QVERIFY(f.isValid());
    // No search before the writes: a bulk load into a scope nobody has recalled yet.
    auto manager = std::make_unique<IndexManager>(f.db(), f.indexDir());
    manager->setDrainPaused(true);
    std::mt19937 rng(6);
    constexpr int kCount = 300;
    QVector<QVector<float>> vectors;
    for (qint64 label = 1; label <= kCount; ++label) {
        vectors << randomVector(rng);
        f.commitAndApply(*manager, label, label, bytesOf(vectors.last()));
    }
    // Nothing is in hnswlib yet, and every written vector is still found, exactly.
    QCOMPARE(manager->pendingCount(kTenant, kScope), kCount);
    for (qint64 label : {qint64(1), qint64(150), qint64(kCount)}) {
        auto hits = manager->search(kTenant, kScope, vectors.at(label - 1), 3);
        QVERIFY(hits);
        QCOMPARE(hits.value().value(0).label, label);
        QVERIFY(qAbs(hits.value().value(0).similarity - 1.0f) < 1e-4f);
    }
    QCOMPARE(manager->pendingCount(kTenant, kScope), kCount); // searching built nothing
    QCOMPARE(manager->indexedCount(kTenant, kScope), qint64(kCount));
    manager->setDrainPaused(false);
    manager->waitForDrains();
    QCOMPARE(manager->pendingCount(kTenant, kScope), 0);
    QCOMPARE(manager->indexedCount(kTenant, kScope), qint64(kCount));
}

void tst_IndexManager::writersRunAheadOfTheDrainWithoutWaiting()
{
    Fixture f;
    QVERIFY(f.isValid());
    auto manager = f.openManager();
    QVERIFY(manager);
    std::mt19937 rng(7);
    constexpr int kCount = 2000;
    QVector<QByteArray> vectors;
    for (int i = 0; i < kCount; ++i)
        vectors << bytesOf(randomVector(rng));
    // A bulk load commits its batches and reports them; the drain runs meanwhile, and a
    // report must never wait for it, so the backlog grows past any fixed cap (a write used to
    // wait once 256 changes were pending).
    QVector<Fixture::Change> committed;
    for (int i = 0; i < kCount; ++i)
        committed.append({i + 1, i + 1, vectors.at(i)});
    QVERIFY(f.commit(committed));
    int mostPending = 0;
    for (int i = 0; i < kCount; ++i) {
        manager->apply(kTenant, kScope, i + 1, i + 1, vectors.at(i));
        mostPending = qMax(mostPending, manager->pendingCount(kTenant, kScope));
    }
    QVERIFY2(mostPending > 256, qPrintable(QStringLiteral("at most %1 pending").arg(mostPending)));
    auto hits = manager->search(kTenant, kScope, randomVector(rng), 5);
    QVERIFY(hits);
    QCOMPARE(hits.value().size(), 5);
    manager->waitForDrains();
    QCOMPARE(manager->pendingCount(kTenant, kScope), 0);
    QCOMPARE(manager->indexedCount(kTenant, kScope), qint64(kCount));
}

void tst_IndexManager::aLargeBacklogGivesTheExactTopK()
{
    // The backlog is scanned through its byte codes and only the best candidates are scored
    // again from SQLite's floats: the answer must still be the exact top k, with exact scores.
    Fixture f;
    QVERIFY(f.isValid());
    auto manager = f.openManager();
    QVERIFY(manager);
    manager->setDrainPaused(true);
    std::mt19937 rng(8);
    constexpr int kCount = 3000;
    const QVector<float> centre = randomVector(rng);
    QVector<QVector<float>> vectors;
    QVector<Fixture::Change> committed;
    for (int i = 0; i < kCount; ++i) {
        // Crowded near one centre, so neighbours' scores lie close together.
        QVector<float> v = randomVector(rng);
        for (int d = 0; d < kDim; ++d)
            v[d] = 0.3f * v[d] + centre[d];
        vectors << v;
        committed.append({i + 1, i + 1, bytesOf(v)});
    }
    QVERIFY(f.commit(committed));
    for (int i = 0; i < kCount; ++i)
        manager->apply(kTenant, kScope, i + 1, i + 1, bytesOf(vectors.at(i)));
    QCOMPARE(manager->pendingCount(kTenant, kScope), kCount);

    const auto cosine = [](const QVector<float> &a, const QVector<float> &b) {
        double ab = 0, aa = 0, bb = 0;
        for (int d = 0; d < kDim; ++d) {
            ab += double(a[d]) * b[d];
            aa += double(a[d]) * a[d];
            bb += double(b[d]) * b[d];
        }
        return ab / std::sqrt(aa * bb);
    };
    for (int q = 0; q < 10; ++q) {
        QVector<float> query = randomVector(rng);
        for (int d = 0; d < kDim; ++d)
            query[d] = 0.3f * query[d] + centre[d];
        QVector<QPair<double, qint64>> exact;
        for (int i = 0; i < kCount; ++i)
            exact.append({cosine(query, vectors.at(i)), i + 1});
        std::sort(exact.begin(), exact.end(), std::greater<>());
        auto hits = manager->search(kTenant, kScope, query, 10);
        QVERIFY(hits);
        QCOMPARE(hits.value().size(), 10);
        for (int r = 0; r < 10; ++r) {
            QCOMPARE(hits.value().at(r).label, exact.at(r).second);
            QVERIFY(qAbs(double(hits.value().at(r).similarity) - exact.at(r).first) < 1e-5);
        }
    }
    manager->setDrainPaused(false);
}

void tst_IndexManager::theDrainWaitsWhileASearchRuns()
{
    Fixture f;
    QVERIFY(f.isValid());
    auto manager = f.openManager();
    QVERIFY(manager);
    std::mt19937 rng(9);
    QVERIFY(holdBacklog(f, *manager, rng));

    // A search held inside its scan of the backlog (by its filter) while the drain runs.
    QSemaphore scanning;
    QSemaphore release;
    std::atomic<bool> held{false};
    const QVector<float> query = randomVector(rng);
    std::unique_ptr<QThread> searcher(QThread::create([&] {
        auto hits = manager->search(kTenant, kScope, query, 5, [&](qint64) {
            if (!held.exchange(true)) {
                scanning.release();
                release.acquire();
            }
            return true;
        });
        QVERIFY(hits);
    }));
    manager->setDrainPaused(false);
    searcher->start();
    QVERIFY(scanning.tryAcquire(1, 10000));
    const int before = manager->pendingCount(kTenant, kScope);
    QThread::msleep(1500);
    const int during = manager->pendingCount(kTenant, kScope);
    release.release();
    QVERIFY(searcher->wait(10000));
    // Unhindered, the drain indexes all 600 in well under 1.5 s; yielding, it inserts one
    // vector per bounded wait, so at most the batch it was in can finish.
    QVERIFY2(before - during <= 64,
             qPrintable(QStringLiteral("%1 drained while a search ran").arg(before - during)));
    manager->waitForDrains();
    QCOMPARE(manager->pendingCount(kTenant, kScope), 0);
}

void tst_IndexManager::theDrainWaitsWhileAWriteRuns()
{
    Fixture f;
    QVERIFY(f.isValid());
    auto manager = f.openManager();
    QVERIFY(manager);
    std::mt19937 rng(10);
    QVERIFY(holdBacklog(f, *manager, rng));

    int drained = 0;
    {
        // A write transaction in progress while the drain starts on a small backlog.
        const IndexManager::RequestInFlight writing(*manager, IndexManager::RequestInFlight::Write);
        manager->setDrainPaused(false);
        QThread::msleep(1500);
        drained = kBacklog - manager->pendingCount(kTenant, kScope);
    }
    // As with a search: one insert per bounded wait, so at most the batch it was in finishes.
    QVERIFY2(drained <= 64,
             qPrintable(QStringLiteral("%1 drained while a write ran").arg(drained)));
    manager->waitForDrains();
    QCOMPARE(manager->pendingCount(kTenant, kScope), 0);
}

QTEST_GUILESS_MAIN(tst_IndexManager)
#include "tst_indexmanager.moc"
