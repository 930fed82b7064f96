// Tool selection over real HTTP: POST /v1/memory/tools/select, /tools/feedback, /tools/decision
// and /tools/run (spec §2.10, §4.8-4.11, §7, §8; DESIGN decisions 1, 2, 5; reference-behaviour
// §2.5, §3).

#include "tests/http/rulestestdata.h"

#include <QDateTime>
#include <QSet>
#include <QTest>
#include <QUuid>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace MemoryGraph::Test::Rules;

namespace {

QString uuid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

int commitCount(const HttpTestServer &server)
{
    return int(server.commits().size());
}

QString decisionUri(const QString &tenant, const QString &scope, const QString &id)
{
    return QStringLiteral("memorygraph://%1/%2/decision/%3").arg(tenant, scope, id);
}

QJsonObject selection(const Reply &reply)
{
    return reply.json.value(s("selection")).toObject();
}

QJsonObject decisionOf(const Reply &reply)
{
    return reply.json.value(s("decision")).toObject();
}

QString decisionIdOf(const Reply &reply)
{
    return decisionOf(reply).value(s("decision_id")).toString();
}

QJsonObject appliedPolicy(const Reply &selectReply)
{
    return selectReply.json.value(s("rules"))
        .toObject()
        .value(s("applied"))
        .toObject()
        .value(s("policy"))
        .toObject();
}

QStringList selectResponseKeys()
{
    return keyList({"request_id", "tenant_id", "scope", "candidates", "selection", "rules",
                    "decision", "execution_kernel", "selection_summary"});
}

QStringList feedbackResponseKeys()
{
    return keyList({"ok", "tenant_id", "scope", "updated_rules", "rule_node_ids", "commit_id",
                    "commit_uri", "commit_hash", "decision_id", "decision_uri",
                    "decision_link_mode", "decision_policy_sha256"});
}

QStringList storedDecisionKeys()
{
    return keyList({"decision_id", "decision_uri", "decision_kind", "run_id", "selected_tool",
                    "candidates", "context_sha256", "policy_sha256", "source_rule_ids", "metadata",
                    "created_at", "commit_id", "commit_uri"});
}

/// Two active rules that match kFixContext: one with a tool patch, one with an output patch.
struct FeedbackRules
{
    QString toolRule;
    QString outputRule;
};

const QJsonObject kFixContext{{QStringLiteral("task"), QStringLiteral("fix")}};

QJsonArray fixCandidates()
{
    return strs({"shell", "editor", "browser"});
}

FeedbackRules addFeedbackRules(RuleApi &api)
{
    FeedbackRules r;
    r.toolRule = api.add(RuleNode(s("prefer-editor"))
                             .when(obj({{"task", s("fix")}}))
                             .then(obj({{"tool", obj({{"prefer", strs({"editor"})}})}})));
    if (r.toolRule.isEmpty())
        return r;
    r.outputRule = api.add(RuleNode(s("markdown"))
                               .when(obj({{"task", s("fix")}}))
                               .then(obj({{"output", obj({{"format", s("markdown")}})}})));
    return r;
}

/// stats {positive, negative} and rank.evidence_score of one rule for a context.
struct RuleEvidence
{
    int positive = -1;
    int negative = -1;
    int evidence = -1000;
    double score = -1e9;
};

RuleEvidence evidenceOf(RuleApi &api, const QJsonObject &context, const QString &ruleId)
{
    const Reply r = api.evaluate(context);
    const QJsonObject m = matchById(r.json.value(s("active")), ruleId);
    RuleEvidence e;
    if (m.isEmpty())
        return e;
    e.positive = m.value(s("stats")).toObject().value(s("positive")).toInt();
    e.negative = m.value(s("stats")).toObject().value(s("negative")).toInt();
    e.evidence = m.value(s("rank")).toObject().value(s("evidence_score")).toInt();
    e.score = m.value(s("rank")).toObject().value(s("score")).toDouble();
    return e;
}

} // namespace

class tst_HttpTools : public QObject
{
    Q_OBJECT

private slots:
    // tools/select
    void selectAppliesAllowDenyPrefer_data();
    void selectAppliesAllowDenyPrefer();
    void selectWithoutRules();
    void strictNoToolsAllowed_data();
    void strictNoToolsAllowed();
    void nonStrictAllowlistFallback();
    void nonStrictDenyFiltersAll();
    void candidatesDeduplicated();
    void selectValidation_data();
    void selectValidation();
    void twoHundredCandidates();
    void shadowSelectionNeverEnforced();
    void decisionFields();
    void decisionUriUsesTenantAndScope();
    void selectIsNotIdempotent();
    void decisionUriWithEncodedScope();
    void continuityEchoedUnchanged();

    // tools/feedback
    void feedbackProvidedById();
    void feedbackProvidedByUri();
    void feedbackInferred();
    void feedbackCreatedFromFeedback();
    void feedbackTargetToolVsAll();
    void feedbackNeutral();
    void feedbackAdoptsRunId();
    void feedbackMismatch_data();
    void feedbackMismatch();
    void feedbackUnknownDecision();
    void feedbackUnknownDecisionNamesReason();
    void feedbackValidation_data();
    void feedbackValidation();

    // tools/decision
    void decisionLookupModes();
    void decisionLookupErrors_data();
    void decisionLookupErrors();

    // tools/run
    void runLifecycle();
    void runErrors_data();
    void runErrors();
};

// ---- tools/select
// -----------------------------------------------------------------------------------

void tst_HttpTools::selectAppliesAllowDenyPrefer_data()
{
    QTest::addColumn<int>("priorityA");
    QTest::addColumn<int>("priorityB");
    QTest::addColumn<QStringList>("preferred");
    QTest::newRow("B ranks higher") << 1 << 5 << QStringList{s("t2"), s("t3")};
    QTest::newRow("A ranks higher") << 9 << 5 << QStringList{s("t3"), s("t2")};
}

void tst_HttpTools::selectAppliesAllowDenyPrefer()
{
    QFETCH(int, priorityA);
    QFETCH(int, priorityB);
    QFETCH(QStringList, preferred);

    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString a = api.add(RuleNode(s("a")).priority(priorityA).then(obj(
        {{"tool", obj({{"allow", strs({"t1", "t2", "t3", "t4"})}, {"prefer", strs({"t3"})}})}})));
    const QString b = api.add(RuleNode(s("b")).priority(priorityB).then(
        obj({{"tool", obj({{"allow", strs({"t5", "t4", "t3", "t2"})},
                           {"deny", strs({"t4"})},
                           {"prefer", strs({"t2"})}})}})));
    const QString c
        = api.add(RuleNode(s("c")).then(obj({{"tool", obj({{"deny", strs({"t6"})}})}})));
    QVERIFY2(!a.isEmpty() && !b.isEmpty() && !c.isEmpty(), api.last.describe());
    const bool aWins = priorityA > priorityB;

    const Reply r = api.select(QJsonObject(), strs({"t1", "t2", "t3", "t4", "t5", "t6", "t7"}));
    QCOMPARE(r.status, 200);
    QCOMPARE(keysOf(r.json), selectResponseKeys());
    QCOMPARE(stringList(r.json.value(s("candidates"))),
             (QStringList{s("t1"), s("t2"), s("t3"), s("t4"), s("t5"), s("t6"), s("t7")}));

    // allow = intersection, deny = union, prefer = by rank.
    QCOMPARE(jsonText(appliedPolicy(r).value(s("tool"))),
             jsonText(obj({{"allow", strs({"t2", "t3", "t4"})},
                           {"deny", strs({"t4", "t6"})},
                           {"prefer", QJsonArray::fromStringList(preferred)}})));
    const QJsonObject expectedSelection
        = obj({{"candidates", strs({"t1", "t2", "t3", "t4", "t5", "t6", "t7"})},
               {"allowed", strs({"t2", "t3"})},
               {"denied", QJsonArray{obj({{"name", s("t1")}, {"reason", s("not_in_allow_list")}}),
                                     obj({{"name", s("t4")}, {"reason", s("deny_list")}}),
                                     obj({{"name", s("t5")}, {"reason", s("not_in_allow_list")}}),
                                     obj({{"name", s("t6")}, {"reason", s("deny_list")}}),
                                     obj({{"name", s("t7")}, {"reason", s("not_in_allow_list")}})}},
               {"preferred", QJsonArray::fromStringList(preferred)},
               {"ordered", QJsonArray::fromStringList(preferred)},
               {"selected", preferred.first()}});
    QCOMPARE(jsonText(selection(r)), jsonText(expectedSelection)); // no fallback key under strict

    const QJsonObject rules = r.json.value(s("rules")).toObject();
    QCOMPARE(keysOf(rules),
             keyList({"considered", "matched", "skipped_invalid_then", "invalid_then_sample",
                      "agent_visibility_summary", "applied", "tool_conflicts_summary"}));
    QCOMPARE(rules.value(s("considered")).toInt(), 3);
    QCOMPARE(rules.value(s("matched")).toInt(), 3);
    const QStringList summary = stringList(rules.value(s("tool_conflicts_summary")));
    QCOMPARE(summary.size(), 2);
    QCOMPARE(summary.at(0), s("[allow_intersection] effective allowlist is intersection of 2 rule "
                              "allowlists (size=3)"));
    QVERIFY2(summary.at(1).startsWith(s("[prefer_competing_top_choice] ")),
             qPrintable(summary.at(1)));
    QVERIFY2(summary.at(1).endsWith(s(" (winner=%1)").arg(aWins ? a : b)),
             qPrintable(summary.at(1)));

    // Sources in merge order (ascending rank): C (0), then the lower and the higher of A and B.
    const QJsonObject decision = decisionOf(r);
    QCOMPARE(stringList(decision.value(s("source_rule_ids"))),
             aWins ? (QStringList{c, b, a}) : (QStringList{c, a, b}));
    QCOMPARE(decision.value(s("selected_tool")).toString(), preferred.first());

    const QJsonObject summaryBlock = r.json.value(s("selection_summary")).toObject();
    QCOMPARE(summaryBlock.value(s("selected_tool")).toString(), preferred.first());
    QCOMPARE(summaryBlock.value(s("candidate_count")).toInt(), 7);
    QCOMPARE(summaryBlock.value(s("allowed_count")).toInt(), 2);
    QCOMPARE(summaryBlock.value(s("denied_count")).toInt(), 5);
    QCOMPARE(summaryBlock.value(s("preferred_count")).toInt(), 2);
    QCOMPARE(summaryBlock.value(s("fallback_applied")).toBool(), false);
    QCOMPARE(summaryBlock.value(s("fallback_reason")).toString(), s("none"));
    QVERIFY(!containsKeyDeep(r.json, s("embedding")));
}

