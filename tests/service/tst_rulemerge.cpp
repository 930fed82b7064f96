#include "service/rules/policymerge.h"

#include <QJsonDocument>
#include <QTest>

using namespace MemoryGraph::Rules;

namespace {

QJsonObject obj(const char *text)
{
    return QJsonDocument::fromJson(QByteArray(text)).object();
}

QJsonArray arr(const QStringList &list)
{
    return QJsonArray::fromStringList(list);
}

MatchedRule rule(const QString &id, double score, const char *patch, const QString &commit = {})
{
    MatchedRule r;
    r.ruleNodeId = id;
    r.state = QStringLiteral("active");
    r.commitId = commit;
    r.patch = obj(patch);
    r.rank.score = score;
    return r;
}

QStringList codes(const QJsonObject &toolExplain)
{
    QStringList out;
    for (const QJsonValue &c : toolExplain.value(u"conflicts").toArray())
        out.append(c.toObject().value(u"code").toString());
    return out;
}

QStringList sourceIds(const MergedPolicy &m)
{
    QStringList out;
    for (const QJsonValue &s : m.sources)
        out.append(s.toObject().value(u"rule_node_id").toString());
    return out;
}

} // namespace

class tst_RuleMerge : public QObject
{
    Q_OBJECT

private slots:
    void rankFormula_data();
    void rankFormula();
    void rankJson();
    void noMatches();
    void mergeOrderAndScalarWinner();
    void tiesMergeByRuleId();
    void equalValuesDoNotConflict();
    void arraysUnion();
    void sourcesTouchedPaths();
    void conflictExplainLosers();
    void conflictExplainBounded();
    void toolPolicyAcceptanceCase();
    void allowIntersectionSortedAndAlwaysReported();
    void allowIntersectionEmpty();
    void denyUnionAndWinners();
    void toolListsNormalizedAndEmptyIgnored();
    void preferSameTopChoiceNoConflict();
    void summaryFormat();
    void summaryBoundedAndTruncated();
    void appliedJsonPrefix();
};

void tst_RuleMerge::rankFormula_data()
{
    QTest::addColumn<QByteArray>("ruleSlots");
    QTest::addColumn<int>("positive");
    QTest::addColumn<int>("negative");
    QTest::addColumn<int>("specificity");
    QTest::addColumn<int>("priority");
    QTest::addColumn<double>("weight");
    QTest::addColumn<double>("score");
    const auto row = [](const char *name, const char *ruleSlots, int pos, int neg, int spec,
                        int priority, double weight, double score) {
        QTest::newRow(name) << QByteArray(ruleSlots) << pos << neg << spec << priority << weight
                            << score;
    };
    row("defaults", "{}", 0, 0, 0, 0, 1, 0);
    row("specificity only", "{}", 0, 0, 3, 0, 1, 3);
    row("rule_meta", R"({"rule_meta":{"priority":5,"weight":0.5}})", 3, 1, 2, 5, 0.5, 5102);
    row("slots fallback", R"({"priority":3,"weight":2})", 1, 0, 1, 3, 2, 3201);
    row("rule_meta wins", R"({"rule_meta":{"priority":1},"priority":9})", 0, 0, 0, 1, 1, 1000);
    row("null rule_meta falls through", R"({"rule_meta":{"priority":null},"priority":9})", 0, 0, 0,
        9, 1, 9000);
    row("priority clamp high", R"({"rule_meta":{"priority":250}})", 0, 0, 0, 100, 1, 100000);
    row("priority clamp low", R"({"rule_meta":{"priority":-500}})", 0, 0, 0, -100, 1, -100000);
    row("priority trunc", R"({"rule_meta":{"priority":2.9}})", 0, 0, 0, 2, 1, 2000);
    row("priority trunc negative", R"({"rule_meta":{"priority":-2.9}})", 0, 0, 0, -2, 1, -2000);
    row("priority numeric string", R"({"rule_meta":{"priority":"7"}})", 0, 0, 0, 7, 1, 7000);
    row("priority NaN", R"({"rule_meta":{"priority":"high"}})", 0, 0, 0, 0, 1, 0);
    row("weight clamp high", R"({"rule_meta":{"weight":5}})", 1, 0, 0, 0, 2, 200);
    row("weight clamp low", R"({"rule_meta":{"weight":-1}})", 4, 0, 0, 0, 0, 0);
    row("weight NaN", R"({"weight":"heavy"})", 1, 0, 0, 0, 1, 100);
    row("negative evidence", "{}", 1, 4, 1, 0, 1, -299);
    row("all terms", R"({"rule_meta":{"priority":-1,"weight":1.5}})", 2, 0, 4, -1, 1.5, -696);
}

