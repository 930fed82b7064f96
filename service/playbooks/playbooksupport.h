#pragma once

// Shared by the playbook engine's files (playbookengine.cpp: versions, compile, promote,
// repair, review; playbookruns.cpp: runs, dispatch, the gateway): record helpers, step
// evaluation, the deterministic gate and playbook runs. Not part of the facade.

#include "service/access/callscope.h"
#include "service/api/playbookrequests.h"
#include "service/core/records.h"
#include "service/core/result.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QString>
#include <QVariantList>

#include <mutex>

namespace MemoryGraph::PlaybookSupport {

inline const QString kKindPlaybook = QStringLiteral("playbook");
inline const QString kDefaultActor = QStringLiteral("replay_api");
inline const QString kPending = QStringLiteral("pending");
inline const QString kClaimed = QStringLiteral("claimed");
inline const QString kPendingReview = QStringLiteral("pending_review");
inline constexpr int kRunsListed = 50;

/// Claims of pending runs are made one at a time, so a run is handed to one executor only.
std::mutex &dispatchMutex();

QString versionPrefix(const QString &playbookId);

QString versionClientId(const QString &playbookId, int version);

QString nowIso();

QString iso(const QDateTime &t);

QJsonValue isoOrNull(const QDateTime &t);

QString slotText(const NodeRecord &n, const char *key);

QString uriOf(const CallScope &cs, const NodeRecord &n);

QJsonObject scopeBody(const CallScope &cs);

Error playbookNotFound(const CallScope &cs, const QString &playbookId);

Error versionNotFound(const CallScope &cs, const QString &playbookId, int version,
                      const QString &code);

QJsonObject commitFields(const QString &commitId, const QString &commitUri,
                         const QString &commitHash);

void merge(QJsonObject &into, const QJsonObject &from);

/// The playbook as get answers it: its slots plus where it is stored.
QJsonObject playbookJson(const CallScope &cs, const NodeRecord &n);

QString reviewStateOf(const NodeRecord &n);

QJsonObject versionSummary(const CallScope &cs, const NodeRecord &n);

/// Quality of one compiled step (reference §7.4): start 0.25, conditions, a signature, auto_ok
/// and success raise it, a repair or a failure lower it; below 0.5 it is flagged low_quality.
void scoreStep(QJsonObject &step);

bool sameStep(const QJsonObject &a, const QJsonObject &b);

Error requiresSuccessfulRun(const QString &runId, const QString &status);

/// One step evaluated for a run: its inputs bound and its preconditions checked.
struct StepEval
{
    QJsonObject json;
    QString state; ///< ready | blocked | unknown
    QJsonValue boundInput;
    QJsonArray boundPreconditions;
    QJsonValue boundSignature;
    QStringList missing;
};

StepEval evaluateStep(const QJsonObject &step, const QJsonObject &params,
                      const QJsonObject &defaults);

struct GateResult
{
    QJsonObject json;
    bool matched = false;
    bool rejected = false;
    QString effectiveMode;
};

/// The deterministic-replay gate (reference §7.4 candidate): matched ⇔ enabled, the version's
/// status allowed and the request's matchers / policy constraints equal to the version's.
GateResult evaluateGate(const PlaybookGate &gate, const NodeRecord &version,
                        const QString &requestedMode);

Error gateMismatch(const GateResult &g);

QJsonObject playbookHeader(const CallScope &cs, const NodeRecord &n);

/// Candidate quality: how well the version's steps are specified.
QJsonObject qualityOf(const QJsonArray &steps);

QString runEndClientId(const QString &runId);

/// A playbook run: the replay run node's metadata, its dispatch state and how it ended.
QJsonObject playbookRunJson(QSqlDatabase &db, const CallScope &cs, const NodeRecord &runNode);

/// Replay run nodes of a scope opened by a playbook run, by a json condition on their metadata.
Result<QVector<NodeRecord>> playbookRunNodes(QSqlDatabase &db, const CallScope &cs,
                                             const QString &extraWhere,
                                             const QVariantList &extraArgs, const QString &order,
                                             int limit);

} // namespace MemoryGraph::PlaybookSupport