void tst_HttpTools::selectWithoutRules()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const Reply r = api.select(obj({{"task", s("anything")}}), strs({"b", "a"}));
    QCOMPARE(r.status, 200);
    QCOMPARE(jsonText(selection(r)), jsonText(obj({{"candidates", strs({"b", "a"})},
                                                   {"allowed", strs({"b", "a"})},
                                                   {"denied", QJsonArray()},
                                                   {"preferred", QJsonArray()},
                                                   {"ordered", strs({"b", "a"})},
                                                   {"selected", s("b")}})));
    QCOMPARE(jsonText(appliedPolicy(r)), jsonText(obj({{"tool", QJsonObject()}})));
    QCOMPARE(decisionOf(r).value(s("policy_sha256")).toString(),
             sha256Hex(QByteArrayLiteral(R"({"tool":{}})")));
    QCOMPARE(stringList(decisionOf(r).value(s("source_rule_ids"))), QStringList());
    QVERIFY(decisionOf(r).value(s("run_id")).isNull());
}

void tst_HttpTools::strictNoToolsAllowed_data()
{
    QTest::addColumn<QJsonArray>("thens");
    QTest::addColumn<QJsonArray>("candidates");
    QTest::addColumn<bool>("explicitStrict");
    QTest::addColumn<int>("allowCount");
    QTest::addColumn<int>("denyCount");

    const auto tool = [](const QJsonObject &t) { return QJsonValue(obj({{"tool", t}})); };
    QTest::newRow("deny removes all") << QJsonArray{tool(obj({{"deny", strs({"t1", "t2"})}}))}
                                      << strs({"t1", "t2"}) << false << 0 << 2;
    QTest::newRow("allow removes all")
        << QJsonArray{tool(obj({{"allow", strs({"x"})}}))} << strs({"t1", "t2"}) << true << 1 << 0;
    QTest::newRow("allow and deny together")
        << QJsonArray{tool(obj({{"allow", strs({"t1"})}})), tool(obj({{"deny", strs({"t1"})}}))}
        << strs({"t1", "t2"}) << false << 1 << 1;
    QTest::newRow("empty allow intersection")
        << QJsonArray{tool(obj({{"allow", strs({"t1"})}})), tool(obj({{"allow", strs({"t2"})}}))}
        << strs({"t1", "t2"}) << false << 0 << 0;
}

void tst_HttpTools::strictNoToolsAllowed()
{
    QFETCH(QJsonArray, thens);
    QFETCH(QJsonArray, candidates);
    QFETCH(bool, explicitStrict);
    QFETCH(int, allowCount);
    QFETCH(int, denyCount);

    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    for (int i = 0; i < thens.size(); ++i)
        QVERIFY2(!api.add(RuleNode(s("r%1").arg(i)).then(thens.at(i))).isEmpty(),
                 api.last.describe());

    QJsonObject extra = obj({{"run_id", s("run-strict")}});
    if (explicitStrict)
        extra.insert(s("strict"), true);
    const Reply r = api.select(QJsonObject(), candidates, extra);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), s("no_tools_allowed"));
    QCOMPARE(jsonText(r.json.value(s("details"))),
             jsonText(obj(
                 {{"candidates", candidates.size()}, {"allow", allowCount}, {"deny", denyCount}})));

    // No decision was persisted for the run.
    const Reply run = api.run(obj({{"run_id", s("run-strict")}}));
    QCOMPARE(run.status, 404);
    QCOMPARE(run.errorCode(), s("not_found"));
    const Reply decision = api.decision(obj({{"run_id", s("run-strict")}}));
    QCOMPARE(decision.status, 404);
    QCOMPARE(decision.errorCode(), s("not_found"));
}

void tst_HttpTools::nonStrictAllowlistFallback()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QVERIFY2(!api.add(RuleNode(s("allow")).then(obj({{"tool", obj({{"allow", strs({"zz"})}})}})))
                  .isEmpty(),
             api.last.describe());
    QVERIFY2(!api.add(RuleNode(s("deny")).then(obj({{"tool", obj({{"deny", strs({"t2"})}})}})))
                  .isEmpty(),
             api.last.describe());

    const Reply r = api.select(QJsonObject(), strs({"t1", "t2", "t3"}),
                               obj({{"strict", false}, {"run_id", s("run-fb")}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(
        jsonText(selection(r)),
        jsonText(obj({{"candidates", strs({"t1", "t2", "t3"})},
                      {"allowed", strs({"t1", "t3"})},
                      {"denied", QJsonArray{obj({{"name", s("t2")}, {"reason", s("deny_list")}})}},
                      {"preferred", QJsonArray()},
                      {"ordered", strs({"t1", "t3"})},
                      {"selected", s("t1")},
                      {"fallback", obj({{"applied", true},
                                        {"reason", s("allowlist_filtered_all")},
                                        {"effective_mode", s("deny_only")}})}})));
    QCOMPARE(r.json.value(s("selection_summary")).toObject().value(s("fallback_applied")).toBool(),
             true);
    QCOMPARE(r.json.value(s("selection_summary")).toObject().value(s("fallback_reason")).toString(),
             s("allowlist_filtered_all"));
    // The fallback decision is persisted.
    const Reply stored = api.decision(obj({{"decision_id", decisionIdOf(r)}}));
    QCOMPARE(stored.status, 200);
    QCOMPARE(decisionOf(stored).value(s("selected_tool")).toString(), s("t1"));

    // strict=false without a fallback: no fallback key.
    const Reply kept = api.select(QJsonObject(), strs({"t1", "zz"}), obj({{"strict", false}}));
    QCOMPARE(kept.status, 200);
    QVERIFY2(!selection(kept).contains(s("fallback")), kept.describe());
    QCOMPARE(selection(kept).value(s("selected")).toString(), s("zz"));
    QCOMPARE(
        kept.json.value(s("selection_summary")).toObject().value(s("fallback_applied")).toBool(),
        false);

    // strict=true with the same rules refuses instead.
    const Reply refused
        = api.select(QJsonObject(), strs({"t1", "t2", "t3"}), obj({{"strict", true}}));
    QCOMPARE(refused.status, 400);
    QCOMPARE(refused.errorCode(), s("no_tools_allowed"));
}

void tst_HttpTools::nonStrictDenyFiltersAll()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QVERIFY2(!api.add(RuleNode(s("deny")).then(obj({{"tool", obj({{"deny", strs({"t1"})}})}})))
                  .isEmpty(),
             api.last.describe());
    const Reply r = api.select(QJsonObject(), strs({"t1"}), obj({{"strict", false}}));
    QCOMPARE(r.status, 200);
    QVERIFY(selection(r).value(s("selected")).isNull());
    QCOMPARE(jsonText(selection(r).value(s("fallback"))),
             jsonText(obj({{"applied", true},
                           {"reason", s("deny_filtered_all")},
                           {"effective_mode", s("deny_only")}})));
    QVERIFY(decisionOf(r).value(s("selected_tool")).isNull());
    const Reply stored = api.decision(obj({{"decision_id", decisionIdOf(r)}}));
    QCOMPARE(stored.status, 200);
    QVERIFY(decisionOf(stored).value(s("selected_tool")).isNull());
}

void tst_HttpTools::candidatesDeduplicated()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const Reply r = api.select(QJsonObject(), strs({" t1", "t2", "t1", "t2 ", "t3", "", "t1"}));
    QCOMPARE(r.status, 200);
    const QStringList expected{s("t1"), s("t2"), s("t3")};
    QCOMPARE(stringList(r.json.value(s("candidates"))), expected);
    QCOMPARE(stringList(selection(r).value(s("candidates"))), expected);
    QCOMPARE(stringList(selection(r).value(s("ordered"))), expected);
    const Reply stored = api.decision(obj({{"decision_id", decisionIdOf(r)}}));
    QCOMPARE(stored.status, 200);
    QCOMPARE(stringList(decisionOf(stored).value(s("candidates"))), expected);
}

