#pragma once

#include "service/access/callscope.h"
#include "service/access/viewer.h"
#include "service/api/replayrequests.h"
#include "service/api/replayviews.h"
#include "service/api/writerequest.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"

#include <QDateTime>

#include <functional>
#include <optional>

namespace MemoryGraph {

class Database;

/// Replay records (reference §7.1): every call is an ordinary memory write with deterministic
/// client_ids, so runs, steps and results are nodes, edges and commits like any other memory,
/// and obey the same lanes, identities and audit chain.
class ReplayEngine
{
public:
    /// The write path replay records go through (MemoryService::write, so indexes and change
    /// notifications follow).
    using WriteFn = std::function<Result<WriteResult>(const WriteRequest &, const RequestMeta &)>;

    static constexpr int kMaxProvenanceIds = 50;

    ReplayEngine(Database &db, const ServiceConfig &config, WriteFn write = {});

    Result<ReplayWriteOutcome> runStart(const ReplayRunStartRequest &request,
                                        const RequestMeta &meta);
    Result<ReplayWriteOutcome> stepBefore(const ReplayStepBeforeRequest &request,
                                          const RequestMeta &meta);
    Result<ReplayWriteOutcome> stepAfter(const ReplayStepAfterRequest &request,
                                         const RequestMeta &meta);
    Result<ReplayWriteOutcome> runEnd(const ReplayRunEndRequest &request, const RequestMeta &meta);
    /// Only the nodes the consumer may see (404 not_found when none are).
    Result<ReplayRunView> runGet(const ReplayRunGetRequest &request, const RequestMeta &meta);

    /// Operator views: every lane.
    Result<QVector<ReplayRunSummary>> listRuns(const QString &tenantId, const QString &scope,
                                               int limit);
    Result<ReplayRunView> run(const QString &tenantId, const QString &scope, const QString &runId);

private:
    Result<Viewer> writerViewer(const ReplayWriteCommon &common, const RequestMeta &meta) const;
    Result<NodeRecord> visibleRunNode(const CallScope &cs, const QString &runId,
                                      const Viewer &viewer);

    /// A run that step and run-end records are added to, as the writer sees it.
    struct OpenRun
    {
        CallScope scope;
        Viewer viewer;
        NodeRecord runNode;
    };
    /// The call scope, the writer's viewer and the run node (404 when the writer cannot see it).
    Result<OpenRun> openRun(const ReplayWriteCommon &common, const QString &runId,
                            const RequestMeta &meta);

    Result<ReplayWriteOutcome> writeRecord(const CallScope &cs, const ReplayWriteCommon &common,
                                           const QString &derivedInput, const QJsonObject &node,
                                           const QJsonArray &edges, const RequestMeta &meta);
    Result<ReplayRunView> buildView(const CallScope &cs, const QString &runId,
                                    const QVector<NodeRecord> &nodes, bool includeSteps,
                                    bool includeArtifacts);

    Database &m_db;
    const ServiceConfig &m_config;
    WriteFn m_write;
};

} // namespace MemoryGraph
