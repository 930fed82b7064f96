// The pure layered-context builder of context/assemble (spec §4.13, reference §7.3): layer
// mapping, line formats, budgets, caps, forgetting, static block scoring and the merged text.

#include "service/assemble/layeredcontext.h"

#include <QJsonArray>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::LayeredContext;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

MemoryItem item(const char *id, const char *kind, const char *title, const char *summary,
                const char *tier = "hot", double salience = 0.5)
{
    MemoryItem m;
    m.nodeId = s(id);
    m.kind = s(kind);
    m.title = s(title);
    m.summary = s(summary);
    m.tier = s(tier);
    m.salience = salience;
    return m;
}

QJsonObject layer(const Output &out, const char *name)
{
    return out.body.value(s("layers")).toObject().value(s(name)).toObject();
}

QStringList itemTexts(const Output &out, const char *name)
{
    QStringList texts;
    for (const QJsonValue &v : layer(out, name).value(s("items")).toArray())
        texts << v.toObject().value(s("text")).toString();
    return texts;
}

QStringList droppedReasons(const Output &out, const char *layerName)
{
    QStringList reasons;
    for (const QJsonValue &v : out.body.value(s("dropped_reasons")).toArray()) {
        if (v.toObject().value(s("layer")).toString() == s(layerName))
            reasons << v.toObject().value(s("id")).toString() + s(":")
                           + v.toObject().value(s("reason")).toString();
    }
    return reasons;
}

StaticBlock block(const char *id, int priority, bool always = false)
{
    StaticBlock b;
    b.id = s(id);
    b.title = s(id);
    b.content = s("content of ") + s(id);
    b.priority = priority;
    b.alwaysInclude = always;
    return b;
}

} // namespace

class tst_LayeredContext : public QObject
{
    Q_OBJECT

private slots:
    void mapsRecallItemsToLayersWithReferenceLineFormats()
    {
        Input in;
        MemoryItem rule = item("r1", "rule", "", "prefer pytest");
        rule.ruleState = s("active");
        in.items = {item("e1", "entity", "Alice", "the owner"), item("t1", "topic", "Billing", ""),
                    item("v1", "event", "", "deploy failed"),
                    item("x1", "evidence", "", "log line"), rule};
        in.citations = {{s("v1"), s("memorygraph://default/default/event/v1")}};
        in.selectedTool = s("pytest");
        in.toolRanking = {s("pytest"), s("unittest")};
        in.decisionId = s("d-1");
        in.runId = s("run-1");
        const Output out = build(in);

        QCOMPARE(itemTexts(out, "facts"), (QStringList{s("Alice: the owner"), s("Billing")}));
        QCOMPARE(itemTexts(out, "episodes"), (QStringList{s("deploy failed"), s("log line")}));
        QCOMPARE(itemTexts(out, "rules"), QStringList{s("[active] prefer pytest (r1)")});
        QCOMPARE(itemTexts(out, "decisions"),
                 (QStringList{s("decision_id: d-1"), s("run_id: run-1")}));
        QCOMPARE(itemTexts(out, "tools"),
                 (QStringList{s("selected tool: pytest"), s("tool ranking: pytest, unittest")}));
        QCOMPARE(itemTexts(out, "citations"),
                 QStringList{s("memorygraph://default/default/event/v1")});
        QCOMPARE(out.body.value(s("order")).toArray().size(), 7);
        QCOMPARE(out.body.value(s("version")).toInt(), 1);
        QCOMPARE(out.body.value(s("mode")).toString(), s("experimental_context_orchestrator_v0"));

        const QString text = out.mergedText;
        QVERIFY(text.startsWith(s("# Facts\n- Alice: the owner\n- Billing\n\n# Episodes\n")));
        QVERIFY(text.indexOf(s("# Episodes")) < text.indexOf(s("# Rules")));
        QVERIFY(text.indexOf(s("# Rules")) < text.indexOf(s("# Decisions")));
        QVERIFY(text.indexOf(s("# Decisions")) < text.indexOf(s("# Tools")));
        QVERIFY(text.indexOf(s("# Tools")) < text.indexOf(s("# Citations")));
        QVERIFY(!text.contains(s("# Static Context"))); // no block, no header
        QCOMPARE(out.layersWithContent, (QStringList{s("facts"), s("episodes"), s("rules"),
                                                     s("decisions"), s("tools"), s("citations")}));
        QCOMPARE(out.body.value(s("merged_text")).toString(), text);
    }

