// Rules over real HTTP: POST /v1/memory/rules/evaluate, POST /v1/memory/rules/state, rule slots
// on /v1/memory/write and rules_context on /v1/memory/recall (spec §2.6-2.8, §4.3, §4.7, §5.1.4-5,
// §7, §8; DESIGN decisions 1-2; reference-behaviour §1-§2).

#include "tests/http/rulestestdata.h"

#include <QTest>
#include <QUuid>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace MemoryGraph::Test::Rules;

namespace {

constexpr int kDim = 1536;
const QString kTenantKeys
    = QStringLiteral(R"({"k1":{"tenant_id":"acme","agent_id":"agent-a","team_id":"team-x"},)"
                     R"("k2":{"tenant_id":"acme","agent_id":"agent-b"}})");

QStringList ruleMatchKeys(bool targetAgent = false, bool targetTeam = false)
{
    QStringList keys
        = keyList({"rule_node_id", "state", "summary", "rule_scope", "if_json", "then_json",
                   "exceptions_json", "stats", "rank", "match_detail", "commit_id"});
    if (targetAgent)
        keys << s("target_agent_id");
    if (targetTeam)
        keys << s("target_team_id");
    keys.sort();
    return keys;
}

QJsonObject visibility(const Reply &reply)
{
    return reply.json.value(s("agent_visibility_summary")).toObject();
}

QJsonObject ruleScopeCounters(const Reply &reply)
{
    return visibility(reply).value(s("rule_scope")).toObject();
}

QJsonObject lane(const Reply &reply)
{
    return visibility(reply).value(s("lane")).toObject();
}

QJsonArray queryVector()
{
    QJsonArray v;
    for (int i = 0; i < kDim; ++i)
        v.append(i == 3 ? 1.0 : 0.0);
    return v;
}

QString uuid()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

int commitCount(const HttpTestServer &server, const QString &tenant = s("default"))
{
    return int(server.commits(tenant, s("default")).size());
}

QProcessEnvironment apiKeyEnv()
{
    return environment({{"MEMORY_AUTH_MODE", s("api_key")}, {"MEMORY_API_KEYS_JSON", kTenantKeys}});
}

QPair<QByteArray, QByteArray> apiKey(const QByteArray &key)
{
    return {QByteArrayLiteral("X-Api-Key"), key};
}

} // namespace

class tst_HttpRules : public QObject
{
    Q_OBJECT

private slots:
    // rules/evaluate
    void evaluateActiveAndShadow();
    void evaluateWithoutShadow();
    void evaluateResponseHasNoEmbeddings();
    void scopeFiltering_data();
    void scopeFiltering();
    void laneVisibility_data();
    void laneVisibility();
    void visibilitySummaryCountsEveryStage();
    void invalidThenIsCountedAndSampled();
    void invalidShadowThenCountedWithoutShadow();
    void rankFormulaAndOrder();
    void equalScoresOrderById();
    void conflictHigherRankWins_data();
    void conflictHigherRankWins();
    void evaluateValidation_data();
    void evaluateValidation();

    // rules/state
    void activationChangesEvaluationAndCommits();
    void backToShadow();
    void activationRejectsInvalidThen();
    void ruleStateUnknownRule();
    void ruleStateValidation_data();
    void ruleStateValidation();
    void draftAndDisabledAreNeverEvaluated_data();
    void draftAndDisabledAreNeverEvaluated();
    void draftMayBeIncomplete();
    void evaluationSummary();

    // rule slots on write
    void writeRejectsInvalidRuleSlots_data();
    void writeRejectsInvalidRuleSlots();
    void writeAcceptsBoundaryRuleSlots();

    // recall rules_context
    void recallWithRulesContext();
    void recallWithoutRulesContext();
    void recallRulesIncludeShadow();

    // identity (api_key)
    void apiKeyFillsContextIdentity();
    void apiKeyIdentityMismatch_data();
    void apiKeyIdentityMismatch();
    void apiKeyConflictingIdentityForms_data();
    void apiKeyConflictingIdentityForms();
    void apiKeyLaneEnforcedForNonObjectContext_data();
    void apiKeyLaneEnforcedForNonObjectContext();
    void apiKeyFeedbackNonObjectContextAttribution();
};

// ---- rules/evaluate
// ------------------------------------------------------------------------------

