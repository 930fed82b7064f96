// POST /v1/memory/context/assemble over real HTTP (spec §4.0, §4.13, §7; reference §7.3, §9.3):
// the whitelisted body, request_id, tools and continuity, errors naming fields, identity.

#include "tests/http/rulestestdata.h"

#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace MemoryGraph::Test::Rules;

namespace {

const QString kPath = QStringLiteral("/v1/memory/context/assemble");

const QString kKeys
    = QStringLiteral(R"({"k1":{"tenant_id":"acme","agent_id":"agent-a","team_id":"team-x"}})");

QJsonObject sharedEvent(const char *clientId, const char *summary)
{
    return obj({{"client_id", s(clientId)},
                {"type", s("event")},
                {"text_summary", s(summary)},
                {"memory_lane", s("shared")}});
}

QJsonObject query(const QJsonObject &extra = {})
{
    return merged(obj({{"query_text", s("how do we deploy the billing service")}}), extra);
}

} // namespace

class tst_HttpAssemble : public QObject
{
    Q_OBJECT

private slots:
    void responseIsTheWhitelistedShapeWithRequestId()
    {
        HttpTestServer server;
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        QCOMPARE(server.write(writeBody({sharedEvent("d", "deploy of the billing service failed")}))
                     .status,
                 200);
        QVERIFY(server.service()->waitForEmbeddings(10000));

        const Reply r = server.post(
            kPath, query(),
            {{QByteArrayLiteral("X-Request-Id"), QByteArrayLiteral("req-assemble-1")}});
        QVERIFY2(r.status == 200, r.describe());
        QCOMPARE(keysOf(r.json),
                 keyList({"request_id", "tenant_id", "scope", "execution_kernel", "query", "recall",
                          "rules", "assembly_summary", "layered_context", "cost_signals"}));
        QCOMPARE(r.json.value(s("request_id")).toString(), s("req-assemble-1"));
        QCOMPARE(r.header("x-request-id"), QByteArrayLiteral("req-assemble-1"));
        QCOMPARE(r.json.value(s("tenant_id")).toString(), s("default"));
        QCOMPARE(keysOf(r.json.value(s("execution_kernel")).toObject()),
                 keyList({"packet_source_mode", "state_first_assembly",
                          "execution_packet_v1_present", "execution_state_v1_present"}));
        QCOMPARE(r.json.value(s("execution_kernel"))
                     .toObject()
                     .value(s("packet_source_mode"))
                     .toString(),
                 s("none"));
        const QJsonObject q = r.json.value(s("query")).toObject();
        QCOMPARE(q.value(s("text")).toString(), s("how do we deploy the billing service"));
        QCOMPARE(q.value(s("embedding_provider")).toString(), s("local:hashing-v2"));

        const QJsonObject recall = r.json.value(s("recall")).toObject();
        for (const char *key :
             {"seeds", "ranked", "subgraph", "context", "trajectory", "observability"})
            QVERIFY2(recall.contains(s(key)), key);
        QVERIFY(!recall.value(s("seeds")).toArray().isEmpty());
        const QJsonObject trajectory = recall.value(s("trajectory")).toObject();
        QCOMPARE(keysOf(trajectory), keyList({"strategy", "layers", "budgets", "pruned_reasons"}));
        QCOMPARE(trajectory.value(s("layers")).toArray().size(), 3);
        QCOMPARE(trajectory.value(s("budgets")).toObject().value(s("limit")).toInt(), 24);
        QCOMPARE(recall.value(s("observability")).toObject().value(s("endpoint")).toString(),
                 s("context_assemble"));

        QCOMPARE(keysOf(r.json.value(s("assembly_summary")).toObject()),
                 keyList({"summary_version", "selected_tool", "decision_id", "rules_considered",
                          "rules_matched", "include_rules", "context_est_tokens", "layered_output",
                          "forgotten_items", "static_blocks_selected", "selected_memory_layers",
                          "optimization_profile", "context_compaction_profile", "recall_mode",
                          "primary_savings_levers"}));
        const QJsonObject layered = r.json.value(s("layered_context")).toObject();
        QCOMPARE(keysOf(layered),
                 keyList({"version", "mode", "order", "budget", "stats", "layers", "merged_text",
                          "merge_trace", "dropped_reasons", "forgetting", "static_injection"}));
        QVERIFY(layered.value(s("merged_text"))
                    .toString()
                    .contains(s("- deploy of the billing service failed")));
        QVERIFY(!containsKeyDeep(r.json, s("embedding")));
        QVERIFY(!containsKeyDeep(r.json, s("embeddings")));
    }

