#include "service/portability/scopeimporter.h"

#include "service/access/callscope.h"
#include "service/core/hashing.h"
#include "service/embedding/embeddingprovider.h"
#include "service/index/indexmanager.h"
#include "service/portability/exportformat.h"
#include "service/portability/importmapping.h"
#include "service/portability/importscan.h"
#include "service/portability/progressreporter.h"
#include "service/storage/commitlog.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/portabilitystore.h"
#include "service/storage/rulestore.h"

#include <QIODevice>
#include <QJsonArray>

namespace MemoryGraph {

namespace {

using ExportFormat::Kind;
using ExportFormat::kindName;

const QString kImportCommitKind = QStringLiteral("import");
constexpr qint64 kMaxBatchBytes = qint64(4) << 20;
constexpr int kMaxListedInConflictError = 20;

/// What becomes of a node's vector in the target store.
enum class VectorFate { Keep, Pending, Failed };

/// A vector stays when the target embeds with the model that made it (or with a newer version
/// of it, which the backfill then replaces), when a client supplied it, or when the target has
/// no embedder that could replace it. A node the source never embedded (failed: no text, or
/// written without embedding, as replay records are) stays so. Any other node is embedded
/// again when it has text.
VectorFate vectorFate(const EmbeddingProvider *provider, const QString &vectorModel,
                      const QString &fileStatus, bool hasEmbedText)
{
    if (!vectorModel.isEmpty()
        && (!provider || vectorModel == provider->model() || vectorModel == QLatin1String("client")
            || provider->supersedes(vectorModel)))
        return VectorFate::Keep;
    if (vectorModel.isEmpty() && fileStatus == QLatin1String("failed"))
        return VectorFate::Failed;
    return provider && hasEmbedText ? VectorFate::Pending : VectorFate::Failed;
}

/// The diff entry of a record: its fields as written without the "kind" (and, for nodes,
/// with the vector's digest instead of the vector), plus the id it had in the file and the
/// commit that wrote it in the source store (one of the batches' source_commits).
QJsonObject diffEntry(QJsonObject fields, const QString &sourceId, const QString &currentId)
{
    fields.remove(QStringLiteral("kind"));
    if (fields.contains(QStringLiteral("commit_id")))
        fields.insert(QStringLiteral("source_commit_id"), fields.take(QStringLiteral("commit_id")));
    fields.insert(QStringLiteral("change"), QStringLiteral("created"));
    if (!sourceId.isEmpty() && sourceId != currentId)
        fields.insert(QStringLiteral("source_id"), sourceId);
    return fields;
}

/// 409 import_conflict naming the first conflict and how to get past it.
Error conflictError(const ImportReport &report)
{
    const ImportConflict &first = report.conflicts.constFirst();
    const QString what
        = first.reason == QLatin1String("client_id_exists")
              ? QStringLiteral("client_id '%1' is already used in scope '%2'; import with "
                               "client_id_policy remap to rename it")
                    .arg(first.clientId, report.scope)
              : QStringLiteral("%1 id %2 already exists in the store; import with id_policy "
                               "remap to give the records new ids")
                    .arg(first.kind, first.id);
    QJsonArray listed;
    for (int i = 0; i < report.conflicts.size() && i < kMaxListedInConflictError; ++i)
        listed.append(report.conflicts.at(i).toJson());
    return Error::make(409, QStringLiteral("import_conflict"),
                       QStringLiteral("line %1: %2 (%3 conflict(s) in all; nothing was imported)")
                           .arg(first.line)
                           .arg(what)
                           .arg(report.conflictCount),
                       {{QStringLiteral("line"), first.line},
                        {QStringLiteral("kind"), first.kind},
                        {QStringLiteral("id"), first.id},
                        {QStringLiteral("client_id"),
                         first.clientId.isEmpty() ? QJsonValue() : QJsonValue(first.clientId)},
                        {QStringLiteral("reason"), first.reason},
                        {QStringLiteral("conflicts"), report.conflictCount},
                        {QStringLiteral("listed"), listed}});
}

/// The records of one commit, as they will be written, with what the diff says of them.
struct Batch
{
    QVector<ExportFormat::Record> records;
    QStringList sourceIds;
    QByteArray lines; ///< the file's lines, hashed into the commit's input_sha256
    qint64 firstLine = 0;
    qint64 lastLine = 0;

