#include "service/rules/policymerge.h"
#include "service/rules/toolpolicy.h"

#include <QJsonDocument>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Rules;

namespace {

QJsonObject obj(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

QJsonArray jsonArray(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).array();
}

QStringList names(const QJsonArray &denied)
{
    QStringList out;
    for (const QJsonValue &d : denied)
        out.append(d.toObject().value(u"name").toString());
    return out;
}

} // namespace

class tst_ToolPolicy : public QObject
{
    Q_OBJECT

private slots:
    void normalizeCandidates();
    void selectorAcceptanceCase();
    void noPolicyKeepsCandidateOrder();
    void preferOnlyAllowedInPreferOrder();
    void strictBlocks_data();
    void strictBlocks();
    void fallbackIgnoresAllowlist();
    void fallbackDenyFilteredAll();
    void fallbackAfterAllowlistStillEmpty();
    void emptyIntersectionBlocks();
    void noFallbackWhenAllowed();
    void selectionJson();
};

void tst_ToolPolicy::normalizeCandidates()
{
    QCOMPARE(
        Rules::normalizeCandidates(jsonArray(R"([" rm ","curl","","  ","psql","psql","rm",5])")),
        (QStringList{"rm", "curl", "psql"}));
    QVERIFY(Rules::normalizeCandidates(QJsonArray()).isEmpty());
}

void tst_ToolPolicy::selectorAcceptanceCase()
{
    // Reference acceptance case 2.
    const auto r = applyToolPolicy(
        {"rm", "curl", "psql", "psql"},
        obj(R"({"tool":{"allow":["psql","curl"],"deny":["rm"],"prefer":["psql"]}})"), true);
    QVERIFY(r.ok());
    const ToolSelection &s = r.value();
    QCOMPARE(s.candidates, (QStringList{"rm", "curl", "psql"}));
    QCOMPARE(s.allowed, (QStringList{"curl", "psql"}));
    QCOMPARE(s.denied, jsonArray(R"([{"name":"rm","reason":"deny_list"}])"));
    QCOMPARE(s.preferred, QStringList{"psql"});
    QCOMPARE(s.ordered, (QStringList{"psql", "curl"}));
    QCOMPARE(s.selected, QStringLiteral("psql"));
    QVERIFY(s.fallback.isEmpty());
}

void tst_ToolPolicy::noPolicyKeepsCandidateOrder()
{
    const auto r = applyToolPolicy({"b", "a", "c"}, obj(R"({"tool":{}})"), true);
    QVERIFY(r.ok());
    QCOMPARE(r.value().allowed, (QStringList{"b", "a", "c"}));
    QCOMPARE(r.value().ordered, (QStringList{"b", "a", "c"}));
    QCOMPARE(r.value().selected, QStringLiteral("b"));
    QVERIFY(r.value().denied.isEmpty());
    QVERIFY(r.value().preferred.isEmpty());
    // A policy without "tool" at all behaves the same.
    QCOMPARE(applyToolPolicy({"x"}, QJsonObject(), true).value().selected, QStringLiteral("x"));
}

void tst_ToolPolicy::preferOnlyAllowedInPreferOrder()
{
    const auto r = applyToolPolicy(
        {"a", "b", "c", "d", "e"},
        obj(R"({"tool":{"allow":["a","b","c","d"],"deny":["c"],"prefer":["d","zz","c","b"]}})"),
        true);
    QVERIFY(r.ok());
    const ToolSelection &s = r.value();
    QCOMPARE(
        s.denied,
        jsonArray(
            R"([{"name":"c","reason":"deny_list"},{"name":"e","reason":"not_in_allow_list"}])"));
    QCOMPARE(s.allowed, (QStringList{"a", "b", "d"}));
    QCOMPARE(s.preferred, (QStringList{"d", "b"}));
    QCOMPARE(s.ordered, (QStringList{"d", "b", "a"}));
    QCOMPARE(s.selected, QStringLiteral("d"));
}

void tst_ToolPolicy::strictBlocks_data()
{
    QTest::addColumn<QStringList>("candidates");
    QTest::addColumn<QByteArray>("policy");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("allowCount");
    QTest::addColumn<int>("denyCount");
    QTest::newRow("allowlist excludes all (acceptance case 3)")
        << QStringList{"psql", "curl"}
        << QByteArray(R"({"tool":{"allow":["nonexistent"],"deny":["curl"],"prefer":["psql"]}})")
        << "no candidates remain after allow/deny filters" << 1 << 1;
    QTest::newRow("deny excludes all")
        << QStringList{"rm", "dd"} << QByteArray(R"({"tool":{"deny":["rm","dd","mkfs"]}})")
        << "no candidates remain after deny filters" << 0 << 3;
    QTest::newRow("allow and deny together")
        << QStringList{"a", "b"} << QByteArray(R"({"tool":{"allow":["a"],"deny":["a"]}})")
        << "no candidates remain after allow/deny filters" << 1 << 1;
}

