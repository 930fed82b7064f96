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
    double similarity = 0.0;
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
    QString stage1Mode; ///< ann | exact
    int annCandidates = 0;
    bool debugEmbeddingsIncluded = false;
    QJsonArray debugEmbeddings;
    QString queryText;                   ///< recall_text
    QString embeddingProvider;           ///< recall_text
    std::optional<RuleEvaluation> rules; ///< when the request carried rules_context
};

} // namespace MemoryGraph
