// POST /v1/memory/tools/runs/list over real HTTP (reference §3.5, plus the filters and keyset
// paging this service adds): the runs of a scope with their decision and feedback counts, newest
// first; validation naming the field; tenant isolation through the credential.

#include "tests/http/rulestestdata.h"

#include <QDateTime>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace MemoryGraph::Test::Rules;

namespace {

const QString kKeys = QStringLiteral(
    R"({"k1":{"tenant_id":"acme","agent_id":"agent-a"},"k2":{"tenant_id":"globex","agent_id":"agent-b"}})");

const QJsonObject kContext{{QStringLiteral("task"), QStringLiteral("fix")}};

QJsonArray candidates()
{
    return strs({"shell", "editor", "browser"});
}

QStringList runIds(const Reply &r)
{
    QStringList ids;
    for (const QJsonValue &v : r.json.value(s("items")).toArray())
        ids << v.toObject().value(s("run_id")).toString();
    return ids;
}

QJsonObject item(const Reply &r, const QString &runId)
{
    for (const QJsonValue &v : r.json.value(s("items")).toArray()) {
        if (v.toObject().value(s("run_id")).toString() == runId)
            return v.toObject();
    }
    return {};
}

Reply list(RuleApi &api, const QJsonObject &body = {})
{
    return api.post("/v1/memory/tools/runs/list", body);
}

} // namespace

class tst_HttpToolRuns : public QObject
{
    Q_OBJECT

private slots:
    void listsRunsWithCounts();
    void filters();
    void pagesWithCursor();
    void emptyScopeIsAnEmptyList();
    void validation_data();
    void validation();
    void tenantIsolation();
};

void tst_HttpToolRuns::listsRunsWithCounts()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString rule = api.add(RuleNode(s("prefer-editor"))
                                     .when(obj({{"task", s("fix")}}))
                                     .then(obj({{"tool", obj({{"prefer", strs({"editor"})}})}})));
    QVERIFY2(!rule.isEmpty(), api.last.describe());

    Reply first = api.select(kContext, candidates(), obj({{"run_id", s("run-1")}}));
    QCOMPARE(first.status, 200);
    QCOMPARE(api.select(kContext, candidates(), obj({{"run_id", s("run-1")}})).status, 200);
    QCOMPARE(api.select(kContext, candidates()).status, 200); // no run_id: never listed
    QCOMPARE(api.select(obj({{"task", s("browse")}}), candidates(), obj({{"run_id", s("run-2")}}))
                 .status,
             200);
    const Reply fb = api.feedback(
        kContext, candidates(), s("editor"), s("negative"),
        obj({{"run_id", s("run-1")},
             {"decision_id", first.json.value(s("decision")).toObject().value(s("decision_id"))}}));
    QVERIFY2(fb.status == 200, fb.describe());

    const Reply r = list(api);
    QVERIFY2(r.status == 200, r.describe());
    QCOMPARE(keysOf(r.json), keyList({"tenant_id", "scope", "items", "next_cursor"}));
    QCOMPARE(r.json.value(s("tenant_id")).toString(), s("default"));
    QVERIFY(r.json.value(s("next_cursor")).isNull());
    QCOMPARE(runIds(r), (QStringList{s("run-2"), s("run-1")})); // latest decision first

    const QJsonObject one = item(r, s("run-1"));
    QCOMPARE(keysOf(one),
             keyList({"run_id", "status", "decision_count", "feedback_total", "feedback_by_outcome",
                      "latest_decision_at", "latest_feedback_at", "latest_selected_tool"}));
    QCOMPARE(one.value(s("status")).toString(), s("feedback_linked"));
    QCOMPARE(one.value(s("decision_count")).toInt(), 2);
    QCOMPARE(one.value(s("feedback_total")).toInt(), 1);
    QCOMPARE(jsonText(one.value(s("feedback_by_outcome"))),
             jsonText(obj({{"positive", 0}, {"negative", 1}, {"neutral", 0}})));
    QCOMPARE(one.value(s("latest_selected_tool")).toString(), s("editor"));
    QVERIFY(QDateTime::fromString(one.value(s("latest_feedback_at")).toString(), Qt::ISODateWithMs)
                .isValid());

    const QJsonObject two = item(r, s("run-2"));
    QCOMPARE(two.value(s("status")).toString(), s("decision_recorded"));
    QCOMPARE(two.value(s("decision_count")).toInt(), 1);
    QCOMPARE(two.value(s("feedback_total")).toInt(), 0);
    QVERIFY(two.value(s("latest_feedback_at")).isNull());
    QCOMPARE(two.value(s("latest_selected_tool")).toString(), s("shell")); // no rule matched

    // The counts agree with tools/run for the same run.
    const Reply run = api.run(obj({{"run_id", s("run-1")}}));
    QCOMPARE(run.json.value(s("lifecycle")).toObject().value(s("decision_count")).toInt(), 2);
    QCOMPARE(run.json.value(s("feedback")).toObject().value(s("total")).toInt(), 1);
}

