#include "service/http/recalltrace.h"

#include <QJsonArray>

#include <cmath>

namespace MemoryGraph::Dto {

namespace {

/// local for one hop, global for wide two-hop budgets, balanced in between.
QString strategy(const RecallKnobs &k)
{
    if (k.hops <= 1)
        return QStringLiteral("local");
    return k.maxNodes > 60 || k.maxEdges > 80 ? QStringLiteral("global")
                                              : QStringLiteral("balanced");
}

/// Milliseconds to the microsecond: enough to compare stages, short enough to read.
double ms(double value)
{
    return std::round(value * 1000.0) / 1000.0;
}

/// Reference §4.10 names the stages of the original pipeline (ANN, exact fallback, edges,
/// nodes, spread); this pipeline's stages differ (fused seed channels, one expansion step, a
/// separate subgraph cut), so the keys name its own stages.
QJsonObject stageTimings(const RecallTimings &t)
{
    return {{QStringLiteral("embed_query_ms"), ms(t.embedQuery)},
            {QStringLiteral("stage1_seeds_ms"), ms(t.seeds)},
            {QStringLiteral("stage1_vector_ms"), ms(t.vectorChannel)},
            {QStringLiteral("stage1_lexical_ms"), ms(t.lexicalChannel)},
            {QStringLiteral("stage1_time_ms"), ms(t.timeChannel)},
            {QStringLiteral("stage1_concept_ms"), ms(t.conceptChannel)},
            {QStringLiteral("stage2_expand_ms"), ms(t.expand)},
            {QStringLiteral("stage2_spread_ms"), ms(t.spread)},
            {QStringLiteral("stage2_subgraph_ms"), ms(t.subgraph)},
            {QStringLiteral("stage3_context_ms"), ms(t.context)},
            {QStringLiteral("rules_ms"), ms(t.rules)},
            {QStringLiteral("debug_embeddings_ms"), ms(t.debugEmbeddings)},
            {QStringLiteral("total_ms"), ms(t.total + t.embedQuery)}};
}

/// How many of the final seeds each channel found (a fused seed counts for every channel).
QJsonObject seedsByChannel(const RecallOutcome &r)
{
    int vector = 0, lexical = 0, time = 0, concepts = 0;
    for (const RecallSeed &s : r.seeds) {
        vector += s.vectorRank > 0 ? 1 : 0;
        lexical += s.lexicalRank > 0 ? 1 : 0;
        time += s.timeRank > 0 ? 1 : 0;
        concepts += s.conceptRank > 0 ? 1 : 0;
    }
    return {{QStringLiteral("vector"), vector},
            {QStringLiteral("lexical"), lexical},
            {QStringLiteral("time"), time},
            {QStringLiteral("concept"), concepts}};
}

} // namespace

QJsonObject recallTrajectory(const RecallOutcome &r)
{
    const RecallKnobs &k = r.resolved.knobs;
    QStringList seedReasons, graphReasons, contextReasons;
    if (r.seeds.isEmpty())
        seedReasons << QStringLiteral("seed_empty");
    if (r.stage1Mode == QLatin1String("exact") && r.seeds.isEmpty())
        seedReasons << QStringLiteral("exact_fallback_empty");
    if (r.annCandidates > r.seeds.size() && r.seeds.size() < k.limit)
        seedReasons << QStringLiteral("seed_visibility_or_state_filtered");
    if (r.neighborhoodNodes > r.nodes.size())
        graphReasons << QStringLiteral("max_nodes_cap");
    if (r.neighborhoodEdges > r.edges.size())
        graphReasons << QStringLiteral("max_edges_cap");
    if (k.minEdgeWeight > 0 || k.minEdgeConfidence > 0)
        graphReasons << QStringLiteral("edge_quality_thresholds_active");
    if (r.nodes.isEmpty())
        contextReasons << QStringLiteral("context_empty_no_nodes");
    else if (r.context.text.isEmpty())
        contextReasons << QStringLiteral("context_empty_after_compaction_or_missing_text");
    const RecallTimings &t = r.timings;
    const QJsonArray layers{
        QJsonObject{{QStringLiteral("level"), QStringLiteral("L0")},
                    {QStringLiteral("name"), QStringLiteral("seed_candidates")},
                    {QStringLiteral("hits"), r.seeds.size()},
                    {QStringLiteral("ann_seed_candidates"), r.annCandidates},
                    {QStringLiteral("mode"), r.stage1Mode},
                    {QStringLiteral("channels"), r.seedChannels},
                    {QStringLiteral("duration_ms"), ms(t.seeds)},
                    {QStringLiteral("pruned_reasons"), QJsonArray::fromStringList(seedReasons)}},
        QJsonObject{
            {QStringLiteral("level"), QStringLiteral("L1")},
            {QStringLiteral("name"), QStringLiteral("graph_expansion")},
            {QStringLiteral("hits"), r.nodes.size()},
            {QStringLiteral("edges"), r.edges.size()},
            {QStringLiteral("candidate_nodes"), r.neighborhoodNodes},
            {QStringLiteral("candidate_edges"), r.neighborhoodEdges},
            {QStringLiteral("dropped_nodes"), qMax(0, r.neighborhoodNodes - int(r.nodes.size()))},
            {QStringLiteral("dropped_edges"), qMax(0, r.neighborhoodEdges - int(r.edges.size()))},
            {QStringLiteral("duration_ms"), ms(t.expand + t.spread + t.subgraph)},
            {QStringLiteral("pruned_reasons"), QJsonArray::fromStringList(graphReasons)}},
        QJsonObject{
            {QStringLiteral("level"), QStringLiteral("L2")},
            {QStringLiteral("name"), QStringLiteral("context_assembly")},
            {QStringLiteral("context_chars"), r.context.text.size()},
            {QStringLiteral("duration_ms"), ms(t.context)},
            {QStringLiteral("pruned_reasons"), QJsonArray::fromStringList(contextReasons)}}};
    return {{QStringLiteral("strategy"), strategy(k)},
            {QStringLiteral("layers"), layers},
            {QStringLiteral("budgets"),
             QJsonObject{{QStringLiteral("limit"), k.limit},
                         {QStringLiteral("neighborhood_hops"), k.hops},
                         {QStringLiteral("max_nodes"), k.maxNodes},
                         {QStringLiteral("max_edges"), k.maxEdges},
                         {QStringLiteral("ranked_limit"), k.rankedLimit},
                         {QStringLiteral("min_edge_weight"), k.minEdgeWeight},
                         {QStringLiteral("min_edge_confidence"), k.minEdgeConfidence}}},
            {QStringLiteral("pruned_reasons"),
             QJsonArray::fromStringList(seedReasons + graphReasons + contextReasons)}};
}

QJsonObject recallObservability(const RecallOutcome &r)
{
    const QJsonObject compaction = r.context.compaction;
    return {{QStringLiteral("endpoint"), r.endpoint},
            {QStringLiteral("profile"),
             QJsonObject{{QStringLiteral("profile"), r.resolved.profile},
                         {QStringLiteral("source"), r.resolved.profileSource},
                         {QStringLiteral("adaptive_applied"), r.resolved.adaptiveApplied}}},
            {QStringLiteral("inflight_wait_ms"), ms(r.queueWaitMs)},
            {QStringLiteral("stage_timings_ms"), stageTimings(r.timings)},
            {QStringLiteral("stage1"),
             QJsonObject{{QStringLiteral("mode"), r.stage1Mode},
                         {QStringLiteral("channels"), r.seedChannels},
                         {QStringLiteral("ann_seed_count"), r.annCandidates},
                         {QStringLiteral("lexical_seed_count"), r.lexicalCandidates},
                         {QStringLiteral("concept_seed_count"), r.conceptCandidates},
                         {QStringLiteral("dated_seed_count"), r.datedCandidates},
                         {QStringLiteral("final_seed_count"), r.seeds.size()},
                         {QStringLiteral("seeds_by_channel"), seedsByChannel(r)}}},
            {QStringLiteral("neighborhood_counts"),
             QJsonObject{{QStringLiteral("nodes"), r.neighborhoodNodes},
                         {QStringLiteral("edges"), r.neighborhoodEdges}}},
            {QStringLiteral("ranking"),
             QJsonObject{{QStringLiteral("scored_nodes"), r.scoredNodes},
                         {QStringLiteral("ranked_returned"), r.ranked.size()},
                         {QStringLiteral("top_score"),
                          r.ranked.isEmpty() ? QJsonValue() : QJsonValue(r.ranked.first().score)},
                         {QStringLiteral("subgraph_nodes"), r.nodes.size()},
                         {QStringLiteral("subgraph_edges"), r.edges.size()}}},
            {QStringLiteral("context"),
             QJsonObject{{QStringLiteral("chars"), r.context.text.size()},
                         {QStringLiteral("est_tokens"), estimateTokens(r.context.text)},
                         {QStringLiteral("items"), r.context.items.size()},
                         {QStringLiteral("citations"), r.context.citations.size()},
                         {QStringLiteral("compaction_applied"),
                          compaction.value(QStringLiteral("applied")).toBool()}}}};
}

} // namespace MemoryGraph::Dto