    void evaluatedRulesComeFirstAndReplaceTheirRecallItem()
    {
        Input in;
        MemoryItem recalled = item("r1", "rule", "", "recalled text");
        recalled.ruleState = s("shadow");
        MemoryItem recalledActive = item("r4", "rule", "", "active recalled");
        recalledActive.ruleState = s("active");
        in.items = {recalled, item("r2", "rule", "", "other rule"), recalledActive};
        in.rules = {{s("r3"), s("active rule"), s("active")},
                    {s("r1"), s("evaluated text"), s("shadow")}};
        // Recalled shadow (or unevaluated) rules stay out unless shadow rules were asked for.
        Output out = build(in);
        QCOMPARE(itemTexts(out, "rules"),
                 (QStringList{s("[active] active rule (r3)"), s("[shadow] evaluated text (r1)"),
                              s("[active] active recalled (r4)")}));
        in.includeShadowRules = true;
        out = build(in);
        QCOMPARE(itemTexts(out, "rules"),
                 (QStringList{s("[active] active rule (r3)"), s("[shadow] evaluated text (r1)"),
                              s("[shadow] other rule (r2)"), s("[active] active recalled (r4)")}));
        const QJsonArray items = layer(out, "rules").value(s("items")).toArray();
        QCOMPARE(items.at(0).toObject().value(s("source")).toString(), s("rules_evaluation"));
        QCOMPARE(items.at(2).toObject().value(s("source")).toString(), s("recall"));
    }

    void layerBudgetTotalBudgetAndItemCapsDropWithReasons()
    {
        Input in;
        // Each fact line is exactly 10 characters.
        for (int i = 0; i < 5; ++i)
            in.items.append(item(QByteArray("f" + QByteArray::number(i)).constData(), "entity", "",
                                 QByteArray("fact-" + QByteArray::number(i) + "____").constData()));
        in.options.charsByLayer.insert(s("facts"), 25);
        Output out = build(in);
        QCOMPARE(layer(out, "facts").value(s("kept_count")).toInt(), 2);
        QCOMPARE(layer(out, "facts").value(s("used_chars")).toInt(), 20);
        QCOMPARE(layer(out, "facts").value(s("budget_chars")).toInt(), 25);
        QCOMPARE(droppedReasons(out, "facts"),
                 (QStringList{s("f2:layer_budget"), s("f3:layer_budget"), s("f4:layer_budget")}));

        in.options.charsByLayer.clear();
        in.options.maxItemsByLayer.insert(s("facts"), 3);
        out = build(in);
        QCOMPARE(layer(out, "facts").value(s("max_items")).toInt(), 3);
        QCOMPARE(droppedReasons(out, "facts"), (QStringList{s("f3:max_items"), s("f4:max_items")}));

        in.options.maxItemsByLayer.clear();
        in.options.totalChars = 30;
        in.items.append(item("v1", "event", "", "ten chars!"));
        out = build(in);
        QCOMPARE(layer(out, "facts").value(s("kept_count")).toInt(), 3);
        QCOMPARE(droppedReasons(out, "episodes"), QStringList{s("v1:total_budget")});
        const QJsonObject budget = out.body.value(s("budget")).toObject();
        QCOMPARE(budget.value(s("total_chars")).toInt(), 30);
        QCOMPARE(budget.value(s("used_chars")).toInt(), 30);
        QCOMPARE(budget.value(s("remaining_chars")).toInt(), 0);
        const QJsonObject stats = out.body.value(s("stats")).toObject();
        QCOMPARE(stats.value(s("source_items")).toInt(), 6);
        QCOMPARE(stats.value(s("kept_items")).toInt(), 3);
        QCOMPARE(stats.value(s("dropped_items")).toInt(), 3);
        QCOMPARE(out.droppedItems, 3);
    }

