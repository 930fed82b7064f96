#include "service/resolve/resolveengine.h"

#include "service/access/callscope.h"
#include "service/access/viewer.h"
#include "service/api/requestfields.h"
#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/core/vocabulary.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/rulestore.h"

#include <QJsonArray>

namespace MemoryGraph {

namespace {

Error absent(const QString &what)
{
    return Error::notFound(
        QStringLiteral("no %1 with this URI").arg(what),
        {{QStringLiteral("reason"), what + QStringLiteral("_not_found_in_scope")}});
}

bool inScope(const QString &tenantId, const QString &scope, const RecordUri &uri)
{
    return tenantId == uri.tenantId && scope == uri.scope;
}

/// A well-formed URI of a kind the service issues, naming the caller's tenant.
Result<RecordUri> checkedUri(const QString &text, const CallScope &cs)
{
    const auto parsed = parseRecordUri(text);
    if (!parsed)
        return Error::invalidField(
            QStringLiteral("uri"),
            QStringLiteral("must be memorygraph://<tenant>/<scope>/<kind>/<id>"));
    const RecordUri &uri = *parsed;
    const bool nodeKind = Vocabulary::nodeTypes().contains(uri.kind);
    const QStringList recordKinds{QStringLiteral("edge"), QStringLiteral("commit"),
                                  QStringLiteral("decision")};
    if (!nodeKind && !recordKinds.contains(uri.kind))
        return Error::invalidField(
            QStringLiteral("uri"),
            QStringLiteral(
                "unknown record kind '%1'; expected a node type, edge, commit or decision")
                .arg(uri.kind));
    if (uri.tenantId != cs.tenantId)
        return Error::make(403, QStringLiteral("forbidden"),
                           QStringLiteral("the URI names another tenant than the caller's"),
                           {{QStringLiteral("tenant_id"), cs.tenantId}});
    return uri;
}

/// Looks up the one record a URI names and fills it into the outcome, per kind.
struct RecordLookup
{
    QSqlDatabase &db;
    const RecordUri &uri;
    const Viewer &viewer;
    ResolveOutcome &out;
    QStringList related; ///< URIs of the records this one points at (resolve_summary)

    void relate(const QString &kind, const QString &id)
    {
        if (!id.isEmpty())
            related << recordUri(uri.tenantId, uri.scope, kind, id);
    }

    /// A node the caller may not see answers exactly like an absent one.
    Result<std::optional<NodeRecord>> visibleNode(const QString &id) const
    {
        auto node = GraphStore::findNode(db, id);
        if (!node)
            return node.error();
        if (!node.value() || !inScope(node.value()->tenantId, node.value()->scope, uri)
            || !viewer.sees(*node.value()))
            return std::optional<NodeRecord>();
        return node.value();
    }

    /// A node of exactly the URI's type.
    Result<void> node()
    {
        auto node = visibleNode(uri.id);
        if (!node)
            return node.error();
        if (!node.value() || node.value()->type != uri.kind)
            return absent(QStringLiteral("node"));
        out.node = node.value();
        relate(QStringLiteral("commit"), out.node->commitId);
        return {};
    }

    /// An edge is visible only when both of its ends are.
    Result<void> edge()
    {
        auto edge = GraphStore::findEdgeById(db, uri.id);
        if (!edge)
            return edge.error();
        if (!edge.value() || !inScope(edge.value()->tenantId, edge.value()->scope, uri))
            return absent(QStringLiteral("edge"));
        for (const QString &end : {edge.value()->fromId, edge.value()->toId}) {
            auto node = visibleNode(end);
            if (!node)
                return node.error();
            if (!node.value())
                return absent(QStringLiteral("edge"));
            relate(node.value()->type, end);
        }
        out.edge = edge.value();
        relate(QStringLiteral("commit"), out.edge->commitId);
        return {};
    }

    /// A commit of the URI's scope, answered under the URI it was asked by.
    Result<void> commit()
    {
        auto commit = GraphStore::findCommit(db, uri.id);
        if (!commit)
            return commit.error();
        if (!commit.value() || !inScope(commit.value()->tenantId, commit.value()->scope, uri))
            return absent(QStringLiteral("commit"));
        out.commit = commit.value();
        out.commit->uri = out.uri;
        relate(QStringLiteral("commit"), out.commit->parentId);
        return {};
    }

