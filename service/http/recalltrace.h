#pragma once

#include "service/api/recalloutcome.h"

#include <QJsonObject>

namespace MemoryGraph::Dto {

// What a recall did and why an answer came back (spec §4.4, reference §4.10): carried by
// /recall, /recall_text and the recall block of context/assemble.

/// trajectory: {strategy, layers[L0 seed_candidates, L1 graph_expansion, L2 context_assembly]
/// each with hits, duration_ms and pruned_reasons, budgets{the seven knobs}, pruned_reasons[]}.
QJsonObject recallTrajectory(const RecallOutcome &recall);

/// observability: {endpoint, profile, inflight_wait_ms, stage_timings_ms, stage1 (mode, channels,
/// per-channel candidate counts and the seeds each channel found), neighborhood_counts,
/// ranking, context}. Timings are wall-clock milliseconds; everything else is deterministic.
QJsonObject recallObservability(const RecallOutcome &recall);

} // namespace MemoryGraph::Dto
