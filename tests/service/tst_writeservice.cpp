#include "service/embedding/localembeddingprovider.h"
#include "service/index/vectormath.h"
#include "tests/support/tempservice.h"

#include <QDir>
#include <QJsonArray>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::runSqlOnFile;
using MemoryGraph::Test::TempService;
using MemoryGraph::Test::writeBody;

namespace {

QJsonObject node(const QString &clientId, const QString &summary,
                 const QString &type = QStringLiteral("event"))
{
    return {{QStringLiteral("client_id"), clientId},
            {QStringLiteral("type"), type},
            {QStringLiteral("text_summary"), summary}};
}

QJsonObject edge(const QString &type, const QString &srcClient, const QString &dstClient)
{
    return {{QStringLiteral("type"), type},
            {QStringLiteral("src"), QJsonObject{{QStringLiteral("client_id"), srcClient}}},
            {QStringLiteral("dst"), QJsonObject{{QStringLiteral("client_id"), dstClient}}}};
}

Result<WriteResult> doWrite(MemoryService *svc, const QJsonObject &body, RequestMeta meta = {})
{
    auto req = WriteRequest::fromJson(body);
    if (!req)
        return req.error();
    return svc->write(req.value(), meta);
}

qint64 commitCount(MemoryService *svc, const QString &tenant = QStringLiteral("default"),
                   const QString &scope = QStringLiteral("default"))
{
    auto commits = svc->listCommits(tenant, scope, 0, 10000);
    return commits ? commits.value().size() : -1;
}

NodeRecord onlyNode(MemoryService *svc, const QString &tenant, const QString &scope)
{
    NodeQuery q;
    q.tenantId = tenant;
    q.scope = scope;
    auto page = svc->listNodes(q);
    if (!page || page.value().nodes.size() != 1)
        return {};
    return page.value().nodes.first();
}

} // namespace

class tst_WriteService : public QObject
{
    Q_OBJECT

private slots:
    void writeStoresNodesEdgesAndCommit();
    void clientIdGivesStableNodeId();
    void identicalResendReturnsSameCommit();
    void changedContentUpdatesNodeWithNewCommit();
    void omittedFieldsKeepStoredValuesOnUpdate();
    void commitsChainWithinScope();
    void defaultLaneIsPrivateOwnedByLocalUser();
    void noNodesWarnsAndStillCommits();
    void requireNodesRejectsEmptyWrite();
    void privateRuleWithoutOwnerIsRejectedAndNothingWritten();
    void clientEmbeddingMakesNodeReady();
    void nodeWithoutEmbeddingIsNotReady();
    void backfillEmbedsPendingNodes();
    void backfillReembedsVectorsOfAnEarlierLocalModel();
    void tenantsAndScopesAreIsolated();
    void edgeToStoredNodeByClientId();
    void badEdgeEndpointWritesNothing();
    void principalFillsAndChecksIdentity();
    void principalTenantMismatchIsForbidden();
    void committedSignalFires();
    void textIsNormalised();
};

void tst_WriteService::writeStoresNodesEdgesAndCommit()
{
    TempService svc;
    QVERIFY(svc.isValid());
    auto r = doWrite(
        svc.service(),
        writeBody({node(QStringLiteral("a"), QStringLiteral("Alpha happened")),
                   node(QStringLiteral("t"), QStringLiteral("Topic"), QStringLiteral("topic"))},
                  {edge(QStringLiteral("part_of"), QStringLiteral("a"), QStringLiteral("t"))}));
    QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
    const WriteResult &w = r.value();
    QCOMPARE(w.nodes.size(), 2);
    QCOMPARE(w.edges.size(), 1);
    QCOMPARE(w.edges.first().srcId, w.nodes.at(0).id);
    QCOMPARE(w.edges.first().dstId, w.nodes.at(1).id);
    QVERIFY(w.commitUri.startsWith(QStringLiteral("memorygraph://default/default/commit/")));
    QCOMPARE(w.commitHash.size(), 64);
    QCOMPARE(commitCount(svc.service()), 1);
    auto detail
        = svc->nodeDetail(QStringLiteral("default"), QStringLiteral("default"), w.nodes.at(0).id);
    QVERIFY(detail.ok());
    QCOMPARE(detail.value().node.textSummary, QStringLiteral("Alpha happened"));
    QCOMPARE(detail.value().node.tier, QStringLiteral("hot"));
    QCOMPARE(detail.value().node.commitId, w.commitId);
    QCOMPARE(detail.value().edges.size(), 1);
    QCOMPARE(detail.value().edges.first().type, QStringLiteral("part_of"));
    QCOMPARE(detail.value().edges.first().weight, 0.5);
}

