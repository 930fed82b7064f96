// Replay playbooks through the facade (reference-behaviour §7.4): compile, get, candidate,
// promote, repair and review, simulate / strict runs, dispatch, the automation gateway, lanes.

#include "service/playbooks/playbooktemplate.h"
#include "tests/support/tempservice.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;
using namespace MemoryGraph::Test;

namespace {

QString s(const char *text)
{
    return QString::fromLatin1(text);
}

qint64 commitCount(MemoryService *svc, const QString &tenant = QStringLiteral("default"))
{
    auto commits = svc->listCommits(tenant, s("default"), 0, 10000);
    return commits ? commits.value().size() : -1;
}

QJsonObject obj(const QJsonValue &v)
{
    return v.toObject();
}

/// Records a finished replay run: one echo step per argument list, each succeeded.
QString recordRun(MemoryService *svc, const QList<QJsonObject> &inputs,
                  const QString &endStatus = QStringLiteral("success"),
                  const QJsonArray &preconditions = {}, const RequestMeta &meta = {},
                  const QJsonObject &identity = {})
{
    QJsonObject startBody = identity;
    startBody.insert(s("goal"), s("ship the release"));
    auto started = svc->replayRunStart(ReplayRunStartRequest::fromJson(startBody).value(), meta);
    if (!started)
        return QString();
    const QString runId = started.value().runId;
    int index = 0;
    for (const QJsonObject &input : inputs) {
        ++index;
        QJsonObject before = identity;
        before.insert(s("run_id"), runId);
        before.insert(s("step_index"), index);
        before.insert(s("tool_name"), s("command"));
        before.insert(s("tool_input"), input);
        before.insert(s("preconditions"), preconditions);
        before.insert(s("safety_level"), s("auto_ok"));
        before.insert(s("expected_output_signature"), QJsonObject{{s("exit_code"), 0}});
        auto b = svc->replayStepBefore(ReplayStepBeforeRequest::fromJson(before).value(), meta);
        if (!b)
            return QString();
        QJsonObject after = identity;
        after.insert(s("run_id"), runId);
        after.insert(s("step_id"), b.value().stepId);
        after.insert(s("status"), s("success"));
        if (!svc->replayStepAfter(ReplayStepAfterRequest::fromJson(after).value(), meta))
            return QString();
    }
    if (!endStatus.isEmpty()) {
        QJsonObject end = identity;
        end.insert(s("run_id"), runId);
        end.insert(s("status"), endStatus);
        end.insert(s("success_criteria"), QJsonObject{{s("exit_code"), 0}});
        if (!svc->replayRunEnd(ReplayRunEndRequest::fromJson(end).value(), meta))
            return QString();
    }
    return runId;
}

QJsonObject echo(const QString &arg)
{
    return {{s("argv"), QJsonArray{s("echo"), arg}}};
}

Result<PlaybookOutcome> compile(MemoryService *svc, QJsonObject body, const RequestMeta &meta = {})
{
    auto req = PlaybookCompileRequest::fromJson(body);
    if (!req)
        return req.error();
    return svc->playbookCompile(req.value(), meta);
}

template<typename Request, typename Call>
Result<PlaybookOutcome> call(MemoryService *svc, Call fn, const QJsonObject &body,
                             const RequestMeta &meta = {})
{
    auto req = Request::fromJson(body);
    if (!req)
        return req.error();
    return (svc->*fn)(req.value(), meta);
}

Result<PlaybookOutcome> getPlaybook(MemoryService *svc, const QString &id,
                                    const RequestMeta &meta = {}, QJsonObject extra = {})
{
    extra.insert(s("playbook_id"), id);
    return call<PlaybookGetRequest>(svc, &MemoryService::playbookGet, extra, meta);
}

Result<PlaybookOutcome> runPlaybook(MemoryService *svc, QJsonObject body,
                                    const RequestMeta &meta = {})
{
    return call<PlaybookRunRequest>(svc, &MemoryService::playbookRun, body, meta);
}

Result<PlaybookOutcome> dispatch(MemoryService *svc, QJsonObject body, const RequestMeta &meta = {})
{
    return call<PlaybookDispatchRequest>(svc, &MemoryService::playbookDispatch, body, meta);
}

/// Compiles a fresh playbook from a two-step run; returns its id.
QString compiledPlaybook(MemoryService *svc, const QList<QJsonObject> &inputs,
                         const QJsonArray &preconditions = {})
{
    const QString runId = recordRun(svc, inputs, s("success"), preconditions);
    auto out = compile(svc, QJsonObject{{s("run_id"), runId}, {s("name"), s("release")}});
    return out ? out.value().body.value(s("playbook_id")).toString() : QString();
}

} // namespace

class tst_PlaybookEngine : public QObject
{
    Q_OBJECT

private slots:
    void parameterKindsAndBinding();
    void preconditionsAreCheckedWithoutRunningAnything();
    void compileLiftsParametersAndLinksProvenance();
    void compileRefusals();
    void getAnswersLatestAndHistory();
    void promoteWritesANewVersion();
    void repairAndReviewApprove();
    void reviewRefusalsAndReject();
    void approvedRepairAutoPromotes();
    void approvedRepairBlockedByReadiness();
    void simulateBindsParamsAndReportsSteps();
    void simulateOutcomes();
    void strictRunOpensReplayRunAndDispatchClaimsOnce();
    void guidedRunNeedsEveryParam();
    void gateRejectsMismatch();
    void candidateExplainsTheGate();
    void gatewayRunsAndReportsLatestVersion();
    void privatePlaybookInvisibleToOtherAgent();
    void consoleListsLatestVersions();
};

