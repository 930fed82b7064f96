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
};

struct RankedEntry
{
    QString id;
    double activation = 0.0;
    double score = 0.0;
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
    QString seedChannels = QStringLiteral("vector"); ///< vector | lexical | hybrid, as run
    int lexicalCandidates = 0;                       ///< what the lexical channel returned
    QString period;          ///< the period the query text names ("2025-03-01/2025-04-01"), if any
    int datedCandidates = 0; ///< nodes dated in that period the time channel returned
    int annCandidates = 0;
    bool debugEmbeddingsIncluded = false;
    QJsonArray debugEmbeddings;
    QString queryText;                   ///< recall_text
    QString embeddingProvider;           ///< recall_text
    std::optional<RuleEvaluation> rules; ///< when the request carried rules_context
};

} // namespace MemoryGraph
