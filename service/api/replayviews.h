#pragma once

// Replay records as written and as read back (spec §4.12, reference §7.1).

#include "service/api/callscopetypes.h"
#include "service/api/writerequest.h"
#include "service/core/records.h"

#include <QDateTime>
#include <QJsonObject>
#include <QStringList>
#include <QVector>

#include <optional>

namespace MemoryGraph {

/// What run/start, step/before, step/after and run/end answer: the node written and its commit.
struct ReplayWriteOutcome
{
    CallScope scope;
    QString runId;
    QString status;               ///< started | pending | the step or run status
    QString stepId;               ///< step routes
    std::optional<int> stepIndex; ///< step/before (and step/after when known)
    bool repairApplied = false;   ///< step/after
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
    QString replayKind; ///< run | step | step_result | run_end
    QString title;
    QString textSummary;
    QDateTime createdAt;
    QString commitId;
    QString commitUri;
    QString status; ///< a step result's or run end's status; empty for other kinds
};

/// A step with its latest recorded result (reference §7.2 steps, plus what the console shows).
struct ReplayStepView
{
    QString stepId;
    std::optional<int> stepIndex;
    QString toolName;
    QString status; ///< latest result status, else pending
    QString safetyLevel;
    bool repairApplied = false;
    QJsonArray preconditions;
    QJsonArray postconditions;
    QStringList artifactRefs;
    QString stepNodeId;
    QString stepUri;
    QDateTime createdAt;
    QString resultNodeId; ///< empty while pending
    QString resultUri;
    QDateTime resultAt;
    QString decisionId; ///< the decision the step declared, if any
    QJsonValue toolInput;
    QJsonValue expectedOutputSignature;
    QJsonValue outputSignature;
    QString error;
    QString repairNote;
};

struct ReplayRunInfo
{
    QString runId;
    QString status; ///< the run_end status, else in_progress
    QString goal;
    QString runNodeId; ///< empty when the run node itself is not visible
    QString runUri;
    QDateTime startedAt;
    QDateTime endedAt; ///< invalid while in progress
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
    QString decisionId;      ///< newest decision of the run; empty = none
    QStringList decisionIds; ///< newest first, bounded
    QString commitUri;       ///< the commit that last changed a node of the run
    QStringList commitUris;  ///< oldest first, bounded
};

/// replay/runs/get and the console's run view.
struct ReplayRunView
{
    CallScope scope;
    ReplayRunInfo run;
    QVector<ReplayTimelineEntry> timeline;
    QVector<ReplayStepView> steps; ///< empty when not asked for
    QStringList artifacts;         ///< empty when not asked for
    ReplayCounters counters;
    ReplayProvenance provenance;
    QVector<DecisionRecord> decisions; ///< tool decisions with this run_id, newest first
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

} // namespace MemoryGraph
