#include "service/engine/memoryservice.h"

#include "service/embedding/embeddingprovider.h"
#include "service/engine/embeddingbackfill.h"
#include "service/engine/indexmanager.h"
#include "service/engine/recallaudit.h"
#include "service/engine/writeengine.h"
#include "service/storage/database.h"
#include "service/core/ids.h"
#include "service/storage/graphstore.h"

#include <QDir>

namespace MemoryGraph {

namespace {
const QString kDatabaseFile = QStringLiteral("memorygraph.sqlite");
}

MemoryService::MemoryService(const ServiceConfig &config, std::unique_ptr<Database> db,
                             std::unique_ptr<EmbeddingProvider> provider)
    : m_config(config), m_db(std::move(db)),
      m_indexes(std::make_unique<IndexManager>(*m_db, QDir(config.dataDir).filePath(QStringLiteral("index")))),
      m_provider(std::move(provider)), m_audit(std::make_unique<RecallAudit>(*m_db))
{
    if (m_provider) {
        m_backfill = std::make_unique<EmbeddingBackfill>(*m_db, *m_indexes, *m_provider);
        m_backfill->start();
    }
    m_indexes->warmUp();
}

MemoryService::~MemoryService()
{
    // Order matters: stop producing vectors, then persist the indexes, then close the store.
    m_backfill.reset();
    m_audit.reset();
    m_indexes.reset();
}

Result<std::unique_ptr<MemoryService>> MemoryService::open(const ServiceConfig &config,
                                                           std::unique_ptr<EmbeddingProvider> provider)
{
    if (config.dataDir.isEmpty())
        return Error::make(400, QStringLiteral("invalid_configuration"),
                           QStringLiteral("no data directory configured"));
    if (!QDir().mkpath(config.dataDir))
        return Error::make(500, QStringLiteral("storage_unavailable"),
                           QStringLiteral("cannot create data directory ") + config.dataDir);
    if (!provider) {
        auto offline = makeOfflineEmbeddingProvider(config);
        if (!offline)
            return offline.error();
        provider = std::move(offline).value();
    }
    auto db = Database::open(QDir(config.dataDir).filePath(kDatabaseFile));
    if (!db)
        return db.error();
    return std::unique_ptr<MemoryService>(
        new MemoryService(config, std::move(db).value(), std::move(provider)));
}

Result<WriteResult> MemoryService::write(const WriteRequest &request, const RequestMeta &meta)
{
    WriteEngine engine(*m_db, m_config, m_provider != nullptr);
    auto result = engine.write(request, meta);
    if (!result || result.value().replayed)
        return result;
    for (const EmbeddingChange &c : result.value().embeddingChanges)
        m_indexes->apply(c.tenantId, c.scope, c.label, c.version, c.vector);
    if (result.value().pendingEmbeddings > 0 && m_backfill)
        m_backfill->wake();
    emit committed(result.value().tenantId, result.value().scope, result.value().commitId);
    return result;
}

Result<RecallOutcome> MemoryService::recall(const RecallRequest &request, const RequestMeta &meta)
{
    RecallEngine engine(*m_db, *m_indexes, *m_audit, m_config);
    return engine.recall(request, request.queryEmbedding, meta, QStringLiteral("recall"));
}

Result<RecallOutcome> MemoryService::recallText(const RecallRequest &request, const RequestMeta &meta)
{
    if (!m_provider)
        return Error::make(400, QStringLiteral("no_embedding_provider"),
                           QStringLiteral("Configure EMBEDDING_PROVIDER to use recall_text."));
    auto vectors = m_provider->embed({request.queryText});
    if (!vectors)
        return vectors.error();
    if (vectors.value().size() != 1)
        return Error::make(502, QStringLiteral("upstream_embedding_bad_response"),
                           QStringLiteral("the embedding provider returned no vector"));
    RecallEngine engine(*m_db, *m_indexes, *m_audit, m_config);
    auto outcome = engine.recall(request, vectors.value().first(), meta, QStringLiteral("recall_text"));
    if (outcome) {
        outcome.value().queryText = request.queryText;
        outcome.value().embeddingProvider = m_provider->name();
    }
    return outcome;
}

QString MemoryService::embeddingProviderName() const
{
    return m_provider ? m_provider->name() : QStringLiteral("none");
}

bool MemoryService::waitForEmbeddings(int timeoutMs)
{
    return !m_backfill || m_backfill->waitUntilIdle(timeoutMs);
}

void MemoryService::saveIndexes()
{
    m_indexes->saveAll();
}

QVector<ScopeSummary> MemoryService::listScopes() const
{
    auto conn = m_db->connection();
    if (!conn)
        return {};
    auto scopes = GraphStore::listScopes(conn.value());
    return scopes ? scopes.value() : QVector<ScopeSummary>();
}

Result<NodePage> MemoryService::listNodes(const NodeQuery &query) const
{
    auto conn = m_db->connection();
    if (!conn)
        return conn.error();
    NodePage page;
    auto nodes = GraphStore::listNodes(conn.value(), query, &page.total);
    if (!nodes)
        return nodes.error();
    page.nodes = nodes.value();
    return page;
}

Result<NodeDetail> MemoryService::nodeDetail(const QString &tenantId, const QString &scope,
                                             const QString &nodeId) const
{
    auto conn = m_db->connection();
    if (!conn)
        return conn.error();
    auto node = GraphStore::findNode(conn.value(), nodeId);
    if (!node)
        return node.error();
    if (!node.value() || node.value()->tenantId != tenantId || node.value()->scope != scope)
        return Error::notFound(QStringLiteral("no such node in this scope"));
    auto edges = GraphStore::edgesOfNode(conn.value(), nodeId);
    if (!edges)
        return edges.error();
    return NodeDetail{*node.value(), edges.value()};
}

Result<QVector<CommitRecord>> MemoryService::listCommits(const QString &tenantId,
                                                         const QString &scope, int offset,
                                                         int limit) const
{
    auto conn = m_db->connection();
    if (!conn)
        return conn.error();
    auto commits = GraphStore::listCommits(conn.value(), tenantId, scope, offset, limit);
    if (!commits)
        return commits.error();
    for (CommitRecord &c : commits.value())
        c.uri = recordUri(c.tenantId, c.scope, QStringLiteral("commit"), c.id);
    return commits;
}

HealthInfo MemoryService::health() const
{
    HealthInfo h;
    h.version = QStringLiteral(MEMORYGRAPH_VERSION);
    h.storageBackend = QStringLiteral("sqlite");
    h.authMode = authModeName(m_config.authMode);
    auto conn = m_db->connection();
    if (!conn)
        return h;
    QSqlDatabase db = conn.value();
    const auto count = [&db](const char *table) {
        auto n = GraphStore::countRows(db, QString::fromLatin1(table));
        return n ? n.value() : qint64(-1);
    };
    h.nodes = count("nodes");
    h.edges = count("edges");
    h.commits = count("commits");
    auto scopes = GraphStore::listScopes(db);
    h.scopes = scopes ? scopes.value().size() : 0;
    return h;
}

} // namespace MemoryGraph
