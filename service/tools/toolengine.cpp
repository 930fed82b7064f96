#include "service/tools/toolengine.h"

#include "service/access/commitcontext.h"
#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/core/jsonvalues.h"
#include "service/core/vocabulary.h"
#include "service/rules/conditionmatcher.h"
#include "service/rules/policymerge.h"
#include "service/rules/policypatch.h"
#include "service/storage/commitlog.h"
#include "service/storage/database.h"
#include "service/storage/rulestore.h"
#include "service/storage/scopedlookup.h"

#include <QJsonArray>
#include <QSet>

namespace MemoryGraph {

namespace {

constexpr qint64 kInferWindowMs = 24LL * 3600 * 1000;

/// What a run's control profile lets through (spec §4.8 "control_profile_v1").
struct ControlProfile
{
    QString origin = QStringLiteral("none"); ///< continuity_delivered | state_derived | none
    QString stage;
    bool allowBroadScan = true;
    bool allowBroadTest = true;
};

ControlProfile controlProfile(const QJsonObject &context, const QJsonObject &continuity)
{
    ControlProfile p;
    const QJsonObject given = context.value(QStringLiteral("control_profile_v1")).toObject();
    if (given.value(QStringLiteral("allow_broad_scan")).isBool()
        || given.value(QStringLiteral("allow_broad_test")).isBool()) {
        p.origin = QStringLiteral("continuity_delivered");
        p.allowBroadScan = given.value(QStringLiteral("allow_broad_scan")).toBool(true);
        p.allowBroadTest = given.value(QStringLiteral("allow_broad_test")).toBool(true);
        p.stage = given.value(QStringLiteral("stage")).toString();
        return p;
    }
    const QString stage = continuity.value(QStringLiteral("execution_state_v1"))
                              .toObject()
                              .value(QStringLiteral("current_stage"))
                              .toString()
                              .toLower();
    // Presets: triage may scan broadly; patch may run broad tests; review and resume neither.
    if (stage == QLatin1String("triage"))
        p = {QStringLiteral("state_derived"), stage, true, false};
    else if (stage == QLatin1String("patch"))
        p = {QStringLiteral("state_derived"), stage, false, true};
    else if (stage == QLatin1String("review") || stage == QLatin1String("resume"))
        p = {QStringLiteral("state_derived"), stage, false, false};
    return p;
}

/// The context rules are evaluated against: the caller's, plus continuity evidence it lacks.
QJsonObject evaluationContext(const QJsonObject &context, const QJsonObject &continuity)
{
    QJsonObject c = context;
    for (const char *key :
         {"execution_result_summary", "execution_artifacts", "execution_evidence"}) {
        const QString k = QLatin1String(key);
        if (!c.contains(k) && continuity.contains(k)) {
            const QJsonValue v = continuity.value(k);
            if (!v.isArray() || !v.toArray().isEmpty())
                c.insert(k, v);
        }
    }
    return c;
}

QJsonArray toArray(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

/// decision_id and decision_uri must agree and stay in the caller's tenant and scope.
Result<QString> linkedDecisionId(const QString &decisionId, const QString &uri, const CallScope &cs)
{
    if (uri.isEmpty())
        return decisionId;
    const auto parsed = parseRecordUri(uri);
    if (!parsed || parsed->kind != QLatin1String("decision") || !isUuid(parsed->id))
        return Error::invalidField(
            QStringLiteral("decision_uri"),
            QStringLiteral("must be memorygraph://<tenant>/<scope>/decision/<uuid>"));
    if (parsed->tenantId != cs.tenantId || parsed->scope != cs.scope)
        return Error::invalidField(
            QStringLiteral("decision_uri"),
            QStringLiteral("names another tenant or scope than the request"));
    if (!decisionId.isEmpty() && decisionId != parsed->id.toLower())
        return Error::invalidField(QStringLiteral("decision_uri"),
                                   QStringLiteral("does not match decision_id"));
    return parsed->id.toLower();
}

QStringList sourceIds(const QJsonArray &sources)
{
    QStringList ids;
    for (const QJsonValue &s : sources) {
        const QString id = s.toObject().value(QStringLiteral("rule_node_id")).toString();
        if (!ids.contains(id))
            ids << id;
    }
    return ids;
}

bool touchesTool(const QJsonObject &source)
{
    for (const QJsonValue &p : source.value(QStringLiteral("touched_paths")).toArray()) {
        const QString path = p.toString();
        if (path == QLatin1String("tool") || path.startsWith(QLatin1String("tool.")))
            return true;
    }
    return false;
}

// --- tools/select stages ---

/// Broad scans and tests the run's control profile forbids never reach the rules; returns
/// their denials and leaves the remaining candidates in kept.
QJsonArray filterByControlProfile(const QStringList &candidates, const ControlProfile &profile,
                                  QStringList *kept)
{
    QJsonArray denied;
    for (const QString &c : candidates) {
        const QString lower = c.toLower();
        const bool broadScan
            = lower.contains(QLatin1String("broad")) && lower.contains(QLatin1String("scan"));
        const bool broadTest
            = lower.contains(QLatin1String("broad")) && lower.contains(QLatin1String("test"));
        if ((broadScan && !profile.allowBroadScan) || (broadTest && !profile.allowBroadTest))
            denied.append(
                QJsonObject{{QStringLiteral("name"), c},
                            {QStringLiteral("reason"), QStringLiteral("control_profile")}});
        else
            *kept << c;
    }
    return denied;
}

/// Control-profile denials lead the denied list, ahead of the policy's own.
void prependProfileDenials(QJsonArray &denied, const QJsonArray &profileDenied)
{
    for (int i = profileDenied.size() - 1; i >= 0; --i)
        denied.prepend(profileDenied.at(i));
}

/// Applies the active tool policy (whose refusal fails the call) and, when asked, the shadow one.
Result<void> applyToolPolicies(ToolSelectOutcome &out, const QJsonArray &profileDenied,
                               const ToolSelectRequest &req)
{
    auto selection = Rules::applyToolPolicy(out.candidates, out.rules.applied.policy, req.strict);
    if (!selection)
        return selection.error();
    out.selection = selection.value();
    prependProfileDenials(out.selection.denied, profileDenied);
    out.selection.candidates = out.candidates;
    out.toolConflictsSummary = Rules::toolConflictsSummary(out.rules.applied.toolExplain);
    if (req.includeShadow && out.rules.shadowApplied) {
        auto shadow
            = Rules::applyToolPolicy(out.candidates, out.rules.shadowApplied->policy, false);
        if (shadow) {
            out.shadowSelection = shadow.value();
            prependProfileDenials(out.shadowSelection->denied, profileDenied);
        }
        out.shadowToolConflictsSummary
            = Rules::toolConflictsSummary(out.rules.shadowApplied->toolExplain);
    }
    return {};
}

/// The decision row that lets later feedback and run reads find this selection.
DecisionRecord selectionDecision(const ToolSelectRequest &req, const ToolSelectOutcome &out,
                                 const QJsonObject &context)
{
    DecisionRecord d;
    d.id = randomUuid();
    d.tenantId = out.scope.tenantId;
    d.scope = out.scope.scope;
    d.kind = QStringLiteral("tools_select");
    d.runId = req.runId;
    d.selectedTool = out.selection.selected;
    d.candidates = out.candidates;
    d.contextSha256 = sha256Hex(stableJson(context));
    d.policySha256 = sha256Hex(stableJson(out.rules.applied.policy));
    d.sourceRuleIds = sourceIds(out.rules.applied.sources);
    d.createdAt = QDateTime::currentDateTimeUtc();
    return d;
}

/// What the decision row keeps of how the selection came about, for audits of the run.
QJsonObject selectionMetadata(const ToolSelectRequest &req, const ToolSelectOutcome &out,
                              const ControlProfile &profile, const QJsonArray &profileDenied)
{
    QJsonArray deniedByProfile;
    for (const QJsonValue &v : profileDenied)
        deniedByProfile.append(v.toObject().value(QStringLiteral("name")));
    return QJsonObject{
        {QStringLiteral("strict"), req.strict},
        {QStringLiteral("include_shadow"), req.includeShadow},
        {QStringLiteral("rules_limit"), req.rulesLimit},
        {QStringLiteral("matched_rules"), out.rules.matched()},
        {QStringLiteral("tool_conflicts_summary"), toArray(out.toolConflictsSummary)},
        {QStringLiteral("denied_by_control_profile"), deniedByProfile},
        {QStringLiteral("control_profile_origin"), profile.origin},
        {QStringLiteral("execution_stage"), nullable(profile.stage)},
        {QStringLiteral("allowed"), toArray(out.selection.allowed)},
        {QStringLiteral("preferred"), toArray(out.selection.preferred)},
        {QStringLiteral("ordered"), toArray(out.selection.ordered)},
        {QStringLiteral("denied"), out.selection.denied},
        {QStringLiteral("fallback"), out.selection.fallback}};
}

/// Every rule that matched, active or shadow: their match counters move with the decision.
QStringList matchedRuleIds(const RuleEvaluation &rules)
{
    QStringList ids;
    for (const RuleMatch &m : rules.active)
        ids << m.node.id;
    for (const RuleMatch &m : rules.shadow)
        ids << m.node.id;
    return ids;
}

/// The decision and the match counters land together or not at all.
Result<void> persistSelection(Database &database, const DecisionRecord &decision,
                              const QStringList &matchedIds)
{
    return database.write([&](QSqlDatabase &db) -> Result<void> {
        if (auto r = RuleStore::insertDecision(db, decision); !r)
            return r;
        return RuleStore::markMatched(db, matchedIds);
    });
}

/// The execution kernel block: which continuity evidence the selection could see.
QJsonObject executionKernel(const QJsonObject &continuity, const ControlProfile &profile)
{
    const QJsonObject exec = continuity.value(QStringLiteral("execution_state_v1")).toObject();
    return QJsonObject{
        {QStringLiteral("control_profile_origin"), profile.origin},
        {QStringLiteral("execution_state_v1_present"),
         continuity.contains(QStringLiteral("execution_state_v1"))},
        {QStringLiteral("execution_result_summary_present"),
         continuity.contains(QStringLiteral("execution_result_summary"))},
        {QStringLiteral("execution_artifacts_count"),
         continuity.value(QStringLiteral("execution_artifacts")).toArray().size()},
        {QStringLiteral("execution_evidence_count"),
         continuity.value(QStringLiteral("execution_evidence")).toArray().size()},
        {QStringLiteral("current_stage"), nullable(profile.stage)},
        {QStringLiteral("active_role"), exec.value(QStringLiteral("active_role")).isString()
                                            ? exec.value(QStringLiteral("active_role"))
                                            : QJsonValue()}};
}

/// tools_selection_summary_v1: the counts a caller logs without reading the whole answer.
QJsonObject selectionSummary(const ToolSelectOutcome &out)
{
    return QJsonObject{
        {QStringLiteral("summary_version"), QStringLiteral("tools_selection_summary_v1")},
        {QStringLiteral("selected_tool"), nullable(out.decision.selectedTool)},
        {QStringLiteral("candidate_count"), out.candidates.size()},
        {QStringLiteral("allowed_count"), out.selection.allowed.size()},
        {QStringLiteral("denied_count"), out.selection.denied.size()},
        {QStringLiteral("preferred_count"), out.selection.preferred.size()},
        {QStringLiteral("matched_rules"), out.rules.matched()},
        {QStringLiteral("source_rule_count"), out.decision.sourceRuleIds.size()},
        {QStringLiteral("fallback_applied"), !out.selection.fallback.isEmpty()},
        {QStringLiteral("fallback_reason"),
         out.selection.fallback.isEmpty()
             ? QStringLiteral("none")
             : out.selection.fallback.value(QStringLiteral("reason")).toString()},
        {QStringLiteral("shadow_selected_tool"),
         out.shadowSelection && !out.shadowSelection->selected.isEmpty()
             ? QJsonValue(out.shadowSelection->selected)
             : QJsonValue()},
        {QStringLiteral("tool_conflicts"), toArray(out.toolConflictsSummary.mid(0, 3))}};
}

// --- tools/feedback stages ---

/// The rules the feedback is about: those whose policy touched the tool, or every applied
/// one for target "all"; shadow rules count when the caller included them.
QStringList attributedRuleIds(const RuleEvaluation &evaluation, const ToolFeedbackRequest &req)
{
    QJsonArray sources = evaluation.applied.sources;
    if (req.includeShadow && evaluation.shadowApplied) {
        for (const QJsonValue &s : evaluation.shadowApplied->sources)
            sources.append(s);
    }
    QStringList ids;
    for (const QJsonValue &s : sources) {
        const QJsonObject source = s.toObject();
        const QString id = source.value(QStringLiteral("rule_node_id")).toString();
        if ((req.target == QLatin1String("all") || touchesTool(source)) && !ids.contains(id))
            ids << id;
    }
    return ids;
}

/// One tools/feedback transaction: links the feedback to a decision (given, inferred or
/// created), commits it and attributes the outcome to the rules.
struct FeedbackTransaction
{
    QSqlDatabase &db;
    const ToolFeedbackRequest &req;
    ToolFeedbackOutcome &out;
    const CommitActor &actor;
    const QString &inputSha256;
    const QString &contextSha256;
    const QJsonObject &appliedPolicy; ///< hashed only when a decision has to be created

    /// The stages, in the order their rows must be written.
    Result<void> run(const QString &linkedId)
    {
        auto existing = linkedId.isEmpty() ? inferredDecision() : providedDecision(linkedId);
        if (!existing)
            return existing.error();
        std::optional<DecisionRecord> decision = std::move(existing).value();
        if (decision) {
            if (auto agrees = agreesWithRequest(*decision); !agrees)
                return agrees;
        } else {
            auto created = createdDecision();
            if (!created)
                return created.error();
            decision = std::move(created).value();
        }
        if (auto r = appendCommit(decision->id); !r)
            return r;
        if (auto r = RuleStore::updateDecisionLink(
                db, decision->id, req.runId,
                out.linkMode == QLatin1String("created_from_feedback") ? out.commit.id : QString());
            !r)
            return r;
        if (decision->runId.isEmpty())
            decision->runId = req.runId;
        if (auto r = recordFeedback(decision->id); !r)
            return r;
        out.decision = *decision;
        return {};
    }

    /// The decision the caller named must exist in the scope.
    Result<std::optional<DecisionRecord>> providedDecision(const QString &id)
    {
        auto found = RuleStore::decision(db, out.scope.tenantId, out.scope.scope, id);
        if (!found)
            return found.error();
        if (!found.value())
            return Error::notFound(
                QStringLiteral("no decision with this id in the scope"),
                {{QStringLiteral("decision_id"), id},
                 {QStringLiteral("reason"), QStringLiteral("decision_not_found_in_scope")}});
        out.linkMode = QStringLiteral("provided");
        return std::move(found).value();
    }

    /// Newest decision of the run, else a recent identical one, with the same tool,
    /// candidates and context; none when nothing fits.
    Result<std::optional<DecisionRecord>> inferredDecision()
    {
        QVector<DecisionRecord> candidates;
        if (!req.runId.isEmpty()) {
            auto forRun = RuleStore::decisionsForRun(db, out.scope.tenantId, out.scope.scope,
                                                     req.runId, 50);
            if (!forRun)
                return forRun.error();
            candidates = forRun.value();
        }
        auto recent = RuleStore::decisionsLike(
            db, out.scope.tenantId, out.scope.scope, req.selectedTool, contextSha256,
            QDateTime::currentMSecsSinceEpoch() - kInferWindowMs, 50);
        if (!recent)
            return recent.error();
        candidates += recent.value();
        for (const DecisionRecord &d : std::as_const(candidates)) {
            if (d.selectedTool == req.selectedTool && d.candidates == req.candidates
                && d.contextSha256 == contextSha256
                && (req.runId.isEmpty() || d.runId.isEmpty() || d.runId == req.runId)) {
                out.linkMode = QStringLiteral("inferred");
                return std::optional<DecisionRecord>(d);
            }
        }
        return std::optional<DecisionRecord>();
    }

    /// Feedback may not rewrite what was decided: tool, candidates and run must agree.
    Result<void> agreesWithRequest(const DecisionRecord &decision) const
    {
        if (decision.selectedTool != req.selectedTool)
            return Error::make(400, QStringLiteral("decision_selected_tool_mismatch"),
                               QStringLiteral("selected_tool differs from the decision's"),
                               {{QStringLiteral("decision_selected_tool"), decision.selectedTool}});
        if (decision.candidates != req.candidates)
            return Error::make(400, QStringLiteral("decision_candidates_mismatch"),
                               QStringLiteral("candidates differ from the decision's"));
        if (!req.runId.isEmpty() && !decision.runId.isEmpty() && decision.runId != req.runId)
            return Error::make(400, QStringLiteral("decision_run_id_mismatch"),
                               QStringLiteral("run_id differs from the decision's"));
        return {};
    }

    /// Feedback without a decision to link to records one, so every run keeps its trail.
    Result<DecisionRecord> createdDecision()
    {
        DecisionRecord d;
        d.id = randomUuid();
        d.tenantId = out.scope.tenantId;
        d.scope = out.scope.scope;
        d.kind = QStringLiteral("tools_select");
        d.runId = req.runId;
        d.selectedTool = req.selectedTool;
        d.candidates = req.candidates;
        d.contextSha256 = contextSha256;
        d.policySha256 = sha256Hex(stableJson(appliedPolicy));
        d.sourceRuleIds = out.ruleIds;
        d.metadata = QJsonObject{{QStringLiteral("source"), QStringLiteral("feedback_derived")}};
        d.createdAt = QDateTime::currentDateTimeUtc();
        if (auto r = RuleStore::insertDecision(db, d); !r)
            return r.error();
        out.linkMode = QStringLiteral("created_from_feedback");
        return d;
    }

    /// The tool_feedback commit every feedback row points at.
    Result<void> appendCommit(const QString &decisionId)
    {
        const QJsonObject diff{
            {QStringLiteral("tool_feedback"),
             QJsonArray{QJsonObject{{QStringLiteral("decision_id"), decisionId},
                                    {QStringLiteral("decision_link_mode"), out.linkMode},
                                    {QStringLiteral("run_id"), nullable(req.runId)},
                                    {QStringLiteral("outcome"), req.outcome},
                                    {QStringLiteral("selected_tool"), req.selectedTool},
                                    {QStringLiteral("candidates"), toArray(req.candidates)},
                                    {QStringLiteral("rule_node_ids"), toArray(out.ruleIds)},
                                    {QStringLiteral("target"), req.target}}}}};
        auto commit = CommitLog::append(db, out.scope, QStringLiteral("tool_feedback"), actor,
                                        inputSha256, diff);
        if (!commit)
            return commit.error();
        out.commit = commit.value();
        return {};
    }

    /// A feedback row for one rule (empty ruleId: the run's unattributed outcome).
    FeedbackRecord feedbackRow(const QString &decisionId, const QString &ruleId) const
    {
        FeedbackRecord f;
        f.id = randomUuid();
        f.tenantId = out.scope.tenantId;
        f.scope = out.scope.scope;
        f.ruleNodeId = ruleId;
        f.runId = req.runId;
        f.outcome = req.outcome;
        f.note = req.note;
        f.source = QStringLiteral("tools_feedback");
        f.decisionId = decisionId;
        f.commitId = out.commit.id;
        f.createdAt = out.commit.createdAt;
        return f;
    }

    /// Each attributed rule gets a feedback row and its outcome counted.
    Result<void> recordFeedback(const QString &decisionId)
    {
        for (const QString &ruleId : std::as_const(out.ruleIds)) {
            if (auto r = RuleStore::insertFeedback(db, feedbackRow(decisionId, ruleId)); !r)
                return r;
            if (auto r = RuleStore::recordOutcome(db, ruleId, req.outcome); !r)
                return r;
        }
        // Keep the outcome of an unattributed run visible in its feedback history.
        if (out.ruleIds.isEmpty())
            return RuleStore::insertFeedback(db, feedbackRow(decisionId, QString()));
        return {};
    }
};

} // namespace

ToolEngine::ToolEngine(Database &db, const ServiceConfig &config) : m_db(db), m_config(config) { }

Result<RulesEvaluateOutcome> ToolEngine::evaluate(const RulesEvaluateRequest &req,
                                                  const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto context = RuleEvaluator::withCallerIdentity(req.context, meta);
    if (!context)
        return context.error();
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto evaluation = RuleEvaluator::evaluate(conn.value(), cs.value().tenantId, cs.value().scope,
                                              context.value(), req.includeShadow, req.limit);
    if (!evaluation)
        return evaluation.error();
    return RulesEvaluateOutcome{cs.value(), evaluation.value()};
}

Result<ToolSelectOutcome> ToolEngine::select(const ToolSelectRequest &req, const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto withIdentity = RuleEvaluator::withCallerIdentity(req.context, meta);
    if (!withIdentity)
        return withIdentity.error();
    const QJsonObject continuity = req.continuity.fields;
    const QJsonObject context = evaluationContext(withIdentity.value().toObject(), continuity);

    ToolSelectOutcome out;
    out.scope = cs.value();
    out.continuity = continuity;
    const ControlProfile profile = controlProfile(context, continuity);
    const QJsonArray profileDenied
        = filterByControlProfile(req.candidates, profile, &out.candidates);

    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase db = conn.value();
    auto evaluation = RuleEvaluator::evaluate(db, out.scope.tenantId, out.scope.scope, context,
                                              req.includeShadow, req.rulesLimit);
    if (!evaluation)
        return evaluation.error();
    out.rules = evaluation.value();
    if (auto applied = applyToolPolicies(out, profileDenied, req); !applied)
        return applied.error(); // 400 no_tools_allowed: nothing is persisted

    out.decision = selectionDecision(req, out, context);
    out.decision.metadata = selectionMetadata(req, out, profile, profileDenied);
    if (auto saved = persistSelection(m_db, out.decision, matchedRuleIds(out.rules)); !saved)
        return saved.error();

    out.executionKernel = executionKernel(continuity, profile);
    out.selectionSummary = selectionSummary(out);
    return out;
}

Result<ToolFeedbackOutcome> ToolEngine::feedback(const ToolFeedbackRequest &req,
                                                 const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto linked = linkedDecisionId(req.decisionId, req.decisionUri, cs.value());
    if (!linked)
        return linked.error();
    auto inputSha = CommitLog::inputDigest(req.inputText, req.inputSha256);
    if (!inputSha)
        return inputSha.error();
    auto withIdentity = RuleEvaluator::withCallerIdentity(req.context, meta);
    if (!withIdentity)
        return withIdentity.error();
    const QJsonValue context = withIdentity.value();
    const CommitActor actor = commitActor(req.actor, meta, m_config);

    ToolFeedbackOutcome out;
    out.scope = cs.value();
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    // Attribution re-evaluates the rules against the feedback's own context.
    auto evaluation = RuleEvaluator::evaluate(conn.value(), out.scope.tenantId, out.scope.scope,
                                              context, req.includeShadow, req.rulesLimit);
    if (!evaluation)
        return evaluation.error();
    out.ruleIds = attributedRuleIds(evaluation.value(), req);
    const QString contextSha = sha256Hex(stableJson(context));

    auto written = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        FeedbackTransaction tx{
            db, req, out, actor, inputSha.value(), contextSha, evaluation.value().applied.policy};
        return tx.run(linked.value());
    });
    if (!written)
        return written.error();
    return out;
}

