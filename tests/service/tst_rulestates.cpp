// Rule states through the facade (reference §2.6): DRAFT and DISABLED beside SHADOW and ACTIVE,
// never evaluated, still listed for the console and left out of a recall's applicable rules;
// the tools run list (reference §3.5) with its filters and keyset paging; the resolve summary.

#include "tests/support/tempservice.h"

#include <QJsonArray>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;
using MemoryGraph::Test::why;
using MemoryGraph::Test::writeBody;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

const QJsonObject kDeploy{{QStringLiteral("intent"), QStringLiteral("deploy")}};

QJsonObject ruleNode(const char *clientId, const char *summary)
{
    return {{s("client_id"), s(clientId)},
            {s("type"), s("rule")},
            {s("text_summary"), s(summary)},
            {s("memory_lane"), s("shared")},
            {s("slots"),
             QJsonObject{{s("if"), kDeploy},
                         {s("then"),
                          QJsonObject{{s("tool"),
                                       QJsonObject{{s("prefer"), QJsonArray{s("kubectl")}}}}}}}}};
}

QString writeRule(MemoryService *svc, const char *clientId, const char *summary)
{
    auto req = WriteRequest::fromJson(writeBody({ruleNode(clientId, summary)}));
    if (!req)
        return {};
    auto written = svc->write(req.value(), {});
    return written ? written.value().nodes.first().id : QString();
}

Result<RuleStateOutcome> setState(MemoryService *svc, const QString &id, const char *state)
{
    auto req = RuleStateRequest::fromJson(
        {{s("rule_node_id"), id}, {s("state"), s(state)}, {s("input_text"), s("state change")}});
    if (!req)
        return req.error();
    return svc->setRuleState(req.value(), {});
}

QString stateOf(MemoryService *svc, const QString &id)
{
    auto rules = svc->listRules(s("default"), s("default"));
    for (const RuleSummary &r : rules.value()) {
        if (r.node.id == id)
            return r.status.state;
    }
    return {};
}

int evaluatedRules(MemoryService *svc)
{
    auto req = RulesEvaluateRequest::fromJson({{s("context"), kDeploy}});
    auto out = svc->evaluateRules(req.value(), {});
    return out ? out.value().evaluation.considered : -1;
}

bool select(MemoryService *svc, const QString &runId)
{
    QJsonObject body{{s("context"), kDeploy},
                     {s("candidates"), QJsonArray{s("helm"), s("kubectl")}}};
    if (!runId.isEmpty())
        body.insert(s("run_id"), runId);
    auto req = ToolSelectRequest::fromJson(body);
    return req && svc->selectTools(req.value(), {});
}

Result<RunListOutcome> runs(MemoryService *svc, const QJsonObject &body = {})
{
    auto req = ToolRunsListRequest::fromJson(body);
    if (!req)
        return req.error();
    return svc->toolRunsList(req.value(), {});
}

QStringList runIds(const RunListOutcome &o)
{
    QStringList ids;
    for (const RunSummary &r : o.items)
        ids << r.runId;
    return ids;
}

} // namespace

class tst_RuleStates : public QObject
{
    Q_OBJECT

private slots:
    void allFourStatesAreStoredAndListed();
    void onlyShadowAndActiveAreEvaluated();
    void recallLeavesDraftAndDisabledRulesOut();
    void runListCountsFiltersAndPages();
    void resolveSummaryNamesRelatedRecords();
};

void tst_RuleStates::allFourStatesAreStoredAndListed()
{
    TempService svc;
    QVERIFY(svc.isValid());
    const QString id = writeRule(svc.service(), "r", "prefer kubectl for deploys");
    QVERIFY(!id.isEmpty());
    QCOMPARE(stateOf(svc.service(), id), s("shadow"));
    for (const char *state : {"DRAFT", "ACTIVE", "DISABLED", "SHADOW", "disabled"}) {
        auto changed = setState(svc.service(), id, state);
        QVERIFY2(changed, why(changed).constData());
        QCOMPARE(changed.value().state, s(state).toLower());
        QCOMPARE(stateOf(svc.service(), id), s(state).toLower());
    }
    // The state survives a restart, and a re-write of the rule keeps it.
    QVERIFY(svc.reopen());
    QCOMPARE(stateOf(svc.service(), id), s("disabled"));
    QCOMPARE(writeRule(svc.service(), "r", "prefer kubectl for every deploy"), id);
    QCOMPARE(stateOf(svc.service(), id), s("disabled"));

    auto refused = RuleStateRequest::fromJson(
        {{s("rule_node_id"), id}, {s("state"), s("retired")}, {s("input_text"), s("x")}});
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, s("invalid_request"));
}

