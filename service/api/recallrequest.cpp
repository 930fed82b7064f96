#include "service/api/recallrequest.h"

#include "service/core/jsonreader.h"
#include "service/core/vocabulary.h"

#include <QJsonArray>

namespace MemoryGraph {

std::optional<RecallKnobs> recallProfileKnobs(const QString &profile)
{
    if (profile == QLatin1String("strict_edges"))
        return RecallKnobs{24, 2, 60, 80, 140, 0.2, 0.2};
    if (profile == QLatin1String("quality_first"))
        return RecallKnobs{30, 2, 80, 100, 180, 0.05, 0.05};
    if (profile == QLatin1String("legacy"))
        return RecallKnobs{30, 2, 50, 100, 100, 0.0, 0.0};
    return std::nullopt;
}

bool RecallRequest::hasExplicitKnobs() const
{
    return limit || hops || maxNodes || maxEdges || rankedLimit || minEdgeWeight
           || minEdgeConfidence;
}

Result<RecallRequest> RecallRequest::fromJson(const QJsonObject &body, bool textQuery,
                                              int maxTextLength, const DecodedVectors *vectors)
{
    RecallRequest q;
    JsonReader r(body, QString(), vectors);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    r.string("consumer_agent_id", &q.consumerAgentId, 256);
    r.string("consumer_team_id", &q.consumerTeamId, 256);
    if (textQuery) {
        r.requiredString("query_text", &q.queryText, 1 << 20);
        q.queryText = normalizeText(q.queryText, maxTextLength);
    } else {
        r.floatVector("query_embedding", &q.queryEmbedding, Vocabulary::kEmbeddingDimension,
                      /*required=*/true);
    }
    std::optional<int> hops;
    r.integer("limit", &q.limit, 1, 200);
    r.integer("neighborhood_hops", &hops, 1, 2);
    q.hops = hops;
    r.integer("max_nodes", &q.maxNodes, 1, 200);
    r.integer("max_edges", &q.maxEdges, 0, 100);
    r.integer("ranked_limit", &q.rankedLimit, 1, 500);
    r.number("min_edge_weight", &q.minEdgeWeight, 0.0, 1.0);
    r.number("min_edge_confidence", &q.minEdgeConfidence, 0.0, 1.0);
    r.integer("context_token_budget", &q.contextTokenBudget, 0, 10000000);
    r.integer("context_char_budget", &q.contextCharBudget, 0, 40000000);
    r.enumValue("context_compaction_profile", &q.compactionProfile,
                {QStringLiteral("balanced"), QStringLiteral("aggressive")});
    std::optional<bool> b;
    const auto flag = [&r, &b](const char *key, bool *out) {
        b.reset();
        r.boolean(key, &b);
        if (b)
            *out = *b;
    };
    flag("include_meta", &q.includeMeta);
    flag("include_slots", &q.includeSlots);
    flag("include_slots_preview", &q.includeSlotsPreview);
    flag("return_debug", &q.returnDebug);
    flag("include_embeddings", &q.includeEmbeddings);
    flag("rules_include_shadow", &q.rulesIncludeShadow);
    std::optional<int> n;
    r.integer("slots_preview_keys", &n, 1, 50);
    if (n)
        q.slotsPreviewKeys = *n;
    n.reset();
    r.integer("rules_limit", &n, 1, 200);
    if (n)
        q.rulesLimit = *n;
    const QJsonValue rules = body.value(QStringLiteral("rules_context"));
    q.rulesContextGiven = !(rules.isUndefined() || rules.isNull());
    q.rulesContext = rules;
    if (!r.ok())
        return r.error();
    return q;
}

ResolvedKnobs resolveRecallKnobs(const RecallRequest &request, const QString &tenantId,
                                 const QString &endpoint, const ServiceConfig &config,
                                 double queueWaitMs)
{
    ResolvedKnobs resolved;
    resolved.profile = config.recallProfile;
    resolved.profileSource = QStringLiteral("global");
    const QJsonObject &policy = config.recallProfilePolicy;
    const auto pick = [&resolved](const QJsonValue &v, const char *source) {
        if (v.isString() && recallProfileKnobs(v.toString())) {
            resolved.profile = v.toString();
            resolved.profileSource = QString::fromLatin1(source);
            return true;
        }
        return false;
    };
    // Highest priority first; the first layer that names a known profile wins.
    pick(policy.value(QStringLiteral("tenant_endpoint"))
             .toObject()
             .value(tenantId)
             .toObject()
             .value(endpoint),
         "tenant_endpoint")
        || pick(policy.value(QStringLiteral("tenant_default")).toObject().value(tenantId),
                "tenant_default")
        || pick(policy.value(QStringLiteral("endpoint")).toObject().value(endpoint), "endpoint")
        || pick(policy.value(QStringLiteral("default")), "global");

    if (config.adaptiveDowngrade && !request.hasExplicitKnobs()
        && queueWaitMs >= config.adaptiveWaitMs
        && resolved.profile != config.adaptiveTargetProfile) {
        resolved.profile = config.adaptiveTargetProfile;
        resolved.adaptiveApplied = true;
    }
    RecallKnobs k = *recallProfileKnobs(resolved.profile);
    k.limit = request.limit.value_or(k.limit);
    k.hops = request.hops.value_or(k.hops);
    k.maxNodes = request.maxNodes.value_or(k.maxNodes);
    k.maxEdges = request.maxEdges.value_or(k.maxEdges);
    k.rankedLimit = request.rankedLimit.value_or(k.rankedLimit);
    k.minEdgeWeight = request.minEdgeWeight.value_or(k.minEdgeWeight);
    k.minEdgeConfidence = request.minEdgeConfidence.value_or(k.minEdgeConfidence);
    resolved.knobs = k;
    return resolved;
}

} // namespace MemoryGraph
