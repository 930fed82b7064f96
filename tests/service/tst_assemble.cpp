// Context assembly through the MemoryService facade (spec §4.13, reference §7.3): layers from a
// real recall, the rules layer, tool selection with a persisted decision, continuity pass-through,
// validation and functional idempotence.

#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;
using MemoryGraph::Test::writeBody;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

QJsonObject sharedNode(const char *clientId, const char *type, const char *summary,
                       const char *title = nullptr)
{
    QJsonObject n{{s("client_id"), s(clientId)},
                  {s("type"), s(type)},
                  {s("text_summary"), s(summary)},
                  {s("memory_lane"), s("shared")}};
    if (title)
        n.insert(s("title"), s(title));
    return n;
}

QJsonObject ruleNode(const char *clientId, const char *summary, const QJsonObject &ifJson,
                     const QJsonObject &thenJson)
{
    QJsonObject n = sharedNode(clientId, "rule", summary);
    n.insert(s("slots"), QJsonObject{{s("if"), ifJson}, {s("then"), thenJson}});
    return n;
}

/// Writes nodes and returns their ids by client_id (empty on failure).
QHash<QString, QString> write(MemoryService *svc, const QJsonArray &nodes)
{
    QHash<QString, QString> ids;
    auto req = WriteRequest::fromJson(writeBody(nodes));
    if (!req)
        return ids;
    auto written = svc->write(req.value(), {});
    if (!written)
        return ids;
    for (const WrittenNode &n : written.value().nodes)
        ids.insert(n.clientId, n.id);
    return ids;
}

bool activate(MemoryService *svc, const QString &ruleId)
{
    auto req = RuleStateRequest::fromJson(
        {{s("rule_node_id"), ruleId}, {s("state"), s("ACTIVE")}, {s("input_text"), s("activate")}});
    return req && svc->setRuleState(req.value(), {});
}

Result<AssembleOutcome> assemble(MemoryService *svc, QJsonObject body, const RequestMeta &meta = {})
{
    if (!body.contains(s("query_text")))
        body.insert(s("query_text"), s("how do we deploy the billing service"));
    auto req = AssembleRequest::fromJson(body, 8000);
    if (!req)
        return req.error();
    return svc->assembleContext(req.value(), meta);
}

QStringList layerTexts(const AssembleOutcome &o, const char *layer)
{
    QStringList texts;
    const QJsonArray items = o.layered->body.value(s("layers"))
                                 .toObject()
                                 .value(s(layer))
                                 .toObject()
                                 .value(s("items"))
                                 .toArray();
    for (const QJsonValue &v : items)
        texts << v.toObject().value(s("text")).toString();
    return texts;
}

QString failure(const Result<AssembleOutcome> &r)
{
    return r ? QString() : r.error().code + s(": ") + r.error().message;
}

} // namespace