void tst_PlaybookEngine::parameterKindsAndBinding()
{
    using namespace PlaybookTemplate;
    QCOMPARE(parameterKind(s("/var/log/app.log")), s("path"));
    QCOMPARE(parameterKind(s("https://example.org/x")), s("url"));
    QCOMPARE(parameterKind(s("v1.2.3")), s("semver"));
    QCOMPARE(parameterKind(s("5f0c9c1e-8d1a-4f57-b0b1-2f6c3f5d9a01")), s("uuid"));
    QCOMPARE(parameterKind(s("hello world")), QString());

    Parameterizer p;
    QStringList used;
    const QJsonValue t = p.lift(QJsonObject{{s("argv"), QJsonArray{s("/usr/bin/tar"), s("/srv/a"),
                                                                   s("v2.0.0"), s("/srv/a")}}},
                                &used);
    // argv[0] (the program) stays; the same value twice is one variable.
    QCOMPARE(t.toObject().value(s("argv")).toArray(),
             (QJsonArray{s("/usr/bin/tar"), s("{{path_1}}"), s("{{semver_1}}"), s("{{path_1}}")}));
    QCOMPARE(used, (QStringList{s("path_1"), s("semver_1")}));
    QCOMPARE(p.variables().size(), 2);

    const QJsonObject defaults = defaultsOf(p.variables());
    Binding b = bind(t, QJsonObject{{s("path_1"), s("/tmp/other")}}, defaults);
    QCOMPARE(b.value.toObject().value(s("argv")).toArray().at(1).toString(), s("/tmp/other"));
    QCOMPARE(b.value.toObject().value(s("argv")).toArray().at(2).toString(), s("v2.0.0"));
    QVERIFY(b.missing.isEmpty());
    b = bind(QJsonValue(s("deploy {{app}} to {{env}}")), QJsonObject{{s("app"), s("web")}}, {});
    QCOMPARE(b.value.toString(), s("deploy web to {{env}}"));
    QCOMPARE(b.missing, QStringList{s("env")});
    // A whole-string placeholder takes the param's JSON type.
    b = bind(QJsonValue(s("{{count}}")), QJsonObject{{s("count"), 3}}, {});
    QCOMPARE(b.value.toInt(), 3);
}

void tst_PlaybookEngine::preconditionsAreCheckedWithoutRunningAnything()
{
    using namespace PlaybookTemplate;
    QTemporaryDir dir;
    const QString file = dir.filePath(s("present.txt"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.close();
    qputenv("PLAYBOOK_TEST_VAR", "yes");
    QCOMPARE(evaluate({{s("kind"), s("always")}}).state, s("ready"));
    QCOMPARE(evaluate({{s("kind"), s("file_exists")}, {s("path"), file}}).state, s("ready"));
    QCOMPARE(evaluate({{s("kind"), s("file_exists")}, {s("path"), file + s(".no")}}).state,
             s("blocked"));
    QCOMPARE(evaluate({{s("kind"), s("path_not_exists")}, {s("path"), file}}).state, s("blocked"));
    QCOMPARE(evaluate({{s("kind"), s("env_exists")}, {s("name"), s("PLAYBOOK_TEST_VAR")}}).state,
             s("ready"));
    QCOMPARE(evaluate({{s("kind"), s("env_equals")},
                       {s("name"), s("PLAYBOOK_TEST_VAR")},
                       {s("value"), s("no")}})
                 .state,
             s("blocked"));
    QCOMPARE(evaluate({{s("kind"), s("command_available")}, {s("command"), s("sh")}}).state,
             s("ready"));
    const Check unknown = evaluate({{s("kind"), s("port_free")}, {s("port"), 8080}});
    QCOMPARE(unknown.state, s("unknown"));
    QCOMPARE(unknown.reason, s("unsupported_precondition_kind"));
}

void tst_PlaybookEngine::compileLiftsParametersAndLinksProvenance()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString runId
        = recordRun(svc.service(), {echo(s("/srv/app")), echo(s("done"))}, s("success"), {}, {},
                    QJsonObject{{s("memory_lane"), s("shared")}});
    QVERIFY(!runId.isEmpty());
    const qint64 commitsBefore = commitCount(svc.service());
    auto out = compile(svc.service(), QJsonObject{{s("run_id"), runId}});
    QVERIFY2(out, why(out).constData());
    const QJsonObject body = out.value().body;
    QCOMPARE(commitCount(svc.service()), commitsBefore + 1);
    QCOMPARE(body.value(s("version")).toInt(), 1);
    QCOMPARE(body.value(s("status")).toString(), s("draft"));
    QCOMPARE(body.value(s("name")).toString(), s("replay_playbook_") + runId.left(8));
    QCOMPARE(body.value(s("source_run_id")).toString(), runId);
    const QJsonObject summary = obj(body.value(s("compile_summary")));
    QCOMPARE(summary.value(s("steps_total")).toInt(), 2);
    QCOMPARE(obj(summary.value(s("parameterization"))).value(s("variable_count")).toInt(), 1);

    auto got = getPlaybook(svc.service(), body.value(s("playbook_id")).toString());
    QVERIFY2(got, why(got).constData());
    const QJsonObject playbook = obj(got.value().body.value(s("playbook")));
    const QJsonArray steps = playbook.value(s("steps_template")).toArray();
    QCOMPARE(steps.size(), 2);
    QCOMPARE(obj(steps.at(0).toObject().value(s("tool_input_template"))).value(s("argv")).toArray(),
             (QJsonArray{s("echo"), s("{{path_1}}")}));
    QCOMPARE(steps.at(0).toObject().value(s("last_outcome")).toString(), s("success"));
    QVERIFY(steps.at(0).toObject().value(s("quality_score")).toDouble() > 0.5);
    QCOMPARE(obj(playbook.value(s("success_criteria"))).value(s("exit_code")).toInt(), 0);
    const QJsonArray vars = playbook.value(s("template_variables")).toArray();
    QCOMPARE(obj(vars.at(0)).value(s("default")).toString(), s("/srv/app"));

    // The version is an ordinary procedure node derived from the run and its steps.
    auto detail
        = svc->nodeDetail(s("default"), s("default"), body.value(s("playbook_node_id")).toString());
    QVERIFY2(detail, why(detail).constData());
    QCOMPARE(detail.value().node.type, s("procedure"));
    QCOMPARE(detail.value().node.memoryLane, s("shared")); // the run's lane
    QCOMPARE(detail.value().node.clientId,
             s("replay:playbook:") + body.value(s("playbook_id")).toString() + s(":v1"));
    int derived = 0;
    for (const EdgeRecord &e : detail.value().edges)
        derived += e.type == QLatin1String("derived_from") ? 1 : 0;
    QCOMPARE(derived, 3); // the run and its two steps
}

void tst_PlaybookEngine::compileRefusals()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    auto missing = compile(svc.service(),
                           QJsonObject{{s("run_id"), s("5f0c9c1e-8d1a-4f57-b0b1-2f6c3f5d9a01")}});
    QVERIFY(!missing);
    QCOMPARE(missing.error().status, 404);
    QCOMPARE(missing.error().details.value(s("reason")).toString(), s("replay_run_not_found"));

    auto badId = compile(svc.service(), QJsonObject{{s("run_id"), s("run-1")}});
    QVERIFY(!badId);
    QCOMPARE(badId.error()
                 .details.value(s("issues"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(s("path"))
                 .toString(),
             s("run_id"));

    const QString open = recordRun(svc.service(), {echo(s("a"))}, QString());
    auto inProgress = compile(svc.service(), QJsonObject{{s("run_id"), open}});
    QVERIFY(!inProgress);
    QCOMPARE(inProgress.error().code, s("replay_compile_requires_successful_run"));
    QCOMPARE(inProgress.error().details.value(s("run_status")).toString(), s("in_progress"));
    auto partialOk
        = compile(svc.service(), QJsonObject{{s("run_id"), open}, {s("allow_partial"), true}});
    QVERIFY2(partialOk, why(partialOk).constData());

    const QString empty = recordRun(svc.service(), {});
    auto noSteps = compile(svc.service(), QJsonObject{{s("run_id"), empty}});
    QVERIFY(!noSteps);
    QCOMPARE(noSteps.error().code, s("replay_compile_no_steps"));

    const QString done = recordRun(svc.service(), {echo(s("b"))});
    const QString id = partialOk.value().body.value(s("playbook_id")).toString();
    auto again = compile(svc.service(), QJsonObject{{s("run_id"), done}, {s("playbook_id"), id}});
    QVERIFY(!again);
    QCOMPARE(again.error().status, 409);
    QCOMPARE(again.error().code, s("replay_playbook_version_exists"));
    auto next = compile(
        svc.service(), QJsonObject{{s("run_id"), done}, {s("playbook_id"), id}, {s("version"), 2}});
    QVERIFY2(next, why(next).constData());
}

void tst_PlaybookEngine::getAnswersLatestAndHistory()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("x"))});
    QVERIFY(!id.isEmpty());
    auto promoted = call<PlaybookPromoteRequest>(
        svc.service(), &MemoryService::playbookPromote,
        QJsonObject{{s("playbook_id"), id}, {s("target_status"), s("shadow")}});
    QVERIFY2(promoted, why(promoted).constData());
    auto got = getPlaybook(svc.service(), id);
    QVERIFY2(got, why(got).constData());
    QCOMPARE(obj(got.value().body.value(s("playbook"))).value(s("version")).toInt(), 2);
    QCOMPARE(obj(got.value().body.value(s("playbook"))).value(s("status")).toString(), s("shadow"));
    QCOMPARE(got.value().body.value(s("versions")).toArray().size(), 2);
    auto first = getPlaybook(svc.service(), id, {}, QJsonObject{{s("version"), 1}});
    QVERIFY2(first, why(first).constData());
    QCOMPARE(obj(first.value().body.value(s("playbook"))).value(s("status")).toString(),
             s("draft"));

    auto unknown = getPlaybook(svc.service(), s("5f0c9c1e-8d1a-4f57-b0b1-2f6c3f5d9a01"));
    QVERIFY(!unknown);
    QCOMPARE(unknown.error().status, 404);
    QCOMPARE(unknown.error().code, s("replay_playbook_not_found"));
    auto noVersion = getPlaybook(svc.service(), id, {}, QJsonObject{{s("version"), 9}});
    QVERIFY(!noVersion);
    QCOMPARE(noVersion.error().code, s("replay_playbook_version_not_found"));
}