void tst_WriteService::clientIdGivesStableNodeId()
{
    TempService svc;
    auto first
        = doWrite(svc.service(), writeBody({node(QStringLiteral("x"), QStringLiteral("one"))}));
    auto second
        = doWrite(svc.service(), writeBody({node(QStringLiteral("x"), QStringLiteral("two"))}, {},
                                           QStringLiteral("other input")));
    QVERIFY(first.ok() && second.ok());
    QCOMPARE(first.value().nodes.first().id, second.value().nodes.first().id);
}

void tst_WriteService::identicalResendReturnsSameCommit()
{
    TempService svc;
    const QJsonObject body = writeBody({node(QStringLiteral("x"), QStringLiteral("same"))});
    auto first = doWrite(svc.service(), body);
    auto again = doWrite(svc.service(), body);
    QVERIFY(first.ok() && again.ok());
    QCOMPARE(again.value().commitId, first.value().commitId);
    QCOMPARE(again.value().commitHash, first.value().commitHash);
    QVERIFY(again.value().replayed);
    QCOMPARE(commitCount(svc.service()), 1);
}

void tst_WriteService::changedContentUpdatesNodeWithNewCommit()
{
    TempService svc;
    auto first
        = doWrite(svc.service(), writeBody({node(QStringLiteral("x"), QStringLiteral("before"))}));
    auto second
        = doWrite(svc.service(), writeBody({node(QStringLiteral("x"), QStringLiteral("after"))}));
    QVERIFY(first.ok() && second.ok());
    QVERIFY(second.value().commitId != first.value().commitId);
    QCOMPARE(commitCount(svc.service()), 2);
    const NodeRecord n
        = onlyNode(svc.service(), QStringLiteral("default"), QStringLiteral("default"));
    QCOMPARE(n.textSummary, QStringLiteral("after"));
    QCOMPARE(n.commitId, second.value().commitId);
}

void tst_WriteService::omittedFieldsKeepStoredValuesOnUpdate()
{
    TempService svc;
    QJsonObject full = node(QStringLiteral("x"), QStringLiteral("text"));
    full.insert(QStringLiteral("tier"), QStringLiteral("cold"));
    full.insert(QStringLiteral("title"), QStringLiteral("Title"));
    full.insert(QStringLiteral("salience"), 0.9);
    full.insert(QStringLiteral("slots"), QJsonObject{{QStringLiteral("k"), 1}});
    QVERIFY(doWrite(svc.service(), writeBody({full})).ok());
    QVERIFY(
        doWrite(svc.service(), writeBody({node(QStringLiteral("x"), QStringLiteral("new text"))}))
            .ok());
    const NodeRecord n
        = onlyNode(svc.service(), QStringLiteral("default"), QStringLiteral("default"));
    QCOMPARE(n.textSummary, QStringLiteral("new text"));
    QCOMPARE(n.tier, QStringLiteral("cold"));
    QCOMPARE(n.title, QStringLiteral("Title"));
    QCOMPARE(n.salience, 0.9);
    QCOMPARE(n.slotData.value(QStringLiteral("k")).toInt(), 1);
}

