#include "service/http/authenticator.h"
#include "service/http/jwt.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageAuthenticationCode>
#include <QTest>

using namespace MemoryGraph;

namespace {

const QByteArray kSecret = QByteArrayLiteral("unit-test-hs256-secret-7f3a");
constexpr qint64 kNow = 1700000000;
constexpr int kSkew = 30;

QByteArray b64url(const QByteArray &raw)
{
    return raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QByteArray json(const QJsonObject &obj)
{
    return QJsonDocument(obj).toJson(QJsonDocument::Compact);
}

QByteArray sign(const QByteArray &signingInput, const QByteArray &secret)
{
    return b64url(
        QMessageAuthenticationCode::hash(signingInput, secret, QCryptographicHash::Sha256));
}

// Builds a token from raw header and payload bytes so tests can also encode non-objects.
QByteArray rawToken(const QByteArray &header, const QByteArray &payload,
                    const QByteArray &secret = kSecret)
{
    const QByteArray input = b64url(header) + '.' + b64url(payload);
    return input + '.' + sign(input, secret);
}

QJsonObject hs256Header()
{
    return {{QStringLiteral("alg"), QStringLiteral("HS256")},
            {QStringLiteral("typ"), QStringLiteral("JWT")}};
}

QByteArray token(const QJsonObject &claims, const QByteArray &secret = kSecret)
{
    return rawToken(json(hs256Header()), json(claims), secret);
}

QByteArray tokenWithAlg(const QString &alg, const QJsonObject &claims)
{
    return rawToken(json({{QStringLiteral("alg"), alg}}), json(claims));
}

QJsonObject tenantClaims(qint64 exp = kNow + 600)
{
    return {{QStringLiteral("tenant_id"), QStringLiteral("acme")},
            {QStringLiteral("agent_id"), QStringLiteral("agent-7")},
            {QStringLiteral("team_id"), QStringLiteral("team-x")},
            {QStringLiteral("role"), QStringLiteral("writer")},
            {QStringLiteral("exp"), double(exp)}};
}

ServiceConfig configFor(AuthMode mode)
{
    ServiceConfig c;
    c.authMode = mode;
    c.jwtSecret = kSecret;
    c.jwtClockSkewSec = kSkew;
    c.apiKeys.insert(QStringLiteral("key-alpha"),
                     KeyIdentity{QStringLiteral("acme"), QStringLiteral("agent-a"),
                                 QStringLiteral("team-a"), QStringLiteral("admin")});
    c.apiKeys.insert(QStringLiteral("key-beta"),
                     KeyIdentity{QStringLiteral("globex"), QString(), QString(), QString()});
    return c;
}

QString reasonOf(const Error &e)
{
    return e.details.value(QStringLiteral("reason")).toString();
}

QByteArray bearer(const QByteArray &jwt)
{
    return QByteArrayLiteral("Bearer ") + jwt;
}

} // namespace

class tst_Authenticator : public QObject
{
    Q_OBJECT

private slots:
    void constantTimeEqualsBasics();

    void verifyJwt_data();
    void verifyJwt();
    void verifyJwtEmptySecret();
    void verifyJwtReturnsClaims();

    void offModeReturnsNoPrincipal();

    void apiKeyMode_data();
    void apiKeyMode();

    void jwtMode_data();
    void jwtMode();

    void productionRequiresExp_data();
    void productionRequiresExp();

    void apiKeyOrJwt_data();
    void apiKeyOrJwt();

    void errorsDoNotLeakSecrets();