    bool full(int maxRecords) const
    {
        return records.size() >= maxRecords || lines.size() >= kMaxBatchBytes;
    }
};

/// Everything the write stage shares across batches.
struct WriteContext
{
    QSqlDatabase &db;
    const CallScope &target;
    const CommitActor &actor;
    const ImportScan &scan;
    const ImportRequest &request;
    const ImportMapping &mapping;
    const EmbeddingProvider *provider;
    ImportReport &report;
    QStringList &nodesWithVectors;
};

/// Turns file records into target records (ids, client ids, scope, vectors) and writes them a
/// batch, one commit, at a time.
class BatchWriter
{
public:
    explicit BatchWriter(WriteContext &w) : m_w(w) { }

    Result<void> add(ExportFormat::Record record, const QByteArray &line, qint64 lineNumber)
    {
        if (m_batch.records.isEmpty())
            m_batch.firstLine = lineNumber;
        m_batch.lastLine = lineNumber;
        m_batch.lines.append(line).append('\n');
        m_batch.sourceIds.append(retarget(record));
        m_batch.records.append(std::move(record));
        if (m_batch.full(qMax(1, m_w.request.batchSize)))
            return flush();
        return {};
    }

    Result<void> flush()
    {
        if (m_batch.records.isEmpty())
            return {};
        ++m_batchNumber;
        auto commit = CommitLog::append(m_w.db, m_w.target, kImportCommitKind, m_w.actor,
                                        sha256Hex(m_batch.lines), batchDiff());
        if (!commit)
            return commit.error();
        for (ExportFormat::Record &r : m_batch.records) {
            if (auto saved = save(r, commit.value().id); !saved)
                return saved;
        }
        m_w.report.commitIds.append(commit.value().id);
        m_batch = Batch();
        return {};
    }

private:
    /// Rewrites the record for the target; returns the id it had in the file.
    QString retarget(ExportFormat::Record &r)
    {
        const ImportMapping &m = m_w.mapping;
        const QString &tenant = m_w.target.tenantId;
        const QString &scope = m_w.target.scope;
        switch (r.kind) {
        case Kind::Node: {
            NodeRecord &n = r.node.record;
            const QString source = n.id;
            n.id = m.nodeIds.value(source);
            n.tenantId = tenant;
            n.scope = scope;
            n.clientId = ImportMapping::mapped(m.clientIds, n.clientId);
            n.slotData = m.rewritten(n.slotData);
            n.vectorLabel = 0;
            n.embeddingVersion = 0;
            settleVector(r.node);
            return source;
        }
        case Kind::Edge: {
            EdgeRecord &e = r.edge.record;
            const QString source = e.id;
            e.id = m.edgeIds.value(source);
            e.tenantId = tenant;
            e.scope = scope;
            e.fromId = m.nodeIds.value(e.fromId);
            e.toId = m.nodeIds.value(e.toId);
            return source;
        }
        case Kind::Rule: {
            const QString source = r.rule.ruleNodeId;
            r.rule.ruleNodeId = m.nodeIds.value(source);
            return source;
        }
        case Kind::Decision: {
            DecisionRecord &d = r.decision;
            const QString source = d.id;
            d.id = m.decisionIds.value(source);
            d.tenantId = tenant;
            d.scope = scope;
            d.runId = ImportMapping::mapped(m.values, d.runId);
            for (QString &rule : d.sourceRuleIds)
                rule = ImportMapping::mapped(m.nodeIds, rule);
            d.metadata = m.rewritten(d.metadata);
            return source;
        }
        case Kind::RuleFeedback: {
            FeedbackRecord &f = r.feedback;
            const QString source = f.id;
            f.id = m.feedbackIds.value(source);
            f.tenantId = tenant;
            f.scope = scope;
            f.ruleNodeId = ImportMapping::mapped(m.nodeIds, f.ruleNodeId);
            f.decisionId = ImportMapping::mapped(m.decisionIds, f.decisionId);
            f.runId = ImportMapping::mapped(m.values, f.runId);
            return source;
        }
        case Kind::Commit: return r.commit.id; // kept as it was: provenance
        }
        return QString();
    }

