// The automation engine (spec §4.14; reference §8) over a real store with a scripted playbook
// gateway: graph validation, the run state machine of §8.3, compensation (§8.4), shadow review
// and promotion (§8.5), telemetry (§8.6) and the commit behind every transition.

#include "service/automation/automationengine.h"
#include "service/storage/database.h"
#include "tests/support/tempservice.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

/// Playbook runs answer what the test scripted per playbook id (the last answer repeats).
class FakeGateway : public PlaybookGateway
{
public:
    QHash<QString, QList<PlaybookCallResult>> script;
    QHash<QString, PlaybookVersionInfo> latest;
    QList<PlaybookCall> calls;

    void answer(const QString &playbookId, const QString &outcome, int version = 1,
                const QJsonObject &output = {})
    {
        PlaybookCallResult r;
        r.outcome = outcome;
        r.playbookVersion = version;
        r.output = output;
        r.replayRunId = s("11111111-2222-4333-8444-%1")
                            .arg(calls.size() + script.size(), 12, 10, QLatin1Char('0'));
        if (outcome == s("partial"))
            r.repairPatch = {{s("remove_step_indices"), QJsonArray{2}}};
        if (outcome == s("failed")) {
            r.errorCode = s("step_failed");
            r.errorMessage = s("step 2 failed");
        }
        script[playbookId].append(r);
    }

    Result<PlaybookCallResult> run(const PlaybookCall &call, const RequestMeta &) override
    {
        calls.append(call);
        auto found = script.find(call.playbookId);
        if (found == script.end() || found->isEmpty())
            return Error::make(404, s("replay_playbook_not_found"), s("no such playbook"));
        PlaybookCallResult r = found->size() > 1 ? found->takeFirst() : found->first();
        if (call.version)
            r.playbookVersion = *call.version;
        return r;
    }

    Result<PlaybookVersionInfo> latestVersion(const CallScope &, const QString &playbookId,
                                              const RequestMeta &) override
    {
        if (!latest.contains(playbookId))
            return Error::make(404, s("replay_playbook_not_found"), s("no such playbook"));
        return latest.value(playbookId);
    }

    Result<void> abandon(const CallScope &, const QString &replayRunId, const QString &,
                         const QString &, const RequestMeta &) override
    {
        abandoned << replayRunId;
        return {};
    }
    QStringList abandoned;

    QStringList calledIds() const
    {
        QStringList ids;
        for (const PlaybookCall &c : calls)
            ids << c.playbookId;
        return ids;
    }
};

QJsonObject node(const char *id, const char *kind, const QJsonObject &extra = {})
{
    QJsonObject n = extra;
    n.insert(s("node_id"), s(id));
    n.insert(s("kind"), s(kind));
    return n;
}

QJsonObject edge(const char *from, const char *to, const char *type = "on_success")
{
    return {{s("from"), s(from)}, {s("to"), s(to)}, {s("type"), s(type)}};
}

QJsonObject graph(const QJsonArray &nodes, const QJsonArray &edges = {})
{
    return {{s("nodes"), nodes}, {s("edges"), edges}};
}

QJsonObject compensation(const char *playbook, const char *mode, const QJsonValue &trigger)
{
    return {
        {s("policy"), QJsonObject{{s("compensation_policy"),
                                   QJsonObject{{s("mode"), s(mode)},
                                               {s("trigger"), trigger},
                                               {s("compensation_playbook_id"), s(playbook)}}}}}};
}

QStringList issueCodes(const Error &e)
{
    QStringList codes;
    for (const QJsonValue &i : e.details.value(s("issues")).toArray())
        codes << i.toObject().value(s("code")).toString();
    return codes;
}

/// An engine over a fresh store.
struct Harness
{
    QTemporaryDir dir;
    ServiceConfig config;
    std::unique_ptr<Database> db;
    FakeGateway gateway;
    std::unique_ptr<AutomationEngine> engine;
    QStringList events;

    Harness()
    {
        config = ServiceConfig::fromEnvironment(QProcessEnvironment()).value();
        config.dataDir = dir.path();
        db = std::move(Database::open(dir.filePath(s("a.sqlite")))).value();
        engine = std::make_unique<AutomationEngine>(*db, config, &gateway);
        engine->setTransitionHook(
            [this](const QString &, const QString &event) { events << event; });
    }

    Result<QJsonObject> call(const char *path, const QJsonObject &body,
                             const RequestMeta &meta = RequestMeta())
    {
        return engine->call(s(path), body, meta);
    }

    QJsonObject ok(const char *path, const QJsonObject &body)
    {
        auto r = call(path, body);
        if (!r)
            qWarning("%s failed: %s", path, describe(r.error()).constData());
        return r ? r.value() : QJsonObject();
    }

    QJsonObject create(const char *id, const QJsonObject &g, const char *status = "active")
    {
        return ok("create", {{s("automation_id"), s(id)},
                             {s("name"), s(id)},
                             {s("status"), s(status)},
                             {s("graph"), g}});
    }

    QJsonObject run(const char *id, const QJsonObject &extra = {})
    {
        QJsonObject body = extra;
        body.insert(s("automation_id"), s(id));
        return ok("run", body);
    }

    int commitCount()
    {
        QSqlDatabase c = db->connection().value();
        QSqlQuery q(c);
        q.exec(s("SELECT COUNT(*) FROM commits WHERE kind = 'automation_run'"));
        return q.next() ? q.value(0).toInt() : -1;
    }
};

QJsonObject runOf(const QJsonObject &response)
{
    return response.value(s("run")).toObject();
}

QJsonObject nodeOf(const QJsonObject &response, const char *id)
{
    for (const QJsonValue &n : response.value(s("nodes")).toArray()) {
        if (n.toObject().value(s("node_id")).toString() == s(id))
            return n.toObject();
    }
    return {};
}

QString field(const QJsonObject &o, const char *key)
{
    return o.value(s(key)).toString();
}

} // namespace

class tst_AutomationEngine : public QObject
{
    Q_OBJECT

private slots:
    void everyValidationIssueIsNamed_data();
    void everyValidationIssueIsNamed();
    void validGraphHasAlphabeticalTopologicalOrder();
    void shapeErrorsNameTheField();
    void recreateMakesANewVersion();
    void approvalPausesThenResumeSucceeds();
    void everyTransitionIsACommit();
    void conditionFalseFailsTheRun();
    void artifactGateAndBindings();
    void playbookSuccessAndFailure();
    void partialPlaybookRepairPauseApprovedRepairSucceeds();
    void rejectedRepairFailsAndCompensatesOnReject();
    void pendingPlaybookWaitsForReplayEnd();
    void cancelCompensatesInReverseOrder();
    void requiredCompensationFailingFailsTheRun();
    void bestEffortCompensationFailureKeepsOutcomeAndRetry();
    void shadowRunReviewPromote();
    void promotionRules();
    void disabledDefinitionsAndVersions();
    void resumeAndCancelConflicts();
    void runsListFiltersAndTelemetry();
    void compensationWorkflowAndPolicyMatrix();
    void shadowValidateEnqueueAndDispatch();
    void scopesAreIsolated();
    void replayRunEndedBeforeTheNodeWaitedIsSeen();
    void interruptedCompensationGoesOnAtRecovery();
};