void tst_HttpTools::selectValidation_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("path");

    QJsonArray many;
    for (int i = 0; i < 201; ++i)
        many.append(s("tool-%1").arg(i));
    QJsonArray manyWithDuplicates;
    for (int i = 0; i < 201; ++i)
        manyWithDuplicates.append(s("tool-%1").arg(i % 10));
    const QJsonObject ctx;
    QTest::newRow("candidates missing") << obj({{"context", ctx}}) << s("candidates");
    QTest::newRow("candidates empty")
        << obj({{"context", ctx}, {"candidates", QJsonArray()}}) << s("candidates");
    QTest::newRow("201 candidates")
        << obj({{"context", ctx}, {"candidates", many}}) << s("candidates");
    QTest::newRow("201 entries, 10 distinct")
        << obj({{"context", ctx}, {"candidates", manyWithDuplicates}}) << s("candidates");
    QTest::newRow("candidates blank")
        << obj({{"context", ctx}, {"candidates", strs({"", " "})}}) << s("candidates");
    QTest::newRow("candidate not a string")
        << obj({{"context", ctx}, {"candidates", QJsonArray{s("t1"), 5}}}) << s("candidates[1]");
    QTest::newRow("candidates not an array")
        << obj({{"context", ctx}, {"candidates", s("t1")}}) << s("candidates");
    QTest::newRow("context missing") << obj({{"candidates", strs({"t1"})}}) << s("context");
    QTest::newRow("context a string")
        << obj({{"context", s("fix")}, {"candidates", strs({"t1"})}}) << s("context");
    QTest::newRow("context an array")
        << obj({{"context", QJsonArray()}, {"candidates", strs({"t1"})}}) << s("context");
    QTest::newRow("rules_limit 201")
        << obj({{"context", ctx}, {"candidates", strs({"t1"})}, {"rules_limit", 201}})
        << s("rules_limit");
    QTest::newRow("rules_limit 0")
        << obj({{"context", ctx}, {"candidates", strs({"t1"})}, {"rules_limit", 0}})
        << s("rules_limit");
    QTest::newRow("strict a string")
        << obj({{"context", ctx}, {"candidates", strs({"t1"})}, {"strict", s("no")}})
        << s("strict");
    QTest::newRow("include_shadow a number")
        << obj({{"context", ctx}, {"candidates", strs({"t1"})}, {"include_shadow", 1}})
        << s("include_shadow");
    QTest::newRow("execution_state_v1 a string")
        << obj({{"context", ctx}, {"candidates", strs({"t1"})}, {"execution_state_v1", s("x")}})
        << s("execution_state_v1");
    QTest::newRow("execution_artifacts of numbers") << obj(
        {{"context", ctx}, {"candidates", strs({"t1"})}, {"execution_artifacts", QJsonArray{1}}})
                                                    << s("execution_artifacts[0]");
    QTest::newRow("execution_evidence an object") << obj(
        {{"context", ctx}, {"candidates", strs({"t1"})}, {"execution_evidence", QJsonObject()}})
                                                  << s("execution_evidence");
}

void tst_HttpTools::selectValidation()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, path);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    body.insert(s("run_id"), s("run-invalid"));
    const Reply r = server.post(s("/v1/memory/tools/select"), body);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), s("invalid_request"));
    QCOMPARE(r.issuePath(), path);
    QCOMPARE(RuleApi(server).run(obj({{"run_id", s("run-invalid")}})).status, 404);
}

void tst_HttpTools::twoHundredCandidates()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QJsonArray candidates;
    for (int i = 0; i < 200; ++i)
        candidates.append(s("tool-%1").arg(i));
    const Reply r = RuleApi(server).select(QJsonObject(), candidates);
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("candidates")).toArray().size(), 200);
    QCOMPARE(selection(r).value(s("selected")).toString(), s("tool-0"));
    const Reply one = RuleApi(server).select(QJsonObject(), strs({"only"}));
    QCOMPARE(one.status, 200);
    QCOMPARE(selection(one).value(s("selected")).toString(), s("only"));
}

void tst_HttpTools::shadowSelectionNeverEnforced()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString active = api.add(
        RuleNode(s("active")).then(obj({{"tool", obj({{"allow", strs({"t1", "t2"})}})}})));
    QVERIFY2(!active.isEmpty(), api.last.describe());
    const QString shadow = api.add(
        RuleNode(s("shadow"))
            .then(obj({{"tool", obj({{"deny", strs({"t1"})}, {"prefer", strs({"t2"})}})}})),
        s("SHADOW"));
    QVERIFY2(!shadow.isEmpty(), api.last.describe());
    const QJsonArray candidates = strs({"t1", "t2", "t3"});

    const Reply plain = api.select(QJsonObject(), candidates);
    QCOMPARE(plain.status, 200);
    QVERIFY(!plain.json.value(s("rules")).toObject().contains(s("shadow_selection")));
    QVERIFY(!plain.json.value(s("rules")).toObject().contains(s("shadow_tool_conflicts_summary")));
    QVERIFY(!plain.json.value(s("rules"))
                 .toObject()
                 .value(s("applied"))
                 .toObject()
                 .contains(s("shadow_policy")));

    const Reply withShadow = api.select(QJsonObject(), candidates, obj({{"include_shadow", true}}));
    QCOMPARE(withShadow.status, 200);
    const QJsonObject expectedSelection
        = obj({{"candidates", candidates},
               {"allowed", strs({"t1", "t2"})},
               {"denied", QJsonArray{obj({{"name", s("t3")}, {"reason", s("not_in_allow_list")}})}},
               {"preferred", QJsonArray()},
               {"ordered", strs({"t1", "t2"})},
               {"selected", s("t1")}});
    QCOMPARE(jsonText(selection(plain)), jsonText(expectedSelection));
    QCOMPARE(jsonText(selection(withShadow)), jsonText(expectedSelection));

    const QJsonObject rules = withShadow.json.value(s("rules")).toObject();
    QVERIFY(rules.value(s("shadow_tool_conflicts_summary")).isArray());
    QCOMPARE(
        jsonText(rules.value(s("shadow_selection"))),
        jsonText(obj({{"candidates", candidates},
                      {"allowed", strs({"t2", "t3"})},
                      {"denied", QJsonArray{obj({{"name", s("t1")}, {"reason", s("deny_list")}})}},
                      {"preferred", strs({"t2"})},
                      {"ordered", strs({"t2", "t3"})},
                      {"selected", s("t2")}})));
    QCOMPARE(rules.value(s("matched")).toInt(), 2);
    QCOMPARE(decisionOf(withShadow).value(s("selected_tool")).toString(), s("t1"));
    QCOMPARE(decisionOf(withShadow).value(s("policy_sha256")).toString(),
             decisionOf(plain).value(s("policy_sha256")).toString());
    QCOMPARE(stringList(decisionOf(withShadow).value(s("source_rule_ids"))), QStringList{active});
    QCOMPARE(withShadow.json.value(s("selection_summary"))
                 .toObject()
                 .value(s("shadow_selected_tool"))
                 .toString(),
             s("t2"));

    // A shadow policy that would remove everything still never blocks.
    QVERIFY2(!api.add(RuleNode(s("shadow-deny-all"))
                          .then(obj({{"tool", obj({{"deny", strs({"t1", "t2", "t3"})}})}})),
                      s("SHADOW"))
                  .isEmpty(),
             api.last.describe());
    const Reply stillFine = api.select(QJsonObject(), candidates, obj({{"include_shadow", true}}));
    QCOMPARE(stillFine.status, 200);
    QCOMPARE(selection(stillFine).value(s("selected")).toString(), s("t1"));
    QVERIFY(stillFine.json.value(s("rules"))
                .toObject()
                .value(s("shadow_selection"))
                .toObject()
                .value(s("selected"))
                .isNull());
}

