#pragma once

#include "service/access/callscope.h"
#include "service/api/playbookgateway.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/result.h"

#include <QHash>
#include <QJsonObject>
#include <QStringList>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

class QThread;

namespace MemoryGraph {

class Database;

/// Automations (spec §4.14, reference §8): definitions and versions, graph validation, runs
/// driven strictly in topological order, approval and repair pauses, compensation, shadow
/// review and promotion, telemetry. Every run and node transition is a commit in the run's
/// scope, written in the transaction that changes the row, so a run survives the process:
/// startRecovery() resumes queued, running and compensating runs from their last committed
/// node state. Playbook nodes go through the PlaybookGateway only.
///
/// Long-lived (one per MemoryService) and thread-safe: each run is driven under its own lock.
class AutomationEngine
{
public:
    /// Called after each commit (tenant, scope, commit id), from the writing thread.
    using CommitNotifier = std::function<void(const QString &, const QString &, const QString &)>;

    AutomationEngine(Database &db, const ServiceConfig &config, PlaybookGateway *gateway,
                     CommitNotifier notify = {});
    ~AutomationEngine();

    AutomationEngine(const AutomationEngine &) = delete;
    AutomationEngine &operator=(const AutomationEngine &) = delete;

    /// The route paths under /v1/automations/ (spec §4.14 and shadow/review).
    static const QStringList &routePaths();
    /// Routes that change nothing (the recall rate class).
    static bool isReadRoute(const QString &path);

    /// One call of /v1/automations/<path>; 404 not_found for an unknown path.
    Result<QJsonObject> call(const QString &path, const QJsonObject &body, const RequestMeta &meta);

    /// A replay run a playbook node waits for (outcome "pending") ended: success → the node
    /// succeeds and the run goes on; partial → repair pause; failed → the node fails. A replay
    /// run no node waits for is ignored.
    void onReplayRunEnded(const CallScope &scope, const QString &replayRunId, const QString &status,
                          const RequestMeta &meta);

    /// Resumes queued, running and compensating runs of every scope on a thread of its own;
    /// paused runs stay paused. Returns at once.
    void startRecovery();
    /// Blocks until the recovery pass is over (tests); false on timeout.
    bool waitForRecovery(int timeoutMs);

    /// Test hook: called (run id, event) after each committed run transition, on the driving
    /// thread, with the run's lock held.
    void setTransitionHook(std::function<void(const QString &, const QString &)> hook);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace MemoryGraph