void tst_PlaybookEngine::promoteWritesANewVersion()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("x"))});
    auto promote = [&](QJsonObject body) {
        body.insert(s("playbook_id"), id);
        return call<PlaybookPromoteRequest>(svc.service(), &MemoryService::playbookPromote, body);
    };
    const qint64 before = commitCount(svc.service());
    auto shadow = promote({{s("target_status"), s("shadow")}, {s("note"), s("looks fine")}});
    QVERIFY2(shadow, why(shadow).constData());
    QCOMPARE(shadow.value().body.value(s("from_version")).toInt(), 1);
    QCOMPARE(shadow.value().body.value(s("to_version")).toInt(), 2);
    QCOMPARE(shadow.value().body.value(s("unchanged")).toBool(), false);
    QCOMPARE(commitCount(svc.service()), before + 1);
    auto same = promote({{s("target_status"), s("shadow")}});
    QVERIFY2(same, why(same).constData());
    QCOMPARE(same.value().body.value(s("unchanged")).toBool(), true);
    QCOMPARE(same.value().body.value(s("reason")).toString(), s("already_target_status_on_latest"));
    QCOMPARE(commitCount(svc.service()), before + 1);
    auto active = promote({{s("target_status"), s("active")}});
    QVERIFY2(active, why(active).constData());
    QCOMPARE(active.value().body.value(s("to_version")).toInt(), 3);
    // Rolling back to version 1 is one more version, not an edit.
    auto rollback = promote({{s("target_status"), s("draft")}, {s("from_version"), 1}});
    QVERIFY2(rollback, why(rollback).constData());
    QCOMPARE(rollback.value().body.value(s("to_version")).toInt(), 4);
    auto detail = svc->nodeDetail(s("default"), s("default"),
                                  active.value().body.value(s("playbook_node_id")).toString());
    QVERIFY(detail);
    bool linked = false;
    for (const EdgeRecord &e : detail.value().edges)
        linked = linked
                 || (e.type == QLatin1String("derived_from")
                     && e.toId == shadow.value().body.value(s("playbook_node_id")).toString());
    QVERIFY(linked);

    auto missing = promote({{s("target_status"), s("active")}, {s("from_version"), 42}});
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, s("replay_playbook_version_not_found"));
    auto noStatus = promote({});
    QVERIFY(!noStatus);
    QCOMPARE(noStatus.error()
                 .details.value(s("issues"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(s("path"))
                 .toString(),
             s("target_status"));
}

void tst_PlaybookEngine::repairAndReviewApprove()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("one")), echo(s("two"))});
    auto repaired = call<PlaybookRepairRequest>(
        svc.service(), &MemoryService::playbookRepair,
        QJsonObject{
            {s("playbook_id"), id},
            {s("note"), s("drop the second echo")},
            {s("patch"),
             QJsonObject{{s("remove_step_indices"), QJsonArray{2}},
                         {s("step_patches"),
                          QJsonArray{QJsonObject{
                              {s("step_index"), 1},
                              {s("set"), QJsonObject{{s("safety_level"), s("auto_ok")}}}}}}}}});
    QVERIFY2(repaired, why(repaired).constData());
    QCOMPARE(repaired.value().body.value(s("to_version")).toInt(), 2);
    QCOMPARE(repaired.value().body.value(s("status")).toString(), s("draft"));
    QCOMPARE(repaired.value().body.value(s("review_state")).toString(), s("pending_review"));
    QCOMPARE(obj(repaired.value().body.value(s("repair_summary"))).value(s("steps_after")).toInt(),
             1);

    auto gateway = svc->playbookGateway();
    auto info = gateway->latestVersion(CallScope{s("default"), s("default"), {}}, id, {});
    QVERIFY2(info, why(info).constData());
    QCOMPARE(info.value().version, 2);
    QCOMPARE(info.value().repairReviewState, s("pending_review"));

    auto approved = call<PlaybookReviewRequest>(
        svc.service(), &MemoryService::playbookReview,
        QJsonObject{{s("playbook_id"), id}, {s("action"), s("approve")}});
    QVERIFY2(approved, why(approved).constData());
    const QJsonObject a = approved.value().body;
    QCOMPARE(a.value(s("reviewed_version")).toInt(), 2);
    QCOMPARE(a.value(s("to_version")).toInt(), 3);
    QCOMPARE(a.value(s("status")).toString(), s("shadow"));
    QCOMPARE(a.value(s("review_state")).toString(), s("approved"));
    QCOMPARE(obj(a.value(s("shadow_validation"))).value(s("pass")).toBool(), true);
    info = gateway->latestVersion(CallScope{s("default"), s("default"), {}}, id, {});
    QCOMPARE(info.value().status, s("shadow"));
    QCOMPARE(info.value().repairReviewState, s("approved"));

    auto got = getPlaybook(svc.service(), id);
    const QJsonObject latest = obj(got.value().body.value(s("playbook")));
    QCOMPARE(latest.value(s("repaired_from_version")).toInt(), 1);
    QCOMPARE(latest.value(s("reviewed_from_version")).toInt(), 2);
    QCOMPARE(latest.value(s("steps_template")).toArray().size(), 1);
}