void tst_HttpRules::evaluateActiveAndShadow()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);

    const RuleNode activeRule = RuleNode(s("json-output"))
                                    .summary(s("deploy answers are JSON"))
                                    .when(obj({{"intent", s("deploy")}}))
                                    .then(obj({{"output", obj({{"format", s("json")}})}}))
                                    .priority(2);
    const QString activeId = api.add(activeRule);
    QVERIFY2(!activeId.isEmpty(), api.last.describe());
    const QString activeCommit
        = server.service()->listCommits(s("default"), s("default")).value().last().id;

    const RuleNode shadowRule = RuleNode(s("prefer-kubectl"))
                                    .when(obj({{"intent", s("deploy")}, {"env", s("prod")}}))
                                    .then(obj({{"tool", obj({{"prefer", strs({"kubectl"})}})}}))
                                    .except(QJsonArray{obj({{"dry_run", true}})});
    const QString shadowId = api.add(shadowRule, s("SHADOW"));
    QVERIFY2(!shadowId.isEmpty(), api.last.describe());
    const QString shadowCommit = api.last.json.value(s("commit_id")).toString();

    const Reply r = api.evaluate(obj({{"intent", s("deploy")}, {"env", s("prod")}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(keysOf(r.json),
             keyList({"tenant_id", "scope", "considered", "matched", "skipped_invalid_then",
                      "invalid_then_sample", "agent_visibility_summary", "active", "shadow",
                      "applied", "evaluation_summary"}));
    QCOMPARE(r.json.value(s("tenant_id")).toString(), s("default"));
    QCOMPARE(r.json.value(s("scope")).toString(), s("default"));
    QCOMPARE(r.json.value(s("considered")).toInt(), 2);
    QCOMPARE(r.json.value(s("matched")).toInt(), 2);
    QCOMPARE(r.json.value(s("skipped_invalid_then")).toInt(), 0);
    QCOMPARE(r.json.value(s("invalid_then_sample")).toArray().size(), 0);

    const QJsonArray active = r.json.value(s("active")).toArray();
    const QJsonArray shadow = r.json.value(s("shadow")).toArray();
    QCOMPARE(ruleIdsOf(active), QStringList{activeId});
    QCOMPARE(ruleIdsOf(shadow), QStringList{shadowId});

    const QJsonObject a = active.at(0).toObject();
    QCOMPARE(keysOf(a), ruleMatchKeys());
    QCOMPARE(a.value(s("state")).toString(), s("ACTIVE"));
    QCOMPARE(a.value(s("summary")).toString(), s("deploy answers are JSON"));
    QCOMPARE(a.value(s("rule_scope")).toString(), s("global"));
    QCOMPARE(jsonText(a.value(s("if_json"))), jsonText(obj({{"intent", s("deploy")}})));
    QCOMPARE(jsonText(a.value(s("then_json"))),
             jsonText(obj({{"output", obj({{"format", s("json")}})}})));
    QCOMPARE(jsonText(a.value(s("exceptions_json"))), jsonText(QJsonArray()));
    QCOMPARE(jsonText(a.value(s("stats"))), jsonText(obj({{"positive", 0}, {"negative", 0}})));
    QCOMPARE(jsonText(a.value(s("rank"))), jsonText(obj({{"score", 2001},
                                                         {"evidence_score", 0},
                                                         {"priority", 2},
                                                         {"weight", 1},
                                                         {"specificity", 1}})));
    QCOMPARE(jsonText(a.value(s("match_detail"))),
             jsonText(obj({{"condition_paths", strs({"intent"})}, {"condition_path_count", 1}})));
    QCOMPARE(a.value(s("commit_id")).toString(), activeCommit);

    const QJsonObject b = shadow.at(0).toObject();
    QCOMPARE(keysOf(b), ruleMatchKeys());
    QCOMPARE(b.value(s("state")).toString(), s("SHADOW"));
    QCOMPARE(b.value(s("summary")).toString(), s("rule prefer-kubectl"));
    QCOMPARE(jsonText(b.value(s("exceptions_json"))),
             jsonText(QJsonArray{obj({{"dry_run", true}})}));
    QCOMPARE(
        jsonText(b.value(s("match_detail"))),
        jsonText(obj({{"condition_paths", strs({"env", "intent"})}, {"condition_path_count", 2}})));
    QCOMPARE(b.value(s("rank")).toObject().value(s("score")).toDouble(), 2.0);
    QCOMPARE(b.value(s("commit_id")).toString(), shadowCommit);

    const QJsonObject applied = r.json.value(s("applied")).toObject();
    QCOMPARE(keysOf(applied),
             keyList({"policy", "sources", "conflicts", "conflict_explain", "tool_explain",
                      "shadow_policy", "shadow_sources", "shadow_conflicts",
                      "shadow_conflict_explain", "shadow_tool_explain"}));
    QCOMPARE(jsonText(applied.value(s("policy"))),
             jsonText(obj({{"output", obj({{"format", s("json")}})}, {"tool", QJsonObject()}})));
    QCOMPARE(jsonText(applied.value(s("shadow_policy"))),
             jsonText(obj({{"tool", obj({{"prefer", strs({"kubectl"})}})}})));
    QCOMPARE(ruleIdsOf(applied.value(s("sources"))), QStringList{activeId});
    QCOMPARE(ruleIdsOf(applied.value(s("shadow_sources"))), QStringList{shadowId});
    const QJsonObject source = applied.value(s("sources")).toArray().at(0).toObject();
    QCOMPARE(source.value(s("state")).toString(), s("ACTIVE"));
    QCOMPARE(stringList(source.value(s("touched_paths"))), QStringList{s("output.format")});

    // The exception switches the shadow rule off.
    const Reply excepted
        = api.evaluate(obj({{"intent", s("deploy")}, {"env", s("prod")}, {"dry_run", true}}));
    QCOMPARE(excepted.status, 200);
    QCOMPARE(ruleIdsOf(excepted.json.value(s("shadow"))), QStringList());
    QCOMPARE(ruleScopeCounters(excepted).value(s("filtered_by_condition")).toInt(), 1);

    // A context that matches neither rule.
    const Reply none = api.evaluate(obj({{"intent", s("chat")}}));
    QCOMPARE(none.status, 200);
    QCOMPARE(none.json.value(s("matched")).toInt(), 0);
    QCOMPARE(none.json.value(s("considered")).toInt(), 2);
    QCOMPARE(jsonText(none.json.value(s("applied")).toObject().value(s("policy"))),
             jsonText(obj({{"tool", QJsonObject()}})));
}

void tst_HttpRules::evaluateWithoutShadow()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString activeId
        = api.add(RuleNode(s("a")).then(obj({{"output", obj({{"format", s("text")}})}})));
    QVERIFY2(!activeId.isEmpty(), api.last.describe());
    const QString shadowId
        = api.add(RuleNode(s("b")).then(obj({{"output", obj({{"strict", true}})}})), s("SHADOW"));
    QVERIFY2(!shadowId.isEmpty(), api.last.describe());

    const Reply r = api.evaluate(QJsonObject(), obj({{"include_shadow", false}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("considered")).toInt(), 2); // shadow rows still count as considered
    QCOMPARE(r.json.value(s("matched")).toInt(), 1);
    QCOMPARE(ruleIdsOf(r.json.value(s("active"))), QStringList{activeId});
    QCOMPARE(r.json.value(s("shadow")).toArray().size(), 0);
    const QJsonObject applied = r.json.value(s("applied")).toObject();
    QCOMPARE(keysOf(applied),
             keyList({"policy", "sources", "conflicts", "conflict_explain", "tool_explain"}));
    QCOMPARE(ruleScopeCounters(r).value(s("matched_shadow")).toInt(), 0);
    QCOMPARE(ruleScopeCounters(r).value(s("matched_active")).toInt(), 1);

    // include_shadow defaults to true on rules/evaluate.
    const Reply withDefault = api.evaluate(QJsonObject());
    QCOMPARE(withDefault.status, 200);
    QCOMPARE(ruleIdsOf(withDefault.json.value(s("shadow"))), QStringList{shadowId});
    QCOMPARE(withDefault.json.value(s("matched")).toInt(), 2);
}

void tst_HttpRules::evaluateResponseHasNoEmbeddings()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    RuleNode rule(s("embedded"));
    rule.then(QJsonObject());
    QJsonObject node = rule.toJson();
    QJsonArray embedding;
    for (int i = 0; i < kDim; ++i)
        embedding.append(i == 0 ? 1.0 : 0.0);
    node.insert(s("embedding"), embedding);
    const Reply written = server.write(writeBody({node}));
    QCOMPARE(written.status, 200);
    const QString id
        = written.json.value(s("nodes")).toArray().at(0).toObject().value(s("id")).toString();
    QCOMPARE(api.setState(id, s("ACTIVE")).status, 200);

    const Reply r = api.evaluate(QJsonObject());
    QCOMPARE(r.status, 200);
    QCOMPARE(ruleIdsOf(r.json.value(s("active"))), QStringList{id});
    QVERIFY(!containsKeyDeep(r.json, s("embedding")));
    QVERIFY(!containsKeyDeep(r.json, s("embeddings")));
}

void tst_HttpRules::scopeFiltering_data()
{
    QTest::addColumn<QJsonObject>("context");
    QTest::addColumn<QStringList>("expected"); // client ids of the matching rules
    QTest::addColumn<int>("filteredByScope");

    QTest::newRow("no identity") << QJsonObject() << QStringList{s("global")} << 2;
    QTest::newRow("agent.id") << obj({{"agent", obj({{"id", s("agent-a")}})}})
                              << QStringList{s("agent"), s("global")} << 1;
    QTest::newRow("agent_id") << obj({{"agent_id", s("agent-a")}})
                              << QStringList{s("agent"), s("global")} << 1;
    QTest::newRow("agent.team_id") << obj({{"agent", obj({{"team_id", s("team-a")}})}})
                                   << QStringList{s("global"), s("team")} << 1;
    QTest::newRow("team_id") << obj({{"team_id", s("team-a")}})
                             << QStringList{s("global"), s("team")} << 1;
    QTest::newRow("agent and team")
        << obj({{"agent", obj({{"id", s("agent-a")}, {"team_id", s("team-a")}})}})
        << QStringList{s("agent"), s("global"), s("team")} << 0;
    QTest::newRow("flat agent and team")
        << obj({{"agent_id", s("agent-a")}, {"team_id", s("team-a")}})
        << QStringList{s("agent"), s("global"), s("team")} << 0;
    QTest::newRow("other agent and team")
        << obj({{"agent", obj({{"id", s("agent-b")}, {"team_id", s("team-b")}})}})
        << QStringList{s("global")} << 2;
    QTest::newRow("agent id trimmed") << obj({{"agent", obj({{"id", s("  agent-a ")}})}})
                                      << QStringList{s("agent"), s("global")} << 1;
    QTest::newRow("team id is not an agent id")
        << obj({{"agent_id", s("team-a")}}) << QStringList{s("global")} << 2;
}

void tst_HttpRules::scopeFiltering()
{
    QFETCH(QJsonObject, context);
    QFETCH(QStringList, expected);
    QFETCH(int, filteredByScope);

    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QHash<QString, QString> clientById;
    for (const RuleNode &rule : {RuleNode(s("global")).then(QJsonObject()),
                                 RuleNode(s("team")).forTeam(s("team-a")).then(QJsonObject()),
                                 RuleNode(s("agent")).forAgent(s("agent-a")).then(QJsonObject())}) {
        const QString id = api.add(rule);
        QVERIFY2(!id.isEmpty(), api.last.describe());
        clientById.insert(id, rule.clientId());
    }

    const Reply r = api.evaluate(context);
    QCOMPARE(r.status, 200);
    QStringList matched;
    for (const QString &id : ruleIdsOf(r.json.value(s("active"))))
        matched << clientById.value(id);
    QCOMPARE(sorted(matched), expected);
    QCOMPARE(ruleScopeCounters(r).value(s("filtered_by_scope")).toInt(), filteredByScope);
    QCOMPARE(r.json.value(s("considered")).toInt(), 3);

    // The scoped rules name their target; a global rule names none.
    for (const QJsonValue &v : r.json.value(s("active")).toArray()) {
        const QJsonObject m = v.toObject();
        const QString client = clientById.value(m.value(s("rule_node_id")).toString());
        if (client == QLatin1String("team")) {
            QCOMPARE(keysOf(m), ruleMatchKeys(false, true));
            QCOMPARE(m.value(s("rule_scope")).toString(), s("team"));
            QCOMPARE(m.value(s("target_team_id")).toString(), s("team-a"));
        } else if (client == QLatin1String("agent")) {
            QCOMPARE(keysOf(m), ruleMatchKeys(true, false));
            QCOMPARE(m.value(s("rule_scope")).toString(), s("agent"));
            QCOMPARE(m.value(s("target_agent_id")).toString(), s("agent-a"));
        } else {
            QCOMPARE(keysOf(m), ruleMatchKeys());
            QCOMPARE(m.value(s("rule_scope")).toString(), s("global"));
        }
    }
}

void tst_HttpRules::laneVisibility_data()
{
    QTest::addColumn<QJsonObject>("context");
    QTest::addColumn<QStringList>("expected");
    QTest::addColumn<bool>("applied");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<int>("filteredByLane");
    QTest::addColumn<QJsonValue>("agentId");
    QTest::addColumn<QJsonValue>("teamId");

    const QStringList all{s("private-agent"), s("private-team"), s("shared")};
    QTest::newRow("agent only") << obj({{"agent", obj({{"id", s("agent-1")}})}})
                                << QStringList{s("private-agent"), s("shared")} << true
                                << s("enforced_agent_only") << 1 << QJsonValue(s("agent-1"))
                                << QJsonValue();
    QTest::newRow("flat agent only")
        << obj({{"agent_id", s("agent-1")}}) << QStringList{s("private-agent"), s("shared")} << true
        << s("enforced_agent_only") << 1 << QJsonValue(s("agent-1")) << QJsonValue();
    QTest::newRow("team only") << obj({{"agent", obj({{"team_id", s("team-1")}})}})
                               << QStringList{s("private-team"), s("shared")} << true
                               << s("enforced_team_only") << 1 << QJsonValue()
                               << QJsonValue(s("team-1"));
    QTest::newRow("flat team only")
        << obj({{"team_id", s("team-1")}}) << QStringList{s("private-team"), s("shared")} << true
        << s("enforced_team_only") << 1 << QJsonValue() << QJsonValue(s("team-1"));
    QTest::newRow("agent and team")
        << obj({{"agent", obj({{"id", s("agent-1")}, {"team_id", s("team-1")}})}}) << all << true
        << s("enforced_agent_team") << 0 << QJsonValue(s("agent-1")) << QJsonValue(s("team-1"));
    QTest::newRow("other agent and team")
        << obj({{"agent", obj({{"id", s("agent-2")}, {"team_id", s("team-2")}})}})
        << QStringList{s("shared")} << true << s("enforced_agent_team") << 2
        << QJsonValue(s("agent-2")) << QJsonValue(s("team-2"));
    QTest::newRow("owner agent, other team")
        << obj({{"agent", obj({{"id", s("agent-1")}, {"team_id", s("team-2")}})}})
        << QStringList{s("private-agent"), s("shared")} << true << s("enforced_agent_team") << 1
        << QJsonValue(s("agent-1")) << QJsonValue(s("team-2"));
    QTest::newRow("neither") << QJsonObject() << all << false << s("missing_agent_context") << 0
                             << QJsonValue() << QJsonValue();
    QTest::newRow("blank identity")
        << obj({{"agent", obj({{"id", s("  ")}})}}) << all << false << s("missing_agent_context")
        << 0 << QJsonValue() << QJsonValue();
}

void tst_HttpRules::laneVisibility()
{
    QFETCH(QJsonObject, context);
    QFETCH(QStringList, expected);
    QFETCH(bool, applied);
    QFETCH(QString, reason);
    QFETCH(int, filteredByLane);
    QFETCH(QJsonValue, agentId);
    QFETCH(QJsonValue, teamId);

    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QHash<QString, QString> clientById;
    for (const RuleNode &rule :
         {RuleNode(s("shared")).then(QJsonObject()),
          RuleNode(s("private-agent")).privateTo(s("agent-1")).then(QJsonObject()),
          RuleNode(s("private-team")).privateTo(QString(), s("team-1")).then(QJsonObject())}) {
        const QString id = api.add(rule);
        QVERIFY2(!id.isEmpty(), api.last.describe());
        clientById.insert(id, rule.clientId());
    }

    const Reply r = api.evaluate(context);
    QCOMPARE(r.status, 200);
    QStringList matched;
    for (const QString &id : ruleIdsOf(r.json.value(s("active"))))
        matched << clientById.value(id);
    QCOMPARE(sorted(matched), expected);

    const QJsonObject expectedSummary
        = obj({{"agent", obj({{"id", agentId}, {"team_id", teamId}})},
               {"rule_scope", obj({{"scanned", 3},
                                   {"filtered_by_scope", 0},
                                   {"filtered_by_lane", filteredByLane},
                                   {"filtered_by_condition", 0},
                                   {"skipped_invalid_then", 0},
                                   {"matched_active", int(expected.size())},
                                   {"matched_shadow", 0}})},
               {"lane", obj({{"applied", applied},
                             {"reason", reason},
                             {"legacy_unowned_private_visible", 0},
                             {"legacy_unowned_private_detected", 0}})}});
    QCOMPARE(jsonText(visibility(r)), jsonText(expectedSummary));
}

void tst_HttpRules::visibilitySummaryCountsEveryStage()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QJsonObject deploy = obj({{"intent", s("deploy")}});
    QVERIFY2(!api.add(RuleNode(s("match-active")).when(deploy).then(QJsonObject())).isEmpty(),
             api.last.describe());
    QVERIFY2(!api.add(RuleNode(s("match-shadow")).when(deploy).then(QJsonObject()), s("SHADOW"))
                  .isEmpty(),
             api.last.describe());
    QVERIFY2(
        !api.add(RuleNode(s("other-agent")).forAgent(s("agent-x")).then(QJsonObject())).isEmpty(),
        api.last.describe());
    QVERIFY2(!api.add(RuleNode(s("other-team")).forTeam(s("team-x")).then(QJsonObject())).isEmpty(),
             api.last.describe());
    QVERIFY2(!api.add(RuleNode(s("private-other")).privateTo(s("agent-9")).then(QJsonObject()))
                  .isEmpty(),
             api.last.describe());
    QVERIFY2(
        !api.add(RuleNode(s("no-match")).when(obj({{"intent", s("chat")}})).then(QJsonObject()))
             .isEmpty(),
        api.last.describe());
    // then_json is not validated on write or on SHADOW: only evaluation skips it.
    QVERIFY2(!api.add(RuleNode(s("bad-then"))
                          .when(deploy)
                          .then(obj({{"output", obj({{"format", s("yaml")}})}})),
                      s("SHADOW"))
                  .isEmpty(),
             api.last.describe());

    const QJsonObject context
        = obj({{"agent", obj({{"id", s("agent-1")}})}, {"intent", s("deploy")}});
    const Reply r = api.evaluate(context);
    QCOMPARE(r.status, 200);
    const QJsonObject expected
        = obj({{"agent", obj({{"id", s("agent-1")}, {"team_id", QJsonValue()}})},
               {"rule_scope", obj({{"scanned", 7},
                                   {"filtered_by_scope", 2},
                                   {"filtered_by_lane", 1},
                                   {"filtered_by_condition", 1},
                                   {"skipped_invalid_then", 1},
                                   {"matched_active", 1},
                                   {"matched_shadow", 1}})},
               {"lane", obj({{"applied", true},
                             {"reason", s("enforced_agent_only")},
                             {"legacy_unowned_private_visible", 0},
                             {"legacy_unowned_private_detected", 0}})}});
    QCOMPARE(jsonText(visibility(r)), jsonText(expected));
    QCOMPARE(r.json.value(s("considered")).toInt(), 7);
    QCOMPARE(r.json.value(s("matched")).toInt(), 2);
    QCOMPARE(r.json.value(s("skipped_invalid_then")).toInt(), 1);

    // With shadow excluded the shadow match is silently dropped: counted only as scanned.
    const Reply noShadow = api.evaluate(context, obj({{"include_shadow", false}}));
    QCOMPARE(noShadow.status, 200);
    QJsonObject counters = expected.value(s("rule_scope")).toObject();
    counters.insert(s("matched_shadow"), 0);
    QCOMPARE(jsonText(ruleScopeCounters(noShadow)), jsonText(counters));
    QCOMPARE(noShadow.json.value(s("matched")).toInt(), 1);
}