void tst_RuleMerge::rankFormula()
{
    QFETCH(QByteArray, ruleSlots);
    QFETCH(int, positive);
    QFETCH(int, negative);
    QFETCH(int, specificity);
    QFETCH(int, priority);
    QFETCH(double, weight);
    QFETCH(double, score);
    const RuleRank r
        = computeRank(QJsonDocument::fromJson(ruleSlots).object(), positive, negative, specificity);
    QCOMPARE(r.priority, priority);
    QCOMPARE(r.weight, weight);
    QCOMPARE(r.evidenceScore, positive - negative);
    QCOMPARE(r.specificity, specificity);
    QCOMPARE(r.score, score);
}

void tst_RuleMerge::rankJson()
{
    const RuleRank r = computeRank(obj(R"({"rule_meta":{"priority":2,"weight":0.5}})"), 3, 1, 2);
    QCOMPARE(r.toJson(),
             obj(R"({"score":2102,"evidence_score":2,"priority":2,"weight":0.5,"specificity":2})"));
}

void tst_RuleMerge::noMatches()
{
    const MergedPolicy m = mergePolicies({});
    QCOMPARE(m.policy, obj(R"({"tool":{}})"));
    QVERIFY(m.sources.isEmpty());
    QVERIFY(m.conflicts.isEmpty());
    QVERIFY(m.conflictExplain.isEmpty());
    QVERIFY(m.toolExplain.value(u"conflicts").toArray().isEmpty());
    QVERIFY(m.toolExplain.value(u"contributions").toArray().isEmpty());
    QCOMPARE(m.toolExplain.value(u"notes").toArray().size(), 1);
}

void tst_RuleMerge::mergeOrderAndScalarWinner()
{
    // Given in descending order on purpose: the merge sorts ascending by score.
    const MergedPolicy m = mergePolicies({
        rule(QStringLiteral("r_high"), 10, R"({"output":{"format":"json"}})"),
        rule(QStringLiteral("r_low"), 5, R"({"output":{"format":"text","strict":true}})"),
    });
    QCOMPARE(sourceIds(m), (QStringList{"r_low", "r_high"}));
    QCOMPARE(m.policy, obj(R"({"output":{"format":"json","strict":true},"tool":{}})"));
    QCOMPARE(m.conflicts.size(), 1);
    QCOMPARE(m.conflicts.first().toObject(),
             obj(R"({"path":"output.format","winner_rule_node_id":"r_high"})"));
}

void tst_RuleMerge::tiesMergeByRuleId()
{
    const MergedPolicy m = mergePolicies({
        rule(QStringLiteral("r2"), 7, R"({"output":{"format":"text"}})"),
        rule(QStringLiteral("r1"), 7, R"({"output":{"format":"json"}})"),
    });
    QCOMPARE(sourceIds(m), (QStringList{"r1", "r2"}));
    QCOMPARE(m.policy.value(u"output").toObject().value(u"format"), QJsonValue("text"));
    QCOMPARE(m.conflicts.first().toObject().value(u"winner_rule_node_id"), QJsonValue("r2"));
}