class tst_Assemble : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_svc = std::make_unique<TempService>();
        QVERIFY(m_svc->isValid());
        MemoryService *svc = m_svc->service();
        m_ids = write(
            svc, {sharedNode("billing", "entity", "bills customers every month", "Billing service"),
                  sharedNode("deploy", "event", "deploy of the billing service failed on staging"),
                  ruleNode("prefer-pytest", "prefer pytest for tests", {{s("task"), s("test")}},
                           {{s("tool"), QJsonObject{{s("prefer"), QJsonArray{s("pytest")}}}}}),
                  ruleNode("json-output", "answer in json", {{s("task"), s("test")}},
                           {{s("output"), QJsonObject{{s("format"), s("json")}}}})});
        QCOMPARE(m_ids.size(), 4);
        QVERIFY(activate(svc, m_ids.value(s("prefer-pytest")))); // json-output stays SHADOW
        QVERIFY(svc->waitForEmbeddings(10000));
    }

    void cleanup() { m_svc.reset(); }

    void layersComeFromARealRecall()
    {
        auto r = assemble(m_svc->service(), {});
        QVERIFY2(r.ok(), qPrintable(failure(r)));
        const AssembleOutcome &o = r.value();
        QVERIFY(!o.recall.seeds.isEmpty());
        QCOMPARE(o.recall.queryText, s("how do we deploy the billing service"));
        QCOMPARE(o.recall.embeddingProvider, s("local:hashing-v2"));
        QCOMPARE(o.recall.endpoint, s("context_assemble"));
        QVERIFY(o.layered.has_value()); // return_layered_context defaults to true (spec)
        QVERIFY(layerTexts(o, "facts").contains(s("Billing service: bills customers every month")));
        QVERIFY(layerTexts(o, "episodes")
                    .contains(s("deploy of the billing service failed on staging")));
        QVERIFY(!layerTexts(o, "citations").isEmpty());
        QVERIFY(o.layered->mergedText.startsWith(s("# Facts\n- ")));
        QVERIFY(o.layered->mergedText.contains(s("\n\n# Episodes\n- ")));
        QCOMPARE(o.packetSourceMode, s("none"));
        QVERIFY(!o.tools.has_value());
    }

    void layeredContextCanBeTurnedOff()
    {
        auto r = assemble(m_svc->service(), {{s("return_layered_context"), false}});
        QVERIFY2(r.ok(), qPrintable(failure(r)));
        QVERIFY(!r.value().layered.has_value());
        QVERIFY(!r.value().recall.context.text.isEmpty());
    }

    void rulesLayerShowsActiveAndOptionallyShadowMatches()
    {
        const QString active = m_ids.value(s("prefer-pytest"));
        const QString shadow = m_ids.value(s("json-output"));
        const QJsonObject context{{s("task"), s("test")}};
        auto r = assemble(m_svc->service(), {{s("context"), context}});
        QVERIFY2(r.ok(), qPrintable(failure(r)));
        QVERIFY(r.value().rules.has_value());
        QCOMPARE(r.value().rules->evaluation.active.size(), 1);
        QVERIFY(layerTexts(r.value(), "rules")
                    .contains(s("[active] prefer pytest for tests (%1)").arg(active)));
        QVERIFY(!layerTexts(r.value(), "rules")
                     .contains(s("[shadow] answer in json (%1)").arg(shadow)));

        r = assemble(m_svc->service(), {{s("context"), context}, {s("include_shadow"), true}});
        QVERIFY2(r.ok(), qPrintable(failure(r)));
        QCOMPARE(r.value().rules->evaluation.shadow.size(), 1);
        QVERIFY(
            layerTexts(r.value(), "rules").contains(s("[shadow] answer in json (%1)").arg(shadow)));

        r = assemble(m_svc->service(), {{s("context"), context}, {s("include_rules"), false}});
        QVERIFY2(r.ok(), qPrintable(failure(r)));
        QVERIFY(!r.value().rules.has_value());
        // No evaluation: the shadow rule stays out; an active rule may still come from recall.
        QVERIFY(!layerTexts(r.value(), "rules")
                     .contains(s("[shadow] answer in json (%1)").arg(shadow)));
    }

    void toolCandidatesSelectAToolAndPersistTheDecision()
    {
        MemoryService *svc = m_svc->service();
        QSignalSpy recorded(svc, &MemoryService::decisionRecorded);
        auto r = assemble(
            svc, {{s("context"), QJsonObject{{s("task"), s("test")}}},
                  {s("tool_candidates"), QJsonArray{s("unittest"), s("pytest"), s("unittest")}},
                  {s("run_id"), s("run-42")}});
        QVERIFY2(r.ok(), qPrintable(failure(r)));
        const AssembleOutcome &o = r.value();
        QVERIFY(o.tools.has_value());
        QCOMPARE(o.tools->candidates, (QStringList{s("unittest"), s("pytest")}));
        QCOMPARE(o.tools->selection.selected, s("pytest"));
        const QString decisionId = o.tools->decision.id;
        QVERIFY(!decisionId.isEmpty());
        QCOMPARE(recorded.size(), 1);
        QCOMPARE(recorded.first().at(2).toString(), decisionId);

        DecisionQuery q;
        q.tenantId = s("default");
        q.scope = s("default");
        q.runId = s("run-42");
        auto stored = svc->listDecisions(q);
        QVERIFY(stored.ok());
        QCOMPARE(stored.value().size(), 1);
        QCOMPARE(stored.value().first().id, decisionId);
        QCOMPARE(stored.value().first().selectedTool, s("pytest"));

        QCOMPARE(layerTexts(o, "decisions"),
                 (QStringList{s("decision_id: ") + decisionId, s("run_id: run-42")}));
        QCOMPARE(layerTexts(o, "tools"),
                 (QStringList{s("selected tool: pytest"), s("tool ranking: pytest, unittest")}));
    }

    void strictToolSelectionWithNothingAllowedFailsWithoutADecision()
    {
        MemoryService *svc = m_svc->service();
        const QString denyAll
            = write(svc, {ruleNode("deny-all", "deny everything", {{s("task"), s("lock")}},
                                   {{s("tool"), QJsonObject{{s("deny"), QJsonArray{s("bash")}}}}})})
                  .value(s("deny-all"));
        QVERIFY(activate(svc, denyAll));
        auto r = assemble(svc, {{s("context"), QJsonObject{{s("task"), s("lock")}}},
                                {s("tool_candidates"), QJsonArray{s("bash")}}});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().code, s("no_tools_allowed"));
        DecisionQuery q;
        q.tenantId = s("default");
        q.scope = s("default");
        QCOMPARE(svc->listDecisions(q).value().size(), 0);
    }

    void continuityIsPassedThroughAndBecomesStaticBlocks()
    {
        const QJsonObject state{{s("current_stage"), s("patch")}, {s("step"), 3}};
        const QJsonObject packet{{s("goal"), s("fix billing")}, {s("version"), 1}};
        const QJsonObject summary{{s("status"), s("partial")}};
        const QJsonArray artifacts{
            QJsonObject{{s("id"), s("a1")}, {s("summary"), s("patch.diff written")}}};
        const QJsonArray evidence{
            QJsonObject{{s("ref"), s("log://1")}, {s("text"), s("tests green")}}};
        auto r = assemble(m_svc->service(), {{s("execution_state_v1"), state},
                                             {s("execution_packet_v1"), packet},
                                             {s("execution_result_summary"), summary},
                                             {s("execution_artifacts"), artifacts},
                                             {s("execution_evidence"), evidence}});
        QVERIFY2(r.ok(), qPrintable(failure(r)));
        const AssembleOutcome &o = r.value();
        QCOMPARE(o.continuity.value(s("execution_state_v1")).toObject(), state);
        QCOMPARE(o.continuity.value(s("execution_packet_v1")).toObject(), packet);
        QCOMPARE(o.continuity.value(s("execution_result_summary")).toObject(), summary);
        QCOMPARE(o.packetSourceMode, s("packet_input"));
        const QStringList blocks = layerTexts(o, "static");
        QVERIFY(blocks.contains(s("Execution artifact: patch.diff written")));
        QVERIFY(blocks.contains(s("Execution evidence: tests green")));
        QVERIFY(blocks.contains(s("Execution packet: {\"goal\":\"fix billing\",\"version\":1}")));
        QVERIFY(o.layered->mergedText.contains(s("# Static Context\n")));

        r = assemble(m_svc->service(), {{s("execution_state_v1"), state}});
        QVERIFY2(r.ok(), qPrintable(failure(r)));
        QCOMPARE(r.value().packetSourceMode, s("state_first"));
        QVERIFY(layerTexts(r.value(), "static")
                    .contains(s("Execution state: {\"current_stage\":\"patch\",\"step\":3}")));
    }

    void callerStaticBlocksAreScoredAgainstTheQuery()
    {
        const QJsonArray blocks{
            QJsonObject{{s("id"), s("runbook")},
                        {s("title"), s("Deploy runbook")},
                        {s("content"), s("deploy billing with the blue green script")},
                        {s("priority"), 40}},
            QJsonObject{{s("id"), s("lunch")},
                        {s("content"), s("the canteen opens at noon")},
                        {s("priority"), 40}}};
        auto r = assemble(m_svc->service(), {{s("static_context_blocks"), blocks}});
        QVERIFY2(r.ok(), qPrintable(failure(r)));
        QCOMPARE(layerTexts(r.value(), "static"),
                 QStringList{s("Deploy runbook: deploy billing with the blue green script")});
    }

    void theAssemblingAgentReadsItsOwnPrivateMemory()
    {
        MemoryService *svc = m_svc->service();
        QJsonObject secret
            = sharedNode("secret", "event", "billing deploy password rotates weekly");
        secret.insert(s("memory_lane"), s("private"));
        secret.insert(s("owner_agent_id"), s("agent-b"));
        QCOMPARE(write(svc, {secret}).size(), 1);
        QVERIFY(svc->waitForEmbeddings(10000));
        const QString line = s("billing deploy password rotates weekly");
        auto r = assemble(
            svc, {{s("context"), QJsonObject{{s("agent"), QJsonObject{{s("id"), s("agent-a")}}}}}});
        QVERIFY2(r.ok(), qPrintable(failure(r)));
        QVERIFY(!layerTexts(r.value(), "episodes").contains(line));
        r = assemble(
            svc, {{s("context"), QJsonObject{{s("agent"), QJsonObject{{s("id"), s("agent-b")}}}}}});
        QVERIFY2(r.ok(), qPrintable(failure(r)));
        QVERIFY(layerTexts(r.value(), "episodes").contains(line));
    }

    void sameInputGivesTheSameAssemblyButANewDecision()
    {
        const QJsonObject body{
            {s("context"), QJsonObject{{s("task"), s("test")}}},
            {s("tool_candidates"), QJsonArray{s("unittest"), s("pytest")}},
            {s("include_shadow"), true},
            {s("static_context_blocks"),
             QJsonArray{QJsonObject{
                 {s("id"), s("b")}, {s("content"), s("billing notes")}, {s("priority"), 60}}}}};
        auto first = assemble(m_svc->service(), body);
        auto second = assemble(m_svc->service(), body);
        QVERIFY2(first.ok() && second.ok(), qPrintable(failure(first) + failure(second)));
        const QString id1 = first.value().tools->decision.id;
        const QString id2 = second.value().tools->decision.id;
        QVERIFY(id1 != id2);
        const auto normalised = [](const AssembleOutcome &o, const QString &decisionId) {
            return QString::fromUtf8(QJsonDocument(o.layered->body).toJson(QJsonDocument::Compact))
                .replace(decisionId, s("<decision>"));
        };
        QCOMPARE(normalised(first.value(), id1), normalised(second.value(), id2));
        QCOMPARE(first.value().recall.context.text, second.value().recall.context.text);
        QCOMPARE(first.value().recall.seeds.size(), second.value().recall.seeds.size());
        QCOMPARE(first.value().tools->selection.selected, second.value().tools->selection.selected);
    }

    void invalidRequestsNameTheField()
    {
        const QList<std::pair<QJsonObject, QString>> cases{
            {{{s("query_text"), QJsonValue()}}, s("query_text")},
            {{{s("context_layers"),
               QJsonObject{{s("enabled"), QJsonArray{s("facts"), s("bogus")}}}}},
             s("context_layers.enabled[1]")},
            {{{s("context_layers"),
               QJsonObject{{s("char_budget_by_layer"), QJsonObject{{s("nope"), 10}}}}}},
             s("context_layers.char_budget_by_layer.nope")},
            {{{s("context_layers"),
               QJsonObject{{s("forgetting_policy"), QJsonObject{{s("min_salience"), 2}}}}}},
             s("context_layers.forgetting_policy.min_salience")},
            {{{s("static_context_blocks"), QJsonArray{QJsonObject{{s("id"), s("x")}}}}},
             s("static_context_blocks[0].content")},
            {{{s("tool_candidates"), QJsonArray{s("ok"), 3}}}, s("tool_candidates[1]")},
            {{{s("execution_artifacts"), QJsonArray{s("not an object")}}},
             s("execution_artifacts[0]")},
            {{{s("rules_limit"), 201}}, s("rules_limit")},
            {{{s("static_injection"), QJsonObject{{s("max_blocks"), -1}}}},
             s("static_injection.max_blocks")}};
        for (const auto &[body, path] : cases) {
            QJsonObject full = body;
            if (!full.contains(s("query_text")))
                full.insert(s("query_text"), s("anything"));
            else
                full.remove(s("query_text"));
            auto req = AssembleRequest::fromJson(full, 8000);
            QVERIFY2(!req.ok(), qPrintable(path));
            QCOMPARE(req.error().status, 400);
            QCOMPARE(req.error()
                         .details.value(s("issues"))
                         .toArray()
                         .first()
                         .toObject()
                         .value(s("path"))
                         .toString(),
                     path);
        }
    }

    void noEmbeddingProviderIsRejectedBeforeAnyDecision()
    {
        QProcessEnvironment env;
        env.insert(s("EMBEDDING_PROVIDER"), s("none"));
        TempService none(env);
        QVERIFY(none.isValid());
        auto r = assemble(none.service(), {{s("tool_candidates"), QJsonArray{s("pytest")}}});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().status, 400);
        QCOMPARE(r.error().code, s("no_embedding_provider"));
        DecisionQuery q;
        q.tenantId = s("default");
        q.scope = s("default");
        QCOMPARE(none->listDecisions(q).value().size(), 0);
    }

private:
    std::unique_ptr<TempService> m_svc;
    QHash<QString, QString> m_ids;
};

QTEST_GUILESS_MAIN(tst_Assemble)
#include "tst_assemble.moc"