void tst_HttpToolRuns::filters()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString rule = api.add(RuleNode(s("prefer-editor"))
                                     .when(obj({{"task", s("fix")}}))
                                     .then(obj({{"tool", obj({{"prefer", strs({"editor"})}})}})));
    QVERIFY2(!rule.isEmpty(), api.last.describe());
    QCOMPARE(api.select(kContext, candidates(), obj({{"run_id", s("fixing")}})).status, 200);
    QCOMPARE(api.select(obj({{"task", s("look")}}), candidates(), obj({{"run_id", s("looking")}}))
                 .status,
             200);
    QCOMPARE(api.feedback(kContext, candidates(), s("editor"), s("positive"),
                          obj({{"run_id", s("fixing")}}))
                 .status,
             200);

    QCOMPARE(runIds(list(api, obj({{"status", s("feedback_linked")}}))), QStringList{s("fixing")});
    QCOMPARE(runIds(list(api, obj({{"status", s("decision_recorded")}}))),
             QStringList{s("looking")});
    QCOMPARE(runIds(list(api, obj({{"selected_tool", s("shell")}}))), QStringList{s("looking")});
    QCOMPARE(runIds(list(api, obj({{"selected_tool", s("nothing")}}))), QStringList());

    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString past = now.addSecs(-3600).toString(Qt::ISODateWithMs);
    const QString future = now.addSecs(3600).toString(Qt::ISODateWithMs);
    QCOMPARE(runIds(list(api, obj({{"since", past}}))).size(), 2);
    QCOMPARE(runIds(list(api, obj({{"since", future}}))), QStringList());
    QCOMPARE(runIds(list(api, obj({{"until", past}}))), QStringList());
    QCOMPARE(runIds(list(api, obj({{"until", future}, {"status", s("feedback_linked")}}))),
             QStringList{s("fixing")});
}

void tst_HttpToolRuns::pagesWithCursor()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QStringList expected;
    for (int i = 0; i < 5; ++i) {
        const QString run = s("run-%1").arg(i);
        QCOMPARE(api.select(kContext, candidates(), obj({{"run_id", run}})).status, 200);
        expected.prepend(run);
    }
    QCOMPARE(runIds(list(api)), expected);

    QStringList seen;
    QJsonObject body = obj({{"limit", 2}});
    QList<int> pageSizes;
    for (int page = 0; page < 5; ++page) {
        const Reply r = list(api, body);
        QVERIFY2(r.status == 200, r.describe());
        pageSizes << int(r.json.value(s("items")).toArray().size());
        seen << runIds(r);
        if (r.json.value(s("next_cursor")).isNull())
            break;
        body.insert(s("cursor"), r.json.value(s("next_cursor")));
    }
    QCOMPARE(pageSizes, (QList<int>{2, 2, 1}));
    QCOMPARE(seen, expected);

    // A run that gets a newer decision moves to the top of the next first page.
    QCOMPARE(api.select(kContext, candidates(), obj({{"run_id", s("run-0")}})).status, 200);
    QCOMPARE(runIds(list(api, obj({{"limit", 1}}))), QStringList{s("run-0")});
}

void tst_HttpToolRuns::emptyScopeIsAnEmptyList()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QCOMPARE(api.select(kContext, candidates(), obj({{"run_id", s("elsewhere")}})).status, 200);
    const Reply r = list(api, obj({{"scope", s("quiet")}}));
    QVERIFY2(r.status == 200, r.describe());
    QCOMPARE(r.json.value(s("scope")).toString(), s("quiet"));
    QCOMPARE(r.json.value(s("items")).toArray().size(), 0);
    QVERIFY(r.json.value(s("next_cursor")).isNull());
}

void tst_HttpToolRuns::validation_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("path");
    QTest::newRow("limit 0") << obj({{"limit", 0}}) << s("limit");
    QTest::newRow("limit 201") << obj({{"limit", 201}}) << s("limit");
    QTest::newRow("limit text") << obj({{"limit", s("ten")}}) << s("limit");
    QTest::newRow("status unknown") << obj({{"status", s("done")}}) << s("status");
    QTest::newRow("since without zone") << obj({{"since", s("2025-03-03T10:00:00")}}) << s("since");
    QTest::newRow("until garbage") << obj({{"until", s("yesterday")}}) << s("until");
    QTest::newRow("cursor garbage") << obj({{"cursor", s("%%%")}}) << s("cursor");
    QTest::newRow("cursor not ours") << obj({{"cursor", s("bm9wZQ")}}) << s("cursor");
}

void tst_HttpToolRuns::validation()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, path);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const Reply r = list(api, body);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), s("invalid_request"));
    QCOMPARE(r.issuePath(), path);
}

void tst_HttpToolRuns::tenantIsolation()
{
    HttpTestServer server(
        environment({{"MEMORY_AUTH_MODE", s("api_key")}, {"MEMORY_API_KEYS_JSON", kKeys}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi acme(server, {{QByteArrayLiteral("X-Api-Key"), QByteArrayLiteral("k1")}});
    RuleApi globex(server, {{QByteArrayLiteral("X-Api-Key"), QByteArrayLiteral("k2")}});
    RuleApi anonymous(server);
    QCOMPARE(acme.select(kContext, candidates(), obj({{"run_id", s("acme-run")}})).status, 200);
    QCOMPARE(globex.select(kContext, candidates(), obj({{"run_id", s("globex-run")}})).status, 200);

    Reply r = list(acme);
    QVERIFY2(r.status == 200, r.describe());
    QCOMPARE(r.json.value(s("tenant_id")).toString(), s("acme"));
    QCOMPARE(runIds(r), QStringList{s("acme-run")});
    QCOMPARE(runIds(list(globex)), QStringList{s("globex-run")});

    r = list(acme, obj({{"tenant_id", s("globex")}}));
    QCOMPARE(r.status, 403);
    r = list(anonymous);
    QCOMPARE(r.status, 401);
}

QTEST_GUILESS_MAIN(tst_HttpToolRuns)
#include "tst_httptoolruns.moc"