void tst_AutomationEngine::everyValidationIssueIsNamed_data()
{
    QTest::addColumn<QJsonObject>("graph");
    QTest::addColumn<QString>("code");
    const QJsonObject a = node("a", "approval"), b = node("b", "approval");
    QTest::newRow("duplicate") << graph({a, a}) << s("duplicate_node_id");
    QTest::newRow("from") << graph({a}, {edge("x", "a")}) << s("edge_from_missing");
    QTest::newRow("to") << graph({a}, {edge("a", "x")}) << s("edge_to_missing");
    QTest::newRow("self") << graph({a, b}, {edge("a", "a")}) << s("self_cycle");
    QTest::newRow("on_failure") << graph({a, b}, {edge("a", "b", "on_failure")})
                                << s("unsupported_edge_type");
    const QJsonObject c = node("c", "condition", {{s("expression"), s("$nodes.zz.ok")}});
    QTest::newRow("binding missing") << graph({c}) << s("binding_node_missing");
    const QJsonObject self = node("c", "condition", {{s("expression"), s("$nodes.c.ok")}});
    QTest::newRow("binding self") << graph({self}) << s("binding_self_reference");
    const QJsonObject reads = node("c", "condition", {{s("expression"), s("$nodes.a.approved")}});
    QTest::newRow("binding without edge") << graph({a, reads}) << s("binding_dependency_missing");
    QTest::newRow("no start") << graph({a, b}, {edge("a", "b"), edge("b", "a")})
                              << s("missing_start_node");
    const QJsonObject d = node("d", "approval");
    QTest::newRow("cycle") << graph({a, b, d}, {edge("a", "b"), edge("b", "d"), edge("d", "b")})
                           << s("cycle_detected");
}

void tst_AutomationEngine::everyValidationIssueIsNamed()
{
    QFETCH(QJsonObject, graph);
    QFETCH(QString, code);
    Harness h;
    for (const char *path : {"graph/validate", "validate", "create"}) {
        auto r = h.call(path,
                        {{s("automation_id"), s("x")}, {s("name"), s("x")}, {s("graph"), graph}});
        QVERIFY2(!r, path);
        QCOMPARE(r.error().status, 400);
        QCOMPARE(r.error().code, s("automation_graph_invalid"));
        QVERIFY2(issueCodes(r.error()).contains(code), describe(r.error()));
    }
    // An invalid graph is never stored.
    QCOMPARE(h.call("get", {{s("automation_id"), s("x")}}).error().code, s("automation_not_found"));
}

void tst_AutomationEngine::validGraphHasAlphabeticalTopologicalOrder()
{
    Harness h;
    const QJsonObject g
        = graph({node("z", "approval"), node("m", "approval"),
                 node("b", "condition", {{s("expression"), s("$nodes.z.approved")}}),
                 node("a", "approval")},
                {edge("z", "b", "depends_on"), edge("m", "b")});
    const QJsonObject v = h.ok("graph/validate", {{s("graph"), g}});
    QCOMPARE(v.value(s("topological_order")).toArray(),
             QJsonArray({s("a"), s("m"), s("z"), s("b")}));
    QCOMPARE(v.value(s("start_node_ids")).toArray(), QJsonArray({s("a"), s("m"), s("z")}));
    QCOMPARE(v.value(s("issues")).toArray().size(), 0);
    QCOMPARE(v.value(s("tenant_id")).toString(), s("default"));
}

void tst_AutomationEngine::shapeErrorsNameTheField()
{
    Harness h;
    auto r = h.call("graph/validate", {{s("graph"), graph({node("a", "robot")})}});
    QVERIFY(!r);
    QCOMPARE(r.error().code, s("invalid_request"));
    QCOMPARE(r.error().details.value(s("issues")).toArray().first().toObject().value(s("path")),
             QJsonValue(s("graph.nodes[0].kind")));
    r = h.call("graph/validate", {{s("graph"), graph({node("p", "playbook")})}});
    QCOMPARE(r.error().details.value(s("issues")).toArray().first().toObject().value(s("path")),
             QJsonValue(s("graph.nodes[0].playbook_id")));
    r = h.call("create", {{s("name"), s("n")}, {s("graph"), graph({node("a", "approval")})}});
    QCOMPARE(r.error().details.value(s("issues")).toArray().first().toObject().value(s("path")),
             QJsonValue(s("automation_id")));
    r = h.call("runs/list", {{s("limit"), 101}});
    QCOMPARE(r.error().code, s("invalid_request"));
}

void tst_AutomationEngine::recreateMakesANewVersion()
{
    Harness h;
    const QJsonObject first = h.create("nightly", graph({node("a", "approval")}), "draft");
    QCOMPARE(first.value(s("automation")).toObject().value(s("version")).toInt(), 1);
    QCOMPARE(first.value(s("automation"))
                 .toObject()
                 .value(s("compile_summary"))
                 .toObject()
                 .value(s("topological_order"))
                 .toArray(),
             QJsonArray({s("a")}));
    const QJsonObject second
        = h.create("nightly", graph({node("a", "approval"), node("b", "approval")}), "draft");
    QCOMPARE(second.value(s("automation")).toObject().value(s("version")).toInt(), 2);
    QCOMPARE(second.value(s("automation")).toObject().value(s("latest_version")).toInt(), 2);
    const QJsonObject got = h.ok("get", {{s("automation_id"), s("nightly")}});
    QCOMPARE(got.value(s("automation")).toObject().value(s("version")).toInt(), 2);
    QCOMPARE(got.value(s("versions")).toArray().size(), 2);
    const QJsonObject v1 = h.ok("get", {{s("automation_id"), s("nightly")}, {s("version"), 1}});
    QCOMPARE(v1.value(s("automation"))
                 .toObject()
                 .value(s("graph"))
                 .toObject()
                 .value(s("nodes"))
                 .toArray()
                 .size(),
             1);
    QCOMPARE(h.call("get", {{s("automation_id"), s("nightly")}, {s("version"), 9}}).error().code,
             s("automation_version_not_found"));
    const QJsonObject listed = h.ok("list", {});
    QCOMPARE(listed.value(s("automations")).toArray().size(), 1);
}

