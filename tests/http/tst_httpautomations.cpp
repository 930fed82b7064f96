// Automations over real HTTP: every /v1/automations/ route of spec §4.14 (and shadow/review),
// its happy path and the 4xx/409 answers it names (reference §8), rate classes, tenant
// isolation and authentication like the memory routes.

#include "tests/http/automationtestdata.h"

#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;
using namespace MemoryGraph::Test::Automations;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

QString path(const char *route)
{
    return s("/v1/automations/") + s(route);
}

const QString kUnknownRun = QStringLiteral("5f0c9c1e-8d1a-4f57-b0b1-2f6c3f5d9a01");
const QString kKeys
    = QStringLiteral(R"({"k1":{"tenant_id":"acme","agent_id":"agent-a","team_id":"team-x"},)"
                     R"("k2":{"tenant_id":"globex","agent_id":"agent-g"}})");

QPair<QByteArray, QByteArray> apiKey(const QByteArray &key)
{
    return {QByteArrayLiteral("X-Api-Key"), key};
}

/// check → approve → finish, with a best-effort compensation on check when cancelled.
QJsonObject approvalGraph()
{
    QJsonObject check = node("check", "condition", {{s("expression"), true}});
    check.insert(s("policy"),
                 QJsonObject{{s("compensation_policy"),
                              QJsonObject{{s("mode"), s("best_effort")},
                                          {s("trigger"), s("on_cancel")},
                                          {s("compensation_playbook_id"), s("undo-check")}}}});
    return {{s("nodes"), QJsonArray{check, node("approve", "approval"),
                                    node("finish", "condition",
                                         {{s("expression"), s("$nodes.approve.approved")}})}},
            {s("edges"), QJsonArray{edge("check", "approve"), edge("approve", "finish")}}};
}

} // namespace

class tst_HttpAutomations : public QObject
{
    Q_OBJECT

private slots:
    void everyRouteIsServed();
    void definitionRoutes();
    void runLifecycleRoutes();
    void reviewAndRepairRoutes();
    void promotionAndShadowRoutes();
    void compensationRoutes();
    void telemetryRoute();
    void tenantIsolationAndAuth();
    void mutationsSpendTheWriteQuotaReadsDoNot();
};

void tst_HttpAutomations::everyRouteIsServed()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const char *routes[] = {"create",
                            "get",
                            "list",
                            "validate",
                            "graph/validate",
                            "run",
                            "runs/get",
                            "runs/list",
                            "runs/cancel",
                            "runs/resume",
                            "runs/approve_repair",
                            "runs/reject_repair",
                            "runs/assign_reviewer",
                            "assign_reviewer",
                            "promote",
                            "shadow/report",
                            "shadow/validate",
                            "shadow/validate/dispatch",
                            "shadow/review",
                            "runs/compensation/retry",
                            "runs/compensation/record_action",
                            "runs/compensation/assign",
                            "compensation/policy_matrix",
                            "telemetry"};
    for (const char *route : routes) {
        const Reply r = server.post(path(route), QJsonObject{});
        // Routed: an empty body is either fine or refused for a named field, never unknown.
        QVERIFY2(r.status == 200 || r.status == 400, qPrintable(s(route) + s(" ") + r.describe()));
        QVERIFY2(r.errorCode() != s("not_found"), route);
    }
    QCOMPARE(server.post(path("nope"), QJsonObject{}).status, 404);
    QCOMPARE(server.send("GET", path("list")).status, 405);
}

