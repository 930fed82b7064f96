#pragma once

// Requests of the replay playbook routes (POST /v1/memory/replay/playbooks/..., reference §7.4).
// Every request carries the replay write identity (tenant, scope, actor, lane, owners) and the
// consumer identity its reads are made for.

#include "service/api/callscopetypes.h"
#include "service/api/replayrequests.h"
#include "service/core/result.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace MemoryGraph {

/// A deterministic-replay gate (reference §7.4 candidate): absent = disabled.
struct PlaybookGate
{
    bool given = false;
    bool enabled = true;
    bool preferDeterministic = true;
    QString onMismatch = QStringLiteral("fallback"); ///< fallback | reject
    QStringList requiredStatuses{QStringLiteral("shadow"), QStringLiteral("active")};
    std::optional<QJsonObject> matchers;
    std::optional<QJsonObject> policyConstraints;
    bool read(JsonReader &reader);
};

/// playbooks/compile_from_run.
struct PlaybookCompileRequest
{
    ReplayWriteCommon common;
    QString runId;
    QString playbookId; ///< empty = a new random UUID
    QString name;       ///< empty = replay_playbook_<run_id[0..8]>
    int version = 1;
    QJsonObject matchers;
    std::optional<QJsonObject> successCriteria; ///< none = the run end's
    QString riskProfile = QStringLiteral("medium");
    bool allowPartial = false;
    QJsonObject metadata;
    static Result<PlaybookCompileRequest> fromJson(const QJsonObject &body,
                                                   int maxTextLength = 8000);
};

/// playbooks/get: the latest version (or the one named), its version history and recent runs.
struct PlaybookGetRequest
{
    ReplayWriteCommon common;
    QString playbookId;
    std::optional<int> version;
    static Result<PlaybookGetRequest> fromJson(const QJsonObject &body);
};

/// playbooks/candidate.
struct PlaybookCandidateRequest
{
    ReplayWriteCommon common;
    QString playbookId;
    std::optional<int> version;
    PlaybookGate gate;
    static Result<PlaybookCandidateRequest> fromJson(const QJsonObject &body);
};

/// playbooks/promote.
struct PlaybookPromoteRequest
{
    ReplayWriteCommon common;
    QString playbookId;
    std::optional<int> fromVersion;
    QString targetStatus;
    QString note;
    QJsonObject metadata;
    static Result<PlaybookPromoteRequest> fromJson(const QJsonObject &body,
                                                   int maxTextLength = 8000);
};

/// playbooks/repair.
struct PlaybookRepairRequest
{
    ReplayWriteCommon common;
    QString playbookId;
    std::optional<int> fromVersion;
    QJsonObject patch;
    QString note;
    bool reviewRequired = true;
    QString targetStatus = QStringLiteral("draft");
    static Result<PlaybookRepairRequest> fromJson(const QJsonObject &body,
                                                  int maxTextLength = 8000);
};

/// playbooks/repair/review.
struct PlaybookReviewRequest
{
    ReplayWriteCommon common;
    QString playbookId;
    std::optional<int> version;
    QString action; ///< approve | reject
    QString note;
    bool autoShadowValidate = true;
    QString validationMode = QStringLiteral("readiness");
    QString targetStatusOnApprove = QStringLiteral("shadow");
    /// Auto-promotion after a passing approval (off unless the request turns it on): one more
    /// version in autoPromoteTargetStatus.
    std::optional<bool> autoPromoteOnPass;
    QString autoPromoteTargetStatus = QStringLiteral("active");
    static Result<PlaybookReviewRequest> fromJson(const QJsonObject &body,
                                                  int maxTextLength = 8000);
};

/// playbooks/run. `params` bind the steps' template variables.
struct PlaybookRunRequest
{
    ReplayWriteCommon common;
    QString playbookId;
    std::optional<int> version;
    QString mode = QStringLiteral("simulate"); ///< simulate | strict | guided
    PlaybookGate gate;
    QJsonObject params;
    int maxSteps = 200;
    QString automationRunId; ///< recorded on the replay run (automations)
    QString automationNodeId;
    static Result<PlaybookRunRequest> fromJson(const QJsonObject &body, int maxTextLength = 8000);
};

/// playbooks/dispatch: an executor claims the oldest unclaimed strict/guided run.
struct PlaybookDispatchRequest
{
    ReplayWriteCommon common;
    QString playbookId; ///< optional: only runs of this playbook
    QString runId;      ///< optional: exactly this run
    QString executorId;
    PlaybookGate gate;
    static Result<PlaybookDispatchRequest> fromJson(const QJsonObject &body,
                                                    int maxTextLength = 8000);
};

namespace PlaybookVocabulary {
const QStringList &statuses();     ///< draft shadow active disabled
const QStringList &modes();        ///< simulate strict guided
const QStringList &riskProfiles(); ///< low medium high
constexpr int kMaxSteps = 500;
} // namespace PlaybookVocabulary

/// A playbook as the console lists it: its latest version.
struct PlaybookSummary
{
    QString playbookId;
    QString name;
    int version = 0;
    QString status;
    QString reviewState; ///< the latest version's repair review state, empty when none
    int stepCount = 0;
    QString sourceRunId;
    QDateTime updatedAt;
    QString memoryLane; ///< the latest version's lane and owners (the console reads as them)
    QString ownerAgentId;
    QString ownerTeamId;
};

/// What every playbook route answers: the body (tenant_id and scope included).
struct PlaybookOutcome
{
    CallScope scope;
    QJsonObject body;
};

} // namespace MemoryGraph
