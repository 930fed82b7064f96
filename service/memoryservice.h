#pragma once

#include "service/api/assembleoutcome.h"
#include "service/api/backuptypes.h"
#include "service/api/browsetypes.h"
#include "service/api/chainreport.h"
#include "service/api/consolidationreport.h"
#include "service/api/decayreport.h"
#include "service/api/lifecycleoutcomes.h"
#include "service/api/lifecyclerequests.h"
#include "service/api/playbookgateway.h"
#include "service/api/playbookrequests.h"
#include "service/api/portability.h"
#include "service/api/progress.h"
#include "service/api/recalloutcome.h"
#include "service/api/recallrequest.h"
#include "service/api/replayrequests.h"
#include "service/api/replayviews.h"
#include "service/api/resolverequest.h"
#include "service/api/rulefeedbackrequest.h"
#include "service/api/tooloutcomes.h"
#include "service/api/toolrequests.h"
#include "service/api/writerequest.h"
#include "service/core/config.h"
#include "service/core/identity.h"
#include "service/core/records.h"
#include "service/core/result.h"
#include "service/embedding/embeddingprovider.h"

#include <QObject>

#include <memory>
#include <optional>

class QIODevice;
class QThreadPool;

namespace MemoryGraph {

class AutomationEngine;
class Database;
class EmbeddingBackfill;
class PlaybookGateway;
class ReplayEngine;
enum class WriteOrigin;
class IndexManager;
class PlaybookEngine;
class RecallAudit;

/// The one facade over the Memory Graph core. Thread-safe: HTTP workers and UI workers call it
/// concurrently. Every call is isolated by (tenant, scope).
class MemoryService : public QObject
{
    Q_OBJECT
public:
    /// Opens (and migrates) the store under config.dataDir. provider: the embedding provider to
    /// use; when null, the offline one named by config.embeddingProvider (none, fake, local).
    static Result<std::unique_ptr<MemoryService>>
    open(const ServiceConfig &config, std::unique_ptr<EmbeddingProvider> provider = {});
    ~MemoryService() override;

    const ServiceConfig &config() const { return m_config; }

    /// POST /v1/memory/write (spec §4.2). Client ids starting with "replay:" are refused (400):
    /// they are reserved for the replay routes.
    Result<WriteResult> write(const WriteRequest &request, const RequestMeta &meta);

    /// POST /v1/memory/recall (spec §4.3).
    Result<RecallOutcome> recall(const RecallRequest &request, const RequestMeta &meta);
    /// POST /v1/memory/recall_text (spec §4.4): embeds query_text, then recalls.
    Result<RecallOutcome> recallText(const RecallRequest &request, const RequestMeta &meta);

    /// POST /v1/memory/rules/evaluate (spec §4.7).
    Result<RulesEvaluateOutcome> evaluateRules(const RulesEvaluateRequest &request,
                                               const RequestMeta &meta);
    /// POST /v1/memory/rules/state: DRAFT, SHADOW, ACTIVE or DISABLED, audited as a commit; only
    /// shadow and active rules are evaluated.
    Result<RuleStateOutcome> setRuleState(const RuleStateRequest &request, const RequestMeta &meta);
    /// POST /v1/memory/tools/select (spec §4.8); persists a decision.
    Result<ToolSelectOutcome> selectTools(const ToolSelectRequest &request,
                                          const RequestMeta &meta);
    /// POST /v1/memory/tools/feedback (spec §4.9).
    Result<ToolFeedbackOutcome> toolFeedback(const ToolFeedbackRequest &request,
                                             const RequestMeta &meta);
    /// POST /v1/memory/tools/decision (spec §4.10).
    Result<DecisionLookup> toolDecision(const ToolDecisionRequest &request,
                                        const RequestMeta &meta);
    /// POST /v1/memory/tools/run (spec §4.11).
    Result<RunOutcome> toolRun(const ToolRunRequest &request, const RequestMeta &meta);
    /// POST /v1/memory/tools/runs/list (reference §3.5, with filters and paging).
    Result<RunListOutcome> toolRunsList(const ToolRunsListRequest &request,
                                        const RequestMeta &meta);