void tst_HttpAutomations::definitionRoutes()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const Reply valid
        = server.post(path("graph/validate"), QJsonObject{{s("graph"), approvalGraph()}});
    QVERIFY2(valid.status == 200, valid.describe());
    QCOMPARE(valid.json.value(s("topological_order")).toArray(),
             QJsonArray({s("check"), s("approve"), s("finish")}));
    QCOMPARE(valid.json.value(s("issues")).toArray().size(), 0);

    QJsonObject cyclic = approvalGraph();
    QJsonArray edges = cyclic.value(s("edges")).toArray();
    edges.append(edge("finish", "check"));
    cyclic.insert(s("edges"), edges);
    const Reply invalid = server.post(path("validate"), createBody("x", "draft", cyclic));
    QCOMPARE(invalid.status, 400);
    QCOMPARE(invalid.errorCode(), s("automation_graph_invalid"));
    QVERIFY(invalid.json.value(s("details")).toObject().value(s("issues")).toArray().size() >= 1);
    const Reply shape = server.post(path("create"), QJsonObject{{s("automation_id"), s("x")}});
    QCOMPARE(shape.status, 400);
    QCOMPARE(shape.errorCode(), s("invalid_request"));

    const Reply created
        = server.post(path("create"), createBody("nightly", "active", approvalGraph()));
    QVERIFY2(created.status == 200, created.describe());
    const QJsonObject automation = created.json.value(s("automation")).toObject();
    QCOMPARE(automation.value(s("version")).toInt(), 1);
    QCOMPARE(automation.value(s("compile_summary")).toObject().value(s("node_count")).toInt(), 3);
    QCOMPARE(created.json.value(s("tenant_id")).toString(), s("default"));
    const Reply again
        = server.post(path("create"), createBody("nightly", "active", approvalGraph()));
    QCOMPARE(again.json.value(s("automation")).toObject().value(s("version")).toInt(), 2);

    const Reply got = server.post(path("get"), QJsonObject{{s("automation_id"), s("nightly")}});
    QVERIFY2(got.status == 200, got.describe());
    QCOMPARE(got.json.value(s("versions")).toArray().size(), 2);
    QCOMPARE(server.post(path("get"), QJsonObject{{s("automation_id"), s("none")}}).errorCode(),
             s("automation_not_found"));
    QCOMPARE(
        server.post(path("get"), QJsonObject{{s("automation_id"), s("nightly")}, {s("version"), 7}})
            .status,
        404);
    const Reply listed = server.post(path("list"), QJsonObject{{s("status"), s("active")}});
    QCOMPARE(listed.json.value(s("automations")).toArray().size(), 1);
    QCOMPARE(server.post(path("list"), QJsonObject{{s("limit"), 500}}).status, 400);
}

void tst_HttpAutomations::runLifecycleRoutes()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QVERIFY(server.post(path("create"), createBody("flow", "active", approvalGraph())).status
            == 200);

    const Reply started = server.post(path("run"), QJsonObject{{s("automation_id"), s("flow")}});
    QVERIFY2(started.status == 200, started.describe());
    QCOMPARE(runState(started), s("paused_for_approval"));
    QCOMPARE(started.json.value(s("nodes")).toArray().size(), 3);
    const QString runId = runIdOf(started);

    const Reply got = server.post(path("runs/get"), QJsonObject{{s("run_id"), runId}});
    QVERIFY2(got.status == 200, got.describe());
    for (const char *key :
         {"run", "nodes", "review_assignment", "summary", "compensation_assessment",
          "compensation_workflow", "compensation_workflow_history"})
        QVERIFY2(got.json.contains(s(key)), key);
    QCOMPARE(server.post(path("runs/get"), QJsonObject{{s("run_id"), kUnknownRun}}).errorCode(),
             s("automation_run_not_found"));
    QCOMPARE(server.post(path("runs/get"), QJsonObject{{s("run_id"), s("abc")}}).status, 400);

    const Reply listed = server.post(path("runs/list"), QJsonObject{{s("actionable_only"), true}});
    QCOMPARE(listed.json.value(s("runs")).toArray().size(), 1);
    QCOMPARE(server.post(path("runs/list"), QJsonObject{{s("limit"), 101}}).status, 400);

    const Reply resumed = server.post(path("runs/resume"), QJsonObject{{s("run_id"), runId}});
    QVERIFY2(resumed.status == 200, resumed.describe());
    QCOMPARE(runState(resumed), s("succeeded"));
    const Reply notPaused = server.post(path("runs/resume"), QJsonObject{{s("run_id"), runId}});
    QCOMPARE(notPaused.status, 409);
    QCOMPARE(notPaused.errorCode(), s("automation_run_not_paused"));
    const Reply terminal = server.post(path("runs/cancel"), QJsonObject{{s("run_id"), runId}});
    QCOMPARE(terminal.status, 409);
    QCOMPARE(terminal.errorCode(), s("automation_run_terminal"));

    const Reply second = server.post(path("run"), QJsonObject{{s("automation_id"), s("flow")}});
    const Reply cancelled
        = server.post(path("runs/cancel"), QJsonObject{{s("run_id"), runIdOf(second)}});
    QVERIFY2(cancelled.status == 200, cancelled.describe());
    // No playbook module answers here: the compensation playbook is unknown, so it fails
    // and the best-effort policy leaves the outcome cancelled.
    QCOMPARE(runState(cancelled), s("cancelled"));
    QCOMPARE(cancelled.json.value(s("run")).toObject().value(s("compensation_status")).toString(),
             s("failed"));

    // The disabled definition refuses runs.
    QVERIFY(server.post(path("create"), createBody("off", "disabled", approvalGraph())).status
            == 200);
    const Reply disabled = server.post(path("run"), QJsonObject{{s("automation_id"), s("off")}});
    QCOMPARE(disabled.status, 409);
    QCOMPARE(disabled.errorCode(), s("automation_disabled"));
}

