#pragma once

// What a recall produced (spec §4.3-4.4); the HTTP layer whitelists it into the response.

#include "service/api/contextresult.h"
#include "service/api/recallrequest.h"
#include "service/api/ruleevaluation.h"
#include "service/core/records.h"

#include <QJsonArray>

#include <optional>

namespace MemoryGraph {

struct RecallSeed
{
    NodeRecord node;
    double similarity = 0.0; ///< cosine of the query vector and the node's
    /// What ranks the seed and starts its activation: the similarity for a vector recall, the
    /// fused rank score (1 = first in every channel) when the lexical channel took part.
    double relevance = 0.0;
    int vectorRank = 0;  ///< 1-based place in the vector channel; 0 = not found there
    int lexicalRank = 0; ///< 1-based place in the lexical channel; 0 = not found there
    int timeRank = 0;    ///< 1-based place among the nodes dated in the question's period
    int conceptRank = 0; ///< 1-based place in the concept channel; 0 = not found there
};

struct RankedEntry
{
    QString id;
    double activation = 0.0;
    double score = 0.0;
};

/// Wall time of each recall stage in milliseconds (observability.stage_timings_ms).
struct RecallTimings
{
    double embedQuery = 0.0; ///< recall_text, context/assemble: embedding the query text
    double seeds = 0.0;      ///< stage 1: every seed channel and their fusion
    double vectorChannel = 0.0;
    double lexicalChannel = 0.0;
    double timeChannel = 0.0;
    double conceptChannel = 0.0;
    double expand = 0.0;   ///< stage 2: edges and nodes around the seeds
    double spread = 0.0;   ///< spreading activation and the ranking
    double subgraph = 0.0; ///< the returned subgraph (caps, draft topics)
    double context = 0.0;  ///< stage 3: context text, items, compaction
    double rules = 0.0;    ///< rules_context evaluation
    double debugEmbeddings = 0.0;
    double total = 0.0; ///< the recall itself, admission to audit hand-off (without embedQuery)
};

/// Everything a recall produced; the HTTP layer turns it into the whitelisted response.
struct RecallOutcome
{
    QString tenantId;
    QString scope;
    QString endpoint;
    ResolvedKnobs resolved;
    QVector<RecallSeed> seeds;
    QVector<RankedEntry> ranked;
    QVector<NodeRecord> nodes; ///< the returned subgraph
    QVector<EdgeRecord> edges;
    ContextResult context;
    int neighborhoodNodes = 0;
    int neighborhoodEdges = 0;
    QString stage1Mode;                              ///< ann | exact
    QString seedChannels = QStringLiteral("vector"); ///< vector | lexical | concept | hybrid
    int lexicalCandidates = 0;                       ///< what the lexical channel returned
    int conceptCandidates = 0;                       ///< what the concept channel returned
    QString period;          ///< the period the query text names ("2025-03-01/2025-04-01"), if any
    int datedCandidates = 0; ///< nodes dated in that period the time channel returned
    int annCandidates = 0;
    int scoredNodes = 0; ///< nodes the activation ranked, before ranked_limit
    bool debugEmbeddingsIncluded = false;
    QJsonArray debugEmbeddings;
    QString queryText;                   ///< recall_text
    QString embeddingProvider;           ///< recall_text
    std::optional<RuleEvaluation> rules; ///< when the request carried rules_context
    RecallTimings timings;
    double queueWaitMs = 0.0; ///< time the request waited for a worker before it ran
};

} // namespace MemoryGraph
