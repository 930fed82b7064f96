#include "service/api/lifecyclerequests.h"

#include "service/api/requestfields.h"
#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/core/vocabulary.h"

namespace MemoryGraph {

namespace {

constexpr int kMaxTargets = 200;

/// node_ids / client_ids: at least one of them, 1..200 entries each (spec §8).
bool readTargets(JsonReader &r, NodeTargets *out)
{
    QStringList nodeIds;
    QStringList clientIds;
    bool hasNodeIds = false;
    bool hasClientIds = false;
    if (!r.stringList("node_ids", &nodeIds, 1, kMaxTargets, &hasNodeIds))
        return false;
    if (!r.stringList("client_ids", &clientIds, 1, kMaxTargets, &hasClientIds))
        return false;
    if (!hasNodeIds && !hasClientIds)
        return r.fail(QStringLiteral("node_ids"),
                      QStringLiteral("node_ids or client_ids is required"));
    for (int i = 0; i < nodeIds.size(); ++i) {
        if (!isUuid(nodeIds.at(i)))
            return r.fail(QStringLiteral("node_ids[%1]").arg(i), QStringLiteral("must be a UUID"));
        const QString id = nodeIds.at(i).toLower();
        if (!out->nodeIds.contains(id))
            out->nodeIds << id;
    }
    for (const QString &clientId : std::as_const(clientIds)) {
        if (!out->clientIds.contains(clientId))
            out->clientIds << clientId;
    }
    return true;
}

/// The fields a rehydrate or activate request opens with: tenant, scope, actor and the targets.
template<typename Request> void readTargetedHead(JsonReader &r, Request *q)
{
    r.string("tenant_id", &q->tenantId, 64);
    r.string("scope", &q->scope, 256);
    r.string("actor", &q->actor, 256);
    if (r.ok())
        readTargets(r, &q->targets);
}

/// The fields it closes with (reason, the commit input), then the request with its text normalised.
template<typename Request>
Result<Request> readTargetedTail(JsonReader &r, Request q, int maxTextLength)
{
    r.string("reason", &q.reason, 1 << 16);
    readCommitInput(r, &q.inputText, &q.inputSha256);
    if (!r.ok())
        return r.error();
    q.reason = normalizeText(q.reason, maxTextLength);
    q.inputText = normalizeText(q.inputText, maxTextLength);
    return q;
}

} // namespace

Result<RehydrateRequest> RehydrateRequest::fromJson(const QJsonObject &body, int maxTextLength)
{
    RehydrateRequest q;
    JsonReader r(body);
    readTargetedHead(r, &q);
    r.enumValue("target_tier", &q.targetTier, {QStringLiteral("warm"), QStringLiteral("hot")});
    return readTargetedTail(r, std::move(q), maxTextLength);
}

Result<NodesActivateRequest> NodesActivateRequest::fromJson(const QJsonObject &body,
                                                            int maxTextLength)
{
    NodesActivateRequest q;
    JsonReader r(body);
    readTargetedHead(r, &q);
    r.string("run_id", &q.runId, 256);
    r.enumValue("outcome", &q.outcome, Vocabulary::outcomes());
    readFlag(r, "activate", &q.activate);
    return readTargetedTail(r, std::move(q), maxTextLength);
}

Result<NodeForgetRequest> NodeForgetRequest::fromJson(const QJsonObject &body, int maxTextLength)
{
    NodeForgetRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    r.string("actor", &q.actor, 256);
    readUuid(r, "node_id", &q.nodeId, true);
    return readTargetedTail(r, std::move(q), maxTextLength);
}

} // namespace MemoryGraph