    /// A tools decision of the URI's scope (ids compare lower-case).
    Result<void> decision()
    {
        auto decision = RuleStore::decision(db, uri.tenantId, uri.scope, uri.id.toLower());
        if (!decision)
            return decision.error();
        if (!decision.value())
            return absent(QStringLiteral("decision"));
        out.decision = decision.value();
        relate(QStringLiteral("commit"), out.decision->commitId);
        return {};
    }
};

/// resolve_summary (reference §10.2): what was resolved and the URIs a caller can follow next.
/// object_keys names a fixed digest per kind, not the keys of the returned object.
QJsonObject resolveSummary(const ResolveOutcome &out, QStringList related)
{
    const QString payloadKind = out.node     ? QStringLiteral("node")
                                : out.edge   ? QStringLiteral("edge")
                                : out.commit ? QStringLiteral("commit")
                                             : QStringLiteral("decision");
    static const QHash<QString, QStringList> digestKeys{
        {QStringLiteral("node"),
         {QStringLiteral("client_id"), QStringLiteral("commit_id"), QStringLiteral("id"),
          QStringLiteral("type")}},
        {QStringLiteral("edge"),
         {QStringLiteral("commit_id"), QStringLiteral("dst_id"), QStringLiteral("id"),
          QStringLiteral("src_id"), QStringLiteral("type")}},
        {QStringLiteral("commit"),
         {QStringLiteral("actor"), QStringLiteral("decision_count"), QStringLiteral("edge_count"),
          QStringLiteral("id"), QStringLiteral("node_count"), QStringLiteral("parent_id")}},
        {QStringLiteral("decision"),
         {QStringLiteral("commit_id"), QStringLiteral("decision_id"),
          QStringLiteral("decision_kind"), QStringLiteral("run_id"),
          QStringLiteral("selected_tool")}}};
    related << out.uri;
    related.removeDuplicates();
    related.sort();
    const bool isNode = out.node.has_value();
    return {
        {QStringLiteral("summary_version"), QStringLiteral("resolve_summary_v1")},
        {QStringLiteral("resolved_type"), out.kind},
        {QStringLiteral("payload_kind"), payloadKind},
        {QStringLiteral("include_meta"), isNode ? out.includeMeta : true},
        {QStringLiteral("slots_mode"),
         isNode && out.includeSlots ? QStringLiteral("full") : QStringLiteral("none")},
        {QStringLiteral("related_uris"), QJsonArray::fromStringList(related)},
        {QStringLiteral("related_uri_count"), related.size()},
        {QStringLiteral("object_keys"), QJsonArray::fromStringList(digestKeys.value(payloadKind))}};
}

} // namespace

ResolveEngine::ResolveEngine(Database &db, const ServiceConfig &config) : m_db(db), m_config(config)
{
}

Result<ResolveOutcome> ResolveEngine::resolve(const ResolveRequest &req, const RequestMeta &meta)
{
    auto cs = resolveCallScope(req.tenantId, req.scope, meta, m_config);
    if (!cs)
        return cs.error();
    auto checked = checkedUri(req.uri, cs.value());
    if (!checked)
        return checked.error();
    const RecordUri &uri = checked.value();
    auto viewer = resolveViewer(req.consumerAgentId, req.consumerTeamId, meta, m_config);
    if (!viewer)
        return viewer.error();
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase db = conn.value();

    ResolveOutcome out;
    out.tenantId = uri.tenantId;
    out.scope = uri.scope;
    out.uri = recordUri(uri.tenantId, uri.scope, uri.kind, uri.id);
    out.kind = uri.kind;
    out.includeSlots = req.includeSlots;
    out.includeMeta = req.includeMeta;
    RecordLookup lookup{db, uri, viewer.value(), out, {}};
    const Result<void> found = Vocabulary::nodeTypes().contains(uri.kind) ? lookup.node()
                               : uri.kind == QLatin1String("edge")        ? lookup.edge()
                               : uri.kind == QLatin1String("commit")      ? lookup.commit()
                                                                          : lookup.decision();
    if (!found)
        return found.error();
    out.summary = resolveSummary(out, lookup.related);
    return out;
}

} // namespace MemoryGraph
