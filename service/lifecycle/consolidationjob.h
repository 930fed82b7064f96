#pragma once

#include "service/api/consolidationreport.h"
#include "service/api/progress.h"
#include "service/core/config.h"
#include "service/core/result.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace MemoryGraph {

class Database;
class IndexManager;

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
    static constexpr double kCosineThreshold = kConsolidationCosineThreshold;

    ConsolidationJob(Database &db, IndexManager &indexes, const ServiceConfig &config);

    /// progress sees "reading nodes", "comparing embeddings" (done/total in nodes) and, when
    /// applying, "applying"; a false from it stops the job with the error `cancelled` before
    /// anything is written (the apply is one transaction, rolled back when cancelled in it).
    Result<ConsolidationReport> run(const QString &tenantId, const QString &scope, bool apply,
                                    const ProgressCallback &progress = {});

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