void tst_RuleMerge::equalValuesDoNotConflict()
{
    const MergedPolicy m = mergePolicies({
        rule(QStringLiteral("a"), 1, R"({"output":{"format":"json"},"extensions":{"x":{"k":1}}})"),
        rule(QStringLiteral("b"), 2, R"({"output":{"format":"json"},"extensions":{"x":{"k":1}}})"),
    });
    QVERIFY(m.conflicts.isEmpty());
    QVERIFY(m.conflictExplain.isEmpty());
}

void tst_RuleMerge::arraysUnion()
{
    // Reference acceptance case 5.
    const MergedPolicy m = mergePolicies({
        rule(QStringLiteral("a"), 1,
             R"({"output":{"format":"json","strict":true},"tool":{"allow":["psql"]}})"),
        rule(QStringLiteral("b"), 2, R"({"tool":{"deny":["rm"],"allow":["psql"]}})"),
    });
    QCOMPARE(m.policy.value(u"tool").toObject(), obj(R"({"allow":["psql"],"deny":["rm"]})"));
    QCOMPARE(m.policy.value(u"output").toObject(), obj(R"({"format":"json","strict":true})"));
    QVERIFY(m.conflicts.isEmpty());

    // Generic arrays (outside tool.*) union in merge order, de-duplicated by JSON text.
    const MergedPolicy u = mergePolicies({
        rule(QStringLiteral("hi"), 9, R"({"extensions":{"tags":["b","c",{"k":1}]}})"),
        rule(QStringLiteral("lo"), 1, R"({"extensions":{"tags":["a","b",{"k":1}]}})"),
    });
    QCOMPARE(u.policy.value(u"extensions").toObject(), obj(R"({"tags":["a","b",{"k":1},"c"]})"));
}

void tst_RuleMerge::sourcesTouchedPaths()
{
    MatchedRule r = rule(QStringLiteral("r1"), 0,
                         R"({"tool":{"allow":["a"]},"output":{"format":"json"},)"
                         R"("extensions":{"y":{"z":1},"x":{}}})",
                         QStringLiteral("c-1"));
    r.state = QStringLiteral("shadow");
    r.rank = computeRank(obj(R"({"rule_meta":{"priority":1}})"), 2, 0, 3);
    const MergedPolicy m = mergePolicies({r, rule(QStringLiteral("r0"), -5, "{}")});
    QCOMPARE(m.sources.size(), 2);
    const QJsonObject empty = m.sources.at(0).toObject();
    QCOMPARE(empty.value(u"rule_node_id"), QJsonValue("r0"));
    QVERIFY(empty.value(u"commit_id").isNull());
    QCOMPARE(empty.value(u"touched_paths").toArray(), QJsonArray());
    const QJsonObject s = m.sources.at(1).toObject();
    QCOMPARE(s.value(u"state"), QJsonValue("shadow"));
    QCOMPARE(s.value(u"commit_id"), QJsonValue("c-1"));
    QCOMPARE(s.value(u"touched_paths").toArray(),
             arr({"extensions.x", "extensions.y.z", "output.format", "tool.allow"}));
    QCOMPARE(s.value(u"rank").toObject(),
             obj(R"({"score":1203,"evidence_score":2,"priority":1,"weight":1,"specificity":3})"));
}