    void adminToken_data();
    void adminToken();
};

void tst_Authenticator::constantTimeEqualsBasics()
{
    QVERIFY(constantTimeEquals(QByteArray(), QByteArray()));
    QVERIFY(constantTimeEquals("abc", "abc"));
    QVERIFY(!constantTimeEquals("abc", "abd"));
    QVERIFY(!constantTimeEquals("abc", "abcd"));
    QVERIFY(!constantTimeEquals("xbc", "abc"));
}

void tst_Authenticator::verifyJwt_data()
{
    QTest::addColumn<QByteArray>("jwt");
    QTest::addColumn<bool>("requireExp");
    QTest::addColumn<QString>("reason"); // empty = must verify

    const QJsonObject noExp{{QStringLiteral("tenant_id"), QStringLiteral("acme")}};
    auto withTimes = [](const QJsonValue &exp, const QJsonValue &nbf) {
        QJsonObject c{{QStringLiteral("tenant_id"), QStringLiteral("acme")}};
        if (!exp.isUndefined())
            c.insert(QStringLiteral("exp"), exp);
        if (!nbf.isUndefined())
            c.insert(QStringLiteral("nbf"), nbf);
        return c;
    };
    const QJsonValue none(QJsonValue::Undefined);
    const QByteArray good = token(tenantClaims());
    const QList<QByteArray> parts = good.split('.');

    QTest::newRow("valid") << good << false << QString();
    QTest::newRow("valid, exp required and present") << good << true << QString();
    QTest::newRow("no exp, not required") << token(noExp) << false << QString();
    QTest::newRow("no exp, required") << token(noExp) << true << QStringLiteral("missing_exp");
    QTest::newRow("null exp, required")
        << token(withTimes(QJsonValue::Null, none)) << true << QStringLiteral("missing_exp");

    QTest::newRow("wrong secret") << token(tenantClaims(), "another-secret") << false
                                  << QStringLiteral("bad_signature");
    QTest::newRow("payload swapped after signing")
        << QByteArray(parts.at(0) + '.' + b64url(json(noExp)) + '.' + parts.at(2)) << false
        << QStringLiteral("bad_signature");
    QTest::newRow("signature truncated")
        << QByteArray(parts.at(0) + '.' + parts.at(1) + '.' + parts.at(2).left(20)) << false
        << QStringLiteral("bad_signature");

    QTest::newRow("alg none unsigned")
        << QByteArray(b64url(R"({"alg":"none"})") + '.' + b64url(json(tenantClaims())) + '.')
        << false << QStringLiteral("unsupported_alg");
    QTest::newRow("alg none signed") << tokenWithAlg(QStringLiteral("none"), tenantClaims())
                                     << false << QStringLiteral("unsupported_alg");
    QTest::newRow("alg HS512") << tokenWithAlg(QStringLiteral("HS512"), tenantClaims()) << false
                               << QStringLiteral("unsupported_alg");
    QTest::newRow("alg lower-case hs256") << tokenWithAlg(QStringLiteral("hs256"), tenantClaims())
                                          << false << QStringLiteral("unsupported_alg");
    QTest::newRow("alg missing") << rawToken(R"({"typ":"JWT"})", json(tenantClaims())) << false
                                 << QStringLiteral("unsupported_alg");
    QTest::newRow("crit header") << rawToken(R"({"alg":"HS256","crit":["x"],"x":1})",
                                             json(tenantClaims()))
                                 << false << QStringLiteral("unsupported_alg");

    QTest::newRow("empty") << QByteArray() << false << QStringLiteral("malformed");
    QTest::newRow("one part") << QByteArray("abc") << false << QStringLiteral("malformed");
    QTest::newRow("two parts") << QByteArray(parts.at(0) + '.' + parts.at(1)) << false
                               << QStringLiteral("malformed");
    QTest::newRow("four parts") << QByteArray(good + ".extra") << false
                                << QStringLiteral("malformed");
    QTest::newRow("bad base64 header") << QByteArray("e*J!." + parts.at(1) + '.' + parts.at(2))
                                       << false << QStringLiteral("malformed");
    QTest::newRow("padded header")
        << QByteArray(parts.at(0) + "==." + parts.at(1) + '.' + parts.at(2)) << false
        << QStringLiteral("malformed");
    QTest::newRow("impossible base64 length")
        << QByteArray("abcde." + parts.at(1) + '.' + parts.at(2)) << false
        << QStringLiteral("malformed");
    QTest::newRow("header not json")
        << rawToken("not json", json(tenantClaims())) << false << QStringLiteral("malformed");
    QTest::newRow("bad base64 payload") << QByteArray(parts.at(0) + ".pay$load." + parts.at(2))
                                        << false << QStringLiteral("malformed");
    QTest::newRow("payload is an array")
        << rawToken(json(hs256Header()), "[1,2,3]") << false << QStringLiteral("malformed");
    QTest::newRow("payload is a string")
        << rawToken(json(hs256Header()), R"("acme")") << false << QStringLiteral("malformed");
    QTest::newRow("payload not json")
        << rawToken(json(hs256Header()), "tenant=acme") << false << QStringLiteral("malformed");
    QTest::newRow("token too large")
        << token({{QStringLiteral("tenant_id"), QString(20000, QLatin1Char('a'))}}) << false
        << QStringLiteral("malformed");

    QTest::newRow("expired beyond skew")
        << token(withTimes(double(kNow - kSkew - 1), none)) << false << QStringLiteral("expired");
    QTest::newRow("expired long ago")
        << token(withTimes(double(kNow - 86400), none)) << false << QStringLiteral("expired");
    QTest::newRow("expired within skew")
        << token(withTimes(double(kNow - 10), none)) << false << QString();
    QTest::newRow("expired exactly at skew edge")
        << token(withTimes(double(kNow - kSkew), none)) << false << QString();
    QTest::newRow("exp is a string") << token(withTimes(QStringLiteral("tomorrow"), none)) << false
                                     << QStringLiteral("invalid_claims");

    QTest::newRow("nbf beyond skew") << token(withTimes(none, double(kNow + kSkew + 1))) << false
                                     << QStringLiteral("not_yet_valid");
    QTest::newRow("nbf within skew")
        << token(withTimes(none, double(kNow + 20))) << false << QString();
    QTest::newRow("nbf in the past")
        << token(withTimes(none, double(kNow - 5))) << false << QString();
    QTest::newRow("nbf is a string") << token(withTimes(none, QStringLiteral("now"))) << false
                                     << QStringLiteral("invalid_claims");
}

void tst_Authenticator::verifyJwt()
{
    QFETCH(QByteArray, jwt);
    QFETCH(bool, requireExp);
    QFETCH(QString, reason);

    const auto result = verifyHs256Jwt(jwt, kSecret, kNow, kSkew, requireExp);
    if (reason.isEmpty()) {
        QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().message));
        QCOMPARE(result.value().value(QStringLiteral("tenant_id")).toString(),
                 QStringLiteral("acme"));
        return;
    }
    QVERIFY(!result.ok());
    QCOMPARE(result.error().status, 401);
    QCOMPARE(result.error().code, QStringLiteral("unauthorized"));
    QCOMPARE(reasonOf(result.error()), reason);
    QVERIFY(!result.error().message.isEmpty());
}

