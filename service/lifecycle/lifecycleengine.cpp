#include "service/lifecycle/lifecycleengine.h"

#include "service/access/commitcontext.h"
#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/core/jsonvalues.h"
#include "service/core/vocabulary.h"
#include "service/rules/ruledefinition.h"
#include "service/storage/commitlog.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/rulestore.h"
#include "service/storage/scopedlookup.h"
#include "service/tools/nodefeedback.h"

#include <QJsonArray>
#include <QSet>

namespace MemoryGraph {

namespace {

const QString kKindRehydrate = QStringLiteral("archive_rehydrate");
const QString kKindActivate = QStringLiteral("nodes_activate");
const QString kKindEdit = QStringLiteral("node_edit");
const QString kKindForget = QStringLiteral("node_forget");

QString isoTime(const QDateTime &t)
{
    return t.toString(Qt::ISODateWithMs);
}

/// Resolves node_ids and client_ids within the scope; a node of another tenant or scope, or one
/// `access` does not allow, counts as missing (spec §5.4; DESIGN trust model), so an invisible
/// node cannot be told from an absent one. resolvedByClient lists {client_id, node_id} pairs.
/// When nothing resolves the call is refused with 400 noneResolvedCode.
Result<TargetResolution> resolveTargets(QSqlDatabase &db, const CallScope &cs,
                                        const NodeAccess &access, const NodeTargets &targets,
                                        const QString &noneResolvedCode,
                                        QJsonArray *resolvedByClient)
{
    TargetResolution r;
    r.requestedNodeIds = int(targets.nodeIds.size());
    r.requestedClientIds = int(targets.clientIds.size());
    QStringList resolved;
    QSet<QString> foundIds;
    for (const QString &id : targets.nodeIds) {
        resolved << id;
        auto node = GraphStore::findNode(db, id);
        if (!node)
            return node.error();
        if (!node.value() || !inCallScope(*node.value(), cs) || !access.allows(*node.value())) {
            r.missingNodeIds << id;
            continue;
        }
        foundIds.insert(id);
        r.found.append(*node.value());
    }
    for (const QString &clientId : targets.clientIds) {
        auto node = GraphStore::findNodeByClientId(db, cs.tenantId, cs.scope, clientId);
        if (!node)
            return node.error();
        if (!node.value() || !access.allows(*node.value())) {
            r.missingClientIds << clientId;
            continue;
        }
        const NodeRecord &n = *node.value();
        resolvedByClient->append(QJsonObject{{QStringLiteral("client_id"), clientId},
                                             {QStringLiteral("node_id"), n.id}});
        if (!resolved.contains(n.id))
            resolved << n.id;
        if (!foundIds.contains(n.id)) {
            foundIds.insert(n.id);
            r.found.append(n);
        }
    }
    r.resolvedNodeIds = int(resolved.size());
    if (r.resolvedNodeIds == 0)
        return Error::make(400, noneResolvedCode,
                           QStringLiteral("none of the client_ids names a node in this scope"),
                           {{QStringLiteral("missing_client_ids"),
                             QJsonArray::fromStringList(r.missingClientIds)}});
    return r;
}

/// The commit diff fields that rehydrate and activate jobs share.
QJsonObject targetJobDiff(const QString &job, const QDateTime &startedAt, const CallScope &cs,
                          const CommitActor &actor, const QString &reason,
                          const NodeTargets &requested, const QJsonArray &resolvedByClient,
                          const TargetResolution &resolution)
{
    return QJsonObject{
        {QStringLiteral("job"), job},
        {QStringLiteral("started_at"), isoTime(startedAt)},
        {QStringLiteral("scope"), cs.scope},
        {QStringLiteral("actor"), actor.id},
        {QStringLiteral("reason"), nullable(reason)},
        {QStringLiteral("requested"),
         QJsonObject{
             {QStringLiteral("node_ids"), QJsonArray::fromStringList(requested.nodeIds)},
             {QStringLiteral("client_ids"), QJsonArray::fromStringList(requested.clientIds)}}},
        {QStringLiteral("resolved_by_client"), resolvedByClient},
        {QStringLiteral("missing_node_ids"), QJsonArray::fromStringList(resolution.missingNodeIds)},
        {QStringLiteral("missing_client_ids"),
         QJsonArray::fromStringList(resolution.missingClientIds)}};
}

QStringList idsOf(const QVector<NodeRecord> &nodes)
{
    QStringList ids;
    for (const NodeRecord &n : nodes)
        ids << n.id;
    return ids;
}

/// One changed field of an edit, recorded in the commit diff as {old, new}.
void noteChange(QJsonObject *changes, QStringList *fields, const QString &field,
                const QJsonValue &before, const QJsonValue &after)
{
    if (before == after)
        return;
    changes->insert(field,
                    QJsonObject{{QStringLiteral("old"), before}, {QStringLiteral("new"), after}});
    *fields << field;
}

/// Validates an edit's values before anything is read or written; errors name the field.
Result<void> validateEdit(const NodeEditRequest &req)
{
    if (!isUuid(req.nodeId))
        return Error::invalidField(QStringLiteral("node_id"), QStringLiteral("must be a UUID"));
    if (req.tier && !Vocabulary::tiers().contains(*req.tier))
        return Error::invalidField(QStringLiteral("tier"),
                                   QStringLiteral("must be one of: ")
                                       + Vocabulary::tiers().join(QStringLiteral(", ")));
    if (req.memoryLane && !Vocabulary::lanes().contains(*req.memoryLane))
        return Error::invalidField(QStringLiteral("memory_lane"),
                                   QStringLiteral("must be one of: ")
                                       + Vocabulary::lanes().join(QStringLiteral(", ")));
    const auto unit = [](const std::optional<double> &v) { return !v || (*v >= 0.0 && *v <= 1.0); };
    if (!unit(req.salience))
        return Error::invalidField(QStringLiteral("salience"),
                                   QStringLiteral("must be between 0 and 1"));
    if (!unit(req.importance))
        return Error::invalidField(QStringLiteral("importance"),
                                   QStringLiteral("must be between 0 and 1"));
    if (!unit(req.confidence))
        return Error::invalidField(QStringLiteral("confidence"),
                                   QStringLiteral("must be between 0 and 1"));
    return {};
}

/// The node with the edit's values applied; given texts are normalized as on write.
NodeRecord editedNode(const NodeRecord &old, const NodeEditRequest &req, int maxText)
{
    NodeRecord n = old;
    if (req.title)
        n.title = normalizeText(*req.title, maxText);
    if (req.textSummary)
        n.textSummary = normalizeText(*req.textSummary, maxText);
    n.tier = req.tier.value_or(n.tier);
    n.memoryLane = req.memoryLane.value_or(n.memoryLane);
    if (req.ownerAgentId)
        n.ownerAgentId = req.ownerAgentId->trimmed();
    if (req.ownerTeamId)
        n.ownerTeamId = req.ownerTeamId->trimmed();
    n.salience = req.salience.value_or(n.salience);
    n.importance = req.importance.value_or(n.importance);
    n.confidence = req.confidence.value_or(n.confidence);
    if (req.slotData)
        n.slotData = *req.slotData;
    return n;
}

/// An edited rule must still be a valid rule, and a private one needs an owner to be seen by.
Result<void> editedRuleRefusal(const NodeRecord &n)
{
    if (n.type != QLatin1String("rule"))
        return {};
    if (auto valid = RuleDefinition::validateSlots(n.slotData, QStringLiteral("slots")); !valid)
        return valid.error();
    if (n.memoryLane == QLatin1String("private") && n.ownerAgentId.isEmpty()
        && n.ownerTeamId.isEmpty())
        return Error::make(400, QStringLiteral("invalid_private_rule_owner"),
                           QStringLiteral("a private rule needs owner_agent_id or owner_team_id"),
                           {{QStringLiteral("node_id"), n.id},
                            {QStringLiteral("memory_lane"), n.memoryLane},
                            {QStringLiteral("type"), n.type}});
    return {};
}

/// The fields an edit changed, as {old, new} for the commit diff; their names go to fields.
QJsonObject editChanges(const NodeRecord &old, const NodeRecord &n, QStringList *fields)
{
    QJsonObject changes;
    noteChange(&changes, fields, QStringLiteral("title"), nullable(old.title), nullable(n.title));
    noteChange(&changes, fields, QStringLiteral("text_summary"), nullable(old.textSummary),
               nullable(n.textSummary));
    noteChange(&changes, fields, QStringLiteral("tier"), old.tier, n.tier);
    noteChange(&changes, fields, QStringLiteral("memory_lane"), old.memoryLane, n.memoryLane);
    noteChange(&changes, fields, QStringLiteral("owner_agent_id"), nullable(old.ownerAgentId),
               nullable(n.ownerAgentId));
    noteChange(&changes, fields, QStringLiteral("owner_team_id"), nullable(old.ownerTeamId),
               nullable(n.ownerTeamId));
    noteChange(&changes, fields, QStringLiteral("salience"), old.salience, n.salience);
    noteChange(&changes, fields, QStringLiteral("importance"), old.importance, n.importance);
    noteChange(&changes, fields, QStringLiteral("confidence"), old.confidence, n.confidence);
    noteChange(&changes, fields, QStringLiteral("slots"), old.slotData, n.slotData);
    return changes;
}

/// The old vector describes the old text: drop it; the backfill embeds the new text.
void dropStaleEmbedding(NodeRecord *n, bool canAutoEmbed)
{
    n->embeddingModel.clear();
    if (n->embedText().isEmpty()) {
        n->embeddingStatus = QStringLiteral("failed");
        n->embeddingError = QStringLiteral("no_embed_text");
    } else if (canAutoEmbed) {
        n->embeddingStatus = QStringLiteral("pending");
        n->embeddingError.clear();
    } else {
        n->embeddingStatus = QStringLiteral("failed");
        n->embeddingError = QStringLiteral("auto_embed_disabled_or_no_provider");
    }
}

/// The commit diff of an edit: which node, what changed and why.
QJsonObject editDiff(const NodeRecord &n, const QJsonObject &changes, bool reembedding,
                     const QString &reason)
{
    return {{QStringLiteral("node_id"), n.id},
            {QStringLiteral("client_id"), nullable(n.clientId)},
            {QStringLiteral("type"), n.type},
            {QStringLiteral("changes"), changes},
            {QStringLiteral("re_embedding"), reembedding},
            {QStringLiteral("reason"), nullable(reason)}};
}

/// Stores the edited node under the edit's commit with its rule definition; a changed text
/// stores a cleared vector and tells the index to drop the old one.
Result<void> storeEdited(QSqlDatabase &db, NodeRecord n, NodeEditOutcome *out)
{
    n.updatedAt = QDateTime::currentDateTimeUtc();
    n.commitId = out->commit->id;
    if (auto saved = GraphStore::saveNode(db, n); !saved)
        return saved.error();
    if (n.type == QLatin1String("rule")) {
        if (auto def = RuleStore::ensureRuleDef(db, n); !def)
            return def.error();
    }
    if (out->reembedding) {
        auto stamp = GraphStore::setEmbedding(db, n.id, QByteArray());
        if (!stamp)
            return stamp.error();
        n.embeddingVersion = stamp.value().version;
        out->embeddingChanges.append({out->scope.tenantId, out->scope.scope, stamp.value().label,
                                      stamp.value().version, QByteArray()});
    }
    out->node = std::move(n);
    return {};
}

} // namespace

LifecycleEngine::LifecycleEngine(Database &db, const ServiceConfig &config, bool canAutoEmbed)
    : m_db(db), m_config(config), m_canAutoEmbed(canAutoEmbed)
{
}

Result<RehydrateOutcome> LifecycleEngine::rehydrate(const RehydrateRequest &req,
                                                    const RequestMeta &meta)
{
    auto begun = beginCommit(req, meta, m_config);
    if (!begun)
        return begun.error();
    const CommitContext &ctx = begun.value();
    // The route checks this too; the facade is also called directly (UI, jobs).
    if (!Vocabulary::tiers().mid(2).contains(req.targetTier))
        return Error::invalidField(QStringLiteral("target_tier"),
                                   QStringLiteral("must be one of: warm, hot"));
    RehydrateOutcome out;
    out.scope = ctx.scope;
    out.targetTier = req.targetTier;
    const int targetRank = int(Vocabulary::tiers().indexOf(req.targetTier));

    auto written = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        QJsonArray byClient;
        auto resolved = resolveTargets(db, out.scope, NodeAccess::of(meta), req.targets,
                                       QStringLiteral("rehydrate_no_resolved_nodes"), &byClient);
        if (!resolved)
            return resolved.error();
        out.targets = resolved.value();
        QVector<NodeRecord> moving;
        for (const NodeRecord &n : std::as_const(out.targets.found)) {
            // An unknown stored tier ranks lowest, so rehydrate repairs it.
            if (Vocabulary::tiers().indexOf(n.tier) < targetRank) {
                moving.append(n);
                out.movedIds << n.id;
            } else {
                out.noopIds << n.id;
            }
        }
        if (moving.isEmpty())
            return {}; // nothing to move: no commit (reference §6.1)

        const QDateTime now = QDateTime::currentDateTimeUtc();
        QJsonObject diff = targetJobDiff(kKindRehydrate, now, out.scope, ctx.actor, req.reason,
                                         req.targets, byClient, out.targets);
        diff.insert(QStringLiteral("target_tier"), req.targetTier);
        diff.insert(QStringLiteral("moved_ids"), QJsonArray::fromStringList(out.movedIds));
        diff.insert(QStringLiteral("noop_ids"), QJsonArray::fromStringList(out.noopIds));
        auto commit
            = CommitLog::append(db, out.scope, kKindRehydrate, ctx.actor, ctx.inputSha256, diff);
        if (!commit)
            return commit.error();
        out.commit = commit.value();
        for (NodeRecord n : std::as_const(moving)) {
            n.slotData.insert(QStringLiteral("last_rehydrated_at"), isoTime(now));
            n.slotData.insert(QStringLiteral("last_rehydrated_job"), kKindRehydrate);
            n.slotData.insert(QStringLiteral("last_rehydrated_from_tier"), n.tier);
            n.slotData.insert(QStringLiteral("last_rehydrated_to_tier"), req.targetTier);
            n.slotData.insert(QStringLiteral("last_rehydrated_reason"), nullable(req.reason));
            n.slotData.insert(QStringLiteral("last_rehydrated_input_sha256"), ctx.inputSha256);
            n.tier = req.targetTier;
            n.lastActivated = now;
            n.updatedAt = now;
            n.commitId = out.commit->id;
            if (auto saved = GraphStore::saveNode(db, n); !saved)
                return saved.error();
        }
        return {};
    });
    if (!written)
        return written.error();
    return out;
}