void tst_HttpTools::decisionFields()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());

    const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
    const Reply first
        = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-fields")}}));
    QCOMPARE(first.status, 200);
    const QJsonObject d = decisionOf(first);
    QCOMPARE(keysOf(d), keyList({"decision_id", "run_id", "selected_tool", "policy_sha256",
                                 "source_rule_ids", "created_at", "decision_uri"}));
    const QString id = d.value(s("decision_id")).toString();
    QVERIFY2(isLowerUuid(id), qPrintable(id));
    QCOMPARE(d.value(s("decision_uri")).toString(), decisionUri(s("default"), s("default"), id));
    QCOMPARE(d.value(s("run_id")).toString(), s("run-fields"));
    QCOMPARE(d.value(s("selected_tool")).toString(), s("editor"));
    const QString policySha = d.value(s("policy_sha256")).toString();
    QVERIFY2(isHex64(policySha), qPrintable(policySha));
    // The hash is over the sorted-key compact JSON of the active policy.
    QCOMPARE(policySha,
             sha256Hex(QJsonDocument(appliedPolicy(first)).toJson(QJsonDocument::Compact)));
    QCOMPARE(sorted(stringList(d.value(s("source_rule_ids")))),
             sorted({rules.toolRule, rules.outputRule}));
    const QDateTime created
        = QDateTime::fromString(d.value(s("created_at")).toString(), Qt::ISODateWithMs);
    QVERIFY2(created.isValid(), qPrintable(d.value(s("created_at")).toString()));
    QVERIFY(created >= before && created <= QDateTime::currentDateTimeUtc().addSecs(1));

    const Reply second
        = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-fields")}}));
    QCOMPARE(second.status, 200);
    QVERIFY(decisionIdOf(second) != id);
    QCOMPARE(decisionOf(second).value(s("policy_sha256")).toString(), policySha);
    QVERIFY(QDateTime::fromString(decisionOf(second).value(s("created_at")).toString(),
                                  Qt::ISODateWithMs)
            >= created);

    // Another policy hashes differently.
    const Reply other = api.select(obj({{"task", s("write")}}), fixCandidates());
    QCOMPARE(other.status, 200);
    QVERIFY(decisionOf(other).value(s("policy_sha256")).toString() != policySha);

    // The stored decision agrees with the response.
    const Reply stored = api.decision(obj({{"decision_id", id}}));
    QCOMPARE(stored.status, 200);
    const QJsonObject sd = decisionOf(stored);
    QCOMPARE(keysOf(sd), storedDecisionKeys());
    for (const char *key : {"decision_id", "decision_uri", "run_id", "selected_tool",
                            "policy_sha256", "source_rule_ids", "created_at"})
        QCOMPARE(jsonText(sd.value(QLatin1String(key))), jsonText(d.value(QLatin1String(key))));
    QCOMPARE(sd.value(s("decision_kind")).toString(), s("tools_select"));
    QCOMPARE(stringList(sd.value(s("candidates"))), stringList(fixCandidates()));
    QVERIFY(isHex64(sd.value(s("context_sha256")).toString()));
    QVERIFY(sd.value(s("commit_id")).isNull());
}

void tst_HttpTools::decisionUriUsesTenantAndScope()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const Reply r = api.select(QJsonObject(), strs({"t1"}),
                               obj({{"tenant_id", s("acme")}, {"scope", s("proj-1")}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("tenant_id")).toString(), s("acme"));
    QCOMPARE(r.json.value(s("scope")).toString(), s("proj-1"));
    const QString id = decisionIdOf(r);
    QCOMPARE(decisionOf(r).value(s("decision_uri")).toString(),
             decisionUri(s("acme"), s("proj-1"), id));

    // Found in its own tenant and scope only.
    QCOMPARE(
        api.decision(obj({{"decision_id", id}, {"tenant_id", s("acme")}, {"scope", s("proj-1")}}))
            .status,
        200);
    const Reply elsewhere = api.decision(obj({{"decision_id", id}}));
    QCOMPARE(elsewhere.status, 404);
    QCOMPARE(elsewhere.errorCode(), s("not_found"));
    const Reply otherScope = api.decision(
        obj({{"decision_id", id}, {"tenant_id", s("acme")}, {"scope", s("proj-2")}}));
    QCOMPARE(otherScope.status, 404);
}

void tst_HttpTools::decisionUriWithEncodedScope()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QJsonObject where = obj({{"scope", s("team a/b%c")}});
    const Reply r
        = api.select(kFixContext, fixCandidates(), merged(where, obj({{"run_id", s("run-enc")}})));
    QCOMPARE(r.status, 200);
    const QString uri = decisionOf(r).value(s("decision_uri")).toString();
    QCOMPARE(uri, s("memorygraph://default/team%20a%2Fb%25c/decision/") + decisionIdOf(r));
    const Reply byUri = api.decision(merged(where, obj({{"decision_uri", uri}})));
    QVERIFY2(byUri.status == 200, byUri.describe().constData());
    QCOMPARE(byUri.json.value(s("lookup_mode")).toString(), s("decision_uri"));
    QCOMPARE(decisionOf(byUri).value(s("decision_id")).toString(), decisionIdOf(r));
    // No rules in this scope: the first candidate was selected.
    const Reply fb = api.feedback(kFixContext, fixCandidates(), s("shell"), s("positive"),
                                  merged(where, obj({{"decision_uri", uri}})));
    QVERIFY2(fb.status == 200, fb.describe().constData());
    QCOMPARE(fb.json.value(s("decision_uri")).toString(), uri);
}

void tst_HttpTools::selectIsNotIdempotent()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QSet<QString> ids;
    for (int i = 0; i < 3; ++i) {
        const Reply r = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-same")}}));
        QCOMPARE(r.status, 200);
        ids.insert(decisionIdOf(r));
    }
    QCOMPARE(ids.size(), 3);
    const Reply run = api.run(obj({{"run_id", s("run-same")}}));
    QCOMPARE(run.status, 200);
    QCOMPARE(run.json.value(s("lifecycle")).toObject().value(s("decision_count")).toInt(), 3);
    // Selecting writes no commit: decisions are not audited commits.
    QCOMPARE(commitCount(server), 0);
}

void tst_HttpTools::continuityEchoedUnchanged()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    // Continuity evidence is part of the context the rules see.
    const QString rule = api.add(RuleNode(s("after-ok"))
                                     .when(obj({{"execution_result_summary.status", s("ok")}}))
                                     .then(obj({{"tool", obj({{"prefer", strs({"shell"})}})}})));
    QVERIFY2(!rule.isEmpty(), api.last.describe());

    const QJsonObject continuity = obj(
        {{"execution_state_v1",
          obj({{"current_stage", s("patch")},
               {"active_role", s("coder")},
               {"nested", obj({{"list", QJsonArray{1, s("a"), QJsonValue(), 2.5}}})}})},
         {"execution_result_summary",
          obj({{"status", s("ok")}, {"tests", obj({{"passed", 12}, {"failed", 0}})}})},
         {"execution_artifacts", QJsonArray{obj({{"kind", s("log")}, {"ref", s("artifact://1")}})}},
         {"execution_evidence",
          QJsonArray{obj({{"id", s("e1")}}), obj({{"id", s("e2")}, {"weight", 0.75}})}}});
    const Reply r = api.select(obj({{"task", s("fix")}}),
                               strs({"editor", "shell", "broad_scan_repo"}), continuity);
    QCOMPARE(r.status, 200);
    for (auto it = continuity.begin(); it != continuity.end(); ++it)
        QCOMPARE(jsonText(r.json.value(it.key())), jsonText(it.value()));
    QStringList keys = selectResponseKeys();
    keys << continuity.keys();
    keys.sort();
    QCOMPARE(keysOf(r.json), keys);

    QCOMPARE(selection(r).value(s("selected")).toString(), s("shell"));
    QCOMPARE(stringList(decisionOf(r).value(s("source_rule_ids"))), QStringList{rule});
    const QJsonObject kernel = r.json.value(s("execution_kernel")).toObject();
    QCOMPARE(kernel.value(s("execution_state_v1_present")).toBool(), true);
    QCOMPARE(kernel.value(s("execution_result_summary_present")).toBool(), true);
    QCOMPARE(kernel.value(s("execution_artifacts_count")).toInt(), 1);
    QCOMPARE(kernel.value(s("execution_evidence_count")).toInt(), 2);
    QCOMPARE(kernel.value(s("current_stage")).toString(), s("patch"));
    QCOMPARE(kernel.value(s("active_role")).toString(), s("coder"));
    QCOMPARE(kernel.value(s("control_profile_origin")).toString(), s("state_derived"));
    // The patch stage forbids broad scans: that candidate is denied by the control profile.
    QCOMPARE(jsonText(selection(r).value(s("denied")).toArray().first()),
             jsonText(obj({{"name", s("broad_scan_repo")}, {"reason", s("control_profile")}})));

    // Without continuity nothing is echoed.
    const Reply bare = api.select(obj({{"task", s("fix")}}), strs({"editor", "shell"}));
    QCOMPARE(bare.status, 200);
    QCOMPARE(keysOf(bare.json), selectResponseKeys());
    QCOMPARE(selection(bare).value(s("selected")).toString(), s("editor"));
    QCOMPARE(bare.json.value(s("execution_kernel"))
                 .toObject()
                 .value(s("execution_state_v1_present"))
                 .toBool(),
             false);
}

