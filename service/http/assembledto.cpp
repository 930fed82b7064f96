#include "service/http/assembledto.h"

#include "service/assemble/contextbuilder.h"
#include "service/core/ids.h"
#include "service/core/jsonvalues.h"
#include "service/http/dto.h"
#include "service/http/tooldto.h"

#include <QJsonArray>

namespace MemoryGraph::Dto {

namespace {

QJsonObject executionKernel(const AssembleOutcome &o)
{
    return {{QStringLiteral("packet_source_mode"), o.packetSourceMode},
            {QStringLiteral("state_first_assembly"),
             o.packetSourceMode == QLatin1String("state_first")},
            {QStringLiteral("execution_packet_v1_present"),
             o.continuity.contains(QStringLiteral("execution_packet_v1"))},
            {QStringLiteral("execution_state_v1_present"),
             o.continuity.contains(QStringLiteral("execution_state_v1"))}};
}

QString promptText(const AssembleOutcome &o)
{
    return o.layered ? o.layered->mergedText : o.recall.context.text;
}

QJsonObject assemblySummary(const AssembleOutcome &o)
{
    QStringList levers;
    const QJsonObject &compaction = o.recall.context.compaction;
    if (compaction.value(QStringLiteral("applied")).toBool())
        levers << QStringLiteral("context_compaction");
    if (o.layered && o.layered->droppedItems > 0)
        levers << QStringLiteral("layer_budgets");
    if (o.layered && o.layered->forgottenItems > 0)
        levers << QStringLiteral("forgetting");
    if (o.layered && o.layered->staticBlocksRejected > 0)
        levers << QStringLiteral("static_injection_filter");
    const bool decided = o.tools.has_value();
    return {
        {QStringLiteral("summary_version"), QStringLiteral("assembly_summary_v1")},
        {QStringLiteral("selected_tool"),
         decided ? nullable(o.tools->selection.selected) : QJsonValue()},
        {QStringLiteral("decision_id"), decided ? QJsonValue(o.tools->decision.id) : QJsonValue()},
        {QStringLiteral("rules_considered"), o.rules ? o.rules->evaluation.considered : 0},
        {QStringLiteral("rules_matched"), o.rules ? o.rules->evaluation.matched() : 0},
        {QStringLiteral("include_rules"), o.includeRules},
        {QStringLiteral("context_est_tokens"), estimateTokens(promptText(o))},
        {QStringLiteral("layered_output"), o.layered.has_value()},
        {QStringLiteral("forgotten_items"), o.layered ? o.layered->forgottenItems : 0},
        {QStringLiteral("static_blocks_selected"), o.layered ? o.layered->staticBlocksSelected : 0},
        {QStringLiteral("selected_memory_layers"),
         QJsonArray::fromStringList(o.layered ? o.layered->layersWithContent : QStringList())},
        {QStringLiteral("optimization_profile"), o.optimizationProfile},
        {QStringLiteral("context_compaction_profile"), o.recallRequest.compactionProfile},
        {QStringLiteral("recall_mode"), o.recall.stage1Mode},
        {QStringLiteral("primary_savings_levers"), QJsonArray::fromStringList(levers)}};
}

/// What the assembly costs a prompt: characters and estimated tokens of each text, and how many
/// records fed it.
QJsonObject costSignals(const AssembleOutcome &o)
{
    const QString recallText = o.recall.context.text;
    const QString merged = o.layered ? o.layered->mergedText : QString();
    return {{QStringLiteral("recall_context_chars"), recallText.size()},
            {QStringLiteral("recall_context_est_tokens"), estimateTokens(recallText)},
            {QStringLiteral("layered_context_chars"), merged.size()},
            {QStringLiteral("layered_context_est_tokens"), estimateTokens(merged)},
            {QStringLiteral("seed_count"), o.recall.seeds.size()},
            {QStringLiteral("subgraph_nodes"), o.recall.nodes.size()},
            {QStringLiteral("subgraph_edges"), o.recall.edges.size()},
            {QStringLiteral("context_items"), o.recall.context.items.size()},
            {QStringLiteral("rules_considered"), o.rules ? o.rules->evaluation.considered : 0},
            {QStringLiteral("tool_candidates"), o.tools ? o.tools->candidates.size() : 0},
            {QStringLiteral("embedding_calls"), 1}};
}

QJsonObject commitBody(const CommitRecord &c)
{
    return {{QStringLiteral("commit_id"), c.id},
            {QStringLiteral("commit_uri"),
             recordUri(c.tenantId, c.scope, QStringLiteral("commit"), c.id)},
            {QStringLiteral("commit_hash"), c.commitHash},
            {QStringLiteral("parent"), nullable(c.parentId)},
            {QStringLiteral("kind"), c.kind},
            {QStringLiteral("actor"), nullable(c.actor)},
            {QStringLiteral("created_at"), timestamp(c.createdAt)},
            {QStringLiteral("diff_sha256"), c.diffSha256}};
}

} // namespace

QJsonObject assemble(const AssembleOutcome &o, const QString &requestId)
{
    // The recall block carries trajectory and observability like /recall itself.
    const QJsonObject recallBody = recall(o.recall, o.recallRequest, QString());
    QJsonObject body{
        {QStringLiteral("request_id"), requestId},
        {QStringLiteral("tenant_id"), o.scope.tenantId},
        {QStringLiteral("scope"), o.scope.scope},
        {QStringLiteral("execution_kernel"), executionKernel(o)},
        {QStringLiteral("query"),
         QJsonObject{{QStringLiteral("text"), o.recall.queryText},
                     {QStringLiteral("embedding_provider"), o.recall.embeddingProvider}}},
        {QStringLiteral("recall"), recallBody},
        {QStringLiteral("assembly_summary"), assemblySummary(o)},
        {QStringLiteral("cost_signals"), costSignals(o)}};
    if (o.rules)
        body.insert(QStringLiteral("rules"), rulesEvaluate(*o.rules));
    if (o.tools) {
        QJsonObject tools = toolSelect(*o.tools, QString());
        tools.remove(QStringLiteral("request_id")); // the assembly's own request_id is at the top
        body.insert(QStringLiteral("tools"), tools);
    }
    if (o.layered)
        body.insert(QStringLiteral("layered_context"), o.layered->body);
    // Recovered continuity goes back unchanged (spec §4.13).
    for (const char *key :
         {"execution_state_v1", "execution_packet_v1", "execution_result_summary"}) {
        const QString k = QLatin1String(key);
        if (o.continuity.contains(k))
            body.insert(k, o.continuity.value(k));
    }
    return body;
}

QJsonObject resolve(const ResolveOutcome &o)
{
    QJsonObject body{{QStringLiteral("tenant_id"), o.tenantId},
                     {QStringLiteral("scope"), o.scope},
                     {QStringLiteral("uri"), o.uri},
                     {QStringLiteral("kind"), o.kind}};
    if (o.node) {
        QJsonObject n = node(*o.node, NodeView{o.includeMeta, o.includeSlots, false, 10});
        n.insert(QStringLiteral("uri"), o.uri);
        body.insert(QStringLiteral("node"), n);
    } else if (o.edge) {
        QJsonObject e = edge(*o.edge, o.includeMeta);
        e.insert(QStringLiteral("id"), o.edge->id);
        e.insert(QStringLiteral("uri"), o.uri);
        body.insert(QStringLiteral("edge"), e);
    } else if (o.commit) {
        body.insert(QStringLiteral("commit"), commitBody(*o.commit));
    } else if (o.decision) {
        body.insert(QStringLiteral("decision"), decisionBody(*o.decision));
    }
    body.insert(QStringLiteral("resolve_summary"), o.summary);
    return body;
}

QJsonObject ruleFeedback(const RuleFeedbackOutcome &o)
{
    return {{QStringLiteral("tenant_id"), o.scope.tenantId},
            {QStringLiteral("scope"), o.scope.scope},
            {QStringLiteral("commit_id"), o.commit.id},
            {QStringLiteral("commit_uri"),
             recordUri(o.scope.tenantId, o.scope.scope, QStringLiteral("commit"), o.commit.id)},
            {QStringLiteral("commit_hash"), o.commit.commitHash},
            {QStringLiteral("feedback_id"), o.feedback.id}};
}

} // namespace MemoryGraph::Dto
