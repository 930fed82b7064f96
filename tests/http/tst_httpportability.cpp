// POST /v1/admin/export and /v1/admin/import over real HTTP: the admin token, the streamed
// NDJSON export, dry run and import into another scope, errors naming line and field, and the
// larger body cap of the import route.

#include "tests/http/httptestserver.h"
#include "tests/support/samplescope.h"

#include <QJsonArray>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

const QString kExport = QStringLiteral("/v1/admin/export");
const QString kImport = QStringLiteral("/v1/admin/import");

QPair<QByteArray, QByteArray> header(const char *name, const QByteArray &value)
{
    return {QByteArray(name), value};
}

const QPair<QByteArray, QByteArray> kNdjson = header("Content-Type", "application/x-ndjson");

QProcessEnvironment env(std::initializer_list<std::pair<const char *, const char *>> vars)
{
    QProcessEnvironment e;
    for (const auto &[name, value] : vars)
        e.insert(s(name), s(value));
    return e;
}

QByteArrayList linesOf(const QByteArray &body)
{
    QByteArrayList lines = body.split('\n');
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

/// The error code and details of an error envelope, for QVERIFY2 messages.
QByteArray envelope(const Reply &r)
{
    return r.describe();
}

} // namespace

class tst_HttpPortability : public QObject
{
    Q_OBJECT

private slots:
    void exportStreamsTheScopeAsNdjson();
    void adminTokenGuardsBothRoutes();
    void dryRunThenImportIntoAnotherScope();
    void importErrorsNameLineAndField();
    void importHasItsOwnBodyCap();
};

void tst_HttpPortability::exportStreamsTheScopeAsNdjson()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    auto filled = fillSampleScope(server.service(), s("default"), s("alpha"));
    QVERIFY2(filled, why(filled));
    // Enough vectors that the body goes out in many pieces.
    QJsonArray nodes;
    for (int i = 0; i < 120; ++i)
        nodes.append(
            QJsonObject{{s("type"), s("event")},
                        {s("memory_lane"), s("shared")},
                        {s("text_summary"), s("Deploy number %1 went out on time.").arg(i)}});
    auto req = WriteRequest::fromJson(
        {{s("scope"), s("alpha")}, {s("input_text"), s("deploys")}, {s("nodes"), nodes}});
    QVERIFY(req);
    QVERIFY(server.service()->write(req.value(), {}));
    QVERIFY(server.service()->waitForEmbeddings(120000));

    const Reply r = server.post(kExport, QJsonObject{{s("scope"), s("alpha")}});
    QCOMPARE(r.status, 200);
    QCOMPARE(r.header("content-type"), QByteArray("application/x-ndjson"));
    QCOMPARE(r.header("content-disposition"),
             QByteArray("attachment; filename=\"memorygraph-default-alpha.jsonl\""));
    QVERIFY(!r.header("x-request-id").isEmpty());
    QCOMPARE(r.header("content-length").toLongLong(), r.body.size());
    QVERIFY2(r.body.size() > 1024 * 1024, QByteArray::number(r.body.size()));
    const QByteArrayList lines = linesOf(r.body);
    const QJsonObject head = QJsonDocument::fromJson(lines.first()).object();
    QCOMPARE(head.value(s("format")).toString(), s("memorygraph-export"));
    QCOMPARE(head.value(s("scope")).toString(), s("alpha"));
    qint64 records = 0;
    const QJsonObject counts = head.value(s("counts")).toObject();
    for (const QString &kind : counts.keys())
        records += counts.value(kind).toInteger();
    QCOMPARE(lines.size() - 1, records);
    for (const QByteArray &line : lines)
        QVERIFY(QJsonDocument::fromJson(line).isObject());

    // Without vectors, and an unknown scope.
    const Reply lean = server.post(
        kExport, QJsonObject{{s("scope"), s("alpha")}, {s("include_embeddings"), false}});
    QCOMPARE(lean.status, 200);
    QVERIFY(lean.body.size() < r.body.size() / 4);
    const Reply none = server.post(kExport, QJsonObject{{s("scope"), s("nowhere")}});
    QCOMPARE(none.status, 404);
    QCOMPARE(none.errorCode(), s("not_found"));
}

