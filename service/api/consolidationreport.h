#pragma once

// What an offline consolidation found and, when applied, merged.

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace MemoryGraph {

/// Two nodes whose vectors are at least this similar are duplicate candidates.
inline constexpr double kConsolidationCosineThreshold = 0.97;

/// A duplicate folded into its canonical node.
struct ConsolidationMerge
{
    QString canonicalId;
    QString duplicateId;
    QString type;
    QString basis;           ///< text (same normalised title + summary) | embedding
    double similarity = 1.0; ///< cosine for embedding matches, 1 for text matches
    QString canonicalTitle;  ///< title, else summary (for previews)
    QString duplicateTitle;
};

/// A candidate pair that was not merged.
struct ConsolidationSkip
{
    QString nodeId;
    QString otherId;
    QString type;
    QString reason; ///< contradictory_candidate
    QString basis;
    double similarity = 1.0;
    QString nodeTitle; ///< title, else summary (for previews)
    QString otherTitle;
};

struct ConsolidationReport
{
    QString tenantId;
    QString scope;
    bool apply = false; ///< false: dry run, nothing written
    double cosineThreshold = 0;
    int nodesScanned = 0;
    QVector<ConsolidationMerge> merges;
    QVector<ConsolidationSkip> skipped;
    QString commitId; ///< set when apply wrote a commit
    QString commitHash;

    QJsonObject toJson() const;
};

} // namespace MemoryGraph