void tst_WriteService::commitsChainWithinScope()
{
    TempService svc;
    QVERIFY(
        doWrite(svc.service(), writeBody({node(QStringLiteral("a"), QStringLiteral("1"))})).ok());
    QVERIFY(
        doWrite(svc.service(), writeBody({node(QStringLiteral("b"), QStringLiteral("2"))})).ok());
    QJsonObject other = writeBody({node(QStringLiteral("c"), QStringLiteral("3"))});
    other.insert(QStringLiteral("scope"), QStringLiteral("elsewhere"));
    QVERIFY(doWrite(svc.service(), other).ok());
    auto commits = svc->listCommits(QStringLiteral("default"), QStringLiteral("default"));
    QVERIFY(commits.ok());
    QCOMPARE(commits.value().size(), 2);
    const CommitRecord &newest = commits.value().at(0);
    const CommitRecord &oldest = commits.value().at(1);
    QCOMPARE(oldest.sequence, 1);
    QCOMPARE(oldest.parentHash, QString());
    QCOMPARE(newest.sequence, 2);
    QCOMPARE(newest.parentHash, oldest.commitHash);
    QCOMPARE(newest.parentId, oldest.id);
    auto elsewhere = svc->listCommits(QStringLiteral("default"), QStringLiteral("elsewhere"));
    QCOMPARE(elsewhere.value().size(), 1);
    QCOMPARE(elsewhere.value().first().parentHash, QString());
}

void tst_WriteService::defaultLaneIsPrivateOwnedByLocalUser()
{
    TempService svc;
    QVERIFY(doWrite(svc.service(), writeBody({node(QStringLiteral("a"), QStringLiteral("mine"))}))
                .ok());
    const NodeRecord n
        = onlyNode(svc.service(), QStringLiteral("default"), QStringLiteral("default"));
    QCOMPARE(n.memoryLane, QStringLiteral("private"));
    QCOMPARE(n.producerAgentId, QStringLiteral("local-user"));
    QCOMPARE(n.ownerAgentId, QStringLiteral("local-user"));
}

void tst_WriteService::noNodesWarnsAndStillCommits()
{
    TempService svc;
    auto r = doWrite(svc.service(),
                     QJsonObject{{QStringLiteral("input_text"), QStringLiteral("just a note")}});
    QVERIFY(r.ok());
    QCOMPARE(r.value().warnings.size(), 1);
    QCOMPARE(r.value().warnings.first().code, QStringLiteral("write_no_nodes"));
    QCOMPARE(commitCount(svc.service()), 1);
    NodeQuery q{QStringLiteral("default"), QStringLiteral("default"), {}, {}, {}, {}, 0, 10};
    QCOMPARE(svc->listNodes(q).value().total, 0);
}

void tst_WriteService::requireNodesRejectsEmptyWrite()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("MEMORY_WRITE_REQUIRE_NODES"), QStringLiteral("true"));
    TempService svc(env);
    QVERIFY(svc.isValid());
    auto r
        = doWrite(svc.service(), QJsonObject{{QStringLiteral("input_text"), QStringLiteral("x")}});
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, QStringLiteral("write_nodes_required"));
    QCOMPARE(r.error().status, 400);
    QCOMPARE(commitCount(svc.service()), 0);
}

void tst_WriteService::privateRuleWithoutOwnerIsRejectedAndNothingWritten()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("MEMORY_AUTH_MODE"), QStringLiteral("api_key"));
    env.insert(QStringLiteral("MEMORY_API_KEYS_JSON"),
               QStringLiteral(R"({"k":{"tenant_id":"acme"}})"));
    TempService svc(env);
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    RequestMeta meta;
    meta.principal = Principal{QStringLiteral("acme"), {}, {}, {}, QStringLiteral("api_key")};
    QJsonObject rule
        = node(QStringLiteral("r"), QStringLiteral("prefer search"), QStringLiteral("rule"));
    auto r = doWrite(svc.service(),
                     writeBody({node(QStringLiteral("e"), QStringLiteral("ok")), rule}), meta);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, QStringLiteral("invalid_private_rule_owner"));
    QCOMPARE(r.error().details.value(QStringLiteral("type")).toString(), QStringLiteral("rule"));
    QCOMPARE(commitCount(svc.service(), QStringLiteral("acme")), 0);
    // The same rule with an owner team, or shared, is accepted.
    rule.insert(QStringLiteral("owner_team_id"), QStringLiteral("ops"));
    QVERIFY(doWrite(svc.service(), writeBody({rule}), meta).ok());
}