void tst_RuleMerge::conflictExplainLosers()
{
    MatchedRule r3 = rule(QStringLiteral("r3"), 3, R"({"output":{"format":"markdown"}})");
    r3.rank.priority = 0;
    r3.rank.evidenceScore = 0;
    r3.rank.specificity = 3;
    const MergedPolicy m = mergePolicies({
        rule(QStringLiteral("r1"), 1, R"({"output":{"format":"json"}})"),
        r3,
        rule(QStringLiteral("r2"), 2, R"({"output":{"format":"text"}})"),
        rule(QStringLiteral("other"), 9, R"({"output":{"strict":true}})"),
    });
    QCOMPARE(m.conflicts.size(), 2);
    QCOMPARE(m.conflictExplain.size(), 2);
    const QJsonObject first = m.conflictExplain.at(0).toObject();
    QCOMPARE(first.value(u"path"), QJsonValue("output.format"));
    QCOMPARE(first.value(u"winner").toObject().value(u"rule_node_id"), QJsonValue("r2"));
    // Losers: every other source touching exactly the path, by score descending.
    QCOMPARE(first.value(u"losers").toArray(),
             QJsonDocument::fromJson(
                 R"([{"rule_node_id":"r3","score":3},{"rule_node_id":"r1","score":1}])")
                 .array());
    QCOMPARE(first.value(u"reason"),
             QJsonValue("higher rank wins (priority > evidence*weight > condition_specificity)"));
    const QJsonObject second = m.conflictExplain.at(1).toObject();
    QCOMPARE(
        second.value(u"winner").toObject(),
        obj(R"({"rule_node_id":"r3","score":3,"priority":0,"weight":1,"evidence_score":0,"specificity":3})"));
    QCOMPARE(second.value(u"losers").toArray().size(), 2);
    QCOMPARE(m.policy.value(u"output").toObject(), obj(R"({"format":"markdown","strict":true})"));
}

void tst_RuleMerge::conflictExplainBounded()
{
    QVector<MatchedRule> rules;
    for (int i = 0; i < 52; ++i)
        rules.append(
            rule(QStringLiteral("r%1").arg(i, 2, 10, QLatin1Char('0')), i,
                 QStringLiteral(R"({"extensions":{"v":%1}})").arg(i).toUtf8().constData()));
    const MergedPolicy m = mergePolicies(rules);
    QCOMPARE(m.conflicts.size(), 51);
    QCOMPARE(m.conflictExplain.size(), 50);
    QCOMPARE(m.conflictExplain.first().toObject().value(u"losers").toArray().size(), 5);
    QCOMPARE(m.policy.value(u"extensions").toObject().value(u"v"), QJsonValue(51));
}

void tst_RuleMerge::toolPolicyAcceptanceCase()
{
    // Reference acceptance case 4.
    const MergedPolicy m = mergePolicies({
        rule(QStringLiteral("r_low"), 1, R"({"tool":{"prefer":["psql"],"allow":["psql","curl"]}})"),
        rule(QStringLiteral("r_high"), 10,
             R"({"tool":{"prefer":["curl"],"allow":["curl"],"deny":["rm"]}})"),
    });
    QCOMPARE(m.policy.value(u"tool").toObject(),
             obj(R"({"allow":["curl"],"deny":["rm"],"prefer":["curl","psql"]})"));
    QCOMPARE(codes(m.toolExplain),
             (QStringList{"allow_intersection", "prefer_competing_top_choice"}));
    const QJsonArray conflicts = m.toolExplain.value(u"conflicts").toArray();
    QCOMPARE(conflicts.at(1).toObject().value(u"winner_rule_node_id"), QJsonValue("r_high"));
    QVERIFY(conflicts.at(0).toObject().value(u"winner_rule_node_id").isNull());

    const QJsonArray contributions = m.toolExplain.value(u"contributions").toArray();
    QCOMPARE(contributions.size(), 2);
    QCOMPARE(
        contributions.at(0).toObject(),
        obj(R"({"rule_node_id":"r_high","score":10,"evidence_score":0,"priority":0,"weight":1,)"
            R"("specificity":0,"allow_n":1,"deny_n":1,"prefer_n":1,"first_prefer":"curl"})"));
    QCOMPARE(contributions.at(1).toObject().value(u"rule_node_id"), QJsonValue("r_low"));
    QCOMPARE(
        m.toolExplain.value(u"winners").toObject(),
        obj(R"({"prefer_by_tool":{"curl":"r_high","psql":"r_low"},"deny_by_tool":{"rm":"r_high"}})"));
}

