// POST /v1/memory/resolve through the facade (DESIGN decision 5): every URI kind the service
// issues, lane visibility, tenant isolation and malformed URIs.

#include "service/core/ids.h"
#include "service/core/vocabulary.h"
#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;
using MemoryGraph::Test::writeBody;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

QJsonObject node(const QString &clientId, const QString &type, const QString &lane = s("shared"),
                 const QString &owner = QString())
{
    QJsonObject n{{s("client_id"), clientId},
                  {s("type"), type},
                  {s("text_summary"), clientId + s(" text")},
                  {s("memory_lane"), lane},
                  {s("slots"), QJsonObject{{s("note"), s("kept in slots")}}}};
    if (!owner.isEmpty())
        n.insert(s("owner_agent_id"), owner);
    return n;
}

Result<WriteResult> write(MemoryService *svc, const QJsonArray &nodes, const QJsonArray &edges = {},
                          const QString &tenant = QString())
{
    QJsonObject body = writeBody(nodes, edges);
    if (!tenant.isEmpty())
        body.insert(s("tenant_id"), tenant);
    auto req = WriteRequest::fromJson(body);
    if (!req)
        return req.error();
    return svc->write(req.value(), {});
}

Result<ResolveOutcome> resolve(MemoryService *svc, const QString &uri, QJsonObject extra = {},
                               const RequestMeta &meta = {})
{
    extra.insert(s("uri"), uri);
    auto req = ResolveRequest::fromJson(extra);
    if (!req)
        return req.error();
    return svc->resolveUri(req.value(), meta);
}

QString issuePath(const Error &e)
{
    return e.details.value(s("issues")).toArray().first().toObject().value(s("path")).toString();
}

} // namespace

