#pragma once

#include "service/memoryservice.h"

#include <QJsonObject>

namespace MemoryGraph::Dto {

// Whitelisted bodies for context/assemble (spec §4.13), resolve and single-rule feedback (§4.15).

/// recall.trajectory: {strategy, layers[L0 seed_candidates, L1 graph_expansion,
/// L2 context_assembly], budgets{the seven knobs}, pruned_reasons[]} (reference §4.10, without
/// timings so that equal input gives an equal body).
QJsonObject recallTrajectory(const RecallOutcome &recall);
/// recall.observability: {endpoint, profile{profile, source, adaptive_applied},
/// stage1{mode, ann_seed_count, final_seed_count}, neighborhood_counts{nodes, edges}}.
QJsonObject recallObservability(const RecallOutcome &recall);

QJsonObject assemble(const AssembleOutcome &outcome, const QString &requestId);
QJsonObject resolve(const ResolveOutcome &outcome);
QJsonObject ruleFeedback(const RuleFeedbackOutcome &outcome);

} // namespace MemoryGraph::Dto