void tst_Authenticator::verifyJwtEmptySecret()
{
    // A token "signed" with an empty key must not pass when the service has no secret.
    const QByteArray jwt = token(tenantClaims(), QByteArray());
    const auto result = verifyHs256Jwt(jwt, QByteArray(), kNow, kSkew, false);
    QVERIFY(!result.ok());
    QCOMPARE(result.error().status, 401);
    QCOMPARE(reasonOf(result.error()), QStringLiteral("not_configured"));
}

void tst_Authenticator::verifyJwtReturnsClaims()
{
    QJsonObject claims = tenantClaims();
    claims.insert(QStringLiteral("custom"), QJsonObject{{QStringLiteral("n"), 3}});
    const auto result = verifyHs256Jwt(token(claims), kSecret, kNow, kSkew, true);
    QVERIFY(result.ok());
    QCOMPARE(result.value(), claims);
}

void tst_Authenticator::offModeReturnsNoPrincipal()
{
    const Authenticator auth(configFor(AuthMode::Off));
    QCOMPARE(auth.mode(), AuthMode::Off);

    const auto empty = auth.authenticate({}, {}, kNow);
    QVERIFY(empty.ok());
    QVERIFY(!empty.value().has_value());

    // Credentials are ignored entirely, even bogus ones.
    const auto bogus = auth.authenticate("nope", "Bearer not.a.jwt", kNow);
    QVERIFY(bogus.ok());
    QVERIFY(!bogus.value().has_value());
}