    void settleVector(ExportFormat::NodeEntry &entry)
    {
        NodeRecord &n = entry.record;
        const QString model = entry.embedding.isEmpty() ? QString() : n.embeddingModel;
        switch (vectorFate(m_w.provider, model, n.embeddingStatus, !n.embedText().isEmpty())) {
        case VectorFate::Keep:
            n.embeddingStatus = QStringLiteral("ready");
            n.embeddingError.clear();
            ++m_w.report.vectorsKept;
            return;
        case VectorFate::Pending:
            n.embeddingStatus = QStringLiteral("pending");
            n.embeddingError.clear();
            ++m_w.report.vectorsPending;
            break;
        case VectorFate::Failed:
            // The source's reason when it had one, else why this store cannot embed it.
            if (n.embeddingStatus != QLatin1String("failed") || n.embeddingError.isEmpty())
                n.embeddingError = n.embedText().isEmpty()
                                       ? QStringLiteral("no_embed_text")
                                       : QStringLiteral("auto_embed_disabled_or_no_provider");
            n.embeddingStatus = QStringLiteral("failed");
            break;
        }
        entry.embedding.clear();
        n.embeddingModel.clear();
    }

    QJsonObject batchDiff() const
    {
        QJsonArray nodes, edges, rules, decisions, feedback, sourceCommits;
        for (int i = 0; i < m_batch.records.size(); ++i) {
            const ExportFormat::Record &r = m_batch.records.at(i);
            const QString &source = m_batch.sourceIds.at(i);
            switch (r.kind) {
            case Kind::Node: {
                QJsonObject fields = ExportFormat::nodeJson(r.node.record, {});
                fields.remove(QStringLiteral("embedding"));
                fields.insert(QStringLiteral("embedding_sha256"),
                              r.node.embedding.isEmpty() ? QJsonValue()
                                                         : QJsonValue(sha256Hex(r.node.embedding)));
                nodes.append(diffEntry(fields, source, r.node.record.id));
                break;
            }
            case Kind::Edge: {
                QJsonObject fields = ExportFormat::edgeJson(r.edge.record, r.edge.updatedAt);
                edges.append(diffEntry(fields, source, r.edge.record.id));
                break;
            }
            case Kind::Rule:
                rules.append(diffEntry(ExportFormat::ruleJson(r.rule), QString(), QString()));
                break;
            case Kind::Decision:
                decisions.append(
                    diffEntry(ExportFormat::decisionJson(r.decision), source, r.decision.id));
                break;
            case Kind::RuleFeedback:
                feedback.append(
                    diffEntry(ExportFormat::feedbackJson(r.feedback), source, r.feedback.id));
                break;
            case Kind::Commit: {
                QJsonObject fields = ExportFormat::commitJson(r.commit);
                fields.remove(QStringLiteral("kind"));
                sourceCommits.append(fields);
                break;
            }
            }
        }
        const ExportFormat::Header &h = m_w.scan.header;
        const QJsonObject import{
            {QStringLiteral("format_version"), h.version},
            {QStringLiteral("source"),
             QJsonObject{{QStringLiteral("tenant_id"), h.tenantId},
                         {QStringLiteral("scope"), h.scope},
                         {QStringLiteral("exported_at"), ExportFormat::timeJson(h.exportedAt)},
                         {QStringLiteral("app_version"), h.appVersion}}},
            {QStringLiteral("batch"), m_batchNumber},
            {QStringLiteral("first_line"), m_batch.firstLine},
            {QStringLiteral("last_line"), m_batch.lastLine},
            {QStringLiteral("records"), m_batch.records.size()},
            {QStringLiteral("id_policy"), idPolicyName(m_w.request.idPolicy)},
            {QStringLiteral("client_id_policy"), idPolicyName(m_w.request.clientIdPolicy)}};
        return {{QStringLiteral("import"), import},
                {QStringLiteral("nodes"), nodes},
                {QStringLiteral("edges"), edges},
                {QStringLiteral("rules"), rules},
                {QStringLiteral("decisions"), decisions},
                {QStringLiteral("rule_feedback"), feedback},
                {QStringLiteral("source_commits"), sourceCommits}};
    }