void tst_RuleMerge::allowIntersectionSortedAndAlwaysReported()
{
    const MergedPolicy m = mergePolicies(
        {rule(QStringLiteral("only"), 1, R"({"tool":{"allow":["b","A","a","_x","10","B"]}})")});
    // Locale-style order: punctuation, digits, then letters with lowercase first.
    QCOMPARE(m.policy.value(u"tool").toObject().value(u"allow").toArray(),
             arr({"_x", "10", "a", "A", "b", "B"}));
    const QJsonArray conflicts = m.toolExplain.value(u"conflicts").toArray();
    QCOMPARE(conflicts.size(), 1);
    const QJsonObject c = conflicts.first().toObject();
    QCOMPARE(c.value(u"code"), QJsonValue("allow_intersection"));
    QCOMPARE(c.value(u"message"),
             QJsonValue("effective allowlist is intersection of 1 rule allowlists (size=6)"));
    QCOMPARE(c.value(u"details").toArray(),
             QJsonDocument::fromJson(R"([{"rule_node_id":"only","score":1,"allow_n":6}])").array());
    QVERIFY(m.toolExplain.value(u"notes").toArray().first().toString().startsWith(
        QStringLiteral("allowlist enforced")));
}

void tst_RuleMerge::allowIntersectionEmpty()
{
    const MergedPolicy m = mergePolicies({
        rule(QStringLiteral("r1"), 1, R"({"tool":{"allow":["psql"]}})"),
        rule(QStringLiteral("r2"), 2, R"({"tool":{"allow":["curl"]}})"),
    });
    // The key stays present with an empty list: the selector treats it as "nothing allowed".
    QCOMPARE(m.policy.value(u"tool").toObject(), obj(R"({"allow":[]})"));
    QCOMPARE(codes(m.toolExplain), (QStringList{"allow_intersection", "allow_intersection_empty"}));
    QCOMPARE(m.toolExplain.value(u"conflicts").toArray().first().toObject().value(u"message"),
             QJsonValue("effective allowlist is intersection of 2 rule allowlists (size=0)"));
}

void tst_RuleMerge::denyUnionAndWinners()
{
    const MergedPolicy m = mergePolicies({
        rule(QStringLiteral("a"), 1, R"({"tool":{"deny":["rm","dd"]}})"),
        rule(QStringLiteral("b"), 5, R"({"tool":{"deny":["rm","curl"]}})"),
    });
    QCOMPARE(m.policy.value(u"tool").toObject(), obj(R"({"deny":["curl","dd","rm"]})"));
    QCOMPARE(m.toolExplain.value(u"winners").toObject().value(u"deny_by_tool").toObject(),
             obj(R"({"rm":"b","curl":"b","dd":"a"})"));
    QVERIFY(codes(m.toolExplain).isEmpty());
    QVERIFY(m.toolExplain.value(u"notes").toArray().first().toString().startsWith(
        QStringLiteral("no allowlist")));
}

void tst_RuleMerge::toolListsNormalizedAndEmptyIgnored()
{
    const MergedPolicy m = mergePolicies({
        rule(QStringLiteral("empty"), 50, R"({"tool":{"allow":[],"deny":[],"prefer":[]}})"),
        rule(QStringLiteral("messy"), 1,
             R"({"tool":{"deny":[" rm","rm ","rm"],"prefer":["a","a"]}})"),
        rule(QStringLiteral("none"), 9, R"({"output":{"format":"json"}})"),
    });
    QCOMPARE(m.policy.value(u"tool").toObject(), obj(R"({"deny":["rm"],"prefer":["a"]})"));
    const QJsonArray contributions = m.toolExplain.value(u"contributions").toArray();
    QCOMPARE(contributions.size(), 1);
    QCOMPARE(contributions.first().toObject().value(u"deny_n"), QJsonValue(1));
    QCOMPARE(contributions.first().toObject().value(u"prefer_n"), QJsonValue(1));
    QCOMPARE(sourceIds(m), (QStringList{"messy", "none", "empty"}));
}