// ---- tools/feedback
// ---------------------------------------------------------------------------------

void tst_HttpTools::feedbackProvidedById()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());
    const RuleEvidence toolBefore = evidenceOf(api, kFixContext, rules.toolRule);
    QCOMPARE(toolBefore.positive, 0);

    const Reply selected = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-fb")}}));
    QCOMPARE(selected.status, 200);
    const QString decisionId = decisionIdOf(selected);
    const int commitsBefore = commitCount(server);

    const Reply r = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                                 obj({{"decision_id", decisionId}, {"run_id", s("run-fb")}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(keysOf(r.json), feedbackResponseKeys());
    QCOMPARE(r.json.value(s("ok")).toBool(), true);
    QCOMPARE(r.json.value(s("tenant_id")).toString(), s("default"));
    QCOMPARE(r.json.value(s("scope")).toString(), s("default"));
    QCOMPARE(r.json.value(s("decision_link_mode")).toString(), s("provided"));
    QCOMPARE(r.json.value(s("decision_id")).toString(), decisionId);
    QCOMPARE(r.json.value(s("decision_uri")).toString(),
             decisionUri(s("default"), s("default"), decisionId));
    QCOMPARE(r.json.value(s("decision_policy_sha256")).toString(),
             decisionOf(selected).value(s("policy_sha256")).toString());
    QCOMPARE(r.json.value(s("updated_rules")).toInt(), 1); // target defaults to tool
    QCOMPARE(stringList(r.json.value(s("rule_node_ids"))), QStringList{rules.toolRule});
    const QString commitId = r.json.value(s("commit_id")).toString();
    QVERIFY2(isLowerUuid(commitId), r.describe());
    QVERIFY2(isHex64(r.json.value(s("commit_hash")).toString()), r.describe());
    QCOMPARE(r.json.value(s("commit_uri")).toString(),
             s("memorygraph://default/default/commit/") + commitId);

    // Audited as a commit of kind tool_feedback.
    const QVector<CommitRecord> commits = server.commits();
    QCOMPARE(int(commits.size()), commitsBefore + 1);
    QCOMPARE(commits.first().id, commitId);
    QCOMPARE(commits.first().kind, s("tool_feedback"));
    QCOMPARE(commits.first().commitHash, r.json.value(s("commit_hash")).toString());
    QCOMPARE(commits.first().parentId, commits.at(1).id);
    const QJsonObject entry
        = commits.first().diff.value(s("tool_feedback")).toArray().first().toObject();
    QCOMPARE(entry.value(s("decision_id")).toString(), decisionId);
    QCOMPARE(entry.value(s("decision_link_mode")).toString(), s("provided"));
    QCOMPARE(entry.value(s("outcome")).toString(), s("positive"));
    QCOMPARE(entry.value(s("selected_tool")).toString(), s("editor"));
    QCOMPARE(entry.value(s("run_id")).toString(), s("run-fb"));
    QCOMPARE(entry.value(s("target")).toString(), s("tool"));
    QCOMPARE(stringList(entry.value(s("rule_node_ids"))), QStringList{rules.toolRule});

    // Only the attributed rule's statistics move.
    const RuleEvidence toolAfter = evidenceOf(api, kFixContext, rules.toolRule);
    QCOMPARE(toolAfter.positive, 1);
    QCOMPARE(toolAfter.negative, 0);
    QCOMPARE(toolAfter.evidence, 1);
    QCOMPARE(toolAfter.score, toolBefore.score + 100.0);
    const RuleEvidence output = evidenceOf(api, kFixContext, rules.outputRule);
    QCOMPARE(output.positive, 0);
    QCOMPARE(output.negative, 0);
    QCOMPARE(output.evidence, 0);

    // A second outcome on the same decision accumulates.
    const Reply again = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                                     obj({{"decision_id", decisionId}}));
    QCOMPARE(again.status, 200);
    QCOMPARE(again.json.value(s("decision_link_mode")).toString(), s("provided"));
    QCOMPARE(evidenceOf(api, kFixContext, rules.toolRule).positive, 2);
    QCOMPARE(commitCount(server), commitsBefore + 2);
}

void tst_HttpTools::feedbackProvidedByUri()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());
    const Reply selected = api.select(kFixContext, fixCandidates());
    QCOMPARE(selected.status, 200);
    const QString decisionId = decisionIdOf(selected);
    const QString uri = decisionOf(selected).value(s("decision_uri")).toString();

    const Reply r = api.feedback(kFixContext, fixCandidates(), s("editor"), s("negative"),
                                 obj({{"decision_uri", uri}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("decision_link_mode")).toString(), s("provided"));
    QCOMPARE(r.json.value(s("decision_id")).toString(), decisionId);
    const RuleEvidence e = evidenceOf(api, kFixContext, rules.toolRule);
    QCOMPARE(e.positive, 0);
    QCOMPARE(e.negative, 1);
    QCOMPARE(e.evidence, -1);
    QCOMPARE(e.score, -100.0 + 1.0);

    // id and uri together must agree.
    const Reply both = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                                    obj({{"decision_uri", uri}, {"decision_id", decisionId}}));
    QCOMPARE(both.status, 200);
    QCOMPARE(both.json.value(s("decision_link_mode")).toString(), s("provided"));
    const int commits = commitCount(server);
    const Reply disagree = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                                        obj({{"decision_uri", uri}, {"decision_id", uuid()}}));
    QCOMPARE(disagree.status, 400);
    QCOMPARE(disagree.issuePath(), s("decision_uri"));
    const Reply otherScope = api.feedback(
        kFixContext, fixCandidates(), s("editor"), s("positive"),
        obj({{"decision_uri", decisionUri(s("default"), s("elsewhere"), decisionId)}}));
    QCOMPARE(otherScope.status, 400);
    QCOMPARE(otherScope.issuePath(), s("decision_uri"));
    const Reply notADecision = api.feedback(
        kFixContext, fixCandidates(), s("editor"), s("positive"),
        obj({{"decision_uri", s("memorygraph://default/default/commit/") + decisionId}}));
    QCOMPARE(notADecision.status, 400);
    QCOMPARE(commitCount(server), commits);
}

void tst_HttpTools::feedbackInferred()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());

    // Same run, tool, candidates and context: the run's decision.
    const Reply first = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-inf")}}));
    const Reply second = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-inf")}}));
    QCOMPARE(first.status, 200);
    QCOMPARE(second.status, 200);
    const Reply r = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                                 obj({{"run_id", s("run-inf")}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("decision_link_mode")).toString(), s("inferred"));
    QCOMPARE(r.json.value(s("decision_id")).toString(), decisionIdOf(second)); // the newest one
    QCOMPARE(r.json.value(s("decision_policy_sha256")).toString(),
             decisionOf(second).value(s("policy_sha256")).toString());
    QCOMPARE(evidenceOf(api, kFixContext, rules.toolRule).positive, 1);

    // No run on either side: the identical recent decision.
    const QJsonObject context2 = obj({{"task", s("fix")}, {"attempt", 2}});
    const Reply noRun = api.select(context2, fixCandidates());
    QCOMPARE(noRun.status, 200);
    const Reply inferredNoRun = api.feedback(context2, fixCandidates(), s("editor"), s("negative"));
    QCOMPARE(inferredNoRun.status, 200);
    QCOMPARE(inferredNoRun.json.value(s("decision_link_mode")).toString(), s("inferred"));
    QCOMPARE(inferredNoRun.json.value(s("decision_id")).toString(), decisionIdOf(noRun));

    // No new decision was created by inference.
    const Reply run = api.run(obj({{"run_id", s("run-inf")}}));
    QCOMPARE(run.status, 200);
    QCOMPARE(run.json.value(s("lifecycle")).toObject().value(s("decision_count")).toInt(), 2);
    QCOMPARE(run.json.value(s("lifecycle")).toObject().value(s("status")).toString(),
             s("feedback_linked"));
}