void tst_HttpPortability::adminTokenGuardsBothRoutes()
{
    {
        HttpTestServer server(env({{"ADMIN_TOKEN", "s3cret-admin"}}));
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        QVERIFY(fillSampleScope(server.service(), s("default"), s("alpha")));
        const QJsonObject body{{s("scope"), s("alpha")}};

        Reply r = server.post(kExport, body);
        QCOMPARE(r.status, 401);
        QCOMPARE(r.errorCode(), s("unauthorized"));
        r = server.post(kExport, body, {header("X-Admin-Token", "wrong")});
        QCOMPARE(r.status, 403);
        QCOMPARE(r.json.value(s("details")).toObject().value(s("reason")).toString(),
                 s("admin_token_invalid"));
        r = server.post(kImport, QByteArray("{}\n"), {kNdjson});
        QCOMPARE(r.status, 401);

        const Reply exported
            = server.post(kExport, body, {header("X-Admin-Token", "s3cret-admin")});
        QCOMPARE(exported.status, 200);
        r = server.post(kImport + s("?dry_run=true&scope=beta"), exported.body,
                        {kNdjson, header("X-Admin-Token", "s3cret-admin")});
        QVERIFY2(r.status == 200, envelope(r));
        QCOMPARE(r.json.value(s("dry_run")).toBool(), true);
    }
    {
        // Authentication on and no ADMIN_TOKEN: memory credentials do not open admin routes.
        HttpTestServer server(env({{"MEMORY_AUTH_MODE", "api_key"},
                                   {"MEMORY_API_KEYS_JSON", R"({"k-acme":{"tenant_id":"acme"}})"},
                                   {"EMBEDDING_PROVIDER", "none"}}));
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        const Reply r = server.post(kExport, QJsonObject{{s("tenant_id"), s("acme")}},
                                    {header("X-Api-Key", "k-acme")});
        QCOMPARE(r.status, 403);
        QCOMPARE(r.json.value(s("details")).toObject().value(s("reason")).toString(),
                 s("admin_token_unset"));
    }
}

void tst_HttpPortability::dryRunThenImportIntoAnotherScope()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    auto filled = fillSampleScope(server.service(), s("default"), s("alpha"));
    QVERIFY2(filled, why(filled));
    QVERIFY(server.service()->waitForEmbeddings(120000));
    const Reply exported = server.post(kExport, QJsonObject{{s("scope"), s("alpha")}});
    QCOMPARE(exported.status, 200);
    const qint64 commits = server.service()->health().commits;

    const QString query = s("?scope=beta&id_policy=remap");
    Reply dry = server.post(kImport + query + s("&dry_run=true"), exported.body, {kNdjson});
    QVERIFY2(dry.status == 200, envelope(dry));
    QCOMPARE(dry.json.value(s("dry_run")).toBool(), true);
    QCOMPARE(dry.json.value(s("can_import")).toBool(), true);
    QCOMPARE(dry.json.value(s("target")).toObject().value(s("scope")).toString(), s("beta"));
    QCOMPARE(dry.json.value(s("source")).toObject().value(s("scope")).toString(), s("alpha"));
    const QJsonObject nodeKind = dry.json.value(s("kinds")).toObject().value(s("node")).toObject();
    QVERIFY(nodeKind.value(s("would_add")).toInt() > 0);
    QCOMPARE(nodeKind.value(s("would_add")), nodeKind.value(s("records")));
    QVERIFY(!dry.json.value(s("request_id")).toString().isEmpty());
    QCOMPARE(server.service()->health().commits, commits);
    QVERIFY(server.nodes(s("default"), s("beta")).isEmpty());

    const Reply done = server.post(kImport + query, exported.body, {kNdjson});
    QVERIFY2(done.status == 200, envelope(done));
    QCOMPARE(done.json.value(s("dry_run")).toBool(), false);
    const QJsonArray commitIds = done.json.value(s("commit_ids")).toArray();
    QCOMPARE(commitIds.size(), 1);
    QCOMPARE(server.nodes(s("default"), s("beta")).size(),
             server.nodes(s("default"), s("alpha")).size());
    const QVector<CommitRecord> beta = server.commits(s("default"), s("beta"));
    QCOMPARE(beta.size(), 1);
    QCOMPARE(beta.first().kind, s("import"));
    QCOMPARE(beta.first().actor, s("admin"));
    auto chain = server.service()->verifyChain(s("default"), s("beta"));
    QVERIFY(chain && chain.value().ok);
}