void tst_HttpAutomations::reviewAndRepairRoutes()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QVERIFY(server.post(path("create"), createBody("flow", "active", approvalGraph())).status
            == 200);
    const QString runId
        = runIdOf(server.post(path("run"), QJsonObject{{s("automation_id"), s("flow")}}));
    // Not a repair pause.
    for (const char *route : {"runs/approve_repair", "runs/reject_repair"}) {
        const Reply r = server.post(path(route), QJsonObject{{s("run_id"), runId}});
        QCOMPARE(r.status, 409);
        QCOMPARE(r.errorCode(), s("automation_run_not_repair_paused"));
    }
    const Reply assigned
        = server.post(path("runs/assign_reviewer"),
                      QJsonObject{{s("run_id"), runId}, {s("reviewer"), s("alice")}});
    QVERIFY2(assigned.status == 200, assigned.describe());
    QCOMPARE(assigned.json.value(s("review_assignment")).toObject().value(s("reviewer")).toString(),
             s("alice"));
    QCOMPARE(server.post(path("runs/assign_reviewer"), QJsonObject{{s("run_id"), runId}}).status,
             400);
    const Reply byReviewer
        = server.post(path("runs/list"), QJsonObject{{s("reviewer"), s("alice")}});
    QCOMPARE(byReviewer.json.value(s("runs")).toArray().size(), 1);

    const Reply defReviewer
        = server.post(path("assign_reviewer"),
                      QJsonObject{{s("automation_id"), s("flow")}, {s("reviewer"), s("bob")}});
    QVERIFY2(defReviewer.status == 200, defReviewer.describe());
    const Reply got = server.post(path("get"), QJsonObject{{s("automation_id"), s("flow")}});
    QCOMPARE(got.json.value(s("review_assignment")).toObject().value(s("reviewer")).toString(),
             s("bob"));
    QCOMPARE(server
                 .post(path("assign_reviewer"),
                       QJsonObject{{s("automation_id"), s("zzz")}, {s("reviewer"), s("bob")}})
                 .status,
             404);
}