void tst_RuleStates::onlyShadowAndActiveAreEvaluated()
{
    TempService svc;
    QVERIFY(svc.isValid());
    const QString id = writeRule(svc.service(), "r", "prefer kubectl for deploys");
    QVERIFY(!id.isEmpty());
    QCOMPARE(evaluatedRules(svc.service()), 1); // shadow
    for (const char *state : {"DRAFT", "DISABLED"}) {
        QVERIFY(setState(svc.service(), id, state));
        QCOMPARE(evaluatedRules(svc.service()), 0);
    }
    QVERIFY(setState(svc.service(), id, "ACTIVE"));
    QCOMPARE(evaluatedRules(svc.service()), 1);
}

void tst_RuleStates::recallLeavesDraftAndDisabledRulesOut()
{
    TempService svc;
    QVERIFY(svc.isValid());
    const QString id = writeRule(svc.service(), "r", "deploy with kubectl rollouts");
    QVERIFY(!id.isEmpty());
    QVERIFY(setState(svc.service(), id, "ACTIVE"));
    QVERIFY(svc->waitForEmbeddings(10000));
    const auto contextText = [&svc]() {
        auto req = RecallRequest::fromJson({{s("query_text"), s("deploy with kubectl rollouts")}},
                                           true, 8000);
        auto out = svc->recallText(req.value(), {});
        return out ? out.value().context.text : s("<failed: ") + QString::fromUtf8(why(out));
    };
    const auto seedIds = [&svc]() {
        auto req = RecallRequest::fromJson({{s("query_text"), s("deploy with kubectl rollouts")}},
                                           true, 8000);
        auto out = svc->recallText(req.value(), {});
        QStringList ids;
        for (const RecallSeed &seed : out.value().seeds)
            ids << seed.node.id;
        return ids;
    };
    QVERIFY2(contextText().contains(s("state=active")), qPrintable(contextText()));
    QVERIFY(seedIds().contains(id));
    for (const char *state : {"DISABLED", "DRAFT"}) {
        QVERIFY(setState(svc.service(), id, state));
        const QString text = contextText();
        QVERIFY2(!text.contains(s("# Applicable Rules")), qPrintable(text));
        QVERIFY2(!text.contains(id), qPrintable(text));
        QVERIFY(!seedIds().contains(id)); // nor does it seed
    }
    QVERIFY(setState(svc.service(), id, "SHADOW"));
    QVERIFY(seedIds().contains(id));
}

void tst_RuleStates::runListCountsFiltersAndPages()
{
    TempService svc;
    QVERIFY(svc.isValid());
    for (const char *run : {"a", "b", "c"})
        QVERIFY(select(svc.service(), s(run)));
    QVERIFY(select(svc.service(), s("a")));
    QVERIFY(select(svc.service(), QString())); // a selection without a run is not a run

    auto all = runs(svc.service());
    QVERIFY2(all, why(all).constData());
    QCOMPARE(runIds(all.value()), (QStringList{s("a"), s("c"), s("b")}));
    QCOMPARE(all.value().items.first().decisionCount, 2);
    QCOMPARE(all.value().items.first().status, s("decision_recorded"));
    QCOMPARE(all.value().items.first().latestSelectedTool, s("helm"));
    QVERIFY(all.value().nextCursor.isEmpty());

    auto first = runs(svc.service(), {{s("limit"), 2}});
    QCOMPARE(runIds(first.value()), (QStringList{s("a"), s("c")}));
    QVERIFY(!first.value().nextCursor.isEmpty());
    auto second = runs(svc.service(), {{s("limit"), 2}, {s("cursor"), first.value().nextCursor}});
    QCOMPARE(runIds(second.value()), QStringList{s("b")});
    QVERIFY(second.value().nextCursor.isEmpty());

    QCOMPARE(runIds(runs(svc.service(), {{s("status"), s("feedback_linked")}}).value()),
             QStringList());
    QCOMPARE(runIds(runs(svc.service(), {{s("selected_tool"), s("kubectl")}}).value()),
             QStringList());
    auto other = runs(svc.service(), {{s("scope"), s("elsewhere")}});
    QVERIFY(other);
    QCOMPARE(other.value().items.size(), 0);
}

void tst_RuleStates::resolveSummaryNamesRelatedRecords()
{
    TempService svc;
    QVERIFY(svc.isValid());
    const QString id = writeRule(svc.service(), "r", "prefer kubectl for deploys");
    QVERIFY(!id.isEmpty());
    const QString uri = s("memorygraph://default/default/rule/") + id;
    auto req = ResolveRequest::fromJson({{s("uri"), uri}});
    QVERIFY(req);
    auto out = svc->resolveUri(req.value(), {});
    QVERIFY2(out, why(out).constData());
    const QJsonObject summary = out.value().summary;
    QCOMPARE(summary.value(s("resolved_type")).toString(), s("rule"));
    QCOMPARE(summary.value(s("payload_kind")).toString(), s("node"));
    const QJsonArray related = summary.value(s("related_uris")).toArray();
    QCOMPARE(related.size(), 2);
    QVERIFY(related.contains(uri));
    QVERIFY(
        related.contains(s("memorygraph://default/default/commit/") + out.value().node->commitId));
}

QTEST_GUILESS_MAIN(tst_RuleStates)
#include "tst_rulestates.moc"