    void defaultBudgetsAndCapsFollowTheReference()
    {
        const QList<std::pair<const char *, std::pair<int, int>>> expected{
            {"facts", {1200, 16}},    {"episodes", {1600, 20}}, {"rules", {1000, 16}},
            {"static", {1200, 6}},    {"decisions", {700, 10}}, {"tools", {700, 10}},
            {"citations", {1000, 24}}};
        for (const auto &[name, limits] : expected) {
            QCOMPARE(defaultLayerChars(s(name)), limits.first);
            QCOMPARE(defaultLayerMaxItems(s(name)), limits.second);
        }
        Input in;
        for (int i = 0; i < 30; ++i)
            in.items.append(
                item(QByteArray("e" + QByteArray::number(i)).constData(), "event", "", "x"));
        const Output out = build(in);
        QCOMPARE(layer(out, "episodes").value(s("kept_count")).toInt(), 20);
        QCOMPARE(out.body.value(s("budget")).toObject().value(s("total_chars")).toInt(), 4000);
    }

    void forgettingPolicyRemovesItemsBeforeBudgeting()
    {
        Input in;
        in.items = {
            item("a", "event", "", "archived", "archive"), item("c", "event", "", "cold", "cold"),
            item("l", "event", "", "low", "warm", 0.1), item("k", "event", "", "kept", "hot", 0.9),
            item("u", "event", "", "unknown tier", "", -1)};
        in.options.forgetting.minSalience = 0.2;
        Output out = build(in);
        QCOMPARE(itemTexts(out, "episodes"), (QStringList{s("kept"), s("unknown tier")}));
        QCOMPARE(droppedReasons(out, "episodes"),
                 (QStringList{s("a:forgotten_archived"), s("c:forgotten_tier"),
                              s("l:forgotten_low_salience")}));
        QCOMPARE(out.forgottenItems, 3);
        QCOMPARE(layer(out, "episodes").value(s("forgotten_count")).toInt(), 3);
        QCOMPARE(out.body.value(s("forgetting")).toObject().value(s("forgotten_items")).toInt(), 3);
        QCOMPARE(out.body.value(s("stats")).toObject().value(s("forgotten_items")).toInt(), 3);

        in.options.forgetting.allowedTiers = {s("hot"), s("warm"), s("cold")};
        out = build(in);
        QVERIFY(itemTexts(out, "episodes").contains(s("cold")));

        in.options.forgetting.enabled = false;
        out = build(in);
        QCOMPARE(itemTexts(out, "episodes").size(), 5);
        QCOMPARE(out.forgottenItems, 0);
    }

    void staticBlocksAreScoredFromPriorityIntentsTagsToolsAndWords()
    {
        Input in;
        in.queryText = s("how do we deploy the billing service");
        in.contextSignals = {s("release")};
        in.toolCandidates = {s("Kubectl")};
        StaticBlock b = block("runbook", 10);
        b.intents = {s("release"), s("rollback")};
        b.tags = {s("billing"), s("infra")};
        b.tools = {s("kubectl")};
        b.title = s("Deploy runbook");
        b.content = s("steps to deploy billing");
        const BlockScore score = scoreBlock(b, in);
        // 10 priority + 20 intent + 10 tag + 15 tool + 5 * 2 shared words (deploy, billing).
        QCOMPARE(score.score, 65);
        QCOMPARE(score.matched, (QStringList{s("intent:release"), s("tag:billing"),
                                             s("tool:kubectl"), s("lexical:2")}));

        StaticBlock always = block("pinned", 0, true);
        QCOMPARE(scoreBlock(always, in).score, 100);
    }