void tst_PlaybookEngine::reviewRefusalsAndReject()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("one"))});
    auto review = [&](QJsonObject body) {
        body.insert(s("playbook_id"), id);
        return call<PlaybookReviewRequest>(svc.service(), &MemoryService::playbookReview, body);
    };
    auto notRepair = review({{s("action"), s("approve")}});
    QVERIFY(!notRepair);
    QCOMPARE(notRepair.error().status, 400);
    QCOMPARE(notRepair.error().code, s("replay_repair_patch_missing"));
    auto execute
        = review({{s("action"), s("approve")}, {s("shadow_validation_mode"), s("execute")}});
    QVERIFY(!execute);
    QCOMPARE(execute.error()
                 .details.value(s("issues"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(s("path"))
                 .toString(),
             s("shadow_validation_mode"));

    auto badPatch = call<PlaybookRepairRequest>(
        svc.service(), &MemoryService::playbookRepair,
        QJsonObject{{s("playbook_id"), id}, {s("patch"), QJsonObject{{s("colour"), s("red")}}}});
    QVERIFY(!badPatch);
    QCOMPARE(badPatch.error()
                 .details.value(s("issues"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(s("path"))
                 .toString(),
             s("patch"));
    auto missingVersion = call<PlaybookRepairRequest>(
        svc.service(), &MemoryService::playbookRepair,
        QJsonObject{{s("playbook_id"), id},
                    {s("from_version"), 7},
                    {s("patch"), QJsonObject{{s("risk_profile"), s("high")}}}});
    QVERIFY(!missingVersion);
    QCOMPARE(missingVersion.error().code, s("replay_playbook_version_not_found"));

    auto repaired = call<PlaybookRepairRequest>(
        svc.service(), &MemoryService::playbookRepair,
        QJsonObject{{s("playbook_id"), id},
                    {s("patch"), QJsonObject{{s("risk_profile"), s("high")}}}});
    QVERIFY2(repaired, why(repaired).constData());
    auto rejected = review({{s("action"), s("reject")}, {s("note"), s("no")}});
    QVERIFY2(rejected, why(rejected).constData());
    QCOMPARE(rejected.value().body.value(s("review_state")).toString(), s("rejected"));
    QCOMPARE(rejected.value().body.value(s("status")).toString(), s("draft"));
    // The rejected repair (now version 3) is no longer waiting.
    auto twice = review({{s("action"), s("approve")}});
    QVERIFY(!twice);
    QCOMPARE(twice.error().status, 409);
    QCOMPARE(twice.error().code, s("replay_repair_not_pending_review"));
    // Version 2 still records pending_review in its own slots, but it was reviewed.
    auto reviewedOnce = review({{s("action"), s("approve")}, {s("version"), 2}});
    QVERIFY(!reviewedOnce);
    QCOMPARE(reviewedOnce.error().code, s("replay_repair_not_pending_review"));
}

void tst_PlaybookEngine::approvedRepairAutoPromotes()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("one")), echo(s("two"))});
    auto repaired = call<PlaybookRepairRequest>(
        svc.service(), &MemoryService::playbookRepair,
        QJsonObject{{s("playbook_id"), id},
                    {s("patch"), QJsonObject{{s("remove_step_indices"), QJsonArray{2}}}}});
    QVERIFY2(repaired, why(repaired).constData());
    // The approval ends at target_status_on_approve (shadow); auto-promotion, off unless asked
    // for, adds one more version in auto_promote_target_status (active).
    auto approved = call<PlaybookReviewRequest>(svc.service(), &MemoryService::playbookReview,
                                                QJsonObject{{s("playbook_id"), id},
                                                            {s("action"), s("approve")},
                                                            {s("auto_promote_on_pass"), true}});
    QVERIFY2(approved, why(approved).constData());
    const QJsonObject a = approved.value().body;
    QCOMPARE(a.value(s("to_version")).toInt(), 3);
    QCOMPARE(a.value(s("status")).toString(), s("shadow"));
    QCOMPARE(obj(a.value(s("auto_promote_policy_resolution"))).value(s("source")).toString(),
             s("request"));
    const QJsonObject promotion = obj(a.value(s("auto_promotion")));
    QCOMPARE(promotion.value(s("promoted")).toBool(), true);
    QCOMPARE(promotion.value(s("from_version")).toInt(), 3);
    QCOMPARE(promotion.value(s("to_version")).toInt(), 4);
    QVERIFY(!promotion.value(s("commit_id")).toString().isEmpty());

    auto gateway = svc->playbookGateway();
    auto info = gateway->latestVersion(CallScope{s("default"), s("default"), {}}, id, {});
    QVERIFY2(info, why(info).constData());
    QCOMPARE(info.value().version, 4);
    QCOMPARE(info.value().status, s("active"));
    QCOMPARE(info.value().repairReviewState, s("approved"));
    const QJsonObject latest
        = obj(getPlaybook(svc.service(), id).value().body.value(s("playbook")));
    QCOMPARE(latest.value(s("promoted_from_version")).toInt(), 3);
    QCOMPARE(latest.value(s("steps_template")).toArray().size(), 1);
}