Result<DecisionLookup> ToolEngine::decision(const ToolDecisionRequest &req, const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto id = linkedDecisionId(req.decisionId, req.decisionUri, cs.value());
    if (!id)
        return id.error();
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    DecisionLookup out;
    out.scope = cs.value();
    if (!id.value().isEmpty()) {
        out.lookupMode = req.decisionId.isEmpty() ? QStringLiteral("decision_uri")
                                                  : QStringLiteral("decision_id");
        auto found
            = RuleStore::decision(conn.value(), out.scope.tenantId, out.scope.scope, id.value());
        if (!found)
            return found.error();
        if (!found.value())
            return Error::notFound(
                QStringLiteral("no decision with this id in the scope"),
                {{QStringLiteral("reason"), QStringLiteral("decision_not_found_in_scope")}});
        if (!req.runId.isEmpty() && !found.value()->runId.isEmpty()
            && found.value()->runId != req.runId)
            return Error::make(400, QStringLiteral("decision_run_id_mismatch"),
                               QStringLiteral("the decision belongs to another run"));
        out.decision = *found.value();
        return out;
    }
    out.lookupMode = QStringLiteral("run_id");
    auto latest = RuleStore::decisionsForRun(conn.value(), out.scope.tenantId, out.scope.scope,
                                             req.runId, 1);
    if (!latest)
        return latest.error();
    if (latest.value().isEmpty())
        return Error::notFound(
            QStringLiteral("no decision for this run in the scope"),
            {{QStringLiteral("reason"), QStringLiteral("decision_not_found_for_run")}});
    out.decision = latest.value().first();
    return out;
}