    void staticSelectionHonoursMinScoreMaxBlocksAndAlwaysInclude()
    {
        Input in;
        in.blocks = {block("low", 40), block("b1", 60), block("b2", 70), block("b3", 80),
                     block("pin", 0, true)};
        in.injection.maxBlocks = 2;
        Output out = build(in);
        QCOMPARE(itemTexts(out, "static"),
                 (QStringList{s("pin: content of pin"), s("b3: content of b3"),
                              s("b2: content of b2")}));
        QCOMPARE(out.staticBlocksSelected, 3);
        QCOMPARE(out.staticBlocksRejected, 2);
        QVERIFY(out.mergedText.contains(s("# Static Context\n- pin: content of pin")));
        QStringList reasons;
        const QJsonObject injection = out.body.value(s("static_injection")).toObject();
        for (const QJsonValue &v : injection.value(s("selection_trace")).toArray())
            reasons << v.toObject().value(s("id")).toString() + s(":")
                           + v.toObject().value(s("reason")).toString();
        QCOMPARE(reasons, (QStringList{s("pin:always_include"), s("b3:score"), s("b2:score"),
                                       s("b1:max_blocks"), s("low:below_min_score")}));
        QCOMPARE(injection.value(s("candidate_count")).toInt(), 5);
        QCOMPARE(injection.value(s("selected_count")).toInt(), 3);

        in.injection.enabled = false;
        in.injection.includeSelectionTrace = false;
        out = build(in);
        QCOMPARE(itemTexts(out, "static"), QStringList{s("pin: content of pin")});
        QVERIFY(!out.body.value(s("static_injection")).toObject().contains(s("selection_trace")));
    }

    void enabledLayersLimitOrderLayersAndText()
    {
        Input in;
        in.items = {item("e1", "entity", "E", "fact"), item("v1", "event", "", "episode")};
        in.citations = {{s("v1"), s("memorygraph://t/s/event/v1")}};
        in.options.enabled = {s("citations"), s("episodes")};
        in.options.includeMergeTrace = false;
        const Output out = build(in);
        QCOMPARE(out.body.value(s("order")).toArray(), QJsonArray({s("episodes"), s("citations")}));
        QCOMPARE(out.body.value(s("layers")).toObject().keys(),
                 (QStringList{s("citations"), s("episodes")}));
        QCOMPARE(out.mergedText,
                 s("# Episodes\n- episode\n\n# Citations\n- memorygraph://t/s/event/v1"));
        QVERIFY(!out.body.contains(s("merge_trace")));
    }

    void mergeTraceListsKeptIdsPerLayer()
    {
        Input in;
        in.items = {item("e1", "entity", "E", "fact"), item("e2", "concept", "C", "idea")};
        const Output out = build(in);
        const QJsonArray trace = out.body.value(s("merge_trace")).toArray();
        QCOMPARE(trace.size(), 1);
        QCOMPARE(trace.at(0).toObject().value(s("layer")).toString(), s("facts"));
        QCOMPARE(trace.at(0).toObject().value(s("header")).toString(), s("# Facts"));
        QCOMPARE(trace.at(0).toObject().value(s("kept_ids")).toArray(),
                 QJsonArray({s("e1"), s("e2")}));
    }

    void sameInputGivesTheSameOutput()
    {
        Input in;
        in.queryText = s("deploy billing");
        in.items
            = {item("e1", "entity", "E", "fact"), item("v1", "event", "", "deploy log", "cold")};
        in.blocks = {block("b1", 55), block("b2", 90)};
        in.rules = {{s("r1"), s("rule"), s("active")}};
        QCOMPARE(build(in).body, build(in).body);
    }
};

QTEST_GUILESS_MAIN(tst_LayeredContext)
#include "tst_layeredcontext.moc"
