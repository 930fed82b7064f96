#include "service/embedding/embeddingbackfill.h"

#include "service/api/writerequest.h"
#include "service/embedding/embeddingprovider.h"
#include "service/index/indexmanager.h"
#include "service/index/vectormath.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"

#include <QDeadlineTimer>
#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcBackfill, "memorygraph.service.backfill")

namespace MemoryGraph {

namespace {

constexpr int kIdlePollMs = 30000; // also picks up work left pending by a previous run

Error badResponse(const QString &message)
{
    return Error::make(502, QStringLiteral("upstream_embedding_bad_response"), message);
}

/// The provider's answer for a batch: one result per text, and the batch call itself (its
/// error is what a round with upstream trouble logs).
struct BatchEmbeddings
{
    Result<QVector<Embedding>> batch;
    QVector<Result<Embedding>> perText;
};

/// One result per text. A 400 means the provider rejected some input (a text with nothing
/// to embed); embed one by one so a single bad text does not hold back the others.
BatchEmbeddings embedTexts(EmbeddingProvider &provider, const QStringList &texts)
{
    BatchEmbeddings out{provider.embed(texts), {}};
    if (out.batch && out.batch.value().size() != texts.size())
        out.batch
            = badResponse(QStringLiteral("the provider returned a different number of vectors"));
    if (out.batch) {
        for (const Embedding &v : out.batch.value())
            out.perText.append(v);
    } else if (out.batch.error().status == 400 && texts.size() > 1) {
        for (const QString &t : texts) {
            auto one = provider.embed({t});
            if (one && one.value().size() == 1)
                out.perText.append(one.value().first());
            else
                out.perText.append(one ? badResponse(QStringLiteral("no vector returned"))
                                       : one.error());
        }
    } else {
        for (int i = 0; i < texts.size(); ++i)
            out.perText.append(out.batch.error());
    }
    return out;
}

/// What storing a batch changed: the vectors for the index, and whether upstream trouble
/// asks for a retry (and how soon the provider allows it).
struct StoredBatch
{
    QVector<EmbeddingChange> changes;
    bool upstreamFailed = false;
    int retryAfterSec = 0;
};

/// Marks the node ready and stores its vector.
Result<void> storeVector(QSqlDatabase &wdb, NodeRecord &n, const Embedding &vector,
                         const EmbeddingProvider &provider, StoredBatch &out)
{
    n.embeddingStatus = QStringLiteral("ready");
    n.embeddingModel = provider.model();
    n.embeddingError.clear();
    if (auto saved = GraphStore::saveNode(wdb, n); !saved)
        return saved.error();
    const QByteArray bytes = VectorMath::toBytes(vector);
    auto stamp = GraphStore::setEmbedding(wdb, n.id, bytes);
    if (!stamp)
        return stamp.error();
    out.changes.append({n.tenantId, n.scope, stamp.value().label, stamp.value().version, bytes});
    return {};
}

/// Counts the failed attempt. Bad input will not get better: fail it now. Upstream trouble is
/// retried until kMaxAttempts.
Result<void> recordFailure(QSqlDatabase &wdb, NodeRecord &n, const Error &error, StoredBatch &out)
{
    const bool permanent = error.status == 400;
    if (!permanent) {
        out.upstreamFailed = true;
        out.retryAfterSec = qMax(out.retryAfterSec,
                                 error.details.value(QStringLiteral("retry_after_sec")).toInt());
    }
    auto attempts = GraphStore::countEmbeddingAttempt(wdb, n.id);
    if (!attempts)
        return attempts.error();
    if (permanent || attempts.value() >= EmbeddingBackfill::kMaxAttempts) {
        n.embeddingStatus = QStringLiteral("failed");
        n.embeddingError = error.code;
        if (auto saved = GraphStore::saveNode(wdb, n); !saved)
            return saved.error();
    }
    return {};
}

/// Stores each node's result inside the writer's transaction, skipping nodes that changed
/// since they were read. A node re-embedded for a newer model keeps its old vector when the
/// new one fails; the next start tries it again.
Result<void> storeBatch(QSqlDatabase &wdb, const QVector<NodeRecord> &nodes,
                        const QStringList &texts, const QVector<Result<Embedding>> &results,
                        const EmbeddingProvider &provider, StoredBatch &out)
{
    for (int i = 0; i < nodes.size(); ++i) {
        auto current = GraphStore::findNode(wdb, nodes[i].id);
        if (!current)
            return current.error();
        // The node was edited or forgotten meanwhile: its new text is embedded next round.
        if (!current.value() || current.value()->embedText() != texts[i])
            continue;
        NodeRecord &n = *current.value();
        const bool pending = n.embeddingStatus == QLatin1String("pending");
        const bool superseded
            = n.embeddingStatus == QLatin1String("ready") && provider.supersedes(n.embeddingModel);
        if (!pending && !superseded)
            continue;
        const Result<Embedding> &vector = results[i];
        auto stored = vector    ? storeVector(wdb, n, vector.value(), provider, out)
                      : pending ? recordFailure(wdb, n, vector.error(), out)
                                : Result<void>();
        if (!stored)
            return stored;
    }
    return {};
}

} // namespace

EmbeddingBackfill::EmbeddingBackfill(Database &db, IndexManager &indexes,
                                     EmbeddingProvider &provider)
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
    auto pending = GraphStore::pendingEmbeddingNodes(conn.value(), kBatchSize);
    if (pending && pending.value().isEmpty())
        pending = nextSuperseded(conn.value());
    if (!pending)
        return -1;
    const QVector<NodeRecord> &nodes = pending.value();
    if (nodes.isEmpty())
        return 0;
    QStringList texts;
    for (const NodeRecord &n : nodes)
        texts << n.embedText();