    /// POST /v1/memory/context/assemble (spec §4.13): recall + rules + optional tool selection
    /// (which persists a decision) + layered context.
    Result<AssembleOutcome> assembleContext(const AssembleRequest &request,
                                            const RequestMeta &meta);
    /// POST /v1/memory/resolve: a memorygraph:// URI back to its node, edge, commit or decision.
    Result<ResolveOutcome> resolveUri(const ResolveRequest &request, const RequestMeta &meta);
    /// POST /v1/memory/feedback: one outcome for one rule, audited as a rule_feedback commit.
    Result<RuleFeedbackOutcome> ruleFeedback(const RuleFeedbackRequest &request,
                                             const RequestMeta &meta);

    /// POST /v1/memory/archive/rehydrate (spec §4.5): moves nodes below target_tier up to it.
    Result<RehydrateOutcome> rehydrate(const RehydrateRequest &request, const RequestMeta &meta);
    /// POST /v1/memory/nodes/activate (spec §4.6): records usage and outcome signals.
    Result<NodesActivateOutcome> activateNodes(const NodesActivateRequest &request,
                                               const RequestMeta &meta);
    /// Operator edit of one node (DESIGN decision 4); a changed text is re-embedded.
    Result<NodeEditOutcome> editNode(const NodeEditRequest &request, const RequestMeta &meta);
    /// Operator removal of one node with its edges and vector (DESIGN decision 4).
    Result<NodeForgetOutcome> forgetNode(const NodeForgetRequest &request, const RequestMeta &meta);
    /// Vectors held by a scope's index, -1 when the index is not loaded (tests, diagnostics).
    qint64 indexedVectorCount(const QString &tenantId, const QString &scope) const;

    // Replay records (reference §7.1): ordinary nodes written through write().
    Result<ReplayWriteOutcome> replayRunStart(const ReplayRunStartRequest &request,
                                              const RequestMeta &meta);
    Result<ReplayWriteOutcome> replayStepBefore(const ReplayStepBeforeRequest &request,
                                                const RequestMeta &meta);
    Result<ReplayWriteOutcome> replayStepAfter(const ReplayStepAfterRequest &request,
                                               const RequestMeta &meta);
    Result<ReplayWriteOutcome> replayRunEnd(const ReplayRunEndRequest &request,
                                            const RequestMeta &meta);
    /// POST /v1/memory/replay/runs/get (spec §4.12): what the consumer's lanes show.
    Result<ReplayRunView> replayRunGet(const ReplayRunGetRequest &request, const RequestMeta &meta);
    /// Replay reads for the console (every lane), newest run first.
    Result<QVector<ReplayRunSummary>> listReplayRuns(const QString &tenantId, const QString &scope,
                                                     int limit = 200) const;
    Result<ReplayRunView> replayRun(const QString &tenantId, const QString &scope,
                                    const QString &runId) const;

    /// POST /v1/automations/<path> (spec §4.14, reference §8): every automation route, by its
    /// path under /v1/automations/ ("create", "runs/get", ...). 404 not_found for another path.
    Result<QJsonObject> automation(const QString &path, const QJsonObject &body,
                                   const RequestMeta &meta);
    /// Blocks until the automation runs a previous process left queued or running have been
    /// resumed (done off the opening thread at open); tests.
    bool waitForAutomationRecovery(int timeoutMs);

    // Replay playbooks (reference §7.4): each version is a replay node written through write().
    Result<PlaybookOutcome> playbookCompile(const PlaybookCompileRequest &request,
                                            const RequestMeta &meta);
    Result<PlaybookOutcome> playbookGet(const PlaybookGetRequest &request, const RequestMeta &meta);
    Result<PlaybookOutcome> playbookCandidate(const PlaybookCandidateRequest &request,
                                              const RequestMeta &meta);
    Result<PlaybookOutcome> playbookPromote(const PlaybookPromoteRequest &request,
                                            const RequestMeta &meta);
    Result<PlaybookOutcome> playbookRepair(const PlaybookRepairRequest &request,
                                           const RequestMeta &meta);
    Result<PlaybookOutcome> playbookReview(const PlaybookReviewRequest &request,
                                           const RequestMeta &meta);
    Result<PlaybookOutcome> playbookRun(const PlaybookRunRequest &request, const RequestMeta &meta);
    Result<PlaybookOutcome> playbookDispatch(const PlaybookDispatchRequest &request,
                                             const RequestMeta &meta);
    /// What automations run playbooks through (valid while this service lives).
    std::unique_ptr<PlaybookGateway> playbookGateway();
    /// Console: the latest version of each playbook of a scope (every lane), newest first.
    Result<QVector<PlaybookSummary>> listPlaybooks(const QString &tenantId,
                                                   const QString &scope) const;