void tst_HttpRules::invalidThenIsCountedAndSampled()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QList<QJsonValue> badThens{
        obj({{"output", obj({{"format", s("yaml")}})}}),
        obj({{"tool", obj({{"allow", s("not-a-list")}})}}),
        obj({{"unknown_key", 1}}),
        obj({{"output", obj({{"strict", s("yes")}})}}),
        obj({{"tool", obj({{"allow", strs({"a"})}, {"block", strs({"b"})}})}}),
        obj({{"tool", obj({{"deny", QJsonArray{QJsonValue(s(""))}}})}}),
        QJsonValue(s("not an object")),
    };
    QStringList badIds;
    for (int i = 0; i < badThens.size(); ++i) {
        const QString id = api.add(RuleNode(s("bad-%1").arg(i)).then(badThens.at(i)), s("SHADOW"));
        QVERIFY2(!id.isEmpty(), api.last.describe());
        badIds << id;
    }
    const QString goodId = api.add(
        RuleNode(s("good")).then(obj({{"extensions", obj({{"acme", obj({{"x", 1}})}})}})));
    QVERIFY2(!goodId.isEmpty(), api.last.describe());

    const Reply r = api.evaluate(QJsonObject());
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("considered")).toInt(), 8);
    QCOMPARE(r.json.value(s("skipped_invalid_then")).toInt(), 7);
    QCOMPARE(r.json.value(s("matched")).toInt(), 1);
    QCOMPARE(ruleIdsOf(r.json.value(s("active"))), QStringList{goodId});
    QCOMPARE(r.json.value(s("shadow")).toArray().size(), 0);

    // The sample holds the first five; each names the rule, its state and its commit.
    const QJsonArray sample = r.json.value(s("invalid_then_sample")).toArray();
    QCOMPARE(sample.size(), 5);
    QSet<QString> sampled;
    for (const QJsonValue &v : sample) {
        const QJsonObject entry = v.toObject();
        for (const char *key : {"rule_node_id", "state", "commit_id"})
            QVERIFY2(entry.contains(QLatin1String(key)), jsonText(entry).constData());
        QVERIFY(badIds.contains(entry.value(s("rule_node_id")).toString()));
        QCOMPARE(entry.value(s("state")).toString(), s("SHADOW"));
        QVERIFY(!entry.value(s("commit_id")).toString().isEmpty());
        sampled.insert(entry.value(s("rule_node_id")).toString());
    }
    QCOMPARE(sampled.size(), 5);
    // The extensions escape hatch is accepted as written.
    QCOMPARE(
        jsonText(r.json.value(s("applied")).toObject().value(s("policy"))),
        jsonText(obj({{"extensions", obj({{"acme", obj({{"x", 1}})}})}, {"tool", QJsonObject()}})));
}