void tst_WriteService::clientEmbeddingMakesNodeReady()
{
    TempService svc;
    QJsonArray vector;
    for (int i = 0; i < 1536; ++i)
        vector.append(i % 7 == 0 ? 0.5 : 0.0);
    QJsonObject n = node(QStringLiteral("v"), QStringLiteral("vector"));
    n.insert(QStringLiteral("embedding"), vector);
    QVERIFY(doWrite(svc.service(), writeBody({n})).ok());
    const NodeRecord stored
        = onlyNode(svc.service(), QStringLiteral("default"), QStringLiteral("default"));
    QCOMPARE(stored.embeddingStatus, QStringLiteral("ready"));
    QCOMPARE(stored.embeddingModel, QStringLiteral("client"));
}

void tst_WriteService::nodeWithoutEmbeddingIsNotReady()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("EMBEDDING_PROVIDER"), QStringLiteral("none"));
    TempService svc(env);
    QVERIFY(doWrite(svc.service(), writeBody({node(QStringLiteral("a"), QStringLiteral("text"))}))
                .ok());
    const NodeRecord n
        = onlyNode(svc.service(), QStringLiteral("default"), QStringLiteral("default"));
    QCOMPARE(n.embeddingStatus, QStringLiteral("failed"));
    QCOMPARE(n.embeddingError, QStringLiteral("auto_embed_disabled_or_no_provider"));
}

void tst_WriteService::backfillEmbedsPendingNodes()
{
    TempService svc; // default provider: local
    QJsonObject body
        = writeBody({node(QStringLiteral("a"), QStringLiteral("the deploy failed on staging")),
                     node(QStringLiteral("b"), QStringLiteral("from a"))});
    auto r = doWrite(svc.service(), body);
    QVERIFY(r.ok());
    QCOMPARE(r.value().pendingEmbeddings, 2);
    QVERIFY(svc->waitForEmbeddings(10000));
    auto a = svc->nodeDetail(QStringLiteral("default"), QStringLiteral("default"),
                             r.value().nodes.at(0).id);
    QCOMPARE(a.value().node.embeddingStatus, QStringLiteral("ready"));
    QCOMPARE(a.value().node.embeddingModel, QStringLiteral("local-hashing-v2"));
    // A text with nothing to embed fails at once instead of being retried forever.
    auto b = svc->nodeDetail(QStringLiteral("default"), QStringLiteral("default"),
                             r.value().nodes.at(1).id);
    QCOMPARE(b.value().node.embeddingStatus, QStringLiteral("failed"));
    QCOMPARE(b.value().node.embeddingError, QStringLiteral("invalid_request"));
    // auto_embed=false leaves the node without a vector.
    QJsonObject off = writeBody({node(QStringLiteral("c"), QStringLiteral("no vector please"))});
    off.insert(QStringLiteral("auto_embed"), false);
    auto c = doWrite(svc.service(), off);
    QVERIFY(c.ok());
    auto cn = svc->nodeDetail(QStringLiteral("default"), QStringLiteral("default"),
                              c.value().nodes.at(0).id);
    QCOMPARE(cn.value().node.embeddingStatus, QStringLiteral("failed"));
}

