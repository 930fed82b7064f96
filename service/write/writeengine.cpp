#include "service/write/writeengine.h"

#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/access/callscope.h"
#include "service/storage/commitlog.h"
#include "service/core/jsonvalues.h"
#include "service/storage/scopedlookup.h"
#include "service/access/viewer.h"
#include "service/storage/database.h"
#include "service/rules/ruledefinition.h"
#include "service/storage/graphstore.h"
#include "service/storage/rulestore.h"

#include <QHash>
#include <QJsonArray>

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
            if (auto e = check(at + QStringLiteral("producer_agent_id"), n.producerAgentId, p.agentId))
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
    const QString message = QStringLiteral("the prefix 'replay:' is reserved for the replay routes");
    for (int i = 0; i < req.nodes.size(); ++i) {
        if (req.nodes[i].clientId.startsWith(kReplayClientIdPrefix))
            return Error::invalidField(QStringLiteral("nodes[%1].client_id").arg(i), message);
    }
    for (int i = 0; i < req.edges.size(); ++i) {
        const std::pair<const char *, const EdgeEndpoint *> ends[] = {{"src", &req.edges[i].src},
                                                                      {"dst", &req.edges[i].dst}};
        for (const auto &[side, endpoint] : ends) {
            if (endpoint->clientId.startsWith(kReplayClientIdPrefix))
                return Error::invalidField(QStringLiteral("edges[%1].%2.client_id").arg(i).arg(QLatin1String(side)),
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
    return Error::invalidField(path, QStringLiteral("does not name the edge of this type between these nodes "
                                                    "in the scope"));
}

/// The client_id (or content) of a node the writer cannot see: refused as a naming conflict
/// that says nothing about the node, its owner or its lane.
Error clientIdConflict(const QString &path)
{
    const QString message = QStringLiteral("is already in use in this scope; choose another client_id");
    return Error::make(409, QStringLiteral("client_id_conflict"), path + QLatin1Char(' ') + message,
                       {{QStringLiteral("issues"), QJsonArray{QJsonObject{{QStringLiteral("path"), path},
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
           && a.ownerTeamId == b.ownerTeamId && a.title == b.title
           && a.textSummary == b.textSummary && a.slotData == b.slotData && a.rawRef == b.rawRef
           && a.evidenceRef == b.evidenceRef && a.embeddingStatus == b.embeddingStatus
           && a.embeddingModel == b.embeddingModel && a.salience == b.salience
           && a.importance == b.importance && a.confidence == b.confidence
           && a.clientId == b.clientId;
}

/// Everything a node write decides, hashed into the commit.
QJsonObject nodeContent(const NodeRecord &n, const QByteArray &embedding)
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

struct PlannedNode
{
    int index = 0;
    bool explicitId = false;   ///< named by id alone: must be an existing node the writer may use
    NodeRecord record;
    QByteArray embedding;
    QString change;  ///< created, updated, unchanged
    bool embeddingChanged = false;
};

struct PlannedEdge
{
    EdgeRecord record;
    QString change;
};

/// Whether the write may touch the stored node its planned id names (DESIGN trust model: lanes
/// and owners guard writes as well as reads). An explicit id must name a node of this scope the
/// writer can see and is otherwise answered like an unknown id; a client_id or content id that
/// belongs to a node the writer cannot see is a conflict.
std::optional<Error> existingNodeRefusal(const PlannedNode &p, const std::optional<NodeRecord> &stored,
                                         const CallScope &cs, const NodeAccess &access)
{
    const QString at = QStringLiteral("nodes[%1]").arg(p.index);
    const bool usable = stored && inCallScope(*stored, cs) && access.allows(*stored);
    if (p.explicitId)
        return usable ? std::nullopt : std::optional<Error>(unknownNodeId(at + QStringLiteral(".id")));
    if (!stored || usable)
        return std::nullopt;
    return clientIdConflict(p.record.clientId.isEmpty() ? at : at + QStringLiteral(".client_id"));
}

} // namespace

WriteEngine::WriteEngine(Database &db, const ServiceConfig &config, bool canAutoEmbed)
    : m_db(db), m_config(config), m_canAutoEmbed(canAutoEmbed)
{
}

Result<WriteResult> WriteEngine::write(const WriteRequest &req, const RequestMeta &meta, WriteOrigin origin)
{
    auto scoped = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!scoped)
        return scoped.error();
    const CallScope cs = scoped.value();
    if (origin == WriteOrigin::Api) {
        if (auto reserved = reservedClientIdRefusal(req))
            return *reserved;
    }
    const NodeAccess access = NodeAccess::of(meta);

    if (m_config.writeRequireNodes && req.nodes.isEmpty())
        return Error::make(400, QStringLiteral("write_nodes_required"),
                           QStringLiteral("this deployment requires at least one node per write"),
                           {{QStringLiteral("tenant_id"), cs.tenantId},
                            {QStringLiteral("scope"), cs.scope},
                            {QStringLiteral("node_count"), 0},
                            {QStringLiteral("edge_count"), req.edges.size()}});

    auto identity = resolveIdentity(req, meta, m_config);
    if (!identity)
        return identity.error();
    const WriteIdentity ident = identity.value();
    const QString inputSha = req.inputSha256.isEmpty() ? sha256Hex(req.inputText.toUtf8())
                                                        : req.inputSha256;

    // Ids and ownership are decided before touching storage so bad input writes nothing.
    QVector<PlannedNode> planned;
    QHash<QString, QString> idByClientId;
    QHash<QString, int> indexById;
    for (int i = 0; i < req.nodes.size(); ++i) {
        const WriteNodeInput &in = req.nodes[i];
        const QString at = QStringLiteral("nodes[%1]").arg(i);
        if (!in.scope.isEmpty() && in.scope != cs.scope)
            return Error::invalidField(at + QStringLiteral(".scope"),
                                       QStringLiteral("must equal the request scope"));
        QString id = in.id;
        if (!in.clientId.isEmpty()) {
            const QString derived = stableUuid(cs.key + QStringLiteral(":node:") + in.clientId);
            if (!id.isEmpty() && id != derived)
                return Error::invalidField(at + QStringLiteral(".id"),
                                           QStringLiteral("does not match the id of client_id '%1' "
                                                          "in this scope (%2)").arg(in.clientId, derived));
            id = derived;
            if (idByClientId.contains(in.clientId))
                return Error::invalidField(at + QStringLiteral(".client_id"),
                                           QStringLiteral("appears twice in this write"));
            idByClientId.insert(in.clientId, id);
        } else if (id.isEmpty()) {
            id = contentDerivedId(cs, in, meta);
        }
        if (indexById.contains(id))
            return Error::invalidField(at + QStringLiteral(".id"),
                                       QStringLiteral("appears twice in this write"));
        indexById.insert(id, i);

        PlannedNode p;
        p.index = i;
        p.explicitId = !in.id.isEmpty() && in.clientId.isEmpty();
        NodeRecord &n = p.record;
        n.id = id;
        n.tenantId = cs.tenantId;
        n.scope = cs.scope;
        n.clientId = in.clientId;
        n.type = in.type;
        n.tier = in.tier;
        n.memoryLane = firstOf(in.memoryLane, ident.lane);
        n.producerAgentId = firstOf(in.producerAgentId, ident.producer);
        n.ownerAgentId = firstOf(in.ownerAgentId, ident.ownerAgent);
        n.ownerTeamId = firstOf(in.ownerTeamId, ident.ownerTeam);
        if (n.ownerAgentId.isEmpty() && n.ownerTeamId.isEmpty())
            n.ownerAgentId = n.producerAgentId;
        if (n.type == QLatin1String("rule")) {
            if (auto valid = RuleDefinition::validateSlots(in.slotData, at); !valid)
                return valid.error();
        }
        const QString lane = firstOf(n.memoryLane, QStringLiteral("private"));
        if (n.type == QLatin1String("rule") && lane == QLatin1String("private")
            && n.ownerAgentId.isEmpty() && n.ownerTeamId.isEmpty())
            return Error::make(400, QStringLiteral("invalid_private_rule_owner"),
                               QStringLiteral("a private rule needs owner_agent_id or owner_team_id"),
                               {{QStringLiteral("node_id"), id},
                                {QStringLiteral("client_id"), nullable(in.clientId)},
                                {QStringLiteral("memory_lane"), lane},
                                {QStringLiteral("type"), n.type},
                                {QStringLiteral("path"), at}});
        planned.append(p);
    }

    WriteResult result;
    result.tenantId = cs.tenantId;
    result.scope = cs.scope;
    CommitRecord commit;

    auto applied = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        bool anyChange = false;
        QJsonArray diffNodes;

        for (PlannedNode &p : planned) {
            const WriteNodeInput &in = req.nodes[p.index];
            const QString at = QStringLiteral("nodes[%1]").arg(p.index);
            auto found = GraphStore::findNode(db, p.record.id);
            if (!found)
                return found.error();
            const std::optional<NodeRecord> &old = found.value();
            if (auto refused = existingNodeRefusal(p, old, cs, access))
                return *refused;
            NodeRecord n = p.record;
            QByteArray oldEmbedding;
            if (old) {
                auto emb = GraphStore::nodeEmbedding(db, n.id);
                if (!emb)
                    return emb.error();
                oldEmbedding = emb.value();
                // An update changes what it names; everything else keeps its stored value.
                const NodeRecord &o = *old;
                n.clientId = firstOf(n.clientId, o.clientId);
                n.tier = firstOf(in.tier, o.tier);
                n.memoryLane = firstOf(in.memoryLane, req.memoryLane, o.memoryLane);
                n.producerAgentId = firstOf(in.producerAgentId, req.producerAgentId, o.producerAgentId);
                n.ownerAgentId = firstOf(in.ownerAgentId, req.ownerAgentId, o.ownerAgentId);
                n.ownerTeamId = firstOf(in.ownerTeamId, req.ownerTeamId, o.ownerTeamId);
                n.title = in.raw.contains(QStringLiteral("title")) ? in.title : o.title;
                n.textSummary = in.raw.contains(QStringLiteral("text_summary")) ? in.textSummary
                                                                                : o.textSummary;
                n.slotData = in.raw.contains(QStringLiteral("slots")) ? in.slotData : o.slotData;
                n.rawRef = firstOf(in.rawRef, o.rawRef);
                n.evidenceRef = firstOf(in.evidenceRef, o.evidenceRef);
                n.salience = in.salience.value_or(o.salience);
                n.importance = in.importance.value_or(o.importance);
                n.confidence = in.confidence.value_or(o.confidence);
                n.createdAt = o.createdAt;
                n.lastActivated = o.lastActivated;
                n.embeddingStatus = o.embeddingStatus;
                n.embeddingModel = o.embeddingModel;
                n.embeddingError = o.embeddingError;
                p.embedding = oldEmbedding;
            } else {
                n.tier = firstOf(in.tier, QStringLiteral("hot"));
                n.memoryLane = firstOf(n.memoryLane, QStringLiteral("private"));
                n.title = in.title;
                n.textSummary = in.textSummary;
                n.slotData = in.slotData;
                n.rawRef = in.rawRef;
                n.evidenceRef = in.evidenceRef;
                n.salience = in.salience.value_or(0.5);
                n.importance = in.importance.value_or(0.5);
                n.confidence = in.confidence.value_or(0.5);
                n.createdAt = now;
            }
            const bool textChanged = !old || old->embedText() != n.embedText();
            if (!in.embedding.isEmpty()) {
                p.embedding = floatsToBytes(in.embedding);
                n.embeddingStatus = QStringLiteral("ready");
                n.embeddingModel = firstOf(in.embeddingModel, QStringLiteral("client"));
                n.embeddingError.clear();
            } else if (textChanged) {
                // The old vector described the old text: drop it and let the backfill worker
                // embed the new text when a provider is configured (spec §3.2).
                p.embedding.clear();
                n.embeddingModel.clear();
                const bool autoEmbed = req.autoEmbed.value_or(true) && m_canAutoEmbed;
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
            p.embeddingChanged = oldEmbedding != p.embedding;
            if (!old)
                p.change = QStringLiteral("created");
            else if (!sameNode(*old, n) || oldEmbedding != p.embedding)
                p.change = QStringLiteral("updated");
            else
                p.change = QStringLiteral("unchanged");
            n.updatedAt = p.change == QLatin1String("unchanged") ? old->updatedAt : now;
            n.commitId = old ? old->commitId : QString();
            p.record = n;
            anyChange = anyChange || p.change != QLatin1String("unchanged");
            QJsonObject d = nodeContent(n, p.embedding);
            d.insert(QStringLiteral("change"), p.change);
            diffNodes.append(d);
        }

        QVector<PlannedEdge> edges;
        QJsonArray diffEdges;
        for (int i = 0; i < req.edges.size(); ++i) {
            const WriteEdgeInput &in = req.edges[i];
            const QString at = QStringLiteral("edges[%1]").arg(i);
            auto resolve = [&](const EdgeEndpoint &ep, const QString &field) -> Result<QString> {
                // A node the writer cannot see is answered exactly like an absent one.
                if (!ep.id.isEmpty()) {
                    if (indexById.contains(ep.id))
                        return ep.id;
                    auto f = GraphStore::findNode(db, ep.id);
                    if (!f)
                        return f.error();
                    if (!f.value() || !inCallScope(*f.value(), cs) || !access.allows(*f.value()))
                        return unknownNodeId(at + QLatin1Char('.') + field + QStringLiteral(".id"));
                    return ep.id;
                }
                if (idByClientId.contains(ep.clientId))
                    return idByClientId.value(ep.clientId);
                auto f = GraphStore::findNodeByClientId(db, cs.tenantId, cs.scope, ep.clientId);
                if (!f)
                    return f.error();
                if (!f.value() || !access.allows(*f.value()))
                    return Error::invalidField(at + QLatin1Char('.') + field + QStringLiteral(".client_id"),
                                               QStringLiteral("no node with this client_id in the "
                                                              "write or the scope"));
                return f.value()->id;
            };
            auto src = resolve(in.src, QStringLiteral("src"));
            if (!src)
                return src.error();
            auto dst = resolve(in.dst, QStringLiteral("dst"));
            if (!dst)
                return dst.error();
            if (src.value() == dst.value())
                return Error::invalidField(at, QStringLiteral("src and dst are the same node"));
            auto found = GraphStore::findEdge(db, cs.tenantId, cs.scope, in.type, src.value(), dst.value());
            if (!found)
                return found.error();
            const std::optional<EdgeRecord> &old = found.value();
            // An edge's id is derived from its scope, type and ends; an explicit id may only
            // repeat the id of the edge being written, so it can neither collide with nor reveal
            // another record.
            if (!in.id.isEmpty() && (!old || old->id != in.id))
                return unknownEdgeId(at + QStringLiteral(".id"));
            PlannedEdge pe;
            EdgeRecord &e = pe.record;
            e.id = old ? old->id
                       : stableUuid(cs.key + QStringLiteral(":edge:") + in.type + QLatin1Char(':')
                                    + src.value() + QLatin1Char(':') + dst.value());
            e.tenantId = cs.tenantId;
            e.scope = cs.scope;
            e.type = in.type;
            e.fromId = src.value();
            e.toId = dst.value();
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
            anyChange = anyChange || pe.change != QLatin1String("unchanged");
            const QJsonObject content{{QStringLiteral("id"), e.id},
                                      {QStringLiteral("type"), e.type},
                                      {QStringLiteral("src_id"), e.fromId},
                                      {QStringLiteral("dst_id"), e.toId},
                                      {QStringLiteral("weight"), e.weight},
                                      {QStringLiteral("confidence"), e.confidence},
                                      {QStringLiteral("decay_rate"), e.decayRate}};
            QJsonObject d = content;
            d.insert(QStringLiteral("change"), pe.change);
            diffEdges.append(d);
            edges.append(pe);
        }

        const QJsonObject diff{{QStringLiteral("nodes"), diffNodes}, {QStringLiteral("edges"), diffEdges}};
        // What the caller sent, not what it resolved to: background changes (an embedding
        // arriving) must not make an identical re-send look new.
        const QString requestKey = sha256Hex(stableJson(QJsonObject{
            {QStringLiteral("scope"), cs.key}, {QStringLiteral("actor"), ident.actor.id},
            {QStringLiteral("input_sha256"), inputSha}, {QStringLiteral("body"), req.raw},
            {QStringLiteral("kind"), kKindWrite}}));

        if (!anyChange) {
            // DESIGN decision 4: an identical re-send returns the commit it made the first time.
            auto prior = GraphStore::findCommitByRequestKey(db, cs.tenantId, cs.scope, requestKey);
            if (!prior)
                return prior.error();
            if (prior.value()) {
                commit = *prior.value();
                result.replayed = true;
            }
        }

        if (!result.replayed) {
            auto appended = CommitLog::append(db, cs, kKindWrite, ident.actor, inputSha, diff, requestKey);
            if (!appended)
                return appended.error();
            commit = appended.value();
            for (PlannedNode &p : planned) {
                if (p.change == QLatin1String("unchanged"))
                    continue;
                p.record.commitId = commit.id;
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
            }
            for (PlannedEdge &pe : edges) {
                if (pe.change == QLatin1String("unchanged"))
                    continue;
                pe.record.commitId = commit.id;
                if (auto saved = GraphStore::saveEdge(db, pe.record); !saved)
                    return saved.error();
            }
        }

        for (const PlannedNode &p : planned) {
            if (!result.replayed && p.embeddingChanged)
                result.embeddingChanges.append({cs.tenantId, cs.scope, p.record.vectorLabel,
                                                p.record.embeddingVersion, p.embedding});
            if (p.record.embeddingStatus == QLatin1String("pending"))
                ++result.pendingEmbeddings;
        }
        for (const PlannedNode &p : planned)
            result.nodes.append({p.record.id,
                                 recordUri(cs.tenantId, cs.scope, p.record.type, p.record.id),
                                 p.record.clientId, p.record.type});
        for (const PlannedEdge &pe : edges)
            result.edges.append({pe.record.id, recordUri(cs.tenantId, cs.scope, QStringLiteral("edge"),
                                                         pe.record.id),
                                 pe.record.type, pe.record.fromId, pe.record.toId});
        return {};
    });
    if (!applied)
        return applied.error();

    result.commitId = commit.id;
    result.commitHash = commit.commitHash;
    result.commitUri = recordUri(cs.tenantId, cs.scope, QStringLiteral("commit"), commit.id);
    if (req.nodes.isEmpty())
        result.warnings.append({QStringLiteral("write_no_nodes"),
                                QStringLiteral("the write has no nodes, so nothing recallable was "
                                               "created; the input is kept as a commit"),
                                {{QStringLiteral("tenant_id"), cs.tenantId},
                                 {QStringLiteral("scope"), cs.scope},
                                 {QStringLiteral("edge_count"), req.edges.size()}}});
    return result;
}

} // namespace MemoryGraph
