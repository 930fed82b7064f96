#include "service/recall/recallengine.h"

#include "service/core/hashing.h"
#include "service/access/callscope.h"
#include "service/index/indexmanager.h"
#include "service/recall/recallaudit.h"
#include "service/index/vectormath.h"
#include "service/access/viewer.h"
#include "service/core/vocabulary.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/recallstore.h"
#include "service/storage/rulestore.h"

#include <QHash>
#include <QJsonDocument>
#include <QSet>

#include <algorithm>

namespace MemoryGraph {

namespace {

const QStringList &seedTypes()
{
    static const QStringList t{QStringLiteral("event"), QStringLiteral("topic"), QStringLiteral("concept"),
                               QStringLiteral("entity"), QStringLiteral("rule")};
    return t;
}

bool isDraftTopic(const NodeRecord &n)
{
    return n.type == QLatin1String("topic") && n.topicState() == QLatin1String("draft");
}

bool isReady(const NodeRecord &n)
{
    return n.embeddingStatus == QLatin1String("ready");
}

double clamp01(double v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

double edgeTypeWeight(const QString &type)
{
    if (type == QLatin1String("derived_from"))
        return 1.0;
    if (type == QLatin1String("part_of"))
        return 0.9;
    return 0.6;
}

/// "[v1,v2,...]": the text form a vector is hashed in for debug previews.
QString vectorText(const QVector<float> &v)
{
    QStringList parts;
    parts.reserve(v.size());
    for (float f : v)
        parts << QString::number(double(f), 'g', 9);
    return QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
}

/// spec §4.3.3 conditions 1-3, checked before any work is done.
std::optional<Error> debugEmbeddingsRefusal(const RecallRequest &req, const RequestMeta &meta,
                                            const ServiceConfig &config, int limit)
{
    if (!req.includeEmbeddings)
        return std::nullopt;
    if (!req.returnDebug)
        return Error::make(400, QStringLiteral("debug_embeddings_requires_return_debug"),
                           QStringLiteral("include_embeddings needs return_debug=true"));
    const bool allowed = meta.adminAuthorized
                         || (config.adminToken.isEmpty() && !config.production && meta.loopback);
    if (!allowed)
        return Error::make(400, QStringLiteral("debug_embeddings_not_allowed"),
                           QStringLiteral("debug embeddings need X-Admin-Token (or, with ADMIN_TOKEN "
                                          "unset outside production, a loopback caller)"));
    if (limit > 20)
        return Error::make(400, QStringLiteral("debug_embeddings_limit_too_high"),
                           QStringLiteral("debug embeddings allow limit <= 20"),
                           {{QStringLiteral("limit"), limit}, {QStringLiteral("max"), 20}});
    return std::nullopt;
}

} // namespace

RecallEngine::RecallEngine(Database &db, IndexManager &indexes, RecallAudit &audit,
                           const ServiceConfig &config)
    : m_db(db), m_indexes(indexes), m_audit(audit), m_config(config)
{
}

Result<RecallAdmission> RecallEngine::admit(const RecallRequest &req, const RequestMeta &meta,
                                            const ServiceConfig &config)
{
    auto scoped = resolveCallScope(req.tenantId, req.scope, meta, config);
    if (!scoped)
        return scoped.error();
    auto viewer = resolveViewer(req.consumerAgentId, req.consumerTeamId, meta, config);
    if (!viewer)
        return viewer.error();
    RecallAdmission admitted{scoped.value(), viewer.value(), std::nullopt};
    if (req.rulesContextGiven) {
        auto context = RuleEvaluator::withCallerIdentity(req.rulesContext, meta);
        if (!context)
            return context.error();
        admitted.rulesContext = context.value();
    }
    return admitted;
}

Result<RecallOutcome> RecallEngine::recall(const RecallRequest &req, const QVector<float> &query,
                                           const RequestMeta &meta, const QString &endpoint)
{
    auto admitted = admit(req, meta, m_config);
    if (!admitted)
        return admitted.error();
    const CallScope cs = admitted.value().scope;
    const Viewer viewer = admitted.value().viewer;

    RecallOutcome out;
    out.tenantId = cs.tenantId;
    out.scope = cs.scope;
    out.endpoint = endpoint;
    out.resolved = resolveRecallKnobs(req, cs.tenantId, endpoint, m_config, meta.queueWaitMs);
    const RecallKnobs &k = out.resolved.knobs;
    if (auto refusal = debugEmbeddingsRefusal(req, meta, m_config, k.limit))
        return *refusal;
    if (VectorMath::norm(query.constData(), int(query.size())) == 0.0f)
        return Error::invalidField(QStringLiteral("query_embedding"), QStringLiteral("must not be all zeros"));

    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase db = conn.value();

    // Stage 1: seeds. Over-fetch from the index, then apply the filters SQLite knows about.
    const auto seedAllowed = [&viewer](const NodeRecord &n) {
        return isReady(n) && (n.tier == QLatin1String("hot") || n.tier == QLatin1String("warm"))
               && seedTypes().contains(n.type) && !isDraftTopic(n) && viewer.sees(n);
    };
    // Widen the index search while filtered-out neighbours crowd the top; past a bound, scan
    // exactly with the filters applied in SQL so a visible seed is never missed.
    constexpr int kMaxAnnCandidates = 4096;
    int want = qMax(k.limit, qMin(1000, 5 * k.limit));
    QVector<RecallSeed> seeds;
    bool exhausted = false;
    while (true) {
        auto hits = m_indexes.search(cs.tenantId, cs.scope, query, want);
        if (!hits)
            return hits.error();
        out.annCandidates = int(hits.value().size());
        QHash<qint64, float> similarity;
        QVector<qint64> labels;
        for (const VectorMatch &h : hits.value()) {
            similarity.insert(h.label, h.similarity);
            labels << h.label;
        }
        auto nodes = RecallStore::nodesByLabels(db, cs.tenantId, cs.scope, labels);
        if (!nodes)
            return nodes.error();
        seeds.clear();
        for (const NodeRecord &n : nodes.value()) {
            if (seedAllowed(n))
                seeds.append({n, double(similarity.value(n.vectorLabel))});
        }
        exhausted = hits.value().size() < want;
        if (seeds.size() >= k.limit || exhausted || want >= kMaxAnnCandidates)
            break;
        want = qMin(want * 4, kMaxAnnCandidates);
    }
    out.stage1Mode = QStringLiteral("ann");
    if (seeds.size() < k.limit && !exhausted) {
        auto exact = RecallStore::exactSeedScan(db, cs.tenantId, cs.scope, seedTypes(), viewer.agentId,
                                                viewer.teamId, query, k.limit);
        if (!exact)
            return exact.error();
        QHash<qint64, float> similarity;
        QVector<qint64> labels;
        for (const RecallStore::LabelScore &h : exact.value()) {
            similarity.insert(h.label, h.similarity);
            labels << h.label;
        }
        auto nodes = RecallStore::nodesByLabels(db, cs.tenantId, cs.scope, labels);
        if (!nodes)
            return nodes.error();
        seeds.clear();
        for (const NodeRecord &n : nodes.value()) {
            if (seedAllowed(n))
                seeds.append({n, double(similarity.value(n.vectorLabel))});
        }
        out.stage1Mode = QStringLiteral("exact_fallback");
    }
    std::stable_sort(seeds.begin(), seeds.end(), [](const RecallSeed &a, const RecallSeed &b) {
        return a.similarity > b.similarity || (a.similarity == b.similarity && a.node.id < b.node.id);
    });
    if (seeds.size() > k.limit)
        seeds.resize(k.limit);
    out.seeds = seeds;

    // Stage 2: neighbourhood within the hop budget; edges are undirected for traversal.
    const int edgeBudget = qMin(1000, 5 * k.maxEdges);
    const int hopBudget = qBound(50, edgeBudget, 500);
    QStringList frontier;
    QSet<QString> seedIds;
    for (const RecallSeed &s : seeds) {
        frontier << s.node.id;
        seedIds.insert(s.node.id);
    }
    QVector<EdgeRecord> edges;
    for (int hop = 0; hop < k.hops && !frontier.isEmpty() && edgeBudget > 0; ++hop) {
        auto found = RecallStore::edgesAround(db, cs.tenantId, cs.scope, frontier, k.minEdgeWeight,
                                              k.minEdgeConfidence, hopBudget);
        if (!found)
            return found.error();
        edges = found.value();
        QSet<QString> next(frontier.begin(), frontier.end());
        for (const EdgeRecord &e : edges) {
            next.insert(e.fromId);
            next.insert(e.toId);
        }
        frontier = QStringList(next.begin(), next.end());
        frontier.sort();
    }
    std::stable_sort(edges.begin(), edges.end(), [](const EdgeRecord &a, const EdgeRecord &b) {
        return a.weight > b.weight || (a.weight == b.weight && a.confidence > b.confidence);
    });
    if (edges.size() > edgeBudget)
        edges.resize(edgeBudget);

    QHash<QString, double> strength;
    for (const EdgeRecord &e : edges) {
        strength[e.fromId] += e.weight * e.confidence;
        strength[e.toId] += e.weight * e.confidence;
    }
    QStringList others;
    for (auto it = strength.constBegin(); it != strength.constEnd(); ++it) {
        if (!seedIds.contains(it.key()))
            others << it.key();
    }
    std::sort(others.begin(), others.end(), [&strength](const QString &a, const QString &b) {
        const double sa = strength.value(a), sb = strength.value(b);
        return sa > sb || (sa == sb && a < b);
    });
    const int nodeBudget = qMin(800, 4 * k.maxNodes);
    QStringList fetchIds(seedIds.begin(), seedIds.end());
    for (const QString &id : others) {
        if (fetchIds.size() >= qMax(nodeBudget, int(seedIds.size())))
            break;
        fetchIds << id;
    }
    auto fetched = RecallStore::nodesByIds(db, cs.tenantId, cs.scope, fetchIds);
    if (!fetched)
        return fetched.error();
    QHash<QString, NodeRecord> nodeMap;
    for (const NodeRecord &n : fetched.value()) {
        if (viewer.sees(n))
            nodeMap.insert(n.id, n);
    }
    for (const RecallSeed &s : seeds)
        nodeMap.insert(s.node.id, s.node);
    edges.erase(std::remove_if(edges.begin(), edges.end(), [&nodeMap](const EdgeRecord &e) {
                    return !nodeMap.contains(e.fromId) || !nodeMap.contains(e.toId);
                }),
                edges.end());
    out.neighborhoodNodes = int(nodeMap.size());
    out.neighborhoodEdges = int(edges.size());

    // Spreading activation: max-propagation over the scoring graph (no drafts, ready only).
    const auto scorable = [](const NodeRecord &n) { return isReady(n) && !isDraftTopic(n); };
    QHash<QString, double> activation;
    QStringList discovery;
    for (const RecallSeed &s : seeds) {
        activation.insert(s.node.id, clamp01(0.75 * s.similarity + 0.25 * s.node.salience));
        discovery << s.node.id;
    }
    for (int hop = 0; hop < k.hops; ++hop) {
        const QHash<QString, double> snapshot = activation;
        for (const EdgeRecord &e : edges) {
            const NodeRecord &a = nodeMap[e.fromId];
            const NodeRecord &b = nodeMap[e.toId];
            if (!scorable(a) || !scorable(b))
                continue;
            const double w = edgeTypeWeight(e.type) * e.weight * e.confidence * 0.5;
            for (const auto &[from, to] : {std::pair(e.fromId, e.toId), std::pair(e.toId, e.fromId)}) {
                if (!snapshot.contains(from))
                    continue;
                const double candidate = snapshot.value(from) * w;
                if (!activation.contains(to))
                    discovery << to;
                if (candidate > activation.value(to, -1.0))
                    activation.insert(to, candidate);
            }
        }
    }
    QVector<RankedEntry> ranking;
    for (const QString &id : discovery) {
        const NodeRecord &n = nodeMap[id];
        const double a = activation.value(id);
        ranking.append({id, a, 0.7 * a + 0.15 * n.confidence + 0.15 * n.salience});
    }
    std::stable_sort(ranking.begin(), ranking.end(),
                     [](const RankedEntry &a, const RankedEntry &b) { return a.score > b.score; });
    out.ranked = ranking.mid(0, k.rankedLimit);

    // Subgraph: seeds, then ranked nodes up to max_nodes; strongly attached draft topics join.
    QStringList core;
    QSet<QString> inCore;
    for (const RecallSeed &s : seeds) {
        if (core.size() < k.maxNodes && isReady(s.node)) {
            core << s.node.id;
            inCore.insert(s.node.id);
        }
    }
    for (const RankedEntry &r : ranking) {
        if (core.size() >= k.maxNodes)
            break;
        if (!inCore.contains(r.id)) {
            core << r.id;
            inCore.insert(r.id);
        }
    }
    QHash<QString, double> draftScore;
    for (const EdgeRecord &e : edges) {
        if (e.type != QLatin1String("part_of") && e.type != QLatin1String("derived_from"))
            continue;
        for (const auto &[member, topic] : {std::pair(e.fromId, e.toId), std::pair(e.toId, e.fromId)}) {
            const NodeRecord &t = nodeMap[topic];
            if (inCore.contains(member) && isDraftTopic(t) && isReady(t) && !inCore.contains(topic))
                draftScore[topic] += e.weight * e.confidence;
        }
    }
    QStringList drafts = draftScore.keys();
    std::sort(drafts.begin(), drafts.end(), [&draftScore](const QString &a, const QString &b) {
        return draftScore.value(a) > draftScore.value(b) || (draftScore.value(a) == draftScore.value(b) && a < b);
    });
    const int draftBudget = qMin(10, k.maxNodes / 5);
    int room = k.maxNodes - int(core.size());
    int take = qMin(draftBudget, int(drafts.size()));
    if (room < take) {
        // Swap out the lowest-ranked non-seed nodes; seeds always stay.
        int swap = take - room;
        for (int i = int(core.size()) - 1; i >= 0 && swap > 0; --i) {
            if (!seedIds.contains(core.at(i))) {
                inCore.remove(core.at(i));
                core.removeAt(i);
                --swap;
            }
        }
        take = qMin(take, k.maxNodes - int(core.size()));
    }
    for (int i = 0; i < take; ++i) {
        core << drafts.at(i);
        inCore.insert(drafts.at(i));
    }
    for (const QString &id : core)
        out.nodes.append(nodeMap[id]);
    QVector<EdgeRecord> subEdges;
    for (const EdgeRecord &e : edges) {
        if (inCore.contains(e.fromId) && inCore.contains(e.toId))
            subEdges.append(e);
    }
    std::stable_sort(subEdges.begin(), subEdges.end(), [](const EdgeRecord &a, const EdgeRecord &b) {
        return a.weight * a.confidence > b.weight * b.confidence;
    });
    if (subEdges.size() > k.maxEdges)
        subEdges.resize(k.maxEdges);
    out.edges = subEdges;

    // Context from the full ranking (spec §4.3.2.5-6).
    QVector<NodeRecord> rankedNodes;
    for (const RankedEntry &r : ranking)
        rankedNodes.append(nodeMap[r.id]);
    ContextOptions copts;
    copts.tokenBudget = req.contextTokenBudget;
    copts.charBudget = req.contextCharBudget;
    copts.profile = req.compactionProfile;
    QStringList ruleIds;
    for (const NodeRecord &n : std::as_const(rankedNodes)) {
        if (n.type == QLatin1String("rule"))
            ruleIds << n.id;
    }
    if (!ruleIds.isEmpty()) {
        auto statuses = RuleStore::statuses(db, ruleIds);
        if (!statuses)
            return statuses.error();
        copts.ruleStatuses = statuses.value();
    }
    if (endpoint == QLatin1String("recall_text") && !copts.tokenBudget && !copts.charBudget
        && m_config.recallTextTokenBudgetDefault > 0)
        copts.tokenBudget = m_config.recallTextTokenBudgetDefault;
    out.context = buildContext(rankedNodes, copts);

    if (req.returnDebug && req.includeEmbeddings) {
        for (int i = 0; i < qMin(5, int(seeds.size())); ++i) {
            auto bytes = GraphStore::nodeEmbedding(db, seeds.at(i).node.id);
            if (!bytes)
                return bytes.error();
            const QVector<float> v = VectorMath::fromBytes(bytes.value());
            QJsonArray preview;
            for (int d = 0; d < qMin(16, int(v.size())); ++d)
                preview.append(double(v.at(d)));
            out.debugEmbeddings.append(QJsonObject{
                {QStringLiteral("node_id"), seeds.at(i).node.id},
                {QStringLiteral("dims"), int(v.size())},
                {QStringLiteral("sha256"), sha256Hex(vectorText(v).toUtf8())},
                {QStringLiteral("preview"), preview}});
        }
        if (QJsonDocument(out.debugEmbeddings).toJson(QJsonDocument::Compact).size() > 64 * 1024)
            return Error::make(400, QStringLiteral("debug_embeddings_too_large"),
                               QStringLiteral("debug embedding preview exceeds 64KB"));
        out.debugEmbeddingsIncluded = true;
    }

    if (admitted.value().rulesContext) {
        auto rules = RuleEvaluator::evaluate(db, cs.tenantId, cs.scope, *admitted.value().rulesContext,
                                             req.rulesIncludeShadow, req.rulesLimit);
        if (!rules)
            return rules.error();
        out.rules = rules.value();
    }

    // Read-side audit: best effort, off the request path (spec §2.10).
    RecallStore::AuditRow audit{cs.tenantId, cs.scope, endpoint, viewer.agentId, viewer.teamId,
                                sha256Hex(vectorText(query).toUtf8()), int(seeds.size()),
                                int(out.nodes.size()), int(out.edges.size())};
    m_audit.record(audit);
    return out;
}

} // namespace MemoryGraph