void tst_HttpRules::invalidShadowThenCountedWithoutShadow()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString id = api.add(
        RuleNode(s("bad")).then(obj({{"output", obj({{"format", s("xml")}})}})), s("SHADOW"));
    QVERIFY2(!id.isEmpty(), api.last.describe());

    const Reply r = api.evaluate(QJsonObject(), obj({{"include_shadow", false}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("skipped_invalid_then")).toInt(), 1);
    QCOMPARE(r.json.value(s("matched")).toInt(), 0);
    QCOMPARE(r.json.value(s("invalid_then_sample"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(s("rule_node_id"))
                 .toString(),
             id);
}

void tst_HttpRules::rankFormulaAndOrder()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    // score = priority * 1000 + evidence * 100 * weight + specificity
    const QString r1 = api.add(RuleNode(s("r1"))
                                   .when(obj({{"intent", s("deploy")}, {"env", s("prod")}}))
                                   .then(obj({{"tool", obj({{"prefer", strs({"t1"})}})}}))
                                   .priority(3)
                                   .weight(0.5));
    const QString r2 = api.add(RuleNode(s("r2"))
                                   .when(obj({{"intent", s("deploy")}}))
                                   .then(obj({{"tool", obj({{"prefer", strs({"t2"})}})}}))
                                   .priority(3)
                                   .weight(2));
    const QString r3 = api.add(
        RuleNode(s("r3")).then(obj({{"tool", obj({{"prefer", strs({"t3"})}})}})).priority(-1));
    const QString r4 = api.add(
        RuleNode(s("r4"))
            .when(obj({{"$and",
                        QJsonArray{obj({{"$or", QJsonArray{obj({{"env", s("prod")}}),
                                                           obj({{"agent.id", s("x")}})}}}),
                                   obj({{"intent", obj({{"$in", strs({"deploy", "ship"})}})}})}}}))
            .then(QJsonObject()));
    QVERIFY2(!r1.isEmpty() && !r2.isEmpty() && !r3.isEmpty() && !r4.isEmpty(), api.last.describe());

    const QJsonObject context = obj({{"intent", s("deploy")}, {"env", s("prod")}});
    const Reply before = api.evaluate(context);
    QCOMPARE(before.status, 200);
    QCOMPARE(ruleIdsOf(before.json.value(s("active"))), (QStringList{r1, r2, r4, r3}));
    QCOMPARE(jsonText(matchById(before.json.value(s("active")), r1).value(s("rank"))),
             jsonText(obj({{"score", 3002},
                           {"evidence_score", 0},
                           {"priority", 3},
                           {"weight", 0.5},
                           {"specificity", 2}})));
    QCOMPARE(jsonText(matchById(before.json.value(s("active")), r2).value(s("rank"))),
             jsonText(obj({{"score", 3001},
                           {"evidence_score", 0},
                           {"priority", 3},
                           {"weight", 2},
                           {"specificity", 1}})));
    QCOMPARE(jsonText(matchById(before.json.value(s("active")), r3).value(s("rank"))),
             jsonText(obj({{"score", -1000},
                           {"evidence_score", 0},
                           {"priority", -1},
                           {"weight", 1},
                           {"specificity", 0}})));
    QCOMPARE(jsonText(matchById(before.json.value(s("active")), r4).value(s("match_detail"))),
             jsonText(obj({{"condition_paths", strs({"agent.id", "env", "intent"})},
                           {"condition_path_count", 3}})));
    QCOMPARE(matchById(before.json.value(s("active")), r4)
                 .value(s("rank"))
                 .toObject()
                 .value(s("score"))
                 .toDouble(),
             3.0);
    // prefer follows rank order; sources are in merge (ascending rank) order.
    const QJsonObject applied = before.json.value(s("applied")).toObject();
    QCOMPARE(
        stringList(
            applied.value(s("policy")).toObject().value(s("tool")).toObject().value(s("prefer"))),
        (QStringList{s("t1"), s("t2"), s("t3")}));
    QCOMPARE(ruleIdsOf(applied.value(s("sources"))), (QStringList{r3, r4, r2, r1}));

    // One positive outcome for every matched rule: evidence is weighted, so r2 overtakes r1.
    const Reply fb = api.feedback(context, strs({"t1", "t2", "t3"}), s("t1"), s("positive"),
                                  obj({{"target", s("all")}}));
    QCOMPARE(fb.status, 200);
    QCOMPARE(fb.json.value(s("updated_rules")).toInt(), 4);

    const Reply after = api.evaluate(context);
    QCOMPARE(after.status, 200);
    const QJsonArray active = after.json.value(s("active")).toArray();
    QCOMPARE(jsonText(matchById(active, r1).value(s("rank"))), jsonText(obj({{"score", 3052},
                                                                             {"evidence_score", 1},
                                                                             {"priority", 3},
                                                                             {"weight", 0.5},
                                                                             {"specificity", 2}})));
    QCOMPARE(jsonText(matchById(active, r2).value(s("rank"))), jsonText(obj({{"score", 3201},
                                                                             {"evidence_score", 1},
                                                                             {"priority", 3},
                                                                             {"weight", 2},
                                                                             {"specificity", 1}})));
    QCOMPARE(jsonText(matchById(active, r3).value(s("rank"))), jsonText(obj({{"score", -900},
                                                                             {"evidence_score", 1},
                                                                             {"priority", -1},
                                                                             {"weight", 1},
                                                                             {"specificity", 0}})));
    QCOMPARE(matchById(active, r4).value(s("rank")).toObject().value(s("score")).toDouble(), 103.0);
    QCOMPARE(jsonText(matchById(active, r1).value(s("stats"))),
             jsonText(obj({{"positive", 1}, {"negative", 0}})));
    QCOMPARE(ruleIdsOf(active), (QStringList{r2, r1, r4, r3}));
    QCOMPARE(stringList(after.json.value(s("applied"))
                            .toObject()
                            .value(s("policy"))
                            .toObject()
                            .value(s("tool"))
                            .toObject()
                            .value(s("prefer"))),
             (QStringList{s("t2"), s("t1"), s("t3")}));

    // Two negatives for everything: evidence -1 pushes the weight-2 rule below the weight-0.5 one.
    for (int i = 0; i < 2; ++i) {
        const Reply negative = api.feedback(context, strs({"t1", "t2", "t3"}), s("t2"),
                                            s("negative"), obj({{"target", s("all")}}));
        QCOMPARE(negative.status, 200);
    }
    const Reply worse = api.evaluate(context);
    QCOMPARE(worse.status, 200);
    const QJsonArray worseActive = worse.json.value(s("active")).toArray();
    QCOMPARE(matchById(worseActive, r1).value(s("rank")).toObject().value(s("score")).toDouble(),
             2952.0);
    QCOMPARE(matchById(worseActive, r2).value(s("rank")).toObject().value(s("score")).toDouble(),
             2801.0);
    QCOMPARE(
        matchById(worseActive, r2).value(s("rank")).toObject().value(s("evidence_score")).toInt(),
        -1);
    QCOMPARE(jsonText(matchById(worseActive, r2).value(s("stats"))),
             jsonText(obj({{"positive", 1}, {"negative", 2}})));
    QCOMPARE(ruleIdsOf(worseActive), (QStringList{r1, r2, r4, r3}));
}

void tst_HttpRules::equalScoresOrderById()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QStringList ids;
    for (const char *client : {"tie-a", "tie-b", "tie-c", "tie-d"}) {
        const QString id
            = api.add(RuleNode(s(client)).when(obj({{"k", 1}})).then(QJsonObject()).priority(1));
        QVERIFY2(!id.isEmpty(), api.last.describe());
        ids << id;
    }
    const Reply r = api.evaluate(obj({{"k", 1}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(ruleIdsOf(r.json.value(s("active"))), sorted(ids));
}

void tst_HttpRules::conflictHigherRankWins_data()
{
    QTest::addColumn<int>("firstPriority");
    QTest::addColumn<int>("secondPriority");
    QTest::newRow("later rule ranks higher") << 1 << 5;
    QTest::newRow("earlier rule ranks higher") << 5 << 1;
}

void tst_HttpRules::conflictHigherRankWins()
{
    QFETCH(int, firstPriority);
    QFETCH(int, secondPriority);

    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString first = api.add(RuleNode(s("text"))
                                      .then(obj({{"output", obj({{"format", s("text")}})}}))
                                      .priority(firstPriority));
    QVERIFY2(!first.isEmpty(), api.last.describe());
    const QString second
        = api.add(RuleNode(s("json"))
                      .then(obj({{"output", obj({{"format", s("json")}, {"strict", true}})}}))
                      .priority(secondPriority));
    QVERIFY2(!second.isEmpty(), api.last.describe());
    const bool secondWins = secondPriority > firstPriority;
    const QString winner = secondWins ? second : first;
    const QString loser = secondWins ? first : second;
    const int winnerPriority = qMax(firstPriority, secondPriority);
    const int loserPriority = qMin(firstPriority, secondPriority);

    const Reply r = api.evaluate(QJsonObject());
    QCOMPARE(r.status, 200);
    QCOMPARE(ruleIdsOf(r.json.value(s("active"))), (QStringList{winner, loser}));
    const QJsonObject applied = r.json.value(s("applied")).toObject();
    QCOMPARE(applied.value(s("policy"))
                 .toObject()
                 .value(s("output"))
                 .toObject()
                 .value(s("format"))
                 .toString(),
             secondWins ? s("json") : s("text"));
    QCOMPARE(applied.value(s("policy"))
                 .toObject()
                 .value(s("output"))
                 .toObject()
                 .value(s("strict"))
                 .toBool(),
             true);
    QCOMPARE(
        jsonText(applied.value(s("conflicts"))),
        jsonText(QJsonArray{obj({{"path", s("output.format")}, {"winner_rule_node_id", winner}})}));
    const QJsonObject expectedExplain = obj(
        {{"path", s("output.format")},
         {"winner", obj({{"rule_node_id", winner},
                         {"score", winnerPriority * 1000},
                         {"priority", winnerPriority},
                         {"weight", 1},
                         {"evidence_score", 0},
                         {"specificity", 0}})},
         {"losers", QJsonArray{obj({{"rule_node_id", loser}, {"score", loserPriority * 1000}})}},
         {"reason", s("higher rank wins (priority > evidence*weight > condition_specificity)")}});
    QCOMPARE(jsonText(applied.value(s("conflict_explain"))), jsonText(QJsonArray{expectedExplain}));
    QCOMPARE(ruleIdsOf(applied.value(s("sources"))), (QStringList{loser, winner}));
}

void tst_HttpRules::evaluateValidation_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("path");
    QTest::newRow("context missing") << QJsonObject() << s("context");
    QTest::newRow("context null") << obj({{"context", QJsonValue()}}) << s("context");
    QTest::newRow("limit 0") << obj({{"context", QJsonObject()}, {"limit", 0}}) << s("limit");
    QTest::newRow("limit 201") << obj({{"context", QJsonObject()}, {"limit", 201}}) << s("limit");
    QTest::newRow("include_shadow string")
        << obj({{"context", QJsonObject()}, {"include_shadow", s("yes")}}) << s("include_shadow");
}

void tst_HttpRules::evaluateValidation()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, path);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply r = server.post(s("/v1/memory/rules/evaluate"), body);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), s("invalid_request"));
    QCOMPARE(r.issuePath(), path);
}

