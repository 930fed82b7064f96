#pragma once

#include "service/api/recallrequest.h"
#include "service/api/toolrequests.h"
#include "service/assemble/layeredcontext.h"
#include "service/core/result.h"

#include <QJsonObject>
#include <QStringList>

namespace MemoryGraph {

/// POST /v1/memory/context/assemble (spec §4.13, reference §7.3).
struct AssembleRequest
{
    RecallRequest recall;  ///< query_text and the recall_text knobs (no rules_context)
    QJsonObject context;   ///< runtime execution context (may be empty)
    Continuity continuity; ///< execution_* objects as sent
    QString runId;         ///< correlates the persisted tool decision
    bool includeRules = true;
    bool includeShadow = false;
    int rulesLimit = 50;
    QStringList toolCandidates; ///< trimmed, de-duplicated; empty = no tool selection
    bool toolStrict = true;
    bool returnLayeredContext = true; ///< spec §4.13 default (the reference defaults to false)
    QString optimizationProfile = QStringLiteral("off"); ///< off | balanced | aggressive
    LayeredContext::LayerOptions layers;
    QVector<LayeredContext::StaticBlock> staticBlocks;
    LayeredContext::StaticInjection staticInjection;

    static Result<AssembleRequest> fromJson(const QJsonObject &body, int maxTextLength);
};

} // namespace MemoryGraph
