#include "service/api/replayrequests.h"

#include "service/api/requestfields.h"
#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/core/jsonreader.h"
#include "service/core/vocabulary.h"

namespace MemoryGraph {

namespace ReplayVocabulary {

const QStringList &safetyLevels()
{
    static const QStringList v{QStringLiteral("auto_ok"), QStringLiteral("needs_confirm"),
                               QStringLiteral("manual_only")};
    return v;
}

const QStringList &stepStatuses()
{
    static const QStringList v{QStringLiteral("success"), QStringLiteral("failed"),
                               QStringLiteral("skipped"), QStringLiteral("partial")};
    return v;
}

const QStringList &runEndStatuses()
{
    static const QStringList v{QStringLiteral("success"), QStringLiteral("failed"),
                               QStringLiteral("partial")};
    return v;
}

} // namespace ReplayVocabulary

namespace {

constexpr int kLongText = 1 << 20;

/// Any JSON value; absent and null both read as null.
QJsonValue anyValue(const QJsonObject &body, const char *key)
{
    const QJsonValue v = body.value(QLatin1String(key));
    return v.isUndefined() ? QJsonValue() : v;
}

/// An array of condition objects, at most ReplayVocabulary::kMaxConditions.
bool readConditions(JsonReader &r, const char *key, QJsonArray *out)
{
    if (!r.array(key, out))
        return false;
    if (out->size() > ReplayVocabulary::kMaxConditions)
        return r.fail(
            QLatin1String(key),
            QStringLiteral("must have at most %1 entries").arg(ReplayVocabulary::kMaxConditions));
    for (int i = 0; i < out->size(); ++i) {
        if (!out->at(i).isObject())
            return r.fail(QStringLiteral("%1[%2]").arg(QLatin1String(key)).arg(i),
                          QStringLiteral("must be an object"));
    }
    return true;
}

bool readText(JsonReader &r, const char *key, QString *out, int maxTextLength,
              bool required = false)
{
    const bool ok
        = required ? r.requiredString(key, out, kLongText) : r.string(key, out, kLongText);
    if (ok)
        *out = normalizeText(*out, maxTextLength);
    return ok;
}

} // namespace

bool ReplayConsumer::read(JsonReader &r)
{
    r.string("consumer_agent_id", &agentId, 256);
    r.string("consumer_team_id", &teamId, 256);
    return r.ok();
}

bool ReplayWriteCommon::read(JsonReader &r, int maxTextLength)
{
    r.string("tenant_id", &tenantId, 64);
    r.string("scope", &scope, 256);
    r.string("actor", &actor, 256);
    readText(r, "input_text", &inputText, maxTextLength);
    r.string("input_sha256", &inputSha256, 64);
    if (r.ok() && !inputSha256.isEmpty() && !isSha256Hex(inputSha256))
        r.fail(QStringLiteral("input_sha256"), QStringLiteral("must be 64 hex digits"));
    inputSha256 = inputSha256.toLower();
    r.enumValue("memory_lane", &memoryLane, Vocabulary::lanes());
    r.string("producer_agent_id", &producerAgentId, 256);
    r.string("owner_agent_id", &ownerAgentId, 256);
    r.string("owner_team_id", &ownerTeamId, 256);
    consumer.read(r);
    return r.ok();
}

Result<ReplayRunStartRequest> ReplayRunStartRequest::fromJson(const QJsonObject &body,
                                                              int maxTextLength)
{
    ReplayRunStartRequest q;
    JsonReader r(body);
    q.common.read(r, maxTextLength);
    readUuid(r, "run_id", &q.runId, false);
    readText(r, "goal", &q.goal, maxTextLength, true);
    r.string("context_snapshot_ref", &q.contextSnapshotRef, 4096);
    r.string("context_snapshot_hash", &q.contextSnapshotHash, 64);
    if (r.ok() && !q.contextSnapshotHash.isEmpty() && !isSha256Hex(q.contextSnapshotHash))
        r.fail(QStringLiteral("context_snapshot_hash"), QStringLiteral("must be 64 hex digits"));
    q.contextSnapshotHash = q.contextSnapshotHash.toLower();
    r.object("metadata", &q.metadata);
    if (!r.ok())
        return r.error();
    return q;
}

Result<ReplayStepBeforeRequest> ReplayStepBeforeRequest::fromJson(const QJsonObject &body,
                                                                  int maxTextLength)
{
    ReplayStepBeforeRequest q;
    JsonReader r(body);
    q.common.read(r, maxTextLength);
    readUuid(r, "run_id", &q.runId, true);
    readUuid(r, "step_id", &q.stepId, false);
    readUuid(r, "decision_id", &q.decisionId, false);
    std::optional<int> index;
    r.integer("step_index", &index, 1, 1000000);
    if (r.ok() && !index)
        r.fail(QStringLiteral("step_index"), QStringLiteral("is required"));
    q.stepIndex = index.value_or(1);
    r.requiredString("tool_name", &q.toolName, 256);
    q.toolInput = anyValue(body, "tool_input");
    q.expectedOutputSignature = anyValue(body, "expected_output_signature");
    readConditions(r, "preconditions", &q.preconditions);
    r.object("retry_policy", &q.retryPolicy, &q.retryPolicyGiven);
    r.enumValue("safety_level", &q.safetyLevel, ReplayVocabulary::safetyLevels());
    r.object("metadata", &q.metadata);
    if (!r.ok())
        return r.error();
    return q;
}

Result<ReplayStepAfterRequest> ReplayStepAfterRequest::fromJson(const QJsonObject &body,
                                                                int maxTextLength)
{
    ReplayStepAfterRequest q;
    JsonReader r(body);
    q.common.read(r, maxTextLength);
    readUuid(r, "run_id", &q.runId, true);
    readUuid(r, "step_id", &q.stepId, false);
    r.integer("step_index", &q.stepIndex, 1, 1000000);
    if (r.ok() && body.value(QStringLiteral("status")).isUndefined())
        r.fail(QStringLiteral("status"), QStringLiteral("is required"));
    r.enumValue("status", &q.status, ReplayVocabulary::stepStatuses());
    q.outputSignature = anyValue(body, "output_signature");
    readConditions(r, "postconditions", &q.postconditions);
    r.stringList("artifact_refs", &q.artifactRefs, 0, ReplayVocabulary::kMaxArtifactRefs);
    readFlag(r, "repair_applied", &q.repairApplied);
    readText(r, "repair_note", &q.repairNote, maxTextLength);
    readText(r, "error", &q.error, maxTextLength);
    r.object("metadata", &q.metadata);
    if (!r.ok())
        return r.error();
    return q;
}

Result<ReplayRunEndRequest> ReplayRunEndRequest::fromJson(const QJsonObject &body,
                                                          int maxTextLength)
{
    ReplayRunEndRequest q;
    JsonReader r(body);
    q.common.read(r, maxTextLength);
    readUuid(r, "run_id", &q.runId, true);
    if (r.ok() && body.value(QStringLiteral("status")).isUndefined())
        r.fail(QStringLiteral("status"), QStringLiteral("is required"));
    r.enumValue("status", &q.status, ReplayVocabulary::runEndStatuses());
    readText(r, "summary", &q.summary, maxTextLength);
    r.object("success_criteria", &q.successCriteria);
    r.object("metrics", &q.metrics);
    r.object("metadata", &q.metadata);
    if (!r.ok())
        return r.error();
    return q;
}

Result<ReplayRunGetRequest> ReplayRunGetRequest::fromJson(const QJsonObject &body)
{
    ReplayRunGetRequest q;
    JsonReader r(body);
    r.string("tenant_id", &q.tenantId, 64);
    r.string("scope", &q.scope, 256);
    readUuid(r, "run_id", &q.runId, true);
    readFlag(r, "include_steps", &q.includeSteps);
    readFlag(r, "include_artifacts", &q.includeArtifacts);
    q.consumer.read(r);
    if (!r.ok())
        return r.error();
    return q;
}

} // namespace MemoryGraph