    const BatchEmbeddings embedded = embedTexts(m_provider, texts);
    StoredBatch stored;
    auto written = m_db.write([&](QSqlDatabase &wdb) -> Result<void> {
        return storeBatch(wdb, nodes, texts, embedded.perText, m_provider, stored);
    });
    if (!written) {
        qCWarning(lcBackfill) << "cannot store embeddings:" << written.error().message;
        return -1;
    }
    for (const EmbeddingChange &c : std::as_const(stored.changes))
        m_indexes.apply(c.tenantId, c.scope, c.label, c.version, c.vector);
    if (stored.upstreamFailed) {
        qCWarning(lcBackfill) << "embedding provider failed:" << embedded.batch.error().code
                              << embedded.batch.error().message;
        *retryAfterMs = stored.retryAfterSec * 1000;
        return -1;
    }
    return int(nodes.size());
}

Result<QVector<NodeRecord>> EmbeddingBackfill::nextSuperseded(QSqlDatabase &db)
{
    if (!m_supersededListed) {
        auto models = GraphStore::readyVectorsByModel(db);
        if (!models)
            return models.error();
        for (auto it = models.value().cbegin(); it != models.value().cend(); ++it) {
            if (!m_provider.supersedes(it.key()))
                continue;
            m_supersededModels << it.key();
            qCInfo(lcBackfill).noquote() << "re-embedding" << it.value() << "vectors made by"
                                         << it.key() << "with" << m_provider.model();
        }
        m_supersededListed = true;
    }
    if (m_supersededModels.isEmpty())
        return QVector<NodeRecord>();
    auto nodes
        = GraphStore::readyNodesEmbeddedBy(db, m_supersededModels, m_supersededAfter, kBatchSize);
    if (nodes && !nodes.value().isEmpty()) {
        m_supersededAfter = nodes.value().constLast().id;
    } else if (nodes) {
        // The pass is complete: every vector written since uses the current model.
        qCInfo(lcBackfill).noquote() << "re-embedding done:" << m_supersededModels.join(", ")
                                     << "replaced by" << m_provider.model();
        m_supersededModels.clear();
    }
    return nodes;
}

} // namespace MemoryGraph
