#include "service/embedding/embeddingbackfill.h"

#include "service/embedding/embeddingprovider.h"
#include "service/index/indexmanager.h"
#include "service/index/vectormath.h"
#include "service/api/writerequest.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"

#include <QDeadlineTimer>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcBackfill, "memorygraph.service.backfill")

namespace MemoryGraph {

namespace {
constexpr int kIdlePollMs = 30000;   // also picks up work left pending by a previous run
}

EmbeddingBackfill::EmbeddingBackfill(Database &db, IndexManager &indexes, EmbeddingProvider &provider)
    : m_db(db), m_indexes(indexes), m_provider(provider)
{
}

EmbeddingBackfill::~EmbeddingBackfill()
{
    stop();
}

void EmbeddingBackfill::start()
{
    if (m_thread)
        return;
    m_stopping = false;
    m_thread = QThread::create([this] { run(); });
    m_thread->setObjectName(QStringLiteral("embedding-backfill"));
    m_thread->start(QThread::LowPriority);
}

void EmbeddingBackfill::stop()
{
    if (!m_thread)
        return;
    {
        QMutexLocker lock(&m_mutex);
        m_stopping = true;
        m_wakeup.wakeAll();
    }
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
}

void EmbeddingBackfill::wake()
{
    QMutexLocker lock(&m_mutex);
    m_woken = true;
    m_isIdle = false;
    m_wakeup.wakeAll();
}

bool EmbeddingBackfill::waitUntilIdle(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    QMutexLocker lock(&m_mutex);
    while (!m_isIdle || m_woken) {
        if (!m_idle.wait(&m_mutex, deadline))
            return false;
    }
    return true;
}

void EmbeddingBackfill::run()
{
    int failures = 0;
    while (true) {
        {
            QMutexLocker lock(&m_mutex);
            if (m_stopping)
                return;
            m_woken = false;
        }
        int retryAfterMs = 0;
        const int handled = processBatch(&retryAfterMs);
        int waitMs = 0;
        if (handled < 0) {
            ++failures;
            waitMs = qMax(retryAfterMs, qMin(60000, 500 << qMin(failures, 7)));
        } else if (handled == 0) {
            failures = 0;
            waitMs = kIdlePollMs;
        } else {
            failures = 0;
            continue;
        }
        QMutexLocker lock(&m_mutex);
        if (handled == 0 && !m_woken) {
            m_isIdle = true;
            m_idle.wakeAll();
        }
        if (!m_stopping && !m_woken)
            m_wakeup.wait(&m_mutex, QDeadlineTimer(waitMs));
    }
}

int EmbeddingBackfill::processBatch(int *retryAfterMs)
{
    auto conn = m_db.connection();
    if (!conn)
        return -1;
    QSqlDatabase db = conn.value();
    auto pending = GraphStore::nodesWhere(db, QStringLiteral(
        "embedding_status = 'pending' ORDER BY updated_at, id LIMIT %1").arg(kBatchSize), {});
    if (!pending)
        return -1;
    const QVector<NodeRecord> nodes = pending.value();
    if (nodes.isEmpty())
        return 0;
    QStringList texts;
    for (const NodeRecord &n : nodes)
        texts << n.embedText();

    // One result per node. A 400 means the provider rejected some input (a text with nothing
    // to embed); embed one by one so a single bad text does not hold back the others.
    QVector<Result<Embedding>> results;
    auto vectors = m_provider.embed(texts);
    if (vectors && vectors.value().size() != texts.size())
        vectors = Error::make(502, QStringLiteral("upstream_embedding_bad_response"),
                              QStringLiteral("the provider returned a different number of vectors"));
    if (vectors) {
        for (const Embedding &v : vectors.value())
            results.append(v);
    } else if (vectors.error().status == 400 && texts.size() > 1) {
        for (const QString &t : texts) {
            auto one = m_provider.embed({t});
            if (one && one.value().size() == 1)
                results.append(one.value().first());
            else
                results.append(one ? Error::make(502, QStringLiteral("upstream_embedding_bad_response"),
                                                 QStringLiteral("no vector returned"))
                                   : one.error());
        }
    } else {
        for (int i = 0; i < texts.size(); ++i)
            results.append(vectors.error());
    }
    bool upstreamFailed = false;
    int retryAfterSec = 0;
    QVector<EmbeddingChange> changes;
    auto written = m_db.write([&](QSqlDatabase &wdb) -> Result<void> {
        for (int i = 0; i < nodes.size(); ++i) {
            auto current = GraphStore::findNode(wdb, nodes[i].id);
            if (!current)
                return current.error();
            // The node was edited or forgotten meanwhile: its new text is embedded next round.
            if (!current.value() || current.value()->embeddingStatus != QLatin1String("pending")
                || current.value()->embedText() != texts[i])
                continue;
            NodeRecord n = *current.value();
            const Result<Embedding> &vector = results[i];
            if (vector) {
                n.embeddingStatus = QStringLiteral("ready");
                n.embeddingModel = m_provider.model();
                n.embeddingError.clear();
                if (auto saved = GraphStore::saveNode(wdb, n); !saved)
                    return saved.error();
                const QByteArray bytes = VectorMath::toBytes(vector.value());
                auto stamp = GraphStore::setEmbedding(wdb, n.id, bytes);
                if (!stamp)
                    return stamp.error();
                changes.append({n.tenantId, n.scope, stamp.value().label, stamp.value().version, bytes});
                continue;
            }
            // Bad input will not get better: fail it now. Upstream trouble is retried.
            const bool permanent = vector.error().status == 400;
            if (!permanent) {
                upstreamFailed = true;
                retryAfterSec = qMax(retryAfterSec,
                                     vector.error().details.value(QStringLiteral("retry_after_sec")).toInt());
            }
            auto attempts = runSql(wdb, QStringLiteral(
                "UPDATE nodes SET embedding_attempts = embedding_attempts + 1 WHERE id = ?"
                " RETURNING embedding_attempts"), {n.id});
            if (!attempts)
                return attempts.error();
            attempts.value().next();
            if (permanent || attempts.value().value(0).toInt() >= kMaxAttempts) {
                n.embeddingStatus = QStringLiteral("failed");
                n.embeddingError = vector.error().code;
                if (auto saved = GraphStore::saveNode(wdb, n); !saved)
                    return saved.error();
            }
        }
        return {};
    });
    if (!written) {
        qCWarning(lcBackfill) << "cannot store embeddings:" << written.error().message;
        return -1;
    }
    for (const EmbeddingChange &c : changes)
        m_indexes.apply(c.tenantId, c.scope, c.label, c.version, c.vector);
    if (upstreamFailed) {
        qCWarning(lcBackfill) << "embedding provider failed:" << vectors.error().code
                              << vectors.error().message;
        *retryAfterMs = retryAfterSec * 1000;
        return -1;
    }
    return int(nodes.size());
}

} // namespace MemoryGraph
