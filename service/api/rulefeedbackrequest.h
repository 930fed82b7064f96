#pragma once

// POST /v1/memory/feedback: one outcome for one rule.

#include "service/api/callscopetypes.h"
#include "service/core/records.h"
#include "service/core/result.h"

#include <QJsonObject>
#include <QString>

namespace MemoryGraph {

/// POST /v1/memory/feedback: one outcome for one rule (reference §2.6; its input rule is the one
/// tools/feedback reuses, spec §4.15).
struct RuleFeedbackRequest
{
    QString tenantId;
    QString scope;
    QString ruleNodeId; ///< lower-case UUID
    QString outcome;    ///< positive | negative | neutral
    QString runId;
    QString note;
    QString actor;
    QString inputText;
    QString inputSha256;
    static Result<RuleFeedbackRequest> fromJson(const QJsonObject &body, int maxTextLength);
};

struct RuleFeedbackOutcome
{
    CallScope scope;
    CommitRecord commit;
    FeedbackRecord feedback;
};

} // namespace MemoryGraph