// ---- rules/state
// -----------------------------------------------------------------------------------

void tst_HttpRules::activationChangesEvaluationAndCommits()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString id = api.add(RuleNode(s("r"))
                                   .when(obj({{"intent", s("deploy")}}))
                                   .then(obj({{"output", obj({{"format", s("markdown")}})}})),
                               s("SHADOW"));
    QVERIFY2(!id.isEmpty(), api.last.describe());
    const QJsonObject context = obj({{"intent", s("deploy")}});

    const Reply asShadow = api.evaluate(context, obj({{"include_shadow", false}}));
    QCOMPARE(asShadow.status, 200);
    QCOMPARE(asShadow.json.value(s("matched")).toInt(), 0);
    QCOMPARE(jsonText(asShadow.json.value(s("applied")).toObject().value(s("policy"))),
             jsonText(obj({{"tool", QJsonObject()}})));
    const Reply shadowListed = api.evaluate(context);
    QCOMPARE(ruleIdsOf(shadowListed.json.value(s("shadow"))), QStringList{id});
    QCOMPARE(matchById(shadowListed.json.value(s("shadow")), id).value(s("state")).toString(),
             s("SHADOW"));

    const int commitsBefore = commitCount(server);
    const Reply changed = api.setState(id, s("ACTIVE"));
    QCOMPARE(changed.status, 200);
    QVERIFY2(changed.json.contains(s("commit_id")), changed.describe());
    QCOMPARE(changed.json.value(s("tenant_id")).toString(), s("default"));
    QCOMPARE(changed.json.value(s("scope")).toString(), s("default"));
    QCOMPARE(changed.json.value(s("state")).toString(), s("ACTIVE"));
    QVERIFY(isLowerUuid(changed.json.value(s("commit_id")).toString()));
    QVERIFY(isHex64(changed.json.value(s("commit_hash")).toString()));

    const QVector<CommitRecord> commits = server.commits();
    QCOMPARE(int(commits.size()), commitsBefore + 1);
    const CommitRecord &newest = commits.first();
    QCOMPARE(newest.id, changed.json.value(s("commit_id")).toString());
    QCOMPARE(newest.kind, s("rule_state_change"));
    QCOMPARE(newest.commitHash, changed.json.value(s("commit_hash")).toString());
    QCOMPARE(jsonText(newest.diff),
             jsonText(obj({{"rule_state_change",
                            QJsonArray{obj({{"rule_node_id", id}, {"state", s("ACTIVE")}})}}})));
    QCOMPARE(newest.parentId, commits.at(1).id);

    const Reply asActive = api.evaluate(context, obj({{"include_shadow", false}}));
    QCOMPARE(asActive.status, 200);
    QCOMPARE(ruleIdsOf(asActive.json.value(s("active"))), QStringList{id});
    QCOMPARE(matchById(asActive.json.value(s("active")), id).value(s("state")).toString(),
             s("ACTIVE"));
    QCOMPARE(asActive.json.value(s("applied"))
                 .toObject()
                 .value(s("policy"))
                 .toObject()
                 .value(s("output"))
                 .toObject()
                 .value(s("format"))
                 .toString(),
             s("markdown"));
}

void tst_HttpRules::backToShadow()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString id = api.add(RuleNode(s("r")).then(QJsonObject()));
    QVERIFY2(!id.isEmpty(), api.last.describe());
    QCOMPARE(ruleIdsOf(api.evaluate(QJsonObject()).json.value(s("active"))), QStringList{id});

    const int before = commitCount(server);
    const Reply r = api.setState(id, s("shadow")); // state names are case-insensitive
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("state")).toString(), s("SHADOW"));
    QCOMPARE(commitCount(server), before + 1);
    QCOMPARE(server.commits().first().kind, s("rule_state_change"));

    const Reply after = api.evaluate(QJsonObject());
    QCOMPARE(after.json.value(s("active")).toArray().size(), 0);
    QCOMPARE(ruleIdsOf(after.json.value(s("shadow"))), QStringList{id});
}

void tst_HttpRules::activationRejectsInvalidThen()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString id = api.add(
        RuleNode(s("bad")).then(obj({{"output", obj({{"format", s("yaml")}})}})), s("SHADOW"));
    QVERIFY2(!id.isEmpty(), api.last.describe());
    const int before = commitCount(server);

    const Reply r = api.setState(id, s("ACTIVE"));
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), s("invalid_request"));
    QVERIFY2(r.issuePath().endsWith(s("output.format")), r.describe());
    QCOMPARE(commitCount(server), before);

    // Still a shadow rule, still skipped for its then_json.
    const Reply evaluated = api.evaluate(QJsonObject());
    QCOMPARE(evaluated.json.value(s("skipped_invalid_then")).toInt(), 1);
    QCOMPARE(evaluated.json.value(s("invalid_then_sample"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(s("state"))
                 .toString(),
             s("SHADOW"));

    // The same holds for an invalid tool list.
    const QString badTool = api.add(
        RuleNode(s("bad-tool")).then(obj({{"tool", obj({{"prefer", s("t1")}})}})), s("SHADOW"));
    QVERIFY2(!badTool.isEmpty(), api.last.describe());
    const int beforeTool = commitCount(server);
    const Reply rejected = api.setState(badTool, s("ACTIVE"));
    QCOMPARE(rejected.status, 400);
    QVERIFY2(rejected.issuePath().endsWith(s("tool.prefer")), rejected.describe());
    QCOMPARE(commitCount(server), beforeTool);

    // An invalid condition is refused as well.
    const QString badIf = api.add(
        RuleNode(s("bad-if")).slot(s("if"), strs({"a"})).then(QJsonObject()), s("SHADOW"));
    QVERIFY2(!badIf.isEmpty(), api.last.describe());
    const Reply badIfReply = api.setState(badIf, s("ACTIVE"));
    QCOMPARE(badIfReply.status, 400);
    QVERIFY2(badIfReply.issuePath().startsWith(s("slots.if")), badIfReply.describe());
    const QString badExceptions = api.add(
        RuleNode(s("bad-exceptions")).slot(s("exceptions"), obj({{"a", 1}})).then(QJsonObject()),
        s("SHADOW"));
    QVERIFY2(!badExceptions.isEmpty(), api.last.describe());
    const Reply badExceptionsReply = api.setState(badExceptions, s("ACTIVE"));
    QCOMPARE(badExceptionsReply.status, 400);
    QCOMPARE(badExceptionsReply.issuePath(), s("slots.exceptions"));
    QCOMPARE(commitCount(server), beforeTool + 2); // the two rule writes, no state change
}

void tst_HttpRules::ruleStateUnknownRule()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const Reply unknown = api.setState(uuid(), s("ACTIVE"));
    QCOMPARE(unknown.status, 404);
    QCOMPARE(unknown.errorCode(), s("not_found"));
    QCOMPARE(unknown.json.value(s("details")).toObject().value(s("reason")).toString(),
             s("rule_not_found_in_scope"));

    // A node that is not a rule, and a rule of another tenant, are not found either.
    const Reply event = server.write(writeBody({writeNode(s("e1"), s("event"), s("an event"))}));
    QCOMPARE(event.status, 200);
    const QString eventId
        = event.json.value(s("nodes")).toArray().at(0).toObject().value(s("id")).toString();
    const Reply notRule = api.setState(eventId, s("ACTIVE"));
    QCOMPARE(notRule.status, 404);
    QCOMPARE(notRule.errorCode(), s("not_found"));

    const QString ruleId = api.add(RuleNode(s("r")).then(QJsonObject()), s("SHADOW"));
    QVERIFY2(!ruleId.isEmpty(), api.last.describe());
    const int before = commitCount(server, s("other"));
    const Reply otherTenant = api.setState(ruleId, s("ACTIVE"), obj({{"tenant_id", s("other")}}));
    QCOMPARE(otherTenant.status, 404);
    QCOMPARE(otherTenant.errorCode(), s("not_found"));
    QCOMPARE(commitCount(server, s("other")), before);
    QCOMPARE(commitCount(server), 2); // the event write and the rule write; nothing else
}

void tst_HttpRules::ruleStateValidation_data()
{
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("path");
    const QString id = uuid();
    QTest::newRow("state missing")
        << obj({{"rule_node_id", id}, {"input_text", s("x")}}) << s("state");
    QTest::newRow("state ARCHIVED")
        << obj({{"rule_node_id", id}, {"state", s("ARCHIVED")}, {"input_text", s("x")}})
        << s("state");
    QTest::newRow("rule_node_id missing")
        << obj({{"state", s("ACTIVE")}, {"input_text", s("x")}}) << s("rule_node_id");
    QTest::newRow("rule_node_id not uuid")
        << obj({{"rule_node_id", s("r1")}, {"state", s("ACTIVE")}, {"input_text", s("x")}})
        << s("rule_node_id");
    QTest::newRow("input missing")
        << obj({{"rule_node_id", id}, {"state", s("ACTIVE")}}) << s("input_text");
}

