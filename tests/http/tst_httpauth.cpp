// Authentication over real HTTP (spec §5, §7; DESIGN HTTP section and decision 3).

#include "tests/http/httptestserver.h"

#include <QDateTime>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

const QString kKeys
    = QStringLiteral(R"({"k1":{"tenant_id":"acme","agent_id":"agent-a","team_id":"team-x"},)"
                     R"("k2":{"tenant_id":"globex","agent_id":"agent-g"}})");
const QByteArray kJwtSecret = QByteArrayLiteral("http-test-hs256-secret-91c2");
const QString kAdminToken = QStringLiteral("admin-secret-5d1e");
const QString kDefault = QStringLiteral("default");
const QString kAcme = QStringLiteral("acme");

QProcessEnvironment envFor(const QString &mode)
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("MEMORY_AUTH_MODE"), mode);
    env.insert(QStringLiteral("MEMORY_API_KEYS_JSON"), kKeys);
    env.insert(QStringLiteral("MEMORY_JWT_HS256_SECRET"), QString::fromLatin1(kJwtSecret));
    env.insert(QStringLiteral("ADMIN_TOKEN"), kAdminToken);
    return env;
}

QPair<QByteArray, QByteArray> apiKey(const QByteArray &key)
{
    return {QByteArrayLiteral("X-Api-Key"), key};
}

qint64 now()
{
    return QDateTime::currentSecsSinceEpoch();
}

QJsonObject jwtClaims(qint64 expOffset = 600)
{
    return {{QStringLiteral("tenant_id"), QStringLiteral("acme-j")},
            {QStringLiteral("agent_id"), QStringLiteral("agent-j")},
            {QStringLiteral("team_id"), QStringLiteral("team-j")},
            {QStringLiteral("exp"), double(now() + expOffset)}};
}

QJsonObject oneNode(const QString &text = QStringLiteral("authenticated note"))
{
    return writeBody({writeNode(QStringLiteral("n1"), QStringLiteral("event"), text)});
}

QJsonObject with(QJsonObject object, const QString &key, const QJsonValue &value)
{
    object.insert(key, value);
    return object;
}

QString nodeIdOf(const Reply &reply)
{
    return reply.json.value(QStringLiteral("nodes"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("id"))
        .toString();
}

QString detailString(const Reply &reply, const char *key)
{
    return reply.json.value(QStringLiteral("details"))
        .toObject()
        .value(QLatin1String(key))
        .toString();
}

} // namespace

class tst_HttpAuth : public QObject
{
    Q_OBJECT

private slots:
    // api_key (spec §5.1)
    void apiKeyRejected_data();
    void apiKeyRejected();
    void apiKeyFillsIdentity();
    void apiKeyCheckedBeforeBody();
    void apiKeyTenantMismatch_data();
    void apiKeyTenantMismatch();
    void apiKeyIdentityMismatch_data();
    void apiKeyIdentityMismatch();

    // jwt (spec §5.2)
    void jwtAccepted();
    void jwtAlternativeClaimNames();
    void jwtRejected_data();
    void jwtRejected();
    void jwtTenantMismatch();

    // api_key_or_jwt
    void eitherCredential();

    // /health and admin token (spec §4.1, §5.3)
    void healthNeedsNoCredentials_data();
    void healthNeedsNoCredentials();

    // bind policy (spec §5, DESIGN HTTP)
    void nonLoopbackRefusedWhileAuthOff_data();
    void nonLoopbackRefusedWhileAuthOff();
    void loopbackAllowedWhileAuthOff_data();
    void loopbackAllowedWhileAuthOff();
    void nonLoopbackAllowedWithApiKey();
};

#define REQUIRE_SERVER(server) QVERIFY2((server).isReady(), qPrintable((server).errorText()))

// ---------------------------------------------------------------------------------------------

