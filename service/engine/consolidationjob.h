#pragma once

#include "service/core/config.h"
#include "service/core/result.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace MemoryGraph {

class Database;
class IndexManager;

/// A duplicate folded into its canonical node.
struct ConsolidationMerge
{
    QString canonicalId;
    QString duplicateId;
    QString type;
    QString basis;              ///< text (same normalised title + summary) | embedding
    double similarity = 1.0;    ///< cosine for embedding matches, 1 for text matches
    QString canonicalTitle;     ///< title, else summary (for previews)
    QString duplicateTitle;
};

/// A candidate pair that was not merged.
struct ConsolidationSkip
{
    QString nodeId;
    QString otherId;
    QString type;
    QString reason;             ///< contradictory_candidate
    QString basis;
    double similarity = 1.0;
    QString nodeTitle;          ///< title, else summary (for previews)
    QString otherTitle;
};

struct ConsolidationReport
{
    QString tenantId;
    QString scope;
    bool apply = false;         ///< false: dry run, nothing written
    double cosineThreshold = 0;
    int nodesScanned = 0;
    QVector<ConsolidationMerge> merges;
    QVector<ConsolidationSkip> skipped;
    QString commitId;           ///< set when apply wrote a commit
    QString commitHash;

    QJsonObject toJson() const;
};

/// Offline consolidation (spec §2.9, §7, reference §6.3). Duplicates are nodes of the same
/// type (rules excepted) with the same normalised title and summary, or whose embeddings have
/// cosine >= kCosineThreshold. The canonical node is the oldest (tie: higher salience, then
/// id). A duplicate gets slots alias_of and superseded_by = canonical id; the canonical gets
/// merged_from[] (appended, unique) and merged_count. Topic/concept pairs where one text is
/// negated and the other not, or whose slots.polarity / slots.stance differ, are skipped as
/// contradictory_candidate. Nodes that already carry alias_of are never merged again, so a
/// re-run is idempotent. Dry run by default; apply writes one commit of kind consolidation.
class ConsolidationJob
{
public:
    static constexpr double kCosineThreshold = 0.97;

    ConsolidationJob(Database &db, IndexManager &indexes, const ServiceConfig &config);

    Result<ConsolidationReport> run(const QString &tenantId, const QString &scope, bool apply);

private:
    Database &m_db;
    IndexManager &m_indexes;
    const ServiceConfig &m_config;
};

namespace Consolidation {

/// Lower case, typographic apostrophes folded, punctuation dropped, whitespace collapsed.
QString normalisedText(const QString &text);
/// True when the text contains a negation word (not, never, no, don't, isn't, ...).
bool hasNegation(const QString &text);

} // namespace Consolidation

} // namespace MemoryGraph