void tst_RuleMerge::preferSameTopChoiceNoConflict()
{
    const MergedPolicy m = mergePolicies({
        rule(QStringLiteral("a"), 1, R"({"tool":{"prefer":["psql","curl"]}})"),
        rule(QStringLiteral("b"), 2, R"({"tool":{"prefer":["psql","wget"]}})"),
    });
    QCOMPARE(m.policy.value(u"tool").toObject().value(u"prefer").toArray(),
             arr({"psql", "wget", "curl"}));
    QVERIFY(codes(m.toolExplain).isEmpty());
}

void tst_RuleMerge::summaryFormat()
{
    const MergedPolicy m = mergePolicies({
        rule(QStringLiteral("r_low"), 1, R"({"tool":{"prefer":["psql"],"allow":["psql","curl"]}})"),
        rule(QStringLiteral("r_high"), 10, R"({"tool":{"prefer":["curl"],"allow":["curl"]}})"),
    });
    const QStringList lines = toolConflictsSummary(m.toolExplain);
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines.at(0), QStringLiteral("[allow_intersection] effective allowlist is intersection "
                                         "of 2 rule allowlists (size=1)"));
    QVERIFY(lines.at(1).startsWith(QStringLiteral("[prefer_competing_top_choice] ")));
    QVERIFY(lines.at(1).endsWith(QStringLiteral(" (winner=r_high)")));
    QVERIFY(toolConflictsSummary(mergePolicies({}).toolExplain).isEmpty());
}

void tst_RuleMerge::summaryBoundedAndTruncated()
{
    QJsonArray conflicts;
    conflicts.append(QJsonObject{{QStringLiteral("code"), QStringLiteral("long")},
                                 {QStringLiteral("message"), QString(300, u'x')},
                                 {QStringLiteral("winner_rule_node_id"), QStringLiteral("w")}});
    for (int i = 0; i < 6; ++i)
        conflicts.append(QJsonObject{{QStringLiteral("code"), QStringLiteral("c%1").arg(i)},
                                     {QStringLiteral("message"), QStringLiteral("m")},
                                     {QStringLiteral("winner_rule_node_id"), QJsonValue::Null}});
    const QStringList lines = toolConflictsSummary({{QStringLiteral("conflicts"), conflicts}});
    QCOMPARE(lines.size(), 5);
    QCOMPARE(lines.at(0).size(), 200);
    QCOMPARE(lines.at(0), QStringLiteral("[long] ") + QString(190, u'x') + QStringLiteral("..."));
    QCOMPARE(lines.at(1), QStringLiteral("[c0] m"));
    QCOMPARE(lines.at(4), QStringLiteral("[c3] m"));

    // Exactly 200 characters is kept whole.
    const QJsonObject exact{{QStringLiteral("code"), QStringLiteral("e")},
                            {QStringLiteral("message"), QString(196, u'y')}};
    const QStringList one
        = toolConflictsSummary({{QStringLiteral("conflicts"), QJsonArray{exact}}});
    QCOMPARE(one.first().size(), 200);
    QVERIFY(!one.first().endsWith(QStringLiteral("...")));
}

void tst_RuleMerge::appliedJsonPrefix()
{
    const MergedPolicy m
        = mergePolicies({rule(QStringLiteral("r"), 1, R"({"tool":{"deny":["rm"]}})")});
    const QJsonObject active = m.toJson();
    QCOMPARE(active.keys(),
             (QStringList{"conflict_explain", "conflicts", "policy", "sources", "tool_explain"}));
    const QJsonObject shadow = m.toJson(QStringLiteral("shadow_"));
    QCOMPARE(shadow.value(u"shadow_policy").toObject(), m.policy);
    QVERIFY(!shadow.contains(u"policy"));
}

QTEST_GUILESS_MAIN(tst_RuleMerge)
#include "tst_rulemerge.moc"
