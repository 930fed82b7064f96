// The shared caller defaults and field readers the engines use: who a read is made for, who a
// commit is attributed to, and the request fields parsed the same way everywhere.
#include "service/access/callscope.h"
#include "service/access/viewer.h"
#include "service/api/requestfields.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/slotvalues.h"

#include <QJsonArray>
#include <QTest>

using namespace MemoryGraph;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

RequestMeta withPrincipal(const QString &agentId, const QString &teamId)
{
    RequestMeta meta;
    meta.principal = Principal{s("acme"), agentId, teamId, s("agent"), s("api_key")};
    return meta;
}

NodeRecord privateNode(const QString &ownerAgent, const QString &ownerTeam)
{
    NodeRecord n;
    n.memoryLane = s("private");
    n.ownerAgentId = ownerAgent;
    n.ownerTeamId = ownerTeam;
    return n;
}

QString firstIssuePath(const Error &error)
{
    return error.details.value(s("issues"))
        .toArray()
        .first()
        .toObject()
        .value(s("path"))
        .toString();
}

} // namespace

class tst_CallerDefaults : public QObject
{
    Q_OBJECT

private slots:
    void viewerSeesSharedAndOwnedPrivateNodes()
    {
        const Viewer viewer{s("agent-a"), s("team-t")};
        NodeRecord shared;
        shared.memoryLane = s("shared");
        QVERIFY(viewer.sees(shared));
        QVERIFY(viewer.sees(privateNode(s("agent-a"), QString())));
        QVERIFY(viewer.sees(privateNode(s("agent-b"), s("team-t"))));
        QVERIFY(!viewer.sees(privateNode(s("agent-b"), s("team-u"))));
        // An anonymous viewer does not match nodes without an owner.
        QVERIFY(!Viewer{}.sees(privateNode(QString(), QString())));
    }

    void viewerDefaultsFromCredentialAndRefusesMismatch()
    {
        ServiceConfig config;
        const RequestMeta meta = withPrincipal(s("agent-a"), s("team-t"));
        auto defaulted = resolveViewer(QString(), QString(), meta, config);
        QVERIFY(defaulted.ok());
        QCOMPARE(defaulted.value().agentId, s("agent-a"));
        QCOMPARE(defaulted.value().teamId, s("team-t"));

        auto mismatch = resolveViewer(s("agent-b"), QString(), meta, config);
        QVERIFY(!mismatch.ok());
        QCOMPARE(mismatch.error().status, 403);
        QCOMPARE(mismatch.error().code, s("identity_mismatch"));
        QCOMPARE(mismatch.error().details.value(s("field")).toString(), s("consumer_agent_id"));

        auto teamMismatch = resolveViewer(QString(), s("team-u"), meta, config);
        QVERIFY(!teamMismatch.ok());
        QCOMPARE(teamMismatch.error().details.value(s("field")).toString(), s("consumer_team_id"));
    }

    void viewerWithoutCredentialIsTheLocalAgentOnlyWithAuthOff()
    {
        ServiceConfig config;
        config.localAgentId = s("desk");
        auto local = resolveViewer(QString(), s("team-t"), RequestMeta(), config);
        QVERIFY(local.ok());
        QCOMPARE(local.value().agentId, s("desk"));
        QCOMPARE(local.value().teamId, s("team-t"));

        config.authMode = AuthMode::ApiKey;
        auto anonymous = resolveViewer(QString(), QString(), RequestMeta(), config);
        QVERIFY(anonymous.ok());
        QVERIFY(anonymous.value().agentId.isEmpty());
    }

    void actorPrecedence()
    {
        ServiceConfig config;
        config.localAgentId = s("desk");
        // With a credential the actor is its identity; a given actor is only a label.
        QCOMPARE(commitActor(s("given"), withPrincipal(s("agent-a"), QString()), config).id,
                 s("agent-a"));
        QCOMPARE(commitActor(s("given"), withPrincipal(s("agent-a"), QString()), config).label,
                 s("given"));
        QCOMPARE(commitActor(QString(), withPrincipal(s("agent-a"), QString()), config).id,
                 s("agent-a"));
        QCOMPARE(commitActor(s("given"), RequestMeta(), config).id, s("given"));
        QCOMPARE(commitActor(QString(), RequestMeta(), config).id, s("desk"));
        // A credential without an agent is named by its team.
        config.authMode = AuthMode::ApiKey;
        QCOMPARE(commitActor(QString(), withPrincipal(QString(), s("team-t")), config).id,
                 s("team:team-t"));
        QCOMPARE(commitActor(QString(), RequestMeta(), config).id, s("system"));
    }

    void commitInputNeedsTextOrDigest()
    {
        QString text, sha;
        JsonReader missing(QJsonObject{{s("other"), 1}});
        QVERIFY(!readCommitInput(missing, &text, &sha));
        QCOMPARE(missing.error().status, 400);
        QCOMPARE(firstIssuePath(missing.error()), s("input_text"));

        JsonReader given(QJsonObject{{s("input_sha256"), s("abc")}});
        QVERIFY(readCommitInput(given, &text, &sha));
        QCOMPARE(sha, s("abc"));
        QVERIFY(text.isEmpty());
    }

    void optionalFieldsKeepTheirDefaults()
    {
        bool flag = true;
        int limit = 7;
        QString id;
        JsonReader absent(QJsonObject{});
        QVERIFY(readFlag(absent, "flag", &flag));
        QVERIFY(readInt(absent, "limit", &limit, 1, 10));
        QVERIFY(readUuid(absent, "id", &id));
        QVERIFY(flag);
        QCOMPARE(limit, 7);
        QVERIFY(id.isEmpty());

        JsonReader given(QJsonObject{{s("flag"), false},
                                     {s("limit"), 3},
                                     {s("id"), s("0F8FAD5B-D9CB-469F-A165-70867728950E")}});
        QVERIFY(readFlag(given, "flag", &flag));
        QVERIFY(readInt(given, "limit", &limit, 1, 10));
        QVERIFY(readUuid(given, "id", &id));
        QVERIFY(!flag);
        QCOMPARE(limit, 3);
        QCOMPARE(id, s("0f8fad5b-d9cb-469f-a165-70867728950e"));
    }

    void uuidFieldsAreCheckedAndCanBeRequired()
    {
        QString id;
        JsonReader bad(QJsonObject{{s("id"), s("not-a-uuid")}});
        QVERIFY(!readUuid(bad, "id", &id));
        QCOMPARE(firstIssuePath(bad.error()), s("id"));

        JsonReader absent(QJsonObject{});
        QVERIFY(!readUuid(absent, "id", &id, true));
        QCOMPARE(firstIssuePath(absent.error()), s("id"));
    }

    void slotNumbersAcceptNumbersAndNumericStrings()
    {
        QCOMPARE(slotNumber(QJsonValue(0.25)), std::optional<double>(0.25));
        QCOMPARE(slotNumber(QJsonValue(s(" 3 "))), std::optional<double>(3.0));
        QVERIFY(!slotNumber(QJsonValue(s("many"))));
        QVERIFY(!slotNumber(QJsonValue(s("inf"))));
        QVERIFY(!slotNumber(QJsonValue()));
        QVERIFY(!slotNumber(QJsonValue(true)));
    }
};

QTEST_APPLESS_MAIN(tst_CallerDefaults)
#include "tst_callerdefaults.moc"
