#include "service/http/dto.h"

#include "service/core/jsonvalues.h"
#include "service/http/recalltrace.h"
#include "service/http/tooldto.h"
#include "service/recall/seedfusion.h"

#include <QJsonArray>

namespace MemoryGraph::Dto {

QJsonObject error(const Error &e, const QString &requestId)
{
    // details is always an object, so clients can read it without checking for its presence.
    return {{QStringLiteral("error"), e.code},
            {QStringLiteral("message"), e.message},
            {QStringLiteral("details"), e.details},
            {QStringLiteral("request_id"), requestId}};
}

QJsonObject writeResult(const WriteResult &r, const QString &requestId)
{
    QJsonArray nodes;
    for (const WrittenNode &n : r.nodes)
        nodes.append(QJsonObject{{QStringLiteral("id"), n.id},
                                 {QStringLiteral("uri"), n.uri},
                                 {QStringLiteral("client_id"), nullable(n.clientId)},
                                 {QStringLiteral("type"), n.type}});
    QJsonArray edges;
    for (const WrittenEdge &e : r.edges)
        edges.append(QJsonObject{{QStringLiteral("id"), e.id},
                                 {QStringLiteral("uri"), e.uri},
                                 {QStringLiteral("type"), e.type},
                                 {QStringLiteral("src_id"), e.srcId},
                                 {QStringLiteral("dst_id"), e.dstId}});
    QJsonObject body{{QStringLiteral("request_id"), requestId},
                     {QStringLiteral("tenant_id"), r.tenantId},
                     {QStringLiteral("scope"), r.scope},
                     {QStringLiteral("commit_id"), r.commitId},
                     {QStringLiteral("commit_uri"), r.commitUri},
                     {QStringLiteral("commit_hash"), r.commitHash},
                     {QStringLiteral("nodes"), nodes},
                     {QStringLiteral("edges"), edges}};
    if (!r.warnings.isEmpty()) {
        QJsonArray warnings;
        for (const WarningInfo &w : r.warnings)
            warnings.append(QJsonObject{{QStringLiteral("code"), w.code},
                                        {QStringLiteral("message"), w.message},
                                        {QStringLiteral("details"), w.details}});
        body.insert(QStringLiteral("warnings"), warnings);
    }
    return body;
}

QJsonValue timestamp(const QDateTime &time)
{
    return time.isValid() ? QJsonValue(time.toUTC().toString(Qt::ISODateWithMs)) : QJsonValue();
}

QJsonObject node(const NodeRecord &n, const NodeView &view)
{
    QJsonObject o{{QStringLiteral("id"), n.id},
                  {QStringLiteral("type"), n.type},
                  {QStringLiteral("title"), nullable(n.title)},
                  {QStringLiteral("text_summary"), nullable(n.textSummary)}};
    if (n.occurredAt.isValid())
        o.insert(QStringLiteral("occurred_at"), n.occurredText());
    if (n.type == QLatin1String("topic")) {
        o.insert(QStringLiteral("topic_state"), n.topicState());
        const auto members = n.memberCount();
        o.insert(QStringLiteral("member_count"), members ? QJsonValue(*members) : QJsonValue());
    }
    if (view.fullSlots) {
        o.insert(QStringLiteral("slots"), n.slotData);
    } else if (view.slotsPreview) {
        QJsonObject preview;
        const QStringList keys = n.slotData.keys(); // QJsonObject keys are sorted
        for (int i = 0; i < qMin(view.slotsPreviewKeys, int(keys.size())); ++i)
            preview.insert(keys.at(i), n.slotData.value(keys.at(i)));
        o.insert(QStringLiteral("slots_preview"), preview);
    }
    if (view.meta) {
        o.insert(QStringLiteral("raw_ref"), nullable(n.rawRef));
        o.insert(QStringLiteral("evidence_ref"), nullable(n.evidenceRef));
        o.insert(QStringLiteral("embedding_status"), n.embeddingStatus);
        o.insert(QStringLiteral("embedding_model"), nullable(n.embeddingModel));
        o.insert(QStringLiteral("memory_lane"), n.memoryLane);
        o.insert(QStringLiteral("producer_agent_id"), nullable(n.producerAgentId));
        o.insert(QStringLiteral("owner_agent_id"), nullable(n.ownerAgentId));
        o.insert(QStringLiteral("owner_team_id"), nullable(n.ownerTeamId));
        o.insert(QStringLiteral("created_at"), timestamp(n.createdAt));
        o.insert(QStringLiteral("updated_at"), timestamp(n.updatedAt));
        o.insert(QStringLiteral("last_activated"), timestamp(n.lastActivated));
        o.insert(QStringLiteral("salience"), n.salience);
        o.insert(QStringLiteral("importance"), n.importance);
        o.insert(QStringLiteral("confidence"), n.confidence);
        o.insert(QStringLiteral("commit_id"), nullable(n.commitId));
    }
    return o;
}

QJsonObject edge(const EdgeRecord &e, bool includeMeta)
{
    QJsonObject o{{QStringLiteral("from_id"), e.fromId},
                  {QStringLiteral("to_id"), e.toId},
                  {QStringLiteral("type"), e.type},
                  {QStringLiteral("weight"), e.weight}};
    if (includeMeta)
        o.insert(QStringLiteral("commit_id"), nullable(e.commitId));
    return o;
}

namespace {

/// The channels that found a seed, for callers deciding how far to trust a match.
QJsonArray foundBy(const RecallSeed &s)
{
    QJsonArray channels;
    if (s.vectorRank > 0)
        channels.append(QStringLiteral("vector"));
    if (s.lexicalRank > 0)
        channels.append(QStringLiteral("lexical"));
    if (s.timeRank > 0)
        channels.append(QStringLiteral("time"));
    if (s.conceptRank > 0)
        channels.append(QStringLiteral("concept"));
    return channels;
}

QJsonValue nullableRank(int rank)
{
    return rank > 0 ? QJsonValue(rank) : QJsonValue(QJsonValue::Null);
}

} // namespace

QJsonObject recall(const RecallOutcome &r, const RecallRequest &req, const QString &requestId)
{
    const NodeView view{req.includeMeta, req.includeSlots, req.includeSlotsPreview,
                        req.slotsPreviewKeys};
    QJsonArray seeds;
    QJsonArray seedChannels;
    for (const RecallSeed &s : r.seeds) {
        seeds.append(QJsonObject{{QStringLiteral("id"), s.node.id},
                                 {QStringLiteral("type"), s.node.type},
                                 {QStringLiteral("title"), nullable(s.node.title)},
                                 {QStringLiteral("text_summary"), nullable(s.node.textSummary)},
                                 {QStringLiteral("tier"), s.node.tier},
                                 {QStringLiteral("salience"), s.node.salience},
                                 {QStringLiteral("confidence"), s.node.confidence},
                                 {QStringLiteral("similarity"), s.similarity},
                                 {QStringLiteral("found_by"), foundBy(s)}});
        seedChannels.append(
            QJsonObject{{QStringLiteral("id"), s.node.id},
                        {QStringLiteral("vector_rank"), nullableRank(s.vectorRank)},
                        {QStringLiteral("lexical_rank"), nullableRank(s.lexicalRank)},
                        {QStringLiteral("time_rank"), nullableRank(s.timeRank)},
                        {QStringLiteral("concept_rank"), nullableRank(s.conceptRank)},
                        {QStringLiteral("relevance"), s.relevance}});
    }
    QJsonArray ranked;
    for (const RankedEntry &e : r.ranked)
        ranked.append(QJsonObject{{QStringLiteral("id"), e.id},
                                  {QStringLiteral("activation"), e.activation},
                                  {QStringLiteral("score"), e.score}});
    QJsonArray nodes;
    for (const NodeRecord &n : r.nodes)
        nodes.append(node(n, view));
    QJsonArray edges;
    for (const EdgeRecord &e : r.edges)
        edges.append(edge(e, req.includeMeta));
    QJsonObject body{{QStringLiteral("tenant_id"), r.tenantId},
                     {QStringLiteral("scope"), r.scope},
                     {QStringLiteral("seeds"), seeds},
                     {QStringLiteral("ranked"), ranked},
                     {QStringLiteral("subgraph"), QJsonObject{{QStringLiteral("nodes"), nodes},
                                                              {QStringLiteral("edges"), edges}}},
                     {QStringLiteral("context"),
                      QJsonObject{{QStringLiteral("text"), r.context.text},
                                  {QStringLiteral("items"), r.context.items},
                                  {QStringLiteral("citations"), r.context.citations}}}};
    body.insert(QStringLiteral("trajectory"), recallTrajectory(r));
    body.insert(QStringLiteral("observability"), recallObservability(r));
    if (!requestId.isEmpty())
        body.insert(QStringLiteral("request_id"), requestId);
    if (!r.embeddingProvider.isEmpty())
        body.insert(QStringLiteral("query"),
                    QJsonObject{{QStringLiteral("text"), r.queryText},
                                {QStringLiteral("embedding_provider"), r.embeddingProvider}});
    if (r.rules)
        body.insert(QStringLiteral("rules"), recallRules(r.scope, *r.rules));
    if (req.returnDebug) {
        QJsonObject debug{
            {QStringLiteral("neighborhood_counts"),
             QJsonObject{{QStringLiteral("nodes"), r.neighborhoodNodes},
                         {QStringLiteral("edges"), r.neighborhoodEdges}}},
            {QStringLiteral("profile"),
             QJsonObject{{QStringLiteral("name"), r.resolved.profile},
                         {QStringLiteral("source"), r.resolved.profileSource},
                         {QStringLiteral("adaptive_downgrade"), r.resolved.adaptiveApplied}}},
            {QStringLiteral("stage1"),
             QJsonObject{{QStringLiteral("mode"), r.stage1Mode},
                         {QStringLiteral("ann_seed_count"), r.annCandidates},
                         {QStringLiteral("lexical_seed_count"), r.lexicalCandidates},
                         {QStringLiteral("concept_seed_count"), r.conceptCandidates},
                         {QStringLiteral("dated_seed_count"), r.datedCandidates},
                         {QStringLiteral("period"), nullable(r.period)},
                         {QStringLiteral("final_seed_count"), r.seeds.size()},
                         {QStringLiteral("channels"), r.seedChannels},
                         {QStringLiteral("fusion"),
                          r.seedChannels == QLatin1String("vector")
                              ? QJsonValue(QJsonValue::Null)
                              : QJsonValue(QJsonObject{
                                  {QStringLiteral("method"), QStringLiteral("reciprocal_rank")},
                                  {QStringLiteral("k"), SeedFusion::kRrfK}})},
                         {QStringLiteral("seeds"), seedChannels}}}};
        if (!r.context.compaction.isEmpty())
            debug.insert(QStringLiteral("context_compaction"), r.context.compaction);
        if (r.debugEmbeddingsIncluded)
            debug.insert(QStringLiteral("embeddings"), r.debugEmbeddings);
        body.insert(QStringLiteral("debug"), debug);
    }
    return body;
}

QJsonObject health(const HealthInfo &h, bool includeCounts)
{
    QJsonObject body{
        {QStringLiteral("ok"), true},
        {QStringLiteral("version"), h.version},
        {QStringLiteral("storage"), QJsonObject{{QStringLiteral("backend"), h.storageBackend}}},
        {QStringLiteral("auth_mode"), h.authMode}};
    if (includeCounts)
        body.insert(QStringLiteral("counts"), QJsonObject{{QStringLiteral("nodes"), h.nodes},
                                                          {QStringLiteral("edges"), h.edges},
                                                          {QStringLiteral("commits"), h.commits},
                                                          {QStringLiteral("scopes"), h.scopes}});
    return body;
}

} // namespace MemoryGraph::Dto