void tst_PlaybookEngine::approvedRepairBlockedByReadiness()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("one"))});
    auto repaired = call<PlaybookRepairRequest>(
        svc.service(), &MemoryService::playbookRepair,
        QJsonObject{
            {s("playbook_id"), id},
            {s("patch"),
             QJsonObject{
                 {s("step_patches"),
                  QJsonArray{QJsonObject{
                      {s("step_index"), 1},
                      {s("set"), QJsonObject{{s("preconditions"),
                                              QJsonArray{QJsonObject{
                                                  {s("kind"), s("file_exists")},
                                                  {s("path"), s("/nonexistent/x")}}}}}}}}}}}});
    QVERIFY2(repaired, why(repaired).constData());
    auto approved = call<PlaybookReviewRequest>(
        svc.service(), &MemoryService::playbookReview,
        QJsonObject{{s("playbook_id"), id}, {s("action"), s("approve")}});
    QVERIFY2(approved, why(approved).constData());
    QCOMPARE(approved.value().body.value(s("review_state")).toString(),
             s("approved_shadow_blocked"));
    QCOMPARE(approved.value().body.value(s("status")).toString(), s("draft"));
}

void tst_PlaybookEngine::simulateBindsParamsAndReportsSteps()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QTemporaryDir dir;
    const QString id = compiledPlaybook(svc.service(), {echo(s("/srv/app"))},
                                        QJsonArray{QJsonObject{{s("kind"), s("path_not_exists")},
                                                               {s("path"), s("/srv/app/lock")}}});
    const qint64 commits = commitCount(svc.service());
    auto sim = runPlaybook(
        svc.service(),
        QJsonObject{{s("playbook_id"), id}, {s("params"), QJsonObject{{s("path_1"), dir.path()}}}});
    QVERIFY2(sim, why(sim).constData());
    QCOMPARE(commitCount(svc.service()), commits); // simulate writes nothing
    const QJsonObject body = sim.value().body;
    QCOMPARE(body.value(s("mode")).toString(), s("simulate"));
    QVERIFY(body.value(s("run")).isNull());
    const QJsonObject step = body.value(s("steps")).toArray().at(0).toObject();
    QCOMPARE(step.value(s("argv")).toArray(), (QJsonArray{s("echo"), dir.path()}));
    QCOMPARE(step.value(s("state")).toString(), s("ready"));
    QCOMPARE(obj(body.value(s("summary"))).value(s("outcome")).toString(), s("success"));
    QCOMPARE(obj(body.value(s("summary"))).value(s("would_run")).toArray(), QJsonArray{1});
    QCOMPARE(body.value(s("params_echo")).toObject().value(s("path_1")).toString(), dir.path());
}