void tst_AutomationEngine::approvalPausesThenResumeSucceeds()
{
    Harness h;
    h.create("deploy",
             graph({node("check", "condition", {{s("expression"), true}}),
                    node("approve", "approval", {{s("approval_key"), s("ops")}}),
                    node("finish", "condition", {{s("expression"), s("$nodes.approve.approved")}})},
                   {edge("check", "approve"), edge("approve", "finish")}));
    const QJsonObject started = h.run("deploy");
    const QJsonObject run = runOf(started);
    QCOMPARE(field(run, "lifecycle_state"), s("paused"));
    QCOMPARE(field(run, "pause_reason"), s("approval_required"));
    QCOMPARE(field(run, "status_summary"), s("paused_for_approval"));
    QCOMPARE(field(run, "execution_mode"), s("default"));
    QCOMPARE(field(nodeOf(started, "check"), "terminal_outcome"), s("succeeded"));
    QCOMPARE(field(nodeOf(started, "approve"), "lifecycle_state"), s("paused"));
    QVERIFY(!field(nodeOf(started, "approve"), "approval_id").isEmpty());
    QCOMPARE(field(nodeOf(started, "finish"), "lifecycle_state"), s("pending"));

    const QJsonObject resumed = h.ok("runs/resume", {{s("run_id"), field(run, "run_id")}});
    QCOMPARE(field(runOf(resumed), "lifecycle_state"), s("terminal"));
    QCOMPARE(field(runOf(resumed), "terminal_outcome"), s("succeeded"));
    QCOMPARE(field(runOf(resumed), "status_summary"), s("succeeded"));
    QCOMPARE(
        nodeOf(resumed, "approve").value(s("output_snapshot_json")).toObject().value(s("approved")),
        QJsonValue(true));
    QCOMPARE(field(nodeOf(resumed, "finish"), "terminal_outcome"), s("succeeded"));
    QVERIFY(runOf(resumed).value(s("output_snapshot_json")).toObject().contains(s("approve")));
    QCOMPARE(resumed.value(s("summary")).toObject().value(s("succeeded_nodes")).toInt(), 3);
    // A resumed run is no longer paused.
    QCOMPARE(h.call("runs/resume", {{s("run_id"), field(run, "run_id")}}).error().code,
             s("automation_run_not_paused"));
}

void tst_AutomationEngine::everyTransitionIsACommit()
{
    Harness h;
    h.create("two", graph({node("a", "condition", {{s("expression"), true}}),
                           node("b", "condition", {{s("expression"), true}})},
                          {edge("a", "b")}));
    const int before = h.commitCount();
    h.events.clear();
    const QJsonObject r = h.run("two");
    QCOMPARE(field(runOf(r), "terminal_outcome"), s("succeeded"));
    QCOMPARE(h.events,
             QStringList({s("run_queued"), s("run_started"), s("node_started"), s("node_succeeded"),
                          s("node_started"), s("node_succeeded"), s("run_succeeded")}));
    QCOMPARE(h.commitCount() - before, h.events.size());
}

void tst_AutomationEngine::conditionFalseFailsTheRun()
{
    Harness h;
    h.create("guarded", graph({node("gate", "condition",
                                    {{s("expression"), QJsonObject{{s("left"), s("$params.env")},
                                                                   {s("equals"), s("prod")}}}}),
                               node("after", "approval")},
                              {edge("gate", "after")}));
    const QJsonObject failed = h.run("guarded", {{s("params"), QJsonObject{{s("env"), s("dev")}}}});
    QCOMPARE(field(runOf(failed), "terminal_outcome"), s("failed"));
    QCOMPARE(field(runOf(failed), "root_cause_code"), s("condition_failed"));
    QCOMPARE(field(runOf(failed), "root_cause_node_id"), s("gate"));
    QCOMPARE(field(nodeOf(failed, "gate"), "error_code"), s("condition_failed"));
    QCOMPARE(field(nodeOf(failed, "after"), "terminal_outcome"), s("skipped"));
    QCOMPARE(nodeOf(failed, "after").value(s("blocking_node_ids_json")).toArray(),
             QJsonArray({s("gate")}));
    QCOMPARE(field(runOf(failed), "compensation_status"), s("not_needed"));
    const QJsonObject passed
        = h.run("guarded", {{s("params"), QJsonObject{{s("env"), s("prod")}}}});
    QCOMPARE(field(runOf(passed), "pause_reason"), s("approval_required"));
}

void tst_AutomationEngine::artifactGateAndBindings()
{
    Harness h;
    h.gateway.answer(s("build"), s("success"), 3, {{s("artifact"), s("s3://bucket/app.tar")}});
    h.gateway.answer(s("ship"), s("success"), 1);
    h.create("release",
             graph({node("build", "playbook",
                         {{s("playbook_id"), s("build")},
                          {s("mode"), s("strict")},
                          {s("inputs"), QJsonObject{{s("branch"), s("$params.branch")}}}}),
                    node("gate", "artifact_gate",
                         {{s("required_artifacts"), QJsonArray{s("$nodes.build.artifact")}}}),
                    node("ship", "playbook",
                         {{s("playbook_id"), s("ship")},
                          {s("inputs"), QJsonObject{{s("file"), s("$nodes.gate.artifacts.0")}}}})},
                   {edge("build", "gate"), edge("gate", "ship")}));
    const QJsonObject r = h.run("release", {{s("params"), QJsonObject{{s("branch"), s("main")}}}});
    QCOMPARE(field(runOf(r), "terminal_outcome"), s("succeeded"));
    QCOMPARE(h.gateway.calls.size(), 2);
    QCOMPARE(h.gateway.calls[0].params.value(s("branch")).toString(), s("main"));
    QCOMPARE(h.gateway.calls[0].mode, s("strict"));
    QCOMPARE(h.gateway.calls[0].automationNodeId, s("build"));
    QCOMPARE(h.gateway.calls[0].automationRunId, field(runOf(r), "run_id"));
    QCOMPARE(h.gateway.calls[1].params.value(s("file")).toString(), s("s3://bucket/app.tar"));
    QCOMPARE(nodeOf(r, "build").value(s("playbook_version")).toInt(), 3);
    QCOMPARE(nodeOf(r, "gate").value(s("artifact_refs_json")).toArray(),
             QJsonArray({s("s3://bucket/app.tar")}));

    // The same gate fails when the artifact does not resolve.
    h.gateway.script[s("build")] = {};
    h.gateway.answer(s("build"), s("success"), 3, {{s("other"), 1}});
    const QJsonObject missing = h.run("release");
    QCOMPARE(field(runOf(missing), "terminal_outcome"), s("failed"));
    QCOMPARE(field(nodeOf(missing, "gate"), "error_code"), s("artifact_gate_missing"));
    QCOMPARE(field(nodeOf(missing, "ship"), "terminal_outcome"), s("skipped"));
}

void tst_AutomationEngine::playbookSuccessAndFailure()
{
    Harness h;
    h.gateway.answer(s("fails"), s("failed"));
    h.create("one", graph({node("p", "playbook", {{s("playbook_id"), s("fails")}})}));
    const QJsonObject failed = h.run("one");
    QCOMPARE(field(runOf(failed), "terminal_outcome"), s("failed"));
    QCOMPARE(field(nodeOf(failed, "p"), "error_code"), s("playbook_run_failed"));
    QVERIFY(field(nodeOf(failed, "p"), "error_message").contains(s("step_failed")));
    // An unknown playbook (the gateway's 404) fails the node too.
    h.create("unknown", graph({node("p", "playbook", {{s("playbook_id"), s("nope")}})}));
    const QJsonObject unknown = h.run("unknown");
    QCOMPARE(field(nodeOf(unknown, "p"), "error_code"), s("playbook_run_failed"));
    QVERIFY(field(nodeOf(unknown, "p"), "error_message").contains(s("replay_playbook_not_found")));
}