void tst_Authenticator::apiKeyMode_data()
{
    QTest::addColumn<QByteArray>("apiKey");
    QTest::addColumn<QByteArray>("authorization");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("tenant");
    QTest::addColumn<QString>("agent");
    QTest::addColumn<QString>("team");
    QTest::addColumn<QString>("role");
    QTest::addColumn<QString>("reason");

    const QString none;
    QTest::newRow("full identity")
        << QByteArray("key-alpha") << QByteArray() << true << QStringLiteral("acme")
        << QStringLiteral("agent-a") << QStringLiteral("team-a") << QStringLiteral("admin") << none;
    QTest::newRow("tenant only") << QByteArray("key-beta") << QByteArray() << true
                                 << QStringLiteral("globex") << none << none << none << none;
    QTest::newRow("surrounding whitespace")
        << QByteArray("  key-beta\t") << QByteArray() << true << QStringLiteral("globex") << none
        << none << none << none;
    QTest::newRow("unknown key") << QByteArray("key-gamma") << QByteArray() << false << none << none
                                 << none << none << QStringLiteral("invalid_api_key");
    QTest::newRow("case differs") << QByteArray("KEY-ALPHA") << QByteArray() << false << none
                                  << none << none << none << QStringLiteral("invalid_api_key");
    QTest::newRow("prefix of key") << QByteArray("key-alph") << QByteArray() << false << none
                                   << none << none << none << QStringLiteral("invalid_api_key");
    QTest::newRow("missing key") << QByteArray() << QByteArray() << false << none << none << none
                                 << none << QStringLiteral("missing_api_key");
    QTest::newRow("bearer is not accepted")
        << QByteArray() << bearer(token(tenantClaims())) << false << none << none << none << none
        << QStringLiteral("missing_api_key");
}

void tst_Authenticator::apiKeyMode()
{
    QFETCH(QByteArray, apiKey);
    QFETCH(QByteArray, authorization);
    QFETCH(bool, ok);
    QFETCH(QString, tenant);
    QFETCH(QString, agent);
    QFETCH(QString, team);
    QFETCH(QString, role);
    QFETCH(QString, reason);

    const Authenticator auth(configFor(AuthMode::ApiKey));
    const auto result = auth.authenticate(apiKey, authorization, kNow);
    if (!ok) {
        QVERIFY(!result.ok());
        QCOMPARE(result.error().status, 401);
        QCOMPARE(result.error().code, QStringLiteral("unauthorized"));
        QCOMPARE(result.error().message, QStringLiteral("valid X-Api-Key is required"));
        QCOMPARE(reasonOf(result.error()), reason);
        return;
    }
    QVERIFY(result.ok());
    QVERIFY(result.value().has_value());
    const Principal &p = *result.value();
    QCOMPARE(p.tenantId, tenant);
    QCOMPARE(p.agentId, agent);
    QCOMPARE(p.teamId, team);
    QCOMPARE(p.role, role);
    QCOMPARE(p.method, QStringLiteral("api_key"));
}

