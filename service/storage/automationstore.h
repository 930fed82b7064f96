#pragma once

// The automation tables (schema migration "automations") as rows, and their JSON shapes:
// runs and nodes are returned as the rows they are, JSON columns under their `_json` names
// (reference §8.3).

#include "service/core/result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QString>
#include <QVector>

#include <optional>

namespace MemoryGraph {

struct DefRow
{
    QString automationId;
    QString name;
    QString status;
    int latestVersion = 0;
    QJsonObject inputContract;
    QJsonObject outputContract;
    QJsonObject metadata;
    QString actor;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
};

struct VersionRow
{
    int version = 0;
    QString name;
    QString status;
    QJsonObject graph;
    QJsonObject compileSummary;
    QJsonObject inputContract;
    QJsonObject outputContract;
    QJsonObject metadata;
    QString actor;
    QString note;
    int promotedFrom = 0;
    qint64 createdAt = 0;
};

struct RunRow
{
    QString runId;
    QString tenantId;
    QString scope;
    QString automationId;
    int version = 0;
    QString requestedBy;
    QString state;
    QString pauseReason;
    QString outcome;
    QString statusSummary;
    QString rootCauseCode;
    QString rootCauseNodeId;
    QString rootCauseMessage;
    QJsonObject params;
    QJsonObject context;
    QJsonObject summary;
    QJsonObject output;
    bool compensationAttempted = false;
    QString compensationStatus;
    QJsonObject compensationSummary;
    QString mode; ///< default | shadow
    bool everPaused = false;
    qint64 startedAt = 0;
    qint64 pausedAt = 0;
    qint64 endedAt = 0;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
};

struct NodeRow
{
    QString runId;
    QString nodeId;
    int topoIndex = 0;
    int attempt = 0;
    QString kind;
    QString state;
    QString pauseReason;
    QString outcome;
    QString statusSummary;
    QJsonArray dependsOn;
    QJsonArray blocking;
    QString errorCode;
    QString errorMessage;
    QString playbookId;
    int playbookVersion = 0;
    QString playbookRunId;
    bool awaitingReplay = false;
    QString approvalId;
    QJsonObject input;
    QJsonObject output;
    QJsonArray artifactRefs;
    QString compensationMode;
    QJsonObject compensationRef;
    QString compensationRunId;
    QString compensationStatus;
    qint64 startedAt = 0;
    qint64 pausedAt = 0;
    qint64 endedAt = 0;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
};

/// A run with its nodes in topological order, and the graph of its version.
struct RunState
{
    RunRow run;
    QVector<NodeRow> nodes;
    QJsonObject graph;

    int indexOf(const QString &nodeId) const;
    /// The graph node's definition.
    QJsonObject nodeDef(const QString &nodeId) const;
};

struct ReviewRow
{
    QString id;
    QString automationId;
    QString runId;
    int version = 0;
    QString kind; ///< shadow_review | reviewer | run_reviewer | compensation_assignment
    QString verdict;
    QString reviewer;
    QString owner;
    QString escalationOwner;
    qint64 slaTargetAt = 0;
    QString note;
    QString actor;
    qint64 createdAt = 0;
};

struct ActionRow
{
    QString id;
    QString runId;
    QString nodeId;
    QString action;
    QString note;
    QString externalRef;
    QString actor;
    qint64 createdAt = 0;
};

struct ShadowRequestRow
{
    QString requestId;
    QString tenantId;
    QString scope;
    QString automationId;
    int version = 0;
    QString status; ///< queued | completed | failed
    QJsonObject params;
    QString runId;
    QString errorCode;
    QString requestedBy;
    qint64 createdAt = 0;
    qint64 updatedAt = 0;
};

namespace AutomationRows {

qint64 nowMs();
QJsonValue isoOrNull(qint64 ms);
QJsonValue nullableText(const QString &text);
QString compactJson(const QJsonObject &o);
QString compactJson(const QJsonArray &a);
/// "paused_for_approval" / "paused_for_repair" when paused, the outcome when terminal, else
/// the state (reference §8.3).
QString statusSummary(const QString &state, const QString &pauseReason, const QString &outcome);

QJsonObject definitionJson(const DefRow &d);
QJsonObject automationJson(const DefRow &d, const VersionRow &v);
QJsonObject runJson(const RunRow &r);
QJsonObject nodeJson(const NodeRow &n);
QJsonObject reviewJson(const ReviewRow &r);
QJsonObject actionJson(const ActionRow &a);
QJsonObject shadowRequestJson(const ShadowRequestRow &s);

Result<std::optional<DefRow>> findDef(QSqlDatabase &db, const QString &tenant, const QString &scope,
                                      const QString &automationId);
Result<QVector<DefRow>> listDefs(QSqlDatabase &db, const QString &tenant, const QString &scope,
                                 const QString &status, int limit);
Result<void> saveDef(QSqlDatabase &db, const QString &tenant, const QString &scope,
                     const DefRow &d);
Result<std::optional<VersionRow>> findVersion(QSqlDatabase &db, const QString &tenant,
                                              const QString &scope, const QString &automationId,
                                              int version);
Result<QVector<VersionRow>> listVersions(QSqlDatabase &db, const QString &tenant,
                                         const QString &scope, const QString &automationId);
Result<void> insertVersion(QSqlDatabase &db, const QString &tenant, const QString &scope,
                           const QString &automationId, const VersionRow &v);

Result<void> saveRun(QSqlDatabase &db, const RunRow &r);
Result<void> saveNode(QSqlDatabase &db, const NodeRow &n);
Result<std::optional<RunRow>> findRun(QSqlDatabase &db, const QString &runId);
Result<QVector<NodeRow>> nodesOf(QSqlDatabase &db, const QString &runId);
/// Runs of a scope, newest first; automationId empty = all; createdSince 0 = any time.
Result<QVector<RunRow>> listRuns(QSqlDatabase &db, const QString &tenant, const QString &scope,
                                 const QString &automationId, qint64 createdSince, int limit);
/// Ids of runs (any scope) in one of the states, oldest first.
Result<QStringList> runIdsInStates(QSqlDatabase &db, const QStringList &states);
/// The run and node waiting for a replay run (awaiting_replay = 1), if any.
Result<std::optional<std::pair<QString, QString>>> nodeAwaitingReplay(QSqlDatabase &db,
                                                                      const QString &replayRunId);

Result<void> insertReview(QSqlDatabase &db, const QString &tenant, const QString &scope,
                          ReviewRow &r);
/// Shadow reviews of an automation, oldest first, as JSON.
Result<QJsonArray> shadowReviews(QSqlDatabase &db, const QString &tenant, const QString &scope,
                                 const QString &automationId);
/// Review rows about a run (reviewer and compensation assignments), oldest first.
Result<QVector<ReviewRow>> runReviews(QSqlDatabase &db, const QString &runId);
Result<void> insertAction(QSqlDatabase &db, const QString &tenant, const QString &scope,
                          ActionRow &a);
Result<QVector<ActionRow>> actionsOf(QSqlDatabase &db, const QString &runId);

Result<void> saveShadowRequest(QSqlDatabase &db, const ShadowRequestRow &s);
Result<QVector<ShadowRequestRow>> queuedShadowRequests(QSqlDatabase &db, const QString &tenant,
                                                       const QString &scope, int limit);

} // namespace AutomationRows
} // namespace MemoryGraph