void tst_AutomationEngine::partialPlaybookRepairPauseApprovedRepairSucceeds()
{
    Harness h;
    h.gateway.answer(s("fix"), s("partial"), 1);
    h.gateway.answer(s("fix"), s("success"), 2, {{s("fixed"), true}});
    h.create("repairable",
             graph({node("p", "playbook", {{s("playbook_id"), s("fix")}, {s("mode"), s("guided")}}),
                    node("q", "condition", {{s("expression"), s("$nodes.p.fixed")}})},
                   {edge("p", "q")}));
    const QJsonObject paused = h.run("repairable");
    const QString runId = field(runOf(paused), "run_id");
    QCOMPARE(field(runOf(paused), "pause_reason"), s("repair_required"));
    QCOMPARE(field(runOf(paused), "status_summary"), s("paused_for_repair"));
    QCOMPARE(field(runOf(paused), "root_cause_code"), s("guided_repair_pending"));
    QCOMPARE(field(nodeOf(paused, "p"), "status_summary"), s("paused_for_repair"));
    QVERIFY(nodeOf(paused, "p")
                .value(s("output_snapshot_json"))
                .toObject()
                .contains(s("repair_patch")));

    // No newer version: neither resume nor approve_repair go on.
    auto refused = h.call("runs/resume", {{s("run_id"), runId}});
    QCOMPARE(refused.error().status, 409);
    QCOMPARE(refused.error().code, s("automation_run_not_resumable"));
    h.gateway.latest.insert(s("fix"), {2, s("draft"), s("pending_review")});
    QCOMPARE(h.call("runs/approve_repair", {{s("run_id"), runId}}).error().code,
             s("automation_run_not_resumable"));

    // The repair was reviewed and approved: the node runs again on version 2.
    h.gateway.latest.insert(s("fix"), {2, s("shadow"), s("approved")});
    const QJsonObject done
        = h.ok("runs/approve_repair", {{s("run_id"), runId}, {s("note"), s("ok")}});
    QCOMPARE(field(runOf(done), "terminal_outcome"), s("succeeded"));
    QCOMPARE(field(runOf(done), "root_cause_code"), QString());
    QCOMPARE(h.gateway.calls.size(), 2);
    QCOMPARE(h.gateway.calls[1].version.value_or(0), 2);
    QCOMPARE(nodeOf(done, "p").value(s("attempt")).toInt(), 2);
    QCOMPARE(nodeOf(done, "p").value(s("playbook_version")).toInt(), 2);
    QCOMPARE(h.call("runs/approve_repair", {{s("run_id"), runId}}).error().code,
             s("automation_run_not_repair_paused"));
}

void tst_AutomationEngine::rejectedRepairFailsAndCompensatesOnReject()
{
    Harness h;
    h.gateway.answer(s("prep"), s("success"));
    h.gateway.answer(s("undo"), s("success"));
    h.gateway.answer(s("fix"), s("partial"));
    QJsonObject prep = node("prep", "playbook", {{s("playbook_id"), s("prep")}});
    prep.insert(s("policy"),
                compensation("undo", "best_effort", s("on_reject")).value(s("policy")));
    h.create("rejecting", graph({prep, node("p", "playbook", {{s("playbook_id"), s("fix")}})},
                                {edge("prep", "p")}));
    const QString runId = field(runOf(h.run("rejecting")), "run_id");
    QCOMPARE(h.call("runs/reject_repair", {{s("run_id"), s("not-a-uuid")}}).error().code,
             s("invalid_request"));
    const QJsonObject rejected
        = h.ok("runs/reject_repair", {{s("run_id"), runId}, {s("note"), s("wrong fix")}});
    QCOMPARE(field(runOf(rejected), "terminal_outcome"), s("failed_compensated"));
    QCOMPARE(field(runOf(rejected), "root_cause_code"), s("repair_rejected"));
    QCOMPARE(field(nodeOf(rejected, "p"), "terminal_outcome"), s("rejected"));
    QCOMPARE(field(nodeOf(rejected, "prep"), "terminal_outcome"), s("compensated"));
    QCOMPARE(h.gateway.calledIds(), QStringList({s("prep"), s("fix"), s("undo")}));
    QCOMPARE(h.call("runs/reject_repair", {{s("run_id"), runId}}).error().code,
             s("automation_run_not_repair_paused"));
}

void tst_AutomationEngine::pendingPlaybookWaitsForReplayEnd()
{
    Harness h;
    h.gateway.answer(s("strict"), s("pending"));
    h.create("waits", graph({node("p", "playbook",
                                  {{s("playbook_id"), s("strict")}, {s("mode"), s("strict")}}),
                             node("q", "approval")},
                            {edge("p", "q")}));
    const QJsonObject started = h.run("waits");
    const QString runId = field(runOf(started), "run_id");
    QCOMPARE(field(runOf(started), "lifecycle_state"), s("running"));
    QCOMPARE(field(nodeOf(started, "p"), "lifecycle_state"), s("running"));
    const QString replayRun = field(nodeOf(started, "p"), "playbook_run_id");
    QVERIFY(!replayRun.isEmpty());
    const CallScope scope{s("default"), s("default"), s("default")};
    // Another tenant's end, and an unknown run, change nothing.
    h.engine->onReplayRunEnded({s("other"), s("default"), s("x")}, replayRun, s("success"), {});
    h.engine->onReplayRunEnded(scope, s("99999999-2222-4333-8444-000000000000"), s("success"), {});
    QCOMPARE(field(runOf(h.ok("runs/get", {{s("run_id"), runId}})), "lifecycle_state"),
             s("running"));
    h.engine->onReplayRunEnded(scope, replayRun, s("success"), {});
    const QJsonObject after = h.ok("runs/get", {{s("run_id"), runId}});
    QCOMPARE(field(nodeOf(after, "p"), "terminal_outcome"), s("succeeded"));
    QCOMPARE(field(runOf(after), "pause_reason"), s("approval_required"));
    // A second end of the same replay run is ignored.
    h.engine->onReplayRunEnded(scope, replayRun, s("failed"), {});
    QCOMPARE(field(nodeOf(h.ok("runs/get", {{s("run_id"), runId}}), "p"), "terminal_outcome"),
             s("succeeded"));

    // A failed replay run fails the node; a partial one pauses for repair.
    h.gateway.answer(s("strict"), s("pending"));
    const QJsonObject second = h.run("waits");
    h.engine->onReplayRunEnded(scope, field(nodeOf(second, "p"), "playbook_run_id"), s("failed"),
                               {});
    const QJsonObject failed = h.ok("runs/get", {{s("run_id"), field(runOf(second), "run_id")}});
    QCOMPARE(field(runOf(failed), "terminal_outcome"), s("failed"));
    QCOMPARE(field(nodeOf(failed, "p"), "error_code"), s("playbook_run_failed"));
    const QJsonObject third = h.run("waits");
    h.engine->onReplayRunEnded(scope, field(nodeOf(third, "p"), "playbook_run_id"), s("partial"),
                               {});
    QCOMPARE(field(runOf(h.ok("runs/get", {{s("run_id"), field(runOf(third), "run_id")}})),
                   "status_summary"),
             s("paused_for_repair"));
}