Result<NodesActivateOutcome> LifecycleEngine::activate(const NodesActivateRequest &req,
                                                       const RequestMeta &meta)
{
    auto begun = beginCommit(req, meta, m_config);
    if (!begun)
        return begun.error();
    const CommitContext &ctx = begun.value();
    NodesActivateOutcome out;
    out.scope = ctx.scope;
    out.outcome = req.outcome;
    out.activate = req.activate;

    auto written = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        QJsonArray byClient;
        auto resolved
            = resolveTargets(db, out.scope, NodeAccess::of(meta), req.targets,
                             QStringLiteral("nodes_activate_no_resolved_nodes"), &byClient);
        if (!resolved)
            return resolved.error();
        out.targets = resolved.value();
        if (out.targets.found.isEmpty())
            return {}; // nothing found: no commit (reference §6.2)

        const QDateTime now = QDateTime::currentDateTimeUtc();
        QJsonObject diff = targetJobDiff(kKindActivate, now, out.scope, ctx.actor, req.reason,
                                         req.targets, byClient, out.targets);
        diff.insert(QStringLiteral("run_id"), nullable(req.runId));
        diff.insert(QStringLiteral("outcome"), req.outcome);
        diff.insert(QStringLiteral("activate"), req.activate);
        diff.insert(QStringLiteral("found_ids"),
                    QJsonArray::fromStringList(idsOf(out.targets.found)));
        auto commit
            = CommitLog::append(db, out.scope, kKindActivate, ctx.actor, ctx.inputSha256, diff);
        if (!commit)
            return commit.error();
        out.commit = commit.value();
        for (NodeRecord n : std::as_const(out.targets.found)) {
            QJsonObject &s = n.slotData;
            qint64 positive = NodeFeedback::counter(s.value(QStringLiteral("feedback_positive")));
            qint64 negative = NodeFeedback::counter(s.value(QStringLiteral("feedback_negative")));
            if (req.outcome == QLatin1String("positive"))
                ++positive;
            else if (req.outcome == QLatin1String("negative"))
                ++negative;
            const double prior
                = NodeFeedback::priorQuality(s.value(QStringLiteral("feedback_quality")));
            s.insert(QStringLiteral("feedback_positive"), positive);
            s.insert(QStringLiteral("feedback_negative"), negative);
            s.insert(QStringLiteral("feedback_quality"),
                     NodeFeedback::nextQuality(prior, req.outcome));
            s.insert(QStringLiteral("last_feedback_outcome"), req.outcome);
            s.insert(QStringLiteral("last_feedback_at"), isoTime(now));
            s.insert(QStringLiteral("last_feedback_run_id"), nullable(req.runId));
            s.insert(QStringLiteral("last_feedback_reason"), nullable(req.reason));
            s.insert(QStringLiteral("last_feedback_input_sha256"), ctx.inputSha256);
            if (req.activate)
                n.lastActivated = now;
            n.updatedAt = now;
            n.commitId = out.commit->id;
            if (auto saved = GraphStore::saveNode(db, n); !saved)
                return saved.error();
            out.updatedIds << n.id;
        }
        return {};
    });
    if (!written)
        return written.error();
    return out;
}

