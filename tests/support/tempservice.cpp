#include "tests/support/tempservice.h"

#include <QDir>
#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>

namespace MemoryGraph::Test {

TempService::TempService(const QProcessEnvironment &env) : m_env(env)
{
    reopen();
}

bool TempService::reopen()
{
    m_service.reset();
    auto config = ServiceConfig::fromEnvironment(m_env);
    if (!config) {
        m_error = config.error().message;
        return false;
    }
    ServiceConfig c = config.value();
    c.dataDir = m_dir.path();
    auto opened = MemoryService::open(c);
    if (!opened) {
        m_error = opened.error().message;
        return false;
    }
    m_service = std::move(opened).value();
    return true;
}

QJsonObject writeBody(const QJsonArray &nodes, const QJsonArray &edges, const QString &inputText)
{
    QJsonObject body{{QStringLiteral("input_text"), inputText}, {QStringLiteral("nodes"), nodes}};
    if (!edges.isEmpty())
        body.insert(QStringLiteral("edges"), edges);
    return body;
}

QProcessEnvironment apiKeyTestEnvironment()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("MEMORY_AUTH_MODE"), QStringLiteral("api_key"));
    env.insert(QStringLiteral("MEMORY_API_KEYS_JSON"),
               QStringLiteral(R"({"unused":{"tenant_id":"acme"}})"));
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    return env;
}

RequestMeta credentialAs(const QString &agent, const QString &team, const QString &tenant)
{
    RequestMeta meta;
    meta.principal = Principal{tenant, agent, team, QString(), QStringLiteral("api_key")};
    return meta;
}

QString testOutputDir()
{
    QString dir = qEnvironmentVariable("MEMORYGRAPH_TEST_OUTPUT_DIR");
    if (dir.isEmpty())
        dir = QDir::temp().filePath(QStringLiteral("memorygraph-test-output"));
    QDir().mkpath(dir);
    return dir;
}

QString runSqlOnFile(const QString &databaseFile, const QStringList &statements)
{
    const QString name = QStringLiteral("raw-sql");
    QString failure;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(databaseFile);
        if (!db.open())
            failure = db.lastError().text();
        for (const QString &sql : statements) {
            QSqlQuery q(db);
            if (!failure.isEmpty() || q.exec(sql))
                continue;
            failure = sql + QStringLiteral(": ") + q.lastError().text();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return failure;
}

QStringList undoConceptIndexSql()
{
    // The text_index_queue step after it goes first; it had dropped the concept triggers it
    // replaced (and node_text's, which a test may drop too: IF EXISTS).
    return {QStringLiteral("DROP TRIGGER node_text_queued"),
            QStringLiteral("DROP TRIGGER node_text_requeued"),
            QStringLiteral("DROP TRIGGER node_text_unqueued"),
            QStringLiteral("DROP TABLE text_index_queue"),
            QStringLiteral("DELETE FROM schema_migrations WHERE name = 'text_index_queue'"),
            QStringLiteral("DROP TRIGGER IF EXISTS node_concepts_added"),
            QStringLiteral("DROP TRIGGER IF EXISTS node_concepts_changed"),
            QStringLiteral("DROP TRIGGER node_concepts_removed"),
            QStringLiteral("DROP TABLE node_concepts"),
            QStringLiteral("DELETE FROM schema_migrations WHERE name = 'concept_index'")};
}

QStringList undoNodeVectorsSql()
{
    return undoConceptIndexSql()
           + QStringList{
               QStringLiteral("DROP TRIGGER node_vectors_removed"),
               QStringLiteral("ALTER TABLE nodes ADD COLUMN embedding BLOB"),
               QStringLiteral("UPDATE nodes SET embedding ="
                              " (SELECT embedding FROM node_vectors WHERE label = vector_label)"),
               QStringLiteral("DROP TABLE node_vectors"),
               QStringLiteral("DELETE FROM schema_migrations WHERE name = 'node_vectors'")};
}

} // namespace MemoryGraph::Test