void tst_WriteService::backfillReembedsVectorsOfAnEarlierLocalModel()
{
    TempService svc; // default provider: local
    QJsonArray vector;
    for (int i = 0; i < 1536; ++i)
        vector.append(i % 5 == 0 ? 0.25 : 0.0);
    QJsonObject supplied = node(QStringLiteral("client"), QStringLiteral("a client's vector"));
    supplied.insert(QStringLiteral("embedding"), vector);
    const QString text = QStringLiteral("Pascal is Yuki's leopard gecko");
    QVERIFY(doWrite(svc.service(), writeBody({node(QStringLiteral("old"), text), supplied})).ok());
    QVERIFY(svc->waitForEmbeddings(10000));
    // The store as the first local embedder left it: another vector, the older model's name.
    const QString file = QDir(svc.dataDir()).filePath(QStringLiteral("memorygraph.sqlite"));
    const QString failed = runSqlOnFile(
        file, {QStringLiteral("UPDATE nodes SET embedding_model = 'local-hashing-v1'"
                              " WHERE client_id = 'old'"),
               QStringLiteral("UPDATE node_vectors SET embedding = (SELECT embedding FROM"
                              " node_vectors JOIN nodes ON vector_label = label"
                              " WHERE client_id = 'client') WHERE label ="
                              " (SELECT vector_label FROM nodes WHERE client_id = 'old')")});
    QVERIFY2(failed.isEmpty(), qPrintable(failed));

    QVERIFY2(svc.reopen(), qPrintable(svc.errorText()));
    QVERIFY(svc->waitForEmbeddings(10000));
    const auto stored = [&](const QString &clientId) {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), clientId);
        db.setDatabaseName(file);
        QPair<QString, QByteArray> row;
        if (db.open()) {
            QSqlQuery q(db);
            q.prepare(
                QStringLiteral("SELECT embedding_model, embedding FROM nodes JOIN node_vectors"
                               " ON label = vector_label WHERE client_id = ?"));
            q.addBindValue(clientId);
            if (q.exec() && q.next())
                row = {q.value(0).toString(), q.value(1).toByteArray()};
        }
        db.close();
        return row;
    };
    const auto old = stored(QStringLiteral("old"));
    QCOMPARE(old.first, QStringLiteral("local-hashing-v2"));
    QCOMPARE(old.second, VectorMath::toBytes(LocalEmbeddingProvider::vectorFor(text).value()));
    // A vector the client supplied is never replaced.
    QCOMPARE(stored(QStringLiteral("client")).first, QStringLiteral("client"));
    QSqlDatabase::removeDatabase(QStringLiteral("old"));
    QSqlDatabase::removeDatabase(QStringLiteral("client"));
}

void tst_WriteService::tenantsAndScopesAreIsolated()
{
    TempService svc;
    QJsonObject a = writeBody({node(QStringLiteral("same"), QStringLiteral("tenant a"))});
    a.insert(QStringLiteral("tenant_id"), QStringLiteral("a"));
    QJsonObject b = writeBody({node(QStringLiteral("same"), QStringLiteral("tenant b"))});
    RequestMeta viaHeader;
    viaHeader.headerTenant = QStringLiteral("b");
    QJsonObject s2 = a;
    s2.insert(QStringLiteral("scope"), QStringLiteral("s2"));
    auto ra = doWrite(svc.service(), a);
    auto rb = doWrite(svc.service(), b, viaHeader);
    auto rs = doWrite(svc.service(), s2);
    QVERIFY(ra.ok() && rb.ok() && rs.ok());
    QCOMPARE(rb.value().tenantId, QStringLiteral("b"));
    QVERIFY(ra.value().nodes.first().id != rb.value().nodes.first().id);
    QVERIFY(ra.value().nodes.first().id != rs.value().nodes.first().id);
    QCOMPARE(onlyNode(svc.service(), QStringLiteral("a"), QStringLiteral("default")).textSummary,
             QStringLiteral("tenant a"));
    QCOMPARE(onlyNode(svc.service(), QStringLiteral("b"), QStringLiteral("default")).textSummary,
             QStringLiteral("tenant b"));
    auto cross = svc->nodeDetail(QStringLiteral("b"), QStringLiteral("default"),
                                 ra.value().nodes.first().id);
    QVERIFY(!cross.ok());
    QCOMPARE(cross.error().status, 404);
}

void tst_WriteService::edgeToStoredNodeByClientId()
{
    TempService svc;
    QVERIFY(
        doWrite(svc.service(), writeBody({node(QStringLiteral("old"), QStringLiteral("stored"))}))
            .ok());
    auto r
        = doWrite(svc.service(), writeBody({node(QStringLiteral("new"), QStringLiteral("fresh"))},
                                           {edge(QStringLiteral("derived_from"),
                                                 QStringLiteral("new"), QStringLiteral("old"))}));
    QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
    QCOMPARE(r.value().edges.size(), 1);
}