Result<NodeEditOutcome> LifecycleEngine::edit(const NodeEditRequest &req, const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!cs)
        return cs.error();
    if (auto valid = validateEdit(req); !valid)
        return valid.error();
    auto inputSha = CommitLog::inputDigest(req.inputText, QString());
    if (!inputSha)
        return inputSha.error();
    NodeEditOutcome out;
    out.scope = cs.value();
    const CommitActor actor = commitActor(req.actor, meta, m_config);
    const int maxText = m_config.maxTextLength;

    auto written = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        auto found = findNodeInScope(db, out.scope, req.nodeId, NodeAccess::of(meta));
        if (!found)
            return found.error();
        const NodeRecord &old = found.value();
        NodeRecord n = editedNode(old, req, maxText);
        if (auto valid = editedRuleRefusal(n); !valid)
            return valid.error();
        const QJsonObject changes = editChanges(old, n, &out.changedFields);
        if (out.changedFields.isEmpty()) {
            out.node = old;
            return {}; // nothing changed: no commit
        }
        out.reembedding = old.embedText() != n.embedText();
        if (out.reembedding)
            dropStaleEmbedding(&n, m_canAutoEmbed);
        auto commit = CommitLog::append(
            db, out.scope, kKindEdit, actor, inputSha.value(),
            editDiff(n, changes, out.reembedding, normalizeText(req.reason, maxText)));
        if (!commit)
            return commit.error();
        out.commit = commit.value();
        return storeEdited(db, std::move(n), &out);
    });
    if (!written)
        return written.error();
    return out;
}