Result<RunOutcome> ToolEngine::run(const ToolRunRequest &req, const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase db = conn.value();
    RunOutcome out;
    out.scope = cs.value();
    out.runId = req.runId;
    out.includeFeedback = req.includeFeedback;
    out.decisionLimit = req.decisionLimit;
    out.feedbackLimit = req.feedbackLimit;
    auto count = RuleStore::decisionCountForRun(db, out.scope.tenantId, out.scope.scope, req.runId);
    if (!count)
        return count.error();
    if (count.value() == 0)
        return Error::notFound(
            QStringLiteral("no decision recorded for this run in the scope"),
            {{QStringLiteral("reason"), QStringLiteral("run_not_found_in_scope")}});
    out.decisionCount = count.value();
    auto decisions = RuleStore::decisionsForRun(db, out.scope.tenantId, out.scope.scope, req.runId,
                                                req.decisionLimit);
    if (!decisions)
        return decisions.error();
    out.decisions = decisions.value();
    out.latestDecisionAt = out.decisions.isEmpty() ? QDateTime() : out.decisions.first().createdAt;
    const QString tenant = out.scope.tenantId, scope = out.scope.scope, run = req.runId;
    const auto countWhere = [&db, &tenant, &scope, &run](const QString &extra) -> qint64 {
        auto n = RuleStore::feedbackCount(db, tenant, scope, QStringLiteral("run_id"), run, extra);
        return n ? n.value() : 0;
    };
    out.feedbackTotal = countWhere({});
    out.positive = countWhere(QStringLiteral("outcome = 'positive'"));
    out.negative = countWhere(QStringLiteral("outcome = 'negative'"));
    out.neutral = countWhere(QStringLiteral("outcome = 'neutral'"));
    out.linkedDecisionCount = countWhere(QStringLiteral("decision_id IS NOT NULL"));
    out.toolsFeedbackCount = countWhere(QStringLiteral("source = 'tools_feedback'"));
    auto recent = RuleStore::feedbackWhere(db, tenant, scope, QStringLiteral("run_id"), run,
                                           req.includeFeedback ? req.feedbackLimit : 1);
    if (!recent)
        return recent.error();
    out.latestFeedbackAt
        = recent.value().isEmpty() ? QDateTime() : recent.value().first().createdAt;
    if (req.includeFeedback)
        out.recentFeedback = recent.value();
    out.status = out.feedbackTotal > 0 ? QStringLiteral("feedback_linked")
                                       : QStringLiteral("decision_recorded");
    return out;
}