    // Reads for the rules and decisions views.
    Result<QVector<RuleSummary>> listRules(const QString &tenantId, const QString &scope) const;
    Result<QVector<DecisionRecord>> listDecisions(const DecisionQuery &query) const;
    Result<QVector<FeedbackRecord>> feedbackForDecision(const QString &tenantId,
                                                        const QString &scope,
                                                        const QString &decisionId) const;

    /// Name of the embedding provider ("none" when there is none).
    QString embeddingProviderName() const;
    /// Blocks until the background embedder has nothing pending (tests, benchmark).
    bool waitForEmbeddings(int timeoutMs);
    /// Writes vector indexes to disk (also done on shutdown).
    void saveIndexes();
    /// Blocks until every vector index holds what was written (tests, benchmark). No request
    /// needs this: searches score what the index has not taken in yet exactly.
    void waitForIndexes();

    // Reads for the admin console (the operator sees every tenant).
    QVector<ScopeSummary> listScopes() const;
    Result<NodePage> listNodes(const NodeQuery &query) const;
    Result<NodeDetail> nodeDetail(const QString &tenantId, const QString &scope,
                                  const QString &nodeId) const;
    /// Breadth-first neighbourhood of centreIds (any lane: this is the operator's view).
    Result<GraphNeighbourhood> neighbourhood(const QString &tenantId, const QString &scope,
                                             const QStringList &centreIds, int hops = 1,
                                             int maxNodes = 300) const;
    /// The scope's most salient nodes (every lane, as the other console reads), most salient
    /// first, then the most recently changed: ranks offset .. offset + limit - 1, limit
    /// clamped to 1 .. MaxSalientBatch.
    Result<SalientNodePage> salientNodes(const QString &tenantId, const QString &scope,
                                         int offset = 0, int limit = 25) const;
    static constexpr int MaxSalientBatch = 500;
    Result<QVector<CommitRecord>> listCommits(const QString &tenantId, const QString &scope,
                                              int offset = 0, int limit = 200) const;
    HealthInfo health() const;

    // Operator maintenance jobs (no HTTP routes). Each emits committed() for a commit it writes.
    /// Adaptive decay of one scope as of `now` (invalid = the current time); reference §6.3.
    Result<DecayReport> runAdaptiveDecay(const QString &tenantId, const QString &scope,
                                         const QDateTime &now = QDateTime());
    /// Adaptive decay of every scope in the store (the scheduled job).
    DecaySweep runAdaptiveDecayAllScopes(const QDateTime &now = QDateTime());
    /// Offline consolidation of duplicates; a dry run unless apply (then one commit). progress
    /// sees stages "reading nodes", "comparing embeddings" (done/total in nodes) and "applying";
    /// cancelled, it writes nothing.
    Result<ConsolidationReport> consolidate(const QString &tenantId, const QString &scope,
                                            bool apply, const ProgressCallback &progress = {});
    /// Recomputes the scope's commit hash chain and reports the first break. progress sees stage
    /// "verifying commits" (done/total in commits).
    Result<ChainReport> verifyChain(const QString &tenantId, const QString &scope,
                                    const ProgressCallback &progress = {}) const;

