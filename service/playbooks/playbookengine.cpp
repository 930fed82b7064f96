#include "service/playbooks/playbookengine.h"

#include "service/core/ids.h"
#include "service/core/jsonvalues.h"
#include "service/playbooks/playbooksupport.h"
#include "service/playbooks/playbooktemplate.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"

#include <QDateTime>
#include <QHash>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <mutex>

namespace MemoryGraph {

using namespace PlaybookSupport;

PlaybookEngine::PlaybookEngine(Database &db, const ServiceConfig &config, WriteFn write)
    : m_db(db), m_config(config), m_write(std::move(write))
{
}

Result<Viewer> PlaybookEngine::readerViewer(const ReplayWriteCommon &common,
                                            const RequestMeta &meta) const
{
    return resolveViewer(common.consumer.agentId, common.consumer.teamId, meta, m_config);
}

Result<Viewer> PlaybookEngine::writerViewer(const ReplayWriteCommon &common,
                                            const RequestMeta &meta) const
{
    // As for replay records: a writer that names no consumer reads as the identity it writes
    // with.
    ReplayConsumer consumer = common.consumer;
    if (consumer.agentId.isEmpty() && !meta.principal)
        consumer.agentId
            = !common.ownerAgentId.isEmpty() ? common.ownerAgentId : common.producerAgentId;
    if (consumer.teamId.isEmpty() && !meta.principal)
        consumer.teamId = common.ownerTeamId;
    return resolveViewer(consumer.agentId, consumer.teamId, meta, m_config);
}

Result<QVector<PlaybookEngine::Version>>
PlaybookEngine::versions(const CallScope &cs, const QString &playbookId,
                         const std::optional<Viewer> &viewer)
{
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto found = GraphStore::nodesByClientIdOrPrefix(conn.value(), cs.tenantId, cs.scope, {},
                                                     {versionPrefix(playbookId)});
    if (!found)
        return found.error();
    QVector<Version> out;
    for (const NodeRecord &n : found.value()) {
        if (slotText(n, "replay_kind") != kKindPlaybook || slotText(n, "playbook_id") != playbookId)
            continue;
        if (viewer && !viewer->sees(n))
            continue;
        const QJsonValue v = n.slotData.value(QStringLiteral("version"));
        const int version
            = v.isDouble() && v.toDouble() == std::floor(v.toDouble()) ? v.toInt() : 1;
        QString status = slotText(n, "status");
        if (!PlaybookVocabulary::statuses().contains(status))
            status = QStringLiteral("draft");
        out.append(Version{n, version, status});
    }
    std::stable_sort(out.begin(), out.end(), [](const Version &a, const Version &b) {
        if (a.version != b.version)
            return a.version < b.version;
        return a.node.createdAt < b.node.createdAt;
    });
    return out;
}

Result<PlaybookEngine::Version> PlaybookEngine::pick(const QVector<Version> &all,
                                                     const CallScope &cs, const QString &playbookId,
                                                     std::optional<int> version,
                                                     const QString &versionCode)
{
    if (all.isEmpty())
        return playbookNotFound(cs, playbookId);
    if (!version)
        return all.last();
    for (int i = int(all.size()) - 1; i >= 0; --i) {
        if (all[i].version == *version)
            return all[i];
    }
    if (versionCode == QLatin1String("replay_playbook_not_found"))
        return playbookNotFound(cs, playbookId);
    return versionNotFound(cs, playbookId, *version, versionCode);
}

Result<PlaybookEngine::Written>
PlaybookEngine::writeVersion(const CallScope &cs, const ReplayWriteCommon &common,
                             const QJsonObject &slotData, const NodeRecord *source,
                             const QStringList &provenanceIds, const RequestMeta &meta)
{
    if (!m_write)
        return Error::internal(QStringLiteral("playbook engine has no write path"));
    const QString playbookId = slotData.value(QStringLiteral("playbook_id")).toString();
    const int version = slotData.value(QStringLiteral("version")).toInt();
    const QString clientId = versionClientId(playbookId, version);
    const QString name = slotData.value(QStringLiteral("name")).toString();
    const QString status = slotData.value(QStringLiteral("status")).toString();
    const int steps = int(slotData.value(QStringLiteral("steps_template")).toArray().size());
    QJsonObject node{{QStringLiteral("client_id"), clientId},
                     {QStringLiteral("type"), QStringLiteral("procedure")},
                     {QStringLiteral("title"),
                      QStringLiteral("Playbook %1 v%2 (%3)").arg(name).arg(version).arg(status)},
                     {QStringLiteral("text_summary"),
                      QStringLiteral("Replay playbook %1 version %2: %3 steps, %4")
                          .arg(name)
                          .arg(version)
                          .arg(steps)
                          .arg(status)},
                     {QStringLiteral("slots"), slotData}};
    // A new version keeps the lane and owners of the version it comes from unless the request
    // names them (and only owners the caller may claim).
    if (source) {
        const Principal *p = meta.principal ? &*meta.principal : nullptr;
        const bool anyIdentity = !p || isServiceAccount(*p);
        if (common.memoryLane.isEmpty())
            node.insert(QStringLiteral("memory_lane"), source->memoryLane);
        if (common.ownerAgentId.isEmpty() && common.ownerTeamId.isEmpty()) {
            if (!source->ownerAgentId.isEmpty()
                && (anyIdentity || source->ownerAgentId == p->agentId))
                node.insert(QStringLiteral("owner_agent_id"), source->ownerAgentId);
            if (!source->ownerTeamId.isEmpty() && (anyIdentity || source->ownerTeamId == p->teamId))
                node.insert(QStringLiteral("owner_team_id"), source->ownerTeamId);
        }
    }
    QJsonArray edges;
    for (const QString &id : provenanceIds) {
        edges.append(QJsonObject{
            {QStringLiteral("type"), QStringLiteral("derived_from")},
            {QStringLiteral("src"), QJsonObject{{QStringLiteral("client_id"), clientId}}},
            {QStringLiteral("dst"), QJsonObject{{QStringLiteral("id"), id}}}});
    }
    QJsonObject body{
        {QStringLiteral("tenant_id"), cs.tenantId},
        {QStringLiteral("scope"), cs.scope},
        {QStringLiteral("actor"), common.actor.isEmpty() ? kDefaultActor : common.actor},
        {QStringLiteral("auto_embed"), false},
        {QStringLiteral("nodes"), QJsonArray{node}},
        {QStringLiteral("edges"), edges}};
    if (!common.inputSha256.isEmpty())
        body.insert(QStringLiteral("input_sha256"), common.inputSha256);
    body.insert(
        QStringLiteral("input_text"),
        !common.inputText.isEmpty()
            ? common.inputText
            : QStringLiteral("playbook %1 v%2 %3").arg(playbookId).arg(version).arg(status));
    const std::pair<const char *, const QString *> identity[]
        = {{"memory_lane", &common.memoryLane},
           {"producer_agent_id", &common.producerAgentId},
           {"owner_agent_id", &common.ownerAgentId},
           {"owner_team_id", &common.ownerTeamId}};
    for (const auto &[key, value] : identity) {
        if (!value->isEmpty())
            body.insert(QLatin1String(key), *value);
    }
    auto request = WriteRequest::fromJson(body, m_config.maxTextLength);
    if (!request)
        return request.error();
    auto written = m_write(request.value(), meta);
    if (!written)
        return written.error();
    Written out;
    if (!written.value().nodes.isEmpty()) {
        out.nodeId = written.value().nodes.first().id;
        out.uri = written.value().nodes.first().uri;
    }
    out.commitId = written.value().commitId;
    out.commitUri = written.value().commitUri;
    out.commitHash = written.value().commitHash;
    return out;
}

// --- compile_from_run -------------------------------------------------------------------------

Result<PlaybookOutcome> PlaybookEngine::compileFromRun(const PlaybookCompileRequest &req,
                                                       const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = writerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    ReplayRunGetRequest getRun;
    getRun.tenantId = cs.value().tenantId;
    getRun.scope = cs.value().scope;
    getRun.runId = req.runId;
    getRun.consumer = ReplayConsumer{viewer.value().agentId, viewer.value().teamId};
    auto recordedRun = ReplayEngine(m_db, m_config).runGet(getRun, meta);
    if (!recordedRun)
        return recordedRun.error();
    const ReplayRunView &view = recordedRun.value();
    if (view.run.status != QLatin1String("success") && !req.allowPartial)
        return requiresSuccessfulRun(req.runId, view.run.status);
    if (view.steps.isEmpty())
        return Error::make(400, QStringLiteral("replay_compile_no_steps"),
                           QStringLiteral("the run recorded no step to compile"),
                           {{QStringLiteral("run_id"), req.runId}});

    const QString playbookId = req.playbookId.isEmpty() ? randomUuid() : req.playbookId;
    auto existing = versions(cs.value(), playbookId, std::nullopt);
    if (!existing)
        return existing.error();
    const int version = req.version;
    if (!existing.value().isEmpty()) {
        // Someone else's playbook id is answered like a taken client_id: nothing about it shows.
        for (const Version &v : existing.value()) {
            if (!viewer.value().sees(v.node))
                return Error::make(409, QStringLiteral("client_id_conflict"),
                                   QStringLiteral("playbook_id is already in use in this scope; "
                                                  "choose another"),
                                   {{QStringLiteral("playbook_id"), playbookId}});
        }
        for (const Version &v : existing.value()) {
            if (v.version == version)
                return Error::make(
                    409, QStringLiteral("replay_playbook_version_exists"),
                    QStringLiteral("this playbook already has version %1; "
                                   "change it with promote or repair")
                        .arg(version),
                    {{QStringLiteral("playbook_id"), playbookId},
                     {QStringLiteral("version"), version},
                     {QStringLiteral("latest_version"), existing.value().last().version}});
        }
    }

    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    // Steps in step_index order, one per step/before record.
    QVector<ReplayStepView> recorded = view.steps;
    std::stable_sort(recorded.begin(), recorded.end(),
                     [](const ReplayStepView &a, const ReplayStepView &b) {
                         return a.stepIndex.value_or(0) < b.stepIndex.value_or(0);
                     });
    PlaybookTemplate::Parameterizer params;
    QJsonArray steps;
    QJsonObject previous;
    int dropped = 0;
    QStringList provenance;
    if (!view.run.runNodeId.isEmpty())
        provenance << view.run.runNodeId;
    QStringList tools;
    for (const ReplayStepView &s : std::as_const(recorded)) {
        provenance << s.stepNodeId;
        QJsonValue retryPolicy;
        auto stepNode = GraphStore::findNode(conn.value(), s.stepNodeId);
        if (stepNode && stepNode.value())
            retryPolicy = stepNode.value()->slotData.value(QStringLiteral("retry_policy"));
        QStringList used;
        QJsonObject step{
            {QStringLiteral("step_index"), s.stepIndex.value_or(int(steps.size()) + 1)},
            {QStringLiteral("tool_name"), s.toolName},
            {QStringLiteral("tool_input_template"), params.lift(s.toolInput, &used)},
            // The checks name the same values as the input: they are bound together.
            {QStringLiteral("expected_output_signature"),
             params.lift(s.expectedOutputSignature, &used)},
            {QStringLiteral("preconditions"), params.lift(s.preconditions, &used)},
            {QStringLiteral("postconditions"), s.postconditions},
            {QStringLiteral("retry_policy"), retryPolicy.isObject() ? retryPolicy : QJsonValue()},
            {QStringLiteral("safety_level"),
             s.safetyLevel.isEmpty() ? QStringLiteral("needs_confirm") : s.safetyLevel},
            {QStringLiteral("replay_mode"), QStringLiteral("replay_first_reason_if_needed")},
            {QStringLiteral("last_outcome"), s.status},
            {QStringLiteral("repair_applied_last_run"), s.repairApplied},
            {QStringLiteral("template_variables"), QJsonArray::fromStringList(used)},
            {QStringLiteral("source_step_id"), s.stepId}};
        scoreStep(step);
        if (!previous.isEmpty() && sameStep(previous, step)) {
            ++dropped;
            continue;
        }
        previous = step;
        steps.append(step);
        if (!tools.contains(s.toolName))
            tools << s.toolName;
    }

    QJsonObject successCriteria;
    if (req.successCriteria) {
        successCriteria = *req.successCriteria;
    } else {
        auto end = GraphStore::findNodeByClientId(conn.value(), cs.value().tenantId,
                                                  cs.value().scope, runEndClientId(req.runId));
        if (end && end.value())
            successCriteria
                = end.value()->slotData.value(QStringLiteral("success_criteria")).toObject();
    }
    int lowQuality = 0;
    for (const QJsonValue &s : std::as_const(steps)) {
        if (s.toObject()
                .value(QStringLiteral("quality_flags"))
                .toArray()
                .contains(QStringLiteral("low_quality")))
            ++lowQuality;
    }
    const QJsonObject summary{
        {QStringLiteral("source_run_status"), view.run.status},
        {QStringLiteral("recorded_steps"), int(recorded.size())},
        {QStringLiteral("steps_total"), steps.size()},
        {QStringLiteral("dropped_duplicate_steps"), dropped},
        {QStringLiteral("low_quality_steps"), lowQuality},
        {QStringLiteral("tools"), QJsonArray::fromStringList(tools)},
        {QStringLiteral("parameterization"),
         QJsonObject{{QStringLiteral("variable_count"), params.variables().size()},
                     {QStringLiteral("by_kind"), params.countsByKind()},
                     {QStringLiteral("bound_at_run_time"), true}}}};
    const QString name
        = req.name.isEmpty() ? QStringLiteral("replay_playbook_") + req.runId.left(8) : req.name;
    const QJsonObject slotData{{QStringLiteral("replay_kind"), kKindPlaybook},
                               {QStringLiteral("playbook_id"), playbookId},
                               {QStringLiteral("name"), name},
                               {QStringLiteral("version"), version},
                               {QStringLiteral("status"), QStringLiteral("draft")},
                               {QStringLiteral("matchers"), req.matchers},
                               {QStringLiteral("success_criteria"), successCriteria},
                               {QStringLiteral("risk_profile"), req.riskProfile},
                               {QStringLiteral("created_from_run_ids"), QJsonArray{req.runId}},
                               {QStringLiteral("source_run_id"), req.runId},
                               {QStringLiteral("policy_constraints"), QJsonObject()},
                               {QStringLiteral("steps_template"), steps},
                               {QStringLiteral("template_variables"), params.variables()},
                               {QStringLiteral("compile_summary"), summary},
                               {QStringLiteral("metadata"), req.metadata}};
    // The playbook keeps the lane and owners of the run it was compiled from.
    std::optional<NodeRecord> runNode;
    if (!view.run.runNodeId.isEmpty()) {
        auto found = GraphStore::findNode(conn.value(), view.run.runNodeId);
        if (found && found.value())
            runNode = found.value();
    }
    auto written = writeVersion(cs.value(), req.common, slotData, runNode ? &*runNode : nullptr,
                                provenance, meta);
    if (!written)
        return written.error();
    const qsizetype inputChars = QJsonDocument(QJsonObject{{QStringLiteral("steps"), steps}})
                                     .toJson(QJsonDocument::Compact)
                                     .size();
    QJsonObject body = scopeBody(cs.value());
    merge(body, {{QStringLiteral("playbook_id"), playbookId},
                 {QStringLiteral("name"), name},
                 {QStringLiteral("version"), version},
                 {QStringLiteral("status"), QStringLiteral("draft")},
                 {QStringLiteral("source_run_id"), req.runId},
                 {QStringLiteral("playbook_node_id"), written.value().nodeId},
                 {QStringLiteral("playbook_uri"), written.value().uri},
                 {QStringLiteral("compile_summary"), summary},
                 {QStringLiteral("usage"),
                  QJsonObject{{QStringLiteral("source_chars"), qint64(inputChars)},
                              {QStringLiteral("est_tokens"), qint64((inputChars + 3) / 4)}}}});
    merge(body, commitFields(written.value().commitId, written.value().commitUri,
                             written.value().commitHash));
    return PlaybookOutcome{cs.value(), body};
}

// --- get, candidate ---------------------------------------------------------------------------

QJsonArray PlaybookEngine::playbookRuns(const CallScope &cs, const QString &playbookId,
                                        const Viewer &viewer)
{
    QJsonArray out;
    auto conn = m_db.connection();
    if (!conn)
        return out;
    auto nodes = playbookRunNodes(
        conn.value(), cs, QStringLiteral(" AND json_extract(slots, '$.metadata.playbook_id') = ?"),
        {playbookId}, QStringLiteral("created_at DESC, id DESC"), kRunsListed);
    if (!nodes)
        return out;
    for (const NodeRecord &n : nodes.value()) {
        if (viewer.sees(n))
            out.append(playbookRunJson(conn.value(), cs, n));
    }
    return out;
}

Result<PlaybookOutcome> PlaybookEngine::get(const PlaybookGetRequest &req, const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = readerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto chosen = pick(all.value(), cs.value(), req.playbookId, req.version,
                       QStringLiteral("replay_playbook_version_not_found"));
    if (!chosen)
        return chosen.error();
    QJsonArray history;
    for (const Version &v : all.value())
        history.append(versionSummary(cs.value(), v.node));
    QJsonObject body = scopeBody(cs.value());
    body.insert(QStringLiteral("playbook"), playbookJson(cs.value(), chosen.value().node));
    body.insert(QStringLiteral("latest_version"), all.value().last().version);
    body.insert(QStringLiteral("versions"), history);
    body.insert(QStringLiteral("runs"), playbookRuns(cs.value(), req.playbookId, viewer.value()));
    return PlaybookOutcome{cs.value(), body};
}

Result<PlaybookOutcome> PlaybookEngine::candidate(const PlaybookCandidateRequest &req,
                                                  const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = readerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto chosen = pick(all.value(), cs.value(), req.playbookId, req.version,
                       QStringLiteral("replay_playbook_not_found"));
    if (!chosen)
        return chosen.error();
    const NodeRecord &n = chosen.value().node;
    const GateResult gate = evaluateGate(req.gate, n, QStringLiteral("simulate"));
    const QJsonArray steps = n.slotData.value(QStringLiteral("steps_template")).toArray();
    const QJsonObject quality = qualityOf(steps);
    // Why (not) a candidate: the gate's verdict, then what the version itself says.
    QJsonArray reasons = gate.json.value(QStringLiteral("mismatch_reasons")).toArray();
    if (!req.gate.given || !req.gate.enabled)
        reasons.append(QStringLiteral("deterministic_gate_disabled"));
    if (quality.value(QStringLiteral("low_quality_steps")).toInt() > 0)
        reasons.append(QStringLiteral("low_quality_steps"));
    if (reviewStateOf(n) == kPendingReview)
        reasons.append(QStringLiteral("repair_pending_review"));
    const QString nextAction = gate.matched ? QStringLiteral("dispatch_deterministic_replay")
                               : chosen.value().status == QLatin1String("draft")
                                   ? QStringLiteral("promote_to_shadow_after_simulate")
                                   : QStringLiteral("run_simulate");
    QJsonObject body = scopeBody(cs.value());
    body.insert(QStringLiteral("playbook"), playbookHeader(cs.value(), n));
    body.insert(
        QStringLiteral("candidate"),
        QJsonObject{{QStringLiteral("eligible_for_deterministic_replay"), gate.matched},
                    {QStringLiteral("recommended_mode"),
                     gate.matched && req.gate.preferDeterministic ? QStringLiteral("strict")
                                                                  : QStringLiteral("simulate")},
                    {QStringLiteral("next_action"), nextAction},
                    {QStringLiteral("mismatch_reasons"),
                     gate.json.value(QStringLiteral("mismatch_reasons"))},
                    {QStringLiteral("reasons"), reasons},
                    {QStringLiteral("rejectable"), req.gate.onMismatch == QLatin1String("reject")},
                    {QStringLiteral("quality"), quality}});
    body.insert(QStringLiteral("deterministic_gate"), gate.json);
    body.insert(QStringLiteral("cost_signals"),
                QJsonObject{{QStringLiteral("step_count"), steps.size()},
                            {QStringLiteral("primary_inference_skippable"), gate.matched}});
    return PlaybookOutcome{cs.value(), body};
}

// --- promote, repair, review ------------------------------------------------------------------

Result<PlaybookOutcome> PlaybookEngine::promote(const PlaybookPromoteRequest &req,
                                                const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = writerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto source = pick(all.value(), cs.value(), req.playbookId, req.fromVersion,
                       QStringLiteral("replay_playbook_version_not_found"));
    if (!source)
        return source.error();
    const Version &latest = all.value().last();
    QJsonObject body = scopeBody(cs.value());
    body.insert(QStringLiteral("playbook_id"), req.playbookId);
    if (!req.fromVersion && latest.status == req.targetStatus) {
        merge(body, {{QStringLiteral("from_version"), latest.version},
                     {QStringLiteral("to_version"), latest.version},
                     {QStringLiteral("status"), latest.status},
                     {QStringLiteral("unchanged"), true},
                     {QStringLiteral("reason"), QStringLiteral("already_target_status_on_latest")},
                     {QStringLiteral("playbook_node_id"), latest.node.id},
                     {QStringLiteral("playbook_uri"), uriOf(cs.value(), latest.node)}});
        return PlaybookOutcome{cs.value(), body};
    }
    QJsonObject slotData = source.value().node.slotData;
    const int to = latest.version + 1;
    slotData.insert(QStringLiteral("version"), to);
    slotData.insert(QStringLiteral("status"), req.targetStatus);
    slotData.insert(QStringLiteral("promoted_from_version"), source.value().version);
    slotData.insert(QStringLiteral("promotion_note"), nullable(req.note));
    slotData.remove(QStringLiteral("reviewed_from_version"));
    if (!req.metadata.isEmpty()) {
        QJsonObject md = slotData.value(QStringLiteral("metadata")).toObject();
        merge(md, req.metadata);
        slotData.insert(QStringLiteral("metadata"), md);
    }
    auto written = writeVersion(cs.value(), req.common, slotData, &source.value().node,
                                {source.value().node.id}, meta);
    if (!written)
        return written.error();
    merge(body, {{QStringLiteral("from_version"), source.value().version},
                 {QStringLiteral("to_version"), to},
                 {QStringLiteral("status"), req.targetStatus},
                 {QStringLiteral("unchanged"), false},
                 {QStringLiteral("playbook_node_id"), written.value().nodeId},
                 {QStringLiteral("playbook_uri"), written.value().uri}});
    merge(body, commitFields(written.value().commitId, written.value().commitUri,
                             written.value().commitHash));
    return PlaybookOutcome{cs.value(), body};
}

namespace {

/// Applies a repair patch (reference §7.4 order): steps_override, remove_step_indices,
/// step_patches, then the version-level keys. 400 names the malformed part.
Result<QJsonObject> applyPatch(const QJsonObject &patch, QJsonObject slotData, QJsonObject *summary)
{
    static const QStringList known{
        QStringLiteral("steps_override"),   QStringLiteral("remove_step_indices"),
        QStringLiteral("step_patches"),     QStringLiteral("matchers"),
        QStringLiteral("success_criteria"), QStringLiteral("policy_constraints"),
        QStringLiteral("risk_profile")};
    QStringList changed;
    for (const QString &k : known) {
        if (patch.contains(k))
            changed << k;
    }
    if (changed.isEmpty())
        return Error::invalidField(QStringLiteral("patch"),
                                   QStringLiteral("must name at least one of ")
                                       + known.join(QStringLiteral(", ")));
    QJsonArray steps = slotData.value(QStringLiteral("steps_template")).toArray();
    const int before = int(steps.size());
    if (patch.contains(QStringLiteral("steps_override"))) {
        const QJsonValue v = patch.value(QStringLiteral("steps_override"));
        if (!v.isArray())
            return Error::invalidField(QStringLiteral("patch.steps_override"),
                                       QStringLiteral("must be an array of steps"));
        QJsonArray replaced;
        const QJsonArray in = v.toArray();
        for (int i = 0; i < in.size(); ++i) {
            QJsonObject s = in.at(i).toObject();
            if (!in.at(i).isObject() || s.value(QStringLiteral("tool_name")).toString().isEmpty())
                return Error::invalidField(QStringLiteral("patch.steps_override[%1]").arg(i),
                                           QStringLiteral("must be an object with a tool_name"));
            if (!s.value(QStringLiteral("step_index")).isDouble())
                s.insert(QStringLiteral("step_index"), i + 1);
            if (!s.contains(QStringLiteral("tool_input_template"))
                && s.contains(QStringLiteral("tool_input")))
                s.insert(QStringLiteral("tool_input_template"),
                         s.take(QStringLiteral("tool_input")));
            if (!s.value(QStringLiteral("safety_level")).isString())
                s.insert(QStringLiteral("safety_level"), QStringLiteral("needs_confirm"));
            if (!s.value(QStringLiteral("preconditions")).isArray())
                s.insert(QStringLiteral("preconditions"), QJsonArray());
            replaced.append(s);
        }
        steps = replaced;
    }
    int removed = 0;
    if (patch.contains(QStringLiteral("remove_step_indices"))) {
        const QJsonValue v = patch.value(QStringLiteral("remove_step_indices"));
        if (!v.isArray())
            return Error::invalidField(QStringLiteral("patch.remove_step_indices"),
                                       QStringLiteral("must be an array of step indices"));
        QSet<int> drop;
        for (const QJsonValue &i : v.toArray()) {
            if (!i.isDouble())
                return Error::invalidField(QStringLiteral("patch.remove_step_indices"),
                                           QStringLiteral("must hold integers"));
            drop.insert(i.toInt());
        }
        QJsonArray kept;
        for (const QJsonValue &s : std::as_const(steps)) {
            if (drop.contains(s.toObject().value(QStringLiteral("step_index")).toInt()))
                ++removed;
            else
                kept.append(s);
        }
        steps = kept;
    }
    int patched = 0;
    if (patch.contains(QStringLiteral("step_patches"))) {
        const QJsonValue v = patch.value(QStringLiteral("step_patches"));
        if (!v.isArray())
            return Error::invalidField(QStringLiteral("patch.step_patches"),
                                       QStringLiteral("must be an array of {step_index, set}"));
        const QJsonArray list = v.toArray();
        for (int i = 0; i < list.size(); ++i) {
            const QJsonObject p = list.at(i).toObject();
            if (!p.value(QStringLiteral("step_index")).isDouble()
                || !p.value(QStringLiteral("set")).isObject())
                return Error::invalidField(QStringLiteral("patch.step_patches[%1]").arg(i),
                                           QStringLiteral("must be {step_index, set}"));
            const int index = p.value(QStringLiteral("step_index")).toInt();
            for (int k = 0; k < steps.size(); ++k) {
                QJsonObject s = steps.at(k).toObject();
                if (s.value(QStringLiteral("step_index")).toInt() != index)
                    continue;
                QJsonObject set = p.value(QStringLiteral("set")).toObject();
                if (set.contains(QStringLiteral("tool_input"))
                    && !set.contains(QStringLiteral("tool_input_template")))
                    set.insert(QStringLiteral("tool_input_template"),
                               set.take(QStringLiteral("tool_input")));
                set.remove(QStringLiteral("step_index"));
                merge(s, set);
                steps.replace(k, s);
                ++patched;
            }
        }
    }
    slotData.insert(QStringLiteral("steps_template"), steps);
    for (const char *key : {"matchers", "success_criteria", "policy_constraints"}) {
        if (!patch.contains(QLatin1String(key)))
            continue;
        if (!patch.value(QLatin1String(key)).isObject())
            return Error::invalidField(QStringLiteral("patch.") + QLatin1String(key),
                                       QStringLiteral("must be an object"));
        slotData.insert(QLatin1String(key), patch.value(QLatin1String(key)));
    }
    if (patch.contains(QStringLiteral("risk_profile"))) {
        const QString risk = patch.value(QStringLiteral("risk_profile")).toString();
        if (!PlaybookVocabulary::riskProfiles().contains(risk))
            return Error::invalidField(QStringLiteral("patch.risk_profile"),
                                       QStringLiteral("must be low, medium or high"));
        slotData.insert(QStringLiteral("risk_profile"), risk);
    }
    *summary = QJsonObject{
        {QStringLiteral("changed_keys"), QJsonArray::fromStringList(changed)},
        {QStringLiteral("steps_before"), before},
        {QStringLiteral("steps_after"), steps.size()},
        {QStringLiteral("steps_removed"), removed},
        {QStringLiteral("steps_patched"), patched},
        {QStringLiteral("steps_replaced"), patch.contains(QStringLiteral("steps_override"))}};
    return slotData;
}

QString requester(const ReplayWriteCommon &common, const RequestMeta &meta,
                  const ServiceConfig &config)
{
    return commitActor(common.actor, meta, config).id;
}

} // namespace

Result<PlaybookOutcome> PlaybookEngine::repair(const PlaybookRepairRequest &req,
                                               const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = writerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto source = pick(all.value(), cs.value(), req.playbookId, req.fromVersion,
                       QStringLiteral("replay_playbook_version_not_found"));
    if (!source)
        return source.error();
    QJsonObject summary;
    auto patched = applyPatch(req.patch, source.value().node.slotData, &summary);
    if (!patched)
        return patched.error();
    QJsonObject slotData = patched.value();
    const int to = all.value().last().version + 1;
    const QString status = req.reviewRequired ? QStringLiteral("draft") : req.targetStatus;
    const QString state = req.reviewRequired ? kPendingReview : QStringLiteral("approved");
    slotData.insert(QStringLiteral("version"), to);
    slotData.insert(QStringLiteral("status"), status);
    slotData.insert(QStringLiteral("repaired_from_version"), source.value().version);
    slotData.insert(QStringLiteral("repair_patch"), req.patch);
    slotData.insert(QStringLiteral("repair_note"), nullable(req.note));
    slotData.insert(QStringLiteral("repair_summary"), summary);
    slotData.insert(
        QStringLiteral("repair_review"),
        QJsonObject{{QStringLiteral("state"), state},
                    {QStringLiteral("requested_at"), nowIso()},
                    {QStringLiteral("requested_by"), requester(req.common, meta, m_config)},
                    {QStringLiteral("requested_target_status"), req.targetStatus}});
    slotData.remove(QStringLiteral("promoted_from_version"));
    slotData.remove(QStringLiteral("reviewed_from_version"));
    slotData.remove(QStringLiteral("shadow_validation_last"));
    auto written = writeVersion(cs.value(), req.common, slotData, &source.value().node,
                                {source.value().node.id}, meta);
    if (!written)
        return written.error();
    QJsonObject body = scopeBody(cs.value());
    merge(body, {{QStringLiteral("playbook_id"), req.playbookId},
                 {QStringLiteral("from_version"), source.value().version},
                 {QStringLiteral("to_version"), to},
                 {QStringLiteral("status"), status},
                 {QStringLiteral("review_required"), req.reviewRequired},
                 {QStringLiteral("review_state"), state},
                 {QStringLiteral("repair_summary"), summary},
                 {QStringLiteral("playbook_node_id"), written.value().nodeId},
                 {QStringLiteral("playbook_uri"), written.value().uri}});
    merge(body, commitFields(written.value().commitId, written.value().commitUri,
                             written.value().commitHash));
    return PlaybookOutcome{cs.value(), body};
}

namespace {

/// Readiness of a version (simulate with the variables' defaults): the shadow validation of
/// an approved repair. Pass = no step blocked.
QJsonObject readiness(const NodeRecord &n, bool *pass)
{
    const QJsonObject defaults = PlaybookTemplate::defaultsOf(
        n.slotData.value(QStringLiteral("template_variables")).toArray());
    QJsonArray blockedSteps;
    int ready = 0;
    int unknown = 0;
    const QJsonArray steps = n.slotData.value(QStringLiteral("steps_template")).toArray();
    for (const QJsonValue &s : steps) {
        const StepEval e = evaluateStep(s.toObject(), {}, defaults);
        if (e.state == QLatin1String("blocked"))
            blockedSteps.append(QJsonObject{
                {QStringLiteral("step_index"), e.json.value(QStringLiteral("step_index"))},
                {QStringLiteral("reasons"), e.json.value(QStringLiteral("reasons"))}});
        else if (e.state == QLatin1String("ready"))
            ++ready;
        else
            ++unknown;
    }
    *pass = blockedSteps.isEmpty() && !steps.isEmpty();
    return {{QStringLiteral("mode"), QStringLiteral("readiness")},
            {QStringLiteral("pass"), *pass},
            {QStringLiteral("total_steps"), steps.size()},
            {QStringLiteral("ready_steps"), ready},
            {QStringLiteral("unknown_steps"), unknown},
            {QStringLiteral("blocked_steps"), blockedSteps},
            {QStringLiteral("validated_at"), nowIso()}};
}

} // namespace

Result<PlaybookOutcome> PlaybookEngine::review(const PlaybookReviewRequest &req,
                                               const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.common.tenantId, req.common.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto viewer = writerViewer(req.common, meta);
    if (!viewer)
        return viewer.error();
    auto all = versions(cs.value(), req.playbookId, viewer.value());
    if (!all)
        return all.error();
    auto reviewed = pick(all.value(), cs.value(), req.playbookId, req.version,
                         QStringLiteral("replay_playbook_version_not_found"));
    if (!reviewed)
        return reviewed.error();
    const NodeRecord &n = reviewed.value().node;
    if (!n.slotData.value(QStringLiteral("repair_patch")).isObject())
        return Error::make(
            400, QStringLiteral("replay_repair_patch_missing"),
            QStringLiteral("this version is not a repair: there is nothing to review"),
            {{QStringLiteral("playbook_id"), req.playbookId},
             {QStringLiteral("version"), reviewed.value().version}});
    const QJsonObject request = n.slotData.value(QStringLiteral("repair_review")).toObject();
    // Versions are never edited: a repair is reviewed once a later version was derived from it.
    const bool reviewedAlready
        = std::any_of(all.value().cbegin(), all.value().cend(), [&](const Version &v) {
              return v.node.slotData.value(QStringLiteral("reviewed_from_version")).toInt(-1)
                     == reviewed.value().version;
          });
    if (request.value(QStringLiteral("state")).toString() != kPendingReview || reviewedAlready)
        return Error::make(409, QStringLiteral("replay_repair_not_pending_review"),
                           QStringLiteral("this repair is not waiting for a review"),
                           {{QStringLiteral("playbook_id"), req.playbookId},
                            {QStringLiteral("version"), reviewed.value().version},
                            {QStringLiteral("review_state"),
                             nullable(request.value(QStringLiteral("state")).toString())}});
    QJsonObject slotData = n.slotData;
    QString status = QStringLiteral("draft");
    QString state;
    QJsonValue validation;
    if (req.action == QLatin1String("reject")) {
        state = QStringLiteral("rejected");
    } else if (req.autoShadowValidate) {
        bool pass = false;
        const QJsonObject v = readiness(n, &pass);
        validation = v;
        slotData.insert(QStringLiteral("shadow_validation_last"), v);
        state = pass ? QStringLiteral("approved") : QStringLiteral("approved_shadow_blocked");
        status = pass ? req.targetStatusOnApprove : QStringLiteral("draft");
    } else {
        state = QStringLiteral("approved");
        status = req.targetStatusOnApprove;
    }
    QJsonObject record = request;
    record.insert(QStringLiteral("state"), state);
    record.insert(QStringLiteral("reviewed_at"), nowIso());
    record.insert(QStringLiteral("reviewed_by"), requester(req.common, meta, m_config));
    record.insert(QStringLiteral("review_note"), nullable(req.note));
    record.insert(QStringLiteral("action"), req.action);
    const int to = all.value().last().version + 1;
    slotData.insert(QStringLiteral("version"), to);
    slotData.insert(QStringLiteral("status"), status);
    slotData.insert(QStringLiteral("repair_review"), record);
    slotData.insert(QStringLiteral("reviewed_from_version"), reviewed.value().version);
    slotData.remove(QStringLiteral("promoted_from_version"));
    auto written = writeVersion(cs.value(), req.common, slotData, &n, {n.id}, meta);
    if (!written)
        return written.error();
    const bool autoPromote = req.autoPromoteOnPass.value_or(false);
    QJsonValue autoPromotion;
    if (autoPromote && state == QLatin1String("approved")) {
        auto promoted
            = autoPromoteVersion(cs.value(), req, slotData, to, written.value().nodeId, meta);
        if (!promoted)
            return promoted.error();
        autoPromotion = promoted.value();
    }
    QJsonObject body = scopeBody(cs.value());
    merge(body,
          {{QStringLiteral("playbook_id"), req.playbookId},
           {QStringLiteral("reviewed_version"), reviewed.value().version},
           {QStringLiteral("to_version"), to},
           {QStringLiteral("action"), req.action},
           {QStringLiteral("status"), status},
           {QStringLiteral("review_state"), state},
           {QStringLiteral("shadow_validation"), validation},
           {QStringLiteral("auto_promote_policy_resolution"),
            QJsonObject{{QStringLiteral("auto_promote_on_pass"), autoPromote},
                        {QStringLiteral("auto_promote_target_status"), req.autoPromoteTargetStatus},
                        {QStringLiteral("source"), req.autoPromoteOnPass
                                                       ? QStringLiteral("request")
                                                       : QStringLiteral("server_default")}}},
           {QStringLiteral("auto_promotion"), autoPromotion},
           {QStringLiteral("learning_projection_result"), QJsonValue()},
           {QStringLiteral("playbook_node_id"), written.value().nodeId},
           {QStringLiteral("playbook_uri"), written.value().uri}});
    merge(body, commitFields(written.value().commitId, written.value().commitUri,
                             written.value().commitHash));
    return PlaybookOutcome{cs.value(), body};
}

/// The version an approved repair is auto-promoted to: a copy of the reviewed result (its
/// review record kept, so automations see the approval) in the requested status.
Result<QJsonObject> PlaybookEngine::autoPromoteVersion(const CallScope &cs,
                                                       const PlaybookReviewRequest &req,
                                                       QJsonObject slotData, int fromVersion,
                                                       const QString &fromNodeId,
                                                       const RequestMeta &meta)
{
    QJsonObject result{{QStringLiteral("attempted"), true},
                       {QStringLiteral("from_version"), fromVersion},
                       {QStringLiteral("target_status"), req.autoPromoteTargetStatus}};
    if (slotData.value(QStringLiteral("status")).toString() == req.autoPromoteTargetStatus) {
        result.insert(QStringLiteral("promoted"), false);
        result.insert(QStringLiteral("reason"), QStringLiteral("already_target_status"));
        return result;
    }
    const int to = fromVersion + 1;
    slotData.insert(QStringLiteral("version"), to);
    slotData.insert(QStringLiteral("status"), req.autoPromoteTargetStatus);
    slotData.insert(QStringLiteral("promoted_from_version"), fromVersion);
    slotData.insert(QStringLiteral("auto_promoted"), true);
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto source = GraphStore::findNode(conn.value(), fromNodeId);
    if (!source)
        return source.error();
    const NodeRecord *sourceNode = source.value() ? &*source.value() : nullptr;
    auto written = writeVersion(cs, req.common, slotData, sourceNode, {fromNodeId}, meta);
    if (!written)
        return written.error();
    merge(result, {{QStringLiteral("promoted"), true},
                   {QStringLiteral("to_version"), to},
                   {QStringLiteral("status"), req.autoPromoteTargetStatus},
                   {QStringLiteral("playbook_node_id"), written.value().nodeId},
                   {QStringLiteral("playbook_uri"), written.value().uri}});
    merge(result, commitFields(written.value().commitId, written.value().commitUri,
                               written.value().commitHash));
    return result;
}

} // namespace MemoryGraph