void tst_PlaybookEngine::simulateOutcomes()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    QTemporaryDir dir;
    const QString id = compiledPlaybook(svc.service(), {echo(s("a")), echo(s("b")), echo(s("c"))});
    auto patch = [&](const QJsonArray &stepPatches) {
        return call<PlaybookRepairRequest>(
            svc.service(), &MemoryService::playbookRepair,
            QJsonObject{{s("playbook_id"), id},
                        {s("review_required"), false},
                        {s("patch"), QJsonObject{{s("step_patches"), stepPatches}}}});
    };
    const QJsonObject blocked{{s("kind"), s("file_exists")}, {s("path"), dir.filePath(s("nope"))}};
    const QJsonObject unknown{{s("kind"), s("port_free")}, {s("port"), 1}};
    auto outcome = [&] {
        auto sim = runPlaybook(svc.service(), QJsonObject{{s("playbook_id"), id}});
        return sim ? obj(sim.value().body.value(s("summary"))).value(s("outcome")).toString()
                   : QString::fromUtf8(why(sim));
    };
    QCOMPARE(outcome(), s("success"));
    QVERIFY(
        patch({QJsonObject{{s("step_index"), 2},
                           {s("set"), QJsonObject{{s("preconditions"), QJsonArray{blocked}}}}}}));
    QCOMPARE(outcome(), s("partial"));
    auto sim = runPlaybook(svc.service(), QJsonObject{{s("playbook_id"), id}});
    QCOMPARE(obj(sim.value().body.value(s("summary"))).value(s("cannot_run")).toArray(),
             QJsonArray{2});
    QCOMPARE(obj(sim.value().body.value(s("repair"))).value(s("remove_step_indices")).toArray(),
             QJsonArray{2});
    QVERIFY(patch({QJsonObject{{s("step_index"), 1},
                               {s("set"), QJsonObject{{s("preconditions"), QJsonArray{blocked}}}}},
                   QJsonObject{{s("step_index"), 3},
                               {s("set"), QJsonObject{{s("safety_level"), s("manual_only")}}}}}));
    QCOMPARE(outcome(), s("failed"));
    QVERIFY(patch({QJsonObject{{s("step_index"), 1},
                               {s("set"), QJsonObject{{s("preconditions"), QJsonArray{unknown}}}}},
                   QJsonObject{{s("step_index"), 2},
                               {s("set"), QJsonObject{{s("preconditions"), QJsonArray()}}}},
                   QJsonObject{{s("step_index"), 3},
                               {s("set"), QJsonObject{{s("safety_level"), s("auto_ok")}}}}}));
    sim = runPlaybook(svc.service(), QJsonObject{{s("playbook_id"), id}});
    QCOMPARE(obj(sim.value().body.value(s("summary"))).value(s("outcome")).toString(),
             s("partial"));
    QCOMPARE(obj(sim.value().body.value(s("summary"))).value(s("unknown")).toArray(),
             QJsonArray{1});
}

void tst_PlaybookEngine::strictRunOpensReplayRunAndDispatchClaimsOnce()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("/srv/app")), echo(s("done"))});
    auto idle = dispatch(svc.service(), QJsonObject{{s("executor_id"), s("ex-1")}});
    QVERIFY2(idle, why(idle).constData());
    QCOMPARE(obj(idle.value().body.value(s("dispatch"))).value(s("decision")).toString(),
             s("no_pending_work"));

    auto strict = runPlaybook(
        svc.service(), QJsonObject{{s("playbook_id"), id},
                                   {s("mode"), s("strict")},
                                   {s("params"), QJsonObject{{s("path_1"), s("/srv/other")}}}});
    QVERIFY2(strict, why(strict).constData());
    const QJsonObject run = obj(strict.value().body.value(s("run")));
    const QString runId = run.value(s("run_id")).toString();
    QCOMPARE(run.value(s("status")).toString(), s("pending"));
    QCOMPARE(obj(strict.value().body.value(s("summary"))).value(s("pending_steps")).toInt(), 2);

    // The replay run carries the playbook's metadata; its steps are pending.
    auto view = svc->replayRun(s("default"), s("default"), runId);
    QVERIFY2(view, why(view).constData());
    QCOMPARE(view.value().steps.size(), 2);
    QCOMPARE(view.value().steps.at(0).status, s("pending"));
    QCOMPARE(
        view.value().steps.at(0).toolInput.toObject().value(s("argv")).toArray().at(1).toString(),
        s("/srv/other"));
    auto runNode = svc->nodeDetail(s("default"), s("default"), view.value().run.runNodeId);
    const QJsonObject md = obj(runNode.value().node.slotData.value(s("metadata")));
    QCOMPARE(md.value(s("playbook_id")).toString(), id);
    QCOMPARE(md.value(s("playbook_version")).toInt(), 1);
    QCOMPARE(md.value(s("mode")).toString(), s("strict"));
    QCOMPARE(md.value(s("dispatch_state")).toString(), s("pending"));

    auto claimed = dispatch(svc.service(),
                            QJsonObject{{s("executor_id"), s("ex-1")}, {s("playbook_id"), id}});
    QVERIFY2(claimed, why(claimed).constData());
    QCOMPARE(obj(claimed.value().body.value(s("dispatch"))).value(s("decision")).toString(),
             s("claimed"));
    QCOMPARE(obj(claimed.value().body.value(s("run"))).value(s("run_id")).toString(), runId);
    const QJsonArray steps = claimed.value().body.value(s("steps")).toArray();
    QCOMPARE(steps.size(), 2);
    QCOMPARE(steps.at(0).toObject().value(s("argv")).toArray(),
             (QJsonArray{s("echo"), s("/srv/other")}));
    // A claimed run is not handed out again.
    auto second = dispatch(svc.service(), QJsonObject{{s("executor_id"), s("ex-2")}});
    QCOMPARE(obj(second.value().body.value(s("dispatch"))).value(s("decision")).toString(),
             s("no_pending_work"));
    auto named
        = dispatch(svc.service(), QJsonObject{{s("executor_id"), s("ex-2")}, {s("run_id"), runId}});
    QVERIFY(!named);
    QCOMPARE(named.error().status, 409);
    QCOMPARE(named.error().code, s("replay_dispatch_already_claimed"));

    // The executor reports; the playbook run ends with the replay run.
    for (const QJsonValue &st : steps) {
        auto after = svc->replayStepAfter(
            ReplayStepAfterRequest::fromJson(
                QJsonObject{{s("run_id"), runId},
                            {s("step_id"), st.toObject().value(s("step_id"))},
                            {s("status"), s("success")}})
                .value(),
            {});
        QVERIFY2(after, why(after).constData());
    }
    auto ended
        = svc->replayRunEnd(ReplayRunEndRequest::fromJson(
                                QJsonObject{{s("run_id"), runId}, {s("status"), s("success")}})
                                .value(),
                            {});
    QVERIFY2(ended, why(ended).constData());
    auto got = getPlaybook(svc.service(), id);
    const QJsonObject listed = got.value().body.value(s("runs")).toArray().at(0).toObject();
    QCOMPARE(listed.value(s("run_id")).toString(), runId);
    QCOMPARE(listed.value(s("status")).toString(), s("success"));
    QCOMPARE(listed.value(s("claimed_by")).toString(), s("ex-1"));
    auto endedRun
        = dispatch(svc.service(), QJsonObject{{s("executor_id"), s("ex-2")}, {s("run_id"), runId}});
    QCOMPARE(endedRun.error().code, s("replay_dispatch_run_ended"));
    auto unknownRun = dispatch(
        svc.service(), QJsonObject{{s("executor_id"), s("ex-2")},
                                   {s("run_id"), s("5f0c9c1e-8d1a-4f57-b0b1-2f6c3f5d9a01")}});
    QCOMPARE(unknownRun.error().status, 404);
    auto unknownPlaybook = dispatch(
        svc.service(), QJsonObject{{s("executor_id"), s("ex-2")},
                                   {s("playbook_id"), s("5f0c9c1e-8d1a-4f57-b0b1-2f6c3f5d9a01")}});
    QCOMPARE(unknownPlaybook.error().code, s("replay_playbook_not_found"));
}