    void toolsAndContinuityAppearWhenGiven()
    {
        HttpTestServer server;
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        RuleApi rules(server);
        const QString rule = rules.add(RuleNode(s("prefer-rg"))
                                           .when(obj({{"task", s("search")}}))
                                           .then(obj({{"tool", obj({{"prefer", strs({"rg"})}})}})));
        QVERIFY2(!rule.isEmpty(), rules.last.describe());
        const QJsonObject state = obj({{"current_stage", s("triage")}});
        const QJsonObject summary = obj({{"status", s("ok")}, {"notes", strs({"a", "b"})}});
        const Reply r = server.post(
            kPath, query({{s("context"), obj({{"task", s("search")}})},
                          {s("tool_candidates"), strs({"grep", "rg"})},
                          {s("execution_state_v1"), state},
                          {s("execution_result_summary"), summary},
                          {s("execution_artifacts"),
                           QJsonArray{obj({{"id", s("a1")}, {"summary", s("found it")}})}}}));
        QVERIFY2(r.status == 200, r.describe());
        const QJsonObject tools = r.json.value(s("tools")).toObject();
        QVERIFY(!tools.contains(s("request_id")));
        QCOMPARE(tools.value(s("selection")).toObject().value(s("selected")).toString(), s("rg"));
        const QString decisionId
            = tools.value(s("decision")).toObject().value(s("decision_id")).toString();
        QVERIFY(!decisionId.isEmpty());
        const QJsonObject summaryOut = r.json.value(s("assembly_summary")).toObject();
        QCOMPARE(summaryOut.value(s("decision_id")).toString(), decisionId);
        QCOMPARE(summaryOut.value(s("selected_tool")).toString(), s("rg"));
        QCOMPARE(r.json.value(s("execution_state_v1")).toObject(), state);
        QCOMPARE(r.json.value(s("execution_result_summary")).toObject(), summary);
        QVERIFY(!r.json.contains(s("execution_artifacts"))); // it became a static block instead
        QCOMPARE(r.json.value(s("execution_kernel"))
                     .toObject()
                     .value(s("packet_source_mode"))
                     .toString(),
                 s("state_first"));
        QVERIFY(r.json.value(s("layered_context"))
                    .toObject()
                    .value(s("merged_text"))
                    .toString()
                    .contains(s("# Static Context\n- Execution state: ")));

        // The decision is a real one: tools/decision finds it.
        const Reply decision
            = server.post(s("/v1/memory/tools/decision"), obj({{"decision_id", decisionId}}));
        QVERIFY2(decision.status == 200, decision.describe());
    }

