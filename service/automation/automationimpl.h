#pragma once

// What the automation engine's translation units share: the Impl of AutomationEngine, the state
// names of reference §8.3 and small helpers. Internal to service/automation.

#include "service/automation/automationengine.h"
#include "service/automation/automationgraph.h"
#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/storage/automationstore.h"
#include "service/storage/commitlog.h"
#include "service/storage/database.h"

#include <QLoggingCategory>
#include <QSqlDatabase>

#include <optional>

namespace MemoryGraph {

namespace AutomationDetail {

Q_DECLARE_LOGGING_CATEGORY(lcAutomation)

inline const QString kPaused = QStringLiteral("paused");
inline const QString kRunning = QStringLiteral("running");
inline const QString kQueued = QStringLiteral("queued");
inline const QString kTerminal = QStringLiteral("terminal");
inline const QString kCompensating = QStringLiteral("compensating");
inline const QString kPending = QStringLiteral("pending");
inline const QString kReady = QStringLiteral("ready");
inline const QString kSucceeded = QStringLiteral("succeeded");
inline const QString kFailed = QStringLiteral("failed");
inline const QString kSkipped = QStringLiteral("skipped");
inline const QString kShadow = QStringLiteral("shadow");
inline const QString kApprovalRequired = QStringLiteral("approval_required");
inline const QString kRepairRequired = QStringLiteral("repair_required");

const QStringList &definitionStatuses();
const QStringList &compensationActions();
Error conflict(const QString &code, const QString &message, const QJsonObject &details = {});
Error runNotFound(const QString &runId);
Error automationNotFound(const QString &id);
/// Rounded to 4 decimals (rates in telemetry and reports).
double rounded4(double v);
/// part / whole to 4 decimals; null without a whole.
QJsonValue rate(qint64 part, qint64 whole);
/// The nearest-rank 95th percentile; null without values.
QJsonValue p95(QVector<double> values);

/// The compensation policy of a graph node (reference §8.4).
struct CompensationPolicy
{
    QString mode = QStringLiteral("none"); ///< none | best_effort | required
    QStringList triggers;                  ///< on_failure | on_cancel | on_reject
    QString playbookId;
    std::optional<int> version;
    QJsonObject inputs;
    QString playbookMode = QStringLiteral("simulate");

    QJsonObject toJson() const
    {
        return {{QStringLiteral("mode"), mode},
                {QStringLiteral("triggers"), QJsonArray::fromStringList(triggers)},
                {QStringLiteral("playbook_id"), playbookId.isEmpty() ? QJsonValue() : playbookId},
                {QStringLiteral("version"), version ? QJsonValue(*version) : QJsonValue()},
                {QStringLiteral("inputs"), inputs},
                {QStringLiteral("playbook_mode"), playbookMode}};
    }
};

CompensationPolicy compensationPolicyOf(const QJsonObject &node);
/// Validation of the policies the graph parser leaves open.
std::optional<Error> checkPolicies(const AutomationGraph &g);
/// A condition node's verdict on its bound expression (reference §8.3).
bool conditionHolds(const QJsonValue &e);
/// The input digest of a call's commit: its route and body.
QString inputDigest(const QString &path, const QJsonObject &body);

/// tenant_id, scope and actor every automation call may carry.
struct CallBasics
{
    CallScope scope;
    CommitActor actor;
    QString inputSha;
};

} // namespace AutomationDetail

struct AutomationEngine::Impl
{
    using CallBasics = AutomationDetail::CallBasics;
    Database &db;
    const ServiceConfig &config;
    PlaybookGateway *gateway;
    CommitNotifier notify;
    std::function<void(const QString &, const QString &)> hook;

    std::mutex locksGuard;
    QHash<QString, std::weak_ptr<std::recursive_mutex>> runLocks;

    QThread *recovery = nullptr;
    std::mutex recoveryGuard;
    std::condition_variable recoveryDone;
    bool recovering = false;
    std::atomic<bool> stopping{false};

    Impl(Database &database, const ServiceConfig &cfg, PlaybookGateway *gw, CommitNotifier n)
        : db(database), config(cfg), gateway(gw), notify(std::move(n))
    {
    }

    std::shared_ptr<std::recursive_mutex> lockFor(const QString &runId)
    {
        std::lock_guard<std::mutex> guard(locksGuard);
        auto existing = runLocks.value(runId).lock();
        if (existing)
            return existing;
        if (runLocks.size() > 256) {
            for (auto it = runLocks.begin(); it != runLocks.end();) {
                if (it.value().expired())
                    it = runLocks.erase(it);
                else
                    ++it;
            }
        }
        auto fresh = std::make_shared<std::recursive_mutex>();
        runLocks.insert(runId, fresh);
        return fresh;
    }

    CallScope scopeOf(const QString &tenantId, const QString &scope) const
    {
        return CallScope{tenantId, scope, scopeKey(tenantId, scope, config.defaultTenant)};
    }

