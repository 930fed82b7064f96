#include "service/api/rulefeedbackrequest.h"

#include "service/api/requestfields.h"
#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/core/vocabulary.h"

namespace MemoryGraph {

Result<RuleFeedbackRequest> RuleFeedbackRequest::fromJson(const QJsonObject &body,
                                                          int maxTextLength)
{
    RuleFeedbackRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    readUuid(r, "rule_node_id", &q.ruleNodeId, true);
    if (r.ok()
        && (body.value(QStringLiteral("outcome")).isUndefined()
            || body.value(QStringLiteral("outcome")).isNull()))
        r.fail(QStringLiteral("outcome"), QStringLiteral("is required"));
    r.enumValue("outcome", &q.outcome, Vocabulary::outcomes());
    r.string("run_id", &q.runId, 256);
    r.string("note", &q.note, 1 << 16);
    r.string("actor", &q.actor, 256);
    readCommitInput(r, &q.inputText, &q.inputSha256);
    if (!r.ok())
        return r.error();
    q.note = normalizeText(q.note, maxTextLength);
    q.inputText = normalizeText(q.inputText, maxTextLength);
    return q;
}

} // namespace MemoryGraph