void tst_ToolPolicy::strictBlocks()
{
    QFETCH(QStringList, candidates);
    QFETCH(QByteArray, policy);
    QFETCH(QString, message);
    QFETCH(int, allowCount);
    QFETCH(int, denyCount);
    const auto r = applyToolPolicy(candidates, QJsonDocument::fromJson(policy).object(), true);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().status, 400);
    QCOMPARE(r.error().code, QStringLiteral("no_tools_allowed"));
    QCOMPARE(r.error().message, message);
    const QJsonObject expected{{QStringLiteral("candidates"), candidates.size()},
                               {QStringLiteral("allow"), allowCount},
                               {QStringLiteral("deny"), denyCount}};
    QCOMPARE(r.error().details, expected);
}

void tst_ToolPolicy::fallbackIgnoresAllowlist()
{
    // Reference acceptance case 3 with strict=false.
    const auto r = applyToolPolicy(
        {"psql", "curl"},
        obj(R"({"tool":{"allow":["nonexistent"],"deny":["curl"],"prefer":["psql"]}})"), false);
    QVERIFY(r.ok());
    const ToolSelection &s = r.value();
    QCOMPARE(s.allowed, QStringList{"psql"});
    // The denied list is the deny-only result: psql is no longer reported as not allowed.
    QCOMPARE(s.denied, jsonArray(R"([{"name":"curl","reason":"deny_list"}])"));
    QCOMPARE(s.selected, QStringLiteral("psql"));
    QCOMPARE(
        s.fallback,
        obj(R"({"applied":true,"reason":"allowlist_filtered_all","effective_mode":"deny_only"})"));
}

void tst_ToolPolicy::fallbackDenyFilteredAll()
{
    const auto r
        = applyToolPolicy({"rm"}, obj(R"({"tool":{"deny":["rm"],"prefer":["rm"]}})"), false);
    QVERIFY(r.ok());
    const ToolSelection &s = r.value();
    QVERIFY(s.allowed.isEmpty());
    QVERIFY(s.ordered.isEmpty());
    QVERIFY(s.preferred.isEmpty());
    QVERIFY(s.selected.isEmpty());
    QCOMPARE(names(s.denied), QStringList{"rm"});
    QCOMPARE(s.fallback,
             obj(R"({"applied":true,"reason":"deny_filtered_all","effective_mode":"deny_only"})"));
}

void tst_ToolPolicy::fallbackAfterAllowlistStillEmpty()
{
    const auto r
        = applyToolPolicy({"a", "b"}, obj(R"({"tool":{"allow":["c"],"deny":["a","b"]}})"), false);
    QVERIFY(r.ok());
    QVERIFY(r.value().selected.isEmpty());
    QCOMPARE(r.value().fallback.value(u"reason"), QJsonValue("deny_filtered_all"));
    QCOMPARE(r.value().denied,
             jsonArray(R"([{"name":"a","reason":"deny_list"},{"name":"b","reason":"deny_list"}])"));
}

void tst_ToolPolicy::emptyIntersectionBlocks()
{
    // Two rules whose allowlists share nothing: the spec's hard allowlist admits no candidate.
    MatchedRule a;
    a.ruleNodeId = QStringLiteral("a");
    a.patch = obj(R"({"tool":{"allow":["psql"]}})");
    a.rank.score = 1;
    MatchedRule b;
    b.ruleNodeId = QStringLiteral("b");
    b.patch = obj(R"({"tool":{"allow":["curl"]}})");
    b.rank.score = 2;
    const MergedPolicy merged = mergePolicies({a, b});

    const auto strict = applyToolPolicy({"psql", "curl"}, merged.policy, true);
    QVERIFY(!strict.ok());
    QCOMPARE(strict.error().code, QStringLiteral("no_tools_allowed"));
    QCOMPARE(strict.error().details.value(u"allow"), QJsonValue(0));

    const auto lenient = applyToolPolicy({"psql", "curl"}, merged.policy, false);
    QVERIFY(lenient.ok());
    QCOMPARE(lenient.value().fallback.value(u"reason"), QJsonValue("allowlist_filtered_all"));
    QCOMPARE(lenient.value().selected, QStringLiteral("psql"));
}

void tst_ToolPolicy::noFallbackWhenAllowed()
{
    const auto r = applyToolPolicy({"a"}, obj(R"({"tool":{"allow":["a"]}})"), false);
    QVERIFY(r.ok());
    QVERIFY(r.value().fallback.isEmpty());
    QVERIFY(!r.value().toJson().contains(u"fallback"));
}

void tst_ToolPolicy::selectionJson()
{
    const auto ok = applyToolPolicy({"rm", "psql"}, obj(R"({"tool":{"deny":["rm"]}})"), true);
    QCOMPARE(ok.value().toJson(),
             obj(R"({"candidates":["rm","psql"],"allowed":["psql"],)"
                 R"("denied":[{"name":"rm","reason":"deny_list"}],"preferred":[],)"
                 R"("ordered":["psql"],"selected":"psql"})"));
    const auto none = applyToolPolicy({"rm"}, obj(R"({"tool":{"deny":["rm"]}})"), false);
    const QJsonObject json = none.value().toJson();
    QVERIFY(json.value(u"selected").isNull());
    QCOMPARE(json.value(u"fallback").toObject().value(u"applied"), QJsonValue(true));
}

QTEST_GUILESS_MAIN(tst_ToolPolicy)
#include "tst_toolpolicy.moc"
