#include "service/http/tooldto.h"

#include "service/core/ids.h"
#include "service/core/jsonvalues.h"
#include "service/http/dto.h"

#include <QJsonArray>

namespace MemoryGraph::Dto {

namespace {

QJsonValue orNull(const QJsonValue &v)
{
    return v.isUndefined() ? QJsonValue() : v;
}

QJsonObject rank(const Rules::RuleRank &r)
{
    return {{QStringLiteral("score"), r.score},
            {QStringLiteral("evidence_score"), r.evidenceScore},
            {QStringLiteral("priority"), r.priority},
            {QStringLiteral("weight"), r.weight},
            {QStringLiteral("specificity"), r.specificity}};
}

QJsonObject applied(const RuleEvaluation &e)
{
    QJsonObject a{{QStringLiteral("policy"), e.applied.policy},
                  {QStringLiteral("sources"), e.applied.sources},
                  {QStringLiteral("conflicts"), e.applied.conflicts},
                  {QStringLiteral("conflict_explain"), e.applied.conflictExplain},
                  {QStringLiteral("tool_explain"), e.applied.toolExplain}};
    if (e.shadowApplied) {
        a.insert(QStringLiteral("shadow_policy"), e.shadowApplied->policy);
        a.insert(QStringLiteral("shadow_sources"), e.shadowApplied->sources);
        a.insert(QStringLiteral("shadow_conflicts"), e.shadowApplied->conflicts);
        a.insert(QStringLiteral("shadow_conflict_explain"), e.shadowApplied->conflictExplain);
        a.insert(QStringLiteral("shadow_tool_explain"), e.shadowApplied->toolExplain);
    }
    return a;
}

QJsonObject selection(const Rules::ToolSelection &s)
{
    QJsonObject o{{QStringLiteral("candidates"), QJsonArray::fromStringList(s.candidates)},
                  {QStringLiteral("allowed"), QJsonArray::fromStringList(s.allowed)},
                  {QStringLiteral("denied"), s.denied},
                  {QStringLiteral("preferred"), QJsonArray::fromStringList(s.preferred)},
                  {QStringLiteral("ordered"), QJsonArray::fromStringList(s.ordered)},
                  {QStringLiteral("selected"), nullable(s.selected)}};
    if (!s.fallback.isEmpty())
        o.insert(QStringLiteral("fallback"), s.fallback);
    return o;
}

QJsonObject feedbackRow(const FeedbackRecord &f)
{
    return {{QStringLiteral("id"), f.id},
            {QStringLiteral("rule_node_id"), nullable(f.ruleNodeId)},
            {QStringLiteral("outcome"), f.outcome},
            {QStringLiteral("note"), nullable(f.note)},
            {QStringLiteral("source"), f.source},
            {QStringLiteral("decision_id"), nullable(f.decisionId)},
            {QStringLiteral("commit_id"), nullable(f.commitId)},
            {QStringLiteral("created_at"), timestamp(f.createdAt)}};
}

} // namespace

QJsonObject ruleMatch(const RuleMatch &m)
{
    QJsonObject o{
        {QStringLiteral("rule_node_id"), m.node.id},
        {QStringLiteral("state"), m.status.state.toUpper()},
        {QStringLiteral("summary"), nullable(m.node.textSummary)},
        {QStringLiteral("rule_scope"), m.definition.ruleScope},
        {QStringLiteral("if_json"),
         m.definition.ifJson.isUndefined() ? QJsonValue(QJsonObject()) : m.definition.ifJson},
        {QStringLiteral("then_json"), m.patch},
        {QStringLiteral("exceptions_json"), m.definition.exceptionsJson.isUndefined()
                                                ? QJsonValue(QJsonArray())
                                                : m.definition.exceptionsJson},
        {QStringLiteral("stats"), QJsonObject{{QStringLiteral("positive"), m.status.positive},
                                              {QStringLiteral("negative"), m.status.negative}}},
        {QStringLiteral("rank"), rank(m.rank)},
        {QStringLiteral("match_detail"),
         QJsonObject{
             {QStringLiteral("condition_paths"), QJsonArray::fromStringList(m.conditionPaths)},
             {QStringLiteral("condition_path_count"), m.conditionPaths.size()}}},
        {QStringLiteral("commit_id"), nullable(m.node.commitId)}};
    if (!m.definition.targetAgentId.isEmpty())
        o.insert(QStringLiteral("target_agent_id"), m.definition.targetAgentId);
    if (!m.definition.targetTeamId.isEmpty())
        o.insert(QStringLiteral("target_team_id"), m.definition.targetTeamId);
    return o;
}

QJsonObject rulesEvaluate(const RulesEvaluateOutcome &o)
{
    QJsonArray active, shadow;
    for (const RuleMatch &m : o.evaluation.active)
        active.append(ruleMatch(m));
    for (const RuleMatch &m : o.evaluation.shadow)
        shadow.append(ruleMatch(m));
    return {{QStringLiteral("tenant_id"), o.scope.tenantId},
            {QStringLiteral("scope"), o.scope.scope},
            {QStringLiteral("considered"), o.evaluation.considered},
            {QStringLiteral("matched"), o.evaluation.matched()},
            {QStringLiteral("skipped_invalid_then"), o.evaluation.skippedInvalidThen},
            {QStringLiteral("invalid_then_sample"), o.evaluation.invalidThenSample},
            {QStringLiteral("agent_visibility_summary"), o.evaluation.visibility},
            {QStringLiteral("active"), active},
            {QStringLiteral("shadow"), shadow},
            {QStringLiteral("applied"), applied(o.evaluation)},
            {QStringLiteral("evaluation_summary"), RuleEvaluator::evaluationSummary(o.evaluation)}};
}

QJsonObject recallRules(const QString &scope, const RuleEvaluation &e)
{
    return {{QStringLiteral("scope"), scope},
            {QStringLiteral("considered"), e.considered},
            {QStringLiteral("matched"), e.matched()},
            {QStringLiteral("skipped_invalid_then"), e.skippedInvalidThen},
            {QStringLiteral("invalid_then_sample"), e.invalidThenSample},
            {QStringLiteral("applied"), applied(e)}};
}

QJsonObject decisionBody(const DecisionRecord &d)
{
    return {{QStringLiteral("decision_id"), d.id},
            {QStringLiteral("decision_uri"),
             recordUri(d.tenantId, d.scope, QStringLiteral("decision"), d.id)},
            {QStringLiteral("decision_kind"), d.kind},
            {QStringLiteral("run_id"), nullable(d.runId)},
            {QStringLiteral("selected_tool"), nullable(d.selectedTool)},
            {QStringLiteral("candidates"), QJsonArray::fromStringList(d.candidates)},
            {QStringLiteral("context_sha256"), d.contextSha256},
            {QStringLiteral("policy_sha256"), d.policySha256},
            {QStringLiteral("source_rule_ids"), QJsonArray::fromStringList(d.sourceRuleIds)},
            {QStringLiteral("metadata"), d.metadata},
            {QStringLiteral("created_at"), timestamp(d.createdAt)},
            {QStringLiteral("commit_id"), nullable(d.commitId)},
            {QStringLiteral("commit_uri"),
             d.commitId.isEmpty() ? QJsonValue()
                                  : QJsonValue(recordUri(d.tenantId, d.scope,
                                                         QStringLiteral("commit"), d.commitId))}};
}

QJsonObject toolSelect(const ToolSelectOutcome &o, const QString &requestId)
{
    QJsonObject rules{{QStringLiteral("considered"), o.rules.considered},
                      {QStringLiteral("matched"), o.rules.matched()},
                      {QStringLiteral("skipped_invalid_then"), o.rules.skippedInvalidThen},
                      {QStringLiteral("invalid_then_sample"), o.rules.invalidThenSample},
                      {QStringLiteral("agent_visibility_summary"), o.rules.visibility},
                      {QStringLiteral("applied"), applied(o.rules)},
                      {QStringLiteral("tool_conflicts_summary"),
                       QJsonArray::fromStringList(o.toolConflictsSummary)}};
    if (o.shadowSelection) {
        rules.insert(QStringLiteral("shadow_selection"), selection(*o.shadowSelection));
        rules.insert(QStringLiteral("shadow_tool_conflicts_summary"),
                     QJsonArray::fromStringList(o.shadowToolConflictsSummary));
    }
    const DecisionRecord &d = o.decision;
    QJsonObject body{
        {QStringLiteral("request_id"), requestId},
        {QStringLiteral("tenant_id"), o.scope.tenantId},
        {QStringLiteral("scope"), o.scope.scope},
        {QStringLiteral("candidates"), QJsonArray::fromStringList(o.candidates)},
        {QStringLiteral("selection"), selection(o.selection)},
        {QStringLiteral("rules"), rules},
        {QStringLiteral("decision"),
         QJsonObject{
             {QStringLiteral("decision_id"), d.id},
             {QStringLiteral("run_id"), nullable(d.runId)},
             {QStringLiteral("selected_tool"), nullable(d.selectedTool)},
             {QStringLiteral("policy_sha256"), d.policySha256},
             {QStringLiteral("source_rule_ids"), QJsonArray::fromStringList(d.sourceRuleIds)},
             {QStringLiteral("created_at"), timestamp(d.createdAt)},
             {QStringLiteral("decision_uri"),
              recordUri(d.tenantId, d.scope, QStringLiteral("decision"), d.id)}}},
        {QStringLiteral("execution_kernel"), o.executionKernel},
        {QStringLiteral("selection_summary"), o.selectionSummary}};
    for (auto it = o.continuity.begin(); it != o.continuity.end(); ++it)
        body.insert(it.key(), it.value());
    return body;
}

QJsonObject toolFeedback(const ToolFeedbackOutcome &o)
{
    return {{QStringLiteral("ok"), true},
            {QStringLiteral("tenant_id"), o.scope.tenantId},
            {QStringLiteral("scope"), o.scope.scope},
            {QStringLiteral("updated_rules"), o.ruleIds.size()},
            {QStringLiteral("rule_node_ids"), QJsonArray::fromStringList(o.ruleIds)},
            {QStringLiteral("commit_id"), nullable(o.commit.id)},
            {QStringLiteral("commit_uri"), nullable(o.commit.uri)},
            {QStringLiteral("commit_hash"), nullable(o.commit.commitHash)},
            {QStringLiteral("decision_id"), o.decision.id},
            {QStringLiteral("decision_uri"), recordUri(o.decision.tenantId, o.decision.scope,
                                                       QStringLiteral("decision"), o.decision.id)},
            {QStringLiteral("decision_link_mode"), o.linkMode},
            {QStringLiteral("decision_policy_sha256"), o.decision.policySha256}};
}

QJsonObject toolDecision(const DecisionLookup &o, const QString &requestId)
{
    const DecisionRecord &d = o.decision;
    return {{QStringLiteral("request_id"), requestId},
            {QStringLiteral("tenant_id"), o.scope.tenantId},
            {QStringLiteral("scope"), o.scope.scope},
            {QStringLiteral("lookup_mode"), o.lookupMode},
            {QStringLiteral("decision"), decisionBody(d)},
            {QStringLiteral("lifecycle_summary"),
             QJsonObject{
                 {QStringLiteral("summary_version"), QStringLiteral("tools_lifecycle_summary_v1")},
                 {QStringLiteral("kind"), QStringLiteral("decision")},
                 {QStringLiteral("lookup_mode"), o.lookupMode},
                 {QStringLiteral("decision_id"), d.id},
                 {QStringLiteral("run_id"), nullable(d.runId)},
                 {QStringLiteral("decision_kind"), d.kind},
                 {QStringLiteral("selected_tool"), nullable(d.selectedTool)},
                 {QStringLiteral("candidate_count"), d.candidates.size()},
                 {QStringLiteral("source_rule_count"), d.sourceRuleIds.size()},
                 {QStringLiteral("metadata_source"),
                  orNull(d.metadata.value(QStringLiteral("source")))},
                 {QStringLiteral("created_at"), timestamp(d.createdAt)},
                 {QStringLiteral("tool_conflicts"), QJsonArray::fromStringList([&d] {
                      QStringList l;
                      for (const QJsonValue &v :
                           d.metadata.value(QStringLiteral("tool_conflicts_summary")).toArray())
                          l << v.toString();
                      return l.mid(0, 3);
                  }())}}}};
}

QJsonObject toolRun(const RunOutcome &o, const QString &requestId)
{
    QJsonArray decisions;
    QJsonArray recentDecisions;
    for (const DecisionRecord &d : o.decisions) {
        decisions.append(decisionBody(d));
        if (recentDecisions.size() < 3)
            recentDecisions.append(
                (d.selectedTool.isEmpty() ? QStringLiteral("<none>") : d.selectedTool)
                + QStringLiteral(" @ ") + d.createdAt.toUTC().toString(Qt::ISODateWithMs));
    }
    QJsonObject body{
        {QStringLiteral("request_id"), requestId},
        {QStringLiteral("tenant_id"), o.scope.tenantId},
        {QStringLiteral("scope"), o.scope.scope},
        {QStringLiteral("run_id"), o.runId},
        {QStringLiteral("lifecycle"),
         QJsonObject{{QStringLiteral("status"), o.status},
                     {QStringLiteral("decision_count"), o.decisionCount},
                     {QStringLiteral("latest_decision_at"), timestamp(o.latestDecisionAt)},
                     {QStringLiteral("latest_feedback_at"), timestamp(o.latestFeedbackAt)}}},
        {QStringLiteral("decisions"), decisions},
        {QStringLiteral("limits"),
         QJsonObject{{QStringLiteral("decision_limit"), o.decisionLimit},
                     {QStringLiteral("feedback_limit"), o.feedbackLimit}}},
        {QStringLiteral("lifecycle_summary"),
         QJsonObject{
             {QStringLiteral("summary_version"), QStringLiteral("tools_lifecycle_summary_v1")},
             {QStringLiteral("kind"), QStringLiteral("run_lifecycle")},
             {QStringLiteral("run_id"), o.runId},
             {QStringLiteral("status"), o.status},
             {QStringLiteral("decision_count"), o.decisionCount},
             {QStringLiteral("feedback_total"), o.feedbackTotal},
             {QStringLiteral("tools_feedback_count"), o.toolsFeedbackCount},
             {QStringLiteral("latest_decision_at"), timestamp(o.latestDecisionAt)},
             {QStringLiteral("latest_feedback_at"), timestamp(o.latestFeedbackAt)},
             {QStringLiteral("recent_decisions"), recentDecisions}}}};
    if (o.includeFeedback) {
        QJsonArray recent;
        for (const FeedbackRecord &f : o.recentFeedback)
            recent.append(feedbackRow(f));
        body.insert(QStringLiteral("feedback"),
                    QJsonObject{{QStringLiteral("total"), o.feedbackTotal},
                                {QStringLiteral("by_outcome"),
                                 QJsonObject{{QStringLiteral("positive"), o.positive},
                                             {QStringLiteral("negative"), o.negative},
                                             {QStringLiteral("neutral"), o.neutral}}},
                                {QStringLiteral("linked_decision_count"), o.linkedDecisionCount},
                                {QStringLiteral("tools_feedback_count"), o.toolsFeedbackCount},
                                {QStringLiteral("recent"), recent}});
    }
    return body;
}

QJsonObject toolRunsList(const RunListOutcome &o)
{
    QJsonArray items;
    for (const RunSummary &r : o.items)
        items.append(
            QJsonObject{{QStringLiteral("run_id"), r.runId},
                        {QStringLiteral("status"), r.status},
                        {QStringLiteral("decision_count"), r.decisionCount},
                        {QStringLiteral("feedback_total"), r.feedbackTotal},
                        {QStringLiteral("feedback_by_outcome"),
                         QJsonObject{{QStringLiteral("positive"), r.positive},
                                     {QStringLiteral("negative"), r.negative},
                                     {QStringLiteral("neutral"), r.neutral}}},
                        {QStringLiteral("latest_decision_at"), timestamp(r.latestDecisionAt)},
                        {QStringLiteral("latest_feedback_at"), timestamp(r.latestFeedbackAt)},
                        {QStringLiteral("latest_selected_tool"), nullable(r.latestSelectedTool)}});
    return {{QStringLiteral("tenant_id"), o.scope.tenantId},
            {QStringLiteral("scope"), o.scope.scope},
            {QStringLiteral("items"), items},
            {QStringLiteral("next_cursor"), nullable(o.nextCursor)}};
}

QJsonObject ruleState(const RuleStateOutcome &o)
{
    return {{QStringLiteral("tenant_id"), o.scope.tenantId},
            {QStringLiteral("scope"), o.scope.scope},
            {QStringLiteral("state"), o.state.toUpper()},
            {QStringLiteral("commit_id"), o.commit.id},
            {QStringLiteral("commit_uri"), o.commit.uri},
            {QStringLiteral("commit_hash"), o.commit.commitHash}};
}

} // namespace MemoryGraph::Dto
