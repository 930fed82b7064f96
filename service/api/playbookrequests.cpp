#include "service/api/playbookrequests.h"

#include "service/api/requestfields.h"
#include "service/core/jsonreader.h"

namespace MemoryGraph {

namespace PlaybookVocabulary {

const QStringList &statuses()
{
    static const QStringList v{QStringLiteral("draft"), QStringLiteral("shadow"),
                               QStringLiteral("active"), QStringLiteral("disabled")};
    return v;
}

const QStringList &modes()
{
    static const QStringList v{QStringLiteral("simulate"), QStringLiteral("strict"),
                               QStringLiteral("guided")};
    return v;
}

const QStringList &riskProfiles()
{
    static const QStringList v{QStringLiteral("low"), QStringLiteral("medium"),
                               QStringLiteral("high")};
    return v;
}

} // namespace PlaybookVocabulary

namespace {

constexpr int kMaxVersion = 1000000;

/// A version number; a non-integer is refused (400 naming the field).
void readVersion(JsonReader &r, const char *key, std::optional<int> *out)
{
    r.integer(key, out, 1, kMaxVersion);
}

void readNote(JsonReader &r, QString *out)
{
    r.string("note", out, 1000);
}

} // namespace

bool PlaybookGate::read(JsonReader &r)
{
    QJsonObject gate;
    if (!r.object("deterministic_gate", &gate, &given) || !given)
        return r.ok();
    JsonReader g(gate, QStringLiteral("deterministic_gate"));
    readFlag(g, "enabled", &enabled);
    readFlag(g, "prefer_deterministic_execution", &preferDeterministic);
    g.enumValue("on_mismatch", &onMismatch, {QStringLiteral("fallback"), QStringLiteral("reject")});
    bool statusesGiven = false;
    QStringList statuses;
    g.stringList("required_statuses", &statuses, 1, 4, &statusesGiven);
    if (g.ok() && statusesGiven) {
        for (const QString &s : std::as_const(statuses)) {
            if (!PlaybookVocabulary::statuses().contains(s))
                g.fail(QStringLiteral("required_statuses"),
                       QStringLiteral("must name draft, shadow, active or disabled"));
        }
        requiredStatuses = statuses;
    }
    QJsonObject object;
    bool present = false;
    if (g.object("matchers", &object, &present) && present)
        matchers = object;
    present = false;
    if (g.object("policy_constraints", &object, &present) && present)
        policyConstraints = object;
    return r.absorb(g);
}

Result<PlaybookCompileRequest> PlaybookCompileRequest::fromJson(const QJsonObject &body,
                                                                int maxTextLength)
{
    PlaybookCompileRequest q;
    JsonReader r(body);
    q.common.read(r, maxTextLength);
    readUuid(r, "run_id", &q.runId, true);
    readUuid(r, "playbook_id", &q.playbookId, false);
    r.string("name", &q.name, 200);
    readInt(r, "version", &q.version, 1, kMaxVersion);
    r.object("matchers", &q.matchers);
    QJsonObject criteria;
    bool criteriaGiven = false;
    if (r.object("success_criteria", &criteria, &criteriaGiven) && criteriaGiven)
        q.successCriteria = criteria;
    r.enumValue("risk_profile", &q.riskProfile, PlaybookVocabulary::riskProfiles());
    readFlag(r, "allow_partial", &q.allowPartial);
    r.object("metadata", &q.metadata);
    if (!r.ok())
        return r.error();
    return q;
}

Result<PlaybookGetRequest> PlaybookGetRequest::fromJson(const QJsonObject &body)
{
    PlaybookGetRequest q;
    JsonReader r(body);
    q.common.read(r, 8000);
    readUuid(r, "playbook_id", &q.playbookId, true);
    readVersion(r, "version", &q.version);
    if (!r.ok())
        return r.error();
    return q;
}

Result<PlaybookCandidateRequest> PlaybookCandidateRequest::fromJson(const QJsonObject &body)
{
    PlaybookCandidateRequest q;
    JsonReader r(body);
    q.common.read(r, 8000);
    readUuid(r, "playbook_id", &q.playbookId, true);
    readVersion(r, "version", &q.version);
    q.gate.read(r);
    if (!r.ok())
        return r.error();
    return q;
}

Result<PlaybookPromoteRequest> PlaybookPromoteRequest::fromJson(const QJsonObject &body,
                                                                int maxTextLength)
{
    PlaybookPromoteRequest q;
    JsonReader r(body);
    q.common.read(r, maxTextLength);
    readUuid(r, "playbook_id", &q.playbookId, true);
    readVersion(r, "from_version", &q.fromVersion);
    if (r.ok() && body.value(QStringLiteral("target_status")).isUndefined())
        r.fail(QStringLiteral("target_status"), QStringLiteral("is required"));
    r.enumValue("target_status", &q.targetStatus, PlaybookVocabulary::statuses());
    readNote(r, &q.note);
    r.object("metadata", &q.metadata);
    if (!r.ok())
        return r.error();
    return q;
}

Result<PlaybookRepairRequest> PlaybookRepairRequest::fromJson(const QJsonObject &body,
                                                              int maxTextLength)
{
    PlaybookRepairRequest q;
    JsonReader r(body);
    q.common.read(r, maxTextLength);
    readUuid(r, "playbook_id", &q.playbookId, true);
    readVersion(r, "from_version", &q.fromVersion);
    bool patchGiven = false;
    r.object("patch", &q.patch, &patchGiven);
    if (r.ok() && !patchGiven)
        r.fail(QStringLiteral("patch"), QStringLiteral("is required"));
    readNote(r, &q.note);
    readFlag(r, "review_required", &q.reviewRequired);
    r.enumValue("target_status", &q.targetStatus, PlaybookVocabulary::statuses());
    if (!r.ok())
        return r.error();
    return q;
}

Result<PlaybookReviewRequest> PlaybookReviewRequest::fromJson(const QJsonObject &body,
                                                              int maxTextLength)
{
    PlaybookReviewRequest q;
    JsonReader r(body);
    q.common.read(r, maxTextLength);
    readUuid(r, "playbook_id", &q.playbookId, true);
    readVersion(r, "version", &q.version);
    if (r.ok() && body.value(QStringLiteral("action")).isUndefined())
        r.fail(QStringLiteral("action"), QStringLiteral("is required"));
    r.enumValue("action", &q.action, {QStringLiteral("approve"), QStringLiteral("reject")});
    readNote(r, &q.note);
    readFlag(r, "auto_shadow_validate", &q.autoShadowValidate);
    // The service never runs a step itself: shadow validation is the in-process readiness
    // evaluation only (preconditions, bound inputs, safety levels).
    r.enumValue("shadow_validation_mode", &q.validationMode, {QStringLiteral("readiness")});
    r.enumValue("target_status_on_approve", &q.targetStatusOnApprove,
                PlaybookVocabulary::statuses());
    if (body.contains(QStringLiteral("auto_promote_on_pass"))) {
        bool on = false;
        readFlag(r, "auto_promote_on_pass", &on);
        q.autoPromoteOnPass = on;
    }
    r.enumValue("auto_promote_target_status", &q.autoPromoteTargetStatus,
                PlaybookVocabulary::statuses());
    if (!r.ok())
        return r.error();
    return q;
}

Result<PlaybookRunRequest> PlaybookRunRequest::fromJson(const QJsonObject &body, int maxTextLength)
{
    PlaybookRunRequest q;
    JsonReader r(body);
    q.common.read(r, maxTextLength);
    readUuid(r, "playbook_id", &q.playbookId, true);
    readVersion(r, "version", &q.version);
    r.enumValue("mode", &q.mode, PlaybookVocabulary::modes());
    q.gate.read(r);
    r.object("params", &q.params);
    readInt(r, "max_steps", &q.maxSteps, 1, PlaybookVocabulary::kMaxSteps);
    r.string("automation_run_id", &q.automationRunId, 256);
    r.string("automation_node_id", &q.automationNodeId, 256);
    if (!r.ok())
        return r.error();
    return q;
}

Result<PlaybookDispatchRequest> PlaybookDispatchRequest::fromJson(const QJsonObject &body,
                                                                  int maxTextLength)
{
    PlaybookDispatchRequest q;
    JsonReader r(body);
    q.common.read(r, maxTextLength);
    readUuid(r, "playbook_id", &q.playbookId, false);
    readUuid(r, "run_id", &q.runId, false);
    r.requiredString("executor_id", &q.executorId, 256);
    q.gate.read(r);
    if (!r.ok())
        return r.error();
    return q;
}

} // namespace MemoryGraph