void tst_HttpTools::feedbackCreatedFromFeedback()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());
    const Reply evaluated = api.evaluate(kFixContext);
    const QString currentPolicySha = sha256Hex(
        QJsonDocument(evaluated.json.value(s("applied")).toObject().value(s("policy")).toObject())
            .toJson(QJsonDocument::Compact));

    const Reply r = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                                 obj({{"run_id", s("run-new")}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("decision_link_mode")).toString(), s("created_from_feedback"));
    const QString decisionId = r.json.value(s("decision_id")).toString();
    QVERIFY2(isLowerUuid(decisionId), r.describe());
    QCOMPARE(r.json.value(s("decision_policy_sha256")).toString(), currentPolicySha);
    QCOMPARE(evidenceOf(api, kFixContext, rules.toolRule).positive, 1);

    const Reply stored = api.decision(obj({{"decision_id", decisionId}}));
    QCOMPARE(stored.status, 200);
    const QJsonObject d = decisionOf(stored);
    QCOMPARE(d.value(s("run_id")).toString(), s("run-new"));
    QCOMPARE(d.value(s("selected_tool")).toString(), s("editor"));
    QCOMPARE(stringList(d.value(s("candidates"))), stringList(fixCandidates()));
    QCOMPARE(d.value(s("metadata")).toObject().value(s("source")).toString(),
             s("feedback_derived"));
    QCOMPARE(d.value(s("commit_id")).toString(), r.json.value(s("commit_id")).toString());
    QCOMPARE(stringList(d.value(s("source_rule_ids"))), QStringList{rules.toolRule});
    QCOMPARE(
        stored.json.value(s("lifecycle_summary")).toObject().value(s("metadata_source")).toString(),
        s("feedback_derived"));

    // Feedback naming another tool than the run's selection does not link to it.
    const Reply selected
        = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-other-tool")}}));
    QCOMPARE(selected.status, 200);
    const Reply otherTool = api.feedback(kFixContext, fixCandidates(), s("shell"), s("negative"),
                                         obj({{"run_id", s("run-other-tool")}}));
    QCOMPARE(otherTool.status, 200);
    QCOMPARE(otherTool.json.value(s("decision_link_mode")).toString(), s("created_from_feedback"));
    QVERIFY(otherTool.json.value(s("decision_id")).toString() != decisionIdOf(selected));
    QCOMPARE(api.run(obj({{"run_id", s("run-other-tool")}}))
                 .json.value(s("lifecycle"))
                 .toObject()
                 .value(s("decision_count"))
                 .toInt(),
             2);
}

void tst_HttpTools::feedbackTargetToolVsAll()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());
    // A shadow tool rule gets nothing unless include_shadow is set.
    const QString shadowTool
        = api.add(RuleNode(s("shadow-tool"))
                      .when(obj({{"task", s("fix")}}))
                      .then(obj({{"tool", obj({{"deny", strs({"browser"})}})}})),
                  s("SHADOW"));
    QVERIFY2(!shadowTool.isEmpty(), api.last.describe());

    const Reply tool = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                                    obj({{"target", s("tool")}}));
    QCOMPARE(tool.status, 200);
    QCOMPARE(stringList(tool.json.value(s("rule_node_ids"))), QStringList{rules.toolRule});

    const Reply all = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                                   obj({{"target", s("all")}}));
    QCOMPARE(all.status, 200);
    QCOMPARE(all.json.value(s("updated_rules")).toInt(), 2);
    QCOMPARE(sorted(stringList(all.json.value(s("rule_node_ids")))),
             sorted({rules.toolRule, rules.outputRule}));
    QCOMPARE(server.commits()
                 .first()
                 .diff.value(s("tool_feedback"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(s("target"))
                 .toString(),
             s("all"));

    QCOMPARE(evidenceOf(api, kFixContext, rules.toolRule).positive, 2);
    QCOMPARE(evidenceOf(api, kFixContext, rules.outputRule).positive, 1);

    const Reply withShadow = api.feedback(kFixContext, fixCandidates(), s("editor"), s("negative"),
                                          obj({{"target", s("tool")}, {"include_shadow", true}}));
    QCOMPARE(withShadow.status, 200);
    QCOMPARE(sorted(stringList(withShadow.json.value(s("rule_node_ids")))),
             sorted({rules.toolRule, shadowTool}));
    const QJsonObject shadowMatch
        = matchById(api.evaluate(kFixContext).json.value(s("shadow")), shadowTool);
    QCOMPARE(jsonText(shadowMatch.value(s("stats"))),
             jsonText(obj({{"positive", 0}, {"negative", 1}})));

    // A context no tool rule matches attributes nothing.
    const Reply none
        = api.feedback(obj({{"task", s("other")}}), fixCandidates(), s("editor"), s("positive"));
    QCOMPARE(none.status, 200);
    QCOMPARE(none.json.value(s("updated_rules")).toInt(), 0);
    QCOMPARE(stringList(none.json.value(s("rule_node_ids"))), QStringList());
    QCOMPARE(evidenceOf(api, kFixContext, rules.toolRule).positive, 2);
}

void tst_HttpTools::feedbackNeutral()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());
    const Reply selected = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-n")}}));
    const int before = commitCount(server);
    const Reply r
        = api.feedback(kFixContext, fixCandidates(), s("editor"), s("neutral"),
                       obj({{"decision_id", decisionIdOf(selected)}, {"run_id", s("run-n")}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("updated_rules")).toInt(), 1);
    QCOMPARE(commitCount(server), before + 1);
    const RuleEvidence e = evidenceOf(api, kFixContext, rules.toolRule);
    QCOMPARE(e.positive, 0);
    QCOMPARE(e.negative, 0);
    const Reply run = api.run(obj({{"run_id", s("run-n")}}));
    QCOMPARE(jsonText(run.json.value(s("feedback")).toObject().value(s("by_outcome"))),
             jsonText(obj({{"positive", 0}, {"negative", 0}, {"neutral", 1}})));
}

void tst_HttpTools::feedbackAdoptsRunId()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());
    const Reply selected = api.select(kFixContext, fixCandidates()); // no run_id
    QCOMPARE(selected.status, 200);
    QVERIFY(decisionOf(selected).value(s("run_id")).isNull());
    QCOMPARE(api.run(obj({{"run_id", s("run-adopt")}})).status, 404);

    const Reply fb
        = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                       obj({{"decision_id", decisionIdOf(selected)}, {"run_id", s("run-adopt")}}));
    QCOMPARE(fb.status, 200);
    QCOMPARE(fb.json.value(s("decision_link_mode")).toString(), s("provided"));
    const Reply stored = api.decision(obj({{"decision_id", decisionIdOf(selected)}}));
    QCOMPARE(decisionOf(stored).value(s("run_id")).toString(), s("run-adopt"));
    const Reply run = api.run(obj({{"run_id", s("run-adopt")}}));
    QCOMPARE(run.status, 200);
    QCOMPARE(run.json.value(s("lifecycle")).toObject().value(s("decision_count")).toInt(), 1);
    QCOMPARE(run.json.value(s("lifecycle")).toObject().value(s("status")).toString(),
             s("feedback_linked"));
}

void tst_HttpTools::feedbackMismatch_data()
{
    QTest::addColumn<QString>("selectedTool");
    QTest::addColumn<QJsonArray>("candidates");
    QTest::addColumn<QString>("runId");
    QTest::addColumn<QString>("code");

    QTest::newRow("selected tool")
        << s("shell") << fixCandidates() << s("run-m") << s("decision_selected_tool_mismatch");
    QTest::newRow("fewer candidates") << s("editor") << strs({"shell", "editor"}) << s("run-m")
                                      << s("decision_candidates_mismatch");
    QTest::newRow("more candidates") << s("editor") << strs({"shell", "editor", "browser", "ide"})
                                     << s("run-m") << s("decision_candidates_mismatch");
    QTest::newRow("reordered candidates") << s("editor") << strs({"editor", "shell", "browser"})
                                          << s("run-m") << s("decision_candidates_mismatch");
    QTest::newRow("other run") << s("editor") << fixCandidates() << s("run-other")
                               << s("decision_run_id_mismatch");
}

void tst_HttpTools::feedbackMismatch()
{
    QFETCH(QString, selectedTool);
    QFETCH(QJsonArray, candidates);
    QFETCH(QString, runId);
    QFETCH(QString, code);

    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());
    const Reply selected = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-m")}}));
    QCOMPARE(selected.status, 200);
    const int before = commitCount(server);

    const Reply r = api.feedback(
        kFixContext, candidates, selectedTool, s("positive"),
        obj({{"decision_id", decisionIdOf(selected)}, {"run_id", runId}, {"target", s("all")}}));
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), code);
    QCOMPARE(commitCount(server), before);
    QCOMPARE(evidenceOf(api, kFixContext, rules.toolRule).positive, 0);
    QCOMPARE(evidenceOf(api, kFixContext, rules.outputRule).positive, 0);
    const Reply run = api.run(obj({{"run_id", s("run-m")}}));
    QCOMPARE(run.json.value(s("lifecycle")).toObject().value(s("status")).toString(),
             s("decision_recorded"));
    QCOMPARE(run.json.value(s("feedback")).toObject().value(s("total")).toInt(), 0);
}

void tst_HttpTools::feedbackUnknownDecision()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());
    const int before = commitCount(server);
    const QString unknown = uuid();
    const Reply r = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                                 obj({{"decision_id", unknown}}));
    QCOMPARE(r.status, 404);
    QCOMPARE(r.errorCode(), s("not_found"));
    QCOMPARE(commitCount(server), before);
    QCOMPARE(evidenceOf(api, kFixContext, rules.toolRule).positive, 0);

    const Reply byUri
        = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                       obj({{"decision_uri", decisionUri(s("default"), s("default"), unknown)}}));
    QCOMPARE(byUri.status, 404);
    QCOMPARE(byUri.errorCode(), s("not_found"));
    QCOMPARE(commitCount(server), before);
}