void tst_Authenticator::jwtMode_data()
{
    QTest::addColumn<QByteArray>("apiKey");
    QTest::addColumn<QByteArray>("authorization");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QString>("tenant");
    QTest::addColumn<QString>("agent");
    QTest::addColumn<QString>("team");
    QTest::addColumn<QString>("role");
    QTest::addColumn<QString>("reason");

    const QString none;
    const double exp = double(kNow + 600);
    QTest::newRow("tenant_id and agent_id")
        << QByteArray() << bearer(token(tenantClaims())) << true << QStringLiteral("acme")
        << QStringLiteral("agent-7") << QStringLiteral("team-x") << QStringLiteral("writer")
        << none;
    QTest::newRow("tenant and sub")
        << QByteArray()
        << bearer(token({{QStringLiteral("tenant"), QStringLiteral("initech")},
                         {QStringLiteral("sub"), QStringLiteral("user-42")},
                         {QStringLiteral("exp"), exp}}))
        << true << QStringLiteral("initech") << QStringLiteral("user-42") << none << none << none;
    QTest::newRow("tenant_id wins over tenant, agent_id over sub")
        << QByteArray()
        << bearer(token({{QStringLiteral("tenant_id"), QStringLiteral("acme")},
                         {QStringLiteral("tenant"), QStringLiteral("other")},
                         {QStringLiteral("agent_id"), QStringLiteral("agent-1")},
                         {QStringLiteral("sub"), QStringLiteral("subject")}}))
        << true << QStringLiteral("acme") << QStringLiteral("agent-1") << none << none << none;
    QTest::newRow("lower-case scheme")
        << QByteArray() << QByteArray("bearer " + token(tenantClaims())) << true
        << QStringLiteral("acme") << QStringLiteral("agent-7") << QStringLiteral("team-x")
        << QStringLiteral("writer") << none;
    QTest::newRow("upper-case scheme, extra spaces")
        << QByteArray() << QByteArray("  BEARER   " + token(tenantClaims()) + "  ") << true
        << QStringLiteral("acme") << QStringLiteral("agent-7") << QStringLiteral("team-x")
        << QStringLiteral("writer") << none;
    QTest::newRow("api key is not accepted")
        << QByteArray("key-alpha") << QByteArray() << false << none << none << none << none
        << QStringLiteral("missing_bearer");
    QTest::newRow("missing header") << QByteArray() << QByteArray() << false << none << none << none
                                    << none << QStringLiteral("missing_bearer");
    QTest::newRow("scheme only") << QByteArray() << QByteArray("Bearer") << false << none << none
                                 << none << none << QStringLiteral("missing_bearer");
    QTest::newRow("basic scheme") << QByteArray() << QByteArray("Basic dXNlcjpwYXNz") << false
                                  << none << none << none << none
                                  << QStringLiteral("missing_bearer");
    QTest::newRow("token without scheme")
        << QByteArray() << token(tenantClaims()) << false << none << none << none << none
        << QStringLiteral("missing_bearer");
    QTest::newRow("bad signature")
        << QByteArray() << bearer(token(tenantClaims(), "wrong")) << false << none << none << none
        << none << QStringLiteral("bad_signature");
    QTest::newRow("alg none") << QByteArray()
                              << bearer(tokenWithAlg(QStringLiteral("none"), tenantClaims()))
                              << false << none << none << none << none
                              << QStringLiteral("unsupported_alg");
    QTest::newRow("expired") << QByteArray() << bearer(token(tenantClaims(kNow - 3600))) << false
                             << none << none << none << none << QStringLiteral("expired");
    QTest::newRow("missing tenant")
        << QByteArray() << bearer(token({{QStringLiteral("sub"), QStringLiteral("user-42")}}))
        << false << none << none << none << none << QStringLiteral("invalid_claims");
    QTest::newRow("blank tenant") << QByteArray()
                                  << bearer(token(
                                         {{QStringLiteral("tenant_id"), QStringLiteral("  ")}}))
                                  << false << none << none << none << none
                                  << QStringLiteral("invalid_claims");
    QTest::newRow("numeric tenant")
        << QByteArray() << bearer(token({{QStringLiteral("tenant_id"), 12}})) << false << none
        << none << none << none << QStringLiteral("invalid_claims");
    QTest::newRow("numeric team") << QByteArray()
                                  << bearer(token(
                                         {{QStringLiteral("tenant_id"), QStringLiteral("acme")},
                                          {QStringLiteral("team_id"), 5}}))
                                  << false << none << none << none << none
                                  << QStringLiteral("invalid_claims");
}

