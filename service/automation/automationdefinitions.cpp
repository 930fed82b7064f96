#include "service/automation/automationimpl.h"
#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/core/jsonreader.h"

#include <QJsonArray>

#include <algorithm>

namespace MemoryGraph {

using namespace AutomationDetail;
using namespace AutomationRows;

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

} // namespace MemoryGraph
