#pragma once

#include "service/access/callscope.h"
#include "service/access/viewer.h"
#include "service/api/playbookgateway.h"
#include "service/api/playbookrequests.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/replay/replayengine.h"

#include <optional>

namespace MemoryGraph {

class Database;

/// Replay playbooks (reference §7.4). A playbook version is an ordinary `procedure` node with
/// the client_id `replay:playbook:<playbook_id>:v<N>`; every change (compile, promote, repair,
/// review) writes a NEW version through the replay write path, linked `derived_from` to the
/// version it came from, so lanes, owners, tenant, scope and the commit chain apply as for any
/// memory. `run` evaluates a simulation in-process, or opens a replay run whose steps are
/// pending work for an executor; `dispatch` hands such a run to one executor, which reports
/// through replay/step/after and replay/run/end. The service never runs a step itself.
class PlaybookEngine : public PlaybookGateway
{
public:
    using WriteFn = ReplayEngine::WriteFn;

    PlaybookEngine(Database &db, const ServiceConfig &config, WriteFn write = {});

    Result<PlaybookOutcome> compileFromRun(const PlaybookCompileRequest &request,
                                           const RequestMeta &meta);
    Result<PlaybookOutcome> get(const PlaybookGetRequest &request, const RequestMeta &meta);
    Result<PlaybookOutcome> candidate(const PlaybookCandidateRequest &request,
                                      const RequestMeta &meta);
    Result<PlaybookOutcome> promote(const PlaybookPromoteRequest &request, const RequestMeta &meta);
    Result<PlaybookOutcome> repair(const PlaybookRepairRequest &request, const RequestMeta &meta);
    Result<PlaybookOutcome> review(const PlaybookReviewRequest &request, const RequestMeta &meta);
    Result<PlaybookOutcome> run(const PlaybookRunRequest &request, const RequestMeta &meta);
    Result<PlaybookOutcome> dispatch(const PlaybookDispatchRequest &request,
                                     const RequestMeta &meta);

    // PlaybookGateway (automations).
    Result<PlaybookCallResult> run(const PlaybookCall &call, const RequestMeta &meta) override;
    Result<void> abandon(const CallScope &scope, const QString &replayRunId, const QString &actor,
                         const QString &reason, const RequestMeta &meta) override;
    Result<PlaybookVersionInfo> latestVersion(const CallScope &scope, const QString &playbookId,
                                              const RequestMeta &meta) override;

    /// Operator view (every lane): the latest version of each playbook, newest first.
    Result<QVector<PlaybookSummary>> list(const QString &tenantId, const QString &scope);

    /// What a run answers, with what the gateway needs beside the body.
    struct RunResult
    {
        QJsonObject body;
        QString outcome; ///< success | partial | failed | pending
        int version = 0;
        QString runId;
        QJsonObject repairPatch;
    };

private:
    struct Version
    {
        NodeRecord node;
        int version = 0;
        QString status;
    };

    Result<Viewer> readerViewer(const ReplayWriteCommon &common, const RequestMeta &meta) const;
    Result<Viewer> writerViewer(const ReplayWriteCommon &common, const RequestMeta &meta) const;
    /// Every version of the playbook the viewer sees (none: every version), oldest first.
    Result<QVector<Version>> versions(const CallScope &cs, const QString &playbookId,
                                      const std::optional<Viewer> &viewer);
    /// The version named (else the latest); 404 replay_playbook_not_found when none is
    /// visible, or versionCode when the named version is not.
    Result<Version> pick(const QVector<Version> &all, const CallScope &cs,
                         const QString &playbookId, std::optional<int> version,
                         const QString &versionCode);

    struct Written
    {
        QString nodeId;
        QString uri;
        QString commitId;
        QString commitUri;
        QString commitHash;
    };
    Result<Written> writeVersion(const CallScope &cs, const ReplayWriteCommon &common,
                                 const QJsonObject &slotData, const NodeRecord *source,
                                 const QStringList &provenanceIds, const RequestMeta &meta);

    Result<QJsonObject> autoPromoteVersion(const CallScope &cs, const PlaybookReviewRequest &req,
                                           QJsonObject slotData, int fromVersion,
                                           const QString &fromNodeId, const RequestMeta &meta);

    Result<RunResult> runVersion(const CallScope &cs, const PlaybookRunRequest &request,
                                 const Version &version, const RequestMeta &meta);
    Result<RunResult> openRun(const CallScope &cs, const PlaybookRunRequest &request,
                              const Version &version, const QString &mode, const QJsonObject &gate,
                              const RequestMeta &meta);
    QJsonArray playbookRuns(const CallScope &cs, const QString &playbookId, const Viewer &viewer);

    Database &m_db;
    const ServiceConfig &m_config;
    WriteFn m_write;
};

} // namespace MemoryGraph
