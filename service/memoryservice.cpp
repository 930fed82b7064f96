#include "service/memoryservice.h"

#include "service/api/playbookgateway.h"
#include "service/assemble/assembleengine.h"
#include "service/automation/automationengine.h"
#include "service/backup/storebackup.h"
#include "service/backup/storefiles.h"
#include "service/backup/storerestore.h"
#include "service/core/ids.h"
#include "service/core/privatefiles.h"
#include "service/core/vocabulary.h"
#include "service/embedding/embeddingbackfill.h"
#include "service/embedding/embeddingprovider.h"
#include "service/index/indexmanager.h"
#include "service/lifecycle/chainverifier.h"
#include "service/lifecycle/consolidationjob.h"
#include "service/lifecycle/decayjob.h"
#include "service/lifecycle/lifecycleengine.h"
#include "service/playbooks/playbookengine.h"
#include "service/portability/scopeexporter.h"
#include "service/portability/scopeimporter.h"
#include "service/recall/recallaudit.h"
#include "service/recall/recallengine.h"
#include "service/replay/replayengine.h"
#include "service/resolve/resolveengine.h"
#include "service/rules/rulefeedback.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/recallstore.h"
#include "service/storage/rulestore.h"
#include "service/tools/toolengine.h"
#include "service/write/writeengine.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSaveFile>
#include <QSet>
#include <QThreadPool>

