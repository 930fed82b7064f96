#pragma once

#include "service/core/records.h"
#include "service/core/result.h"

#include <QDateTime>
#include <QSqlDatabase>
#include <QString>

#include <optional>

namespace MemoryGraph::PortabilityStore {

/// How many records of each kind a scope holds (the export header's counts).
struct ScopeCounts
{
    qint64 nodes = 0;
    qint64 edges = 0;
    qint64 rules = 0;
    qint64 decisions = 0;
    qint64 feedback = 0;
    qint64 commits = 0;
    qint64 replayRuns = 0; ///< nodes whose client_id starts with "replay:run:"
};

Result<ScopeCounts> countScope(QSqlDatabase &db, const QString &tenantId, const QString &scope);

/// Whether a row with this primary key exists anywhere in the store (ids are store-wide keys).
Result<bool> nodeExists(QSqlDatabase &db, const QString &id);
Result<bool> edgeExists(QSqlDatabase &db, const QString &id);
Result<bool> decisionExists(QSqlDatabase &db, const QString &id);
Result<bool> feedbackExists(QSqlDatabase &db, const QString &id);
/// Whether a node of the scope uses this client id.
Result<bool> clientIdTaken(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                           const QString &clientId);

/// Inserts an edge with both of its times as given (the write path stamps updated_at now).
Result<void> insertEdge(QSqlDatabase &db, const EdgeRecord &edge, const QDateTime &updatedAt);
/// Sets a rule node's state row as given (state, counters, times), creating it if needed.
Result<void> saveRuleState(QSqlDatabase &db, const QString &tenantId, const QString &scope,
                           const QString &ruleNodeId, const RuleStatus &status,
                           const QDateTime &createdAt);

/// A read transaction: every read on `db` until it ends sees the same state of the store, so a
/// file written from several queries is one consistent picture.
class ReadSnapshot
{
public:
    explicit ReadSnapshot(QSqlDatabase &db);
    ~ReadSnapshot();
    ReadSnapshot(const ReadSnapshot &) = delete;
    ReadSnapshot &operator=(const ReadSnapshot &) = delete;

    Result<void> begin();

private:
    QSqlDatabase &m_db;
    bool m_open = false;
};

} // namespace MemoryGraph::PortabilityStore
