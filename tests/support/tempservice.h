#pragma once

#include "service/memoryservice.h"

#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <memory>

namespace MemoryGraph::Test {

/// A MemoryService over a fresh database in a temporary folder, removed on destruction.
class TempService
{
public:
    /// env: extra variables layered over an empty environment (MEMORY_AUTH_MODE, ...).
    explicit TempService(const QProcessEnvironment &env = QProcessEnvironment());

    bool isValid() const { return m_service != nullptr; }
    QString errorText() const { return m_error; }
    MemoryService *service() const { return m_service.get(); }
    MemoryService *operator->() const { return m_service.get(); }
    QString dataDir() const { return m_dir.path(); }

    /// Closes and reopens the store over the same folder (restart simulation).
    bool reopen();

private:
    QTemporaryDir m_dir;
    QProcessEnvironment m_env;
    std::unique_ptr<MemoryService> m_service;
    QString m_error;
};

/// A write body with input_text and the given nodes/edges, ready for WriteRequest::fromJson.
QJsonObject writeBody(const QJsonArray &nodes, const QJsonArray &edges = {},
                      const QString &inputText = QStringLiteral("test input"));

/// The environment of a service in api_key mode for tenant "acme" with no embedding provider;
/// calls carry their identity through credentialAs().
QProcessEnvironment apiKeyTestEnvironment();

/// A call made with an authenticated api_key credential of `tenant` for `agent` and `team`
/// (either may be empty: a key that does not carry that field).
RequestMeta credentialAs(const QString &agent, const QString &team,
                         const QString &tenant = QStringLiteral("acme"));

/// An error as one line for failure messages: status, code, message and details.
inline QByteArray describe(const Error &e)
{
    return QStringLiteral("%1 %2: %3 %4")
        .arg(e.status)
        .arg(e.code, e.message,
             QString::fromUtf8(QJsonDocument(e.details).toJson(QJsonDocument::Compact)))
        .toUtf8();
}

/// The error of a failed result, for failure messages (empty when it succeeded).
template<typename T> QByteArray why(const Result<T> &r)
{
    return r ? QByteArray() : describe(r.error());
}

/// Where tests may leave artefacts such as screenshots (MEMORYGRAPH_TEST_OUTPUT_DIR or temp).
QString testOutputDir();

/// Runs statements on a connection of its own to a database file (an older schema, a damaged
/// row); empty when all ran, else the failing statement and SQLite's message.
QString runSqlOnFile(const QString &databaseFile, const QStringList &statements);

/// Statements that take a store back to before the `node_vectors` step: vectors in the node
/// rows again. Run first by tests that rebuild an older schema (later steps undo first).
/// It includes undoConceptIndexSql(), the step after it.
QStringList undoNodeVectorsSql();

/// Statements that take a store back to before the `concept_index` step (undoing the
/// `text_index_queue` step after it first): no node_concepts table, no queue.
QStringList undoConceptIndexSql();

} // namespace MemoryGraph::Test
