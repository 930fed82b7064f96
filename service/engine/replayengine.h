#pragma once

#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/engine/callscope.h"
#include "service/engine/replayrequests.h"
#include "service/engine/viewer.h"
#include "service/engine/writerequest.h"

#include <QDateTime>

#include <functional>
#include <optional>

namespace MemoryGraph {

class Database;

/// What run/start, step/before, step/after and run/end answer: the node written and its commit.
struct ReplayWriteOutcome
{
    CallScope scope;
    QString runId;
    QString status;                 ///< started | pending | the step or run status
    QString stepId;                 ///< step routes
    std::optional<int> stepIndex;   ///< step/before (and step/after when known)
    bool repairApplied = false;     ///< step/after
    QString nodeId;
    QString nodeUri;
    QString commitId;
    QString commitUri;
    QString commitHash;
};

/// One replay node of a run, in time order (reference §7.2 timeline).
struct ReplayTimelineEntry
{
    QString nodeId;
    QString uri;
    QString type;
    QString replayKind;   ///< run | step | step_result | run_end
    QString title;
    QString textSummary;
    QDateTime createdAt;
    QString commitId;
    QString commitUri;
    QString status;       ///< a step result's or run end's status; empty for other kinds
};

/// A step with its latest recorded result (reference §7.2 steps, plus what the console shows).
struct ReplayStepView
{
    QString stepId;
    std::optional<int> stepIndex;
    QString toolName;
    QString status;                  ///< latest result status, else pending
    QString safetyLevel;
    bool repairApplied = false;
    QJsonArray preconditions;
    QJsonArray postconditions;
    QStringList artifactRefs;
    QString stepNodeId;
    QString stepUri;
    QDateTime createdAt;
    QString resultNodeId;            ///< empty while pending
    QString resultUri;
    QDateTime resultAt;
    QString decisionId;              ///< the decision the step declared, if any
    QJsonValue toolInput;
    QJsonValue expectedOutputSignature;
    QJsonValue outputSignature;
    QString error;
    QString repairNote;
};

struct ReplayRunInfo
{
    QString runId;
    QString status;        ///< the run_end status, else in_progress
    QString goal;
    QString runNodeId;     ///< empty when the run node itself is not visible
    QString runUri;
    QDateTime startedAt;
    QDateTime endedAt;     ///< invalid while in progress
};

struct ReplayCounters
{
    int totalNodes = 0;
    int stepNodes = 0;
    int stepResultNodes = 0;
    int artifactRefs = 0;
    int decisions = 0;
};

/// Identifiers that tie the run to decisions and commits (spec §4.12 "provenance").
struct ReplayProvenance
{
    QString decisionId;       ///< newest decision of the run; empty = none
    QStringList decisionIds;  ///< newest first, bounded
    QString commitUri;        ///< the commit that last changed a node of the run
    QStringList commitUris;   ///< oldest first, bounded
};

/// replay/runs/get and the console's run view.
struct ReplayRunView
{
    CallScope scope;
    ReplayRunInfo run;
    QVector<ReplayTimelineEntry> timeline;
    QVector<ReplayStepView> steps;       ///< empty when not asked for
    QStringList artifacts;               ///< empty when not asked for
    ReplayCounters counters;
    ReplayProvenance provenance;
    QVector<DecisionRecord> decisions;   ///< tool decisions with this run_id, newest first
};

/// A row of the console's run list.
struct ReplayRunSummary
{
    QString runId;
    QString goal;
    QString status;
    QString runNodeId;
    QDateTime startedAt;
    QDateTime endedAt;
    int stepCount = 0;
};

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

    Result<ReplayWriteOutcome> runStart(const ReplayRunStartRequest &request, const RequestMeta &meta);
    Result<ReplayWriteOutcome> stepBefore(const ReplayStepBeforeRequest &request, const RequestMeta &meta);
    Result<ReplayWriteOutcome> stepAfter(const ReplayStepAfterRequest &request, const RequestMeta &meta);
    Result<ReplayWriteOutcome> runEnd(const ReplayRunEndRequest &request, const RequestMeta &meta);
    /// Only the nodes the consumer may see (404 not_found when none are).
    Result<ReplayRunView> runGet(const ReplayRunGetRequest &request, const RequestMeta &meta);

    /// Operator views: every lane.
    Result<QVector<ReplayRunSummary>> listRuns(const QString &tenantId, const QString &scope, int limit);
    Result<ReplayRunView> run(const QString &tenantId, const QString &scope, const QString &runId);

private:
    Result<Viewer> writerViewer(const ReplayWriteCommon &common, const RequestMeta &meta) const;
    Result<NodeRecord> visibleRunNode(const CallScope &cs, const QString &runId, const Viewer &viewer);

    /// A run that step and run-end records are added to, as the writer sees it.
    struct OpenRun
    {
        CallScope scope;
        Viewer viewer;
        NodeRecord runNode;
    };
    /// The call scope, the writer's viewer and the run node (404 when the writer cannot see it).
    Result<OpenRun> openRun(const ReplayWriteCommon &common, const QString &runId, const RequestMeta &meta);

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