void tst_HttpPortability::importErrorsNameLineAndField()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QVERIFY(fillSampleScope(server.service(), s("default"), s("alpha")));
    const Reply exported = server.post(kExport, QJsonObject{{s("scope"), s("alpha")}});
    QCOMPARE(exported.status, 200);

    QByteArrayList lines = linesOf(exported.body);
    QJsonObject edge;
    int edgeLine = 0;
    for (int i = 1; i < lines.size() && edgeLine == 0; ++i) {
        edge = QJsonDocument::fromJson(lines.at(i)).object();
        if (edge.value(s("kind")).toString() == QLatin1String("edge"))
            edgeLine = i;
    }
    QVERIFY(edgeLine > 0);
    edge.remove(s("src_id"));
    lines[edgeLine] = QJsonDocument(edge).toJson(QJsonDocument::Compact);
    Reply r = server.post(kImport + s("?scope=beta"), lines.join('\n'), {kNdjson});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), s("invalid_import"));
    const QJsonObject details = r.json.value(s("details")).toObject();
    QCOMPARE(details.value(s("line")).toInt(), edgeLine + 1);
    QCOMPARE(details.value(s("field")).toString(), s("src_id"));
    QCOMPARE(r.json.value(s("message")).toString(),
             s("line %1, field src_id: is required").arg(edgeLine + 1));

    // Preserve into the scope the records came from: every id is taken.
    r = server.post(kImport, exported.body, {kNdjson});
    QCOMPARE(r.status, 409);
    QCOMPARE(r.errorCode(), s("import_conflict"));
    QVERIFY(!r.json.value(s("details")).toObject().value(s("id")).toString().isEmpty());

    r = server.post(kImport, exported.body); // sent as JSON
    QCOMPARE(r.status, 415);
    QCOMPARE(r.json.value(s("details")).toObject().value(s("expected")).toString(),
             s("application/x-ndjson"));
    r = server.post(kImport + s("?id_policy=fresh"), exported.body, {kNdjson});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.issuePath(), s("id_policy"));
    r = server.post(kImport + s("?dryrun=1"), exported.body, {kNdjson});
    QCOMPARE(r.status, 400);
    QCOMPARE(r.issuePath(), s("dryrun"));
    r = server.post(kImport, QByteArray(), {kNdjson});
    QCOMPARE(r.status, 400);
    QVERIFY(server.nodes(s("default"), s("beta")).isEmpty());
}

void tst_HttpPortability::importHasItsOwnBodyCap()
{
    // Other routes keep the small cap; the import route takes bodies up to its own.
    HttpTestServer server(
        env({{"MEMORY_MAX_BODY_BYTES", "4096"}, {"MEMORY_MAX_IMPORT_BODY_BYTES", "4000000"}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QVERIFY(fillSampleScope(server.service(), s("default"), s("alpha")));
    const Reply exported = server.post(kExport, QJsonObject{{s("scope"), s("alpha")}});
    QCOMPARE(exported.status, 200);
    QVERIFY(exported.body.size() > 4096);

    Reply r = server.post(kImport + s("?scope=beta&dry_run=true"), exported.body, {kNdjson});
    QVERIFY2(r.status == 200, envelope(r));
    r = server.post(s("/v1/memory/write"), exported.body.left(5000));
    QCOMPARE(r.status, 413);

    HttpTestServer tight(
        env({{"MEMORY_MAX_BODY_BYTES", "4096"}, {"MEMORY_MAX_IMPORT_BODY_BYTES", "8192"}}));
    QVERIFY2(tight.isReady(), qPrintable(tight.errorText()));
    r = tight.post(kImport + s("?dry_run=true"), exported.body, {kNdjson});
    QCOMPARE(r.status, 413);
    QCOMPARE(r.errorCode(), s("payload_too_large"));
    QCOMPARE(r.json.value(s("details")).toObject().value(s("max_bytes")).toInt(), 8192);
}

QTEST_GUILESS_MAIN(tst_HttpPortability)
#include "tst_httpportability.moc"