void tst_HttpAuth::apiKeyRejected_data()
{
    QTest::addColumn<HttpHeaders>("headers");
    QTest::addColumn<QString>("reason");

    QTest::newRow("§5.1 missing X-Api-Key") << HttpHeaders{} << QStringLiteral("missing_api_key");
    QTest::newRow("§5.1 empty X-Api-Key")
        << HttpHeaders{apiKey(QByteArrayLiteral(" "))} << QStringLiteral("missing_api_key");
    QTest::newRow("§5.1 unknown X-Api-Key")
        << HttpHeaders{apiKey(QByteArrayLiteral("k9"))} << QStringLiteral("invalid_api_key");
    QTest::newRow("§5.1 key compared exactly")
        << HttpHeaders{apiKey(QByteArrayLiteral("K1"))} << QStringLiteral("invalid_api_key");
    QTest::newRow("§5.1 bearer token is not a key")
        << HttpHeaders{bearer(makeHs256Jwt(jwtClaims(), kJwtSecret))}
        << QStringLiteral("missing_api_key");
}

void tst_HttpAuth::apiKeyRejected()
{
    QFETCH(HttpHeaders, headers);
    QFETCH(QString, reason);

    HttpTestServer server(envFor(QStringLiteral("api_key")));
    REQUIRE_SERVER(server);
    const Reply r = server.write(oneNode(), headers);
    QVERIFY2(r.status == 401, r.describe());
    QCOMPARE(r.errorCode(), QStringLiteral("unauthorized"));
    QCOMPARE(keysOf(r.json), keyList({"error", "message", "details", "request_id"}));
    QCOMPARE(detailString(r, "reason"), reason);
    QCOMPARE(r.json.value(QStringLiteral("request_id")).toString(),
             QString::fromLatin1(r.header("x-request-id")));
    QCOMPARE(server.service()->health().commits, qint64(0));
    QCOMPARE(server.service()->health().nodes, qint64(0));
}

void tst_HttpAuth::apiKeyFillsIdentity()
{
    HttpTestServer server(envFor(QStringLiteral("api_key")));
    REQUIRE_SERVER(server);

    const Reply r = server.write(oneNode(), {apiKey(QByteArrayLiteral("k1"))});
    QVERIFY2(r.status == 200, r.describe());
    QCOMPARE(r.json.value(QStringLiteral("tenant_id")).toString(), kAcme);
    QCOMPARE(r.json.value(QStringLiteral("scope")).toString(), kDefault);

    auto detail = server.service()->nodeDetail(kAcme, kDefault, nodeIdOf(r));
    QVERIFY(detail.ok());
    QCOMPARE(detail.value().node.producerAgentId, QStringLiteral("agent-a"));
    QCOMPARE(detail.value().node.ownerAgentId, QStringLiteral("agent-a"));
    QCOMPARE(detail.value().node.memoryLane, QStringLiteral("private"));
    const auto commits = server.commits(kAcme);
    QCOMPARE(commits.size(), 1);
    QCOMPARE(commits.at(0).actor, QStringLiteral("agent-a"));
    // Nothing lands under the default tenant.
    QCOMPARE(server.commits(kDefault).size(), 0);

    // The second key writes under its own tenant.
    const Reply g = server.write(oneNode(), {apiKey(QByteArrayLiteral("k2"))});
    QVERIFY2(g.status == 200, g.describe());
    QCOMPARE(g.json.value(QStringLiteral("tenant_id")).toString(), QStringLiteral("globex"));
    auto gDetail = server.service()->nodeDetail(QStringLiteral("globex"), kDefault, nodeIdOf(g));
    QVERIFY(gDetail.ok());
    QCOMPARE(gDetail.value().node.producerAgentId, QStringLiteral("agent-g"));
    QCOMPARE(gDetail.value().node.ownerAgentId, QStringLiteral("agent-g"));
    QVERIFY(nodeIdOf(g) != nodeIdOf(r));

    // Naming the key's own identity explicitly is fine.
    QJsonObject same = oneNode(QStringLiteral("explicit identity"));
    same.insert(QStringLiteral("producer_agent_id"), QStringLiteral("agent-a"));
    same.insert(QStringLiteral("owner_team_id"), QStringLiteral("team-x"));
    same.insert(QStringLiteral("tenant_id"), kAcme);
    const Reply explicitOk
        = server.write(same, {apiKey(QByteArrayLiteral("k1")),
                              {QByteArrayLiteral("X-Tenant-Id"), QByteArrayLiteral("acme")}});
    QVERIFY2(explicitOk.status == 200, explicitOk.describe());
    auto explicitDetail = server.service()->nodeDetail(kAcme, kDefault, nodeIdOf(explicitOk));
    QVERIFY(explicitDetail.ok());
    QCOMPARE(explicitDetail.value().node.textSummary, QStringLiteral("explicit identity"));
    QCOMPARE(explicitDetail.value().node.ownerTeamId, QStringLiteral("team-x"));
    QCOMPARE(server.commits(kAcme).size(), 2);
}

