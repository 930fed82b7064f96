#include "service/write/writeengine.h"

#include "service/access/callscope.h"
#include "service/access/viewer.h"
#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/core/jsonvalues.h"
#include "service/rules/ruledefinition.h"
#include "service/storage/commitlog.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/rulestore.h"
#include "service/storage/scopedlookup.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>

namespace MemoryGraph {

namespace {

const QString kKindWrite = QStringLiteral("write");
const QString kReplayClientIdPrefix = QStringLiteral("replay:");

/// Defaults a write falls back to when a node names no lane or owner.
struct WriteIdentity
{
    QString lane;
    QString producer;
    QString ownerAgent;
    QString ownerTeam;
    CommitActor actor;
};

QString firstOf(const QString &a, const QString &b, const QString &c = QString())
{
    return !a.isEmpty() ? a : !b.isEmpty() ? b : c;
}

/// Spec §5.1.4-5: a credential's identity fills omitted fields and must match given ones.
Result<WriteIdentity> resolveIdentity(const WriteRequest &req, const RequestMeta &meta,
                                      const ServiceConfig &config)
{
    WriteIdentity id;
    id.lane = req.memoryLane;
    id.producer = req.producerAgentId;
    id.ownerAgent = req.ownerAgentId;
    id.ownerTeam = req.ownerTeamId;
    if (meta.principal) {
        const Principal &p = *meta.principal;
        const auto check = [&p](const QString &field, const QString &given, const QString &bound) {
            return checkClaim(p, field, given, bound);
        };
        if (auto e = check(QStringLiteral("producer_agent_id"), id.producer, p.agentId))
            return *e;
        if (auto e = check(QStringLiteral("owner_agent_id"), id.ownerAgent, p.agentId))
            return *e;
        if (auto e = check(QStringLiteral("owner_team_id"), id.ownerTeam, p.teamId))
            return *e;
        for (int i = 0; i < req.nodes.size(); ++i) {
            const WriteNodeInput &n = req.nodes[i];
            const QString at = QStringLiteral("nodes[%1].").arg(i);
            if (auto e
                = check(at + QStringLiteral("producer_agent_id"), n.producerAgentId, p.agentId))
                return *e;
            if (auto e = check(at + QStringLiteral("owner_agent_id"), n.ownerAgentId, p.agentId))
                return *e;
            if (auto e = check(at + QStringLiteral("owner_team_id"), n.ownerTeamId, p.teamId))
                return *e;
        }
        id.producer = firstOf(id.producer, p.agentId);
        if (id.ownerAgent.isEmpty() && id.ownerTeam.isEmpty()) {
            if (!p.agentId.isEmpty())
                id.ownerAgent = p.agentId;
            else
                id.ownerTeam = p.teamId;
        }
        id.actor = commitActor(req.actor, meta, config);
    } else if (config.authMode == AuthMode::Off) {
        // DESIGN decision 3: the local user owns what an anonymous local caller writes.
        id.producer = firstOf(id.producer, config.localAgentId);
        id.actor.id = firstOf(req.actor, id.producer, QStringLiteral("system"));
    } else {
        id.actor.id = firstOf(req.actor, id.producer, QStringLiteral("system"));
    }
    return id;
}

/// Client ids starting with "replay:" name replay records: only the replay routes write them,
/// and a write may not link to them by client_id either.
std::optional<Error> reservedClientIdRefusal(const WriteRequest &req)
{
    const QString message
        = QStringLiteral("the prefix 'replay:' is reserved for the replay routes");
    for (int i = 0; i < req.nodes.size(); ++i) {
        if (req.nodes[i].clientId.startsWith(kReplayClientIdPrefix))
            return Error::invalidField(QStringLiteral("nodes[%1].client_id").arg(i), message);
    }
    for (int i = 0; i < req.edges.size(); ++i) {
        const std::pair<const char *, const EdgeEndpoint *> ends[]
            = {{"src", &req.edges[i].src}, {"dst", &req.edges[i].dst}};
        for (const auto &[side, endpoint] : ends) {
            if (endpoint->clientId.startsWith(kReplayClientIdPrefix))
                return Error::invalidField(
                    QStringLiteral("edges[%1].%2.client_id").arg(i).arg(QLatin1String(side)),
                    message);
        }
    }
    return std::nullopt;
}

/// An explicit node id that names no node the writer may use. The same answer for an id that
/// exists nowhere, in another tenant or scope, or behind a lane, so ids cannot be probed.
Error unknownNodeId(const QString &path)
{
    return Error::invalidField(path, QStringLiteral("no node with this id in the scope"));
}

/// An explicit edge id other than the id of the edge being written (see unknownNodeId).
Error unknownEdgeId(const QString &path)
{
    return Error::invalidField(
        path, QStringLiteral("does not name the edge of this type between these nodes "
                             "in the scope"));
}

/// The client_id (or content) of a node the writer cannot see: refused as a naming conflict
/// that says nothing about the node, its owner or its lane.
Error clientIdConflict(const QString &path)
{
    const QString message
        = QStringLiteral("is already in use in this scope; choose another client_id");
    return Error::make(409, QStringLiteral("client_id_conflict"), path + QLatin1Char(' ') + message,
                       {{QStringLiteral("issues"),
                         QJsonArray{QJsonObject{{QStringLiteral("path"), path},
                                                {QStringLiteral("message"), message}}}}});
}

/// The id of a node written with neither client_id nor id, derived from its content. A writer
/// with an agent or team identity gets ids of its own, so writing the same content as another
/// agent neither reaches nor confirms that agent's node.
QString contentDerivedId(const CallScope &cs, const WriteNodeInput &in, const RequestMeta &meta)
{
    QString key = cs.key + QStringLiteral(":node:");
    if (meta.principal && !isServiceAccount(*meta.principal))
        key += QStringLiteral("writer:") + credentialActor(*meta.principal) + QLatin1Char(':');
    return stableUuid(key + sha256Hex(stableJson(in.raw)));
}

QByteArray floatsToBytes(const QVector<float> &v)
{
    return QByteArray(reinterpret_cast<const char *>(v.constData()),
                      qsizetype(v.size()) * qsizetype(sizeof(float)));
}

bool sameNode(const NodeRecord &a, const NodeRecord &b)
{
    return a.type == b.type && a.tier == b.tier && a.memoryLane == b.memoryLane
           && a.producerAgentId == b.producerAgentId && a.ownerAgentId == b.ownerAgentId
           && a.ownerTeamId == b.ownerTeamId && a.title == b.title && a.textSummary == b.textSummary
           && a.slotData == b.slotData && a.rawRef == b.rawRef && a.evidenceRef == b.evidenceRef
           && a.embeddingStatus == b.embeddingStatus && a.embeddingModel == b.embeddingModel
           && a.salience == b.salience && a.importance == b.importance
           && a.confidence == b.confidence && a.clientId == b.clientId
           && a.occurredAt == b.occurredAt;
}

/// The node's fields as every version of the commit format hashed them.
QJsonObject nodeFields(const NodeRecord &n, const QByteArray &embedding)
{
    return {{QStringLiteral("id"), n.id},
            {QStringLiteral("client_id"), nullable(n.clientId)},
            {QStringLiteral("type"), n.type},
            {QStringLiteral("tier"), n.tier},
            {QStringLiteral("memory_lane"), n.memoryLane},
            {QStringLiteral("producer_agent_id"), nullable(n.producerAgentId)},
            {QStringLiteral("owner_agent_id"), nullable(n.ownerAgentId)},
            {QStringLiteral("owner_team_id"), nullable(n.ownerTeamId)},
            {QStringLiteral("title"), nullable(n.title)},
            {QStringLiteral("text_summary"), nullable(n.textSummary)},
            {QStringLiteral("slots"), n.slotData},
            {QStringLiteral("raw_ref"), nullable(n.rawRef)},
            {QStringLiteral("evidence_ref"), nullable(n.evidenceRef)},
            {QStringLiteral("salience"), n.salience},
            {QStringLiteral("importance"), n.importance},
            {QStringLiteral("confidence"), n.confidence},
            {QStringLiteral("embedding_sha256"),
             embedding.isEmpty() ? QJsonValue() : QJsonValue(sha256Hex(embedding))}};
}

/// Everything a node write decides, hashed into the commit. occurred_at only when set, so
/// the content of nodes without one hashes as it always did.
QJsonObject nodeContent(const NodeRecord &n, const QByteArray &embedding)
{
    QJsonObject content = nodeFields(n, embedding);
    if (n.occurredAt.isValid())
        content.insert(QStringLiteral("occurred_at"), n.occurredText());
    return content;
}

/// One request node with the id and owners it is written under, then what the diff decided.
struct PlannedNode
{
    int index = 0;
    bool explicitId = false; ///< named by id alone: must be an existing node the writer may use
    NodeRecord record;
    QByteArray embedding;
    QString change; ///< created, updated, unchanged
    bool embeddingChanged = false;
};

struct PlannedEdge
{
    EdgeRecord record;
    QString change;
};

/// What validation established about one write: what is written where, by whom.
struct WriteContext
{
    const WriteRequest &req;
    const RequestMeta &meta;
    CallScope cs;
    NodeAccess access;
    WriteIdentity ident;
    QString inputSha;
};

/// The nodes of one write with the ids they are written under.
struct NodePlan
{
    QVector<PlannedNode> nodes;           ///< one per request node, in request order
    QHash<QString, QString> idByClientId; ///< client_id -> id of the nodes of this write
    QHash<QString, int> indexById;        ///< id -> request index of the nodes of this write
};

/// What the transaction found to change, and the commit it made or found.
struct WriteChanges
{
    QVector<PlannedEdge> edges;
    QJsonArray nodeDiff;
    QJsonArray edgeDiff;
    bool anyChange = false;
    bool replayed = false; ///< an identical re-send: commit is the earlier one, nothing written
    CommitRecord commit;
};

/// Whether the write may touch the stored node its planned id names (DESIGN trust model: lanes
/// and owners guard writes as well as reads). An explicit id must name a node of this scope the
/// writer can see and is otherwise answered like an unknown id; a client_id or content id that
/// belongs to a node the writer cannot see is a conflict.
std::optional<Error> existingNodeRefusal(const PlannedNode &p,
                                         const std::optional<NodeRecord> &stored,
                                         const CallScope &cs, const NodeAccess &access)
{
    const QString at = QStringLiteral("nodes[%1]").arg(p.index);
    const bool usable = stored && inCallScope(*stored, cs) && access.allows(*stored);
    if (p.explicitId)
        return usable ? std::nullopt
                      : std::optional<Error>(unknownNodeId(at + QStringLiteral(".id")));
    if (!stored || usable)
        return std::nullopt;
    return clientIdConflict(p.record.clientId.isEmpty() ? at : at + QStringLiteral(".client_id"));
}

// --- validate ---------------------------------------------------------------------------------

/// A deployment may refuse writes that create nothing recallable.
Error nodesRequired(const CallScope &cs, const WriteRequest &req)
{
    return Error::make(400, QStringLiteral("write_nodes_required"),
                       QStringLiteral("this deployment requires at least one node per write"),
                       {{QStringLiteral("tenant_id"), cs.tenantId},
                        {QStringLiteral("scope"), cs.scope},
                        {QStringLiteral("node_count"), 0},
                        {QStringLiteral("edge_count"), req.edges.size()}});
}

/// Stage validate: the call's scope, reserved client ids, the node requirement and the writer's
/// identity, refused in this order before anything is read.
Result<WriteContext> validateWrite(const WriteRequest &req, const RequestMeta &meta,
                                   WriteOrigin origin, const ServiceConfig &config)
{
    auto scoped = resolveCallScope(req.tenantId, req.scope, meta, config);
    if (!scoped)
        return scoped.error();
    if (origin == WriteOrigin::Api) {
        if (auto reserved = reservedClientIdRefusal(req))
            return *reserved;
    }
    if (config.writeRequireNodes && req.nodes.isEmpty())
        return nodesRequired(scoped.value(), req);
    auto identity = resolveIdentity(req, meta, config);
    if (!identity)
        return identity.error();
    const QString inputSha
        = req.inputSha256.isEmpty() ? sha256Hex(req.inputText.toUtf8()) : req.inputSha256;
    WriteContext w{req, meta, std::move(scoped).value(), NodeAccess::of(meta), {}, inputSha};
    w.ident = std::move(identity).value();
    return w;
}

// --- resolve ids ------------------------------------------------------------------------------

/// The id a node is written under: derived from its client_id, as given, or derived from its
/// content. A node scope other than the request's and an id or client_id named twice are refused.
Result<QString> nodeId(const WriteContext &w, NodePlan *plan, int index)
{
    const WriteNodeInput &in = w.req.nodes[index];
    const QString at = QStringLiteral("nodes[%1]").arg(index);
    if (!in.scope.isEmpty() && in.scope != w.cs.scope)
        return Error::invalidField(at + QStringLiteral(".scope"),
                                   QStringLiteral("must equal the request scope"));
    QString id = in.id;
    if (!in.clientId.isEmpty()) {
        const QString derived = stableUuid(w.cs.key + QStringLiteral(":node:") + in.clientId);
        if (!id.isEmpty() && id != derived)
            return Error::invalidField(at + QStringLiteral(".id"),
                                       QStringLiteral("does not match the id of client_id '%1' "
                                                      "in this scope (%2)")
                                           .arg(in.clientId, derived));
        id = derived;
        if (plan->idByClientId.contains(in.clientId))
            return Error::invalidField(at + QStringLiteral(".client_id"),
                                       QStringLiteral("appears twice in this write"));
        plan->idByClientId.insert(in.clientId, id);
    } else if (id.isEmpty()) {
        id = contentDerivedId(w.cs, in, w.meta);
    }
    if (plan->indexById.contains(id))
        return Error::invalidField(at + QStringLiteral(".id"),
                                   QStringLiteral("appears twice in this write"));
    plan->indexById.insert(id, index);
    return id;
}

/// A rule's slots must form a valid rule, and a private rule needs an owner to be visible to.
Result<void> ruleNodeRefusal(const NodeRecord &n, const WriteNodeInput &in, const QString &at)
{
    if (n.type != QLatin1String("rule"))
        return {};
    if (auto valid = RuleDefinition::validateSlots(in.slotData, at); !valid)
        return valid.error();
    const QString lane = firstOf(n.memoryLane, QStringLiteral("private"));
    if (lane == QLatin1String("private") && n.ownerAgentId.isEmpty() && n.ownerTeamId.isEmpty())
        return Error::make(400, QStringLiteral("invalid_private_rule_owner"),
                           QStringLiteral("a private rule needs owner_agent_id or owner_team_id"),
                           {{QStringLiteral("node_id"), n.id},
                            {QStringLiteral("client_id"), nullable(in.clientId)},
                            {QStringLiteral("memory_lane"), lane},
                            {QStringLiteral("type"), n.type},
                            {QStringLiteral("path"), at}});
    return {};
}

/// The node as the request names it, lane and owners defaulted from the writer's identity.
Result<PlannedNode> plannedNode(const WriteContext &w, int index, const QString &id)
{
    const WriteNodeInput &in = w.req.nodes[index];
    PlannedNode p;
    p.index = index;
    p.explicitId = !in.id.isEmpty() && in.clientId.isEmpty();
    NodeRecord &n = p.record;
    n.id = id;
    n.tenantId = w.cs.tenantId;
    n.scope = w.cs.scope;
    n.clientId = in.clientId;
    n.type = in.type;
    n.tier = in.tier;
    n.memoryLane = firstOf(in.memoryLane, w.ident.lane);
    n.producerAgentId = firstOf(in.producerAgentId, w.ident.producer);
    n.ownerAgentId = firstOf(in.ownerAgentId, w.ident.ownerAgent);
    n.ownerTeamId = firstOf(in.ownerTeamId, w.ident.ownerTeam);
    if (n.ownerAgentId.isEmpty() && n.ownerTeamId.isEmpty())
        n.ownerAgentId = n.producerAgentId;
    if (auto refused = ruleNodeRefusal(n, in, QStringLiteral("nodes[%1]").arg(index)); !refused)
        return refused.error();
    return p;
}

/// Stage resolve ids: ids and ownership are decided before touching storage, so bad input
/// writes nothing.
Result<NodePlan> resolveNodeIds(const WriteContext &w)
{
    NodePlan plan;
    for (int i = 0; i < w.req.nodes.size(); ++i) {
        auto id = nodeId(w, &plan, i);
        if (!id)
            return id.error();
        auto planned = plannedNode(w, i, id.value());
        if (!planned)
            return planned.error();
        plan.nodes.append(std::move(planned).value());
    }
    return plan;
}

// --- diff -------------------------------------------------------------------------------------

/// An update changes what it names; everything else keeps its stored value.
void keepStoredValues(NodeRecord *n, const WriteNodeInput &in, const WriteRequest &req,
                      const NodeRecord &o)
{
    n->clientId = firstOf(n->clientId, o.clientId);
    n->tier = firstOf(in.tier, o.tier);
    n->memoryLane = firstOf(in.memoryLane, req.memoryLane, o.memoryLane);
    n->producerAgentId = firstOf(in.producerAgentId, req.producerAgentId, o.producerAgentId);
    n->ownerAgentId = firstOf(in.ownerAgentId, req.ownerAgentId, o.ownerAgentId);
    n->ownerTeamId = firstOf(in.ownerTeamId, req.ownerTeamId, o.ownerTeamId);
    n->title = in.raw.contains(QStringLiteral("title")) ? in.title : o.title;
    n->textSummary
        = in.raw.contains(QStringLiteral("text_summary")) ? in.textSummary : o.textSummary;
    n->slotData = in.raw.contains(QStringLiteral("slots")) ? in.slotData : o.slotData;
    n->rawRef = firstOf(in.rawRef, o.rawRef);
    n->evidenceRef = firstOf(in.evidenceRef, o.evidenceRef);
    n->occurredAt = in.raw.contains(QStringLiteral("occurred_at")) ? in.occurredAt : o.occurredAt;
    n->salience = in.salience.value_or(o.salience);
    n->importance = in.importance.value_or(o.importance);
    n->confidence = in.confidence.value_or(o.confidence);
    n->createdAt = o.createdAt;
    n->lastActivated = o.lastActivated;
    n->embeddingStatus = o.embeddingStatus;
    n->embeddingModel = o.embeddingModel;
    n->embeddingError = o.embeddingError;
}

/// A new node takes what the request names and the defaults for the rest.
void fillNewNode(NodeRecord *n, const WriteNodeInput &in, const QDateTime &now)
{
    n->tier = firstOf(in.tier, QStringLiteral("hot"));
    n->memoryLane = firstOf(n->memoryLane, QStringLiteral("private"));
    n->title = in.title;
    n->textSummary = in.textSummary;
    n->slotData = in.slotData;
    n->rawRef = in.rawRef;
    n->evidenceRef = in.evidenceRef;
    n->occurredAt = in.occurredAt;
    n->salience = in.salience.value_or(0.5);
    n->importance = in.importance.value_or(0.5);
    n->confidence = in.confidence.value_or(0.5);
    n->createdAt = now;
}

/// A vector sent with the node is stored as it is. The old vector described the old text: a
/// changed text drops it and lets the backfill worker embed the new text when a provider is
/// configured (spec §3.2).
void settleEmbedding(PlannedNode *p, const WriteNodeInput &in, bool textChanged, bool autoEmbed)
{
    NodeRecord &n = p->record;
    if (!in.embedding.isEmpty()) {
        p->embedding = floatsToBytes(in.embedding);
        n.embeddingStatus = QStringLiteral("ready");
        n.embeddingModel = firstOf(in.embeddingModel, QStringLiteral("client"));
        n.embeddingError.clear();
    } else if (textChanged) {
        p->embedding.clear();
        n.embeddingModel.clear();
        if (n.embedText().isEmpty()) {
            n.embeddingStatus = QStringLiteral("failed");
            n.embeddingError = QStringLiteral("no_embed_text");
        } else if (autoEmbed) {
            n.embeddingStatus = QStringLiteral("pending");
            n.embeddingError.clear();
        } else {
            n.embeddingStatus = QStringLiteral("failed");
            n.embeddingError = QStringLiteral("auto_embed_disabled_or_no_provider");
        }
    }
}

/// created, updated or unchanged: the commit diff and the replay check depend on it.
QString nodeChange(const std::optional<NodeRecord> &old, const NodeRecord &n,
                   const QByteArray &oldEmbedding, const QByteArray &embedding)
{
    if (!old)
        return QStringLiteral("created");
    if (!sameNode(*old, n) || oldEmbedding != embedding)
        return QStringLiteral("updated");
    return QStringLiteral("unchanged");
}

/// Compares one planned node with the stored one it names and notes its change in the diff.
Result<void> diffNode(QSqlDatabase &db, const WriteContext &w, PlannedNode &p, const QDateTime &now,
                      bool canAutoEmbed, WriteChanges *changes)
{
    const WriteNodeInput &in = w.req.nodes[p.index];
    auto found = GraphStore::findNode(db, p.record.id);
    if (!found)
        return found.error();
    const std::optional<NodeRecord> &old = found.value();
    if (auto refused = existingNodeRefusal(p, old, w.cs, w.access))
        return *refused;
    NodeRecord &n = p.record;
    QByteArray oldEmbedding;
    if (old) {
        auto emb = GraphStore::nodeEmbedding(db, n.id);
        if (!emb)
            return emb.error();
        oldEmbedding = emb.value();
        keepStoredValues(&n, in, w.req, *old);
        p.embedding = oldEmbedding;
    } else {
        fillNewNode(&n, in, now);
    }
    const bool textChanged = !old || old->embedText() != n.embedText();
    settleEmbedding(&p, in, textChanged, w.req.autoEmbed.value_or(true) && canAutoEmbed);
    p.embeddingChanged = oldEmbedding != p.embedding;
    p.change = nodeChange(old, n, oldEmbedding, p.embedding);
    n.updatedAt = p.change == QLatin1String("unchanged") ? old->updatedAt : now;
    n.commitId = old ? old->commitId : QString();
    changes->anyChange = changes->anyChange || p.change != QLatin1String("unchanged");
    QJsonObject d = nodeContent(n, p.embedding);
    d.insert(QStringLiteral("change"), p.change);
    changes->nodeDiff.append(d);
    return {};
}

/// The node an edge end names: a node of this write, or a stored node of the scope the writer
/// can see. A node the writer cannot see is answered exactly like an absent one.
Result<QString> endpointNodeId(QSqlDatabase &db, const WriteContext &w, const NodePlan &plan,
                               const EdgeEndpoint &ep, const QString &at)
{
    if (!ep.id.isEmpty()) {
        if (plan.indexById.contains(ep.id))
            return ep.id;
        auto f = GraphStore::findNode(db, ep.id);
        if (!f)
            return f.error();
        if (!f.value() || !inCallScope(*f.value(), w.cs) || !w.access.allows(*f.value()))
            return unknownNodeId(at + QStringLiteral(".id"));
        return ep.id;
    }
    if (plan.idByClientId.contains(ep.clientId))
        return plan.idByClientId.value(ep.clientId);
    auto f = GraphStore::findNodeByClientId(db, w.cs.tenantId, w.cs.scope, ep.clientId);
    if (!f)
        return f.error();
    if (!f.value() || !w.access.allows(*f.value()))
        return Error::invalidField(
            at + QStringLiteral(".client_id"),
            QStringLiteral("no node with this client_id in the write or the scope"));
    return f.value()->id;
}

/// The edge as written: its id derived from scope, type and ends; omitted values kept from the
/// stored edge or defaulted.
PlannedEdge plannedEdge(const CallScope &cs, const WriteEdgeInput &in, const QString &src,
                        const QString &dst, const std::optional<EdgeRecord> &old,
                        const QDateTime &now)
{
    PlannedEdge pe;
    EdgeRecord &e = pe.record;
    e.id = old ? old->id
               : stableUuid(cs.key + QStringLiteral(":edge:") + in.type + QLatin1Char(':') + src
                            + QLatin1Char(':') + dst);
    e.tenantId = cs.tenantId;
    e.scope = cs.scope;
    e.type = in.type;
    e.fromId = src;
    e.toId = dst;
    e.weight = in.weight.value_or(old ? old->weight : 0.5);
    e.confidence = in.confidence.value_or(old ? old->confidence : 0.5);
    e.decayRate = in.decayRate.value_or(old ? old->decayRate : 0.01);
    e.createdAt = old ? old->createdAt : now;
    e.commitId = old ? old->commitId : QString();
    pe.change = !old ? QStringLiteral("created")
                : (old->weight != e.weight || old->confidence != e.confidence
                   || old->decayRate != e.decayRate)
                    ? QStringLiteral("updated")
                    : QStringLiteral("unchanged");
    return pe;
}

/// Everything an edge write decides, hashed into the commit.
QJsonObject edgeContent(const EdgeRecord &e)
{
    return {{QStringLiteral("id"), e.id},
            {QStringLiteral("type"), e.type},
            {QStringLiteral("src_id"), e.fromId},
            {QStringLiteral("dst_id"), e.toId},
            {QStringLiteral("weight"), e.weight},
            {QStringLiteral("confidence"), e.confidence},
            {QStringLiteral("decay_rate"), e.decayRate}};
}

/// Resolves one request edge's ends, compares it with the stored edge and notes its change.
Result<void> diffEdge(QSqlDatabase &db, const WriteContext &w, const NodePlan &plan, int index,
                      const QDateTime &now, WriteChanges *changes)
{
    const WriteEdgeInput &in = w.req.edges[index];
    const QString at = QStringLiteral("edges[%1]").arg(index);
    auto src = endpointNodeId(db, w, plan, in.src, at + QStringLiteral(".src"));
    if (!src)
        return src.error();
    auto dst = endpointNodeId(db, w, plan, in.dst, at + QStringLiteral(".dst"));
    if (!dst)
        return dst.error();
    if (src.value() == dst.value())
        return Error::invalidField(at, QStringLiteral("src and dst are the same node"));
    auto found
        = GraphStore::findEdge(db, w.cs.tenantId, w.cs.scope, in.type, src.value(), dst.value());
    if (!found)
        return found.error();
    const std::optional<EdgeRecord> &old = found.value();
    // An explicit id may only repeat the id of the edge being written, so it can neither
    // collide with nor reveal another record.
    if (!in.id.isEmpty() && (!old || old->id != in.id))
        return unknownEdgeId(at + QStringLiteral(".id"));
    PlannedEdge pe = plannedEdge(w.cs, in, src.value(), dst.value(), old, now);
    changes->anyChange = changes->anyChange || pe.change != QLatin1String("unchanged");
    QJsonObject d = edgeContent(pe.record);
    d.insert(QStringLiteral("change"), pe.change);
    changes->edgeDiff.append(d);
    changes->edges.append(std::move(pe));
    return {};
}

/// Stage diff: every planned node, then every edge, compared with what is stored.
Result<void> diffAgainstStore(QSqlDatabase &db, const WriteContext &w, NodePlan &plan,
                              bool canAutoEmbed, WriteChanges *changes)
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (PlannedNode &p : plan.nodes) {
        if (auto diffed = diffNode(db, w, p, now, canAutoEmbed, changes); !diffed)
            return diffed.error();
    }
    for (int i = 0; i < w.req.edges.size(); ++i) {
        if (auto diffed = diffEdge(db, w, plan, i, now, changes); !diffed)
            return diffed.error();
    }
    return {};
}

// --- commit -----------------------------------------------------------------------------------

/// The body as sent, with each node's embedding standing as its digest (WriteNodeInput::raw):
/// writing 1536 numbers a node out as text again cost a third of a write's CPU, and the
/// float32 bytes are what is stored.
QJsonObject bodyWithEmbeddingDigests(const WriteRequest &req)
{
    if (std::none_of(req.nodes.cbegin(), req.nodes.cend(),
                     [](const WriteNodeInput &in) { return !in.embedding.isEmpty(); }))
        return req.raw;
    QJsonArray nodes;
    for (const WriteNodeInput &in : req.nodes)
        nodes.append(in.raw);
    QJsonObject body = req.raw;
    body.insert(QStringLiteral("nodes"), nodes);
    return body;
}

/// What the caller sent, not what it resolved to: background changes (an embedding arriving)
/// must not make an identical re-send look new.
QString requestKey(const WriteContext &w)
{
    return sha256Hex(
        stableJson(QJsonObject{{QStringLiteral("scope"), w.cs.key},
                               {QStringLiteral("actor"), w.ident.actor.id},
                               {QStringLiteral("input_sha256"), w.inputSha},
                               {QStringLiteral("body"), bodyWithEmbeddingDigests(w.req)},
                               {QStringLiteral("kind"), kKindWrite}}));
}

/// Stores a changed node under the commit, with its rule definition and its new vector.
Result<void> saveChangedNode(QSqlDatabase &db, PlannedNode &p, const QString &commitId)
{
    p.record.commitId = commitId;
    if (auto saved = GraphStore::saveNode(db, p.record); !saved)
        return saved.error();
    if (p.record.type == QLatin1String("rule")) {
        if (auto def = RuleStore::ensureRuleDef(db, p.record); !def)
            return def.error();
    }
    if (p.embeddingChanged) {
        auto version = GraphStore::setEmbedding(db, p.record.id, p.embedding);
        if (!version)
            return version.error();
        p.record.embeddingVersion = version.value().version;
        p.record.vectorLabel = version.value().label;
    }
    return {};
}

/// Stores what changed, nodes first so the edges' ends exist.
Result<void> saveChanged(QSqlDatabase &db, NodePlan &plan, WriteChanges *changes)
{
    const QString &commitId = changes->commit.id;
    for (PlannedNode &p : plan.nodes) {
        if (p.change == QLatin1String("unchanged"))
            continue;
        if (auto saved = saveChangedNode(db, p, commitId); !saved)
            return saved.error();
    }
    for (PlannedEdge &pe : changes->edges) {
        if (pe.change == QLatin1String("unchanged"))
            continue;
        pe.record.commitId = commitId;
        if (auto saved = GraphStore::saveEdge(db, pe.record); !saved)
            return saved.error();
    }
    return {};
}

/// Stage commit: one commit chained to the scope's previous one, then the changed records.
Result<void> commitChanges(QSqlDatabase &db, const WriteContext &w, NodePlan &plan,
                           WriteChanges *changes)
{
    const QString key = requestKey(w);
    if (!changes->anyChange) {
        // DESIGN decision 4: an identical re-send returns the commit it made the first time.
        auto prior = GraphStore::findCommitByRequestKey(db, w.cs.tenantId, w.cs.scope, key);
        if (!prior)
            return prior.error();
        if (prior.value()) {
            changes->commit = *prior.value();
            changes->replayed = true;
            return {};
        }
    }
    const QJsonObject diff{{QStringLiteral("nodes"), changes->nodeDiff},
                           {QStringLiteral("edges"), changes->edgeDiff}};
    auto appended = CommitLog::append(db, w.cs, kKindWrite, w.ident.actor, w.inputSha, diff, key);
    if (!appended)
        return appended.error();
    changes->commit = appended.value();
    return saveChanged(db, plan, changes);
}

// --- index ------------------------------------------------------------------------------------

/// Stage index: the vectors the scope's index must mirror (a replayed commit wrote none) and
/// how many nodes wait for the backfill.
void handOverVectors(const WriteContext &w, const NodePlan &plan, const WriteChanges &changes,
                     WriteResult *result)
{
    for (const PlannedNode &p : plan.nodes) {
        if (!changes.replayed && p.embeddingChanged)
            result->embeddingChanges.append({w.cs.tenantId, w.cs.scope, p.record.vectorLabel,
                                             p.record.embeddingVersion, p.embedding});
        if (p.record.embeddingStatus == QLatin1String("pending"))
            ++result->pendingEmbeddings;
    }
}

/// The answer: the records written with their URIs, the commit, and a warning for a write
/// without nodes.
void describeWritten(const WriteContext &w, const NodePlan &plan, const WriteChanges &changes,
                     WriteResult *result)
{
    const CallScope &cs = w.cs;
    for (const PlannedNode &p : plan.nodes)
        result->nodes.append({p.record.id,
                              recordUri(cs.tenantId, cs.scope, p.record.type, p.record.id),
                              p.record.clientId, p.record.type});
    for (const PlannedEdge &pe : changes.edges)
        result->edges.append(
            {pe.record.id, recordUri(cs.tenantId, cs.scope, QStringLiteral("edge"), pe.record.id),
             pe.record.type, pe.record.fromId, pe.record.toId});
    result->commitId = changes.commit.id;
    result->commitHash = changes.commit.commitHash;
    result->commitUri
        = recordUri(cs.tenantId, cs.scope, QStringLiteral("commit"), changes.commit.id);
    if (w.req.nodes.isEmpty())
        result->warnings.append({QStringLiteral("write_no_nodes"),
                                 QStringLiteral("the write has no nodes, so nothing recallable was "
                                                "created; the input is kept as a commit"),
                                 {{QStringLiteral("tenant_id"), cs.tenantId},
                                  {QStringLiteral("scope"), cs.scope},
                                  {QStringLiteral("edge_count"), w.req.edges.size()}}});
}

} // namespace

WriteEngine::WriteEngine(Database &db, const ServiceConfig &config, bool canAutoEmbed)
    : m_db(db), m_config(config), m_canAutoEmbed(canAutoEmbed)
{
}

Result<WriteResult> WriteEngine::write(const WriteRequest &req, const RequestMeta &meta,
                                       WriteOrigin origin)
{
    auto validated = validateWrite(req, meta, origin, m_config);
    if (!validated)
        return validated.error();
    const WriteContext &w = validated.value();
    auto resolved = resolveNodeIds(w);
    if (!resolved)
        return resolved.error();
    NodePlan &plan = resolved.value();

    WriteChanges changes;
    auto applied = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        if (auto diffed = diffAgainstStore(db, w, plan, m_canAutoEmbed, &changes); !diffed)
            return diffed.error();
        return commitChanges(db, w, plan, &changes);
    });
    if (!applied)
        return applied.error();

    WriteResult result;
    result.tenantId = w.cs.tenantId;
    result.scope = w.cs.scope;
    result.replayed = changes.replayed;
    handOverVectors(w, plan, changes, &result);
    describeWritten(w, plan, changes, &result);
    return result;
}

} // namespace MemoryGraph
