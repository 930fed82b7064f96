#include "service/engine/memoryservice.h"

#include "service/engine/writeengine.h"
#include "service/storage/database.h"
#include "service/core/ids.h"
#include "service/storage/graphstore.h"

#include <QDir>

namespace MemoryGraph {

namespace {
const QString kDatabaseFile = QStringLiteral("memorygraph.sqlite");
}

MemoryService::MemoryService(const ServiceConfig &config, std::unique_ptr<Database> db)
    : m_config(config), m_db(std::move(db))
{
}

MemoryService::~MemoryService() = default;

Result<std::unique_ptr<MemoryService>> MemoryService::open(const ServiceConfig &config)
{
    if (config.dataDir.isEmpty())
        return Error::make(400, QStringLiteral("invalid_configuration"),
                           QStringLiteral("no data directory configured"));
    if (!QDir().mkpath(config.dataDir))
        return Error::make(500, QStringLiteral("storage_unavailable"),
                           QStringLiteral("cannot create data directory ") + config.dataDir);
    auto db = Database::open(QDir(config.dataDir).filePath(kDatabaseFile));
    if (!db)
        return db.error();
    return std::unique_ptr<MemoryService>(new MemoryService(config, std::move(db).value()));
}

Result<WriteResult> MemoryService::write(const WriteRequest &request, const RequestMeta &meta)
{
    WriteEngine engine(*m_db, m_config);
    auto result = engine.write(request, meta);
    if (result && !result.value().replayed)
        emit committed(result.value().tenantId, result.value().scope, result.value().commitId);
    return result;
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