void tst_PlaybookEngine::guidedRunNeedsEveryParam()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("x"))});
    auto repaired = call<PlaybookRepairRequest>(
        svc.service(), &MemoryService::playbookRepair,
        QJsonObject{
            {s("playbook_id"), id},
            {s("review_required"), false},
            {s("patch"),
             QJsonObject{
                 {s("steps_override"),
                  QJsonArray{QJsonObject{
                      {s("tool_name"), s("command")},
                      {s("tool_input"),
                       QJsonObject{{s("argv"), QJsonArray{s("echo"), s("{{greeting}}")}}}}}}}}}});
    QVERIFY2(repaired, why(repaired).constData());
    const qint64 commits = commitCount(svc.service());
    auto missing
        = runPlaybook(svc.service(), QJsonObject{{s("playbook_id"), id}, {s("mode"), s("guided")}});
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, s("replay_playbook_params_missing"));
    QCOMPARE(missing.error().details.value(s("missing")).toArray(), QJsonArray{s("greeting")});
    QCOMPARE(commitCount(svc.service()), commits);
    auto guided = runPlaybook(svc.service(),
                              QJsonObject{{s("playbook_id"), id},
                                          {s("mode"), s("guided")},
                                          {s("params"), QJsonObject{{s("greeting"), s("hi")}}}});
    QVERIFY2(guided, why(guided).constData());
    QCOMPARE(
        guided.value().body.value(s("steps")).toArray().at(0).toObject().value(s("argv")).toArray(),
        (QJsonArray{s("echo"), s("hi")}));
}

void tst_PlaybookEngine::gateRejectsMismatch()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("x"))});
    const QJsonObject gate{{s("on_mismatch"), s("reject")}};
    auto refused = runPlaybook(
        svc.service(), QJsonObject{{s("playbook_id"), id}, {s("deterministic_gate"), gate}});
    QVERIFY(!refused);
    QCOMPARE(refused.error().status, 409);
    QCOMPARE(refused.error().code, s("replay_deterministic_gate_mismatch"));
    auto dispatched = dispatch(svc.service(), QJsonObject{{s("executor_id"), s("e")},
                                                          {s("playbook_id"), id},
                                                          {s("deterministic_gate"), gate}});
    QCOMPARE(dispatched.error().code, s("replay_deterministic_gate_mismatch"));
    // An active version passes; a preferred deterministic run turns simulate into strict.
    QVERIFY(call<PlaybookPromoteRequest>(
        svc.service(), &MemoryService::playbookPromote,
        QJsonObject{{s("playbook_id"), id}, {s("target_status"), s("active")}}));
    auto promoted = runPlaybook(
        svc.service(), QJsonObject{{s("playbook_id"), id}, {s("deterministic_gate"), gate}});
    QVERIFY2(promoted, why(promoted).constData());
    QCOMPARE(promoted.value().body.value(s("mode")).toString(), s("strict"));
    QCOMPARE(
        obj(promoted.value().body.value(s("deterministic_gate"))).value(s("decision")).toString(),
        s("promoted_to_strict"));
}

void tst_PlaybookEngine::candidateExplainsTheGate()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("x"))});
    auto cand = [&](QJsonObject body) {
        body.insert(s("playbook_id"), id);
        return call<PlaybookCandidateRequest>(svc.service(), &MemoryService::playbookCandidate,
                                              body);
    };
    auto noGate = cand({});
    QVERIFY2(noGate, why(noGate).constData());
    QCOMPARE(
        obj(noGate.value().body.value(s("deterministic_gate"))).value(s("decision")).toString(),
        s("disabled"));
    QCOMPARE(obj(noGate.value().body.value(s("candidate")))
                 .value(s("eligible_for_deterministic_replay"))
                 .toBool(),
             false);
    auto draft = cand({{s("deterministic_gate"), QJsonObject{}}});
    QCOMPARE(obj(draft.value().body.value(s("candidate"))).value(s("mismatch_reasons")).toArray(),
             QJsonArray{s("status_not_allowed_for_deterministic_replay")});
    auto matchers = cand({{s("deterministic_gate"),
                           QJsonObject{{s("required_statuses"), QJsonArray{s("draft")}},
                                       {s("matchers"), QJsonObject{{s("task"), s("deploy")}}}}}});
    QCOMPARE(
        obj(matchers.value().body.value(s("candidate"))).value(s("mismatch_reasons")).toArray(),
        QJsonArray{s("matcher_fingerprint_mismatch")});
    auto ok = cand(
        {{s("deterministic_gate"), QJsonObject{{s("required_statuses"), QJsonArray{s("draft")}}}}});
    const QJsonObject c = obj(ok.value().body.value(s("candidate")));
    QCOMPARE(c.value(s("eligible_for_deterministic_replay")).toBool(), true);
    QCOMPARE(c.value(s("recommended_mode")).toString(), s("strict"));
    auto unknown
        = call<PlaybookCandidateRequest>(svc.service(), &MemoryService::playbookCandidate,
                                         QJsonObject{{s("playbook_id"), id}, {s("version"), 5}});
    QCOMPARE(unknown.error().code, s("replay_playbook_not_found"));
}