void tst_HttpAuth::apiKeyCheckedBeforeBody()
{
    HttpTestServer server(envFor(QStringLiteral("api_key")));
    REQUIRE_SERVER(server);

    // A caller without credentials learns nothing about the body's validity.
    const Reply r = server.post(QStringLiteral("/v1/memory/write"), QByteArrayLiteral("{not json"));
    QVERIFY2(r.status == 401, r.describe());
    QCOMPARE(r.errorCode(), QStringLiteral("unauthorized"));
}

void tst_HttpAuth::apiKeyTenantMismatch_data()
{
    QTest::addColumn<QString>("bodyTenant");
    QTest::addColumn<QByteArray>("headerTenant");

    QTest::newRow("§5.1 tenant_id in body differs from the key")
        << QStringLiteral("globex") << QByteArray();
    QTest::newRow("§5.1 X-Tenant-Id differs from the key")
        << QString() << QByteArrayLiteral("globex");
    QTest::newRow("§5.1 body tenant differs even when the header matches")
        << QStringLiteral("globex") << QByteArrayLiteral("acme");
}

void tst_HttpAuth::apiKeyTenantMismatch()
{
    QFETCH(QString, bodyTenant);
    QFETCH(QByteArray, headerTenant);

    HttpTestServer server(envFor(QStringLiteral("api_key")));
    REQUIRE_SERVER(server);
    QJsonObject body = oneNode();
    if (!bodyTenant.isEmpty())
        body.insert(QStringLiteral("tenant_id"), bodyTenant);
    HttpHeaders headers{apiKey(QByteArrayLiteral("k1"))};
    if (!headerTenant.isEmpty())
        headers.append({QByteArrayLiteral("X-Tenant-Id"), headerTenant});

    const Reply r = server.write(body, headers);
    QVERIFY2(r.status == 403, r.describe());
    QCOMPARE(r.errorCode(), QStringLiteral("forbidden"));
    QVERIFY(!r.json.value(QStringLiteral("message")).toString().isEmpty());
    QCOMPARE(server.service()->health().commits, qint64(0));
    QCOMPARE(server.service()->health().nodes, qint64(0));
}

void tst_HttpAuth::apiKeyIdentityMismatch_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("provided");
    QTest::addColumn<QString>("expected");

    const QJsonObject body = oneNode();
    QJsonObject node
        = writeNode(QStringLiteral("n1"), QStringLiteral("event"), QStringLiteral("x"));

    QTest::newRow("§5.1 producer_agent_id differs from the key")
        << with(body, QStringLiteral("producer_agent_id"), QStringLiteral("agent-z"))
        << QStringLiteral("producer_agent_id") << QStringLiteral("agent-z")
        << QStringLiteral("agent-a");
    QTest::newRow("§5.1 owner_agent_id differs from the key")
        << with(body, QStringLiteral("owner_agent_id"), QStringLiteral("agent-z"))
        << QStringLiteral("owner_agent_id") << QStringLiteral("agent-z")
        << QStringLiteral("agent-a");
    QTest::newRow("§5.1 owner_team_id differs from the key")
        << with(body, QStringLiteral("owner_team_id"), QStringLiteral("team-y"))
        << QStringLiteral("owner_team_id") << QStringLiteral("team-y") << QStringLiteral("team-x");
    QTest::newRow("§5.1 node-level producer_agent_id differs from the key")
        << writeBody({with(node, QStringLiteral("producer_agent_id"), QStringLiteral("agent-z"))})
        << QStringLiteral("nodes[0].producer_agent_id") << QStringLiteral("agent-z")
        << QStringLiteral("agent-a");
    QTest::newRow("§5.1 node-level owner_team_id differs from the key")
        << writeBody({node, with(writeNode(QStringLiteral("n2"), QStringLiteral("event"),
                                           QStringLiteral("y")),
                                 QStringLiteral("owner_team_id"), QStringLiteral("team-y"))})
        << QStringLiteral("nodes[1].owner_team_id") << QStringLiteral("team-y")
        << QStringLiteral("team-x");
}

