#include "service/automation/automationengine.h"

#include "service/automation/automationgraph.h"
#include "service/automation/automationrows.h"
#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/replay/replayengine.h"
#include "service/storage/commitlog.h"
#include "service/storage/database.h"

#include <QDateTime>
#include <QJsonArray>
#include <QLoggingCategory>
#include <QSet>
#include <QThread>

#include <algorithm>
#include <cmath>

namespace MemoryGraph {

namespace {

Q_LOGGING_CATEGORY(lcAutomation, "memorygraph.automation")

using namespace AutomationRows;

const QString kPaused = QStringLiteral("paused");
const QString kRunning = QStringLiteral("running");
const QString kQueued = QStringLiteral("queued");
const QString kTerminal = QStringLiteral("terminal");
const QString kCompensating = QStringLiteral("compensating");
const QString kPending = QStringLiteral("pending");
const QString kReady = QStringLiteral("ready");
const QString kSucceeded = QStringLiteral("succeeded");
const QString kFailed = QStringLiteral("failed");
const QString kSkipped = QStringLiteral("skipped");
const QString kShadow = QStringLiteral("shadow");
const QString kApprovalRequired = QStringLiteral("approval_required");
const QString kRepairRequired = QStringLiteral("repair_required");

const QStringList &definitionStatuses()
{
    static const QStringList v{QStringLiteral("draft"), QStringLiteral("shadow"),
                               QStringLiteral("active"), QStringLiteral("disabled")};
    return v;
}

const QStringList &compensationActions()
{
    static const QStringList v{
        QStringLiteral("manual_cleanup_started"), QStringLiteral("manual_cleanup_completed"),
        QStringLiteral("engineering_escalated"), QStringLiteral("observation_noted")};
    return v;
}

Error conflict(const QString &code, const QString &message, const QJsonObject &details = {})
{
    return Error::make(409, code, message, details);
}

Error runNotFound(const QString &runId)
{
    return Error::make(404, QStringLiteral("automation_run_not_found"),
                       QStringLiteral("no automation run %1 in this scope").arg(runId),
                       {{QStringLiteral("run_id"), runId}});
}

Error automationNotFound(const QString &id)
{
    return Error::make(404, QStringLiteral("automation_not_found"),
                       QStringLiteral("no automation %1 in this scope").arg(id),
                       {{QStringLiteral("automation_id"), id}});
}

double rounded4(double v)
{
    return std::round(v * 10000.0) / 10000.0;
}

QJsonValue rate(qint64 part, qint64 whole)
{
    return whole > 0 ? QJsonValue(rounded4(double(part) / double(whole))) : QJsonValue();
}

/// The nearest-rank 95th percentile; null without values.
QJsonValue p95(QVector<double> values)
{
    if (values.isEmpty())
        return QJsonValue();
    std::sort(values.begin(), values.end());
    const int rank = int(std::ceil(0.95 * values.size()));
    return rounded4(values.at(qBound(0, rank - 1, int(values.size()) - 1)));
}

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

CompensationPolicy compensationPolicyOf(const QJsonObject &node)
{
    CompensationPolicy p;
    const QJsonObject policy = node.value(QStringLiteral("policy")).toObject();
    QJsonValue cpv = policy.value(QStringLiteral("compensation_policy"));
    if (!cpv.isObject())
        cpv = policy.value(QStringLiteral("compensation"));
    if (!cpv.isObject())
        return p;
    const QJsonObject cp = cpv.toObject();
    const QJsonObject ref = cp.value(QStringLiteral("compensation_ref")).toObject();
    p.playbookId = cp.value(QStringLiteral("compensation_playbook_id")).toString();
    if (p.playbookId.isEmpty())
        p.playbookId = ref.value(QStringLiteral("playbook_id")).toString();
    const QJsonValue version = cp.contains(QStringLiteral("version"))
                                   ? cp.value(QStringLiteral("version"))
                                   : ref.value(QStringLiteral("version"));
    if (version.isDouble() && version.toInt() >= 1)
        p.version = version.toInt();
    p.inputs = cp.contains(QStringLiteral("inputs"))
                   ? cp.value(QStringLiteral("inputs")).toObject()
                   : ref.value(QStringLiteral("inputs")).toObject();
    const QString mode = cp.value(QStringLiteral("mode")).toString();
    p.mode = mode.isEmpty() ? QStringLiteral("best_effort") : mode;
    const QString pbMode = ref.value(QStringLiteral("mode")).toString();
    if (AutomationGraphs::playbookModes().contains(pbMode))
        p.playbookMode = pbMode;
    const QJsonValue trig = cp.value(QStringLiteral("trigger"));
    if (trig.isString())
        p.triggers << trig.toString();
    for (const QJsonValue &t : trig.toArray())
        p.triggers << t.toString();
    if (p.triggers.isEmpty())
        p.triggers << QStringLiteral("on_failure");
    return p;
}

/// Validation of the policies the graph parser leaves open.
std::optional<Error> checkPolicies(const AutomationGraph &g)
{
    static const QStringList modes{QStringLiteral("none"), QStringLiteral("best_effort"),
                                   QStringLiteral("required")};
    static const QStringList triggers{QStringLiteral("on_failure"), QStringLiteral("on_cancel"),
                                      QStringLiteral("on_reject")};
    for (int i = 0; i < g.nodes.size(); ++i) {
        const CompensationPolicy p = compensationPolicyOf(g.nodes[i].raw);
        const QString at = QStringLiteral("graph.nodes[%1].policy.compensation_policy").arg(i);
        if (!modes.contains(p.mode))
            return Error::invalidField(
                at + QStringLiteral(".mode"),
                QStringLiteral("must be one of: none, best_effort, required"));
        for (const QString &t : p.triggers) {
            if (!triggers.contains(t))
                return Error::invalidField(
                    at + QStringLiteral(".trigger"),
                    QStringLiteral("must be on_failure, on_cancel or on_reject (or a list)"));
        }
        if (p.mode != QLatin1String("none") && p.playbookId.isEmpty())
            return Error::invalidField(at + QStringLiteral(".compensation_playbook_id"),
                                       QStringLiteral("is required when mode is not none"));
    }
    return std::nullopt;
}

/// A condition node's verdict on its bound expression (reference §8.3).
bool conditionHolds(const QJsonValue &e)
{
    if (e.isBool())
        return e.toBool();
    if (e.isObject()) {
        const QJsonObject o = e.toObject();
        if (o.contains(QStringLiteral("equals")))
            return o.value(QStringLiteral("left")) == o.value(QStringLiteral("equals"));
        if (o.contains(QStringLiteral("not_equals")))
            return o.value(QStringLiteral("left")) != o.value(QStringLiteral("not_equals"));
        if (o.contains(QStringLiteral("exists"))) {
            const QJsonValue v = o.value(QStringLiteral("exists"));
            return !v.isNull() && !v.isUndefined() && !(v.isString() && v.toString().isEmpty());
        }
        if (o.contains(QStringLiteral("value")))
            return conditionHolds(o.value(QStringLiteral("value")));
        if (o.contains(QStringLiteral("result")))
            return conditionHolds(o.value(QStringLiteral("result")));
        return false;
    }
    if (e.isDouble())
        return e.toDouble() != 0.0;
    if (e.isString())
        return e.toString() == QLatin1String("true");
    return false;
}

QString inputDigest(const QString &path, const QJsonObject &body)
{
    return sha256Hex(
        stableJson(QJsonObject{{QStringLiteral("route"), path}, {QStringLiteral("body"), body}}));
}

/// tenant_id, scope and actor every automation call may carry.
struct CallBasics
{
    CallScope scope;
    CommitActor actor;
    QString inputSha;
};

} // namespace

// ------------------------------------------------------------------------------------------

struct AutomationEngine::Impl
{
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
        return CallBasics{cs.value(), commitActor(actor, meta, config), inputDigest(path, body)};
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

// ------------------------------------------------------------------------------------------
// Definitions

Result<DefRow> AutomationEngine::Impl::loadDef(const CallScope &cs, const QString &automationId)
{
    auto conn = db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase sql = conn.value();
    auto def = AutomationRows::findDef(sql, cs.tenantId, cs.scope, automationId);
    if (!def)
        return def.error();
    if (!def.value())
        return automationNotFound(automationId);
    return *def.value();
}

Result<VersionRow> AutomationEngine::Impl::loadVersion(const CallScope &cs,
                                                       const QString &automationId, int version)
{
    auto conn = db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase sql = conn.value();
    auto row = AutomationRows::findVersion(sql, cs.tenantId, cs.scope, automationId, version);
    if (!row)
        return row.error();
    if (!row.value())
        return Error::make(
            404, QStringLiteral("automation_version_not_found"),
            QStringLiteral("automation %1 has no version %2").arg(automationId).arg(version),
            {{QStringLiteral("automation_id"), automationId},
             {QStringLiteral("version"), version}});
    return *row.value();
}

Result<QJsonObject> AutomationEngine::Impl::validate(const QJsonObject &body,
                                                     const RequestMeta &meta, bool graphOnly)
{
    auto b = basics(graphOnly ? QStringLiteral("graph/validate") : QStringLiteral("validate"), body,
                    meta);
    if (!b)
        return b.error();
    if (!graphOnly) {
        JsonReader r(body);
        QString id, name, status;
        r.string("automation_id", &id, 128);
        r.string("name", &name, 200);
        r.enumValue("status", &status, definitionStatuses());
        if (!r.ok())
            return r.error();
    }
    auto graph = AutomationGraphs::parse(body.value(QStringLiteral("graph")));
    if (!graph)
        return graph.error();
    const AutomationGraphCheck check = AutomationGraphs::check(graph.value());
    if (!check.valid())
        return check.error();
    if (auto bad = checkPolicies(graph.value()))
        return *bad;
    QJsonObject out = head(b.value().scope);
    const QJsonObject v = check.toJson();
    for (auto it = v.begin(); it != v.end(); ++it)
        out.insert(it.key(), it.value());
    out.insert(QStringLiteral("validation"), v);
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::create(const QJsonObject &body, const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("create"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    QString id, name, status = QStringLiteral("draft");
    QJsonObject inputContract, outputContract, metadata;
    r.requiredString("automation_id", &id, 128);
    r.requiredString("name", &name, 200);
    r.enumValue("status", &status, definitionStatuses());
    r.object("input_contract", &inputContract);
    r.object("output_contract", &outputContract);
    r.object("metadata", &metadata);
    if (!r.ok())
        return r.error();
    auto graph = AutomationGraphs::parse(body.value(QStringLiteral("graph")));
    if (!graph)
        return graph.error();
    const AutomationGraphCheck check = AutomationGraphs::check(graph.value());
    if (!check.valid())
        return check.error();
    if (auto bad = checkPolicies(graph.value()))
        return *bad;
    const QJsonObject compileSummary{
        {QStringLiteral("node_count"), int(graph.value().nodes.size())},
        {QStringLiteral("edge_count"), int(graph.value().edges.size())},
        {QStringLiteral("start_node_ids"), QJsonArray::fromStringList(check.startNodeIds)},
        {QStringLiteral("topological_order"), QJsonArray::fromStringList(check.topologicalOrder)}};
    DefRow def;
    VersionRow version;
    const qint64 now = nowMs();
    auto done = commit(
        cb.scope, QStringLiteral("automation_definition"), cb.actor, cb.inputSha,
        {{QStringLiteral("automation_create"),
          QJsonObject{{QStringLiteral("automation_id"), id},
                      {QStringLiteral("status"), status},
                      {QStringLiteral("graph_sha256"), sha256Hex(stableJson(graph.value().raw))}}}},
        [&](QSqlDatabase &sql) -> Result<void> {
            auto existing = AutomationRows::findDef(sql, cb.scope.tenantId, cb.scope.scope, id);
            if (!existing)
                return existing.error();
            def.automationId = id;
            def.createdAt = existing.value() ? existing.value()->createdAt : now;
            def.latestVersion = existing.value() ? existing.value()->latestVersion + 1 : 1;
            def.name = name;
            def.status = status;
            def.inputContract = inputContract;
            def.outputContract = outputContract;
            def.metadata = metadata;
            if (existing.value()) {
                // Review assignments live in the definition's metadata and outlast versions.
                const QJsonValue assigned
                    = existing.value()->metadata.value(QStringLiteral("review_assignment"));
                if (!assigned.isUndefined()
                    && !def.metadata.contains(QStringLiteral("review_assignment")))
                    def.metadata.insert(QStringLiteral("review_assignment"), assigned);
            }
            def.actor = cb.actor.id;
            def.updatedAt = now;
            version.version = def.latestVersion;
            version.name = name;
            version.status = status;
            version.graph = graph.value().raw;
            version.compileSummary = compileSummary;
            version.inputContract = inputContract;
            version.outputContract = outputContract;
            version.metadata = metadata;
            version.actor = cb.actor.id;
            version.createdAt = now;
            if (auto w = AutomationRows::saveDef(sql, cb.scope.tenantId, cb.scope.scope, def); !w)
                return w;
            return AutomationRows::insertVersion(sql, cb.scope.tenantId, cb.scope.scope, id,
                                                 version);
        });
    if (!done)
        return done.error();
    QJsonObject out = head(cb.scope);
    out.insert(QStringLiteral("automation"), automationJson(def, version));
    out.insert(QStringLiteral("validation"), check.toJson());
    out.insert(QStringLiteral("commit_id"), done.value().id);
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::get(const QJsonObject &body, const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("get"), body, meta);
    if (!b)
        return b.error();
    JsonReader r(body);
    QString id;
    std::optional<int> version;
    r.requiredString("automation_id", &id, 128);
    r.integer("version", &version, 1, 1000000);
    if (!r.ok())
        return r.error();
    const CallScope &cs = b.value().scope;
    auto def = loadDef(cs, id);
    if (!def)
        return def.error();
    auto row = loadVersion(cs, id, version.value_or(def.value().latestVersion));
    if (!row)
        return row.error();
    auto conn = db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase sql = conn.value();
    auto versions = AutomationRows::listVersions(sql, cs.tenantId, cs.scope, id);
    if (!versions)
        return versions.error();
    auto reviews = AutomationRows::shadowReviews(sql, cs.tenantId, cs.scope, id);
    if (!reviews)
        return reviews.error();
    QJsonArray history;
    for (const VersionRow &v : versions.value()) {
        QJsonObject entry{{QStringLiteral("version"), v.version},
                          {QStringLiteral("status"), v.status},
                          {QStringLiteral("name"), v.name},
                          {QStringLiteral("actor"), nullableText(v.actor)},
                          {QStringLiteral("note"), nullableText(v.note)},
                          {QStringLiteral("promoted_from_version"),
                           v.promotedFrom > 0 ? QJsonValue(v.promotedFrom) : QJsonValue()},
                          {QStringLiteral("created_at"), isoOrNull(v.createdAt)}};
        QJsonValue latestReview;
        for (const QJsonValue &rv : reviews.value()) {
            if (rv.toObject().value(QStringLiteral("version")).toInt() == v.version)
                latestReview = rv; // ordered oldest first: the last one wins
        }
        entry.insert(QStringLiteral("shadow_review"), latestReview);
        history.append(entry);
    }
    QJsonObject out = head(cs);
    out.insert(QStringLiteral("automation"), automationJson(def.value(), row.value()));
    out.insert(QStringLiteral("versions"), history);
    out.insert(QStringLiteral("shadow_reviews"), reviews.value());
    out.insert(QStringLiteral("review_assignment"),
               def.value().metadata.value(QStringLiteral("review_assignment")).isObject()
                   ? def.value().metadata.value(QStringLiteral("review_assignment"))
                   : QJsonValue());
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::list(const QJsonObject &body, const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("list"), body, meta);
    if (!b)
        return b.error();
    JsonReader r(body);
    QString status;
    int limit = 20;
    std::optional<int> given;
    r.enumValue("status", &status, definitionStatuses());
    r.integer("limit", &given, 1, 100);
    if (!r.ok())
        return r.error();
    limit = given.value_or(limit);
    auto conn = db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase sql = conn.value();
    const CallScope &cs = b.value().scope;
    auto defs = AutomationRows::listDefs(sql, cs.tenantId, cs.scope, status, limit);
    if (!defs)
        return defs.error();
    QJsonArray items;
    for (const DefRow &d : defs.value())
        items.append(definitionJson(d));
    QJsonObject out = head(cs);
    out.insert(QStringLiteral("automations"), items);
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::promote(const QJsonObject &body,
                                                    const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("promote"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    QString id, target, note;
    std::optional<int> from;
    QJsonObject metadata;
    r.requiredString("automation_id", &id, 128);
    r.integer("from_version", &from, 1, 1000000);
    if (r.ok() && body.value(QStringLiteral("target_status")).isUndefined())
        r.fail(QStringLiteral("target_status"), QStringLiteral("is required"));
    r.enumValue("target_status", &target, definitionStatuses());
    r.string("note", &note, 1000);
    r.object("metadata", &metadata);
    if (!r.ok())
        return r.error();
    auto def = loadDef(cb.scope, id);
    if (!def)
        return def.error();
    const int latest = def.value().latestVersion;
    const int source = from.value_or(latest);
    auto sourceRow = loadVersion(cb.scope, id, source);
    if (!sourceRow)
        return sourceRow.error();
    if (source != latest)
        return conflict(
            QStringLiteral("automation_promote_stale_source"),
            QStringLiteral("only the latest version (%1) can be promoted").arg(latest),
            {{QStringLiteral("from_version"), source}, {QStringLiteral("latest_version"), latest}});
    QJsonObject out = head(cb.scope);
    if (sourceRow.value().status == target) {
        out.insert(QStringLiteral("unchanged"), true);
        out.insert(QStringLiteral("reason"), QStringLiteral("already_target_status_on_latest"));
        out.insert(QStringLiteral("from_version"), source);
        out.insert(QStringLiteral("to_version"), source);
        out.insert(QStringLiteral("status"), target);
        out.insert(QStringLiteral("automation"), automationJson(def.value(), sourceRow.value()));
        return out;
    }
    if (target == QLatin1String("active")) {
        if (sourceRow.value().status != kShadow)
            return conflict(
                QStringLiteral("automation_promote_requires_shadow_source"),
                QStringLiteral("promotion to active needs the latest version in shadow"),
                {{QStringLiteral("from_version"), source},
                 {QStringLiteral("status"), sourceRow.value().status}});
        auto conn = db.connection();
        if (!conn)
            return conn.error();
        QSqlDatabase sql = conn.value();
        auto reviews = AutomationRows::shadowReviews(sql, cb.scope.tenantId, cb.scope.scope, id);
        if (!reviews)
            return reviews.error();
        QString verdict;
        for (const QJsonValue &rv : reviews.value()) {
            if (rv.toObject().value(QStringLiteral("version")).toInt() == source)
                verdict = rv.toObject().value(QStringLiteral("verdict")).toString();
        }
        if (verdict != QLatin1String("approved"))
            return conflict(QStringLiteral("automation_shadow_review_required"),
                            QStringLiteral("promotion to active needs an approved shadow review of "
                                           "version %1")
                                .arg(source),
                            {{QStringLiteral("shadow_version"), source},
                             {QStringLiteral("latest_verdict"), nullableText(verdict)}});
    }
    DefRow newDef = def.value();
    VersionRow v = sourceRow.value();
    const qint64 now = nowMs();
    v.version = latest + 1;
    v.status = target;
    v.note = note;
    v.promotedFrom = source;
    v.actor = cb.actor.id;
    v.createdAt = now;
    for (auto it = metadata.begin(); it != metadata.end(); ++it)
        v.metadata.insert(it.key(), it.value());
    newDef.latestVersion = v.version;
    newDef.status = target;
    newDef.updatedAt = now;
    auto done = commit(
        cb.scope, QStringLiteral("automation_definition"), cb.actor, cb.inputSha,
        {{QStringLiteral("automation_promote"),
          QJsonObject{{QStringLiteral("automation_id"), id},
                      {QStringLiteral("from_version"), source},
                      {QStringLiteral("to_version"), v.version},
                      {QStringLiteral("status"), target}}}},
        [&](QSqlDatabase &sql) -> Result<void> {
            if (auto w = AutomationRows::saveDef(sql, cb.scope.tenantId, cb.scope.scope, newDef);
                !w)
                return w;
            return AutomationRows::insertVersion(sql, cb.scope.tenantId, cb.scope.scope, id, v);
        });
    if (!done)
        return done.error();
    out.insert(QStringLiteral("unchanged"), false);
    out.insert(QStringLiteral("from_version"), source);
    out.insert(QStringLiteral("to_version"), v.version);
    out.insert(QStringLiteral("status"), target);
    out.insert(QStringLiteral("automation"), automationJson(newDef, v));
    out.insert(QStringLiteral("commit_id"), done.value().id);
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::assignReviewer(const QJsonObject &body,
                                                           const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("assign_reviewer"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    QString id, reviewer, note;
    r.requiredString("automation_id", &id, 128);
    r.requiredString("reviewer", &reviewer, 256);
    r.string("note", &note, 1000);
    if (!r.ok())
        return r.error();
    auto def = loadDef(cb.scope, id);
    if (!def)
        return def.error();
    const qint64 now = nowMs();
    const QJsonObject assignment{{QStringLiteral("reviewer"), reviewer},
                                 {QStringLiteral("note"), nullableText(note)},
                                 {QStringLiteral("assigned_by"), cb.actor.id},
                                 {QStringLiteral("assigned_at"), isoOrNull(now)}};
    DefRow d = def.value();
    d.metadata.insert(QStringLiteral("review_assignment"), assignment);
    d.updatedAt = now;
    ReviewRow row;
    row.automationId = id;
    row.kind = QStringLiteral("reviewer");
    row.reviewer = reviewer;
    row.note = note;
    row.actor = cb.actor.id;
    auto done = commit(
        cb.scope, QStringLiteral("automation_review"), cb.actor, cb.inputSha,
        {{QStringLiteral("automation_assign_reviewer"),
          QJsonObject{{QStringLiteral("automation_id"), id},
                      {QStringLiteral("reviewer"), reviewer}}}},
        [&](QSqlDatabase &sql) -> Result<void> {
            if (auto w = AutomationRows::saveDef(sql, cb.scope.tenantId, cb.scope.scope, d); !w)
                return w;
            return AutomationRows::insertReview(sql, cb.scope.tenantId, cb.scope.scope, row);
        });
    if (!done)
        return done.error();
    QJsonObject out = head(cb.scope);
    out.insert(QStringLiteral("automation_id"), id);
    out.insert(QStringLiteral("review_assignment"), assignment);
    out.insert(QStringLiteral("commit_id"), done.value().id);
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::shadowReview(const QJsonObject &body,
                                                         const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("shadow/review"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    QString id, verdict, note;
    std::optional<int> version;
    r.requiredString("automation_id", &id, 128);
    r.integer("shadow_version", &version, 1, 1000000);
    if (r.ok() && body.value(QStringLiteral("verdict")).isUndefined())
        r.fail(QStringLiteral("verdict"), QStringLiteral("is required"));
    r.enumValue(
        "verdict", &verdict,
        {QStringLiteral("approved"), QStringLiteral("needs_changes"), QStringLiteral("rejected")});
    r.string("note", &note, 1000);
    if (!r.ok())
        return r.error();
    auto def = loadDef(cb.scope, id);
    if (!def)
        return def.error();
    const int v = version.value_or(def.value().latestVersion);
    auto row = loadVersion(cb.scope, id, v);
    if (!row)
        return row.error();
    if (row.value().status != kShadow)
        return conflict(
            QStringLiteral("automation_version_not_shadow"),
            QStringLiteral("version %1 is %2, not shadow").arg(v).arg(row.value().status),
            {{QStringLiteral("version"), v}, {QStringLiteral("status"), row.value().status}});
    ReviewRow review;
    review.automationId = id;
    review.version = v;
    review.kind = QStringLiteral("shadow_review");
    review.verdict = verdict;
    review.reviewer = cb.actor.id;
    review.note = note;
    review.actor = cb.actor.id;
    auto done = commit(cb.scope, QStringLiteral("automation_review"), cb.actor, cb.inputSha,
                       {{QStringLiteral("automation_shadow_review"),
                         QJsonObject{{QStringLiteral("automation_id"), id},
                                     {QStringLiteral("shadow_version"), v},
                                     {QStringLiteral("verdict"), verdict}}}},
                       [&](QSqlDatabase &sql) {
                           return AutomationRows::insertReview(sql, cb.scope.tenantId,
                                                               cb.scope.scope, review);
                       });
    if (!done)
        return done.error();
    QJsonObject out = head(cb.scope);
    out.insert(QStringLiteral("automation_id"), id);
    out.insert(QStringLiteral("shadow_version"), v);
    out.insert(QStringLiteral("review"), reviewJson(review));
    out.insert(QStringLiteral("commit_id"), done.value().id);
    return out;
}

// ------------------------------------------------------------------------------------------
// Runs: loading, transitions, driving

Result<RunState> AutomationEngine::Impl::loadRunAnyScope(const QString &runId)
{
    auto conn = db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase sql = conn.value();
    auto run = AutomationRows::findRun(sql, runId);
    if (!run)
        return run.error();
    if (!run.value())
        return runNotFound(runId);
    RunState s;
    s.run = *run.value();
    auto nodes = AutomationRows::nodesOf(sql, runId);
    if (!nodes)
        return nodes.error();
    s.nodes = nodes.value();
    auto version = AutomationRows::findVersion(sql, s.run.tenantId, s.run.scope, s.run.automationId,
                                               s.run.version);
    if (!version)
        return version.error();
    if (version.value())
        s.graph = version.value()->graph;
    return s;
}

Result<RunState> AutomationEngine::Impl::loadRun(const CallScope &cs, const QString &runId)
{
    auto s = loadRunAnyScope(runId);
    if (!s)
        return s;
    if (s.value().run.tenantId != cs.tenantId || s.value().run.scope != cs.scope)
        return runNotFound(runId);
    return s;
}

namespace {

QJsonObject nodeCounts(const RunState &s)
{
    int succeeded = 0, failed = 0, rejected = 0, skipped = 0, compensated = 0, paused = 0,
        pending = 0;
    for (const NodeRow &n : s.nodes) {
        if (n.state == QLatin1String("terminal")) {
            if (n.outcome == QLatin1String("succeeded"))
                ++succeeded;
            else if (n.outcome == QLatin1String("failed"))
                ++failed;
            else if (n.outcome == QLatin1String("rejected"))
                ++rejected;
            else if (n.outcome == QLatin1String("skipped"))
                ++skipped;
            else if (n.outcome == QLatin1String("compensated"))
                ++compensated;
        } else if (n.state == QLatin1String("paused")) {
            ++paused;
        } else {
            ++pending;
        }
    }
    return {{QStringLiteral("total_nodes"), int(s.nodes.size())},
            {QStringLiteral("succeeded_nodes"), succeeded},
            {QStringLiteral("failed_nodes"), failed},
            {QStringLiteral("rejected_nodes"), rejected},
            {QStringLiteral("skipped_nodes"), skipped},
            {QStringLiteral("compensated_nodes"), compensated},
            {QStringLiteral("paused_nodes"), paused},
            {QStringLiteral("pending_nodes"), pending}};
}

void setTerminal(RunState &s, const QString &outcome)
{
    s.run.state = kTerminal;
    s.run.outcome = outcome;
    s.run.pauseReason.clear();
    s.run.endedAt = nowMs();
}

void pauseRun(RunState &s, const QString &reason)
{
    s.run.state = kPaused;
    s.run.pauseReason = reason;
    s.run.pausedAt = nowMs();
    s.run.everPaused = true;
}

void resumeRunRow(RunState &s)
{
    s.run.state = kRunning;
    s.run.pauseReason.clear();
    s.run.pausedAt = 0;
    if (s.run.rootCauseCode == QLatin1String("guided_repair_pending")) {
        s.run.rootCauseCode.clear();
        s.run.rootCauseNodeId.clear();
        s.run.rootCauseMessage.clear();
    }
}

bool stopOnFailure(const RunState &s)
{
    return s.run.context.value(QStringLiteral("stop_on_failure")).toBool(true);
}

QHash<QString, QJsonObject> succeededOutputs(const RunState &s)
{
    QHash<QString, QJsonObject> outputs;
    for (const NodeRow &n : s.nodes) {
        if (n.state == QLatin1String("terminal") && n.outcome == QLatin1String("succeeded"))
            outputs.insert(n.nodeId, n.output);
    }
    return outputs;
}

} // namespace

Result<void> AutomationEngine::Impl::transition(RunState &s, const QString &event,
                                                const CommitActor &actor,
                                                const QStringList &nodeIds,
                                                const QJsonObject &extra)
{
    const qint64 now = nowMs();
    s.run.updatedAt = now;
    s.run.statusSummary = statusSummary(s.run.state, s.run.pauseReason, s.run.outcome);
    QJsonArray changed;
    for (const QString &id : nodeIds) {
        const int i = s.indexOf(id);
        if (i < 0)
            continue;
        NodeRow &n = s.nodes[i];
        n.updatedAt = now;
        n.statusSummary = statusSummary(n.state, n.pauseReason, n.outcome);
        changed.append(QJsonObject{{QStringLiteral("node_id"), n.nodeId},
                                   {QStringLiteral("attempt"), n.attempt},
                                   {QStringLiteral("lifecycle_state"), n.state},
                                   {QStringLiteral("terminal_outcome"), nullableText(n.outcome)}});
    }
    s.run.summary = nodeCounts(s);
    QJsonObject entry{{QStringLiteral("run_id"), s.run.runId},
                      {QStringLiteral("automation_id"), s.run.automationId},
                      {QStringLiteral("automation_version"), s.run.version},
                      {QStringLiteral("event"), event},
                      {QStringLiteral("lifecycle_state"), s.run.state},
                      {QStringLiteral("pause_reason"), nullableText(s.run.pauseReason)},
                      {QStringLiteral("terminal_outcome"), nullableText(s.run.outcome)},
                      {QStringLiteral("nodes"), changed}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        entry.insert(it.key(), it.value());
    const QJsonObject diff{{QStringLiteral("automation_run"), entry}};
    const CallScope cs = scopeOf(s.run.tenantId, s.run.scope);
    auto done = commit(cs, QStringLiteral("automation_run"), actor, sha256Hex(stableJson(diff)),
                       diff, [&](QSqlDatabase &sql) -> Result<void> {
                           if (auto w = AutomationRows::saveRun(sql, s.run); !w)
                               return w;
                           for (const QString &id : nodeIds) {
                               const int i = s.indexOf(id);
                               if (i < 0)
                                   continue;
                               if (auto w = AutomationRows::saveNode(sql, s.nodes[i]); !w)
                                   return w;
                           }
                           return {};
                       });
    if (!done) {
        qCWarning(lcAutomation).noquote()
            << "run" << s.run.runId << event << "not recorded:" << done.error().message;
        return done.error();
    }
    if (hook)
        hook(s.run.runId, event);
    return {};
}

Result<QString> AutomationEngine::Impl::startRun(const CallScope &cs, const CommitActor &actor,
                                                 const QString &inputSha, const DefRow &def,
                                                 const VersionRow &version, const QString &mode,
                                                 const QJsonObject &params,
                                                 const QJsonObject &options,
                                                 const RequestMeta &meta)
{
    if (def.status == QLatin1String("disabled"))
        return conflict(QStringLiteral("automation_disabled"),
                        QStringLiteral("automation %1 is disabled").arg(def.automationId),
                        {{QStringLiteral("automation_id"), def.automationId}});
    if (version.status == QLatin1String("disabled"))
        return conflict(QStringLiteral("automation_version_disabled"),
                        QStringLiteral("version %1 is disabled").arg(version.version),
                        {{QStringLiteral("version"), version.version}});
    if (mode == QLatin1String("default") && version.status == kShadow)
        return conflict(QStringLiteral("automation_version_shadow_not_runnable"),
                        QStringLiteral("version %1 is in shadow: run it with execution_mode shadow "
                                       "or promote it")
                            .arg(version.version),
                        {{QStringLiteral("version"), version.version}});
    if (mode == kShadow && version.status != kShadow)
        return conflict(
            QStringLiteral("automation_version_not_shadow"),
            QStringLiteral("version %1 is %2, not shadow").arg(version.version).arg(version.status),
            {{QStringLiteral("version"), version.version},
             {QStringLiteral("status"), version.status}});
    auto graph = AutomationGraphs::parse(version.graph);
    if (!graph)
        return graph.error();
    const AutomationGraphCheck check = AutomationGraphs::check(graph.value());
    if (!check.valid())
        return check.error();
    const qint64 now = nowMs();
    RunState s;
    s.graph = version.graph;
    s.run.runId = randomUuid();
    s.run.tenantId = cs.tenantId;
    s.run.scope = cs.scope;
    s.run.automationId = def.automationId;
    s.run.version = version.version;
    s.run.requestedBy = actor.id;
    s.run.state = kQueued;
    s.run.params = params;
    s.run.mode = mode;
    s.run.context = {
        {QStringLiteral("execution_mode"), mode},
        {QStringLiteral("allow_local_exec"),
         options.value(QStringLiteral("allow_local_exec")).toBool(false)},
        {QStringLiteral("record_run"), options.value(QStringLiteral("record_run")).toBool(true)},
        {QStringLiteral("stop_on_failure"),
         options.value(QStringLiteral("stop_on_failure")).toBool(true)},
        {QStringLiteral("topological_order"), QJsonArray::fromStringList(check.topologicalOrder)},
        {QStringLiteral("actor_label"), nullableText(actor.label)}};
    s.run.createdAt = now;
    QStringList ids;
    for (int i = 0; i < check.topologicalOrder.size(); ++i) {
        const QString &id = check.topologicalOrder[i];
        const AutomationGraphNode *gn = graph.value().node(id);
        NodeRow n;
        n.runId = s.run.runId;
        n.nodeId = id;
        n.topoIndex = i;
        n.kind = gn->kind;
        n.state = kPending;
        n.dependsOn = QJsonArray::fromStringList(graph.value().dependenciesOf(id));
        n.playbookId = gn->raw.value(QStringLiteral("playbook_id")).toString();
        const CompensationPolicy policy = compensationPolicyOf(gn->raw);
        n.compensationMode = policy.mode;
        n.compensationRef = policy.toJson();
        n.createdAt = now;
        s.nodes.append(n);
        ids << id;
    }
    Q_UNUSED(inputSha);
    auto lock = lockFor(s.run.runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    if (auto queued = transition(s, QStringLiteral("run_queued"), actor, ids,
                                 {{QStringLiteral("execution_mode"), mode}});
        !queued)
        return queued.error();
    drive(s.run.runId, actor, meta);
    return s.run.runId;
}

void AutomationEngine::Impl::drive(const QString &runId, const CommitActor &actor,
                                   const RequestMeta &meta)
{
    auto lock = lockFor(runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    for (int step = 0; step < 100000; ++step) {
        auto loaded = loadRunAnyScope(runId);
        if (!loaded) {
            qCWarning(lcAutomation).noquote()
                << "run" << runId << "cannot be driven:" << loaded.error().message;
            return;
        }
        RunState &s = loaded.value();
        if (s.run.state == kQueued) {
            s.run.state = kRunning;
            s.run.startedAt = nowMs();
            if (!transition(s, QStringLiteral("run_started"), actor, {}))
                return;
            continue;
        }
        if (s.run.state == kCompensating) {
            continueCompensation(s, actor, meta);
            return;
        }
        if (s.run.state != kRunning)
            return;
        int next = -1;
        for (int i = 0; i < s.nodes.size(); ++i) {
            if (s.nodes[i].state != kTerminal) {
                next = i;
                break;
            }
        }
        if (next < 0) {
            bool anyFailed = false;
            for (const NodeRow &n : s.nodes)
                anyFailed
                    = anyFailed || n.outcome == kFailed || n.outcome == QLatin1String("rejected");
            if (anyFailed) {
                startCompensation(s, QStringLiteral("on_failure"), kFailed, actor, meta);
                return;
            }
            QJsonObject outputs;
            for (const NodeRow &n : s.nodes)
                outputs.insert(n.nodeId, n.output);
            s.run.output = outputs;
            s.run.compensationStatus = QStringLiteral("not_needed");
            setTerminal(s, kSucceeded);
            (void)transition(s, QStringLiteral("run_succeeded"), actor, {});
            return;
        }
        NodeRow &n = s.nodes[next];
        if (n.state == kPaused)
            return;
        if (n.state == kRunning && n.awaitingReplay) {
            const auto ended = [&]() -> std::optional<QString> {
                auto view
                    = ReplayEngine(db, config).run(s.run.tenantId, s.run.scope, n.playbookRunId);
                if (!view || view.value().run.status == QLatin1String("in_progress"))
                    return std::nullopt;
                return view.value().run.status;
            }();
            if (!ended)
                return; // waits for replay/run/end
            if (!applyReplayEnd(s, next, *ended, actor, meta))
                return;
            continue;
        }
        QStringList blocking;
        for (const QJsonValue &dep : n.dependsOn) {
            const int d = s.indexOf(dep.toString());
            if (d >= 0 && s.nodes[d].outcome != kSucceeded)
                blocking << dep.toString();
        }
        if (!blocking.isEmpty()) {
            n.state = kTerminal;
            n.outcome = kSkipped;
            n.blocking = QJsonArray::fromStringList(blocking);
            n.endedAt = nowMs();
            if (!transition(s, QStringLiteral("node_skipped"), actor, {n.nodeId}))
                return;
            continue;
        }
        if (!executeNode(s, next, actor, meta))
            return;
    }
}

bool AutomationEngine::Impl::executeNode(RunState &s, int index, const CommitActor &actor,
                                         const RequestMeta &meta)
{
    NodeRow &n = s.nodes[index];
    const QJsonObject def = s.nodeDef(n.nodeId);
    const bool repairResume = n.state == kReady && n.playbookVersion > 0;
    const QHash<QString, QJsonObject> outputs = succeededOutputs(s);
    const QJsonObject params = s.run.params;
    const auto bound = [&](const char *key) {
        return AutomationGraphs::bind(def.value(QLatin1String(key)), params, outputs);
    };
    n.attempt += 1;
    n.state = kRunning;
    n.startedAt = nowMs();
    n.endedAt = 0;
    n.pausedAt = 0;
    n.pauseReason.clear();
    n.errorCode.clear();
    n.errorMessage.clear();
    n.awaitingReplay = false;
    n.input = {{QStringLiteral("inputs"), bound("inputs")}};
    if (n.kind == QLatin1String("condition"))
        n.input.insert(QStringLiteral("expression"), bound("expression"));
    if (n.kind == QLatin1String("artifact_gate"))
        n.input.insert(QStringLiteral("required_artifacts"), bound("required_artifacts"));
    if (!transition(s, QStringLiteral("node_started"), actor, {n.nodeId}))
        return false;
    const auto succeed = [&](const QJsonObject &output) {
        n.state = kTerminal;
        n.outcome = kSucceeded;
        n.output = output;
        n.endedAt = nowMs();
        return bool(transition(s, QStringLiteral("node_succeeded"), actor, {n.nodeId}));
    };
    if (n.kind == QLatin1String("approval")) {
        const QString key = def.value(QStringLiteral("approval_key")).toString();
        if (s.run.mode == kShadow)
            return succeed({{QStringLiteral("approved"), true},
                            {QStringLiteral("auto_approved"), true},
                            {QStringLiteral("approval_key"), nullableText(key)}});
        n.state = kPaused;
        n.pauseReason = kApprovalRequired;
        n.pausedAt = nowMs();
        n.approvalId = randomUuid();
        pauseRun(s, kApprovalRequired);
        (void)transition(s, QStringLiteral("approval_required"), actor, {n.nodeId},
                         {{QStringLiteral("approval_id"), n.approvalId}});
        return false;
    }
    if (n.kind == QLatin1String("condition")) {
        const QJsonValue expression = n.input.value(QStringLiteral("expression"));
        if (conditionHolds(expression))
            return succeed({{QStringLiteral("result"), true}});
        return failNode(s, index, QStringLiteral("condition_failed"),
                        QStringLiteral("the condition of node %1 is false").arg(n.nodeId), actor,
                        meta);
    }
    if (n.kind == QLatin1String("artifact_gate")) {
        QJsonArray present;
        QStringList missing;
        const QJsonArray given = def.value(QStringLiteral("required_artifacts")).toArray();
        const QJsonArray resolved = n.input.value(QStringLiteral("required_artifacts")).toArray();
        for (int i = 0; i < resolved.size(); ++i) {
            const QJsonValue v = resolved.at(i);
            if (v.isNull() || v.isUndefined() || (v.isString() && v.toString().isEmpty())
                || (v.isArray() && v.toArray().isEmpty()))
                missing << given.at(i).toString();
            else
                present.append(v);
        }
        if (!missing.isEmpty()) {
            n.output = {{QStringLiteral("missing_artifacts"), QJsonArray::fromStringList(missing)}};
            return failNode(s, index, QStringLiteral("artifact_gate_missing"),
                            QStringLiteral("required artifacts missing: ")
                                + missing.join(QStringLiteral(", ")),
                            actor, meta);
        }
        n.artifactRefs = present;
        return succeed({{QStringLiteral("artifacts"), present}});
    }
    // playbook
    PlaybookCall call;
    call.scope = scopeOf(s.run.tenantId, s.run.scope);
    call.playbookId = def.value(QStringLiteral("playbook_id")).toString();
    if (repairResume)
        call.version = n.playbookVersion;
    else if (def.value(QStringLiteral("version")).isDouble())
        call.version = def.value(QStringLiteral("version")).toInt();
    const QString mode = def.value(QStringLiteral("mode")).toString();
    call.mode = s.run.mode == kShadow ? QStringLiteral("simulate")
                : mode.isEmpty()      ? QStringLiteral("simulate")
                                      : mode;
    call.params = n.input.value(QStringLiteral("inputs")).toObject();
    call.actor = s.run.requestedBy;
    call.automationRunId = s.run.runId;
    call.automationNodeId = n.nodeId;
    n.input.insert(QStringLiteral("playbook_mode"), call.mode);
    if (!gateway)
        return failNode(s, index, QStringLiteral("playbook_run_failed"),
                        QStringLiteral("no playbook gateway is configured"), actor, meta);
    auto result = gateway->run(call, meta);
    if (!result) {
        n.output = {{QStringLiteral("error_code"), result.error().code},
                    {QStringLiteral("error_status"), result.error().status}};
        return failNode(s, index, QStringLiteral("playbook_run_failed"),
                        result.error().code + QStringLiteral(": ") + result.error().message, actor,
                        meta);
    }
    return applyPlaybookOutcome(s, index, result.value(), actor, meta);
}

bool AutomationEngine::Impl::applyPlaybookOutcome(RunState &s, int index,
                                                  const PlaybookCallResult &r,
                                                  const CommitActor &actor, const RequestMeta &meta)
{
    NodeRow &n = s.nodes[index];
    if (r.playbookVersion > 0)
        n.playbookVersion = r.playbookVersion;
    if (!r.replayRunId.isEmpty())
        n.playbookRunId = r.replayRunId;
    if (r.outcome == QLatin1String("success")) {
        n.state = kTerminal;
        n.outcome = kSucceeded;
        n.output = r.output;
        n.endedAt = nowMs();
        return bool(transition(s, QStringLiteral("node_succeeded"), actor, {n.nodeId}));
    }
    if (r.outcome == QLatin1String("partial")) {
        n.state = kPaused;
        n.pauseReason = kRepairRequired;
        n.pausedAt = nowMs();
        n.errorCode = QStringLiteral("guided_repair_pending");
        n.errorMessage = r.errorMessage.isEmpty()
                             ? QStringLiteral("the playbook run was partial: a repair is proposed")
                             : r.errorMessage;
        n.output = {{QStringLiteral("repair_patch"), r.repairPatch},
                    {QStringLiteral("playbook_output"), r.output},
                    {QStringLiteral("playbook_version"), n.playbookVersion}};
        pauseRun(s, kRepairRequired);
        s.run.rootCauseCode = QStringLiteral("guided_repair_pending");
        s.run.rootCauseNodeId = n.nodeId;
        s.run.rootCauseMessage = n.errorMessage;
        (void)transition(s, QStringLiteral("repair_required"), actor, {n.nodeId});
        return false;
    }
    if (r.outcome == QLatin1String("pending") && !r.replayRunId.isEmpty()) {
        n.awaitingReplay = true;
        if (!transition(s, QStringLiteral("playbook_pending"), actor, {n.nodeId},
                        {{QStringLiteral("replay_run_id"), r.replayRunId}}))
            return false;
        // The replay run may have ended before this was committed: its end found no waiting
        // node, so look at it now (the drive loop does).
        return true;
    }
    n.output = {{QStringLiteral("error_code"), nullableText(r.errorCode)},
                {QStringLiteral("playbook_output"), r.output}};
    const QString why
        = r.outcome == QLatin1String("failed")
              ? (r.errorCode.isEmpty() ? QStringLiteral("the playbook run failed")
                                       : r.errorCode + QStringLiteral(": ") + r.errorMessage)
              : QStringLiteral("unexpected playbook outcome '%1'").arg(r.outcome);
    return failNode(s, index, QStringLiteral("playbook_run_failed"), why, actor, meta);
}

bool AutomationEngine::Impl::applyReplayEnd(RunState &s, int index, const QString &status,
                                            const CommitActor &actor, const RequestMeta &meta)
{
    NodeRow &n = s.nodes[index];
    n.awaitingReplay = false;
    PlaybookCallResult r;
    r.outcome = status == QLatin1String("success")   ? QStringLiteral("success")
                : status == QLatin1String("partial") ? QStringLiteral("partial")
                                                     : QStringLiteral("failed");
    r.replayRunId = n.playbookRunId;
    r.output = {{QStringLiteral("replay_run_id"), n.playbookRunId},
                {QStringLiteral("replay_status"), status}};
    if (r.outcome == QLatin1String("failed"))
        r.errorCode = QStringLiteral("replay_run_") + status;
    return applyPlaybookOutcome(s, index, r, actor, meta);
}

bool AutomationEngine::Impl::failNode(RunState &s, int index, const QString &code,
                                      const QString &message, const CommitActor &actor,
                                      const RequestMeta &meta)
{
    NodeRow &n = s.nodes[index];
    n.state = kTerminal;
    n.outcome = kFailed;
    n.errorCode = code;
    n.errorMessage = message;
    n.awaitingReplay = false;
    n.endedAt = nowMs();
    if (s.run.rootCauseCode.isEmpty()) {
        s.run.rootCauseCode = code;
        s.run.rootCauseNodeId = n.nodeId;
        s.run.rootCauseMessage = message;
    }
    if (!transition(s, QStringLiteral("node_failed"), actor, {n.nodeId}))
        return false;
    if (!stopOnFailure(s))
        return true;
    finishFailed(s, QStringLiteral("on_failure"), kFailed, actor, meta);
    return false;
}

void AutomationEngine::Impl::finishFailed(RunState &s, const QString &trigger, const QString &base,
                                          const CommitActor &actor, const RequestMeta &meta)
{
    QStringList skipped;
    const QString cause = s.run.rootCauseNodeId;
    for (NodeRow &n : s.nodes) {
        if (n.state == kTerminal)
            continue;
        n.state = kTerminal;
        n.outcome = kSkipped;
        n.pauseReason.clear();
        n.awaitingReplay = false;
        n.endedAt = nowMs();
        if (!cause.isEmpty())
            n.blocking = QJsonArray{cause};
        skipped << n.nodeId;
    }
    s.run.pauseReason.clear();
    if (!skipped.isEmpty()
        && !transition(s, QStringLiteral("nodes_skipped"), actor, skipped,
                       {{QStringLiteral("trigger"), trigger}}))
        return;
    startCompensation(s, trigger, base, actor, meta);
}

void AutomationEngine::Impl::startCompensation(RunState &s, const QString &trigger,
                                               const QString &base, const CommitActor &actor,
                                               const RequestMeta &meta)
{
    QStringList plan;
    if (s.run.mode != kShadow) {
        for (int i = s.nodes.size() - 1; i >= 0; --i) {
            const NodeRow &n = s.nodes[i];
            const QStringList triggers = [&] {
                QStringList t;
                for (const QJsonValue &v :
                     n.compensationRef.value(QStringLiteral("triggers")).toArray())
                    t << v.toString();
                return t;
            }();
            if (n.outcome == kSucceeded && !n.compensationMode.isEmpty()
                && n.compensationMode != QLatin1String("none") && triggers.contains(trigger))
                plan << n.nodeId;
        }
    }
    s.run.compensationSummary = {{QStringLiteral("trigger"), trigger},
                                 {QStringLiteral("base_outcome"), base},
                                 {QStringLiteral("planned"), QJsonArray::fromStringList(plan)},
                                 {QStringLiteral("results"), QJsonObject()}};
    if (plan.isEmpty()) {
        s.run.compensationStatus = QStringLiteral("not_needed");
        setTerminal(s, base);
        (void)transition(s, QStringLiteral("run_") + base, actor, {});
        return;
    }
    s.run.state = kCompensating;
    s.run.pauseReason.clear();
    s.run.compensationAttempted = true;
    s.run.compensationStatus = kRunning;
    if (!transition(s, QStringLiteral("compensation_started"), actor, {},
                    {{QStringLiteral("trigger"), trigger}}))
        return;
    continueCompensation(s, actor, meta);
}

void AutomationEngine::Impl::continueCompensation(RunState &s, const CommitActor &actor,
                                                  const RequestMeta &meta)
{
    const QJsonArray plan = s.run.compensationSummary.value(QStringLiteral("planned")).toArray();
    const QHash<QString, QJsonObject> outputs = succeededOutputs(s);
    for (const QJsonValue &idv : plan) {
        const int i = s.indexOf(idv.toString());
        if (i < 0)
            continue;
        NodeRow &n = s.nodes[i];
        if (n.compensationStatus == kSucceeded || n.compensationStatus == kFailed)
            continue;
        n.state = kCompensating;
        n.compensationStatus = kRunning;
        if (!transition(s, QStringLiteral("node_compensating"), actor, {n.nodeId}))
            return;
        const QJsonObject ref = n.compensationRef;
        PlaybookCall call;
        call.scope = scopeOf(s.run.tenantId, s.run.scope);
        call.playbookId = ref.value(QStringLiteral("playbook_id")).toString();
        if (ref.value(QStringLiteral("version")).isDouble())
            call.version = ref.value(QStringLiteral("version")).toInt();
        call.mode = ref.value(QStringLiteral("playbook_mode")).toString(QStringLiteral("simulate"));
        QHash<QString, QJsonObject> withSelf = outputs;
        withSelf.insert(n.nodeId, n.output);
        call.params
            = AutomationGraphs::bind(ref.value(QStringLiteral("inputs")), s.run.params, withSelf)
                  .toObject();
        call.actor = s.run.requestedBy;
        call.automationRunId = s.run.runId;
        call.automationNodeId = n.nodeId;
        QJsonObject result{{QStringLiteral("mode"), n.compensationMode},
                           {QStringLiteral("playbook_id"), call.playbookId}};
        bool ok = false;
        if (!gateway) {
            result.insert(QStringLiteral("error_code"), QStringLiteral("no_playbook_gateway"));
        } else {
            auto r = gateway->run(call, meta);
            if (!r) {
                result.insert(QStringLiteral("error_code"), r.error().code);
                result.insert(QStringLiteral("error_message"), r.error().message);
            } else {
                n.compensationRunId = r.value().replayRunId;
                ok = r.value().outcome == QLatin1String("success");
                result.insert(QStringLiteral("outcome"), r.value().outcome);
                if (!ok) {
                    result.insert(QStringLiteral("error_code"),
                                  r.value().outcome == QLatin1String("pending")
                                      ? QStringLiteral("compensation_requires_executor")
                                      : nullableText(r.value().errorCode));
                    result.insert(QStringLiteral("error_message"), r.value().errorMessage);
                }
            }
        }
        n.state = kTerminal;
        n.compensationStatus = ok ? kSucceeded : kFailed;
        if (ok)
            n.outcome = QStringLiteral("compensated");
        result.insert(QStringLiteral("status"), n.compensationStatus);
        QJsonObject results = s.run.compensationSummary.value(QStringLiteral("results")).toObject();
        results.insert(n.nodeId, result);
        s.run.compensationSummary.insert(QStringLiteral("results"), results);
        if (!transition(s,
                        ok ? QStringLiteral("node_compensated")
                           : QStringLiteral("node_compensation_failed"),
                        actor, {n.nodeId}))
            return;
    }
    finalizeCompensation(s, actor);
}

void AutomationEngine::Impl::finalizeCompensation(RunState &s, const CommitActor &actor)
{
    const QJsonArray plan = s.run.compensationSummary.value(QStringLiteral("planned")).toArray();
    const QString base = s.run.compensationSummary.value(QStringLiteral("base_outcome")).toString();
    QJsonArray succeeded, failed, requiredFailed;
    for (const QJsonValue &idv : plan) {
        const int i = s.indexOf(idv.toString());
        if (i < 0)
            continue;
        const NodeRow &n = s.nodes[i];
        if (n.compensationStatus == kSucceeded) {
            succeeded.append(n.nodeId);
        } else {
            failed.append(n.nodeId);
            if (n.compensationMode == QLatin1String("required"))
                requiredFailed.append(n.nodeId);
        }
    }
    s.run.compensationSummary.insert(QStringLiteral("succeeded_nodes"), succeeded);
    s.run.compensationSummary.insert(QStringLiteral("failed_nodes"), failed);
    s.run.compensationSummary.insert(QStringLiteral("required_failed_nodes"), requiredFailed);
    QString outcome;
    if (failed.isEmpty()) {
        s.run.compensationStatus = kSucceeded;
        outcome = base + QStringLiteral("_compensated");
    } else {
        s.run.compensationStatus = kFailed;
        outcome = requiredFailed.isEmpty() ? base : kFailed;
        if (!requiredFailed.isEmpty() && s.run.rootCauseCode.isEmpty()) {
            s.run.rootCauseCode = QStringLiteral("required_compensation_failed");
            s.run.rootCauseNodeId = requiredFailed.first().toString();
            s.run.rootCauseMessage = QStringLiteral("a required compensation failed");
        }
    }
    setTerminal(s, outcome);
    (void)transition(s, QStringLiteral("run_") + outcome, actor, {},
                     {{QStringLiteral("compensation_status"), s.run.compensationStatus}});
}

// ------------------------------------------------------------------------------------------
// Run views

QJsonValue AutomationEngine::Impl::latestAssignment(const QString &runId, const QString &kind)
{
    auto conn = db.connection();
    if (!conn)
        return QJsonValue();
    QSqlDatabase sql = conn.value();
    auto reviews = AutomationRows::runReviews(sql, runId);
    if (!reviews)
        return QJsonValue();
    QJsonValue latest;
    for (const ReviewRow &r : reviews.value()) {
        if (r.kind == kind)
            latest = reviewJson(r);
    }
    return latest;
}

QJsonObject AutomationEngine::Impl::workflowOf(const RunState &s, QJsonArray *history)
{
    QJsonObject w;
    auto conn = db.connection();
    QVector<ActionRow> actions;
    QVector<ReviewRow> reviews;
    if (conn) {
        QSqlDatabase sql = conn.value();
        auto a = AutomationRows::actionsOf(sql, s.run.runId);
        if (a)
            actions = a.value();
        auto r = AutomationRows::runReviews(sql, s.run.runId);
        if (r)
            reviews = r.value();
    }
    ReviewRow assignment;
    bool assigned = false;
    QVector<std::pair<qint64, QJsonObject>> events;
    for (const ReviewRow &r : reviews) {
        if (r.kind != QLatin1String("compensation_assignment"))
            continue;
        assignment = r;
        assigned = true;
        QJsonObject e = reviewJson(r);
        e.insert(QStringLiteral("event"), QStringLiteral("assigned"));
        events.append({r.createdAt, e});
    }
    for (const ActionRow &a : actions) {
        QJsonObject e = actionJson(a);
        e.insert(QStringLiteral("event"), QStringLiteral("action"));
        events.append({a.createdAt, e});
    }
    std::stable_sort(events.begin(), events.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    if (history) {
        for (const auto &e : events)
            history->append(e.second);
    }
    const bool needed = s.run.state == kTerminal && s.run.compensationStatus == kFailed;
    const QString last = actions.isEmpty() ? QString() : actions.last().action;
    QString bucket;
    if (last == QLatin1String("manual_cleanup_completed"))
        bucket = QStringLiteral("completed");
    else if (last == QLatin1String("manual_cleanup_started"))
        bucket = QStringLiteral("in_progress");
    else if (last == QLatin1String("engineering_escalated"))
        bucket = QStringLiteral("escalated");
    else if (last == QLatin1String("observation_noted"))
        bucket = needed ? QStringLiteral("observing") : QStringLiteral("not_required");
    else if (needed)
        bucket = assigned && !assignment.owner.isEmpty() ? QStringLiteral("assigned")
                                                         : QStringLiteral("unassigned");
    else
        bucket = QStringLiteral("not_required");
    QString sla = QStringLiteral("none");
    if (assigned && assignment.slaTargetAt > 0) {
        if (bucket == QLatin1String("completed"))
            sla = actions.last().createdAt <= assignment.slaTargetAt ? QStringLiteral("met")
                                                                     : QStringLiteral("missed");
        else
            sla = nowMs() > assignment.slaTargetAt ? QStringLiteral("breached")
                                                   : QStringLiteral("on_track");
    }
    w.insert(QStringLiteral("bucket"), bucket);
    w.insert(QStringLiteral("needs_action"), needed && bucket != QLatin1String("completed"));
    w.insert(QStringLiteral("owner"), assigned ? nullableText(assignment.owner) : QJsonValue());
    w.insert(QStringLiteral("escalation_owner"),
             assigned ? nullableText(assignment.escalationOwner) : QJsonValue());
    w.insert(QStringLiteral("sla_target_at"),
             assigned ? isoOrNull(assignment.slaTargetAt) : QJsonValue());
    w.insert(QStringLiteral("sla_status"), sla);
    w.insert(QStringLiteral("last_action"),
             actions.isEmpty() ? QJsonValue() : QJsonValue(actionJson(actions.last())));
    w.insert(QStringLiteral("action_count"), int(actions.size()));
    return w;
}

QJsonObject AutomationEngine::Impl::runView(const RunState &s, bool includeNodes)
{
    QJsonObject out = head(scopeOf(s.run.tenantId, s.run.scope));
    out.insert(QStringLiteral("run"), runJson(s.run));
    QJsonArray nodes;
    if (includeNodes) {
        for (const NodeRow &n : s.nodes)
            nodes.append(nodeJson(n));
    }
    out.insert(QStringLiteral("nodes"), nodes);
    return out;
}

QJsonObject AutomationEngine::Impl::runDetail(const RunState &s, bool includeNodes)
{
    QJsonObject out = runView(s, includeNodes);
    out.insert(QStringLiteral("review_assignment"),
               latestAssignment(s.run.runId, QStringLiteral("run_reviewer")));
    out.insert(QStringLiteral("summary"), nodeCounts(s));
    const QJsonObject cs = s.run.compensationSummary;
    const QString status
        = s.run.compensationStatus.isEmpty() ? QStringLiteral("none") : s.run.compensationStatus;
    out.insert(
        QStringLiteral("compensation_assessment"),
        QJsonObject{
            {QStringLiteral("status"), status},
            {QStringLiteral("trigger"), cs.value(QStringLiteral("trigger"))},
            {QStringLiteral("base_outcome"), cs.value(QStringLiteral("base_outcome"))},
            {QStringLiteral("planned_nodes"), cs.value(QStringLiteral("planned")).toArray()},
            {QStringLiteral("succeeded_nodes"),
             cs.value(QStringLiteral("succeeded_nodes")).toArray()},
            {QStringLiteral("failed_nodes"), cs.value(QStringLiteral("failed_nodes")).toArray()},
            {QStringLiteral("required_failed_nodes"),
             cs.value(QStringLiteral("required_failed_nodes")).toArray()},
            {QStringLiteral("fully_compensated"), status == kSucceeded},
            {QStringLiteral("retry_allowed"),
             s.run.state == kTerminal && s.run.mode != kShadow && status == kFailed}});
    QJsonArray history;
    out.insert(QStringLiteral("compensation_workflow"), workflowOf(s, &history));
    out.insert(QStringLiteral("compensation_workflow_history"), history);
    return out;
}

// ------------------------------------------------------------------------------------------
// Run routes

namespace {

/// run_id (a UUID) of a run route, with the note most of them take.
struct RunArgs
{
    QString runId;
    QString note;
};

Result<RunArgs> runArgs(const QJsonObject &body, JsonReader &r)
{
    RunArgs a;
    r.requiredString("run_id", &a.runId, 64);
    if (r.ok() && !isUuid(a.runId))
        r.fail(QStringLiteral("run_id"), QStringLiteral("must be a UUID"));
    a.runId = a.runId.toLower();
    r.string("note", &a.note, 1000);
    Q_UNUSED(body);
    if (!r.ok())
        return r.error();
    return a;
}

} // namespace

Result<QJsonObject> AutomationEngine::Impl::run(const QJsonObject &body, const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("run"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    QString id;
    std::optional<int> version;
    QJsonObject params, options;
    r.requiredString("automation_id", &id, 128);
    r.integer("version", &version, 1, 1000000);
    r.object("params", &params);
    r.object("options", &options);
    JsonReader o(options, QStringLiteral("options"));
    QString mode = QStringLiteral("default");
    o.enumValue("execution_mode", &mode, {QStringLiteral("default"), kShadow});
    std::optional<bool> flag;
    o.boolean("allow_local_exec", &flag);
    o.boolean("record_run", &flag);
    o.boolean("stop_on_failure", &flag);
    r.absorb(o);
    if (!r.ok())
        return r.error();
    auto def = loadDef(cb.scope, id);
    if (!def)
        return def.error();
    auto row = loadVersion(cb.scope, id, version.value_or(def.value().latestVersion));
    if (!row)
        return row.error();
    auto started = startRun(cb.scope, cb.actor, cb.inputSha, def.value(), row.value(), mode, params,
                            options, meta);
    if (!started)
        return started.error();
    auto s = loadRun(cb.scope, started.value());
    if (!s)
        return s.error();
    return runView(s.value(), true);
}

Result<QJsonObject> AutomationEngine::Impl::runsGet(const QJsonObject &body,
                                                    const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/get"), body, meta);
    if (!b)
        return b.error();
    JsonReader r(body);
    auto a = runArgs(body, r);
    bool includeNodes = true;
    std::optional<bool> given;
    r.boolean("include_nodes", &given);
    if (!a)
        return a.error();
    if (!r.ok())
        return r.error();
    includeNodes = given.value_or(true);
    auto s = loadRun(b.value().scope, a.value().runId);
    if (!s)
        return s.error();
    return runDetail(s.value(), includeNodes);
}

Result<QJsonObject> AutomationEngine::Impl::runsList(const QJsonObject &body,
                                                     const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/list"), body, meta);
    if (!b)
        return b.error();
    const CallScope &cs = b.value().scope;
    JsonReader r(body);
    QString id, state, reviewer, bucket, sla, order = QStringLiteral("recent");
    QStringList owners;
    std::optional<bool> actionable, compensationOnly;
    std::optional<int> limit;
    r.string("automation_id", &id, 128);
    r.enumValue("lifecycle_state", &state, {kQueued, kRunning, kPaused, kCompensating, kTerminal});
    r.boolean("actionable_only", &actionable);
    r.boolean("compensation_only", &compensationOnly);
    r.string("reviewer", &reviewer, 256);
    r.stringList("owners", &owners, 0, 50);
    r.enumValue("workflow_bucket", &bucket,
                {QStringLiteral("not_required"), QStringLiteral("unassigned"),
                 QStringLiteral("assigned"), QStringLiteral("in_progress"),
                 QStringLiteral("escalated"), QStringLiteral("observing"),
                 QStringLiteral("completed")});
    r.enumValue("sla_status", &sla,
                {QStringLiteral("none"), QStringLiteral("on_track"), QStringLiteral("breached"),
                 QStringLiteral("met"), QStringLiteral("missed")});
    r.enumValue("order", &order, {QStringLiteral("recent"), QStringLiteral("inbox")});
    r.integer("limit", &limit, 1, 100);
    if (!r.ok())
        return r.error();
    auto conn = db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase sql = conn.value();
    auto runs = AutomationRows::listRuns(sql, cs.tenantId, cs.scope, id, 0, 2000);
    if (!runs)
        return runs.error();
    struct Item
    {
        int priority;
        qint64 at;
        QJsonObject json;
    };
    QVector<Item> items;
    for (const RunRow &row : runs.value()) {
        if (!state.isEmpty() && row.state != state)
            continue;
        if (compensationOnly.value_or(false) && !row.compensationAttempted)
            continue;
        RunState s;
        s.run = row;
        const QJsonObject workflow = workflowOf(s, nullptr);
        const QJsonValue assignment = latestAssignment(row.runId, QStringLiteral("run_reviewer"));
        const QString runReviewer
            = assignment.toObject().value(QStringLiteral("reviewer")).toString();
        QString next;
        int priority = 9;
        if (row.state == kPaused && row.pauseReason == kRepairRequired) {
            next = QStringLiteral("review_repair");
            priority = 0;
        } else if (row.state == kPaused && row.pauseReason == kApprovalRequired) {
            next = QStringLiteral("approve");
            priority = 1;
        } else if (row.state == kPaused) {
            next = QStringLiteral("resume");
            priority = 2;
        } else if (workflow.value(QStringLiteral("needs_action")).toBool()) {
            next = QStringLiteral("compensation_follow_up");
            priority = 3;
        } else if (row.state != kTerminal) {
            priority = 5;
        }
        const bool needsAction = !next.isEmpty();
        if (actionable.value_or(false) && !needsAction)
            continue;
        if (!reviewer.isEmpty() && runReviewer != reviewer)
            continue;
        if (!owners.isEmpty()
            && !owners.contains(workflow.value(QStringLiteral("owner")).toString())
            && !owners.contains(workflow.value(QStringLiteral("escalation_owner")).toString()))
            continue;
        if (!bucket.isEmpty() && workflow.value(QStringLiteral("bucket")).toString() != bucket)
            continue;
        if (!sla.isEmpty() && workflow.value(QStringLiteral("sla_status")).toString() != sla)
            continue;
        QJsonObject json = runJson(row);
        json.insert(QStringLiteral("needs_action"), needsAction);
        json.insert(QStringLiteral("next_action"), nullableText(next));
        json.insert(QStringLiteral("reviewer"), nullableText(runReviewer));
        json.insert(QStringLiteral("workflow_bucket"), workflow.value(QStringLiteral("bucket")));
        json.insert(QStringLiteral("sla_status"), workflow.value(QStringLiteral("sla_status")));
        items.append({priority, row.createdAt, json});
    }
    if (order == QLatin1String("inbox"))
        std::stable_sort(items.begin(), items.end(),
                         [](const Item &x, const Item &y) { return x.priority < y.priority; });
    QJsonArray out;
    for (const Item &i : std::as_const(items)) {
        if (out.size() >= limit.value_or(20))
            break;
        out.append(i.json);
    }
    QJsonObject res = head(cs);
    res.insert(QStringLiteral("runs"), out);
    res.insert(QStringLiteral("matched"), int(items.size()));
    return res;
}

Result<QJsonObject> AutomationEngine::Impl::cancel(const QJsonObject &body, const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/cancel"), body, meta);
    if (!b)
        return b.error();
    JsonReader r(body);
    auto a = runArgs(body, r);
    if (!a)
        return a.error();
    auto lock = lockFor(a.value().runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    auto loaded = loadRun(b.value().scope, a.value().runId);
    if (!loaded)
        return loaded.error();
    RunState &s = loaded.value();
    if (s.run.state == kTerminal)
        return conflict(QStringLiteral("automation_run_terminal"),
                        QStringLiteral("the run has already ended (%1)").arg(s.run.outcome),
                        {{QStringLiteral("run_id"), s.run.runId},
                         {QStringLiteral("terminal_outcome"), s.run.outcome}});
    if (s.run.state == kCompensating)
        return conflict(QStringLiteral("automation_run_compensating"),
                        QStringLiteral("the run is compensating; wait for it to end"),
                        {{QStringLiteral("run_id"), s.run.runId}});
    if (s.run.rootCauseCode.isEmpty()
        || s.run.rootCauseCode == QLatin1String("guided_repair_pending")) {
        s.run.rootCauseCode = QStringLiteral("run_cancelled");
        s.run.rootCauseNodeId.clear();
        s.run.rootCauseMessage = a.value().note.isEmpty()
                                     ? QStringLiteral("cancelled by ") + b.value().actor.id
                                     : a.value().note;
    }
    finishFailed(s, QStringLiteral("on_cancel"), QStringLiteral("cancelled"), b.value().actor,
                 meta);
    auto fresh = loadRun(b.value().scope, a.value().runId);
    if (!fresh)
        return fresh.error();
    return runDetail(fresh.value(), true);
}

Result<QJsonObject> AutomationEngine::Impl::resume(const QJsonObject &body, const RequestMeta &meta,
                                                   const QString &route)
{
    auto b = basics(route, body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    if (!a)
        return a.error();
    auto lock = lockFor(a.value().runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    auto loaded = loadRun(cb.scope, a.value().runId);
    if (!loaded)
        return loaded.error();
    RunState &s = loaded.value();
    const bool approveRepair = route == QLatin1String("runs/approve_repair");
    if (approveRepair && (s.run.state != kPaused || s.run.pauseReason != kRepairRequired))
        return conflict(QStringLiteral("automation_run_not_repair_paused"),
                        QStringLiteral("the run is not paused for a repair"),
                        {{QStringLiteral("run_id"), s.run.runId},
                         {QStringLiteral("lifecycle_state"), s.run.state},
                         {QStringLiteral("pause_reason"), nullableText(s.run.pauseReason)}});
    if (s.run.state != kPaused)
        return conflict(QStringLiteral("automation_run_not_paused"),
                        QStringLiteral("only a paused run can be resumed (this one is %1)")
                            .arg(s.run.statusSummary),
                        {{QStringLiteral("run_id"), s.run.runId},
                         {QStringLiteral("lifecycle_state"), s.run.state}});
    int paused = -1;
    for (int i = 0; i < s.nodes.size(); ++i) {
        if (s.nodes[i].state == kPaused)
            paused = i;
    }
    QString event = QStringLiteral("run_resumed");
    QJsonObject extra{{QStringLiteral("note"), nullableText(a.value().note)}};
    QStringList changed;
    if (s.run.pauseReason == kApprovalRequired && paused >= 0) {
        NodeRow &n = s.nodes[paused];
        n.state = kTerminal;
        n.outcome = kSucceeded;
        n.pauseReason.clear();
        n.endedAt = nowMs();
        n.output = {{QStringLiteral("approved"), true},
                    {QStringLiteral("approved_by"), cb.actor.id},
                    {QStringLiteral("approval_id"), n.approvalId},
                    {QStringLiteral("note"), nullableText(a.value().note)}};
        changed << n.nodeId;
        event = QStringLiteral("approval_granted");
    } else if (s.run.pauseReason == kRepairRequired && paused >= 0) {
        NodeRow &n = s.nodes[paused];
        Result<PlaybookVersionInfo> latest
            = gateway
                  ? gateway->latestVersion(scopeOf(s.run.tenantId, s.run.scope), n.playbookId, meta)
                  : Result<PlaybookVersionInfo>(
                      Error::make(404, QStringLiteral("replay_playbook_not_found"),
                                  QStringLiteral("no playbook gateway is configured")));
        const bool approved = latest && latest.value().version > n.playbookVersion
                              && (latest.value().repairReviewState == QLatin1String("approved")
                                  || latest.value().status == QLatin1String("active"));
        if (!approved)
            return conflict(
                QStringLiteral("automation_run_not_resumable"),
                QStringLiteral("the repair pause resumes on a newer approved version of playbook "
                               "%1; review its repair first (replay/playbooks/repair/review)")
                    .arg(n.playbookId),
                {{QStringLiteral("run_id"), s.run.runId},
                 {QStringLiteral("reason"), QStringLiteral("playbook_repair_not_approved")},
                 {QStringLiteral("playbook_id"), n.playbookId},
                 {QStringLiteral("paused_version"), n.playbookVersion},
                 {QStringLiteral("latest_version"),
                  latest ? QJsonValue(latest.value().version) : QJsonValue()},
                 {QStringLiteral("latest_status"),
                  latest ? QJsonValue(latest.value().status) : QJsonValue()},
                 {QStringLiteral("repair_review_state"),
                  latest ? nullableText(latest.value().repairReviewState) : QJsonValue()},
                 {QStringLiteral("lookup_error"),
                  latest ? QJsonValue() : QJsonValue(latest.error().code)}});
        const int from = n.playbookVersion;
        n.state = kReady;
        n.pauseReason.clear();
        n.pausedAt = 0;
        n.playbookVersion = latest.value().version;
        changed << n.nodeId;
        event
            = approveRepair ? QStringLiteral("repair_approved") : QStringLiteral("repair_resumed");
        extra.insert(QStringLiteral("from_playbook_version"), from);
        extra.insert(QStringLiteral("to_playbook_version"), n.playbookVersion);
    }
    resumeRunRow(s);
    if (auto t = transition(s, event, cb.actor, changed, extra); !t)
        return t.error();
    drive(s.run.runId, cb.actor, meta);
    auto fresh = loadRun(cb.scope, a.value().runId);
    if (!fresh)
        return fresh.error();
    return runDetail(fresh.value(), true);
}

Result<QJsonObject> AutomationEngine::Impl::rejectRepair(const QJsonObject &body,
                                                         const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/reject_repair"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    if (!a)
        return a.error();
    auto lock = lockFor(a.value().runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    auto loaded = loadRun(cb.scope, a.value().runId);
    if (!loaded)
        return loaded.error();
    RunState &s = loaded.value();
    if (s.run.state != kPaused || s.run.pauseReason != kRepairRequired)
        return conflict(QStringLiteral("automation_run_not_repair_paused"),
                        QStringLiteral("the run is not paused for a repair"),
                        {{QStringLiteral("run_id"), s.run.runId},
                         {QStringLiteral("lifecycle_state"), s.run.state},
                         {QStringLiteral("pause_reason"), nullableText(s.run.pauseReason)}});
    QStringList changed;
    for (NodeRow &n : s.nodes) {
        if (n.state != kPaused)
            continue;
        n.state = kTerminal;
        n.outcome = QStringLiteral("rejected");
        n.pauseReason.clear();
        n.errorCode = QStringLiteral("repair_rejected");
        n.errorMessage = a.value().note.isEmpty()
                             ? QStringLiteral("repair rejected by ") + cb.actor.id
                             : a.value().note;
        n.endedAt = nowMs();
        changed << n.nodeId;
        s.run.rootCauseCode = QStringLiteral("repair_rejected");
        s.run.rootCauseNodeId = n.nodeId;
        s.run.rootCauseMessage = n.errorMessage;
    }
    s.run.state = kRunning;
    s.run.pauseReason.clear();
    if (auto t = transition(s, QStringLiteral("repair_rejected"), cb.actor, changed); !t)
        return t.error();
    finishFailed(s, QStringLiteral("on_reject"), kFailed, cb.actor, meta);
    auto fresh = loadRun(cb.scope, a.value().runId);
    if (!fresh)
        return fresh.error();
    return runDetail(fresh.value(), true);
}

Result<QJsonObject> AutomationEngine::Impl::runAssignReviewer(const QJsonObject &body,
                                                              const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/assign_reviewer"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    QString reviewer;
    r.requiredString("reviewer", &reviewer, 256);
    if (!a)
        return a.error();
    if (!r.ok())
        return r.error();
    auto s = loadRun(cb.scope, a.value().runId);
    if (!s)
        return s.error();
    ReviewRow row;
    row.automationId = s.value().run.automationId;
    row.runId = s.value().run.runId;
    row.kind = QStringLiteral("run_reviewer");
    row.reviewer = reviewer;
    row.note = a.value().note;
    row.actor = cb.actor.id;
    auto done = commit(cb.scope, QStringLiteral("automation_review"), cb.actor, cb.inputSha,
                       {{QStringLiteral("automation_run_assign_reviewer"),
                         QJsonObject{{QStringLiteral("run_id"), row.runId},
                                     {QStringLiteral("reviewer"), reviewer}}}},
                       [&](QSqlDatabase &sql) {
                           return AutomationRows::insertReview(sql, cb.scope.tenantId,
                                                               cb.scope.scope, row);
                       });
    if (!done)
        return done.error();
    QJsonObject out = head(cb.scope);
    out.insert(QStringLiteral("run_id"), row.runId);
    out.insert(QStringLiteral("review_assignment"), reviewJson(row));
    out.insert(QStringLiteral("commit_id"), done.value().id);
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::compensationRetry(const QJsonObject &body,
                                                              const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/compensation/retry"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    if (!a)
        return a.error();
    auto lock = lockFor(a.value().runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    auto loaded = loadRun(cb.scope, a.value().runId);
    if (!loaded)
        return loaded.error();
    RunState &s = loaded.value();
    if (s.run.state != kTerminal)
        return conflict(QStringLiteral("automation_run_not_terminal"),
                        QStringLiteral("compensation can be retried once the run has ended"),
                        {{QStringLiteral("run_id"), s.run.runId},
                         {QStringLiteral("lifecycle_state"), s.run.state}});
    if (s.run.mode == kShadow || s.run.compensationStatus != kFailed)
        return conflict(
            QStringLiteral("automation_compensation_not_retryable"),
            s.run.mode == kShadow
                ? QStringLiteral("shadow runs are never compensated")
                : QStringLiteral("nothing to retry: compensation is %1")
                      .arg(s.run.compensationStatus.isEmpty() ? QStringLiteral("none")
                                                              : s.run.compensationStatus),
            {{QStringLiteral("run_id"), s.run.runId},
             {QStringLiteral("compensation_status"), nullableText(s.run.compensationStatus)},
             {QStringLiteral("execution_mode"), s.run.mode}});
    QStringList changed;
    for (NodeRow &n : s.nodes) {
        if (n.compensationStatus != kFailed)
            continue;
        n.state = QStringLiteral("retrying");
        n.compensationStatus = kPending;
        changed << n.nodeId;
    }
    s.run.state = kCompensating;
    s.run.outcome.clear();
    s.run.endedAt = 0;
    s.run.compensationStatus = kRunning;
    if (auto t = transition(s, QStringLiteral("compensation_retry"), cb.actor, changed); !t)
        return t.error();
    continueCompensation(s, cb.actor, meta);
    auto fresh = loadRun(cb.scope, a.value().runId);
    if (!fresh)
        return fresh.error();
    return runDetail(fresh.value(), true);
}

Result<QJsonObject> AutomationEngine::Impl::compensationRecord(const QJsonObject &body,
                                                               const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/compensation/record_action"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    ActionRow row;
    if (r.ok() && body.value(QStringLiteral("action")).isUndefined())
        r.fail(QStringLiteral("action"), QStringLiteral("is required"));
    r.enumValue("action", &row.action, compensationActions());
    r.string("node_id", &row.nodeId, 128);
    r.string("external_ref", &row.externalRef, 1000);
    if (!a)
        return a.error();
    if (!r.ok())
        return r.error();
    auto s = loadRun(cb.scope, a.value().runId);
    if (!s)
        return s.error();
    if (!row.nodeId.isEmpty() && s.value().indexOf(row.nodeId) < 0)
        return Error::invalidField(QStringLiteral("node_id"),
                                   QStringLiteral("is not a node of the run"));
    row.runId = s.value().run.runId;
    row.note = a.value().note;
    row.actor = cb.actor.id;
    auto done = commit(cb.scope, QStringLiteral("automation_compensation"), cb.actor, cb.inputSha,
                       {{QStringLiteral("automation_compensation_action"),
                         QJsonObject{{QStringLiteral("run_id"), row.runId},
                                     {QStringLiteral("action"), row.action}}}},
                       [&](QSqlDatabase &sql) {
                           return AutomationRows::insertAction(sql, cb.scope.tenantId,
                                                               cb.scope.scope, row);
                       });
    if (!done)
        return done.error();
    QJsonObject out = head(cb.scope);
    out.insert(QStringLiteral("run_id"), row.runId);
    out.insert(QStringLiteral("action"), actionJson(row));
    out.insert(QStringLiteral("compensation_workflow"), workflowOf(s.value(), nullptr));
    out.insert(QStringLiteral("commit_id"), done.value().id);
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::compensationAssign(const QJsonObject &body,
                                                               const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("runs/compensation/assign"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    auto a = runArgs(body, r);
    ReviewRow row;
    QString sla;
    r.string("owner", &row.owner, 256);
    r.string("escalation_owner", &row.escalationOwner, 256);
    r.string("sla_target_at", &sla, 64);
    if (!a)
        return a.error();
    if (!r.ok())
        return r.error();
    if (!sla.isEmpty()) {
        const QDateTime at = QDateTime::fromString(sla, Qt::ISODateWithMs);
        if (!at.isValid())
            return Error::invalidField(QStringLiteral("sla_target_at"),
                                       QStringLiteral("must be an ISO 8601 date-time"));
        row.slaTargetAt = at.toMSecsSinceEpoch();
    }
    if (row.owner.isEmpty() && row.escalationOwner.isEmpty() && sla.isEmpty()
        && a.value().note.isEmpty())
        return Error::make(400, QStringLiteral("automation_compensation_assignment_empty"),
                           QStringLiteral("give at least one of owner, escalation_owner, "
                                          "sla_target_at, note"));
    auto s = loadRun(cb.scope, a.value().runId);
    if (!s)
        return s.error();
    row.automationId = s.value().run.automationId;
    row.runId = s.value().run.runId;
    row.kind = QStringLiteral("compensation_assignment");
    row.note = a.value().note;
    row.actor = cb.actor.id;
    auto done = commit(cb.scope, QStringLiteral("automation_compensation"), cb.actor, cb.inputSha,
                       {{QStringLiteral("automation_compensation_assign"),
                         QJsonObject{{QStringLiteral("run_id"), row.runId},
                                     {QStringLiteral("owner"), nullableText(row.owner)}}}},
                       [&](QSqlDatabase &sql) {
                           return AutomationRows::insertReview(sql, cb.scope.tenantId,
                                                               cb.scope.scope, row);
                       });
    if (!done)
        return done.error();
    QJsonObject out = head(cb.scope);
    out.insert(QStringLiteral("run_id"), row.runId);
    out.insert(QStringLiteral("assignment"), reviewJson(row));
    out.insert(QStringLiteral("compensation_workflow"), workflowOf(s.value(), nullptr));
    out.insert(QStringLiteral("commit_id"), done.value().id);
    return out;
}

// ------------------------------------------------------------------------------------------
// Shadow validation, report, policy matrix, telemetry

Result<QJsonObject> AutomationEngine::Impl::shadowValidate(const QJsonObject &body,
                                                           const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("shadow/validate"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    QString id, mode = QStringLiteral("inline");
    std::optional<int> version;
    QJsonObject params;
    r.requiredString("automation_id", &id, 128);
    r.integer("shadow_version", &version, 1, 1000000);
    r.enumValue("mode", &mode, {QStringLiteral("inline"), QStringLiteral("enqueue")});
    r.object("params", &params);
    if (!r.ok())
        return r.error();
    auto def = loadDef(cb.scope, id);
    if (!def)
        return def.error();
    auto row = loadVersion(cb.scope, id, version.value_or(def.value().latestVersion));
    if (!row)
        return row.error();
    if (row.value().status != kShadow)
        return conflict(QStringLiteral("automation_version_not_shadow"),
                        QStringLiteral("version %1 is %2, not shadow")
                            .arg(row.value().version)
                            .arg(row.value().status),
                        {{QStringLiteral("version"), row.value().version},
                         {QStringLiteral("status"), row.value().status}});
    QJsonObject out = head(cb.scope);
    out.insert(QStringLiteral("automation_id"), id);
    out.insert(QStringLiteral("shadow_version"), row.value().version);
    out.insert(QStringLiteral("mode"), mode);
    if (mode == QLatin1String("inline")) {
        auto started = startRun(cb.scope, cb.actor, cb.inputSha, def.value(), row.value(), kShadow,
                                params, {}, meta);
        if (!started)
            return started.error();
        auto s = loadRun(cb.scope, started.value());
        if (!s)
            return s.error();
        out.insert(QStringLiteral("run"), runJson(s.value().run));
        QJsonArray nodes;
        for (const NodeRow &n : s.value().nodes)
            nodes.append(nodeJson(n));
        out.insert(QStringLiteral("nodes"), nodes);
        return out;
    }
    ShadowRequestRow req;
    req.requestId = randomUuid();
    req.tenantId = cb.scope.tenantId;
    req.scope = cb.scope.scope;
    req.automationId = id;
    req.version = row.value().version;
    req.status = kQueued;
    req.params = params;
    req.requestedBy = cb.actor.id;
    req.createdAt = req.updatedAt = nowMs();
    auto done
        = commit(cb.scope, QStringLiteral("automation_review"), cb.actor, cb.inputSha,
                 {{QStringLiteral("automation_shadow_validate_enqueued"),
                   QJsonObject{{QStringLiteral("request_id"), req.requestId},
                               {QStringLiteral("automation_id"), id},
                               {QStringLiteral("shadow_version"), req.version}}}},
                 [&](QSqlDatabase &sql) { return AutomationRows::saveShadowRequest(sql, req); });
    if (!done)
        return done.error();
    out.insert(QStringLiteral("request"), shadowRequestJson(req));
    out.insert(QStringLiteral("commit_id"), done.value().id);
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::shadowDispatch(const QJsonObject &body,
                                                           const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("shadow/validate/dispatch"), body, meta);
    if (!b)
        return b.error();
    const CallBasics &cb = b.value();
    JsonReader r(body);
    std::optional<int> limit;
    std::optional<bool> dryRun;
    r.integer("limit", &limit, 1, 100);
    r.boolean("dry_run", &dryRun);
    if (!r.ok())
        return r.error();
    auto conn = db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase sql = conn.value();
    auto queued = AutomationRows::queuedShadowRequests(sql, cb.scope.tenantId, cb.scope.scope,
                                                       limit.value_or(10));
    if (!queued)
        return queued.error();
    QJsonObject out = head(cb.scope);
    out.insert(QStringLiteral("dry_run"), dryRun.value_or(false));
    QJsonArray results;
    int dispatched = 0;
    for (ShadowRequestRow req : queued.value()) {
        if (dryRun.value_or(false)) {
            results.append(QJsonObject{{QStringLiteral("request"), shadowRequestJson(req)}});
            continue;
        }
        QJsonObject result;
        auto def = loadDef(cb.scope, req.automationId);
        Result<VersionRow> row = def ? loadVersion(cb.scope, req.automationId, req.version)
                                     : Result<VersionRow>(def.error());
        Result<QString> started = row ? startRun(cb.scope, cb.actor, cb.inputSha, def.value(),
                                                 row.value(), kShadow, req.params, {}, meta)
                                      : Result<QString>(row.error());
        req.updatedAt = nowMs();
        if (started) {
            req.status = QStringLiteral("completed");
            req.runId = started.value();
            auto s = loadRun(cb.scope, req.runId);
            if (s)
                result.insert(QStringLiteral("run"), runJson(s.value().run));
            ++dispatched;
        } else {
            req.status = kFailed;
            req.errorCode = started.error().code;
            result.insert(QStringLiteral("error"),
                          QJsonObject{{QStringLiteral("code"), started.error().code},
                                      {QStringLiteral("message"), started.error().message}});
        }
        auto saved
            = commit(cb.scope, QStringLiteral("automation_review"), cb.actor, cb.inputSha,
                     {{QStringLiteral("automation_shadow_validate_dispatched"),
                       QJsonObject{{QStringLiteral("request_id"), req.requestId},
                                   {QStringLiteral("status"), req.status},
                                   {QStringLiteral("run_id"), nullableText(req.runId)}}}},
                     [&](QSqlDatabase &w) { return AutomationRows::saveShadowRequest(w, req); });
        if (!saved)
            return saved.error();
        result.insert(QStringLiteral("request"), shadowRequestJson(req));
        results.append(result);
    }
    out.insert(QStringLiteral("dispatched"), dispatched);
    out.insert(QStringLiteral("queued_seen"), int(queued.value().size()));
    out.insert(QStringLiteral("results"), results);
    return out;
}

namespace {

QJsonObject runStats(const QVector<RunRow> &runs)
{
    int total = 0, terminal = 0, succeeded = 0, failed = 0, paused = 0;
    QVector<double> durations;
    for (const RunRow &r : runs) {
        ++total;
        if (r.state == QLatin1String("terminal")) {
            ++terminal;
            if (r.outcome == QLatin1String("succeeded"))
                ++succeeded;
            else
                ++failed;
            if (r.startedAt > 0 && r.endedAt >= r.startedAt)
                durations << double(r.endedAt - r.startedAt) / 1000.0;
        }
        if (r.state == QLatin1String("paused"))
            ++paused;
    }
    return {{QStringLiteral("total"), total},
            {QStringLiteral("terminal"), terminal},
            {QStringLiteral("succeeded"), succeeded},
            {QStringLiteral("failed"), failed},
            {QStringLiteral("paused"), paused},
            {QStringLiteral("success_rate"), rate(succeeded, terminal)},
            {QStringLiteral("p95_duration_seconds"), p95(durations)}};
}

} // namespace

Result<QJsonObject> AutomationEngine::Impl::shadowReport(const QJsonObject &body,
                                                         const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("shadow/report"), body, meta);
    if (!b)
        return b.error();
    const CallScope &cs = b.value().scope;
    JsonReader r(body);
    QString id;
    std::optional<int> version, window;
    r.requiredString("automation_id", &id, 128);
    r.integer("shadow_version", &version, 1, 1000000);
    r.integer("window_hours", &window, 1, 720);
    if (!r.ok())
        return r.error();
    auto def = loadDef(cs, id);
    if (!def)
        return def.error();
    const int v = version.value_or(def.value().latestVersion);
    auto row = loadVersion(cs, id, v);
    if (!row)
        return row.error();
    auto conn = db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase sql = conn.value();
    const qint64 since = nowMs() - qint64(window.value_or(168)) * 3600 * 1000;
    auto runs = AutomationRows::listRuns(sql, cs.tenantId, cs.scope, id, since, 100000);
    if (!runs)
        return runs.error();
    QVector<RunRow> shadow, active;
    for (const RunRow &run : runs.value()) {
        if (run.mode == kShadow && run.version == v)
            shadow << run;
        else if (run.mode != kShadow)
            active << run;
    }
    auto reviews = AutomationRows::shadowReviews(sql, cs.tenantId, cs.scope, id);
    if (!reviews)
        return reviews.error();
    QJsonValue review;
    for (const QJsonValue &rv : reviews.value()) {
        if (rv.toObject().value(QStringLiteral("version")).toInt() == v)
            review = rv;
    }
    const QJsonObject shadowStats = runStats(shadow);
    const QJsonObject activeStats = runStats(active);
    QJsonArray blockers;
    if (row.value().status != kShadow)
        blockers.append(QStringLiteral("version_not_shadow"));
    if (shadowStats.value(QStringLiteral("terminal")).toInt() == 0)
        blockers.append(QStringLiteral("no_shadow_runs"));
    else if (shadowStats.value(QStringLiteral("failed")).toInt() > 0)
        blockers.append(QStringLiteral("shadow_failures"));
    const QString verdict = review.toObject().value(QStringLiteral("verdict")).toString();
    if (review.isNull() || review.isUndefined())
        blockers.append(QStringLiteral("shadow_review_missing"));
    else if (verdict != QLatin1String("approved"))
        blockers.append(QStringLiteral("shadow_review_not_approved"));
    const bool ready = blockers.isEmpty() && v == def.value().latestVersion;
    if (v != def.value().latestVersion)
        blockers.append(QStringLiteral("not_latest_version"));
    const QJsonValue shadowRate = shadowStats.value(QStringLiteral("success_rate"));
    const QJsonValue activeRate = activeStats.value(QStringLiteral("success_rate"));
    QJsonObject out = head(cs);
    out.insert(QStringLiteral("automation_id"), id);
    out.insert(QStringLiteral("shadow_version"), v);
    out.insert(QStringLiteral("version_status"), row.value().status);
    out.insert(QStringLiteral("window_hours"), window.value_or(168));
    out.insert(QStringLiteral("shadow"), shadowStats);
    out.insert(QStringLiteral("active"), activeStats);
    out.insert(QStringLiteral("comparison"),
               QJsonObject{{QStringLiteral("success_rate_delta"),
                            shadowRate.isDouble() && activeRate.isDouble() ? QJsonValue(
                                rounded4(shadowRate.toDouble() - activeRate.toDouble()))
                                                                           : QJsonValue()}});
    out.insert(QStringLiteral("shadow_review"), review.isUndefined() ? QJsonValue() : review);
    out.insert(QStringLiteral("promotion_readiness"),
               QJsonObject{{QStringLiteral("ready"), ready},
                           {QStringLiteral("blockers"), blockers},
                           {QStringLiteral("recommended_action"),
                            ready ? QStringLiteral("promote")
                            : blockers.contains(QStringLiteral("no_shadow_runs"))
                                ? QStringLiteral("shadow_validate")
                            : blockers.contains(QStringLiteral("shadow_review_missing"))
                                ? QStringLiteral("shadow_review")
                                : QStringLiteral("fix_and_recreate")}});
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::policyMatrix(const QJsonObject &body,
                                                         const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("compensation/policy_matrix"), body, meta);
    if (!b)
        return b.error();
    const CallScope &cs = b.value().scope;
    JsonReader r(body);
    QString id;
    std::optional<int> version;
    r.requiredString("automation_id", &id, 128);
    r.integer("version", &version, 1, 1000000);
    if (!r.ok())
        return r.error();
    auto def = loadDef(cs, id);
    if (!def)
        return def.error();
    auto row = loadVersion(cs, id, version.value_or(def.value().latestVersion));
    if (!row)
        return row.error();
    auto graph = AutomationGraphs::parse(row.value().graph);
    if (!graph)
        return graph.error();
    const AutomationGraphCheck check = AutomationGraphs::check(graph.value());
    QJsonArray rows;
    int compensable = 0, required = 0;
    QJsonObject byTrigger{{QStringLiteral("on_failure"), 0},
                          {QStringLiteral("on_cancel"), 0},
                          {QStringLiteral("on_reject"), 0}};
    const QStringList order = check.topologicalOrder;
    int compensationOrder = 0;
    QHash<QString, int> reverseIndex;
    for (int i = order.size() - 1; i >= 0; --i) {
        const CompensationPolicy p = compensationPolicyOf(graph.value().node(order[i])->raw);
        if (p.mode != QLatin1String("none"))
            reverseIndex.insert(order[i], compensationOrder++);
    }
    for (int i = 0; i < order.size(); ++i) {
        const AutomationGraphNode *n = graph.value().node(order[i]);
        const CompensationPolicy p = compensationPolicyOf(n->raw);
        const bool active = p.mode != QLatin1String("none");
        if (active)
            ++compensable;
        if (p.mode == QLatin1String("required"))
            ++required;
        QJsonObject entry{
            {QStringLiteral("node_id"), n->nodeId},
            {QStringLiteral("kind"), n->kind},
            {QStringLiteral("topological_index"), i},
            {QStringLiteral("mode"), p.mode},
            {QStringLiteral("triggers"),
             active ? QJsonArray::fromStringList(p.triggers) : QJsonArray()},
            {QStringLiteral("compensation_playbook_id"), nullableText(p.playbookId)},
            {QStringLiteral("compensation_version"),
             p.version ? QJsonValue(*p.version) : QJsonValue()},
            {QStringLiteral("compensation_order"), reverseIndex.contains(n->nodeId)
                                                       ? QJsonValue(reverseIndex.value(n->nodeId))
                                                       : QJsonValue()}};
        for (const char *t : {"on_failure", "on_cancel", "on_reject"}) {
            const bool on = active && p.triggers.contains(QLatin1String(t));
            entry.insert(QLatin1String(t), on);
            if (on)
                byTrigger.insert(QLatin1String(t), byTrigger.value(QLatin1String(t)).toInt() + 1);
        }
        rows.append(entry);
    }
    QJsonObject out = head(cs);
    out.insert(QStringLiteral("automation_id"), id);
    out.insert(QStringLiteral("version"), row.value().version);
    out.insert(QStringLiteral("matrix"), rows);
    out.insert(QStringLiteral("summary"),
               QJsonObject{{QStringLiteral("node_count"), int(order.size())},
                           {QStringLiteral("compensable_nodes"), compensable},
                           {QStringLiteral("required_nodes"), required},
                           {QStringLiteral("by_trigger"), byTrigger},
                           {QStringLiteral("shadow_runs_compensate"), false}});
    return out;
}

Result<QJsonObject> AutomationEngine::Impl::telemetry(const QJsonObject &body,
                                                      const RequestMeta &meta)
{
    auto b = basics(QStringLiteral("telemetry"), body, meta);
    if (!b)
        return b.error();
    const CallScope &cs = b.value().scope;
    JsonReader r(body);
    QString id;
    std::optional<int> window, incidentLimit;
    r.string("automation_id", &id, 128);
    r.integer("window_hours", &window, 1, 720);
    r.integer("incident_limit", &incidentLimit, 0, 100);
    if (!r.ok())
        return r.error();
    const int hours = window.value_or(24);
    const qint64 now = nowMs();
    const qint64 since = now - qint64(hours) * 3600 * 1000;
    auto conn = db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase sql = conn.value();
    auto runs = AutomationRows::listRuns(sql, cs.tenantId, cs.scope, id, since, 1000000);
    if (!runs)
        return runs.error();
    int total = 0, terminal = 0, succeeded = 0, paused = 0, repairPaused = 0, approvalPaused = 0,
        everPaused = 0, compAttempted = 0, compFailed = 0, shadow = 0, active = 0;
    QVector<double> durations;
    QHash<QString, int> causes;
    QJsonArray incidents;
    // Buckets: hours up to two days, days beyond.
    const qint64 bucketMs = hours <= 48 ? 3600LL * 1000 : 24LL * 3600 * 1000;
    const int bucketCount = int((now - since + bucketMs - 1) / bucketMs);
    QVector<QVector<RunRow>> buckets(bucketCount);
    for (const RunRow &run : runs.value()) {
        ++total;
        if (run.mode == kShadow)
            ++shadow;
        else
            ++active;
        if (run.everPaused)
            ++everPaused;
        if (run.state == kPaused) {
            ++paused;
            if (run.pauseReason == kRepairRequired)
                ++repairPaused;
            if (run.pauseReason == kApprovalRequired)
                ++approvalPaused;
        }
        if (run.compensationAttempted)
            ++compAttempted;
        if (run.compensationStatus == kFailed)
            ++compFailed;
        if (run.state == kTerminal) {
            ++terminal;
            if (run.outcome == kSucceeded)
                ++succeeded;
            if (run.startedAt > 0 && run.endedAt >= run.startedAt)
                durations << double(run.endedAt - run.startedAt) / 1000.0;
        }
        if (!run.rootCauseCode.isEmpty())
            causes[run.rootCauseCode] += 1;
        if (run.state == kTerminal && run.outcome != kSucceeded
            && incidents.size() < incidentLimit.value_or(10))
            incidents.append(QJsonObject{
                {QStringLiteral("run_id"), run.runId},
                {QStringLiteral("automation_id"), run.automationId},
                {QStringLiteral("terminal_outcome"), run.outcome},
                {QStringLiteral("root_cause_code"), nullableText(run.rootCauseCode)},
                {QStringLiteral("root_cause_node_id"), nullableText(run.rootCauseNodeId)},
                {QStringLiteral("root_cause_message"), nullableText(run.rootCauseMessage)},
                {QStringLiteral("compensation_status"), nullableText(run.compensationStatus)},
                {QStringLiteral("ended_at"), isoOrNull(run.endedAt)}});
        const int bi = int((run.createdAt - since) / bucketMs);
        if (bi >= 0 && bi < bucketCount)
            buckets[bi] << run;
    }
    const QJsonValue successRate = rate(succeeded, terminal);
    const QJsonValue compFailureRate = rate(compFailed, compAttempted);
    const double successTarget = 0.95, compBudget = 0.02;
    const bool successMet = !successRate.isDouble() || successRate.toDouble() >= successTarget;
    const bool budgetMet = !compFailureRate.isDouble() || compFailureRate.toDouble() <= compBudget;
    QJsonArray alerts;
    if (!successMet)
        alerts.append(
            QJsonObject{{QStringLiteral("code"), QStringLiteral("success_rate_below_slo")},
                        {QStringLiteral("value"), successRate},
                        {QStringLiteral("target"), successTarget}});
    if (!budgetMet)
        alerts.append(QJsonObject{
            {QStringLiteral("code"), QStringLiteral("compensation_failure_budget_exceeded")},
            {QStringLiteral("value"), compFailureRate},
            {QStringLiteral("target"), compBudget}});
    if (repairPaused > 0)
        alerts.append(
            QJsonObject{{QStringLiteral("code"), QStringLiteral("runs_waiting_for_repair")},
                        {QStringLiteral("value"), repairPaused}});
    QVector<std::pair<QString, int>> causeList;
    for (auto it = causes.begin(); it != causes.end(); ++it)
        causeList.append({it.key(), it.value()});
    std::sort(causeList.begin(), causeList.end(), [](const auto &x, const auto &y) {
        return x.second != y.second ? x.second > y.second : x.first < y.first;
    });
    QJsonArray rootCauses;
    for (const auto &[code, count] : causeList)
        rootCauses.append(QJsonObject{{QStringLiteral("root_cause_code"), code},
                                      {QStringLiteral("count"), count}});
    QJsonArray series;
    for (int i = 0; i < bucketCount; ++i) {
        const QJsonObject stats = runStats(buckets[i]);
        int pausedEver = 0;
        for (const RunRow &run : buckets[i])
            pausedEver += run.everPaused ? 1 : 0;
        series.append(QJsonObject{
            {QStringLiteral("bucket_start"), isoOrNull(since + i * bucketMs)},
            {QStringLiteral("total"), stats.value(QStringLiteral("total"))},
            {QStringLiteral("succeeded"), stats.value(QStringLiteral("succeeded"))},
            {QStringLiteral("success_rate"), stats.value(QStringLiteral("success_rate"))},
            {QStringLiteral("pause_rate"), rate(pausedEver, int(buckets[i].size()))},
            {QStringLiteral("p95_duration_seconds"),
             stats.value(QStringLiteral("p95_duration_seconds"))}});
    }
    QJsonObject out = head(cs);
    out.insert(QStringLiteral("automation_id"), nullableText(id));
    out.insert(QStringLiteral("window_hours"), hours);
    out.insert(QStringLiteral("counts"),
               QJsonObject{{QStringLiteral("total"), total},
                           {QStringLiteral("terminal"), terminal},
                           {QStringLiteral("succeeded"), succeeded},
                           {QStringLiteral("paused"), paused},
                           {QStringLiteral("repair_paused"), repairPaused},
                           {QStringLiteral("approval_paused"), approvalPaused},
                           {QStringLiteral("ever_paused"), everPaused},
                           {QStringLiteral("compensation_attempted"), compAttempted},
                           {QStringLiteral("compensation_failed"), compFailed},
                           {QStringLiteral("shadow"), shadow},
                           {QStringLiteral("active"), active}});
    out.insert(QStringLiteral("success_rate"), successRate);
    out.insert(QStringLiteral("pause_rate"), rate(everPaused, total));
    out.insert(QStringLiteral("compensation_failure_rate"), compFailureRate);
    out.insert(QStringLiteral("p95_duration_seconds"), p95(durations));
    out.insert(QStringLiteral("slo"),
               QJsonObject{{QStringLiteral("success_rate_target"), successTarget},
                           {QStringLiteral("compensation_failure_budget_target"), compBudget},
                           {QStringLiteral("success_rate_met"), successMet},
                           {QStringLiteral("compensation_failure_budget_met"), budgetMet}});
    out.insert(QStringLiteral("alert_candidates"), alerts);
    out.insert(QStringLiteral("root_causes"), rootCauses);
    out.insert(QStringLiteral("incidents"), incidents);
    out.insert(QStringLiteral("series"), series);
    out.insert(QStringLiteral("bucket_hours"), int(bucketMs / (3600 * 1000)));
    return out;
}

// ------------------------------------------------------------------------------------------
// Recovery

void AutomationEngine::Impl::recoverAll()
{
    auto conn = db.connection();
    if (!conn)
        return;
    QSqlDatabase sql = conn.value();
    auto ids = AutomationRows::runIdsInStates(sql, {kQueued, kRunning, kCompensating});
    if (!ids) {
        qCWarning(lcAutomation).noquote() << "recovery: cannot list runs:" << ids.error().message;
        return;
    }
    const CommitActor actor{QStringLiteral("automation_recovery"), QString()};
    for (const QString &id : ids.value()) {
        if (stopping)
            return;
        qCInfo(lcAutomation).noquote() << "resuming automation run" << id;
        drive(id, actor, RequestMeta());
    }
}

// ------------------------------------------------------------------------------------------

AutomationEngine::AutomationEngine(Database &db, const ServiceConfig &config,
                                   PlaybookGateway *gateway, CommitNotifier notify)
    : d(std::make_unique<Impl>(db, config, gateway, std::move(notify)))
{
}

AutomationEngine::~AutomationEngine()
{
    d->stopping = true;
    if (d->recovery) {
        d->recovery->wait();
        delete d->recovery;
    }
}

const QStringList &AutomationEngine::routePaths()
{
    static const QStringList v{QStringLiteral("create"),
                               QStringLiteral("get"),
                               QStringLiteral("list"),
                               QStringLiteral("validate"),
                               QStringLiteral("graph/validate"),
                               QStringLiteral("run"),
                               QStringLiteral("runs/get"),
                               QStringLiteral("runs/list"),
                               QStringLiteral("runs/cancel"),
                               QStringLiteral("runs/resume"),
                               QStringLiteral("runs/approve_repair"),
                               QStringLiteral("runs/reject_repair"),
                               QStringLiteral("runs/assign_reviewer"),
                               QStringLiteral("assign_reviewer"),
                               QStringLiteral("promote"),
                               QStringLiteral("shadow/review"),
                               QStringLiteral("shadow/report"),
                               QStringLiteral("shadow/validate"),
                               QStringLiteral("shadow/validate/dispatch"),
                               QStringLiteral("runs/compensation/retry"),
                               QStringLiteral("runs/compensation/record_action"),
                               QStringLiteral("runs/compensation/assign"),
                               QStringLiteral("compensation/policy_matrix"),
                               QStringLiteral("telemetry")};
    return v;
}

bool AutomationEngine::isReadRoute(const QString &path)
{
    static const QStringList reads{
        QStringLiteral("get"),           QStringLiteral("list"),
        QStringLiteral("validate"),      QStringLiteral("graph/validate"),
        QStringLiteral("runs/get"),      QStringLiteral("runs/list"),
        QStringLiteral("shadow/report"), QStringLiteral("compensation/policy_matrix"),
        QStringLiteral("telemetry")};
    return reads.contains(path);
}

Result<QJsonObject> AutomationEngine::call(const QString &path, const QJsonObject &body,
                                           const RequestMeta &meta)
{
    Impl &i = *d;
    if (path == QLatin1String("create"))
        return i.create(body, meta);
    if (path == QLatin1String("get"))
        return i.get(body, meta);
    if (path == QLatin1String("list"))
        return i.list(body, meta);
    if (path == QLatin1String("validate"))
        return i.validate(body, meta, false);
    if (path == QLatin1String("graph/validate"))
        return i.validate(body, meta, true);
    if (path == QLatin1String("run"))
        return i.run(body, meta);
    if (path == QLatin1String("runs/get"))
        return i.runsGet(body, meta);
    if (path == QLatin1String("runs/list"))
        return i.runsList(body, meta);
    if (path == QLatin1String("runs/cancel"))
        return i.cancel(body, meta);
    if (path == QLatin1String("runs/resume") || path == QLatin1String("runs/approve_repair"))
        return i.resume(body, meta, path);
    if (path == QLatin1String("runs/reject_repair"))
        return i.rejectRepair(body, meta);
    if (path == QLatin1String("runs/assign_reviewer"))
        return i.runAssignReviewer(body, meta);
    if (path == QLatin1String("assign_reviewer"))
        return i.assignReviewer(body, meta);
    if (path == QLatin1String("promote"))
        return i.promote(body, meta);
    if (path == QLatin1String("shadow/review"))
        return i.shadowReview(body, meta);
    if (path == QLatin1String("shadow/report"))
        return i.shadowReport(body, meta);
    if (path == QLatin1String("shadow/validate"))
        return i.shadowValidate(body, meta);
    if (path == QLatin1String("shadow/validate/dispatch"))
        return i.shadowDispatch(body, meta);
    if (path == QLatin1String("runs/compensation/retry"))
        return i.compensationRetry(body, meta);
    if (path == QLatin1String("runs/compensation/record_action"))
        return i.compensationRecord(body, meta);
    if (path == QLatin1String("runs/compensation/assign"))
        return i.compensationAssign(body, meta);
    if (path == QLatin1String("compensation/policy_matrix"))
        return i.policyMatrix(body, meta);
    if (path == QLatin1String("telemetry"))
        return i.telemetry(body, meta);
    return Error::make(404, QStringLiteral("not_found"),
                       QStringLiteral("no automation route %1").arg(path));
}

void AutomationEngine::onReplayRunEnded(const CallScope &scope, const QString &replayRunId,
                                        const QString &status, const RequestMeta &meta)
{
    if (status != QLatin1String("success") && status != QLatin1String("failed")
        && status != QLatin1String("partial"))
        return;
    auto conn = d->db.connection();
    if (!conn)
        return;
    QSqlDatabase sql = conn.value();
    auto waiting = AutomationRows::nodeAwaitingReplay(sql, replayRunId.toLower());
    if (!waiting || !waiting.value())
        return; // no node waits for it; a node about to wait checks the run's end itself
    const auto [runId, nodeId] = *waiting.value();
    auto lock = d->lockFor(runId);
    std::lock_guard<std::recursive_mutex> guard(*lock);
    auto loaded = d->loadRunAnyScope(runId);
    if (!loaded)
        return;
    RunState &s = loaded.value();
    if (s.run.tenantId != scope.tenantId || s.run.scope != scope.scope)
        return;
    const int i = s.indexOf(nodeId);
    if (i < 0 || !s.nodes[i].awaitingReplay || s.nodes[i].playbookRunId != replayRunId.toLower())
        return;
    const CommitActor actor = commitActor(QString(), meta, d->config);
    if (d->applyReplayEnd(s, i, status, actor, meta))
        d->drive(runId, actor, meta);
}

void AutomationEngine::startRecovery()
{
    if (d->recovery)
        return;
    {
        std::lock_guard<std::mutex> g(d->recoveryGuard);
        d->recovering = true;
    }
    d->recovery = QThread::create([this] {
        d->recoverAll();
        std::lock_guard<std::mutex> g(d->recoveryGuard);
        d->recovering = false;
        d->recoveryDone.notify_all();
    });
    d->recovery->setObjectName(QStringLiteral("automation-recovery"));
    d->recovery->start();
}

bool AutomationEngine::waitForRecovery(int timeoutMs)
{
    std::unique_lock<std::mutex> g(d->recoveryGuard);
    return d->recoveryDone.wait_for(g, std::chrono::milliseconds(timeoutMs),
                                    [this] { return !d->recovering; });
}

void AutomationEngine::setTransitionHook(std::function<void(const QString &, const QString &)> hook)
{
    d->hook = std::move(hook);
}

} // namespace MemoryGraph