// Product inconsistency: tools/decision and tools/run say which record is missing in
// details.reason; tools/feedback's 404 for an unknown decision_id has only details.decision_id.
void tst_HttpTools::feedbackUnknownDecisionNamesReason()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString unknown = uuid();
    const Reply r = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                                 obj({{"decision_id", unknown}}));
    QCOMPARE(r.status, 404);
    QCOMPARE(r.errorCode(), s("not_found"));
    QCOMPARE(r.json.value(s("details")).toObject().value(s("reason")).toString(),
             s("decision_not_found_in_scope"));
}

void tst_HttpTools::feedbackValidation_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("path");
    const QJsonObject valid = obj({{"context", kFixContext},
                                   {"candidates", fixCandidates()},
                                   {"selected_tool", s("editor")},
                                   {"outcome", s("positive")},
                                   {"input_text", s("worked")}});
    const auto without = [&valid](const char *key) {
        QJsonObject o = valid;
        o.remove(QLatin1String(key));
        return o;
    };
    QTest::newRow("context missing") << without("context") << s("context");
    QTest::newRow("candidates missing") << without("candidates") << s("candidates");
    QTest::newRow("candidates empty")
        << merged(valid, obj({{"candidates", QJsonArray()}})) << s("candidates");
    QTest::newRow("selected_tool missing") << without("selected_tool") << s("selected_tool");
    QTest::newRow("outcome missing") << without("outcome") << s("outcome");
    QTest::newRow("outcome unknown")
        << merged(valid, obj({{"outcome", s("great")}})) << s("outcome");
    QTest::newRow("input missing") << without("input_text") << s("input_text");
    QTest::newRow("target unknown") << merged(valid, obj({{"target", s("rules")}})) << s("target");
    QTest::newRow("decision_id not a uuid")
        << merged(valid, obj({{"decision_id", s("d-1")}})) << s("decision_id");
    QTest::newRow("rules_limit 201")
        << merged(valid, obj({{"rules_limit", 201}})) << s("rules_limit");
}

void tst_HttpTools::feedbackValidation()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, path);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply r = server.post(s("/v1/memory/tools/feedback"), body);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), s("invalid_request"));
    QCOMPARE(r.issuePath(), path);
    QCOMPARE(commitCount(server), 0);
}

// ---- tools/decision
// ---------------------------------------------------------------------------------

void tst_HttpTools::decisionLookupModes()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());
    const Reply s1 = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-d")}}));
    const Reply s2
        = api.select(kFixContext, strs({"shell", "browser"}), obj({{"run_id", s("run-d")}}));
    const Reply s3 = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-e")}}));
    QVERIFY(s1.status == 200 && s2.status == 200 && s3.status == 200);
    const QString d1 = decisionIdOf(s1);
    const QString d2 = decisionIdOf(s2);

    const Reply byId = api.decision(obj({{"decision_id", d1}}));
    QCOMPARE(byId.status, 200);
    QCOMPARE(keysOf(byId.json), keyList({"request_id", "tenant_id", "scope", "lookup_mode",
                                         "decision", "lifecycle_summary"}));
    QCOMPARE(byId.json.value(s("lookup_mode")).toString(), s("decision_id"));
    QCOMPARE(keysOf(decisionOf(byId)), storedDecisionKeys());
    QCOMPARE(decisionOf(byId).value(s("decision_id")).toString(), d1);
    QCOMPARE(decisionOf(byId).value(s("run_id")).toString(), s("run-d"));
    QCOMPARE(decisionOf(byId).value(s("selected_tool")).toString(), s("editor"));
    QCOMPARE(stringList(decisionOf(byId).value(s("candidates"))), stringList(fixCandidates()));
    QCOMPARE(decisionOf(byId).value(s("decision_uri")).toString(),
             decisionOf(s1).value(s("decision_uri")).toString());
    const QJsonObject summary = byId.json.value(s("lifecycle_summary")).toObject();
    QCOMPARE(summary.value(s("kind")).toString(), s("decision"));
    QCOMPARE(summary.value(s("lookup_mode")).toString(), s("decision_id"));
    QCOMPARE(summary.value(s("decision_id")).toString(), d1);
    QCOMPARE(summary.value(s("candidate_count")).toInt(), 3);
    QCOMPARE(summary.value(s("source_rule_count")).toInt(), 2);
    QVERIFY(summary.value(s("metadata_source")).isNull());

    // Idempotent read.
    const Reply again = api.decision(obj({{"decision_id", d1}}));
    QCOMPARE(jsonText(again.json.value(s("decision"))), jsonText(byId.json.value(s("decision"))));

    const Reply byUri
        = api.decision(obj({{"decision_uri", decisionOf(s1).value(s("decision_uri"))}}));
    QCOMPARE(byUri.status, 200);
    QCOMPARE(byUri.json.value(s("lookup_mode")).toString(), s("decision_uri"));
    QCOMPARE(jsonText(byUri.json.value(s("decision"))), jsonText(byId.json.value(s("decision"))));

    const Reply byRun = api.decision(obj({{"run_id", s("run-d")}}));
    QCOMPARE(byRun.status, 200);
    QCOMPARE(byRun.json.value(s("lookup_mode")).toString(), s("run_id"));
    QCOMPARE(decisionOf(byRun).value(s("decision_id")).toString(), d2); // newest of the run
    QCOMPARE(decisionOf(byRun).value(s("selected_tool")).toString(), s("shell"));

    // The id wins over the run when both agree; a different run is refused.
    const Reply idAndRun = api.decision(obj({{"decision_id", d1}, {"run_id", s("run-d")}}));
    QCOMPARE(idAndRun.status, 200);
    QCOMPARE(idAndRun.json.value(s("lookup_mode")).toString(), s("decision_id"));
    QCOMPARE(decisionOf(idAndRun).value(s("decision_id")).toString(), d1);
    const Reply idOtherRun = api.decision(obj({{"decision_id", d1}, {"run_id", s("run-e")}}));
    QCOMPARE(idOtherRun.status, 400);
    QCOMPARE(idOtherRun.errorCode(), s("decision_run_id_mismatch"));
}

void tst_HttpTools::decisionLookupErrors_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("reason"); // details.reason for 404, issue path for 400

    const QString unknown = uuid();
    QTest::newRow("nothing given") << QJsonObject() << 400 << s("invalid_request") << QString();
    QTest::newRow("only scope given")
        << obj({{"scope", s("default")}}) << 400 << s("invalid_request") << QString();
    QTest::newRow("decision_id not a uuid")
        << obj({{"decision_id", s("abc")}}) << 400 << s("invalid_request") << s("decision_id");
    QTest::newRow("unknown decision_id") << obj({{"decision_id", unknown}}) << 404 << s("not_found")
                                         << s("decision_not_found_in_scope");
    QTest::newRow("unknown decision_uri")
        << obj({{"decision_uri", decisionUri(s("default"), s("default"), unknown)}}) << 404
        << s("not_found") << s("decision_not_found_in_scope");
    QTest::newRow("unknown run") << obj({{"run_id", s("run-none")}}) << 404 << s("not_found")
                                 << s("decision_not_found_for_run");
    QTest::newRow("uri of a commit")
        << obj({{"decision_uri", s("memorygraph://default/default/commit/") + unknown}}) << 400
        << s("invalid_request") << s("decision_uri");
    QTest::newRow("uri of another scope")
        << obj({{"decision_uri", decisionUri(s("default"), s("other"), unknown)}}) << 400
        << s("invalid_request") << s("decision_uri");
    QTest::newRow("uri garbage") << obj({{"decision_uri", s("not a uri")}}) << 400
                                 << s("invalid_request") << s("decision_uri");
}

void tst_HttpTools::decisionLookupErrors()
{
    QFETCH(QJsonObject, body);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, reason);

    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QCOMPARE(api.select(QJsonObject(), strs({"t1"}), obj({{"run_id", s("run-exists")}})).status,
             200);
    const Reply r = api.decision(body);
    QCOMPARE(r.status, status);
    QCOMPARE(r.errorCode(), code);
    if (status == 404)
        QCOMPARE(r.json.value(s("details")).toObject().value(s("reason")).toString(), reason);
    else if (!reason.isEmpty())
        QCOMPARE(r.issuePath(), reason);
}

// ---- tools/run
// ----------------------------------------------------------------------------------------