    void debugEmbeddingsOnlyThroughTheDebugChannel()
    {
        HttpTestServer server;
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        QCOMPARE(server.write(writeBody({sharedEvent("d", "deploy of the billing service failed")}))
                     .status,
                 200);
        QVERIFY(server.service()->waitForEmbeddings(10000));
        Reply r = server.post(
            kPath,
            query({{s("return_debug"), true}, {s("include_embeddings"), true}, {s("limit"), 5}}));
        QVERIFY2(r.status == 200, r.describe());
        const QJsonArray previews = r.json.value(s("recall"))
                                        .toObject()
                                        .value(s("debug"))
                                        .toObject()
                                        .value(s("embeddings"))
                                        .toArray();
        QCOMPARE(previews.size(), 1);
        QVERIFY(!containsKeyDeep(r.json.value(s("layered_context")), s("embeddings")));

        r = server.post(
            kPath,
            query({{s("return_debug"), true}, {s("include_embeddings"), true}, {s("limit"), 21}}));
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorCode(), s("debug_embeddings_limit_too_high"));
    }

    void noEmbeddingProviderIs400()
    {
        HttpTestServer server(environment({{"EMBEDDING_PROVIDER", s("none")}}));
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        const Reply r = server.post(
            kPath, query(), {{QByteArrayLiteral("X-Request-Id"), QByteArrayLiteral("req-none")}});
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorCode(), s("no_embedding_provider"));
        QCOMPARE(r.json.value(s("request_id")).toString(), s("req-none"));
    }

    void validationErrorsNameTheField_data()
    {
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QString>("path");
        QTest::newRow("missing query_text") << obj({{"context", obj({})}}) << s("query_text");
        QTest::newRow("context not an object")
            << query({{s("context"), s("text")}}) << s("context");
        QTest::newRow("unknown layer")
            << query({{s("context_layers"), obj({{"enabled", strs({"facts", "x"})}})}})
            << s("context_layers.enabled[1]");
        QTest::newRow("budget type")
            << query({{s("context_layers"), obj({{"char_budget_total", s("big")}})}})
            << s("context_layers.char_budget_total");
        QTest::newRow("block without id")
            << query({{s("static_context_blocks"), QJsonArray{obj({{"content", s("c")}})}}})
            << s("static_context_blocks[0].id");
        QTest::newRow("too many tools") << query(
            {{s("tool_candidates"), [] {
                  QJsonArray a;
                  for (int i = 0; i < 201; ++i)
                      a.append(QString::number(i));
                  return a;
              }()}}) << s("tool_candidates");
        QTest::newRow("recall knob") << query({{s("limit"), 0}}) << s("limit");
        QTest::newRow("optimization profile")
            << query({{s("context_optimization_profile"), s("max")}})
            << s("context_optimization_profile");
    }

    void validationErrorsNameTheField()
    {
        QFETCH(QJsonObject, body);
        QFETCH(QString, path);
        HttpTestServer server;
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        const Reply r = server.post(kPath, body);
        QCOMPARE(r.status, 400);
        QCOMPARE(r.errorCode(), s("invalid_request"));
        QCOMPARE(r.issuePath(), path);
        QVERIFY(!r.json.value(s("request_id")).toString().isEmpty());
    }

    void identityComesFromTheCredential()
    {
        HttpTestServer server(
            environment({{"MEMORY_AUTH_MODE", s("api_key")}, {"MEMORY_API_KEYS_JSON", kKeys}}));
        QVERIFY2(server.isReady(), qPrintable(server.errorText()));
        const HttpHeaders key{{QByteArrayLiteral("X-Api-Key"), QByteArrayLiteral("k1")}};
        Reply r = server.post(
            kPath, query({{s("context"), obj({{"agent", obj({{"id", s("agent-z")}})}})}}), key);
        QCOMPARE(r.status, 403);
        QCOMPARE(r.errorCode(), s("identity_mismatch"));
        QCOMPARE(r.json.value(s("details")).toObject().value(s("field")).toString(),
                 s("context.agent.id"));

        r = server.post(kPath, query({{s("consumer_agent_id"), s("agent-z")}}), key);
        QCOMPARE(r.status, 403);
        QCOMPARE(r.errorCode(), s("identity_mismatch"));

        r = server.post(kPath, query({{s("tenant_id"), s("other")}}), key);
        QCOMPARE(r.status, 403);

        r = server.post(kPath, query(), key);
        QVERIFY2(r.status == 200, r.describe());
        QCOMPARE(r.json.value(s("tenant_id")).toString(), s("acme"));
        QCOMPARE(r.json.value(s("rules"))
                     .toObject()
                     .value(s("agent_visibility_summary"))
                     .toObject()
                     .value(s("agent"))
                     .toObject()
                     .value(s("id"))
                     .toString(),
                 s("agent-a"));

        QCOMPARE(server.post(kPath, query()).status, 401);
    }
};

QTEST_GUILESS_MAIN(tst_HttpAssemble)
#include "tst_httpassemble.moc"