void tst_HttpAuth::apiKeyIdentityMismatch()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, field);
    QFETCH(QString, provided);
    QFETCH(QString, expected);

    HttpTestServer server(envFor(QStringLiteral("api_key")));
    REQUIRE_SERVER(server);
    const Reply r = server.write(body, {apiKey(QByteArrayLiteral("k1"))});
    QVERIFY2(r.status == 403, r.describe());
    QCOMPARE(r.errorCode(), QStringLiteral("identity_mismatch"));
    QCOMPARE(keysOf(r.json), keyList({"error", "message", "details", "request_id"}));
    QCOMPARE(detailString(r, "field"), field);
    QCOMPARE(detailString(r, "provided"), provided);
    QCOMPARE(detailString(r, "expected"), expected);
    QCOMPARE(server.service()->health().commits, qint64(0));
    QCOMPARE(server.service()->health().nodes, qint64(0));
}

// ---------------------------------------------------------------------------------------------

void tst_HttpAuth::jwtAccepted()
{
    HttpTestServer server(envFor(QStringLiteral("jwt")));
    REQUIRE_SERVER(server);

    const Reply r = server.write(oneNode(), {bearer(makeHs256Jwt(jwtClaims(), kJwtSecret))});
    QVERIFY2(r.status == 200, r.describe());
    QCOMPARE(r.json.value(QStringLiteral("tenant_id")).toString(), QStringLiteral("acme-j"));
    auto detail = server.service()->nodeDetail(QStringLiteral("acme-j"), kDefault, nodeIdOf(r));
    QVERIFY(detail.ok());
    QCOMPARE(detail.value().node.producerAgentId, QStringLiteral("agent-j"));
    QCOMPARE(detail.value().node.ownerAgentId, QStringLiteral("agent-j"));
    QCOMPARE(server.commits(QStringLiteral("acme-j")).size(), 1);

    // Within MEMORY_JWT_CLOCK_SKEW_SEC (default 30 s) a just-expired token still passes.
    const Reply skew = server.write(oneNode(QStringLiteral("skew")),
                                    {bearer(makeHs256Jwt(jwtClaims(-5), kJwtSecret))});
    QVERIFY2(skew.status == 200, skew.describe());

    // The scheme name is case-insensitive.
    const Reply lower
        = server.write(oneNode(QStringLiteral("lower")),
                       {{QByteArrayLiteral("Authorization"),
                         QByteArrayLiteral("bearer ") + makeHs256Jwt(jwtClaims(), kJwtSecret)}});
    QVERIFY2(lower.status == 200, lower.describe());
}

void tst_HttpAuth::jwtAlternativeClaimNames()
{
    HttpTestServer server(envFor(QStringLiteral("jwt")));
    REQUIRE_SERVER(server);

    const QJsonObject claims{{QStringLiteral("tenant"), QStringLiteral("initech")},
                             {QStringLiteral("sub"), QStringLiteral("agent-sub")},
                             {QStringLiteral("exp"), double(now() + 600)}};
    const Reply r = server.write(oneNode(), {bearer(makeHs256Jwt(claims, kJwtSecret))});
    QVERIFY2(r.status == 200, r.describe());
    QCOMPARE(r.json.value(QStringLiteral("tenant_id")).toString(), QStringLiteral("initech"));
    auto detail = server.service()->nodeDetail(QStringLiteral("initech"), kDefault, nodeIdOf(r));
    QVERIFY(detail.ok());
    QCOMPARE(detail.value().node.producerAgentId, QStringLiteral("agent-sub"));
}

