#include "service/recall/recallengine.h"

#include "service/access/callscope.h"
#include "service/access/viewer.h"
#include "service/core/hashing.h"
#include "service/core/vocabulary.h"
#include "service/embedding/lexicalterms.h"
#include "service/index/indexmanager.h"
#include "service/index/vectormath.h"
#include "service/recall/recallaudit.h"
#include "service/recall/seedfusion.h"
#include "service/recall/timeexpressions.h"
#include "service/storage/conceptindex.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/lexicalindex.h"
#include "service/storage/recallstore.h"
#include "service/storage/rulestore.h"

#include <QElapsedTimer>
#include <QFuture>
#include <QHash>
#include <QJsonDocument>
#include <QSet>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <optional>

namespace MemoryGraph {

namespace {

constexpr int kFusionDepth = 50; // candidates each text channel hands to the fusion
// The vector channel's: an index search costs by the neighbours asked for, and past thirty the
// fused seeds were the same on the recall-quality benchmark (tests/benchmark/README.md).
constexpr int kVectorFusionDepth = 30;
// Its graph search's candidate list (hnswlib's ef), half the index's own: fusion ranks the
// channel's thirty among three other channels' candidates, so the last few of an exact top
// thirty matter little, and the search costs about in proportion (2.1 against 3.5 ms at
// 100,000 nodes). A vector-only recall keeps the index's thorough search.
constexpr int kVectorFusionEf = 64;

double elapsedMs(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

const QStringList &seedTypes()
{
    static const QStringList t{QStringLiteral("event"), QStringLiteral("topic"),
                               QStringLiteral("concept"), QStringLiteral("entity"),
                               QStringLiteral("rule")};
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
        return Error::make(
            400, QStringLiteral("debug_embeddings_not_allowed"),
            QStringLiteral("debug embeddings need X-Admin-Token (or, with ADMIN_TOKEN "
                           "unset outside production, a loopback caller)"));
    if (limit > 20)
        return Error::make(400, QStringLiteral("debug_embeddings_limit_too_high"),
                           QStringLiteral("debug embeddings allow limit <= 20"),
                           {{QStringLiteral("limit"), limit}, {QStringLiteral("max"), 20}});
    return std::nullopt;
}

/// spec §4.3.3 conditions 1-3 and a usable query, checked before any storage is touched.
std::optional<Error> queryRefusal(const RecallRequest &req, const QVector<float> &query,
                                  const RequestMeta &meta, const ServiceConfig &config, int limit)
{
    if (auto refusal = debugEmbeddingsRefusal(req, meta, config, limit))
        return refusal;
    if (VectorMath::norm(query.constData(), int(query.size())) == 0.0f)
        return Error::invalidField(QStringLiteral("query_embedding"),
                                   QStringLiteral("must not be all zeros"));
    return std::nullopt;
}

/// The outcome's identity and knobs, known before any work is done.
RecallOutcome newOutcome(const RecallRequest &req, const CallScope &cs, const QString &endpoint,
                         const ServiceConfig &config, double queueWaitMs)
{
    RecallOutcome out;
    out.tenantId = cs.tenantId;
    out.scope = cs.scope;
    out.endpoint = endpoint;
    out.resolved = resolveRecallKnobs(req, cs.tenantId, endpoint, config, queueWaitMs);
    return out;
}

/// A node in id lookups of the neighbourhood; every id asked for comes from it, so the empty
/// record only guards against a broken invariant.
const NodeRecord &nodeOf(const QHash<QString, NodeRecord> &nodes, const QString &id)
{
    static const NodeRecord none;
    const auto it = nodes.constFind(id);
    return it == nodes.constEnd() ? none : *it;
}

// ---- seeds --------------------------------------------------------------------------------

/// Seeds are ready, hot or warm nodes of a seed type (no draft topics) that the viewer sees.
bool seedAllowed(const NodeRecord &n, const Viewer &viewer)
{
    return isReady(n) && (n.tier == QLatin1String("hot") || n.tier == QLatin1String("warm"))
           && seedTypes().contains(n.type) && !isDraftTopic(n) && viewer.sees(n);
}

/// Index hits (VectorMatch or LabelScore) turned into the seeds the viewer may use, best
/// first: node rows are read a chunk at a time until `limit` pass the seed rules SQLite knows
/// about. The index over-fetches to make room for filtered-out nodes, and most of those hits
/// are never needed.
template<typename Hit>
Result<QVector<RecallSeed>> seedsFromHits(QSqlDatabase &db, const CallScope &cs,
                                          const Viewer &viewer, const QVector<Hit> &hits, int limit)
{
    // Most hits pass the seed rules: a quarter more than wanted covers the usual few that do
    // not, and the next chunk the rest. Each row read is a b-tree lookup on the request path.
    const qsizetype chunk = qMax(qsizetype(limit + limit / 4), qsizetype(16));
    QVector<RecallSeed> seeds;
    for (qsizetype from = 0; from < hits.size() && seeds.size() < limit; from += chunk) {
        QHash<qint64, float> similarity;
        QVector<qint64> labels;
        for (const Hit &h : hits.mid(from, chunk)) {
            similarity.insert(h.label, h.similarity);
            labels << h.label;
        }
        auto nodes = RecallStore::nodesByLabels(db, cs.tenantId, cs.scope, labels);
        if (!nodes)
            return nodes.error();
        for (const NodeRecord &n : nodes.value()) {
            if (seedAllowed(n, viewer))
                seeds.append({n, double(similarity.value(n.vectorLabel))});
        }
    }
    return seeds;
}

/// What the index search of stage 1 found.
struct AnnSeeds
{
    QVector<RecallSeed> seeds;
    bool exhausted = false; ///< the index had fewer vectors than asked for
};

/// Over-fetch from the index, widening while filtered-out neighbours crowd the top.
Result<AnnSeeds> annSeeds(QSqlDatabase &db, IndexManager &indexes, const CallScope &cs,
                          const Viewer &viewer, const QVector<float> &query, int limit, int ef,
                          RecallOutcome &out)
{
    constexpr int kMaxAnnCandidates = 4096;
    // Twice the seeds wanted covers what the seed rules usually drop; the loop widens when it
    // does not. Five times made a text question's fifty seeds a search of 250 neighbours.
    int want = qMax(limit, qMin(1000, 2 * limit));
    AnnSeeds ann;
    while (true) {
        auto hits = indexes.search(cs.tenantId, cs.scope, query, want, {}, ef);
        if (!hits)
            return hits.error();
        out.annCandidates = int(hits.value().size());
        auto seeds = seedsFromHits(db, cs, viewer, hits.value(), limit);
        if (!seeds)
            return seeds.error();
        ann.seeds = std::move(seeds).value();
        ann.exhausted = hits.value().size() < want;
        if (ann.seeds.size() >= limit || ann.exhausted || want >= kMaxAnnCandidates)
            return ann;
        want = qMin(want * 4, kMaxAnnCandidates);
    }
}

/// The vector channel: the index first; when its widened search still falls short, an exact
/// scan with the filters applied in SQL, so a visible seed is never missed. Best first, capped.
/// ef: the index search's candidate list, 0 for the index's own.
Result<QVector<RecallSeed>> vectorSeeds(QSqlDatabase &db, IndexManager &indexes,
                                        const CallScope &cs, const Viewer &viewer,
                                        const QVector<float> &query, int limit, int ef,
                                        RecallOutcome &out)
{
    auto ann = annSeeds(db, indexes, cs, viewer, query, limit, ef, out);
    if (!ann)
        return ann.error();
    QVector<RecallSeed> seeds = std::move(ann.value().seeds);
    out.stage1Mode = QStringLiteral("ann");
    if (seeds.size() < limit && !ann.value().exhausted) {
        auto exact = RecallStore::exactSeedScan(db, cs.tenantId, cs.scope, seedTypes(),
                                                viewer.agentId, viewer.teamId, query, limit);
        if (!exact)
            return exact.error();
        auto scanned = seedsFromHits(db, cs, viewer, exact.value(), limit);
        if (!scanned)
            return scanned.error();
        seeds = std::move(scanned).value();
        out.stage1Mode = QStringLiteral("exact_fallback");
    }
    std::stable_sort(seeds.begin(), seeds.end(), [](const RecallSeed &a, const RecallSeed &b) {
        return a.similarity > b.similarity
               || (a.similarity == b.similarity && a.node.id < b.node.id);
    });
    if (seeds.size() > limit)
        seeds.resize(limit);
    for (qsizetype i = 0; i < seeds.size(); ++i) {
        seeds[i].relevance = seeds[i].similarity;
        seeds[i].vectorRank = int(i + 1);
    }
    return seeds;
}

/// Cosine of the query and a stored vector (0 when it has none usable).
double cosineTo(const QVector<float> &query, const QVector<float> &v)
{
    const int n = int(query.size());
    if (v.size() != n)
        return 0.0;
    const float norms = VectorMath::norm(v.constData(), n) * VectorMath::norm(query.constData(), n);
    return norms > 0.0f ? double(VectorMath::dot(query.constData(), v.constData(), n) / norms)
                        : 0.0;
}

/// The nodes behind these labels that may seed for the viewer, by label.
Result<QHash<qint64, NodeRecord>> allowedSeedNodes(QSqlDatabase &db, const CallScope &cs,
                                                   const Viewer &viewer,
                                                   const QVector<qint64> &labels)
{
    auto nodes = RecallStore::nodesByLabels(db, cs.tenantId, cs.scope, labels);
    if (!nodes)
        return nodes.error();
    QHash<qint64, NodeRecord> allowed;
    for (const NodeRecord &n : nodes.value()) {
        if (seedAllowed(n, viewer))
            allowed.insert(n.vectorLabel, n);
    }
    return allowed;
}

/// The allowed nodes behind a channel's hits, in the hits' order; rank sets their place.
Result<QVector<RecallSeed>> seedsInOrder(QSqlDatabase &db, const CallScope &cs,
                                         const Viewer &viewer,
                                         const QVector<LexicalIndex::Hit> &hits,
                                         int RecallSeed::*rank)
{
    QVector<qint64> labels;
    for (const LexicalIndex::Hit &h : hits)
        labels << h.label;
    auto allowed = allowedSeedNodes(db, cs, viewer, labels);
    if (!allowed)
        return allowed.error();
    QVector<RecallSeed> seeds;
    for (qint64 label : labels) {
        const auto n = allowed.value().constFind(label);
        if (n == allowed.value().cend())
            continue;
        RecallSeed s;
        s.node = *n;
        s.*rank = int(seeds.size() + 1);
        seeds.append(s);
    }
    return seeds;
}

/// The lexical channel: the scope's best BM25 matches for the words, under the seed rules of
/// the vector channel; best first, capped. Their similarity is filled in once fused.
Result<QVector<RecallSeed>> lexicalSeeds(QSqlDatabase &db, const CallScope &cs,
                                         const Viewer &viewer, const QStringList &words, int limit,
                                         RecallOutcome &out)
{
    const LexicalIndex::SeedFilter filter{seedTypes(), viewer.agentId, viewer.teamId};
    auto hits = LexicalIndex::search(db, cs.tenantId, cs.scope, words, filter, limit);
    if (!hits)
        return hits.error();
    out.lexicalCandidates = int(hits.value().size());
    return seedsInOrder(db, cs, viewer, hits.value(), &RecallSeed::lexicalRank);
}

/// The concept channel: the scope's best BM25 matches for the concepts the question's words
/// name, under the same rules; best first, capped.
Result<QVector<RecallSeed>> conceptSeeds(QSqlDatabase &db, const CallScope &cs,
                                         const Viewer &viewer, const QString &queryText, int limit,
                                         RecallOutcome &out)
{
    const LexicalIndex::SeedFilter filter{seedTypes(), viewer.agentId, viewer.teamId};
    auto hits = ConceptIndex::search(db, cs.tenantId, cs.scope, queryText, filter, limit);
    if (!hits)
        return hits.error();
    out.conceptCandidates = int(hits.value().size());
    return seedsInOrder(db, cs, viewer, hits.value(), &RecallSeed::conceptRank);
}

/// The channels one recall runs: a request without text has only its vector.
QString channelsFor(const QString &queryText, const QString &configured)
{
    return queryText.isEmpty() ? QStringLiteral("vector") : configured;
}

/// What each channel found, best first.
struct ChannelSeeds
{
    QVector<RecallSeed> byVector;
    QVector<RecallSeed> byWords;
    QVector<RecallSeed> byDate;
    QVector<RecallSeed> byConcepts;
};

/// The channels' seeds in fused order, relevance = the fused score, capped at limit. A seed
/// the vector channel did not find gets its cosine from the stored vector, so callers see the
/// same figure whichever channel found a seed.
Result<QVector<RecallSeed>> fusedSeeds(QSqlDatabase &db, const ChannelSeeds &found,
                                       const QVector<float> &query,
                                       const SeedFusion::Weights &weights, int limit)
{
    QHash<qint64, RecallSeed> seedOf;
    const auto orderOf = [&seedOf](const QVector<RecallSeed> &seeds) {
        QVector<qint64> order;
        for (const RecallSeed &s : seeds) {
            if (!seedOf.contains(s.node.vectorLabel))
                seedOf.insert(s.node.vectorLabel, s);
            order << s.node.vectorLabel;
        }
        return order;
    };
    SeedFusion::Orders orders;
    orders.vector = orderOf(found.byVector);
    orders.lexical = orderOf(found.byWords);
    orders.time = orderOf(found.byDate);
    orders.concepts = orderOf(found.byConcepts);
    QVector<RecallSeed> seeds;
    QStringList unscored; // found by words, senses or dates only: no cosine yet
    for (const SeedFusion::Fused &f : SeedFusion::fuse(orders, weights)) {
        if (seeds.size() >= limit)
            break;
        RecallSeed s = seedOf.value(f.label);
        s.relevance = f.score;
        s.vectorRank = f.vectorRank;
        s.lexicalRank = f.lexicalRank;
        s.timeRank = f.timeRank;
        s.conceptRank = f.conceptRank;
        if (s.vectorRank == 0)
            unscored << s.node.id;
        seeds.append(s);
    }
    // Their cosines from the stored vectors, read in one statement rather than one per seed.
    auto vectors = GraphStore::nodeEmbeddings(db, unscored);
    if (!vectors)
        return vectors.error();
    for (RecallSeed &s : seeds) {
        if (s.vectorRank == 0)
            s.similarity = cosineTo(query, VectorMath::fromBytes(vectors.value().value(s.node.id)));
    }
    return seeds;
}

/// The time channel: seeds dated in the period the question names, those its words also
/// match first (in their lexical order), then earliest first; capped.
Result<QVector<RecallSeed>> datedSeeds(QSqlDatabase &db, const CallScope &cs, const Viewer &viewer,
                                       const QString &queryText, const QVector<RecallSeed> &byWords,
                                       int limit, RecallOutcome &out)
{
    constexpr int kMaxDated = 500;
    const auto period = TimeExpressions::periodIn(queryText);
    if (!period)
        return QVector<RecallSeed>();
    out.period = period->from.toString(Qt::ISODate) + QLatin1Char('/')
                 + period->until.toString(Qt::ISODate);
    auto labels
        = RecallStore::datedSeedLabels(db, cs.tenantId, cs.scope, seedTypes(), viewer.agentId,
                                       viewer.teamId, period->from, period->until, kMaxDated);
    if (!labels)
        return labels.error();
    auto found = allowedSeedNodes(db, cs, viewer, labels.value());
    if (!found)
        return found.error();
    QHash<qint64, NodeRecord> &allowed = found.value();
    QVector<RecallSeed> seeds;
    const auto take = [&](qint64 label) {
        const auto n = allowed.constFind(label);
        if (n != allowed.cend() && seeds.size() < limit) {
            RecallSeed s;
            s.node = *n;
            s.timeRank = int(seeds.size() + 1);
            seeds.append(s);
            allowed.erase(n);
        }
    };
    for (const RecallSeed &s : byWords)
        take(s.node.vectorLabel);
    for (qint64 label : labels.value())
        take(label);
    out.datedCandidates = int(seeds.size());
    return seeds;
}

/// What the text channels (words, senses, the period named) found, and what they report for
/// observability, kept apart from the outcome the vector channel fills meanwhile.
struct TextChannels
{
    QVector<RecallSeed> byWords;
    QVector<RecallSeed> byConcepts;
    QVector<RecallSeed> byDate;
    RecallOutcome report; // candidates, period and channel timings of the text channels
    std::optional<Error> error;
};

/// Which text channels one recall runs.
struct TextChannelChoice
{
    bool words = false;
    bool concepts = false;
    bool dates = false;
};

/// The text channels of a question, on this thread's own connection to the store.
TextChannels textChannels(Database &database, const CallScope &cs, const Viewer &viewer,
                          const QString &queryText, TextChannelChoice choice, int depth)
{
    TextChannels found;
    RecallOutcome &out = found.report;
    auto conn = database.connection();
    if (!conn) {
        found.error = conn.error();
        return found;
    }
    QSqlDatabase db = conn.value();
    QElapsedTimer channel;
    channel.start();
    const auto fail = [&found](const Error &e) {
        found.error = e;
        return found;
    };
    if (choice.words) {
        auto byWords = lexicalSeeds(db, cs, viewer, Lexical::words(queryText), depth, out);
        if (!byWords)
            return fail(byWords.error());
        found.byWords = std::move(byWords).value();
        out.timings.lexicalChannel = elapsedMs(channel);
    }
    if (choice.concepts) {
        channel.restart();
        auto byConcepts = conceptSeeds(db, cs, viewer, queryText, depth, out);
        if (!byConcepts)
            return fail(byConcepts.error());
        found.byConcepts = std::move(byConcepts).value();
        out.timings.conceptChannel = elapsedMs(channel);
    }
    if (choice.dates) {
        channel.restart();
        auto dated = datedSeeds(db, cs, viewer, queryText, found.byWords, depth, out);
        if (!dated)
            return fail(dated.error());
        found.byDate = std::move(dated).value();
        out.timings.timeChannel = elapsedMs(channel);
    }
    return found;
}

/// The text channels' figures in the recall's outcome.
void takeTextReport(RecallOutcome &out, const RecallOutcome &text)
{
    out.lexicalCandidates = text.lexicalCandidates;
    out.conceptCandidates = text.conceptCandidates;
    out.datedCandidates = text.datedCandidates;
    out.period = text.period;
    out.timings.lexicalChannel = text.timings.lexicalChannel;
    out.timings.conceptChannel = text.timings.conceptChannel;
    out.timings.timeChannel = text.timings.timeChannel;
}

/// Stage 1 (seeds): the vector channel, and for a text query its words, the concepts they
/// name and the period it names, fused by rank; or the one channel the setting names. A text
/// that matches nothing leaves the vector channel's answer as it was.
Result<QVector<RecallSeed>> findSeeds(Database &database, QSqlDatabase &db, IndexManager &indexes,
                                      QThreadPool &textPool, const CallScope &cs,
                                      const Viewer &viewer, const QVector<float> &query,
                                      const QString &queryText, const ServiceConfig &config,
                                      int limit, RecallOutcome &out)
{
    out.seedChannels = channelsFor(queryText, config.recallSeedChannels);
    const bool hybrid = out.seedChannels == QLatin1String("hybrid");
    const auto runs
        = [&](const char *channel) { return hybrid || out.seedChannels == QLatin1String(channel); };
    if (!hybrid && !runs("vector"))
        out.stage1Mode = out.seedChannels;
    // Fusion reads deeper than the seeds it keeps: a node second-best in two channels should
    // beat one that a single channel ranks a little higher.
    const int depth = hybrid ? qMax(limit, kFusionDepth) : limit;
    const TextChannelChoice choice{runs("lexical"), runs("concept"), hybrid};
    QFuture<TextChannels> text;
    if (choice.words || choice.concepts)
        text = QtConcurrent::run(&textPool, [&database, &cs, &viewer, &queryText, choice, depth] {
            return textChannels(database, cs, viewer, queryText, choice, depth);
        });
    ChannelSeeds found;
    if (runs("vector")) {
        QElapsedTimer channel;
        channel.start();
        const int vectorDepth = hybrid ? qMax(limit, kVectorFusionDepth) : limit;
        auto byVector = vectorSeeds(db, indexes, cs, viewer, query, vectorDepth,
                                    hybrid ? kVectorFusionEf : 0, out);
        out.timings.vectorChannel = elapsedMs(channel);
        if (!byVector) {
            if (text.isValid())
                text.waitForFinished(); // it reads what this frame holds
            return byVector.error();
        }
        found.byVector = std::move(byVector).value();
    }
    if (!text.isValid())
        return found.byVector;
    TextChannels byText = text.takeResult();
    if (byText.error)
        return *byText.error;
    takeTextReport(out, byText.report);
    found.byWords = std::move(byText.byWords);
    found.byConcepts = std::move(byText.byConcepts);
    found.byDate = std::move(byText.byDate);
    if (hybrid && found.byWords.isEmpty() && found.byDate.isEmpty() && found.byConcepts.isEmpty()) {
        found.byVector.resize(qMin(found.byVector.size(), qsizetype(limit)));
        return found.byVector;
    }
    SeedFusion::Weights weights;
    weights.vector = SeedFusion::vectorWeightFor(config.embeddingProvider);
    return fusedSeeds(db, found, query, weights, limit);
}

/// A rule seeds only while it is evaluated (shadow or active, reference §4.3): a draft or
/// disabled rule neither seeds nor spreads activation from a seed.
Result<QVector<RecallSeed>> withoutDormantRules(QSqlDatabase &db, QVector<RecallSeed> seeds)
{
    QStringList ruleIds;
    for (const RecallSeed &s : seeds) {
        if (s.node.type == QLatin1String("rule"))
            ruleIds << s.node.id;
    }
    if (ruleIds.isEmpty())
        return seeds;
    auto statuses = RuleStore::statuses(db, ruleIds);
    if (!statuses)
        return statuses.error();
    seeds.removeIf([&statuses](const RecallSeed &s) {
        const auto status = statuses.value().constFind(s.node.id);
        return status != statuses.value().constEnd()
               && !Vocabulary::evaluatedRuleStates().contains(status->state);
    });
    return seeds;
}

// ---- expand -------------------------------------------------------------------------------

/// What stage 2 found around the seeds: the visible nodes by id and the edges between them.
struct Neighbourhood
{
    QSet<QString> seedIds;
    QHash<QString, NodeRecord> nodes;
    QVector<EdgeRecord> edges;
};

/// The strongest edges within the hop budget; edges are undirected for traversal.
Result<QVector<EdgeRecord>> edgesWithinHops(QSqlDatabase &db, const CallScope &cs,
                                            const QVector<RecallSeed> &seeds, const RecallKnobs &k)
{
    const int edgeBudget = qMin(1000, 5 * k.maxEdges);
    const int hopBudget = qBound(50, edgeBudget, 500);
    QStringList frontier;
    for (const RecallSeed &s : seeds)
        frontier << s.node.id;
    QVector<EdgeRecord> edges;
    for (int hop = 0; hop < k.hops && !frontier.isEmpty() && edgeBudget > 0; ++hop) {
        auto found = RecallStore::edgesAround(db, cs.tenantId, cs.scope, frontier, k.minEdgeWeight,
                                              k.minEdgeConfidence, hopBudget);
        if (!found)
            return found.error();
        edges = std::move(found).value();
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
    return edges;
}

/// The endpoints to read besides the seeds (already in hand), by attached edge strength, so
/// that seeds and these together stay within the node budget.
QStringList neighboursToFetch(const QSet<QString> &seedIds, const QVector<EdgeRecord> &edges,
                              int maxNodes)
{
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
    const int nodeBudget = qMin(800, 4 * maxNodes);
    const qsizetype room = qMax(0, nodeBudget - int(seedIds.size()));
    if (others.size() > room)
        others.resize(room);
    return others;
}

/// Stage 2 (expand): the 1-2 hop neighbourhood the viewer may see; edges to a node it may not
/// see (or that fell outside the node budget) are dropped.
Result<Neighbourhood> expand(QSqlDatabase &db, const CallScope &cs, const Viewer &viewer,
                             const QVector<RecallSeed> &seeds, const RecallKnobs &k)
{
    Neighbourhood hood;
    for (const RecallSeed &s : seeds)
        hood.seedIds.insert(s.node.id);
    auto edges = edgesWithinHops(db, cs, seeds, k);
    if (!edges)
        return edges.error();
    hood.edges = std::move(edges).value();
    auto fetched = RecallStore::nodesByIds(db, cs.tenantId, cs.scope,
                                           neighboursToFetch(hood.seedIds, hood.edges, k.maxNodes));
    if (!fetched)
        return fetched.error();
    for (const NodeRecord &n : fetched.value()) {
        if (viewer.sees(n))
            hood.nodes.insert(n.id, n);
    }
    for (const RecallSeed &s : seeds)
        hood.nodes.insert(s.node.id, s.node);
    const QHash<QString, NodeRecord> &nodes = hood.nodes;
    hood.edges.erase(std::remove_if(hood.edges.begin(), hood.edges.end(),
                                    [&nodes](const EdgeRecord &e) {
                                        return !nodes.contains(e.fromId) || !nodes.contains(e.toId);
                                    }),
                     hood.edges.end());
    return hood;
}

// ---- activate -----------------------------------------------------------------------------

/// Activation levels and the order in which nodes were first reached (seeds first).
struct Activation
{
    QHash<QString, double> level;
    QStringList discovery;
};

/// Max-propagation over the scoring graph (no drafts, ready only), one snapshot per hop.
Activation spreadActivation(const QVector<RecallSeed> &seeds, const Neighbourhood &hood, int hops)
{
    const auto scorable = [](const NodeRecord &n) { return isReady(n) && !isDraftTopic(n); };
    Activation act;
    for (const RecallSeed &s : seeds) {
        act.level.insert(s.node.id, clamp01(0.75 * s.relevance + 0.25 * s.node.salience));
        act.discovery << s.node.id;
    }
    for (int hop = 0; hop < hops; ++hop) {
        const QHash<QString, double> snapshot = act.level;
        for (const EdgeRecord &e : hood.edges) {
            if (!scorable(nodeOf(hood.nodes, e.fromId)) || !scorable(nodeOf(hood.nodes, e.toId)))
                continue;
            const double w = edgeTypeWeight(e.type) * e.weight * e.confidence * 0.5;
            for (const auto &[from, to] :
                 {std::pair(e.fromId, e.toId), std::pair(e.toId, e.fromId)}) {
                if (!snapshot.contains(from))
                    continue;
                const double candidate = snapshot.value(from) * w;
                if (!act.level.contains(to))
                    act.discovery << to;
                if (candidate > act.level.value(to, -1.0))
                    act.level.insert(to, candidate);
            }
        }
    }
    return act;
}

/// Stage 3 (activate): spreading activation from the seeds, then every reached node ranked by
/// a score mixing activation with confidence and salience.
QVector<RankedEntry> activate(const QVector<RecallSeed> &seeds, const Neighbourhood &hood, int hops)
{
    const Activation act = spreadActivation(seeds, hood, hops);
    QVector<RankedEntry> ranking;
    for (const QString &id : act.discovery) {
        const NodeRecord &n = nodeOf(hood.nodes, id);
        const double a = act.level.value(id);
        ranking.append({id, a, 0.7 * a + 0.15 * n.confidence + 0.15 * n.salience});
    }
    std::stable_sort(ranking.begin(), ranking.end(),
                     [](const RankedEntry &a, const RankedEntry &b) { return a.score > b.score; });
    return ranking;
}

// ---- subgraph -----------------------------------------------------------------------------

/// The node ids of the returned subgraph, in order, with a set for membership tests.
struct SubgraphIds
{
    QStringList order;
    QSet<QString> members;

    void add(const QString &id)
    {
        order << id;
        members.insert(id);
    }
};

/// Ready seeds first, then ranked nodes, up to max_nodes.
SubgraphIds coreIds(const QVector<RecallSeed> &seeds, const QVector<RankedEntry> &ranking,
                    int maxNodes)
{
    SubgraphIds core;
    for (const RecallSeed &s : seeds) {
        if (core.order.size() < maxNodes && isReady(s.node))
            core.add(s.node.id);
    }
    for (const RankedEntry &r : ranking) {
        if (core.order.size() >= maxNodes)
            break;
        if (!core.members.contains(r.id))
            core.add(r.id);
    }
    return core;
}

/// Ready draft topics attached to the core by part_of / derived_from, strongest first.
QStringList attachedDraftTopics(const Neighbourhood &hood, const SubgraphIds &core)
{
    QHash<QString, double> draftScore;
    for (const EdgeRecord &e : hood.edges) {
        if (e.type != QLatin1String("part_of") && e.type != QLatin1String("derived_from"))
            continue;
        for (const auto &[member, topic] :
             {std::pair(e.fromId, e.toId), std::pair(e.toId, e.fromId)}) {
            const NodeRecord &t = nodeOf(hood.nodes, topic);
            if (core.members.contains(member) && isDraftTopic(t) && isReady(t)
                && !core.members.contains(topic))
                draftScore[topic] += e.weight * e.confidence;
        }
    }
    QStringList drafts = draftScore.keys();
    std::sort(drafts.begin(), drafts.end(), [&draftScore](const QString &a, const QString &b) {
        return draftScore.value(a) > draftScore.value(b)
               || (draftScore.value(a) == draftScore.value(b) && a < b);
    });
    return drafts;
}

/// Up to min(10, max_nodes/5) drafts join, making room by swapping out the lowest-ranked
/// non-seed nodes; seeds always stay.
void addDraftTopics(SubgraphIds &core, const QStringList &drafts, const QSet<QString> &seedIds,
                    int maxNodes)
{
    const int draftBudget = qMin(10, maxNodes / 5);
    const int room = maxNodes - int(core.order.size());
    int take = qMin(draftBudget, int(drafts.size()));
    if (room < take) {
        int swap = take - room;
        for (int i = int(core.order.size()) - 1; i >= 0 && swap > 0; --i) {
            if (!seedIds.contains(core.order.at(i))) {
                core.members.remove(core.order.at(i));
                core.order.removeAt(i);
                --swap;
            }
        }
        take = qMin(take, maxNodes - int(core.order.size()));
    }
    for (int i = 0; i < take; ++i)
        core.add(drafts.at(i));
}

/// Edges with both ends in the subgraph, strongest (weight x confidence) first, up to max_edges.
QVector<EdgeRecord> subgraphEdges(const QVector<EdgeRecord> &edges, const QSet<QString> &members,
                                  int maxEdges)
{
    QVector<EdgeRecord> subEdges;
    for (const EdgeRecord &e : edges) {
        if (members.contains(e.fromId) && members.contains(e.toId))
            subEdges.append(e);
    }
    std::stable_sort(subEdges.begin(), subEdges.end(),
                     [](const EdgeRecord &a, const EdgeRecord &b) {
                         return a.weight * a.confidence > b.weight * b.confidence;
                     });
    if (subEdges.size() > maxEdges)
        subEdges.resize(maxEdges);
    return subEdges;
}

/// Stage 4 (subgraph): seeds, then ranked nodes up to max_nodes; strongly attached draft topics
/// join so a caller sees the topic forming around its results.
void selectSubgraph(const QVector<RecallSeed> &seeds, const QVector<RankedEntry> &ranking,
                    const Neighbourhood &hood, const RecallKnobs &k, RecallOutcome &out)
{
    SubgraphIds core = coreIds(seeds, ranking, k.maxNodes);
    addDraftTopics(core, attachedDraftTopics(hood, core), hood.seedIds, k.maxNodes);
    for (const QString &id : std::as_const(core.order))
        out.nodes.append(nodeOf(hood.nodes, id));
    out.edges = subgraphEdges(hood.edges, core.members, k.maxEdges);
}

// ---- context ------------------------------------------------------------------------------

/// Budgets and compaction profile of the request; recall_text falls back to the configured
/// token budget so plain-text callers get a bounded prompt.
ContextOptions contextOptions(const RecallRequest &req, const QString &endpoint,
                              const ServiceConfig &config)
{
    ContextOptions copts;
    copts.tokenBudget = req.contextTokenBudget;
    copts.charBudget = req.contextCharBudget;
    copts.profile = req.compactionProfile;
    if (endpoint == QLatin1String("recall_text") && !copts.tokenBudget && !copts.charBudget
        && config.recallTextTokenBudgetDefault > 0)
        copts.tokenBudget = config.recallTextTokenBudgetDefault;
    return copts;
}

/// Stage 5 (context): the context text from the full ranking (spec §4.3.2.5-6), with the
/// state and feedback counts of the rules it lists.
Result<ContextResult> recallContext(QSqlDatabase &db, const QVector<RankedEntry> &ranking,
                                    const Neighbourhood &hood, ContextOptions options)
{
    QStringList ruleIds;
    for (const RankedEntry &r : ranking) {
        if (nodeOf(hood.nodes, r.id).type == QLatin1String("rule"))
            ruleIds << r.id;
    }
    if (!ruleIds.isEmpty()) {
        auto statuses = RuleStore::statuses(db, ruleIds);
        if (!statuses)
            return statuses.error();
        options.ruleStatuses = std::move(statuses).value();
    }
    // A draft or disabled rule is not applicable: it stays out of "Applicable Rules".
    QVector<NodeRecord> rankedNodes;
    for (const RankedEntry &r : ranking) {
        const NodeRecord &n = nodeOf(hood.nodes, r.id);
        const auto status = options.ruleStatuses.constFind(n.id);
        if (status != options.ruleStatuses.constEnd()
            && !Vocabulary::evaluatedRuleStates().contains(status->state))
            continue;
        rankedNodes.append(n);
    }
    return buildContext(rankedNodes, options);
}

// ---- debug and rules ----------------------------------------------------------------------

/// return_debug + include_embeddings: a hash and a 16-value preview of the first five seeds'
/// vectors, refused past 64 KB so debug output never rivals the payload.
Result<void> attachDebugEmbeddings(QSqlDatabase &db, RecallOutcome &out)
{
    for (int i = 0; i < qMin(5, int(out.seeds.size())); ++i) {
        const QString &id = out.seeds.at(i).node.id;
        auto bytes = GraphStore::nodeEmbedding(db, id);
        if (!bytes)
            return bytes.error();
        const QVector<float> v = VectorMath::fromBytes(bytes.value());
        QJsonArray preview;
        for (int d = 0; d < qMin(16, int(v.size())); ++d)
            preview.append(double(v.at(d)));
        out.debugEmbeddings.append(
            QJsonObject{{QStringLiteral("node_id"), id},
                        {QStringLiteral("dims"), int(v.size())},
                        {QStringLiteral("sha256"), sha256Hex(vectorText(v).toUtf8())},
                        {QStringLiteral("preview"), preview}});
    }
    if (QJsonDocument(out.debugEmbeddings).toJson(QJsonDocument::Compact).size() > 64 * 1024)
        return Error::make(400, QStringLiteral("debug_embeddings_too_large"),
                           QStringLiteral("debug embedding preview exceeds 64KB"));
    out.debugEmbeddingsIncluded = true;
    return {};
}

/// rules_context given: the rules that apply to it, evaluated in the same scope.
Result<void> attachRules(QSqlDatabase &db, const RecallRequest &req, const CallScope &cs,
                         const QJsonValue &rulesContext, RecallOutcome &out)
{
    auto rules = RuleEvaluator::evaluate(db, cs.tenantId, cs.scope, rulesContext,
                                         req.rulesIncludeShadow, req.rulesLimit);
    if (!rules)
        return rules.error();
    out.rules = std::move(rules).value();
    return {};
}

// ---- audit --------------------------------------------------------------------------------

/// Stage 6 (audit): who read what, by query hash and result sizes (spec §2.10).
RecallStore::AuditRow auditRow(const CallScope &cs, const QString &endpoint, const Viewer &viewer,
                               const QVector<float> &query, const RecallOutcome &out)
{
    return RecallStore::AuditRow{cs.tenantId, cs.scope, endpoint, viewer.agentId, viewer.teamId,
                                 // The float32 bytes: formatting 1536 numbers as text to
                                 // hash them cost a twentieth of a recall.
                                 sha256Hex(VectorMath::toBytes(query)), int(out.seeds.size()),
                                 int(out.nodes.size()), int(out.edges.size())};
}

} // namespace

RecallEngine::RecallEngine(Database &db, IndexManager &indexes, RecallAudit &audit,
                           QThreadPool &textChannels, const ServiceConfig &config)
    : m_db(db), m_indexes(indexes), m_audit(audit), m_textChannels(textChannels), m_config(config)
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
    // admit: tenant and identity, the knobs, then the request's own refusals; no work yet.
    QElapsedTimer total, stage;
    total.start();
    auto admitted = admit(req, meta, m_config);
    if (!admitted)
        return admitted.error();
    const CallScope &cs = admitted.value().scope;
    const Viewer &viewer = admitted.value().viewer;
    RecallOutcome out = newOutcome(req, cs, endpoint, m_config, meta.queueWaitMs);
    out.queueWaitMs = meta.queueWaitMs;
    const RecallKnobs &k = out.resolved.knobs;
    if (auto refusal = queryRefusal(req, query, meta, m_config, k.limit))
        return *refusal;
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase db = conn.value();
    const IndexManager::RequestInFlight recalling(m_indexes, IndexManager::RequestInFlight::Search);

    // seeds → expand → activate → subgraph → context, each stage timed for observability
    stage.start();
    auto seeds = findSeeds(m_db, db, m_indexes, m_textChannels, cs, viewer, query, req.queryText,
                           m_config, k.limit, out);
    if (!seeds)
        return seeds.error();
    auto kept = withoutDormantRules(db, std::move(seeds).value());
    if (!kept)
        return kept.error();
    out.seeds = std::move(kept).value();
    out.timings.seeds = elapsedMs(stage);
    stage.restart();
    auto hood = expand(db, cs, viewer, out.seeds, k);
    if (!hood)
        return hood.error();
    out.neighborhoodNodes = int(hood.value().nodes.size());
    out.neighborhoodEdges = int(hood.value().edges.size());
    out.timings.expand = elapsedMs(stage);
    stage.restart();
    const QVector<RankedEntry> ranking = activate(out.seeds, hood.value(), k.hops);
    out.ranked = ranking.mid(0, k.rankedLimit);
    out.scoredNodes = int(ranking.size());
    out.timings.spread = elapsedMs(stage);
    stage.restart();
    selectSubgraph(out.seeds, ranking, hood.value(), k, out);
    out.timings.subgraph = elapsedMs(stage);
    stage.restart();
    auto context
        = recallContext(db, ranking, hood.value(), contextOptions(req, endpoint, m_config));
    if (!context)
        return context.error();
    out.context = std::move(context).value();
    out.timings.context = elapsedMs(stage);

    // Optional extras: debug embeddings, then the rules that apply to rules_context.
    if (req.returnDebug && req.includeEmbeddings) {
        stage.restart();
        if (auto attached = attachDebugEmbeddings(db, out); !attached)
            return attached.error();
        out.timings.debugEmbeddings = elapsedMs(stage);
    }
    if (admitted.value().rulesContext) {
        stage.restart();
        if (auto attached = attachRules(db, req, cs, *admitted.value().rulesContext, out);
            !attached)
            return attached.error();
        out.timings.rules = elapsedMs(stage);
    }
    out.timings.total = elapsedMs(total);

    // audit: best effort, written off the request path.
    m_audit.record(auditRow(cs, endpoint, viewer, query, out));
    return out;
}

} // namespace MemoryGraph