void tst_Authenticator::jwtMode()
{
    QFETCH(QByteArray, apiKey);
    QFETCH(QByteArray, authorization);
    QFETCH(bool, ok);
    QFETCH(QString, tenant);
    QFETCH(QString, agent);
    QFETCH(QString, team);
    QFETCH(QString, role);
    QFETCH(QString, reason);

    const Authenticator auth(configFor(AuthMode::Jwt));
    const auto result = auth.authenticate(apiKey, authorization, kNow);
    if (!ok) {
        QVERIFY(!result.ok());
        QCOMPARE(result.error().status, 401);
        QCOMPARE(result.error().code, QStringLiteral("unauthorized"));
        QCOMPARE(reasonOf(result.error()), reason);
        if (reason == QLatin1String("missing_bearer"))
            QCOMPARE(result.error().message,
                     QStringLiteral("Authorization: Bearer <jwt> is required"));
        return;
    }
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().message));
    QVERIFY(result.value().has_value());
    const Principal &p = *result.value();
    QCOMPARE(p.tenantId, tenant);
    QCOMPARE(p.agentId, agent);
    QCOMPARE(p.teamId, team);
    QCOMPARE(p.role, role);
    QCOMPARE(p.method, QStringLiteral("jwt"));
}

void tst_Authenticator::productionRequiresExp_data()
{
    QTest::addColumn<bool>("production");
    QTest::addColumn<bool>("withExp");
    QTest::addColumn<bool>("ok");

    QTest::newRow("dev, no exp") << false << false << true;
    QTest::newRow("dev, exp") << false << true << true;
    QTest::newRow("prod, no exp") << true << false << false;
    QTest::newRow("prod, exp") << true << true << true;
}

void tst_Authenticator::productionRequiresExp()
{
    QFETCH(bool, production);
    QFETCH(bool, withExp);
    QFETCH(bool, ok);

    ServiceConfig config = configFor(AuthMode::Jwt);
    config.production = production;
    const Authenticator auth(config);

    QJsonObject claims{{QStringLiteral("tenant_id"), QStringLiteral("acme")}};
    if (withExp)
        claims.insert(QStringLiteral("exp"), double(kNow + 60));
    const auto result = auth.authenticate({}, bearer(token(claims)), kNow);
    QCOMPARE(result.ok(), ok);
    if (ok) {
        QCOMPARE(result.value()->tenantId, QStringLiteral("acme"));
    } else {
        QCOMPARE(result.error().status, 401);
        QCOMPARE(reasonOf(result.error()), QStringLiteral("missing_exp"));
    }
}

void tst_Authenticator::apiKeyOrJwt_data()
{
    QTest::addColumn<QByteArray>("apiKey");
    QTest::addColumn<QByteArray>("authorization");
    QTest::addColumn<QString>("method"); // empty = must fail
    QTest::addColumn<QString>("tenant");
    QTest::addColumn<QString>("reason");

    const QString none;
    const QByteArray goodBearer = bearer(token(tenantClaims()));
    const QByteArray expiredBearer = bearer(token(tenantClaims(kNow - 3600)));
    QTest::newRow("key only") << QByteArray("key-alpha") << QByteArray()
                              << QStringLiteral("api_key") << QStringLiteral("acme") << none;
    QTest::newRow("token only") << QByteArray() << goodBearer << QStringLiteral("jwt")
                                << QStringLiteral("acme") << none;
    QTest::newRow("unknown key falls through to token")
        << QByteArray("key-gamma") << goodBearer << QStringLiteral("jwt") << QStringLiteral("acme")
        << none;
    QTest::newRow("known key wins over token")
        << QByteArray("key-beta") << goodBearer << QStringLiteral("api_key")
        << QStringLiteral("globex") << none;
    QTest::newRow("known key wins over bad token")
        << QByteArray("key-beta") << expiredBearer << QStringLiteral("api_key")
        << QStringLiteral("globex") << none;
    QTest::newRow("neither") << QByteArray() << QByteArray() << none << none
                             << QStringLiteral("missing_credentials");
    QTest::newRow("unknown key, no token") << QByteArray("key-gamma") << QByteArray() << none
                                           << none << QStringLiteral("invalid_api_key");
    QTest::newRow("unknown key, expired token")
        << QByteArray("key-gamma") << expiredBearer << none << none << QStringLiteral("expired");
    QTest::newRow("no key, forged token") << QByteArray() << bearer(token(tenantClaims(), "forged"))
                                          << none << none << QStringLiteral("bad_signature");
}