void tst_WriteService::badEdgeEndpointWritesNothing()
{
    TempService svc;
    auto r = doWrite(svc.service(), writeBody({node(QStringLiteral("a"), QStringLiteral("a"))},
                                              {edge(QStringLiteral("part_of"), QStringLiteral("a"),
                                                    QStringLiteral("ghost"))}));
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, QStringLiteral("invalid_request"));
    const QJsonArray issues = r.error().details.value(QStringLiteral("issues")).toArray();
    QCOMPARE(issues.first().toObject().value(QStringLiteral("path")).toString(),
             QStringLiteral("edges[0].dst.client_id"));
    QCOMPARE(commitCount(svc.service()), 0);
    NodeQuery q{QStringLiteral("default"), QStringLiteral("default"), {}, {}, {}, {}, 0, 10};
    QCOMPARE(svc->listNodes(q).value().total, 0);
}

void tst_WriteService::principalFillsAndChecksIdentity()
{
    TempService svc;
    RequestMeta meta;
    meta.principal = Principal{QStringLiteral("default"),
                               QStringLiteral("agent-7"),
                               QStringLiteral("team-3"),
                               {},
                               QStringLiteral("api_key")};
    QVERIFY(
        doWrite(svc.service(), writeBody({node(QStringLiteral("a"), QStringLiteral("x"))}), meta)
            .ok());
    const NodeRecord n
        = onlyNode(svc.service(), QStringLiteral("default"), QStringLiteral("default"));
    QCOMPARE(n.producerAgentId, QStringLiteral("agent-7"));
    QCOMPARE(n.ownerAgentId, QStringLiteral("agent-7"));
    QJsonObject spoof = writeBody({node(QStringLiteral("b"), QStringLiteral("y"))});
    spoof.insert(QStringLiteral("producer_agent_id"), QStringLiteral("someone-else"));
    auto r = doWrite(svc.service(), spoof, meta);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().status, 403);
    QCOMPARE(r.error().code, QStringLiteral("identity_mismatch"));
    QCOMPARE(r.error().details.value(QStringLiteral("field")).toString(),
             QStringLiteral("producer_agent_id"));
}

void tst_WriteService::principalTenantMismatchIsForbidden()
{
    TempService svc;
    RequestMeta meta;
    meta.principal
        = Principal{QStringLiteral("acme"), QStringLiteral("a"), {}, {}, QStringLiteral("jwt")};
    QJsonObject body = writeBody({node(QStringLiteral("a"), QStringLiteral("x"))});
    body.insert(QStringLiteral("tenant_id"), QStringLiteral("other"));
    auto r = doWrite(svc.service(), body, meta);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().status, 403);
    QCOMPARE(r.error().code, QStringLiteral("forbidden"));
    // Without an explicit tenant the credential's tenant is used.
    auto ok
        = doWrite(svc.service(), writeBody({node(QStringLiteral("a"), QStringLiteral("x"))}), meta);
    QVERIFY(ok.ok());
    QCOMPARE(ok.value().tenantId, QStringLiteral("acme"));
}

void tst_WriteService::committedSignalFires()
{
    TempService svc;
    QSignalSpy spy(svc.service(), &MemoryService::committed);
    auto r = doWrite(svc.service(), writeBody({node(QStringLiteral("a"), QStringLiteral("x"))}));
    QVERIFY(r.ok());
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.first().at(2).toString(), r.value().commitId);
    QVERIFY(svc->waitForEmbeddings(10000)); // the re-send must not see the new vector as a change
    QVERIFY(
        doWrite(svc.service(), writeBody({node(QStringLiteral("a"), QStringLiteral("x"))})).ok());
    QCOMPARE(spy.count(), 1); // a replayed write commits nothing new
}

void tst_WriteService::textIsNormalised()
{
    TempService svc;
    QVERIFY(doWrite(svc.service(), writeBody({node(QStringLiteral("a"),
                                                   QStringLiteral("  many\n\n spaces\t here "))}))
                .ok());
    QCOMPARE(
        onlyNode(svc.service(), QStringLiteral("default"), QStringLiteral("default")).textSummary,
        QStringLiteral("many spaces here"));
}

QTEST_GUILESS_MAIN(tst_WriteService)
#include "tst_writeservice.moc"