void tst_AutomationEngine::cancelCompensatesInReverseOrder()
{
    Harness h;
    h.gateway.answer(s("one"), s("success"));
    h.gateway.answer(s("two"), s("success"));
    h.gateway.answer(s("undo-one"), s("success"));
    h.gateway.answer(s("undo-two"), s("success"));
    QJsonObject one = node("one", "playbook", {{s("playbook_id"), s("one")}});
    one.insert(s("policy"),
               compensation("undo-one", "required", QJsonArray{s("on_cancel"), s("on_failure")})
                   .value(s("policy")));
    QJsonObject two = node("two", "playbook", {{s("playbook_id"), s("two")}});
    two.insert(s("policy"),
               compensation("undo-two", "best_effort", s("on_cancel")).value(s("policy")));
    h.create("cancellable", graph({one, two, node("wait", "approval")},
                                  {edge("one", "two"), edge("two", "wait")}));
    const QString runId = field(runOf(h.run("cancellable")), "run_id");
    h.events.clear();
    const QJsonObject cancelled
        = h.ok("runs/cancel", {{s("run_id"), runId}, {s("note"), s("stop")}});
    QCOMPARE(field(runOf(cancelled), "terminal_outcome"), s("cancelled_compensated"));
    QCOMPARE(field(runOf(cancelled), "compensation_status"), s("succeeded"));
    QCOMPARE(runOf(cancelled).value(s("compensation_attempted")).toBool(), true);
    QCOMPARE(field(nodeOf(cancelled, "wait"), "terminal_outcome"), s("skipped"));
    QCOMPARE(field(nodeOf(cancelled, "one"), "terminal_outcome"), s("compensated"));
    QCOMPARE(field(nodeOf(cancelled, "two"), "terminal_outcome"), s("compensated"));
    QCOMPARE(h.gateway.calledIds().mid(2), QStringList({s("undo-two"), s("undo-one")}));
    QVERIFY(h.events.contains(s("compensation_started")));
    QCOMPARE(h.events.last(), s("run_cancelled_compensated"));
    QCOMPARE(cancelled.value(s("compensation_assessment")).toObject().value(s("fully_compensated")),
             QJsonValue(true));
    QCOMPARE(h.call("runs/cancel", {{s("run_id"), runId}}).error().code,
             s("automation_run_terminal"));

    // Cancelling a run nothing needs compensating for ends it cancelled.
    h.create("plain", graph({node("wait", "approval")}));
    const QJsonObject plain
        = h.ok("runs/cancel", {{s("run_id"), field(runOf(h.run("plain")), "run_id")}});
    QCOMPARE(field(runOf(plain), "terminal_outcome"), s("cancelled"));
    QCOMPARE(field(runOf(plain), "compensation_status"), s("not_needed"));
}

void tst_AutomationEngine::requiredCompensationFailingFailsTheRun()
{
    Harness h;
    h.gateway.answer(s("one"), s("success"));
    h.gateway.answer(s("undo-one"), s("failed"));
    QJsonObject one = node("one", "playbook", {{s("playbook_id"), s("one")}});
    one.insert(s("policy"),
               compensation("undo-one", "required", s("on_cancel")).value(s("policy")));
    h.create("strictundo", graph({one, node("wait", "approval")}, {edge("one", "wait")}));
    const QString runId = field(runOf(h.run("strictundo")), "run_id");
    const QJsonObject r = h.ok("runs/cancel", {{s("run_id"), runId}});
    QCOMPARE(field(runOf(r), "terminal_outcome"), s("failed"));
    QCOMPARE(field(runOf(r), "compensation_status"), s("failed"));
    QCOMPARE(field(runOf(r), "root_cause_code"), s("run_cancelled"));
    QCOMPARE(field(nodeOf(r, "one"), "terminal_outcome"), s("succeeded"));
    QCOMPARE(field(nodeOf(r, "one"), "compensation_status"), s("failed"));
    QCOMPARE(r.value(s("compensation_assessment"))
                 .toObject()
                 .value(s("required_failed_nodes"))
                 .toArray(),
             QJsonArray({s("one")}));
    QCOMPARE(r.value(s("compensation_workflow")).toObject().value(s("bucket")).toString(),
             s("unassigned"));
}

void tst_AutomationEngine::bestEffortCompensationFailureKeepsOutcomeAndRetry()
{
    Harness h;
    h.gateway.answer(s("one"), s("success"));
    h.gateway.answer(s("boom"), s("failed"));
    h.gateway.answer(s("undo-one"), s("failed"));
    h.gateway.answer(s("undo-one"), s("success"));
    QJsonObject one = node("one", "playbook", {{s("playbook_id"), s("one")}});
    one.insert(s("policy"),
               compensation("undo-one", "best_effort", s("on_failure")).value(s("policy")));
    h.create("failing", graph({one, node("boom", "playbook", {{s("playbook_id"), s("boom")}})},
                              {edge("one", "boom")}));
    const QJsonObject r = h.run("failing");
    const QString runId = field(runOf(r), "run_id");
    QCOMPARE(field(runOf(r), "terminal_outcome"), s("failed"));
    QCOMPARE(field(runOf(r), "compensation_status"), s("failed"));
    QCOMPARE(field(runOf(r), "root_cause_code"), s("playbook_run_failed"));
    // Retry: the compensation succeeds this time.
    const QJsonObject retried = h.ok("runs/compensation/retry", {{s("run_id"), runId}});
    QCOMPARE(field(runOf(retried), "terminal_outcome"), s("failed_compensated"));
    QCOMPARE(field(nodeOf(retried, "one"), "terminal_outcome"), s("compensated"));
    QCOMPARE(h.call("runs/compensation/retry", {{s("run_id"), runId}}).error().code,
             s("automation_compensation_not_retryable"));
    h.create("paused", graph({node("wait", "approval")}));
    const QString pausedRun = field(runOf(h.run("paused")), "run_id");
    QCOMPARE(h.call("runs/compensation/retry", {{s("run_id"), pausedRun}}).error().code,
             s("automation_run_not_terminal"));
}