void tst_HttpRules::ruleStateValidation()
{
    QFETCH(QJsonObject, body);
    QFETCH(QString, path);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply r = server.post(s("/v1/memory/rules/state"), body);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), s("invalid_request"));
    QCOMPARE(r.issuePath(), path);
    QCOMPARE(commitCount(server), 0);
}

void tst_HttpRules::draftAndDisabledAreNeverEvaluated_data()
{
    QTest::addColumn<QString>("state");
    QTest::newRow("DRAFT") << s("DRAFT");
    QTest::newRow("DISABLED") << s("DISABLED");
    QTest::newRow("disabled, lower case") << s("disabled");
}

void tst_HttpRules::draftAndDisabledAreNeverEvaluated()
{
    QFETCH(QString, state);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString id = api.add(RuleNode(s("prefer-kubectl"))
                                   .when(obj({{"intent", s("deploy")}}))
                                   .then(obj({{"tool", obj({{"prefer", strs({"kubectl"})}})}})));
    QVERIFY2(!id.isEmpty(), api.last.describe());
    const QJsonObject context = obj({{"intent", s("deploy")}});
    const QJsonArray candidates = strs({"helm", "kubectl"});
    QCOMPARE(api.select(context, candidates)
                 .json.value(s("selection"))
                 .toObject()
                 .value(s("selected"))
                 .toString(),
             s("kubectl"));

    const int before = commitCount(server);
    const Reply changed = api.setState(id, state);
    QVERIFY2(changed.status == 200, changed.describe());
    QCOMPARE(changed.json.value(s("state")).toString(), state.toUpper());
    QCOMPARE(commitCount(server), before + 1);
    const CommitRecord newest = server.commits().first();
    QCOMPARE(newest.kind, s("rule_state_change"));
    QCOMPARE(jsonText(newest.diff),
             jsonText(obj({{"rule_state_change", QJsonArray{obj({{"rule_node_id", id},
                                                                 {"state", state.toUpper()}})}}})));

    // Not loaded by rules/evaluate (not even counted as considered), tools/select or assemble.
    const Reply evaluated = api.evaluate(context);
    QCOMPARE(evaluated.status, 200);
    QCOMPARE(evaluated.json.value(s("considered")).toInt(), 0);
    QCOMPARE(evaluated.json.value(s("matched")).toInt(), 0);
    const Reply selected = api.select(context, candidates, obj({{"include_shadow", true}}));
    QCOMPARE(selected.status, 200);
    QCOMPARE(selected.json.value(s("selection")).toObject().value(s("selected")).toString(),
             s("helm"));
    QCOMPARE(stringList(selected.json.value(s("decision")).toObject().value(s("source_rule_ids"))),
             QStringList());
    const Reply assembled = server.post(
        s("/v1/memory/context/assemble"),
        obj({{"query_text", s("deploy")}, {"context", context}, {"tool_candidates", candidates}}));
    QVERIFY2(assembled.status == 200, assembled.describe());
    QCOMPARE(assembled.json.value(s("rules")).toObject().value(s("considered")).toInt(), 0);
    QCOMPARE(assembled.json.value(s("tools"))
                 .toObject()
                 .value(s("selection"))
                 .toObject()
                 .value(s("selected"))
                 .toString(),
             s("helm"));

    // Any state may move to any state: back to ACTIVE and the rule applies again.
    QCOMPARE(api.setState(id, s("ACTIVE")).status, 200);
    QCOMPARE(ruleIdsOf(api.evaluate(context).json.value(s("active"))), QStringList{id});
}

void tst_HttpRules::draftMayBeIncomplete()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    // A then_json that could never be activated, and a private rule without an owner.
    const QString bad = api.add(
        RuleNode(s("bad")).then(obj({{"output", obj({{"format", s("yaml")}})}})), s("SHADOW"));
    QVERIFY2(!bad.isEmpty(), api.last.describe());
    QCOMPARE(api.setState(bad, s("ACTIVE")).status, 400);
    Reply r = api.setState(bad, s("DRAFT"));
    QVERIFY2(r.status == 200, r.describe());
    QCOMPARE(api.evaluate(QJsonObject()).json.value(s("skipped_invalid_then")).toInt(), 0);
    r = api.setState(bad, s("DISABLED"));
    QVERIFY2(r.status == 200, r.describe());
    QCOMPARE(api.setState(bad, s("ACTIVE")).status, 400); // still refused for activation
}

void tst_HttpRules::evaluationSummary()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString deploy = api.add(RuleNode(s("deploy"))
                                       .when(obj({{"intent", s("deploy")}}))
                                       .then(obj({{"tool", obj({{"prefer", strs({"kubectl"})},
                                                                {"deny", strs({"rm", "dd"})}})}})));
    const QString allow
        = api.add(RuleNode(s("allow"))
                      .when(obj({{"intent", s("deploy")}}))
                      .then(obj({{"tool", obj({{"allow", strs({"kubectl", "helm"})}})}})));
    const QString shadow = api.add(RuleNode(s("shadow")).then(QJsonObject()), s("SHADOW"));
    const QString team = api.add(RuleNode(s("team")).forTeam(s("ops")).then(QJsonObject()));
    const QString other
        = api.add(RuleNode(s("other")).when(obj({{"intent", s("chat")}})).then(QJsonObject()));
    QVERIFY2(!deploy.isEmpty() && !allow.isEmpty() && !shadow.isEmpty() && !team.isEmpty()
                 && !other.isEmpty(),
             api.last.describe());

    const Reply r = api.evaluate(obj({{"intent", s("deploy")}, {"agent", obj({{"id", s("a1")}})}}));
    QCOMPARE(r.status, 200);
    const QJsonObject summary = r.json.value(s("evaluation_summary")).toObject();
    QCOMPARE(keysOf(summary),
             keyList({"summary_version", "considered", "matched", "active_count", "shadow_count",
                      "skipped_invalid_then", "filtered_by_scope", "filtered_by_lane",
                      "filtered_by_condition", "lane_enforced", "lane_reason", "selected_tool",
                      "allowed_tool_count", "denied_tool_count", "preferred_tool_count",
                      "tool_conflicts"}));
    QCOMPARE(summary.value(s("summary_version")).toString(), s("rules_evaluation_summary_v1"));
    QCOMPARE(summary.value(s("considered")).toInt(), 5);
    QCOMPARE(summary.value(s("matched")).toInt(), 3);
    QCOMPARE(summary.value(s("active_count")).toInt(), 2);
    QCOMPARE(summary.value(s("shadow_count")).toInt(), 1);
    QCOMPARE(summary.value(s("filtered_by_scope")).toInt(), 1);
    QCOMPARE(summary.value(s("filtered_by_condition")).toInt(), 1);
    QCOMPARE(summary.value(s("filtered_by_lane")).toInt(), 0);
    QCOMPARE(summary.value(s("lane_enforced")).toBool(), true);
    QCOMPARE(summary.value(s("lane_reason")).toString(), s("enforced_agent_only"));
    QCOMPARE(summary.value(s("selected_tool")).toString(), s("kubectl"));
    QCOMPARE(summary.value(s("allowed_tool_count")).toInt(), 2);
    QCOMPARE(summary.value(s("denied_tool_count")).toInt(), 2);
    QCOMPARE(summary.value(s("preferred_tool_count")).toInt(), 1);
    const QStringList conflicts = stringList(summary.value(s("tool_conflicts")));
    QCOMPARE(conflicts.size(), 1);
    QVERIFY2(conflicts.first().startsWith(s("[allow_intersection] ")),
             qPrintable(conflicts.first()));

    // Without a prefer list the first allowed tool leads; with no tool policy there is none.
    QCOMPARE(api.setState(deploy, s("DISABLED")).status, 200);
    QCOMPARE(api.evaluate(obj({{"intent", s("deploy")}}))
                 .json.value(s("evaluation_summary"))
                 .toObject()
                 .value(s("selected_tool"))
                 .toString(),
             s("helm"));
    const QJsonObject none
        = api.evaluate(obj({{"intent", s("chat")}})).json.value(s("evaluation_summary")).toObject();
    QVERIFY(none.value(s("selected_tool")).isNull());
    QCOMPARE(none.value(s("allowed_tool_count")).toInt(), 0);
}

// ---- rule slots on write
// -------------------------------------------------------------------------

void tst_HttpRules::writeRejectsInvalidRuleSlots_data()
{
    QTest::addColumn<QJsonObject>("ruleSlots");
    QTest::addColumn<QString>("path");
    const QJsonObject then{{s("then"), QJsonObject()}};
    QTest::newRow("priority 101") << merged(then, obj({{"rule_meta", obj({{"priority", 101}})}}))
                                  << s("nodes[1].slots.rule_meta.priority");
    QTest::newRow("priority -101") << merged(then, obj({{"rule_meta", obj({{"priority", -101}})}}))
                                   << s("nodes[1].slots.rule_meta.priority");
    QTest::newRow("priority 1.5") << merged(then, obj({{"rule_meta", obj({{"priority", 1.5}})}}))
                                  << s("nodes[1].slots.rule_meta.priority");
    QTest::newRow("priority string")
        << merged(then, obj({{"rule_meta", obj({{"priority", s("high")}})}}))
        << s("nodes[1].slots.rule_meta.priority");
    QTest::newRow("weight 3") << merged(then, obj({{"rule_meta", obj({{"weight", 3}})}}))
                              << s("nodes[1].slots.rule_meta.weight");
    QTest::newRow("weight -0.5") << merged(then, obj({{"rule_meta", obj({{"weight", -0.5}})}}))
                                 << s("nodes[1].slots.rule_meta.weight");
    QTest::newRow("rule_meta not an object")
        << merged(then, obj({{"rule_meta", 5}})) << s("nodes[1].slots.rule_meta");
    QTest::newRow("team without target")
        << merged(then, obj({{"rule_scope", s("team")}})) << s("nodes[1].slots.target_team_id");
    QTest::newRow("team with blank target")
        << merged(then, obj({{"rule_scope", s("team")}, {"target_team_id", s(" ")}}))
        << s("nodes[1].slots.target_team_id");
    QTest::newRow("agent without target")
        << merged(then, obj({{"rule_scope", s("agent")}, {"target_team_id", s("t")}}))
        << s("nodes[1].slots.target_agent_id");
    QTest::newRow("unknown scope")
        << merged(then, obj({{"rule_scope", s("planet")}})) << s("nodes[1].slots.rule_scope");
}