void tst_HttpAuth::jwtRejected_data()
{
    QTest::addColumn<HttpHeaders>("headers");
    QTest::addColumn<QString>("reason");

    QJsonObject noTenant = jwtClaims();
    noTenant.remove(QStringLiteral("tenant_id"));
    QJsonObject notYet = jwtClaims();
    notYet.insert(QStringLiteral("nbf"), double(now() + 3600));
    const QByteArray good = makeHs256Jwt(jwtClaims(), kJwtSecret);
    QByteArray tampered = good;
    const qsizetype signatureStart = good.lastIndexOf('.') + 1;
    tampered[signatureStart] = good.at(signatureStart) == 'A' ? 'B' : 'A';

    QTest::newRow("§5.2 missing bearer") << HttpHeaders{} << QStringLiteral("missing_bearer");
    QTest::newRow("§5.2 other scheme") << HttpHeaders{{QByteArrayLiteral("Authorization"),
                                                       QByteArrayLiteral("Basic dXNlcjpwdw==")}}
                                       << QStringLiteral("missing_bearer");
    QTest::newRow("§5.2 api key is not accepted in jwt mode")
        << HttpHeaders{apiKey(QByteArrayLiteral("k1"))} << QStringLiteral("missing_bearer");
    QTest::newRow("§5.2 expired") << HttpHeaders{bearer(makeHs256Jwt(jwtClaims(-3600), kJwtSecret))}
                                  << QStringLiteral("expired");
    QTest::newRow("§5.2 not yet valid")
        << HttpHeaders{bearer(makeHs256Jwt(notYet, kJwtSecret))} << QStringLiteral("not_yet_valid");
    QTest::newRow("§5.2 bad signature")
        << HttpHeaders{bearer(makeHs256Jwt(jwtClaims(), QByteArrayLiteral("some-other-secret")))}
        << QStringLiteral("bad_signature");
    QTest::newRow("§5.2 tampered signature")
        << HttpHeaders{bearer(tampered)} << QStringLiteral("bad_signature");
    QTest::newRow("§5.2 tenant claim required")
        << HttpHeaders{bearer(makeHs256Jwt(noTenant, kJwtSecret))}
        << QStringLiteral("invalid_claims");
    QTest::newRow("§5.2 not a JWT")
        << HttpHeaders{bearer(QByteArrayLiteral("abc.def"))} << QStringLiteral("malformed");
}

void tst_HttpAuth::jwtRejected()
{
    QFETCH(HttpHeaders, headers);
    QFETCH(QString, reason);

    HttpTestServer server(envFor(QStringLiteral("jwt")));
    REQUIRE_SERVER(server);
    const Reply r = server.write(oneNode(), headers);
    QVERIFY2(r.status == 401, r.describe());
    QCOMPARE(r.errorCode(), QStringLiteral("unauthorized"));
    QCOMPARE(detailString(r, "reason"), reason);
    // Messages never echo the token or the secret.
    QVERIFY(!r.body.contains(kJwtSecret));
    for (const auto &[name, value] : headers)
        QVERIFY(value.size() < 12 || !r.body.contains(value.mid(value.indexOf(' ') + 1)));
    QCOMPARE(server.service()->health().commits, qint64(0));
}

void tst_HttpAuth::jwtTenantMismatch()
{
    HttpTestServer server(envFor(QStringLiteral("jwt")));
    REQUIRE_SERVER(server);
    const HttpHeaders headers{bearer(makeHs256Jwt(jwtClaims(), kJwtSecret))};

    const Reply tenant = server.write(with(oneNode(), QStringLiteral("tenant_id"), kAcme), headers);
    QVERIFY2(tenant.status == 403, tenant.describe());
    QCOMPARE(tenant.errorCode(), QStringLiteral("forbidden"));

    const Reply producer = server.write(
        with(oneNode(), QStringLiteral("producer_agent_id"), QStringLiteral("agent-a")), headers);
    QVERIFY2(producer.status == 403, producer.describe());
    QCOMPARE(producer.errorCode(), QStringLiteral("identity_mismatch"));
    QCOMPARE(detailString(producer, "field"), QStringLiteral("producer_agent_id"));
    QCOMPARE(detailString(producer, "expected"), QStringLiteral("agent-j"));
    QCOMPARE(server.service()->health().commits, qint64(0));
}