    Result<CallBasics> basics(const QString &path, const QJsonObject &body, const RequestMeta &meta)
    {
        JsonReader r(body);
        QString tenant, scope, actor;
        r.string("tenant_id", &tenant, 64);
        r.string("scope", &scope, 256);
        r.string("actor", &actor, 256);
        if (!r.ok())
            return r.error();
        auto cs = resolveCallScope(tenant, scope, meta, config);
        if (!cs)
            return cs.error();
        return CallBasics{cs.value(), commitActor(actor, meta, config),
                          AutomationDetail::inputDigest(path, body)};
    }

    QJsonObject head(const CallScope &cs) const
    {
        return {{QStringLiteral("tenant_id"), cs.tenantId}, {QStringLiteral("scope"), cs.scope}};
    }

    /// Runs work in one write transaction and appends the commit it describes.
    Result<CommitRecord> commit(const CallScope &cs, const QString &kind, const CommitActor &actor,
                                const QString &inputSha, const QJsonObject &diff,
                                const std::function<Result<void>(QSqlDatabase &)> &work)
    {
        CommitRecord out;
        auto written = db.write([&](QSqlDatabase &sql) -> Result<void> {
            if (auto done = work(sql); !done)
                return done;
            auto appended = CommitLog::append(sql, cs, kind, actor, inputSha, diff);
            if (!appended)
                return appended.error();
            out = appended.value();
            return {};
        });
        if (!written)
            return written.error();
        if (notify)
            notify(cs.tenantId, cs.scope, out.id);
        return out;
    }

    // --- definitions -------------------------------------------------------------------

    Result<QJsonObject> create(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> get(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> list(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> validate(const QJsonObject &body, const RequestMeta &meta, bool graphOnly);
    Result<QJsonObject> promote(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> assignReviewer(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> shadowReview(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> shadowReport(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> shadowValidate(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> shadowDispatch(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> policyMatrix(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> telemetry(const QJsonObject &body, const RequestMeta &meta);

    Result<DefRow> loadDef(const CallScope &cs, const QString &automationId);
    Result<VersionRow> loadVersion(const CallScope &cs, const QString &automationId, int version);

    // --- runs -------------------------------------------------------------------------

    Result<QJsonObject> run(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> runsGet(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> runsList(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> cancel(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> resume(const QJsonObject &body, const RequestMeta &meta,
                               const QString &route);
    Result<QJsonObject> rejectRepair(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> runAssignReviewer(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> compensationRetry(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> compensationRecord(const QJsonObject &body, const RequestMeta &meta);
    Result<QJsonObject> compensationAssign(const QJsonObject &body, const RequestMeta &meta);

    /// Starts a run of a version and drives it until it pauses, waits or ends.
    Result<QString> startRun(const CallScope &cs, const CommitActor &actor, const QString &inputSha,
                             const DefRow &def, const VersionRow &version, const QString &mode,
                             const QJsonObject &params, const QJsonObject &options,
                             const RequestMeta &meta);
    /// The run with its nodes, or 404 in another scope.
    Result<RunState> loadRun(const CallScope &cs, const QString &runId);
    Result<RunState> loadRunAnyScope(const QString &runId);
    /// Saves the run and the given nodes as one transition commit.
    Result<void> transition(RunState &state, const QString &event, const CommitActor &actor,
                            const QStringList &nodeIds, const QJsonObject &extra = {});

    /// Drives the run (under its lock) until it pauses, waits for a replay run or ends.
    void drive(const QString &runId, const CommitActor &actor, const RequestMeta &meta);
    /// Runs one node; false when driving stops (pause, wait, failure, error).
    bool executeNode(RunState &state, int index, const CommitActor &actor, const RequestMeta &meta);
    bool applyPlaybookOutcome(RunState &state, int index, const PlaybookCallResult &result,
                              const CommitActor &actor, const RequestMeta &meta);
    bool applyReplayEnd(RunState &state, int index, const QString &status, const CommitActor &actor,
                        const RequestMeta &meta);
    bool failNode(RunState &state, int index, const QString &code, const QString &message,
                  const CommitActor &actor, const RequestMeta &meta);
    /// After a node failed, was rejected or the run cancelled: skip the rest, compensate.
    void finishFailed(RunState &state, const QString &trigger, const QString &base,
                      const CommitActor &actor, const RequestMeta &meta);
    void startCompensation(RunState &state, const QString &trigger, const QString &base,
                           const CommitActor &actor, const RequestMeta &meta);
    void continueCompensation(RunState &state, const CommitActor &actor, const RequestMeta &meta);
    void finalizeCompensation(RunState &state, const CommitActor &actor);

    QJsonObject runView(const RunState &state, bool includeNodes);
    QJsonObject runDetail(const RunState &state, bool includeNodes);
    QJsonObject workflowOf(const RunState &state, QJsonArray *history);
    QJsonValue latestAssignment(const QString &runId, const QString &kind);

    void recoverAll();
};

} // namespace MemoryGraph