void tst_HttpRules::writeRejectsInvalidRuleSlots()
{
    QFETCH(QJsonObject, ruleSlots);
    QFETCH(QString, path);
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QJsonObject rule = writeNode(s("bad-rule"), s("rule"), s("a rule with bad slots"));
    rule.insert(s("slots"), ruleSlots);
    rule.insert(s("memory_lane"), s("shared"));
    // The valid event before it is not written either.
    const Reply r = server.write(writeBody({writeNode(s("e"), s("event"), s("fine")), rule}));
    QCOMPARE(r.status, 400);
    QCOMPARE(r.errorCode(), s("invalid_request"));
    QCOMPARE(r.issuePath(), path);
    QCOMPARE(commitCount(server), 0);
    QCOMPARE(int(server.nodes().size()), 0);
    QCOMPARE(RuleApi(server).evaluate(QJsonObject()).json.value(s("considered")).toInt(), 0);
}

void tst_HttpRules::writeAcceptsBoundaryRuleSlots()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QHash<QString, QString> ids = api.write({
        RuleNode(s("max")).then(QJsonObject()).priority(100).weight(2),
        RuleNode(s("min")).then(QJsonObject()).priority(-100).weight(0),
        RuleNode(s("team")).forTeam(s("t1")).then(QJsonObject()),
        RuleNode(s("agent")).forAgent(s("a1")).then(QJsonObject()),
        RuleNode(s("upper")).slot(s("rule_scope"), s("GLOBAL")).then(QJsonObject()),
    });
    QVERIFY2(ids.size() == 5, api.last.describe());
    for (const QString &id : ids)
        QCOMPARE(api.setState(id, s("ACTIVE")).status, 200);

    const Reply r = api.evaluate(obj({{"agent", obj({{"id", s("a1")}, {"team_id", s("t1")}})}}));
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("matched")).toInt(), 5);
    const QJsonArray active = r.json.value(s("active")).toArray();
    QCOMPARE(active.first().toObject().value(s("rule_node_id")).toString(), ids.value(s("max")));
    QCOMPARE(active.last().toObject().value(s("rule_node_id")).toString(), ids.value(s("min")));
    QCOMPARE(matchById(active, ids.value(s("max")))
                 .value(s("rank"))
                 .toObject()
                 .value(s("score"))
                 .toDouble(),
             100000.0);
    QCOMPARE(matchById(active, ids.value(s("min")))
                 .value(s("rank"))
                 .toObject()
                 .value(s("weight"))
                 .toDouble(),
             0.0);
    QCOMPARE(matchById(active, ids.value(s("upper"))).value(s("rule_scope")).toString(),
             s("global"));
}

// ---- recall rules_context
// ------------------------------------------------------------------------

void tst_HttpRules::recallWithRulesContext()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString good = api.add(RuleNode(s("good"))
                                     .when(obj({{"intent", s("deploy")}}))
                                     .then(obj({{"output", obj({{"format", s("json")}})}})));
    QVERIFY2(!good.isEmpty(), api.last.describe());
    const QString bad = api.add(
        RuleNode(s("bad")).then(obj({{"output", obj({{"format", s("pdf")}})}})), s("SHADOW"));
    QVERIFY2(!bad.isEmpty(), api.last.describe());
    QVERIFY2(!api.add(RuleNode(s("shadow")).then(obj({{"output", obj({{"strict", true}})}})),
                      s("SHADOW"))
                  .isEmpty(),
             api.last.describe());

    const Reply r = server.post(s("/v1/memory/recall"),
                                obj({{"query_embedding", queryVector()},
                                     {"rules_context", obj({{"intent", s("deploy")}})}}));
    QCOMPARE(r.status, 200);
    QVERIFY2(r.json.contains(s("rules")), r.describe());
    const QJsonObject rules = r.json.value(s("rules")).toObject();
    QCOMPARE(keysOf(rules), keyList({"scope", "considered", "matched", "skipped_invalid_then",
                                     "invalid_then_sample", "applied"}));
    QCOMPARE(rules.value(s("scope")).toString(), s("default"));
    QCOMPARE(rules.value(s("considered")).toInt(), 3);
    QCOMPARE(rules.value(s("matched")).toInt(), 1); // rules_include_shadow defaults to false
    QCOMPARE(rules.value(s("skipped_invalid_then")).toInt(), 1);
    QCOMPARE(rules.value(s("invalid_then_sample"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(s("rule_node_id"))
                 .toString(),
             bad);
    const QJsonObject applied = rules.value(s("applied")).toObject();
    QCOMPARE(keysOf(applied),
             keyList({"policy", "sources", "conflicts", "conflict_explain", "tool_explain"}));
    QCOMPARE(jsonText(applied.value(s("policy"))),
             jsonText(obj({{"output", obj({{"format", s("json")}})}, {"tool", QJsonObject()}})));
    QCOMPARE(ruleIdsOf(applied.value(s("sources"))), QStringList{good});
    QVERIFY(!containsKeyDeep(r.json, s("embedding")));

    // rules_limit bounds the rules considered.
    const Reply limited = server.post(s("/v1/memory/recall"),
                                      obj({{"query_embedding", queryVector()},
                                           {"rules_context", obj({{"intent", s("deploy")}})},
                                           {"rules_limit", 1}}));
    QCOMPARE(limited.status, 200);
    QCOMPARE(limited.json.value(s("rules")).toObject().value(s("considered")).toInt(), 1);
    const Reply overLimit
        = server.post(s("/v1/memory/recall"), obj({{"query_embedding", queryVector()},
                                                   {"rules_context", QJsonObject()},
                                                   {"rules_limit", 201}}));
    QCOMPARE(overLimit.status, 400);
    QCOMPARE(overLimit.issuePath(), s("rules_limit"));
}

void tst_HttpRules::recallWithoutRulesContext()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    QVERIFY2(
        !api.add(RuleNode(s("r")).then(obj({{"output", obj({{"format", s("json")}})}}))).isEmpty(),
        api.last.describe());
    const Reply r = server.post(s("/v1/memory/recall"), obj({{"query_embedding", queryVector()}}));
    QCOMPARE(r.status, 200);
    QVERIFY2(!r.json.contains(s("rules")), r.describe());
    const Reply withNull
        = server.post(s("/v1/memory/recall"),
                      obj({{"query_embedding", queryVector()}, {"rules_context", QJsonValue()}}));
    QCOMPARE(withNull.status, 200);
    QVERIFY2(!withNull.json.contains(s("rules")), withNull.describe());
    // An empty object is a context: rules are evaluated.
    const Reply withEmpty
        = server.post(s("/v1/memory/recall"),
                      obj({{"query_embedding", queryVector()}, {"rules_context", QJsonObject()}}));
    QCOMPARE(withEmpty.status, 200);
    QCOMPARE(withEmpty.json.value(s("rules")).toObject().value(s("matched")).toInt(), 1);
}

void tst_HttpRules::recallRulesIncludeShadow()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server);
    const QString shadow = api.add(
        RuleNode(s("s")).then(obj({{"tool", obj({{"deny", strs({"rm"})}})}})), s("SHADOW"));
    QVERIFY2(!shadow.isEmpty(), api.last.describe());
    const Reply r = server.post(s("/v1/memory/recall"), obj({{"query_embedding", queryVector()},
                                                             {"rules_context", QJsonObject()},
                                                             {"rules_include_shadow", true}}));
    QCOMPARE(r.status, 200);
    const QJsonObject rules = r.json.value(s("rules")).toObject();
    QCOMPARE(rules.value(s("matched")).toInt(), 1);
    const QJsonObject applied = rules.value(s("applied")).toObject();
    QCOMPARE(jsonText(applied.value(s("policy"))), jsonText(obj({{"tool", QJsonObject()}})));
    QCOMPARE(jsonText(applied.value(s("shadow_policy"))),
             jsonText(obj({{"tool", obj({{"deny", strs({"rm"})}})}})));
    QCOMPARE(ruleIdsOf(applied.value(s("shadow_sources"))), QStringList{shadow});
}

// ---- identity
// ------------------------------------------------------------------------------------