void tst_AutomationEngine::shadowRunReviewPromote()
{
    Harness h;
    h.gateway.answer(s("work"), s("success"));
    h.create(
        "flow",
        graph({node("work", "playbook", {{s("playbook_id"), s("work")}, {s("mode"), s("strict")}}),
               node("ok", "approval")},
              {edge("work", "ok")}),
        "shadow");
    // A shadow version is not runnable by a plain run.
    auto plain = h.call("run", {{s("automation_id"), s("flow")}});
    QCOMPARE(plain.error().status, 409);
    QCOMPARE(plain.error().code, s("automation_version_shadow_not_runnable"));
    // A shadow run forces simulate and auto-approves.
    const QJsonObject shadow
        = h.run("flow", {{s("options"), QJsonObject{{s("execution_mode"), s("shadow")}}}});
    QCOMPARE(field(runOf(shadow), "terminal_outcome"), s("succeeded"));
    QCOMPARE(field(runOf(shadow), "execution_mode"), s("shadow"));
    QCOMPARE(h.gateway.calls.last().mode, s("simulate"));
    QCOMPARE(
        nodeOf(shadow, "ok").value(s("output_snapshot_json")).toObject().value(s("auto_approved")),
        QJsonValue(true));
    // Report: a clean shadow run, no review yet.
    QJsonObject report = h.ok("shadow/report", {{s("automation_id"), s("flow")}});
    QCOMPARE(report.value(s("shadow")).toObject().value(s("succeeded")).toInt(), 1);
    QCOMPARE(report.value(s("promotion_readiness")).toObject().value(s("blockers")).toArray(),
             QJsonArray({s("shadow_review_missing")}));
    // Promotion needs an approved review.
    auto early
        = h.call("promote", {{s("automation_id"), s("flow")}, {s("target_status"), s("active")}});
    QCOMPARE(early.error().code, s("automation_shadow_review_required"));
    h.ok("shadow/review", {{s("automation_id"), s("flow")}, {s("verdict"), s("needs_changes")}});
    QCOMPARE(h.call("promote", {{s("automation_id"), s("flow")}, {s("target_status"), s("active")}})
                 .error()
                 .code,
             s("automation_shadow_review_required"));
    const QJsonObject review = h.ok(
        "shadow/review",
        {{s("automation_id"), s("flow")}, {s("verdict"), s("approved")}, {s("note"), s("clean")}});
    QCOMPARE(review.value(s("review")).toObject().value(s("verdict")).toString(), s("approved"));
    report = h.ok("shadow/report", {{s("automation_id"), s("flow")}});
    QCOMPARE(report.value(s("promotion_readiness")).toObject().value(s("ready")), QJsonValue(true));
    const QJsonObject promoted
        = h.ok("promote", {{s("automation_id"), s("flow")}, {s("target_status"), s("active")}});
    QCOMPARE(promoted.value(s("unchanged")), QJsonValue(false));
    QCOMPARE(promoted.value(s("from_version")).toInt(), 1);
    QCOMPARE(promoted.value(s("to_version")).toInt(), 2);
    QCOMPARE(promoted.value(s("automation")).toObject().value(s("status")).toString(), s("active"));
    // Now a plain run works, and a shadow review of an active version is refused.
    QCOMPARE(field(runOf(h.run("flow")), "pause_reason"), s("approval_required"));
    QCOMPARE(
        h.call("shadow/review", {{s("automation_id"), s("flow")}, {s("verdict"), s("approved")}})
            .error()
            .code,
        s("automation_version_not_shadow"));
    QCOMPARE(h.call("run", {{s("automation_id"), s("flow")},
                            {s("options"), QJsonObject{{s("execution_mode"), s("shadow")}}}})
                 .error()
                 .code,
             s("automation_version_not_shadow"));
}

void tst_AutomationEngine::promotionRules()
{
    Harness h;
    h.create("p", graph({node("a", "approval")}), "draft");
    QCOMPARE(h.call("promote", {{s("automation_id"), s("p")}, {s("target_status"), s("active")}})
                 .error()
                 .code,
             s("automation_promote_requires_shadow_source"));
    const QJsonObject same
        = h.ok("promote", {{s("automation_id"), s("p")}, {s("target_status"), s("draft")}});
    QCOMPARE(same.value(s("unchanged")), QJsonValue(true));
    QCOMPARE(same.value(s("reason")).toString(), s("already_target_status_on_latest"));
    const QJsonObject toShadow
        = h.ok("promote", {{s("automation_id"), s("p")}, {s("target_status"), s("shadow")}});
    QCOMPARE(toShadow.value(s("to_version")).toInt(), 2);
    auto stale = h.call("promote", {{s("automation_id"), s("p")},
                                    {s("from_version"), 1},
                                    {s("target_status"), s("disabled")}});
    QCOMPARE(stale.error().status, 409);
    QCOMPARE(stale.error().code, s("automation_promote_stale_source"));
    QCOMPARE(h.call("promote", {{s("automation_id"), s("p")}}).error().code, s("invalid_request"));
    QCOMPARE(h.call("promote", {{s("automation_id"), s("zz")}, {s("target_status"), s("shadow")}})
                 .error()
                 .code,
             s("automation_not_found"));
}

void tst_AutomationEngine::disabledDefinitionsAndVersions()
{
    Harness h;
    h.create("off", graph({node("a", "approval")}), "disabled");
    QCOMPARE(h.call("run", {{s("automation_id"), s("off")}}).error().code,
             s("automation_disabled"));
    h.create("mixed", graph({node("a", "approval")}), "active");
    h.ok("promote", {{s("automation_id"), s("mixed")}, {s("target_status"), s("disabled")}});
    h.create("mixed", graph({node("a", "approval")}), "active");
    // Version 2 is disabled while the definition (version 3) is active.
    auto r = h.call("run", {{s("automation_id"), s("mixed")}, {s("version"), 2}});
    QCOMPARE(r.error().status, 409);
    QCOMPARE(r.error().code, s("automation_version_disabled"));
    QCOMPARE(h.call("run", {{s("automation_id"), s("nope")}}).error().code,
             s("automation_not_found"));
}

void tst_AutomationEngine::resumeAndCancelConflicts()
{
    Harness h;
    h.create("quick", graph({node("a", "condition", {{s("expression"), true}})}));
    const QString runId = field(runOf(h.run("quick")), "run_id");
    QCOMPARE(h.call("runs/resume", {{s("run_id"), runId}}).error().code,
             s("automation_run_not_paused"));
    QCOMPARE(h.call("runs/cancel", {{s("run_id"), runId}}).error().code,
             s("automation_run_terminal"));
    QCOMPARE(
        h.call("runs/get", {{s("run_id"), s("5f0c9c1e-8d1a-4f57-b0b1-2f6c3f5d9a01")}}).error().code,
        s("automation_run_not_found"));
}