    Result<void> save(ExportFormat::Record &r, const QString &commitId)
    {
        QSqlDatabase &db = m_w.db;
        ++m_w.report.kinds[kindName(r.kind)].added;
        switch (r.kind) {
        case Kind::Node: return saveNode(r.node, commitId);
        case Kind::Edge:
            r.edge.record.commitId = commitId;
            return PortabilityStore::insertEdge(db, r.edge.record, r.edge.updatedAt);
        case Kind::Rule:
            // The state's commit is the import's when the file had one.
            if (!r.rule.status.stateCommitId.isEmpty())
                r.rule.status.stateCommitId = commitId;
            return PortabilityStore::saveRuleState(db, m_w.target.tenantId, m_w.target.scope,
                                                   r.rule.ruleNodeId, r.rule.status,
                                                   r.rule.createdAt);
        case Kind::Decision:
            r.decision.commitId = commitId;
            return RuleStore::insertDecision(db, r.decision);
        case Kind::RuleFeedback:
            r.feedback.commitId = commitId;
            return RuleStore::insertFeedback(db, r.feedback);
        case Kind::Commit: return {}; // kept in the diff only
        }
        return {};
    }

    Result<void> saveNode(ExportFormat::NodeEntry &entry, const QString &commitId)
    {
        NodeRecord &n = entry.record;
        n.commitId = commitId;
        if (auto saved = GraphStore::saveNode(m_w.db, n); !saved)
            return saved;
        if (n.type == QLatin1String("rule")) {
            if (auto def = RuleStore::ensureRuleDef(m_w.db, n); !def)
                return def;
        }
        if (entry.embedding.isEmpty())
            return {};
        auto stamp = GraphStore::setEmbedding(m_w.db, n.id, entry.embedding);
        if (!stamp)
            return stamp.error();
        m_w.nodesWithVectors.append(n.id);
        return {};
    }