// ---------------------------------------------------------------------------------------------

void tst_HttpAuth::eitherCredential()
{
    HttpTestServer server(envFor(QStringLiteral("api_key_or_jwt")));
    REQUIRE_SERVER(server);

    const Reply byKey = server.write(oneNode(), {apiKey(QByteArrayLiteral("k1"))});
    QVERIFY2(byKey.status == 200, byKey.describe());
    QCOMPARE(byKey.json.value(QStringLiteral("tenant_id")).toString(), kAcme);

    const Reply byJwt = server.write(oneNode(), {bearer(makeHs256Jwt(jwtClaims(), kJwtSecret))});
    QVERIFY2(byJwt.status == 200, byJwt.describe());
    QCOMPARE(byJwt.json.value(QStringLiteral("tenant_id")).toString(), QStringLiteral("acme-j"));
    auto detail = server.service()->nodeDetail(QStringLiteral("acme-j"), kDefault, nodeIdOf(byJwt));
    QVERIFY(detail.ok());
    QCOMPARE(detail.value().node.producerAgentId, QStringLiteral("agent-j"));

    const Reply none = server.write(oneNode());
    QVERIFY2(none.status == 401, none.describe());
    QCOMPARE(none.errorCode(), QStringLiteral("unauthorized"));

    const Reply badKey = server.write(oneNode(), {apiKey(QByteArrayLiteral("nope"))});
    QVERIFY2(badKey.status == 401, badKey.describe());

    const Reply expired
        = server.write(oneNode(), {bearer(makeHs256Jwt(jwtClaims(-3600), kJwtSecret))});
    QVERIFY2(expired.status == 401, expired.describe());
    QCOMPARE(detailString(expired, "reason"), QStringLiteral("expired"));

    QCOMPARE(server.service()->health().commits, qint64(2));
}

// ---------------------------------------------------------------------------------------------

void tst_HttpAuth::healthNeedsNoCredentials_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<bool>("countsWithoutAdmin");

    QTest::newRow("§5 off: counts for everyone") << QStringLiteral("off") << true;
    QTest::newRow("§5.1 api_key: counts for admins only") << QStringLiteral("api_key") << false;
    QTest::newRow("§5.2 jwt: counts for admins only") << QStringLiteral("jwt") << false;
    QTest::newRow("§5 api_key_or_jwt: counts for admins only")
        << QStringLiteral("api_key_or_jwt") << false;
}

void tst_HttpAuth::healthNeedsNoCredentials()
{
    QFETCH(QString, mode);
    QFETCH(bool, countsWithoutAdmin);

    HttpTestServer server(envFor(mode));
    REQUIRE_SERVER(server);
    const QString counts = QStringLiteral("counts");

    const Reply plain = server.get(QStringLiteral("/health"));
    QVERIFY2(plain.status == 200, plain.describe());
    QCOMPARE(plain.json.value(QStringLiteral("ok")), QJsonValue(true));
    QCOMPARE(plain.json.value(QStringLiteral("auth_mode")).toString(), mode);
    QCOMPARE(plain.json.contains(counts), countsWithoutAdmin);
    QVERIFY(!plain.header("x-request-id").isEmpty());

    // Wrong credentials do not matter either, and do not unlock counts.
    const Reply wrong
        = server.get(QStringLiteral("/health"),
                     {apiKey(QByteArrayLiteral("nope")),
                      bearer(QByteArrayLiteral("a.b.c")),
                      {QByteArrayLiteral("X-Admin-Token"), QByteArrayLiteral("not-the-token")}});
    QVERIFY2(wrong.status == 200, wrong.describe());
    QCOMPARE(wrong.json.contains(counts), countsWithoutAdmin);

    const Reply admin = server.get(QStringLiteral("/health"),
                                   {{QByteArrayLiteral("X-Admin-Token"), kAdminToken.toLatin1()}});
    QVERIFY2(admin.status == 200, admin.describe());
    QVERIFY(admin.json.contains(counts));
    QCOMPARE(keysOf(admin.json.value(counts).toObject()),
             keyList({"nodes", "edges", "commits", "scopes"}));
}

