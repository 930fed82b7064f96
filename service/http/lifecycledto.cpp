#include "service/http/lifecycledto.h"

#include "service/core/ids.h"

#include <QJsonArray>

namespace MemoryGraph::Dto {

namespace {

/// scope, tenant_id and the commit triple, null when no commit was made.
QJsonObject header(const CallScope &scope, const std::optional<CommitRecord> &commit)
{
    QJsonObject o{{QStringLiteral("tenant_id"), scope.tenantId},
                  {QStringLiteral("scope"), scope.scope},
                  {QStringLiteral("commit_id"), QJsonValue()},
                  {QStringLiteral("commit_uri"), QJsonValue()},
                  {QStringLiteral("commit_hash"), QJsonValue()}};
    if (commit) {
        o.insert(QStringLiteral("commit_id"), commit->id);
        o.insert(QStringLiteral("commit_uri"),
                 recordUri(scope.tenantId, scope.scope, QStringLiteral("commit"), commit->id));
        o.insert(QStringLiteral("commit_hash"), commit->commitHash);
    }
    return o;
}

/// The counters both routes share: requested and resolved are counts, missing are id lists.
QJsonObject targetCounters(const TargetResolution &t)
{
    return {{QStringLiteral("requested_node_ids"), t.requestedNodeIds},
            {QStringLiteral("requested_client_ids"), t.requestedClientIds},
            {QStringLiteral("resolved_node_ids"), t.resolvedNodeIds},
            {QStringLiteral("found_nodes"), int(t.found.size())},
            {QStringLiteral("missing_node_ids"), QJsonArray::fromStringList(t.missingNodeIds)},
            {QStringLiteral("missing_client_ids"), QJsonArray::fromStringList(t.missingClientIds)}};
}

} // namespace

QJsonObject rehydrate(const RehydrateOutcome &o)
{
    QJsonObject body = header(o.scope, o.commit);
    body.insert(QStringLiteral("target_tier"), o.targetTier);
    QJsonObject r = targetCounters(o.targets);
    r.insert(QStringLiteral("moved_nodes"), int(o.movedIds.size()));
    r.insert(QStringLiteral("noop_nodes"), int(o.noopIds.size()));
    r.insert(QStringLiteral("moved_ids"), QJsonArray::fromStringList(o.movedIds));
    r.insert(QStringLiteral("noop_ids"), QJsonArray::fromStringList(o.noopIds));
    body.insert(QStringLiteral("rehydrated"), r);
    return body;
}

QJsonObject nodesActivate(const NodesActivateOutcome &o)
{
    QJsonObject body = header(o.scope, o.commit);
    QJsonObject a = targetCounters(o.targets);
    a.insert(QStringLiteral("updated_nodes"), int(o.updatedIds.size()));
    a.insert(QStringLiteral("updated_ids"), QJsonArray::fromStringList(o.updatedIds));
    // Reference §6.2: outcome and activate only appear when a node was found.
    if (!o.targets.found.isEmpty()) {
        a.insert(QStringLiteral("outcome"), o.outcome);
        a.insert(QStringLiteral("activate"), o.activate);
    }
    body.insert(QStringLiteral("activated"), a);
    return body;
}

QJsonObject nodeForget(const NodeForgetOutcome &o)
{
    QJsonObject body = header(o.scope, o.commit);
    const NodeRecord &n = o.node;
    body.insert(
        QStringLiteral("node"),
        QJsonObject{
            {QStringLiteral("id"), n.id},
            {QStringLiteral("uri"), recordUri(o.scope.tenantId, o.scope.scope, n.type, n.id)},
            {QStringLiteral("type"), n.type},
            {QStringLiteral("client_id"),
             n.clientId.isEmpty() ? QJsonValue() : QJsonValue(n.clientId)},
            {QStringLiteral("title"), n.title.isEmpty() ? QJsonValue() : QJsonValue(n.title)}});
    body.insert(QStringLiteral("removed_edge_ids"), QJsonArray::fromStringList(o.removedEdgeIds));
    return body;
}

} // namespace MemoryGraph::Dto