void tst_PlaybookEngine::gatewayRunsAndReportsLatestVersion()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("/srv/app"))});
    auto gateway = svc->playbookGateway();
    PlaybookCall c;
    c.scope = CallScope{s("default"), s("default"), {}};
    c.playbookId = id;
    c.mode = s("simulate");
    auto sim = gateway->run(c, {});
    QVERIFY2(sim, why(sim).constData());
    QCOMPARE(sim.value().outcome, s("success"));
    QCOMPARE(sim.value().playbookVersion, 1);
    QVERIFY(sim.value().replayRunId.isEmpty());
    c.params = QJsonObject{{s("path_1"), QJsonValue()}};
    c.mode = s("strict");
    c.automationRunId = s("auto-run-1");
    c.automationNodeId = s("deploy");
    auto strict = gateway->run(c, {});
    QVERIFY2(strict, why(strict).constData());
    QCOMPARE(strict.value().outcome, s("pending"));
    QVERIFY(!strict.value().replayRunId.isEmpty());
    auto view = svc->replayRun(s("default"), s("default"), strict.value().replayRunId);
    auto runNode = svc->nodeDetail(s("default"), s("default"), view.value().run.runNodeId);
    const QJsonObject md = obj(runNode.value().node.slotData.value(s("metadata")));
    QCOMPARE(md.value(s("automation_run_id")).toString(), s("auto-run-1"));
    QCOMPARE(md.value(s("automation_node_id")).toString(), s("deploy"));

    c.playbookId = s("5f0c9c1e-8d1a-4f57-b0b1-2f6c3f5d9a01");
    auto missing = gateway->run(c, {});
    QVERIFY(!missing);
    QCOMPARE(missing.error().code, s("replay_playbook_not_found"));
    auto noLatest = gateway->latestVersion(c.scope, c.playbookId, {});
    QCOMPARE(noLatest.error().code, s("replay_playbook_not_found"));
}

void tst_PlaybookEngine::privatePlaybookInvisibleToOtherAgent()
{
    TempService svc(apiKeyTestEnvironment());
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const RequestMeta agentA = credentialAs(s("agent-a"), QString());
    const RequestMeta agentB = credentialAs(s("agent-b"), QString());
    const QString runId = recordRun(svc.service(), {echo(s("x"))}, s("success"), {}, agentA,
                                    QJsonObject{{s("memory_lane"), s("private")}});
    QVERIFY(!runId.isEmpty());
    // B cannot compile A's private run.
    auto byB = compile(svc.service(), QJsonObject{{s("run_id"), runId}}, agentB);
    QVERIFY(!byB);
    QCOMPARE(byB.error().status, 404);
    auto out = compile(svc.service(), QJsonObject{{s("run_id"), runId}}, agentA);
    QVERIFY2(out, why(out).constData());
    const QString id = out.value().body.value(s("playbook_id")).toString();
    QVERIFY(getPlaybook(svc.service(), id, agentA));
    // B cannot add a version to A's playbook id, nor learn anything about it by trying.
    const QString runOfB = recordRun(svc.service(), {echo(s("y"))}, s("success"), {}, agentB);
    auto taken = compile(
        svc.service(),
        QJsonObject{{s("run_id"), runOfB}, {s("playbook_id"), id}, {s("version"), 2}}, agentB);
    QVERIFY(!taken);
    QCOMPARE(taken.error().status, 409);
    QCOMPARE(taken.error().code, s("client_id_conflict"));
    QVERIFY(!taken.error().details.contains(s("latest_version")));
    auto hidden = getPlaybook(svc.service(), id, agentB);
    QVERIFY(!hidden);
    QCOMPARE(hidden.error().code, s("replay_playbook_not_found"));
    auto promote = call<PlaybookPromoteRequest>(
        svc.service(), &MemoryService::playbookPromote,
        QJsonObject{{s("playbook_id"), id}, {s("target_status"), s("active")}}, agentB);
    QCOMPARE(promote.error().code, s("replay_playbook_not_found"));
    auto run = runPlaybook(svc.service(), QJsonObject{{s("playbook_id"), id}}, agentB);
    QCOMPARE(run.error().code, s("replay_playbook_not_found"));
    // A's strict run is not B's work either.
    auto strict = runPlaybook(
        svc.service(), QJsonObject{{s("playbook_id"), id}, {s("mode"), s("strict")}}, agentA);
    QVERIFY2(strict, why(strict).constData());
    auto bWork = dispatch(svc.service(), QJsonObject{{s("executor_id"), s("b")}}, agentB);
    QCOMPARE(obj(bWork.value().body.value(s("dispatch"))).value(s("decision")).toString(),
             s("no_pending_work"));
    auto aWork = dispatch(svc.service(), QJsonObject{{s("executor_id"), s("a")}}, agentA);
    QCOMPARE(obj(aWork.value().body.value(s("dispatch"))).value(s("decision")).toString(),
             s("claimed"));
    // Another tenant sees nothing.
    auto other = getPlaybook(svc.service(), id, credentialAs(s("agent-a"), QString(), s("globex")));
    QVERIFY(!other);
    QCOMPARE(other.error().code, s("replay_playbook_not_found"));
}

void tst_PlaybookEngine::consoleListsLatestVersions()
{
    TempService svc;
    QVERIFY2(svc.isValid(), qPrintable(svc.errorText()));
    const QString id = compiledPlaybook(svc.service(), {echo(s("x"))});
    QVERIFY(call<PlaybookPromoteRequest>(
        svc.service(), &MemoryService::playbookPromote,
        QJsonObject{{s("playbook_id"), id}, {s("target_status"), s("shadow")}}));
    auto list = svc->listPlaybooks(s("default"), s("default"));
    QVERIFY2(list, why(list).constData());
    QCOMPARE(list.value().size(), 1);
    QCOMPARE(list.value().at(0).playbookId, id);
    QCOMPARE(list.value().at(0).version, 2);
    QCOMPARE(list.value().at(0).status, s("shadow"));
    QCOMPARE(list.value().at(0).name, s("release"));
}

QTEST_GUILESS_MAIN(tst_PlaybookEngine)
#include "tst_playbookengine.moc"