namespace MemoryGraph {

MemoryService::MemoryService(const ServiceConfig &config, std::unique_ptr<Database> db,
                             std::unique_ptr<EmbeddingProvider> provider)
    : m_config(config), m_db(std::move(db)),
      m_indexes(std::make_unique<IndexManager>(*m_db, StoreFiles::indexFolder(config.dataDir))),
      m_provider(std::move(provider)), m_audit(std::make_unique<RecallAudit>(*m_db)),
      m_textChannels(std::make_unique<QThreadPool>())
{
    // Recall's text channels keep their threads, and so their connections to the store with
    // the prepared statements and page cache: a new thread per question would open the store
    // and parse every statement again.
    m_textChannels->setExpiryTimeout(-1);
    if (m_provider) {
        m_backfill = std::make_unique<EmbeddingBackfill>(*m_db, *m_indexes, *m_provider);
        m_backfill->start();
    }
    m_indexes->warmUp();
    m_playbooks = playbookGateway();
    m_automation = std::make_unique<AutomationEngine>(
        *m_db, m_config, m_playbooks.get(),
        [this](const QString &tenantId, const QString &scope, const QString &commitId) {
            emit committed(tenantId, scope, commitId);
        });
    // Runs the last process left queued or running go on from their last committed node
    // state, on a thread of their own: no caller waits for them.
    m_automation->startRecovery();
}

MemoryService::~MemoryService()
{
    m_automation.reset();
    // Order matters: stop producing vectors, then persist the indexes, then close the store.
    m_backfill.reset();
    m_textChannels.reset(); // its threads' connections close before the store does
    m_audit.reset();
    m_indexes.reset();
}

Result<std::unique_ptr<MemoryService>>
MemoryService::open(const ServiceConfig &config, std::unique_ptr<EmbeddingProvider> provider)
{
    if (config.dataDir.isEmpty())
        return Error::make(400, QStringLiteral("invalid_configuration"),
                           QStringLiteral("no data directory configured"));
    if (auto folder = PrivateFiles::ensureFolder(config.dataDir); !folder)
        return folder.error();
    if (!provider) {
        auto offline = makeOfflineEmbeddingProvider(config);
        if (!offline)
            return offline.error();
        provider = std::move(offline).value();
    }
    auto db = Database::open(StoreFiles::databasePath(config.dataDir));
    if (!db)
        return db.error();
    return std::unique_ptr<MemoryService>(
        new MemoryService(config, std::move(db).value(), std::move(provider)));
}

Result<WriteResult> MemoryService::write(const WriteRequest &request, const RequestMeta &meta)
{
    return commitWrite(request, meta, WriteOrigin::Api);
}

Result<WriteResult> MemoryService::commitWrite(const WriteRequest &request, const RequestMeta &meta,
                                               WriteOrigin origin)
{
    WriteEngine engine(*m_db, m_config, m_provider != nullptr);
    auto result = [&] {
        const IndexManager::RequestInFlight writing(*m_indexes,
                                                    IndexManager::RequestInFlight::Write);
        return engine.write(request, meta, origin);
    }();
    if (!result || result.value().replayed)
        return result;
    for (const EmbeddingChange &c : result.value().embeddingChanges)
        m_indexes->apply(c.tenantId, c.scope, c.label, c.version, c.vector);
    if (result.value().pendingEmbeddings > 0 && m_backfill)
        m_backfill->wake();
    emit committed(result.value().tenantId, result.value().scope, result.value().commitId);
    return result;
}

Result<RecallOutcome> MemoryService::recall(const RecallRequest &request, const RequestMeta &meta)
{
    RecallEngine engine(*m_db, *m_indexes, *m_audit, *m_textChannels, m_config);
    return engine.recall(request, request.queryEmbedding, meta, QStringLiteral("recall"));
}

Result<RecallOutcome> MemoryService::recallText(const RecallRequest &request,
                                                const RequestMeta &meta)
{
    // A call refused for its tenant or identity must not spend an embedding.
    if (auto admitted = RecallEngine::admit(request, meta, m_config); !admitted)
        return admitted.error();
    if (!m_provider)
        return Error::make(400, QStringLiteral("no_embedding_provider"),
                           QStringLiteral("Configure EMBEDDING_PROVIDER to use recall_text."));
    QElapsedTimer embedTimer;
    embedTimer.start();
    auto vectors = m_provider->embed({request.queryText});
    if (!vectors)
        return vectors.error();
    if (vectors.value().size() != 1)
        return Error::make(502, QStringLiteral("upstream_embedding_bad_response"),
                           QStringLiteral("the embedding provider returned no vector"));
    const double embedMs = double(embedTimer.nsecsElapsed()) / 1e6;
    RecallEngine engine(*m_db, *m_indexes, *m_audit, *m_textChannels, m_config);
    auto outcome
        = engine.recall(request, vectors.value().first(), meta, QStringLiteral("recall_text"));
    if (outcome) {
        outcome.value().queryText = request.queryText;
        outcome.value().embeddingProvider = m_provider->name();
        outcome.value().timings.embedQuery = embedMs;
    }
    return outcome;
}

Result<RulesEvaluateOutcome> MemoryService::evaluateRules(const RulesEvaluateRequest &request,
                                                          const RequestMeta &meta)
{
    return ToolEngine(*m_db, m_config).evaluate(request, meta);
}

Result<RuleStateOutcome> MemoryService::setRuleState(const RuleStateRequest &request,
                                                     const RequestMeta &meta)
{
    auto outcome = ToolEngine(*m_db, m_config).setRuleState(request, meta);
    if (outcome)
        emit committed(outcome.value().scope.tenantId, outcome.value().scope.scope,
                       outcome.value().commit.id);
    return outcome;
}

Result<ToolSelectOutcome> MemoryService::selectTools(const ToolSelectRequest &request,
                                                     const RequestMeta &meta)
{
    auto outcome = ToolEngine(*m_db, m_config).select(request, meta);
    if (outcome)
        emit decisionRecorded(outcome.value().scope.tenantId, outcome.value().scope.scope,
                              outcome.value().decision.id);
    return outcome;
}

Result<ToolFeedbackOutcome> MemoryService::toolFeedback(const ToolFeedbackRequest &request,
                                                        const RequestMeta &meta)
{
    auto outcome = ToolEngine(*m_db, m_config).feedback(request, meta);
    if (outcome) {
        emit committed(outcome.value().scope.tenantId, outcome.value().scope.scope,
                       outcome.value().commit.id);
        emit decisionRecorded(outcome.value().scope.tenantId, outcome.value().scope.scope,
                              outcome.value().decision.id);
    }
    return outcome;
}

Result<DecisionLookup> MemoryService::toolDecision(const ToolDecisionRequest &request,
                                                   const RequestMeta &meta)
{
    return ToolEngine(*m_db, m_config).decision(request, meta);
}

Result<RunOutcome> MemoryService::toolRun(const ToolRunRequest &request, const RequestMeta &meta)
{
    return ToolEngine(*m_db, m_config).run(request, meta);
}

Result<RunListOutcome> MemoryService::toolRunsList(const ToolRunsListRequest &request,
                                                   const RequestMeta &meta)
{
    return ToolEngine(*m_db, m_config).listRuns(request, meta);
}

Result<AssembleOutcome> MemoryService::assembleContext(const AssembleRequest &request,
                                                       const RequestMeta &meta)
{
    auto outcome
        = AssembleEngine(*m_db, *m_indexes, *m_audit, *m_textChannels, m_provider.get(), m_config)
              .assemble(request, meta);
    if (outcome && outcome.value().tools)
        emit decisionRecorded(outcome.value().scope.tenantId, outcome.value().scope.scope,
                              outcome.value().tools->decision.id);
    return outcome;
}

Result<ResolveOutcome> MemoryService::resolveUri(const ResolveRequest &request,
                                                 const RequestMeta &meta)
{
    return ResolveEngine(*m_db, m_config).resolve(request, meta);
}

Result<RuleFeedbackOutcome> MemoryService::ruleFeedback(const RuleFeedbackRequest &request,
                                                        const RequestMeta &meta)
{
    auto outcome = RuleFeedbackEngine(*m_db, m_config).record(request, meta);
    if (outcome)
        emit committed(outcome.value().scope.tenantId, outcome.value().scope.scope,
                       outcome.value().commit.id);
    return outcome;
}

Result<RehydrateOutcome> MemoryService::rehydrate(const RehydrateRequest &request,
                                                  const RequestMeta &meta)
{
    auto outcome = LifecycleEngine(*m_db, m_config, m_provider != nullptr).rehydrate(request, meta);
    if (outcome && outcome.value().commit)
        emit committed(outcome.value().scope.tenantId, outcome.value().scope.scope,
                       outcome.value().commit->id);
    return outcome;
}

Result<NodesActivateOutcome> MemoryService::activateNodes(const NodesActivateRequest &request,
                                                          const RequestMeta &meta)
{
    auto outcome = LifecycleEngine(*m_db, m_config, m_provider != nullptr).activate(request, meta);
    if (outcome && outcome.value().commit)
        emit committed(outcome.value().scope.tenantId, outcome.value().scope.scope,
                       outcome.value().commit->id);
    return outcome;
}

Result<NodeEditOutcome> MemoryService::editNode(const NodeEditRequest &request,
                                                const RequestMeta &meta)
{
    auto outcome = LifecycleEngine(*m_db, m_config, m_provider != nullptr).edit(request, meta);
    if (!outcome || !outcome.value().commit)
        return outcome;
    for (const EmbeddingChange &c : outcome.value().embeddingChanges)
        m_indexes->apply(c.tenantId, c.scope, c.label, c.version, c.vector);
    if (outcome.value().node.embeddingStatus == QLatin1String("pending") && m_backfill)
        m_backfill->wake();
    emit committed(outcome.value().scope.tenantId, outcome.value().scope.scope,
                   outcome.value().commit->id);
    return outcome;
}

Result<NodeForgetOutcome> MemoryService::forgetNode(const NodeForgetRequest &request,
                                                    const RequestMeta &meta)
{
    auto outcome = LifecycleEngine(*m_db, m_config, m_provider != nullptr).forget(request, meta);
    if (!outcome)
        return outcome;
    for (const EmbeddingChange &c : outcome.value().embeddingChanges)
        m_indexes->apply(c.tenantId, c.scope, c.label, c.version, c.vector);
    emit committed(outcome.value().scope.tenantId, outcome.value().scope.scope,
                   outcome.value().commit.id);
    return outcome;
}

qint64 MemoryService::indexedVectorCount(const QString &tenantId, const QString &scope) const
{
    return m_indexes->indexedCount(tenantId, scope);
}

ReplayEngine MemoryService::replayWriter()
{
    // Replay records go through the write path, so indexes and committed() follow as for any
    // write; only here may they use the reserved "replay:" client ids.
    return ReplayEngine(*m_db, m_config,
                        [this](const WriteRequest &request, const RequestMeta &meta) {
                            return commitWrite(request, meta, WriteOrigin::Replay);
                        });
}

Result<ReplayWriteOutcome> MemoryService::replayRunStart(const ReplayRunStartRequest &request,
                                                         const RequestMeta &meta)
{
    return replayWriter().runStart(request, meta);
}

Result<ReplayWriteOutcome> MemoryService::replayStepBefore(const ReplayStepBeforeRequest &request,
                                                           const RequestMeta &meta)
{
    return replayWriter().stepBefore(request, meta);
}

Result<ReplayWriteOutcome> MemoryService::replayStepAfter(const ReplayStepAfterRequest &request,
                                                          const RequestMeta &meta)
{
    return replayWriter().stepAfter(request, meta);
}

Result<ReplayWriteOutcome> MemoryService::replayRunEnd(const ReplayRunEndRequest &request,
                                                       const RequestMeta &meta)
{
    auto outcome = replayWriter().runEnd(request, meta);
    // An automation playbook node may be waiting for this replay run.
    if (outcome)
        m_automation->onReplayRunEnded(outcome.value().scope, outcome.value().runId,
                                       outcome.value().status, meta);
    return outcome;
}

Result<QJsonObject> MemoryService::automation(const QString &path, const QJsonObject &body,
                                              const RequestMeta &meta)
{
    return m_automation->call(path, body, meta);
}

bool MemoryService::waitForAutomationRecovery(int timeoutMs)
{
    return m_automation->waitForRecovery(timeoutMs);
}

Result<ReplayRunView> MemoryService::replayRunGet(const ReplayRunGetRequest &request,
                                                  const RequestMeta &meta)
{
    return ReplayEngine(*m_db, m_config).runGet(request, meta);
}

Result<QVector<ReplayRunSummary>>
MemoryService::listReplayRuns(const QString &tenantId, const QString &scope, int limit) const
{
    return ReplayEngine(*m_db, m_config).listRuns(tenantId, scope, limit);
}

Result<ReplayRunView> MemoryService::replayRun(const QString &tenantId, const QString &scope,
                                               const QString &runId) const
{
    return ReplayEngine(*m_db, m_config).run(tenantId, scope, runId);
}

PlaybookEngine MemoryService::playbooks()
{
    return PlaybookEngine(*m_db, m_config,
                          [this](const WriteRequest &request, const RequestMeta &meta) {
                              return commitWrite(request, meta, WriteOrigin::Replay);
                          });
}

Result<PlaybookOutcome> MemoryService::playbookCompile(const PlaybookCompileRequest &request,
                                                       const RequestMeta &meta)
{
    return playbooks().compileFromRun(request, meta);
}

Result<PlaybookOutcome> MemoryService::playbookGet(const PlaybookGetRequest &request,
                                                   const RequestMeta &meta)
{
    return playbooks().get(request, meta);
}

Result<PlaybookOutcome> MemoryService::playbookCandidate(const PlaybookCandidateRequest &request,
                                                         const RequestMeta &meta)
{
    return playbooks().candidate(request, meta);
}

Result<PlaybookOutcome> MemoryService::playbookPromote(const PlaybookPromoteRequest &request,
                                                       const RequestMeta &meta)
{
    return playbooks().promote(request, meta);
}

Result<PlaybookOutcome> MemoryService::playbookRepair(const PlaybookRepairRequest &request,
                                                      const RequestMeta &meta)
{
    return playbooks().repair(request, meta);
}

Result<PlaybookOutcome> MemoryService::playbookReview(const PlaybookReviewRequest &request,
                                                      const RequestMeta &meta)
{
    return playbooks().review(request, meta);
}

Result<PlaybookOutcome> MemoryService::playbookRun(const PlaybookRunRequest &request,
                                                   const RequestMeta &meta)
{
    return playbooks().run(request, meta);
}

Result<PlaybookOutcome> MemoryService::playbookDispatch(const PlaybookDispatchRequest &request,
                                                        const RequestMeta &meta)
{
    return playbooks().dispatch(request, meta);
}

std::unique_ptr<PlaybookGateway> MemoryService::playbookGateway()
{
    return std::make_unique<PlaybookEngine>(playbooks());
}

Result<QVector<PlaybookSummary>> MemoryService::listPlaybooks(const QString &tenantId,
                                                              const QString &scope) const
{
    return PlaybookEngine(*m_db, m_config).list(tenantId, scope);
}

Result<QVector<RuleSummary>> MemoryService::listRules(const QString &tenantId,
                                                      const QString &scope) const
{
    auto conn = m_db->connection();
    if (!conn)
        return conn.error();
    auto rules = RuleStore::rules(conn.value(), tenantId, scope, Vocabulary::ruleStates(), 100000);
    if (!rules)
        return rules.error();
    QVector<RuleSummary> out;
    for (const RuleStore::StoredRule &r : rules.value())
        out.append({r.node, r.status});
    return out;
}

Result<QVector<DecisionRecord>> MemoryService::listDecisions(const DecisionQuery &query) const
{
    auto conn = m_db->connection();
    if (!conn)
        return conn.error();
    RuleStore::DecisionFilter f;
    f.tenantId = query.tenantId;
    f.scope = query.scope;
    f.runId = query.runId;
    f.tool = query.tool;
    f.sinceMs = query.since.isValid() ? query.since.toMSecsSinceEpoch() : 0;
    f.limit = query.limit;
    return RuleStore::listDecisions(conn.value(), f);
}

Result<QVector<FeedbackRecord>> MemoryService::feedbackForDecision(const QString &tenantId,
                                                                   const QString &scope,
                                                                   const QString &decisionId) const
{
    auto conn = m_db->connection();
    if (!conn)
        return conn.error();
    return RuleStore::feedbackWhere(conn.value(), tenantId, scope, QStringLiteral("decision_id"),
                                    decisionId, 500);
}

QString MemoryService::embeddingProviderName() const
{
    return m_provider ? m_provider->name() : QStringLiteral("none");
}

bool MemoryService::waitForEmbeddings(int timeoutMs)
{
    return !m_backfill || m_backfill->waitUntilIdle(timeoutMs);
}

void MemoryService::saveIndexes()
{
    m_indexes->saveAll();
}

void MemoryService::waitForIndexes()
{
    m_indexes->waitForDrains();
}

QVector<ScopeSummary> MemoryService::listScopes() const
{
    auto conn = m_db->connection();
    if (!conn)
        return {};
    auto scopes = GraphStore::listScopes(conn.value());
    return scopes ? scopes.value() : QVector<ScopeSummary>();
}

Result<NodePage> MemoryService::listNodes(const NodeQuery &query) const
{
    auto conn = m_db->connection();
    if (!conn)
        return conn.error();
    NodePage page;
    auto nodes = GraphStore::listNodes(conn.value(), query, &page.total);
    if (!nodes)
        return nodes.error();
    page.nodes = nodes.value();
    return page;
}

Result<NodeDetail> MemoryService::nodeDetail(const QString &tenantId, const QString &scope,
                                             const QString &nodeId) const
{
    auto conn = m_db->connection();
    if (!conn)
        return conn.error();
    auto node = GraphStore::findNode(conn.value(), nodeId);
    if (!node)
        return node.error();
    if (!node.value() || node.value()->tenantId != tenantId || node.value()->scope != scope)
        return Error::notFound(QStringLiteral("no such node in this scope"));
    auto edges = GraphStore::edgesOfNode(conn.value(), nodeId);
    if (!edges)
        return edges.error();
    return NodeDetail{*node.value(), edges.value()};
}

Result<GraphNeighbourhood> MemoryService::neighbourhood(const QString &tenantId,
                                                        const QString &scope,
                                                        const QStringList &centreIds, int hops,
                                                        int maxNodes) const
{
    auto conn = m_db->connection();
    if (!conn)
        return conn.error();
    QSqlDatabase db = conn.value();
    GraphNeighbourhood out;
    QStringList order;
    QSet<QString> seen;
    for (const QString &id : centreIds) {
        if (!seen.contains(id) && order.size() < maxNodes) {
            seen.insert(id);
            order << id;
        }
    }
    QStringList frontier = order;
    QHash<QString, EdgeRecord> edges;
    for (int hop = 0; hop < hops && !frontier.isEmpty(); ++hop) {
        auto found = RecallStore::edgesAround(db, tenantId, scope, frontier, 0.0, 0.0, 5000);
        if (!found)
            return found.error();
        QStringList next;
        for (const EdgeRecord &e : found.value()) {
            edges.insert(e.id, e);
            for (const QString &id : {e.fromId, e.toId}) {
                if (seen.contains(id))
                    continue;
                if (order.size() >= maxNodes) {
                    out.truncated = true;
                    continue;
                }
                seen.insert(id);
                order << id;
                next << id;
            }
        }
        frontier = next;
    }
    auto nodes = RecallStore::nodesByIds(db, tenantId, scope, order);
    if (!nodes)
        return nodes.error();
    QHash<QString, NodeRecord> byId;
    for (const NodeRecord &n : nodes.value())
        byId.insert(n.id, n);
    for (const QString &id : order) {
        if (byId.contains(id))
            out.nodes.append(byId.value(id));
    }
    for (const EdgeRecord &e : std::as_const(edges)) {
        if (byId.contains(e.fromId) && byId.contains(e.toId))
            out.edges.append(e);
    }
    return out;
}

Result<SalientNodePage> MemoryService::salientNodes(const QString &tenantId, const QString &scope,
                                                    int offset, int limit) const
{
    auto conn = m_db->connection();
    if (!conn)
        return conn.error();
    QSqlDatabase db = conn.value();
    offset = qMax(0, offset);
    limit = qBound(1, limit, MaxSalientBatch);
    SalientNodePage page;
    auto total = GraphStore::countNodesInScope(db, tenantId, scope);
    if (!total)
        return total.error();
    page.total = total.value();
    auto nodes = GraphStore::mostSalientNodes(db, tenantId, scope, offset, limit);
    if (!nodes)
        return nodes.error();
    page.nodes = nodes.value();
    QStringList batchIds;
    for (const NodeRecord &n : std::as_const(page.nodes))
        batchIds << n.id;
    auto edges = GraphStore::edgesWithinSalientRanks(db, tenantId, scope, batchIds,
                                                     offset + int(page.nodes.size()));
    if (!edges)
        return edges.error();
    page.edges = edges.value();
    return page;
}

Result<QVector<CommitRecord>> MemoryService::listCommits(const QString &tenantId,
                                                         const QString &scope, int offset,
                                                         int limit) const
{
    auto conn = m_db->connection();
    if (!conn)
        return conn.error();
    auto commits = GraphStore::listCommits(conn.value(), tenantId, scope, offset, limit);
    if (!commits)
        return commits.error();
    for (CommitRecord &c : commits.value())
        c.uri = recordUri(c.tenantId, c.scope, QStringLiteral("commit"), c.id);
    return commits;
}

Result<DecayReport> MemoryService::runAdaptiveDecay(const QString &tenantId, const QString &scope,
                                                    const QDateTime &now)
{
    auto report = DecayJob(*m_db, m_config)
                      .run(tenantId, scope, now.isValid() ? now : QDateTime::currentDateTimeUtc());
    if (report && report.value().committed())
        emit committed(tenantId, scope, report.value().commitId);
    return report;
}

DecaySweep MemoryService::runAdaptiveDecayAllScopes(const QDateTime &now)
{
    // One "now" for the whole sweep, so every scope decays by the same clock.
    const QDateTime at = now.isValid() ? now : QDateTime::currentDateTimeUtc();
    DecaySweep sweep;
    for (const ScopeSummary &s : listScopes()) {
        auto report = runAdaptiveDecay(s.tenantId, s.scope, at);
        if (report)
            sweep.reports.append(report.value());
        else
            sweep.failures << s.tenantId + QStringLiteral(" / ") + s.scope + QStringLiteral(": ")
                                  + report.error().message;
    }
    return sweep;
}

Result<ConsolidationReport> MemoryService::consolidate(const QString &tenantId,
                                                       const QString &scope, bool apply,
                                                       const ProgressCallback &progress)
{
    auto report
        = ConsolidationJob(*m_db, *m_indexes, m_config).run(tenantId, scope, apply, progress);
    if (report && !report.value().commitId.isEmpty())
        emit committed(tenantId, scope, report.value().commitId);
    return report;
}

Result<ChainReport> MemoryService::verifyChain(const QString &tenantId, const QString &scope,
                                               const ProgressCallback &progress) const
{
    return ChainVerifier(*m_db, m_config).verify(tenantId, scope, progress);
}

Result<BackupOutcome> MemoryService::backup(const QString &targetFile,
                                            const ProgressCallback &progress) const
{
    return StoreBackup::run(m_db->filePath(), targetFile, progress);
}

Result<BackupOutcome> MemoryService::backupDataDir(const QString &dataDir,
                                                   const QString &targetFile,
                                                   const ProgressCallback &progress)
{
    return StoreBackup::run(StoreFiles::databasePath(dataDir), targetFile, progress);
}

Result<RestoreOutcome> MemoryService::restoreDataDir(const QString &dataDir,
                                                     const QString &sourceFile,
                                                     const ProgressCallback &progress)
{
    return StoreRestore::restore(dataDir, sourceFile, progress);
}

Result<std::optional<RestoreOutcome>> MemoryService::applyPendingRestore(const QString &dataDir)
{
    return StoreRestore::applyPending(dataDir);
}

Result<PendingRestore> MemoryService::scheduleRestore(const QString &sourceFile,
                                                      const ProgressCallback &progress)
{
    return StoreRestore::schedule(m_config.dataDir, sourceFile, progress);
}

std::optional<PendingRestore> MemoryService::pendingRestore() const
{
    return StoreRestore::pending(m_config.dataDir);
}

void MemoryService::discardPendingRestore()
{
    StoreRestore::discardPending(m_config.dataDir);
}

Result<ExportOutcome> MemoryService::exportScope(const ExportRequest &request, QIODevice *out,
                                                 const ProgressCallback &progress) const
{
    return ScopeExporter(*m_db, m_config).run(request, out, progress);
}

Result<ExportOutcome> MemoryService::exportScopeToFile(const ExportRequest &request,
                                                       const QString &path,
                                                       const ProgressCallback &progress) const
{
    const auto fileError = [&path](const QString &why) {
        return Error::make(500, QStringLiteral("export_write_failed"),
                           QStringLiteral("cannot write %1: %2").arg(path, why),
                           {{QStringLiteral("path"), path}});
    };
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fileError(file.errorString());
    // The file holds memories of every lane: as private as the database.
    file.setPermissions(PrivateFiles::kFilePermissions);
    auto outcome = exportScope(request, &file, progress);
    if (!outcome) {
        file.cancelWriting();
        return outcome;
    }
    if (!file.commit())
        return fileError(file.errorString());
    return outcome;
}

Result<ImportReport> MemoryService::importScope(const ImportRequest &request, QIODevice *in,
                                                const RequestMeta &meta,
                                                const ProgressCallback &progress)
{
    ScopeImporter importer(*m_db, m_config, m_provider.get());
    auto report = importer.run(request, in, meta, progress);
    if (!report || report.value().dryRun)
        return report;
    const ImportReport &r = report.value();
    if (auto mirrored = importer.mirrorVectors(*m_indexes, r.tenantId, r.scope); !mirrored)
        qWarning("import: vectors will reach the index on its next load: %s",
                 qUtf8Printable(mirrored.error().message));
    if (r.vectorsPending > 0 && m_backfill)
        m_backfill->wake();
    for (const QString &commitId : r.commitIds)
        emit committed(r.tenantId, r.scope, commitId);
    return report;
}

Result<ImportReport> MemoryService::importScopeFromFile(const ImportRequest &request,
                                                        const QString &path,
                                                        const RequestMeta &meta,
                                                        const ProgressCallback &progress)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error::make(400, QStringLiteral("invalid_import"),
                           QStringLiteral("cannot read %1: %2").arg(path, file.errorString()),
                           {{QStringLiteral("path"), path}});
    return importScope(request, &file, meta, progress);
}

HealthInfo MemoryService::health() const
{
    HealthInfo h;
    h.version = QStringLiteral(MEMORYGRAPH_VERSION);
    h.storageBackend = QStringLiteral("sqlite");
    h.authMode = authModeName(m_config.authMode);
    auto conn = m_db->connection();
    if (!conn)
        return h;
    QSqlDatabase db = conn.value();
    // Totals kept by the store: /health never counts tables, however often it is called.
    auto totals = GraphStore::storeTotals(db);
    if (!totals) {
        h.nodes = h.edges = h.commits = -1;
        return h;
    }
    h.nodes = totals.value().nodes;
    h.edges = totals.value().edges;
    h.commits = totals.value().commits;
    h.scopes = totals.value().scopes;
    return h;
}

} // namespace MemoryGraph