class tst_Resolve : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_svc = std::make_unique<TempService>();
        QVERIFY(m_svc->isValid());
    }
    void cleanup() { m_svc.reset(); }

    void everyNodeTypeResolvesToItsNode()
    {
        QJsonArray nodes;
        for (const QString &type : Vocabulary::nodeTypes())
            nodes.append(node(s("n-") + type, type));
        auto written = write(m_svc->service(), nodes);
        QVERIFY2(written.ok(), qPrintable(written ? QString() : written.error().message));
        QCOMPARE(written.value().nodes.size(), Vocabulary::nodeTypes().size());
        for (const WrittenNode &n : written.value().nodes) {
            auto r = resolve(m_svc->service(), n.uri);
            QVERIFY2(r.ok(), qPrintable(n.uri + s(": ") + (r ? QString() : r.error().message)));
            QCOMPARE(r.value().kind, n.type);
            QCOMPARE(r.value().uri, n.uri);
            QCOMPARE(r.value().tenantId, s("default"));
            QVERIFY(r.value().node.has_value());
            QCOMPARE(r.value().node->id, n.id);
            QCOMPARE(r.value().node->textSummary, n.clientId + s(" text"));
            QVERIFY(!r.value().includeSlots);
        }
        auto withSlots = resolve(m_svc->service(), written.value().nodes.first().uri,
                                 {{s("include_slots"), true}});
        QVERIFY(withSlots.ok());
        QVERIFY(withSlots.value().includeSlots);
    }

    void edgeCommitAndDecisionResolve()
    {
        MemoryService *svc = m_svc->service();
        const QJsonObject edge{{s("type"), s("part_of")},
                               {s("src"), QJsonObject{{s("client_id"), s("a")}}},
                               {s("dst"), QJsonObject{{s("client_id"), s("t")}}}};
        auto written = write(svc, {node(s("a"), s("event")), node(s("t"), s("topic"))}, {edge});
        QVERIFY(written.ok());
        const WrittenEdge e = written.value().edges.first();
        auto r = resolve(svc, e.uri);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r.value().kind, s("edge"));
        QVERIFY(r.value().edge.has_value());
        QCOMPARE(r.value().edge->fromId, e.srcId);
        QCOMPARE(r.value().edge->toId, e.dstId);

        r = resolve(svc, written.value().commitUri);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r.value().kind, s("commit"));
        QVERIFY(r.value().commit.has_value());
        QCOMPARE(r.value().commit->id, written.value().commitId);
        QCOMPARE(r.value().commit->commitHash, written.value().commitHash);
        QCOMPARE(r.value().commit->kind, s("write"));

        auto select = ToolSelectRequest::fromJson({{s("context"), QJsonObject{{s("task"), s("x")}}},
                                                   {s("candidates"), QJsonArray{s("bash")}}});
        QVERIFY(select.ok());
        auto decision = svc->selectTools(select.value(), {});
        QVERIFY(decision.ok());
        const QString uri
            = recordUri(s("default"), s("default"), s("decision"), decision.value().decision.id);
        r = resolve(svc, uri);
        QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
        QCOMPARE(r.value().kind, s("decision"));
        QCOMPARE(r.value().decision->selectedTool, s("bash"));
    }

    void privateNodesFollowLaneVisibility()
    {
        MemoryService *svc = m_svc->service();
        const QJsonObject edge{{s("type"), s("related_to")},
                               {s("src"), QJsonObject{{s("client_id"), s("mine")}}},
                               {s("dst"), QJsonObject{{s("client_id"), s("open")}}}};
        auto written = write(
            svc,
            {node(s("mine"), s("event"), s("private"), s("agent-b")), node(s("open"), s("event"))},
            {edge});
        QVERIFY(written.ok());
        const QString nodeUri = written.value().nodes.first().uri;
        const QString edgeUri = written.value().edges.first().uri;
        for (const QString &uri : {nodeUri, edgeUri}) {
            auto hidden = resolve(svc, uri, {{s("consumer_agent_id"), s("agent-a")}});
            QVERIFY(!hidden.ok());
            QCOMPARE(hidden.error().status, 404);
            QCOMPARE(hidden.error().code, s("not_found"));
            auto defaultViewer = resolve(svc, uri); // auth off: the local agent
            QCOMPARE(defaultViewer.ok() ? 200 : defaultViewer.error().status, 404);
            auto owner = resolve(svc, uri, {{s("consumer_agent_id"), s("agent-b")}});
            QVERIFY2(owner.ok(), qPrintable(uri));
        }
        QCOMPARE(resolve(svc, nodeUri, {{s("consumer_agent_id"), s("agent-a")}})
                     .error()
                     .details.value(s("reason"))
                     .toString(),
                 s("node_not_found_in_scope"));
    }

    void tenantMustBeTheCallersButScopeMayDiffer()
    {
        MemoryService *svc = m_svc->service();
        auto acme = write(svc, {node(s("x"), s("entity"))}, {}, s("acme"));
        QVERIFY(acme.ok());
        const QString uri = acme.value().nodes.first().uri;
        QVERIFY(uri.startsWith(s("memorygraph://acme/default/entity/")));
        auto foreign = resolve(svc, uri);
        QVERIFY(!foreign.ok());
        QCOMPARE(foreign.error().status, 403);
        QCOMPARE(foreign.error().code, s("forbidden"));
        auto own = resolve(svc, uri, {{s("tenant_id"), s("acme")}, {s("scope"), s("elsewhere")}});
        QVERIFY2(own.ok(), qPrintable(own ? QString() : own.error().message));
        QCOMPARE(own.value().tenantId, s("acme"));
        QCOMPARE(own.value().scope, s("default"));

        RequestMeta principal;
        principal.principal = Principal{s("acme"), s("agent"), QString(), QString(), s("api_key")};
        QVERIFY(resolve(svc, uri, {}, principal).ok());
        auto local = write(svc, {node(s("y"), s("entity"))});
        QVERIFY(local.ok());
        QCOMPARE(resolve(svc, local.value().nodes.first().uri, {}, principal).error().status, 403);
    }

    void malformedUnknownAndAbsentUris()
    {
        MemoryService *svc = m_svc->service();
        for (const char *bad :
             {"http://default/default/event/x", "memorygraph://default/default/event",
              "memorygraph://default//event/x"}) {
            auto r = resolve(svc, s(bad));
            QVERIFY2(!r.ok(), bad);
            QCOMPARE(r.error().status, 400);
            QCOMPARE(issuePath(r.error()), s("uri"));
        }
        auto missing = ResolveRequest::fromJson({});
        QVERIFY(!missing.ok());
        QCOMPARE(issuePath(missing.error()), s("uri"));

        auto unknown = resolve(svc, s("memorygraph://default/default/widget/123"));
        QVERIFY(!unknown.ok());
        QCOMPARE(unknown.error().status, 400);
        QCOMPARE(issuePath(unknown.error()), s("uri"));

        const QString id = randomUuid();
        const QList<std::pair<const char *, const char *>> absent{
            {"event", "node_not_found_in_scope"},
            {"edge", "edge_not_found_in_scope"},
            {"commit", "commit_not_found_in_scope"},
            {"decision", "decision_not_found_in_scope"}};
        for (const auto &[kind, reason] : absent) {
            auto r = resolve(svc, recordUri(s("default"), s("default"), s(kind), id));
            QVERIFY(!r.ok());
            QCOMPARE(r.error().status, 404);
            QCOMPARE(r.error().code, s("not_found"));
            QCOMPARE(r.error().details.value(s("reason")).toString(), s(reason));
        }

        // The kind must match the record: an entity id under /event/ is not found.
        auto written = write(svc, {node(s("e"), s("entity"))});
        QVERIFY(written.ok());
        const QString entityId = written.value().nodes.first().id;
        QCOMPARE(resolve(svc, recordUri(s("default"), s("default"), s("event"), entityId))
                     .error()
                     .status,
                 404);
        // And a record of another scope is not found under this scope's URI.
        QCOMPARE(
            resolve(svc, recordUri(s("default"), s("other"), s("entity"), entityId)).error().status,
            404);
    }

private:
    std::unique_ptr<TempService> m_svc;
};

QTEST_GUILESS_MAIN(tst_Resolve)
#include "tst_resolve.moc"