void tst_HttpAutomations::promotionAndShadowRoutes()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QVERIFY(server.post(path("create"), createBody("sh", "shadow", approvalGraph())).status == 200);
    const Reply plain = server.post(path("run"), QJsonObject{{s("automation_id"), s("sh")}});
    QCOMPARE(plain.status, 409);
    QCOMPARE(plain.errorCode(), s("automation_version_shadow_not_runnable"));

    const Reply inlineRun
        = server.post(path("shadow/validate"), QJsonObject{{s("automation_id"), s("sh")}});
    QVERIFY2(inlineRun.status == 200, inlineRun.describe());
    QCOMPARE(runState(inlineRun), s("succeeded"));
    const Reply queued
        = server.post(path("shadow/validate"),
                      QJsonObject{{s("automation_id"), s("sh")}, {s("mode"), s("enqueue")}});
    QCOMPARE(queued.json.value(s("request")).toObject().value(s("status")).toString(), s("queued"));
    const Reply dispatched
        = server.post(path("shadow/validate/dispatch"), QJsonObject{{s("limit"), 5}});
    QVERIFY2(dispatched.status == 200, dispatched.describe());
    QCOMPARE(dispatched.json.value(s("dispatched")).toInt(), 1);
    QCOMPARE(server.post(path("shadow/validate/dispatch"), QJsonObject{{s("limit"), 101}}).status,
             400);

    const Reply report
        = server.post(path("shadow/report"), QJsonObject{{s("automation_id"), s("sh")}});
    QVERIFY2(report.status == 200, report.describe());
    QCOMPARE(report.json.value(s("shadow")).toObject().value(s("succeeded")).toInt(), 2);

    const Reply early
        = server.post(path("promote"), QJsonObject{{s("automation_id"), s("sh")},
                                                   {s("target_status"), s("active")}});
    QCOMPARE(early.status, 409);
    QCOMPARE(early.errorCode(), s("automation_shadow_review_required"));
    const Reply reviewed
        = server.post(path("shadow/review"),
                      QJsonObject{{s("automation_id"), s("sh")}, {s("verdict"), s("approved")}});
    QVERIFY2(reviewed.status == 200, reviewed.describe());
    QCOMPARE(server
                 .post(path("shadow/review"),
                       QJsonObject{{s("automation_id"), s("sh")}, {s("verdict"), s("maybe")}})
                 .status,
             400);
    const Reply stale
        = server.post(path("promote"), QJsonObject{{s("automation_id"), s("sh")},
                                                   {s("from_version"), 1},
                                                   {s("target_status"), s("active")}});
    QVERIFY2(stale.status == 200, stale.describe()); // version 1 is the latest
    QCOMPARE(stale.json.value(s("to_version")).toInt(), 2);
    const Reply staleNow
        = server.post(path("promote"), QJsonObject{{s("automation_id"), s("sh")},
                                                   {s("from_version"), 1},
                                                   {s("target_status"), s("disabled")}});
    QCOMPARE(staleNow.status, 409);
    QCOMPARE(staleNow.errorCode(), s("automation_promote_stale_source"));
    const Reply unchanged
        = server.post(path("promote"), QJsonObject{{s("automation_id"), s("sh")},
                                                   {s("target_status"), s("active")}});
    QCOMPARE(unchanged.json.value(s("unchanged")), QJsonValue(true));
    const Reply notShadow
        = server.post(path("shadow/review"),
                      QJsonObject{{s("automation_id"), s("sh")}, {s("verdict"), s("approved")}});
    QCOMPARE(notShadow.status, 409);
    QCOMPARE(notShadow.errorCode(), s("automation_version_not_shadow"));
    QCOMPARE(server.post(path("shadow/validate"), QJsonObject{{s("automation_id"), s("sh")}})
                 .errorCode(),
             s("automation_version_not_shadow"));
    QVERIFY(server.post(path("create"), createBody("dr", "draft", approvalGraph())).status == 200);
    QCOMPARE(server
                 .post(path("promote"), QJsonObject{{s("automation_id"), s("dr")},
                                                    {s("target_status"), s("active")}})
                 .errorCode(),
             s("automation_promote_requires_shadow_source"));
    // The promoted version runs.
    QCOMPARE(runState(server.post(path("run"), QJsonObject{{s("automation_id"), s("sh")}})),
             s("paused_for_approval"));
}