void tst_Authenticator::apiKeyOrJwt()
{
    QFETCH(QByteArray, apiKey);
    QFETCH(QByteArray, authorization);
    QFETCH(QString, method);
    QFETCH(QString, tenant);
    QFETCH(QString, reason);

    const Authenticator auth(configFor(AuthMode::ApiKeyOrJwt));
    const auto result = auth.authenticate(apiKey, authorization, kNow);
    if (method.isEmpty()) {
        QVERIFY(!result.ok());
        QCOMPARE(result.error().status, 401);
        QCOMPARE(result.error().code, QStringLiteral("unauthorized"));
        QCOMPARE(reasonOf(result.error()), reason);
        // The message names both ways in.
        QVERIFY2(result.error().message.contains(QLatin1String("X-Api-Key")),
                 qPrintable(result.error().message));
        QVERIFY2(result.error().message.contains(QLatin1String("Authorization: Bearer")),
                 qPrintable(result.error().message));
        return;
    }
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().message));
    QVERIFY(result.value().has_value());
    QCOMPARE(result.value()->method, method);
    QCOMPARE(result.value()->tenantId, tenant);
}

void tst_Authenticator::errorsDoNotLeakSecrets()
{
    const Authenticator auth(configFor(AuthMode::ApiKeyOrJwt));
    const QByteArray expired = token(tenantClaims(kNow - 3600));
    const QByteArray forged = token(tenantClaims(), "forged");
    const QList<QPair<QByteArray, QByteArray>> attempts{
        {QByteArray("key-gamma-secretish"), bearer(expired)},
        {QByteArray(), bearer(forged)},
        {QByteArray("key-alph"), QByteArray("Bearer a.b.c")},
    };
    for (const auto &[key, authorization] : attempts) {
        const auto result = auth.authenticate(key, authorization, kNow);
        QVERIFY(!result.ok());
        const QString text = result.error().message
                             + QString::fromUtf8(QJsonDocument(result.error().details).toJson());
        QVERIFY(!text.contains(QString::fromLatin1(kSecret)));
        if (!key.isEmpty())
            QVERIFY(!text.contains(QString::fromLatin1(key)));
        const QByteArray jwt = authorization.mid(7);
        for (const QByteArray &segment : jwt.split('.')) {
            if (segment.size() > 2)
                QVERIFY2(!text.contains(QString::fromLatin1(segment)), qPrintable(text));
        }
    }
}

void tst_Authenticator::adminToken_data()
{
    QTest::addColumn<QString>("configured");
    QTest::addColumn<QByteArray>("presented");
    QTest::addColumn<bool>("matches");

    const QString admin = QStringLiteral("s3cr3t-admin-token");
    QTest::newRow("match") << admin << QByteArray("s3cr3t-admin-token") << true;
    QTest::newRow("mismatch") << admin << QByteArray("s3cr3t-admin-tokeN") << false;
    QTest::newRow("prefix") << admin << QByteArray("s3cr3t-admin") << false;
    QTest::newRow("longer") << admin << QByteArray("s3cr3t-admin-token!") << false;
    QTest::newRow("empty presented") << admin << QByteArray() << false;
    QTest::newRow("unset, empty presented") << QString() << QByteArray() << false;
    QTest::newRow("unset, something presented") << QString() << QByteArray("anything") << false;
    QTest::newRow("non-ascii match")
        << QStringLiteral("tök€n") << QStringLiteral("tök€n").toUtf8() << true;
}

void tst_Authenticator::adminToken()
{
    QFETCH(QString, configured);
    QFETCH(QByteArray, presented);
    QFETCH(bool, matches);

    ServiceConfig config = configFor(AuthMode::ApiKey);
    config.adminToken = configured;
    const Authenticator auth(config);
    QCOMPARE(auth.adminTokenMatches(presented), matches);
}

QTEST_GUILESS_MAIN(tst_Authenticator)
#include "tst_authenticator.moc"
