#pragma once

// What an automation needs from replay playbooks: run one (a playbook node) and look up its
// latest version (a repair pause resumes on a newer approved version). The playbook module
// implements it; the automation module depends on this interface only.

#include "service/api/callscopetypes.h"
#include "service/core/identity.h"
#include "service/core/result.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace MemoryGraph {

/// One playbook run asked for by an automation node.
struct PlaybookCall
{
    CallScope scope;
    QString playbookId;
    std::optional<int> version; ///< none = the latest
    QString mode;               ///< "strict" | "guided" | "simulate" (a shadow run forces simulate)
    QJsonObject params;         ///< the node's bound inputs
    QString actor;              ///< who the automation run acts for
    QString automationRunId;    ///< recorded on the replay run, so its end finds the automation
    QString automationNodeId;
};

/// How a playbook run went, as far as it has gone.
struct PlaybookCallResult
{
    /// "success" | "partial" | "failed", or "pending": a strict/guided run now waits for an
    /// executor (dispatch, then replay/step/after and replay/run/end); its end is reported
    /// to the automation through MemoryService.
    QString outcome;
    int playbookVersion = 0;
    QString replayRunId; ///< the replay run recording it (empty when none was recorded)
    QString errorCode;   ///< for "failed": why
    QString errorMessage;
    QJsonObject output;      ///< the run's response body, kept as the node's output snapshot
    QJsonObject repairPatch; ///< for "partial": the proposed repair
};

/// A playbook's latest version as an automation sees it.
struct PlaybookVersionInfo
{
    int version = 0;
    QString status; ///< draft | shadow | active | disabled
    QString
        repairReviewState; ///< "" | pending_review | approved | rejected | approved_shadow_blocked
};

class PlaybookGateway
{
public:
    virtual ~PlaybookGateway() = default;
    virtual Result<PlaybookCallResult> run(const PlaybookCall &call, const RequestMeta &meta) = 0;
    /// 404 replay_playbook_not_found when the playbook has no version the actor may read.
    virtual Result<PlaybookVersionInfo>
    latestVersion(const CallScope &scope, const QString &playbookId, const RequestMeta &meta) = 0;
    /// Ends a replay run a cancelled automation no longer waits for (status failed), so no
    /// executor claims its steps any more. A run already ended is left as it is.
    virtual Result<void> abandon(const CallScope &scope, const QString &replayRunId,
                                 const QString &actor, const QString &reason,
                                 const RequestMeta &meta)
        = 0;
};

} // namespace MemoryGraph