void tst_HttpAutomations::compensationRoutes()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QVERIFY(server.post(path("create"), createBody("c", "active", approvalGraph())).status == 200);
    const Reply matrix = server.post(path("compensation/policy_matrix"),
                                     QJsonObject{{s("automation_id"), s("c")}});
    QVERIFY2(matrix.status == 200, matrix.describe());
    QCOMPARE(matrix.json.value(s("matrix")).toArray().first().toObject().value(s("on_cancel")),
             QJsonValue(true));
    const QString runId
        = runIdOf(server.post(path("run"), QJsonObject{{s("automation_id"), s("c")}}));
    const Reply early
        = server.post(path("runs/compensation/retry"), QJsonObject{{s("run_id"), runId}});
    QCOMPARE(early.status, 409);
    QCOMPARE(early.errorCode(), s("automation_run_not_terminal"));
    QVERIFY(server.post(path("runs/cancel"), QJsonObject{{s("run_id"), runId}}).status == 200);
    const Reply retried
        = server.post(path("runs/compensation/retry"), QJsonObject{{s("run_id"), runId}});
    QVERIFY2(retried.status == 200, retried.describe());
    QCOMPARE(retried.json.value(s("run")).toObject().value(s("compensation_status")).toString(),
             s("failed"));

    const Reply empty
        = server.post(path("runs/compensation/assign"), QJsonObject{{s("run_id"), runId}});
    QCOMPARE(empty.status, 400);
    QCOMPARE(empty.errorCode(), s("automation_compensation_assignment_empty"));
    const Reply assigned = server.post(path("runs/compensation/assign"),
                                       QJsonObject{{s("run_id"), runId}, {s("owner"), s("ops")}});
    QVERIFY2(assigned.status == 200, assigned.describe());
    QCOMPARE(
        assigned.json.value(s("compensation_workflow")).toObject().value(s("bucket")).toString(),
        s("assigned"));
    const Reply action
        = server.post(path("runs/compensation/record_action"),
                      QJsonObject{{s("run_id"), runId}, {s("action"), s("engineering_escalated")}});
    QVERIFY2(action.status == 200, action.describe());
    QCOMPARE(action.json.value(s("compensation_workflow")).toObject().value(s("bucket")).toString(),
             s("escalated"));
    QCOMPARE(server
                 .post(path("runs/compensation/record_action"),
                       QJsonObject{{s("run_id"), runId}, {s("action"), s("nap")}})
                 .status,
             400);

    // A shadow run is never compensated, so there is nothing to retry.
    QVERIFY(server.post(path("create"), createBody("s", "shadow", approvalGraph())).status == 200);
    const Reply shadow
        = server.post(path("shadow/validate"), QJsonObject{{s("automation_id"), s("s")}});
    const Reply shadowRetry
        = server.post(path("runs/compensation/retry"), QJsonObject{{s("run_id"), runIdOf(shadow)}});
    QCOMPARE(shadowRetry.status, 409);
    QCOMPARE(shadowRetry.errorCode(), s("automation_compensation_not_retryable"));
}

void tst_HttpAutomations::telemetryRoute()
{
    HttpTestServer server;
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QVERIFY(server.post(path("create"), createBody("t", "active", approvalGraph())).status == 200);
    const QString runId
        = runIdOf(server.post(path("run"), QJsonObject{{s("automation_id"), s("t")}}));
    server.post(path("runs/resume"), QJsonObject{{s("run_id"), runId}});
    server.post(path("run"), QJsonObject{{s("automation_id"), s("t")}});
    const Reply t = server.post(path("telemetry"), QJsonObject{{s("window_hours"), 24}});
    QVERIFY2(t.status == 200, t.describe());
    QCOMPARE(t.json.value(s("counts")).toObject().value(s("total")).toInt(), 2);
    QCOMPARE(t.json.value(s("success_rate")).toDouble(), 1.0);
    QCOMPARE(t.json.value(s("pause_rate")).toDouble(), 1.0);
    QCOMPARE(t.json.value(s("slo")).toObject().value(s("success_rate_target")).toDouble(), 0.95);
    for (const char *key : {"compensation_failure_rate", "p95_duration_seconds", "alert_candidates",
                            "root_causes", "incidents"})
        QVERIFY2(t.json.contains(s(key)), key);
    QCOMPARE(server.post(path("telemetry"), QJsonObject{{s("incident_limit"), 101}}).status, 400);
}