    WriteContext &m_w;
    Batch m_batch;
    int m_batchNumber = 0;
};

/// The report's fixed parts: where from, where to, how, and what the file holds.
ImportReport baseReport(const ImportScan &scan, const CallScope &target,
                        const ImportRequest &request)
{
    ImportReport report;
    report.dryRun = request.dryRun;
    report.formatVersion = scan.header.version;
    report.sourceTenantId = scan.header.tenantId;
    report.sourceScope = scan.header.scope;
    report.exportedAt = scan.header.exportedAt;
    report.appVersion = scan.header.appVersion;
    report.tenantId = target.tenantId;
    report.scope = target.scope;
    report.idPolicy = request.idPolicy;
    report.clientIdPolicy = request.clientIdPolicy;
    for (Kind k : ExportFormat::kindOrder())
        report.kinds[kindName(k)].records = scan.records.value(kindName(k));
    return report;
}

/// A dry run adds what the file holds (when nothing conflicts) and predicts each vector's fate.
void predictWrites(const ImportScan &scan, const EmbeddingProvider *provider, ImportReport *report)
{
    for (auto it = report->kinds.begin(); it != report->kinds.end(); ++it)
        it.value().added = it.value().records;
    for (const ImportScan::NodeRef &n : scan.nodes) {
        const VectorFate fate
            = vectorFate(provider, n.vectorModel, n.embeddingStatus, n.hasEmbedText);
        report->vectorsKept += fate == VectorFate::Keep ? 1 : 0;
        report->vectorsPending += fate == VectorFate::Pending ? 1 : 0;
    }
}

/// Second pass over the file: every record through the batch writer, in file order.
Result<void> writeRecords(QIODevice *in, WriteContext &w, ProgressReporter &progress)
{
    ExportLineReader reader(in);
    QByteArray line;
    if (!reader.rewind() || !reader.next(&line)) // the header, checked already
        return reader.error() ? *reader.error() : Error::internal(QStringLiteral("file changed"));
    BatchWriter writer(w);
    while (reader.next(&line)) {
        auto object = parseImportLine(line, reader.lineNumber());
        if (!object)
            return object.error();
        auto record = ExportFormat::parseRecord(object.value());
        if (!record)
            return importLineError(reader.lineNumber(), QString(), record.error());
        if (auto added = writer.add(std::move(record).value(), line, reader.lineNumber()); !added)
            return added;
        if (!progress.step())
            return ProgressReporter::cancelled(QStringLiteral("the import"));
    }
    if (reader.error())
        return *reader.error();
    return writer.flush();
}

} // namespace

ScopeImporter::ScopeImporter(Database &db, const ServiceConfig &config,
                             const EmbeddingProvider *provider)
    : m_db(db), m_config(config), m_provider(provider)
{
}

Result<ImportReport> ScopeImporter::run(const ImportRequest &request, QIODevice *in,
                                        const RequestMeta &meta, const ProgressCallback &progress)
{
    m_nodesWithVectors.clear();
    ProgressReporter reporter(progress, 0);
    auto scanned = scanImport(in, reporter);
    if (!scanned)
        return scanned.error();
    const ImportScan &scan = scanned.value();
    RequestMeta caller = meta;
    caller.headerTenant.clear(); // the target is named explicitly, or is the file's
    auto target = resolveCallScope(
        request.tenantId.isEmpty() ? scan.header.tenantId : request.tenantId,
        request.scope.isEmpty() ? scan.header.scope : request.scope, caller, m_config);
    if (!target)
        return target.error();
    const CallScope &cs = target.value();
    ImportReport report = baseReport(scan, cs, request);
    const qint64 total = scan.nodes.size() + scan.edges.size() + scan.decisions.size()
                         + scan.feedback.size() + report.kinds[kindName(Kind::Rule)].records
                         + report.kinds[kindName(Kind::Commit)].records;

    if (request.dryRun) {
        auto conn = m_db.connection();
        if (!conn)
            return conn.error();
        if (!reporter.restart(QStringLiteral("comparing with the store"), 0))
            return ProgressReporter::cancelled(QStringLiteral("the import"));
        auto mapping = mapImport(conn.value(), scan, cs, request, &report);
        if (!mapping)
            return mapping.error();
        predictWrites(scan, m_provider, &report);
        return report;
    }

    const CommitActor actor = commitActor(request.actor, caller, m_config);
    auto written = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        if (!reporter.restart(QStringLiteral("comparing with the store"), 0))
            return ProgressReporter::cancelled(QStringLiteral("the import"));
        auto mapping = mapImport(db, scan, cs, request, &report);
        if (!mapping)
            return mapping.error();
        if (!report.canImport())
            return conflictError(report);
        if (!reporter.restart(QStringLiteral("importing"), total))
            return ProgressReporter::cancelled(QStringLiteral("the import"));
        WriteContext w{
            db, cs, actor, scan, request, mapping.value(), m_provider, report, m_nodesWithVectors};
        return writeRecords(in, w, reporter);
    });
    if (!written) {
        m_nodesWithVectors.clear();
        return written.error();
    }
    return report;
}

Result<void> ScopeImporter::mirrorVectors(IndexManager &indexes, const QString &tenantId,
                                          const QString &scope) const
{
    if (m_nodesWithVectors.isEmpty())
        return {};
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    return GraphStore::visitNodes(
        conn.value(), m_nodesWithVectors, true, [&](const NodeRecord &n, const QByteArray &vector) {
            indexes.apply(tenantId, scope, n.vectorLabel, n.embeddingVersion, vector);
            return true;
        });
}

} // namespace MemoryGraph