// ---------------------------------------------------------------------------------------------

void tst_HttpAuth::nonLoopbackRefusedWhileAuthOff_data()
{
    QTest::addColumn<QString>("address");

    QTest::newRow("§5 off: any IPv4 address") << QStringLiteral("0.0.0.0");
    QTest::newRow("§5 off: any IPv6 address") << QStringLiteral("::");
    QTest::newRow("§5 off: a LAN address") << QStringLiteral("192.0.2.10");
}

void tst_HttpAuth::nonLoopbackRefusedWhileAuthOff()
{
    QFETCH(QString, address);

    TempService temp;
    QVERIFY2(temp.isValid(), qPrintable(temp.errorText()));
    HttpServerHost host(temp.service());
    QSignalSpy started(&host, &HttpServerHost::started);
    QSignalSpy failed(&host, &HttpServerHost::startFailed);

    host.start(address, 0);
    QCOMPARE(failed.size(), 1);
    QCOMPARE(started.size(), 0);
    QCOMPARE(host.port(), quint16(0));
    QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("MEMORY_AUTH_MODE")),
             qPrintable(failed.at(0).at(0).toString()));
}

void tst_HttpAuth::loopbackAllowedWhileAuthOff_data()
{
    QTest::addColumn<QString>("address");

    QTest::newRow("IPv4 loopback") << QStringLiteral("127.0.0.1");
    QTest::newRow("localhost") << QStringLiteral("localhost");
}

void tst_HttpAuth::loopbackAllowedWhileAuthOff()
{
    QFETCH(QString, address);

    TempService temp;
    QVERIFY2(temp.isValid(), qPrintable(temp.errorText()));
    HttpServerHost host(temp.service());
    QSignalSpy started(&host, &HttpServerHost::started);
    QSignalSpy failed(&host, &HttpServerHost::startFailed);
    QSignalSpy stopped(&host, &HttpServerHost::stopped);

    host.start(address, 0);
    QCOMPARE(failed.size(), 0);
    QCOMPARE(started.size(), 1);
    QVERIFY(host.port() != 0);
    QCOMPARE(started.at(0).at(1).value<quint16>(), host.port());
    host.stop();
    QCOMPARE(stopped.size(), 1);
    QCOMPARE(host.port(), quint16(0));
}

void tst_HttpAuth::nonLoopbackAllowedWithApiKey()
{
    // Only listens on an ephemeral port and stops again; no traffic leaves the machine.
    TempService temp(envFor(QStringLiteral("api_key")));
    QVERIFY2(temp.isValid(), qPrintable(temp.errorText()));
    HttpServerHost host(temp.service());
    QSignalSpy started(&host, &HttpServerHost::started);
    QSignalSpy failed(&host, &HttpServerHost::startFailed);
    QSignalSpy stopped(&host, &HttpServerHost::stopped);

    host.start(QStringLiteral("0.0.0.0"), 0);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(started.size(), 1);
    QCOMPARE(started.at(0).at(0).toString(), QStringLiteral("0.0.0.0"));
    QVERIFY(host.port() != 0);
    QCOMPARE(started.at(0).at(1).value<quint16>(), host.port());

    // A second start while running is refused.
    host.start(QStringLiteral("127.0.0.1"), 0);
    QCOMPARE(failed.size(), 1);
    QCOMPARE(started.size(), 1);

    host.stop();
    QCOMPARE(stopped.size(), 1);
    QCOMPARE(host.port(), quint16(0));
}

QTEST_GUILESS_MAIN(tst_HttpAuth)
#include "tst_httpauth.moc"
