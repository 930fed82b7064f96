#include "service/automation/automationengine.h"

#include "service/automation/automationimpl.h"
#include "service/core/hashing.h"

#include <QJsonArray>
#include <QThread>

#include <algorithm>
#include <cmath>

namespace MemoryGraph {

namespace AutomationDetail {

Q_LOGGING_CATEGORY(lcAutomation, "memorygraph.automation")

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

Error conflict(const QString &code, const QString &message, const QJsonObject &details)
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

} // namespace AutomationDetail

using namespace AutomationDetail;
using namespace AutomationRows;

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