Result<RunListOutcome> ToolEngine::listRuns(const ToolRunsListRequest &req, const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    RuleStore::RunFilter f;
    f.tenantId = cs.value().tenantId;
    f.scope = cs.value().scope;
    f.status = req.status;
    f.selectedTool = req.selectedTool;
    f.sinceMs = req.since.isValid() ? req.since.toMSecsSinceEpoch() : 0;
    f.untilMs = req.until.isValid() ? req.until.toMSecsSinceEpoch() : 0;
    f.afterMs = req.afterMs;
    f.afterSeq = req.afterSeq;
    f.limit = req.limit + 1; // one more tells whether a next page exists
    auto runs = RuleStore::runSummaries(conn.value(), f);
    if (!runs)
        return runs.error();
    RunListOutcome out;
    out.scope = cs.value();
    out.items = std::move(runs).value();
    if (out.items.size() > req.limit) {
        out.items.resize(req.limit);
        const RunSummary &last = out.items.constLast();
        out.nextCursor = ToolRunsListRequest::cursorFor(last.latestDecisionAt.toMSecsSinceEpoch(),
                                                        last.latestSeq);
    }
    return out;
}

Result<RuleStateOutcome> ToolEngine::setRuleState(const RuleStateRequest &req,
                                                  const RequestMeta &meta)
{
    auto begun = beginCommit(req, meta, m_config);
    if (!begun)
        return begun.error();
    const CommitContext &ctx = begun.value();
    RuleStateOutcome out;
    out.scope = ctx.scope;
    out.state = req.state;
    auto written = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        auto node = findRuleInScope(db, out.scope, req.ruleNodeId, NodeAccess::of(meta));
        if (!node)
            return node.error();
        const NodeRecord &n = node.value();
        // Draft and disabled rules are never evaluated: they may stay incomplete.
        const bool evaluated = Vocabulary::evaluatedRuleStates().contains(req.state);
        if (evaluated && n.memoryLane == QLatin1String("private") && n.ownerAgentId.isEmpty()
            && n.ownerTeamId.isEmpty())
            return Error::make(
                400, QStringLiteral("invalid_private_rule_owner"),
                QStringLiteral("a private rule needs owner_agent_id or owner_team_id"),
                {{QStringLiteral("node_id"), n.id}});
        const RuleDefinition def = RuleDefinition::fromNode(n);
        // Activation makes the rule enforce: refuse definitions that cannot work as written.
        if (req.state == QLatin1String("active")) {
            if (!def.ifJson.isUndefined() && !def.ifJson.isNull() && !def.ifJson.isObject())
                return Error::invalidField(QStringLiteral("slots.if"),
                                           QStringLiteral("must be an object"));
            if (!def.exceptionsJson.isUndefined() && !def.exceptionsJson.isNull()
                && !def.exceptionsJson.isArray())
                return Error::invalidField(QStringLiteral("slots.exceptions"),
                                           QStringLiteral("must be an array"));
            if (auto valid = Rules::validateRuleConditions(def.ifJson, def.exceptionsJson,
                                                           QStringLiteral("slots.if"),
                                                           QStringLiteral("slots.exceptions"));
                !valid)
                return valid.error();
            auto patch = Rules::validatePolicyPatch(
                def.thenJson.isUndefined() ? QJsonValue(QJsonObject()) : def.thenJson);
            if (!patch) {
                const QJsonObject issue = patch.error()
                                              .details.value(QStringLiteral("issues"))
                                              .toArray()
                                              .first()
                                              .toObject();
                const QString inner = issue.value(QStringLiteral("path")).toString();
                return Error::invalidField(inner.isEmpty() ? QStringLiteral("slots.then")
                                                           : QStringLiteral("slots.then.") + inner,
                                           issue.value(QStringLiteral("message")).toString());
            }
        }
        if (auto valid = RuleDefinition::validateSlots(n.slotData, QStringLiteral("rule"));
            evaluated && !valid)
            return valid.error();
        if (auto r = RuleStore::ensureRuleDef(db, n); !r)
            return r;
        const QJsonObject diff{
            {QStringLiteral("rule_state_change"),
             QJsonArray{QJsonObject{{QStringLiteral("rule_node_id"), n.id},
                                    {QStringLiteral("state"), req.state.toUpper()}}}}};
        auto commit = CommitLog::append(db, out.scope, QStringLiteral("rule_state_change"),
                                        ctx.actor, ctx.inputSha256, diff);
        if (!commit)
            return commit.error();
        out.commit = commit.value();
        return RuleStore::setState(db, n.id, req.state, out.commit.id);
    });
    if (!written)
        return written.error();
    return out;
}

} // namespace MemoryGraph
