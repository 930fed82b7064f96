#pragma once

// What an adaptive decay run changed (reference §6.3).

#include "service/core/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

namespace MemoryGraph {

/// One tier demotion made by a decay run.
struct TierMove
{
    QString nodeId;
    QString from;
    QString to;
    QString reason; ///< threshold | hot_budget | active_budget
};

/// What one decay run over one scope did.
struct DecayReport
{
    QString tenantId;
    QString scope;
    QDateTime ranAt;        ///< the job's "now"
    int mutableNodes = 0;   ///< hot/warm/cold nodes that are not protected
    int protectedNodes = 0; ///< skipped because of slots.pin / slots.legal_hold
    int salienceChanged = 0;
    int dailyBudget = 0;   ///< max(1, floor(0.05 x mutable))
    int usedLast24h = 0;   ///< tier transitions already made in the last 24 h
    int deferredMoves = 0; ///< eligible demotions left for a later run (budget spent)
    QVector<TierMove> moves;
    QString commitId; ///< empty when the run changed nothing (no commit)
    QString commitHash;

    bool committed() const { return !commitId.isEmpty(); }
    QJsonObject toJson() const;
};

/// The decay over every scope of the store; a failing scope does not stop the others.
struct DecaySweep
{
    QVector<DecayReport> reports;
    QStringList failures; ///< "tenant / scope: message"
};

} // namespace MemoryGraph