void tst_HttpTools::runLifecycle()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const FeedbackRules rules = addFeedbackRules(api);
    QVERIFY2(!rules.outputRule.isEmpty(), api.last.describe());
    QStringList decisionIds;
    for (int i = 0; i < 3; ++i) {
        const Reply r = api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-L")}}));
        QCOMPARE(r.status, 200);
        decisionIds.prepend(decisionIdOf(r)); // newest first
    }
    QCOMPARE(api.select(kFixContext, fixCandidates(), obj({{"run_id", s("run-M")}})).status, 200);

    const Reply recorded = api.run(obj({{"run_id", s("run-L")}}));
    QCOMPARE(recorded.status, 200);
    QCOMPARE(keysOf(recorded.json),
             keyList({"request_id", "tenant_id", "scope", "run_id", "lifecycle", "decisions",
                      "limits", "feedback", "lifecycle_summary"}));
    QCOMPARE(recorded.json.value(s("run_id")).toString(), s("run-L"));
    const QJsonObject lifecycle = recorded.json.value(s("lifecycle")).toObject();
    QCOMPARE(lifecycle.value(s("status")).toString(), s("decision_recorded"));
    QCOMPARE(lifecycle.value(s("decision_count")).toInt(), 3);
    QVERIFY(lifecycle.value(s("latest_feedback_at")).isNull());
    QStringList listed;
    for (const QJsonValue &d : recorded.json.value(s("decisions")).toArray())
        listed << d.toObject().value(s("decision_id")).toString();
    QCOMPARE(listed, decisionIds);
    QCOMPARE(keysOf(recorded.json.value(s("decisions")).toArray().first().toObject()),
             storedDecisionKeys());
    QCOMPARE(jsonText(recorded.json.value(s("limits"))),
             jsonText(obj({{"decision_limit", 10}, {"feedback_limit", 50}})));
    QCOMPARE(jsonText(recorded.json.value(s("feedback"))),
             jsonText(obj({{"total", 0},
                           {"by_outcome", obj({{"positive", 0}, {"negative", 0}, {"neutral", 0}})},
                           {"linked_decision_count", 0},
                           {"tools_feedback_count", 0},
                           {"recent", QJsonArray()}})));
    QCOMPARE(recorded.json.value(s("lifecycle_summary")).toObject().value(s("status")).toString(),
             s("decision_recorded"));
    QCOMPARE(
        recorded.json.value(s("lifecycle_summary")).toObject().value(s("decision_count")).toInt(),
        3);

    const Reply capped = api.run(obj({{"run_id", s("run-L")}, {"decision_limit", 2}}));
    QCOMPARE(capped.status, 200);
    QCOMPARE(capped.json.value(s("decisions")).toArray().size(), 2);
    QCOMPARE(capped.json.value(s("decisions"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(s("decision_id"))
                 .toString(),
             decisionIds.first());
    QCOMPARE(capped.json.value(s("lifecycle")).toObject().value(s("decision_count")).toInt(), 3);
    QCOMPARE(capped.json.value(s("limits")).toObject().value(s("decision_limit")).toInt(), 2);

    // One feedback attributed to one rule, then one attributed to two.
    const Reply positive
        = api.feedback(kFixContext, fixCandidates(), s("editor"), s("positive"),
                       obj({{"decision_id", decisionIds.at(0)}, {"run_id", s("run-L")}}));
    QCOMPARE(positive.status, 200);
    const Reply linked = api.run(obj({{"run_id", s("run-L")}}));
    QCOMPARE(linked.status, 200);
    QCOMPARE(linked.json.value(s("lifecycle")).toObject().value(s("status")).toString(),
             s("feedback_linked"));
    QVERIFY(!linked.json.value(s("lifecycle")).toObject().value(s("latest_feedback_at")).isNull());
    QJsonObject feedback = linked.json.value(s("feedback")).toObject();
    QCOMPARE(feedback.value(s("total")).toInt(), 1);
    QCOMPARE(feedback.value(s("linked_decision_count")).toInt(), 1);
    QCOMPARE(feedback.value(s("tools_feedback_count")).toInt(), 1);
    const QJsonObject row = feedback.value(s("recent")).toArray().first().toObject();
    QCOMPARE(row.value(s("rule_node_id")).toString(), rules.toolRule);
    QCOMPARE(row.value(s("outcome")).toString(), s("positive"));
    QCOMPARE(row.value(s("source")).toString(), s("tools_feedback"));
    QCOMPARE(row.value(s("decision_id")).toString(), decisionIds.at(0));
    QCOMPARE(row.value(s("commit_id")).toString(), positive.json.value(s("commit_id")).toString());

    const Reply negative = api.feedback(
        kFixContext, fixCandidates(), s("editor"), s("negative"),
        obj({{"decision_id", decisionIds.at(1)}, {"run_id", s("run-L")}, {"target", s("all")}}));
    QCOMPARE(negative.status, 200);
    const Reply both = api.run(obj({{"run_id", s("run-L")}}));
    feedback = both.json.value(s("feedback")).toObject();
    QCOMPARE(feedback.value(s("total")).toInt(), 3); // one row per attributed rule
    QCOMPARE(jsonText(feedback.value(s("by_outcome"))),
             jsonText(obj({{"positive", 1}, {"negative", 2}, {"neutral", 0}})));
    QCOMPARE(feedback.value(s("linked_decision_count")).toInt(), 3);
    const QJsonArray recent = feedback.value(s("recent")).toArray();
    QCOMPARE(recent.size(), 3);
    QCOMPARE(recent.at(0).toObject().value(s("outcome")).toString(), s("negative"));
    QCOMPARE(recent.at(1).toObject().value(s("outcome")).toString(), s("negative"));
    QCOMPARE(recent.at(2).toObject().value(s("outcome")).toString(), s("positive"));
    QCOMPARE(both.json.value(s("lifecycle_summary")).toObject().value(s("feedback_total")).toInt(),
             3);
    QCOMPARE(both.json.value(s("lifecycle")).toObject().value(s("decision_count")).toInt(), 3);

    const Reply oneRow = api.run(obj({{"run_id", s("run-L")}, {"feedback_limit", 1}}));
    QCOMPARE(oneRow.status, 200);
    QCOMPARE(oneRow.json.value(s("feedback")).toObject().value(s("recent")).toArray().size(), 1);
    QCOMPARE(oneRow.json.value(s("feedback")).toObject().value(s("total")).toInt(), 3);
    QCOMPARE(jsonText(oneRow.json.value(s("limits"))),
             jsonText(obj({{"decision_limit", 10}, {"feedback_limit", 1}})));

    const Reply noFeedback = api.run(obj({{"run_id", s("run-L")}, {"include_feedback", false}}));
    QCOMPARE(noFeedback.status, 200);
    QVERIFY2(!noFeedback.json.contains(s("feedback")), noFeedback.describe());
    QCOMPARE(noFeedback.json.value(s("lifecycle")).toObject().value(s("status")).toString(),
             s("feedback_linked"));

    // Another run of the scope is untouched; another tenant does not see the run.
    const Reply other = api.run(obj({{"run_id", s("run-M")}}));
    QCOMPARE(other.json.value(s("lifecycle")).toObject().value(s("status")).toString(),
             s("decision_recorded"));
    QCOMPARE(other.json.value(s("lifecycle")).toObject().value(s("decision_count")).toInt(), 1);
    const Reply otherTenant = api.run(obj({{"run_id", s("run-L")}, {"tenant_id", s("acme")}}));
    QCOMPARE(otherTenant.status, 404);
}

void tst_HttpTools::runErrors_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("detail"); // details.reason for 404, issue path for 400

    QTest::newRow("unknown run") << obj({{"run_id", s("run-none")}}) << 404 << s("not_found")
                                 << s("run_not_found_in_scope");
    QTest::newRow("run_id missing") << QJsonObject() << 400 << s("invalid_request") << s("run_id");
    QTest::newRow("run_id empty") << obj({{"run_id", s("")}}) << 400 << s("invalid_request")
                                  << s("run_id");
    QTest::newRow("decision_limit 0") << obj({{"run_id", s("run-x")}, {"decision_limit", 0}}) << 400
                                      << s("invalid_request") << s("decision_limit");
    QTest::newRow("decision_limit 201") << obj({{"run_id", s("run-x")}, {"decision_limit", 201}})
                                        << 400 << s("invalid_request") << s("decision_limit");
    QTest::newRow("feedback_limit 201") << obj({{"run_id", s("run-x")}, {"feedback_limit", 201}})
                                        << 400 << s("invalid_request") << s("feedback_limit");
    QTest::newRow("include_feedback a string")
        << obj({{"run_id", s("run-x")}, {"include_feedback", s("no")}}) << 400
        << s("invalid_request") << s("include_feedback");
}

void tst_HttpTools::runErrors()
{
    QFETCH(QJsonObject, body);
    QFETCH(int, status);
    QFETCH(QString, code);
    QFETCH(QString, detail);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QCOMPARE(api.select(QJsonObject(), strs({"t1"}), obj({{"run_id", s("run-x")}})).status, 200);
    const Reply r = api.run(body);
    QCOMPARE(r.status, status);
    QCOMPARE(r.errorCode(), code);
    if (status == 404)
        QCOMPARE(r.json.value(s("details")).toObject().value(s("reason")).toString(), detail);
    else
        QCOMPARE(r.issuePath(), detail);
    // The limits at their maxima are accepted.
    QCOMPARE(
        api.run(obj({{"run_id", s("run-x")}, {"decision_limit", 200}, {"feedback_limit", 200}}))
            .status,
        200);
}

QTEST_GUILESS_MAIN(tst_HttpTools)
#include "tst_httptools.moc"