Result<NodeForgetOutcome> LifecycleEngine::forget(const NodeForgetRequest &req,
                                                  const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!cs)
        return cs.error();
    if (!isUuid(req.nodeId))
        return Error::invalidField(QStringLiteral("node_id"), QStringLiteral("must be a UUID"));
    auto inputSha = CommitLog::inputDigest(req.inputText, req.inputSha256);
    if (!inputSha)
        return inputSha.error();
    NodeForgetOutcome out;
    out.scope = cs.value();
    const CommitActor actor = commitActor(req.actor, meta, m_config);

    auto written = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        auto found = findNodeInScope(db, out.scope, req.nodeId, NodeAccess::of(meta));
        if (!found)
            return found.error();
        out.node = found.value();
        auto edges = GraphStore::edgesOfNode(db, out.node.id);
        if (!edges)
            return edges.error();
        for (const EdgeRecord &e : edges.value())
            out.removedEdgeIds << e.id;
        out.removedEdgeIds.sort();
        // The diff names what was removed, never the text itself.
        const QJsonObject diff{
            {QStringLiteral("node_id"), out.node.id},
            {QStringLiteral("client_id"), nullable(out.node.clientId)},
            {QStringLiteral("type"), out.node.type},
            {QStringLiteral("title"), nullable(out.node.title)},
            {QStringLiteral("removed_edge_ids"), QJsonArray::fromStringList(out.removedEdgeIds)},
            {QStringLiteral("reason"),
             nullable(normalizeText(req.reason, m_config.maxTextLength))}};
        auto commit = CommitLog::append(db, out.scope, kKindForget, actor, inputSha.value(), diff);
        if (!commit)
            return commit.error();
        out.commit = commit.value();
        // Edges and the rule_defs row go with the node (ON DELETE CASCADE); feedback rows and
        // decisions keep the id as history of what was decided at the time.
        if (auto removed = GraphStore::deleteNodeWithEdges(db, out.node.id); !removed)
            return removed.error();
        out.embeddingChanges.append({out.scope.tenantId, out.scope.scope, out.node.vectorLabel,
                                     out.node.embeddingVersion, QByteArray()});
        return {};
    });
    if (!written)
        return written.error();
    return out;
}

} // namespace MemoryGraph