void tst_AutomationEngine::runsListFiltersAndTelemetry()
{
    Harness h;
    h.create("ok", graph({node("a", "condition", {{s("expression"), true}})}));
    h.create("bad", graph({node("a", "condition", {{s("expression"), false}})}));
    h.create("wait", graph({node("a", "approval")}));
    for (int i = 0; i < 3; ++i)
        h.run("ok");
    h.run("bad");
    const QString waiting = field(runOf(h.run("wait")), "run_id");
    h.ok("runs/assign_reviewer", {{s("run_id"), waiting}, {s("reviewer"), s("alice")}});

    QCOMPARE(h.ok("runs/list", {}).value(s("runs")).toArray().size(), 5);
    QCOMPARE(h.ok("runs/list", {{s("limit"), 2}}).value(s("runs")).toArray().size(), 2);
    QCOMPARE(h.ok("runs/list", {{s("automation_id"), s("ok")}}).value(s("runs")).toArray().size(),
             3);
    const QJsonArray actionable
        = h.ok("runs/list", {{s("actionable_only"), true}}).value(s("runs")).toArray();
    QCOMPARE(actionable.size(), 1);
    QCOMPARE(actionable.first().toObject().value(s("next_action")).toString(), s("approve"));
    QCOMPARE(h.ok("runs/list", {{s("reviewer"), s("alice")}}).value(s("runs")).toArray().size(), 1);
    QCOMPARE(h.ok("runs/list", {{s("lifecycle_state"), s("terminal")}})
                 .value(s("runs"))
                 .toArray()
                 .size(),
             4);
    const QJsonArray inbox
        = h.ok("runs/list", {{s("order"), s("inbox")}}).value(s("runs")).toArray();
    QCOMPARE(inbox.first().toObject().value(s("run_id")).toString(), waiting);
    QCOMPARE(h.ok("runs/get", {{s("run_id"), waiting}})
                 .value(s("review_assignment"))
                 .toObject()
                 .value(s("reviewer"))
                 .toString(),
             s("alice"));

    const QJsonObject t = h.ok("telemetry", {});
    const QJsonObject counts = t.value(s("counts")).toObject();
    QCOMPARE(counts.value(s("total")).toInt(), 5);
    QCOMPARE(counts.value(s("terminal")).toInt(), 4);
    QCOMPARE(counts.value(s("succeeded")).toInt(), 3);
    QCOMPARE(counts.value(s("approval_paused")).toInt(), 1);
    QCOMPARE(t.value(s("success_rate")).toDouble(), 0.75);
    QCOMPARE(t.value(s("pause_rate")).toDouble(), 0.2);
    QCOMPARE(t.value(s("slo")).toObject().value(s("success_rate_met")), QJsonValue(false));
    QCOMPARE(t.value(s("root_causes"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(s("root_cause_code"))
                 .toString(),
             s("condition_failed"));
    QCOMPARE(t.value(s("incidents")).toArray().size(), 1);
    QVERIFY(t.value(s("p95_duration_seconds")).isDouble());
    QCOMPARE(t.value(s("series")).toArray().size(), 24);
    QCOMPARE(h.ok("telemetry", {{s("automation_id"), s("ok")}}).value(s("success_rate")).toDouble(),
             1.0);
    QVERIFY(h.ok("telemetry", {{s("automation_id"), s("none")}}).value(s("success_rate")).isNull());
    QCOMPARE(h.call("telemetry", {{s("window_hours"), 721}}).error().code, s("invalid_request"));
}

void tst_AutomationEngine::compensationWorkflowAndPolicyMatrix()
{
    Harness h;
    h.gateway.answer(s("one"), s("success"));
    h.gateway.answer(s("undo-one"), s("failed"));
    QJsonObject one = node("one", "playbook", {{s("playbook_id"), s("one")}});
    one.insert(s("policy"),
               compensation("undo-one", "required", QJsonArray{s("on_cancel")}).value(s("policy")));
    h.create("wf", graph({one, node("wait", "approval")}, {edge("one", "wait")}));
    const QJsonObject matrix = h.ok("compensation/policy_matrix", {{s("automation_id"), s("wf")}});
    const QJsonArray rows = matrix.value(s("matrix")).toArray();
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows[0].toObject().value(s("mode")).toString(), s("required"));
    QCOMPARE(rows[0].toObject().value(s("on_cancel")), QJsonValue(true));
    QCOMPARE(rows[0].toObject().value(s("on_failure")), QJsonValue(false));
    QCOMPARE(rows[1].toObject().value(s("mode")).toString(), s("none"));
    QCOMPARE(matrix.value(s("summary")).toObject().value(s("required_nodes")).toInt(), 1);

    const QString runId = field(runOf(h.run("wf")), "run_id");
    h.ok("runs/cancel", {{s("run_id"), runId}});
    auto empty = h.call("runs/compensation/assign", {{s("run_id"), runId}});
    QCOMPARE(empty.error().status, 400);
    QCOMPARE(empty.error().code, s("automation_compensation_assignment_empty"));
    const QJsonObject assigned
        = h.ok("runs/compensation/assign", {{s("run_id"), runId},
                                            {s("owner"), s("bob")},
                                            {s("sla_target_at"), s("2099-01-01T00:00:00Z")}});
    QCOMPARE(assigned.value(s("compensation_workflow")).toObject().value(s("bucket")).toString(),
             s("assigned"));
    QCOMPARE(
        assigned.value(s("compensation_workflow")).toObject().value(s("sla_status")).toString(),
        s("on_track"));
    QCOMPARE(
        h.call("runs/compensation/record_action", {{s("run_id"), runId}, {s("action"), s("dance")}})
            .error()
            .code,
        s("invalid_request"));
    h.ok("runs/compensation/record_action",
         {{s("run_id"), runId}, {s("action"), s("manual_cleanup_started")}});
    const QJsonObject done
        = h.ok("runs/compensation/record_action", {{s("run_id"), runId},
                                                   {s("action"), s("manual_cleanup_completed")},
                                                   {s("note"), s("dropped the table by hand")}});
    QCOMPARE(done.value(s("compensation_workflow")).toObject().value(s("bucket")).toString(),
             s("completed"));
    const QJsonObject detail = h.ok("runs/get", {{s("run_id"), runId}});
    QCOMPARE(detail.value(s("compensation_workflow_history")).toArray().size(), 3);
    QCOMPARE(detail.value(s("compensation_workflow")).toObject().value(s("sla_status")).toString(),
             s("met"));
    QCOMPARE(
        h.ok("runs/list", {{s("owners"), QJsonArray{s("bob")}}}).value(s("runs")).toArray().size(),
        1);
    QCOMPARE(h.ok("runs/list", {{s("workflow_bucket"), s("completed")}})
                 .value(s("runs"))
                 .toArray()
                 .size(),
             1);
    QCOMPARE(h.ok("runs/list", {{s("compensation_only"), true}}).value(s("runs")).toArray().size(),
             1);
}

void tst_AutomationEngine::shadowValidateEnqueueAndDispatch()
{
    Harness h;
    h.create("sv", graph({node("a", "approval")}), "shadow");
    const QJsonObject inlineRun = h.ok("shadow/validate", {{s("automation_id"), s("sv")}});
    QCOMPARE(field(runOf(inlineRun), "terminal_outcome"), s("succeeded"));
    QCOMPARE(field(runOf(inlineRun), "execution_mode"), s("shadow"));
    const QJsonObject queued
        = h.ok("shadow/validate", {{s("automation_id"), s("sv")}, {s("mode"), s("enqueue")}});
    QCOMPARE(queued.value(s("request")).toObject().value(s("status")).toString(), s("queued"));
    const QJsonObject dry = h.ok("shadow/validate/dispatch", {{s("dry_run"), true}});
    QCOMPARE(dry.value(s("results")).toArray().size(), 1);
    QCOMPARE(dry.value(s("dispatched")).toInt(), 0);
    const QJsonObject dispatched = h.ok("shadow/validate/dispatch", {});
    QCOMPARE(dispatched.value(s("dispatched")).toInt(), 1);
    QCOMPARE(dispatched.value(s("results"))
                 .toArray()
                 .first()
                 .toObject()
                 .value(s("run"))
                 .toObject()
                 .value(s("terminal_outcome"))
                 .toString(),
             s("succeeded"));
    QCOMPARE(h.ok("shadow/validate/dispatch", {}).value(s("dispatched")).toInt(), 0);
    h.create("active", graph({node("a", "approval")}), "active");
    QCOMPARE(h.call("shadow/validate", {{s("automation_id"), s("active")}}).error().code,
             s("automation_version_not_shadow"));
    QCOMPARE(h.call("shadow/validate/dispatch", {{s("limit"), 0}}).error().code,
             s("invalid_request"));
}

void tst_AutomationEngine::scopesAreIsolated()
{
    Harness h;
    h.create("mine", graph({node("a", "approval")}));
    const QString runId = field(runOf(h.run("mine")), "run_id");
    const QJsonObject elsewhere{{s("scope"), s("other")}, {s("run_id"), runId}};
    QCOMPARE(h.call("runs/get", elsewhere).error().code, s("automation_run_not_found"));
    QCOMPARE(h.call("runs/resume", elsewhere).error().code, s("automation_run_not_found"));
    QCOMPARE(
        h.call("get", {{s("scope"), s("other")}, {s("automation_id"), s("mine")}}).error().code,
        s("automation_not_found"));
    QCOMPARE(h.ok("list", {{s("tenant_id"), s("t2")}}).value(s("automations")).toArray().size(), 0);
    QCOMPARE(h.ok("runs/list", {{s("tenant_id"), s("t2")}}).value(s("runs")).toArray().size(), 0);
    // A credential binds the tenant.
    RequestMeta meta = credentialAs(s("agent"), QString(), s("acme"));
    QCOMPARE(h.call("list", {{s("tenant_id"), s("default")}}, meta).error().status, 403);
    const QJsonObject own = h.call("create",
                                   {{s("automation_id"), s("acme-flow")},
                                    {s("name"), s("n")},
                                    {s("graph"), graph({node("a", "approval")})}},
                                   meta)
                                .value();
    QCOMPARE(own.value(s("tenant_id")).toString(), s("acme"));
    QCOMPARE(own.value(s("automation")).toObject().value(s("actor")).toString(), s("agent"));
}

void tst_AutomationEngine::replayRunEndedBeforeTheNodeWaitedIsSeen()
{
    // A strict playbook's executor may finish the replay run before the automation has
    // recorded that its node waits for it: the node must not wait forever.
    TempService service;
    QVERIFY2(service.isValid(), qPrintable(service.errorText()));
    const QString runId = s("7d4f1c2e-3b5a-4c6d-8e9f-0a1b2c3d4e5f");
    auto started
        = ReplayRunStartRequest::fromJson({{s("run_id"), runId}, {s("goal"), s("deploy")}});
    QVERIFY(started);
    QVERIFY(service->replayRunStart(started.value(), {}));
    auto ended = ReplayRunEndRequest::fromJson({{s("run_id"), runId}, {s("status"), s("success")}});
    QVERIFY(ended);
    QVERIFY(service->replayRunEnd(ended.value(), {}));

    auto config = ServiceConfig::fromEnvironment(QProcessEnvironment()).value();
    auto db = Database::open(QDir(service.dataDir()).filePath(s("memorygraph.sqlite")));
    QVERIFY2(db, why(db).constData());
    FakeGateway gateway;
    PlaybookCallResult pending;
    pending.outcome = s("pending");
    pending.playbookVersion = 1;
    pending.replayRunId = runId;
    gateway.script[s("strict")] = {pending};
    AutomationEngine engine(*db.value(), config, &gateway);
    QJsonObject p
        = node("p", "playbook", {{s("playbook_id"), s("strict")}, {s("mode"), s("strict")}});
    QVERIFY(engine.call(s("create"),
                        {{s("automation_id"), s("late")},
                         {s("name"), s("late")},
                         {s("status"), s("active")},
                         {s("graph"), graph({p})}},
                        {}));
    auto run = engine.call(s("run"), {{s("automation_id"), s("late")}}, {});
    QVERIFY2(run, why(run).constData());
    QCOMPARE(field(runOf(run.value()), "terminal_outcome"), s("succeeded"));
    QCOMPARE(field(nodeOf(run.value(), "p"), "playbook_run_id"), runId);
}

void tst_AutomationEngine::interruptedCompensationGoesOnAtRecovery()
{
    Harness h;
    h.gateway.answer(s("one"), s("success"));
    h.gateway.answer(s("undo-one"), s("success"));
    QJsonObject one = node("one", "playbook", {{s("playbook_id"), s("one")}});
    one.insert(s("policy"),
               compensation("undo-one", "required", s("on_cancel")).value(s("policy")));
    h.create("undo", graph({one, node("wait", "approval")}, {edge("one", "wait")}));
    const QString runId = field(runOf(h.run("undo")), "run_id");
    QCOMPARE(field(runOf(h.ok("runs/cancel", {{s("run_id"), runId}})), "terminal_outcome"),
             s("cancelled_compensated"));
    // As if the process had died while compensating node "one".
    {
        QSqlDatabase c = h.db->connection().value();
        QSqlQuery q(c);
        QVERIFY(q.exec(s("UPDATE automation_runs SET lifecycle_state = 'compensating',"
                         " terminal_outcome = NULL, compensation_status = 'running',"
                         " ended_at = NULL WHERE run_id = '%1'")
                           .arg(runId)));
        QVERIFY(q.exec(s("UPDATE automation_run_nodes SET lifecycle_state = 'compensating',"
                         " terminal_outcome = 'succeeded', compensation_status = 'running'"
                         " WHERE run_id = '%1' AND node_id = 'one'")
                           .arg(runId)));
    }
    const qsizetype calls = h.gateway.calls.size();
    AutomationEngine restarted(*h.db, h.config, &h.gateway);
    restarted.startRecovery();
    QVERIFY(restarted.waitForRecovery(30000));
    QCOMPARE(h.gateway.calls.size(), calls + 1);
    QCOMPARE(h.gateway.calls.last().playbookId, s("undo-one"));
    const QJsonObject after = h.ok("runs/get", {{s("run_id"), runId}});
    QCOMPARE(field(runOf(after), "terminal_outcome"), s("cancelled_compensated"));
    QCOMPARE(field(nodeOf(after, "one"), "terminal_outcome"), s("compensated"));
}

QTEST_GUILESS_MAIN(tst_AutomationEngine)
#include "tst_automationengine.moc"