void tst_HttpAutomations::tenantIsolationAndAuth()
{
    HttpTestServer server(
        environment({{"MEMORY_AUTH_MODE", s("api_key")}, {"MEMORY_API_KEYS_JSON", kKeys}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    const QJsonObject create = createBody("flow", "active", approvalGraph());
    QCOMPARE(server.post(path("create"), create).status, 401);
    QCOMPARE(server.post(path("list"), QJsonObject{}, {apiKey("nope")}).status, 401);

    const Reply created = server.post(path("create"), create, {apiKey("k1")});
    QVERIFY2(created.status == 200, created.describe());
    QCOMPARE(created.json.value(s("tenant_id")).toString(), s("acme"));
    QCOMPARE(created.json.value(s("automation")).toObject().value(s("actor")).toString(),
             s("agent-a"));
    const Reply run
        = server.post(path("run"), QJsonObject{{s("automation_id"), s("flow")}}, {apiKey("k1")});
    const QString runId = runIdOf(run);
    QCOMPARE(run.json.value(s("run")).toObject().value(s("requested_by")).toString(), s("agent-a"));

    // Another tenant's key cannot name acme, and finds nothing of it in its own tenant.
    QCOMPARE(server
                 .post(path("runs/get"),
                       QJsonObject{{s("run_id"), runId}, {s("tenant_id"), s("acme")}},
                       {apiKey("k2")})
                 .status,
             403);
    QCOMPARE(server.post(path("runs/get"), QJsonObject{{s("run_id"), runId}}, {apiKey("k2")})
                 .errorCode(),
             s("automation_run_not_found"));
    QCOMPARE(
        server.post(path("runs/resume"), QJsonObject{{s("run_id"), runId}}, {apiKey("k2")}).status,
        404);
    QCOMPARE(server.post(path("get"), QJsonObject{{s("automation_id"), s("flow")}}, {apiKey("k2")})
                 .status,
             404);
    QCOMPARE(server.post(path("list"), QJsonObject{}, {apiKey("k2")})
                 .json.value(s("automations"))
                 .toArray()
                 .size(),
             0);
    QCOMPARE(server.post(path("telemetry"), QJsonObject{}, {apiKey("k2")})
                 .json.value(s("counts"))
                 .toObject()
                 .value(s("total"))
                 .toInt(),
             0);
    // The owner resumes it.
    const Reply resumed
        = server.post(path("runs/resume"), QJsonObject{{s("run_id"), runId}}, {apiKey("k1")});
    QCOMPARE(runState(resumed), s("succeeded"));
}

void tst_HttpAutomations::mutationsSpendTheWriteQuotaReadsDoNot()
{
    HttpTestServer server(environment({{"TENANT_QUOTA_ENABLED", s("true")},
                                       {"TENANT_WRITE_RATE_LIMIT_RPS", s("0.001")},
                                       {"TENANT_WRITE_RATE_LIMIT_BURST", s("2")}}));
    QVERIFY2(server.isReady(), qPrintable(server.errorText()));
    QCOMPARE(server.post(path("create"), createBody("q", "active", approvalGraph())).status, 200);
    QCOMPARE(server.post(path("run"), QJsonObject{{s("automation_id"), s("q")}}).status, 200);
    const Reply refused = server.post(path("run"), QJsonObject{{s("automation_id"), s("q")}});
    QCOMPARE(refused.status, 429);
    QCOMPARE(refused.errorCode(), s("tenant_rate_limited_write"));
    // Reads use the recall class.
    for (const char *route : {"list", "runs/list", "telemetry", "graph/validate"}) {
        QJsonObject body;
        if (QLatin1String(route) == QLatin1String("graph/validate"))
            body.insert(s("graph"), approvalGraph());
        const Reply read = server.post(path(route), body);
        QVERIFY2(read.status == 200, qPrintable(s(route) + s(" ") + read.describe()));
    }
}

QTEST_GUILESS_MAIN(tst_HttpAutomations)
#include "tst_httpautomations.moc"