    // Backup and restore of the whole store (service/backup). A backup is one SQLite file; the
    // vector indexes are not in it: they are rebuilt from the store after a restore.
    /// Copies the store as it is now to targetFile while the service goes on serving writes:
    /// stages "copying pages" and "checking"; targetFile appears only complete and checked.
    Result<BackupOutcome> backup(const QString &targetFile,
                                 const ProgressCallback &progress = {}) const;
    /// backup() for the store of a data folder this process has not opened, whether another
    /// process serves it or nobody does (the command line).
    static Result<BackupOutcome> backupDataDir(const QString &dataDir, const QString &targetFile,
                                               const ProgressCallback &progress = {});
    /// Replaces the store of a data folder that nobody has open (the caller holds its lock)
    /// with the backup sourceFile, after checking it; the previous store is kept beside it.
    static Result<RestoreOutcome> restoreDataDir(const QString &dataDir, const QString &sourceFile,
                                                 const ProgressCallback &progress = {});
    /// Swaps in the restore scheduleRestore() prepared, if any. Call with the folder's lock held,
    /// before open().
    static Result<std::optional<RestoreOutcome>> applyPendingRestore(const QString &dataDir);
    /// Prepares a restore of this store from sourceFile for the next start (the running
    /// service keeps its store): the file is copied into the data folder and checked now.
    Result<PendingRestore> scheduleRestore(const QString &sourceFile,
                                           const ProgressCallback &progress = {});
    /// The restore waiting for the next start, if any.
    std::optional<PendingRestore> pendingRestore() const;
    void discardPendingRestore();

    // Export and import of a scope (docs/export-format.md). Operator operations: every lane.
    /// Writes the scope to `out` as an export file, streamed from one read snapshot. 404 when
    /// the scope holds nothing; `cancelled` when progress asks to stop (`out` is then partial).
    Result<ExportOutcome> exportScope(const ExportRequest &request, QIODevice *out,
                                      const ProgressCallback &progress = {}) const;
    /// The same into the file at `path`, owner-only, which appears complete or not at all.
    Result<ExportOutcome> exportScopeToFile(const ExportRequest &request, const QString &path,
                                            const ProgressCallback &progress = {}) const;
    /// Imports an export file read from `in` (seekable): the whole file is checked first, then
    /// one commit of kind "import" per batch in one transaction (a cancel or failure writes
    /// nothing). A dry run writes nothing and reports what would be added and what conflicts;
    /// a real import with conflicts under the preserve policies is refused (409
    /// import_conflict). Emits committed() for each commit.
    Result<ImportReport> importScope(const ImportRequest &request, QIODevice *in,
                                     const RequestMeta &meta,
                                     const ProgressCallback &progress = {});
    /// The same from the file at `path`.
    Result<ImportReport> importScopeFromFile(const ImportRequest &request, const QString &path,
                                             const RequestMeta &meta,
                                             const ProgressCallback &progress = {});

signals:
    /// Emitted from the writing thread after a commit is durable.
    void committed(const QString &tenantId, const QString &scope, const QString &commitId);
    /// Emitted after tools/select or tools/feedback stored a decision.
    void decisionRecorded(const QString &tenantId, const QString &scope, const QString &decisionId);

private:
    MemoryService(const ServiceConfig &config, std::unique_ptr<Database> db,
                  std::unique_ptr<EmbeddingProvider> provider);

    /// The write path behind write() and the replay records; mirrors vectors into the indexes
    /// and emits committed().
    Result<WriteResult> commitWrite(const WriteRequest &request, const RequestMeta &meta,
                                    WriteOrigin origin);
    /// Replay records are written through commitWrite() with their reserved client ids.
    ReplayEngine replayWriter();
    /// Playbook versions and the runs they open are written the same way.
    PlaybookEngine playbooks();

    ServiceConfig m_config;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<IndexManager> m_indexes;
    std::unique_ptr<EmbeddingProvider> m_provider;
    std::unique_ptr<RecallAudit> m_audit;
    std::unique_ptr<QThreadPool> m_textChannels; ///< recall's text channels run here
    std::unique_ptr<EmbeddingBackfill> m_backfill;
    /// What automation playbook nodes run through (the replay playbooks module).
    std::unique_ptr<PlaybookGateway> m_playbooks;
    std::unique_ptr<AutomationEngine> m_automation;
};

} // namespace MemoryGraph