void tst_HttpRules::apiKeyFillsContextIdentity()
{
    HttpTestServer server(apiKeyEnv());
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server, {apiKey("k1")});
    const QString agentRule
        = api.add(RuleNode(s("agent")).forAgent(s("agent-a")).then(QJsonObject()));
    QVERIFY2(!agentRule.isEmpty(), api.last.describe());
    const QString teamRule = api.add(RuleNode(s("team")).forTeam(s("team-x")).then(QJsonObject()));
    QVERIFY2(!teamRule.isEmpty(), api.last.describe());
    // Written with the key and no lane: private, owned by the key's agent.
    const QString ownedRule = api.add(RuleNode(s("owned")).defaultLane().then(QJsonObject()));
    QVERIFY2(!ownedRule.isEmpty(), api.last.describe());
    const QString otherAgentRule
        = api.add(RuleNode(s("other")).forAgent(s("agent-b")).then(QJsonObject()));
    QVERIFY2(!otherAgentRule.isEmpty(), api.last.describe());

    const Reply r = api.evaluate(QJsonObject());
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json.value(s("tenant_id")).toString(), s("acme"));
    QCOMPARE(jsonText(visibility(r).value(s("agent"))),
             jsonText(obj({{"id", s("agent-a")}, {"team_id", s("team-x")}})));
    QCOMPARE(lane(r).value(s("applied")).toBool(), true);
    QCOMPARE(lane(r).value(s("reason")).toString(), s("enforced_agent_team"));
    QCOMPARE(sorted(ruleIdsOf(r.json.value(s("active")))),
             sorted({agentRule, teamRule, ownedRule}));
    QCOMPARE(ruleScopeCounters(r).value(s("filtered_by_scope")).toInt(), 1);

    // The same identity given explicitly is accepted.
    const Reply same
        = api.evaluate(obj({{"agent", obj({{"id", s("agent-a")}, {"team_id", s("team-x")}})}}));
    QCOMPARE(same.status, 200);
    QCOMPARE(same.json.value(s("matched")).toInt(), 3);

    // Another key of the tenant sees its own agent rule but not agent-a's private rule.
    RuleApi other(server, {apiKey("k2")});
    const Reply asB = other.evaluate(QJsonObject());
    QCOMPARE(asB.status, 200);
    QCOMPARE(lane(asB).value(s("reason")).toString(), s("enforced_agent_only"));
    QCOMPARE(ruleIdsOf(asB.json.value(s("active"))), QStringList{otherAgentRule});

    // tools/select fills the context the same way.
    const Reply selected = api.select(QJsonObject(), strs({"t1"}));
    QCOMPARE(selected.status, 200);
    QCOMPARE(jsonText(selected.json.value(s("rules"))
                          .toObject()
                          .value(s("agent_visibility_summary"))
                          .toObject()
                          .value(s("agent"))),
             jsonText(obj({{"id", s("agent-a")}, {"team_id", s("team-x")}})));

    // Without a key: 401.
    const Reply anonymous
        = server.post(s("/v1/memory/rules/evaluate"), obj({{"context", QJsonObject()}}));
    QCOMPARE(anonymous.status, 401);
}

void tst_HttpRules::apiKeyIdentityMismatch_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QJsonObject>("body");
    QTest::addColumn<QString>("field");

    const QString evaluate = s("/v1/memory/rules/evaluate");
    QTest::newRow("evaluate agent.id")
        << evaluate << obj({{"context", obj({{"agent", obj({{"id", s("agent-b")}})}})}})
        << s("context.agent.id");
    QTest::newRow("evaluate agent_id")
        << evaluate << obj({{"context", obj({{"agent_id", s("agent-b")}})}})
        << s("context.agent_id");
    QTest::newRow("evaluate team_id")
        << evaluate << obj({{"context", obj({{"team_id", s("team-y")}})}}) << s("context.team_id");
    QTest::newRow("evaluate agent.team_id")
        << evaluate
        << obj({{"context",
                 obj({{"agent", obj({{"id", s("agent-a")}, {"team_id", s("team-y")}})}})}})
        << s("context.agent.team_id");
    QTest::newRow("select") << s("/v1/memory/tools/select")
                            << obj({{"context", obj({{"agent", obj({{"id", s("agent-b")}})}})},
                                    {"candidates", strs({"t"})}})
                            << s("context.agent.id");
    QTest::newRow("feedback") << s("/v1/memory/tools/feedback")
                              << obj({{"context", obj({{"agent_id", s("agent-b")}})},
                                      {"candidates", strs({"t"})},
                                      {"selected_tool", s("t")},
                                      {"outcome", s("positive")},
                                      {"input_text", s("x")}})
                              << s("context.agent_id");
    QTest::newRow("recall rules_context")
        << s("/v1/memory/recall")
        << obj({{"query_embedding", queryVector()},
                {"rules_context", obj({{"agent", obj({{"id", s("agent-b")}})}})}})
        << s("context.agent.id");
}

void tst_HttpRules::apiKeyIdentityMismatch()
{
    QFETCH(QString, path);
    QFETCH(QJsonObject, body);
    QFETCH(QString, field);
    HttpTestServer server(apiKeyEnv());
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply r = server.post(path, body, {apiKey("k1")});
    QCOMPARE(r.status, 403);
    QCOMPARE(r.errorCode(), s("identity_mismatch"));
    const QJsonObject details = r.json.value(s("details")).toObject();
    QCOMPARE(details.value(s("field")).toString(), field);
    QVERIFY(!details.value(s("provided")).toString().isEmpty());
    QVERIFY(!details.value(s("expected")).toString().isEmpty());
    QCOMPARE(commitCount(server, s("acme")), 0);
}

// Product bug: only the first non-empty form of each identity field is checked against the key,
// so a contradicting flat context.agent_id / context.team_id passes unchecked (and is what rule
// conditions on agent_id / team_id then see). Spec §5.1.5: 403 identity_mismatch.
void tst_HttpRules::apiKeyConflictingIdentityForms_data()
{
    QTest::addColumn<QJsonObject>("context");
    QTest::newRow("agent.id matches, agent_id names another agent")
        << obj({{"agent", obj({{"id", s("agent-a")}})}, {"agent_id", s("agent-b")}});
    QTest::newRow("agent.team_id matches, team_id names another team")
        << obj({{"agent", obj({{"team_id", s("team-x")}})}, {"team_id", s("team-y")}});
}

void tst_HttpRules::apiKeyConflictingIdentityForms()
{
    QFETCH(QJsonObject, context);
    HttpTestServer server(apiKeyEnv());
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi api(server, {apiKey("k1")});
    // A rule meant for agent-b / team-y only, keyed on the flat fields.
    const QString rule
        = api.add(RuleNode(s("for-b"))
                      .when(obj({{"$or", QJsonArray{obj({{"agent_id", s("agent-b")}}),
                                                    obj({{"team_id", s("team-y")}})}}}))
                      .then(obj({{"output", obj({{"format", s("text")}})}})));
    QVERIFY2(!rule.isEmpty(), api.last.describe());
    const Reply r = api.evaluate(context);
    QVERIFY2(r.status == 403, r.describe().constData());
    QCOMPARE(r.errorCode(), s("identity_mismatch"));
}

// Product bug: with a non-object context the credential's identity is not applied at all, so
// rules/evaluate runs with lane.reason missing_agent_context and shows other agents' private
// rules to the caller (spec §4.7.2, §5.1.4).
void tst_HttpRules::apiKeyLaneEnforcedForNonObjectContext_data()
{
    QTest::addColumn<QJsonValue>("context");
    QTest::newRow("string") << QJsonValue(s("deploy"));
    QTest::newRow("array") << QJsonValue(QJsonArray{1});
    QTest::newRow("number") << QJsonValue(7);
}

void tst_HttpRules::apiKeyLaneEnforcedForNonObjectContext()
{
    QFETCH(QJsonValue, context);
    HttpTestServer server(apiKeyEnv());
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi owner(server, {apiKey("k1")});
    const QString privateRule
        = owner.add(RuleNode(s("mine")).defaultLane().then(QJsonObject())); // private to agent-a
    QVERIFY2(!privateRule.isEmpty(), owner.last.describe());
    RuleApi other(server, {apiKey("k2")});

    // With an object context agent-b does not see it.
    const Reply objectContext = other.evaluate(QJsonObject());
    QCOMPARE(objectContext.status, 200);
    QCOMPARE(ruleIdsOf(objectContext.json.value(s("active"))), QStringList());

    const Reply r = other.evaluate(context);
    QCOMPARE(r.status, 200);
    QVERIFY2(!ruleIdsOf(r.json.value(s("active"))).contains(privateRule), r.describe().constData());
    QCOMPARE(lane(r).value(s("applied")).toBool(), true);
    QCOMPARE(visibility(r).value(s("agent")).toObject().value(s("id")).toString(), s("agent-b"));
}

// The same gap on the write side: agent-b's feedback with a non-object context is attributed to
// agent-a's private rule and changes its statistics.
void tst_HttpRules::apiKeyFeedbackNonObjectContextAttribution()
{
    HttpTestServer server(apiKeyEnv());
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    RuleApi owner(server, {apiKey("k1")});
    const QString privateRule = owner.add(
        RuleNode(s("mine")).defaultLane().then(obj({{"tool", obj({{"prefer", strs({"t1"})}})}})));
    QVERIFY2(!privateRule.isEmpty(), owner.last.describe());

    RuleApi other(server, {apiKey("k2")});
    const Reply fb = other.post("/v1/memory/tools/feedback", obj({{"context", s("anything")},
                                                                  {"candidates", strs({"t1"})},
                                                                  {"selected_tool", s("t1")},
                                                                  {"outcome", s("negative")},
                                                                  {"target", s("all")},
                                                                  {"input_text", s("bad tool")}}));
    QCOMPARE(fb.status, 200);
    QVERIFY2(!stringList(fb.json.value(s("rule_node_ids"))).contains(privateRule),
             fb.describe().constData());
    const QJsonObject mine
        = matchById(owner.evaluate(QJsonObject()).json.value(s("active")), privateRule);
    QCOMPARE(jsonText(mine.value(s("stats"))), jsonText(obj({{"positive", 0}, {"negative", 0}})));
}

QTEST_GUILESS_MAIN(tst_HttpRules)
#include "tst_httprules.moc"
