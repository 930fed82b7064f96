// Export of a scope to a JSON Lines file and import into another store or scope
// (docs/export-format.md), through the facade.

#include "service/core/ids.h"
#include "tests/support/samplescope.h"
#include "tests/support/tempservice.h"

#include <QBuffer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace MemoryGraph;
using MemoryGraph::Test::TempService;
using MemoryGraph::Test::why;

namespace {

QString s(const char *text)
{
    return QString::fromUtf8(text);
}

const QString kTenant = QStringLiteral("default");

QByteArray exportBytes(MemoryService *svc, const QString &scope, bool embeddings = true)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    ExportRequest req;
    req.tenantId = kTenant;
    req.scope = scope;
    req.includeEmbeddings = embeddings;
    auto outcome = svc->exportScope(req, &buffer);
    if (!outcome)
        qWarning("export failed: %s", Test::describe(outcome.error()).constData());
    return outcome ? buffer.data() : QByteArray();
}

Result<ImportReport> importBytes(MemoryService *svc, const QByteArray &bytes,
                                 const ImportRequest &req, const ProgressCallback &progress = {})
{
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    return svc->importScope(req, &buffer, {}, progress);
}

ImportRequest into(const QString &scope, IdPolicy ids = IdPolicy::Preserve,
                   IdPolicy clientIds = IdPolicy::Preserve, bool dryRun = false)
{
    ImportRequest req;
    req.tenantId = kTenant;
    req.scope = scope;
    req.idPolicy = ids;
    req.clientIdPolicy = clientIds;
    req.dryRun = dryRun;
    return req;
}

qint64 totalCommits(MemoryService *svc)
{
    return svc->health().commits;
}

QVector<NodeRecord> nodesOf(MemoryService *svc, const QString &scope)
{
    NodeQuery q;
    q.tenantId = kTenant;
    q.scope = scope;
    q.limit = 10000;
    auto page = svc->listNodes(q);
    return page ? page.value().nodes : QVector<NodeRecord>();
}

/// A node as it reads without its id: what a copy must keep.
QString describeNode(const NodeRecord &n)
{
    return QStringList{n.type,
                       n.clientId,
                       n.title,
                       n.textSummary,
                       n.tier,
                       n.memoryLane,
                       n.producerAgentId,
                       n.ownerAgentId,
                       n.ownerTeamId,
                       n.occurredText(),
                       QString::number(n.salience)}
        .join(QLatin1Char('|'));
}

/// Everything of a scope up to ids: nodes, edges (by their ends' descriptions), rules with
/// their state and counters, decisions, feedback, replay runs.
QStringList scopeDigest(MemoryService *svc, const QString &scope)
{
    QStringList out;
    QHash<QString, QString> label;
    QStringList ids;
    for (const NodeRecord &n : nodesOf(svc, scope)) {
        out << s("node ") + describeNode(n);
        label.insert(n.id, n.clientId.isEmpty() ? n.title : n.clientId);
        ids << n.id;
    }
    auto around = svc->neighbourhood(kTenant, scope, ids, 1, 10000);
    for (const EdgeRecord &e : around ? around.value().edges : QVector<EdgeRecord>())
        out << s("edge %1 %2 -> %3 %4")
                   .arg(e.type, label.value(e.fromId), label.value(e.toId))
                   .arg(e.weight);
    auto rules = svc->listRules(kTenant, scope);
    for (const RuleSummary &r : rules ? rules.value() : QVector<RuleSummary>())
        out << s("rule %1 %2 +%3 -%4")
                   .arg(r.node.clientId, r.status.state)
                   .arg(r.status.positive)
                   .arg(r.status.negative);
    DecisionQuery dq;
    dq.tenantId = kTenant;
    dq.scope = scope;
    auto decisions = svc->listDecisions(dq);
    for (const DecisionRecord &d : decisions ? decisions.value() : QVector<DecisionRecord>()) {
        QStringList rulesOf;
        for (const QString &id : d.sourceRuleIds)
            rulesOf << label.value(id, s("?"));
        out << s("decision %1 %2 %3 %4 [%5]")
                   .arg(d.kind, d.selectedTool, d.runId, d.candidates.join(QLatin1Char(',')),
                        rulesOf.join(QLatin1Char(',')));
        auto feedback = svc->feedbackForDecision(kTenant, scope, d.id);
        for (const FeedbackRecord &f : feedback ? feedback.value() : QVector<FeedbackRecord>())
            out << s("feedback %1 %2 %3 %4")
                       .arg(f.outcome, f.source, label.value(f.ruleNodeId, s("?")), f.runId);
    }
    auto runs = svc->listReplayRuns(kTenant, scope);
    for (const ReplayRunSummary &r : runs ? runs.value() : QVector<ReplayRunSummary>())
        out << s("run %1 %2 %3 steps").arg(r.runId, r.status).arg(r.stepCount);
    out.sort();
    return out;
}

QStringList recallTitles(MemoryService *svc, const QString &scope, const QString &query)
{
    auto req = RecallRequest::fromJson(
        {{s("tenant_id"), kTenant}, {s("scope"), scope}, {s("query_text"), query}}, true, 8000);
    if (!req)
        return {};
    auto outcome = svc->recallText(req.value(), {});
    QStringList titles;
    for (const NodeRecord &n : outcome ? outcome.value().nodes : QVector<NodeRecord>())
        titles << (n.title.isEmpty() ? n.textSummary : n.title);
    titles.sort();
    return titles;
}

QByteArrayList linesOf(const QByteArray &file)
{
    QByteArrayList lines = file.split('\n');
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

QByteArray joinLines(const QByteArrayList &lines)
{
    return lines.join('\n') + '\n';
}

} // namespace

class tst_Portability : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_source = std::make_unique<TempService>();
        QVERIFY2(m_source->isValid(), qPrintable(m_source->errorText()));
        auto filled = Test::fillSampleScope(m_source->service(), kTenant, s("alpha"));
        QVERIFY2(filled, why(filled));
        m_sample = filled.value();
        QVERIFY(m_source->service()->waitForEmbeddings(120000));
        m_file = exportBytes(m_source->service(), s("alpha"));
        QVERIFY(!m_file.isEmpty());
        m_target = std::make_unique<TempService>();
        QVERIFY2(m_target->isValid(), qPrintable(m_target->errorText()));
    }

    void cleanup()
    {
        m_source.reset();
        m_target.reset();
    }

    void exportWritesAHeaderThenEachKindInOrder();
    void exportOmitsVectorsWhenAsked();
    void exportOfAnEmptyScopeIsNotFound();
    void remappedCopyIntoAnotherScopeEqualsTheSourceUpToIds();
    void preservedCopyKeepsEveryId();
    void importedHistoryIsNewCommitsOfTheTargetChain();
    void dryRunWritesNothing();
    void malformedLineNamesLineAndFieldAndWritesNothing();
    void unsupportedVersionAndCutShortFilesAreRefused();
    void edgeToAnUnknownNodeIsRefused();
    void preserveRefusesAnIdTheStoreHolds();
    void remapOfClientIdsImportsTheSameFileTwice();
    void cancelledImportWritesNothing();
    void cancelledExportLeavesNoFile();
    void vectorsOfAnotherModelAreEmbeddedAgain();
    void committedIsEmittedPerBatch();

private:
    /// Every node the source embedded is embedded in `target`'s copy (by `model` when given);
    /// the ones it never embedded (replay records) are not.
    void expectReadyAsInTheSource(MemoryService *target, const QString &model = QString())
    {
        QHash<QString, QString> sourceStatus;
        for (const NodeRecord &n : nodesOf(m_source->service(), s("alpha")))
            sourceStatus.insert(n.title + n.textSummary, n.embeddingStatus);
        const QVector<NodeRecord> copied = nodesOf(target, s("alpha"));
        QCOMPARE(copied.size(), sourceStatus.size());
        for (const NodeRecord &n : copied) {
            QCOMPARE(n.embeddingStatus, sourceStatus.value(n.title + n.textSummary));
            if (!model.isEmpty() && n.embeddingStatus == QLatin1String("ready"))
                QCOMPARE(n.embeddingModel, model);
        }
    }

    std::unique_ptr<TempService> m_source;
    std::unique_ptr<TempService> m_target;
    Test::SampleScope m_sample;
    QByteArray m_file;
};

void tst_Portability::exportWritesAHeaderThenEachKindInOrder()
{
    const QByteArrayList lines = linesOf(m_file);
    const QJsonObject header = QJsonDocument::fromJson(lines.first()).object();
    QCOMPARE(header.value(s("format")).toString(), s("memorygraph-export"));
    QCOMPARE(header.value(s("version")).toInt(), 1);
    QCOMPARE(header.value(s("tenant_id")).toString(), kTenant);
    QCOMPARE(header.value(s("scope")).toString(), s("alpha"));
    QCOMPARE(header.value(s("app_version")).toString(), s(MEMORYGRAPH_VERSION));
    const QJsonObject counts = header.value(s("counts")).toObject();
    QCOMPARE(counts.keys(), (QStringList{s("commit"), s("decision"), s("edge"), s("node"),
                                         s("rule"), s("rule_feedback")}));
    QCOMPARE(header.value(s("replay_runs")).toInt(), 1);

    QStringList kinds;
    QHash<QString, int> seen;
    qint64 lastSeq = 0;
    bool privateNodeKeptItsOwner = false;
    for (int i = 1; i < lines.size(); ++i) {
        const QJsonObject record = QJsonDocument::fromJson(lines.at(i)).object();
        const QString kind = record.value(s("kind")).toString();
        if (kinds.isEmpty() || kinds.last() != kind)
            kinds << kind;
        ++seen[kind];
        if (kind == QLatin1String("commit")) {
            QVERIFY(record.value(s("seq")).toInteger() > lastSeq);
            lastSeq = record.value(s("seq")).toInteger();
        }
        if (record.value(s("id")).toString() == m_sample.privateId) {
            QCOMPARE(record.value(s("memory_lane")).toString(), s("private"));
            QCOMPARE(record.value(s("owner_agent_id")).toString(), s("alice-agent"));
            // The vector travels with the model that made it.
            QVERIFY(!record.value(s("embedding_model")).toString().isEmpty());
            QCOMPARE(
                QByteArray::fromBase64(record.value(s("embedding")).toString().toLatin1()).size(),
                1536 * 4);
            privateNodeKeptItsOwner = true;
        }
    }
    QVERIFY(privateNodeKeptItsOwner);
    QCOMPARE(kinds, (QStringList{s("node"), s("edge"), s("rule"), s("decision"), s("rule_feedback"),
                                 s("commit")}));
    for (const QString &kind : counts.keys())
        QCOMPARE(seen.value(kind), counts.value(kind).toInt());
    QCOMPARE(seen.value(s("commit")), int(totalCommits(m_source->service())));
    QVERIFY(!m_file.contains("api_key"));

    // Stable: a second export of the unchanged scope differs only in its time.
    QByteArrayList again = linesOf(exportBytes(m_source->service(), s("alpha")));
    QCOMPARE(again.size(), lines.size());
    for (int i = 1; i < lines.size(); ++i)
        QCOMPARE(again.at(i), lines.at(i));
}

void tst_Portability::exportOmitsVectorsWhenAsked()
{
    const QByteArray file = exportBytes(m_source->service(), s("alpha"), false);
    QVERIFY(!file.isEmpty());
    QVERIFY(!file.contains("\"embedding\":\""));
    QVERIFY(QJsonDocument::fromJson(linesOf(file).first()).object().value(s("embeddings"))
            == false);
    // Imported without vectors, every node with text waits for the embedder.
    auto report = importBytes(m_target->service(), file, into(s("alpha")));
    QVERIFY2(report, why(report));
    QCOMPARE(report.value().vectorsKept, 0);
    QVERIFY(report.value().vectorsPending > 0);
    QVERIFY(m_target->service()->waitForEmbeddings(120000));
    expectReadyAsInTheSource(m_target->service());
}

void tst_Portability::exportOfAnEmptyScopeIsNotFound()
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    ExportRequest req;
    req.scope = s("nothing-here");
    auto outcome = m_source->service()->exportScope(req, &buffer);
    QVERIFY(!outcome);
    QCOMPARE(outcome.error().status, 404);
}

void tst_Portability::remappedCopyIntoAnotherScopeEqualsTheSourceUpToIds()
{
    auto report = importBytes(m_target->service(), m_file, into(s("beta"), IdPolicy::Remap));
    QVERIFY2(report, why(report));
    const ImportReport &r = report.value();
    QVERIFY(!r.dryRun);
    QCOMPARE(r.scope, s("beta"));
    QCOMPARE(r.sourceScope, s("alpha"));
    QCOMPARE(r.conflictCount, 0);
    QCOMPARE(r.kinds.value(s("node")).added, nodesOf(m_source->service(), s("alpha")).size());
    QCOMPARE(r.kinds.value(s("node")).remappedIds, r.kinds.value(s("node")).added);
    QVERIFY(r.vectorsKept > 0); // same model in both stores: nothing embedded again
    QCOMPARE(r.vectorsPending, 0);

    QCOMPARE(scopeDigest(m_target->service(), s("beta")),
             scopeDigest(m_source->service(), s("alpha")));
    // New ids throughout, references following them.
    QSet<QString> sourceIds;
    for (const NodeRecord &n : nodesOf(m_source->service(), s("alpha")))
        sourceIds.insert(n.id);
    for (const NodeRecord &n : nodesOf(m_target->service(), s("beta"))) {
        QVERIFY(!sourceIds.contains(n.id));
        if (!n.clientId.isEmpty())
            QCOMPARE(n.id, stableUuid(s("beta:node:") + n.clientId)); // as a write derives it
    }
    // The replay run reads back whole (its records found by client id and run id).
    auto run = m_target->service()->replayRun(kTenant, s("beta"), m_sample.runId);
    QVERIFY2(run, why(run));
    QCOMPARE(run.value().run.status, s("success"));
    QCOMPARE(run.value().steps.size(), 1);
    auto sourceRun = m_source->service()->replayRun(kTenant, s("alpha"), m_sample.runId);
    QVERIFY(sourceRun);
    QVERIFY(!sourceRun.value().decisions.isEmpty());
    QCOMPARE(run.value().decisions.size(), sourceRun.value().decisions.size());

    m_target->service()->waitForIndexes();
    const QString query = s("How does Alice like her answers?");
    QVERIFY(!recallTitles(m_source->service(), s("alpha"), query).isEmpty());
    QCOMPARE(recallTitles(m_target->service(), s("beta"), query),
             recallTitles(m_source->service(), s("alpha"), query));
}

void tst_Portability::preservedCopyKeepsEveryId()
{
    auto report = importBytes(m_target->service(), m_file, into(s("alpha")));
    QVERIFY2(report, why(report));
    QCOMPARE(report.value().kinds.value(s("node")).remappedIds, 0);
    QCOMPARE(scopeDigest(m_target->service(), s("alpha")),
             scopeDigest(m_source->service(), s("alpha")));
    QSet<QString> sourceIds, targetIds;
    for (const NodeRecord &n : nodesOf(m_source->service(), s("alpha")))
        sourceIds.insert(n.id);
    for (const NodeRecord &n : nodesOf(m_target->service(), s("alpha")))
        targetIds.insert(n.id);
    QCOMPARE(targetIds, sourceIds);
    DecisionQuery dq;
    dq.tenantId = kTenant;
    dq.scope = s("alpha");
    auto decisions = m_target->service()->listDecisions(dq);
    QVERIFY(decisions);
    QVERIFY(std::any_of(decisions.value().cbegin(), decisions.value().cend(),
                        [this](const DecisionRecord &d) { return d.id == m_sample.decisionId; }));
    auto rules = m_target->service()->listRules(kTenant, s("alpha"));
    QVERIFY(rules);
    QCOMPARE(rules.value().size(), 1);
    QCOMPARE(rules.value().first().node.id, m_sample.ruleId);
    QCOMPARE(rules.value().first().status.state, s("active"));
}

void tst_Portability::importedHistoryIsNewCommitsOfTheTargetChain()
{
    // The target scope already has history of its own; the import continues it.
    auto own = Test::fillSampleScope(m_target->service(), kTenant, s("beta"));
    QVERIFY2(own, why(own));
    const qint64 before = m_target->service()->listCommits(kTenant, s("beta")).value().size();
    ImportRequest req = into(s("beta"), IdPolicy::Remap, IdPolicy::Remap);
    req.batchSize = 4;
    auto report = importBytes(m_target->service(), m_file, req);
    QVERIFY2(report, why(report));
    const QStringList commitIds = report.value().commitIds;
    qint64 records = 0;
    for (const ImportKindReport &k : report.value().kinds)
        records += k.records;
    QCOMPARE(commitIds.size(), int((records + 3) / 4));

    auto commits = m_target->service()->listCommits(kTenant, s("beta"), 0, 10000);
    QVERIFY(commits);
    QCOMPARE(commits.value().size(), before + commitIds.size());
    // Newest first: the import's commits are the latest, in batch order, kind "import".
    for (int i = 0; i < commitIds.size(); ++i) {
        const CommitRecord &c = commits.value().at(commitIds.size() - 1 - i);
        QCOMPARE(c.id, commitIds.at(i));
        QCOMPARE(c.kind, s("import"));
        QCOMPARE(c.diff.value(s("import")).toObject().value(s("batch")).toInt(), i + 1);
        QCOMPARE(
            c.diff.value(s("import")).toObject().value(s("source")).toObject().value(s("scope")),
            QJsonValue(s("alpha")));
    }
    // The source chain travels as provenance inside the import commits.
    QSet<QString> provenance;
    for (const CommitRecord &c : commits.value()) {
        for (const QJsonValue &v : c.diff.value(s("source_commits")).toArray())
            provenance.insert(v.toObject().value(s("commit_hash")).toString());
    }
    auto sourceCommits = m_source->service()->listCommits(kTenant, s("alpha"), 0, 10000);
    QVERIFY(sourceCommits);
    QCOMPARE(provenance.size(), sourceCommits.value().size());
    for (const CommitRecord &c : sourceCommits.value())
        QVERIFY2(provenance.contains(c.commitHash), qPrintable(c.kind));

    auto chain = m_target->service()->verifyChain(kTenant, s("beta"));
    QVERIFY2(chain, why(chain));
    QVERIFY(chain.value().ok);
    QCOMPARE(chain.value().commitsChecked, before + commitIds.size());
}

void tst_Portability::dryRunWritesNothing()
{
    auto own = Test::fillSampleScope(m_target->service(), kTenant, s("alpha"));
    QVERIFY2(own, why(own));
    const qint64 commits = totalCommits(m_target->service());
    const qint64 nodes = m_target->service()->health().nodes;

    auto report = importBytes(m_target->service(), m_file,
                              into(s("alpha"), IdPolicy::Preserve, IdPolicy::Preserve, true));
    QVERIFY2(report, why(report));
    const ImportReport &r = report.value();
    QVERIFY(r.dryRun);
    QVERIFY(!r.canImport());
    QVERIFY(r.kinds.value(s("node")).conflicts > 0);
    QCOMPARE(r.kinds.value(s("node")).added, r.kinds.value(s("node")).records);
    QVERIFY(!r.conflicts.isEmpty());
    QCOMPARE(r.conflicts.first().kind, s("node"));
    QCOMPARE(r.conflicts.first().line, 2);
    QVERIFY(r.commitIds.isEmpty());
    QCOMPARE(
        r.toJson().value(s("kinds")).toObject().value(s("node")).toObject().value(s("would_add")),
        QJsonValue(r.kinds.value(s("node")).records));

    // With new ids and renamed client ids it would go through.
    auto remapped = importBytes(m_target->service(), m_file,
                                into(s("alpha"), IdPolicy::Remap, IdPolicy::Remap, true));
    QVERIFY2(remapped, why(remapped));
    QVERIFY(remapped.value().canImport());
    // alice, outage and prefer-pytest; the replay records belong to another run.
    QCOMPARE(remapped.value().kinds.value(s("node")).remappedClientIds, 3);
    QVERIFY(remapped.value().vectorsKept > 0);

    QCOMPARE(totalCommits(m_target->service()), commits);
    QCOMPARE(m_target->service()->health().nodes, nodes);
}

void tst_Portability::malformedLineNamesLineAndFieldAndWritesNothing()
{
    QByteArrayList lines = linesOf(m_file);
    // Line 3 is the second node: break one of its fields.
    QJsonObject node = QJsonDocument::fromJson(lines[2]).object();
    node.insert(s("memory_lane"), s("public"));
    lines[2] = QJsonDocument(node).toJson(QJsonDocument::Compact);
    // And a later line that is not JSON at all: the first problem is named.
    lines.insert(5, "{not json");
    const qint64 commits = totalCommits(m_target->service());

    auto report = importBytes(m_target->service(), joinLines(lines), into(s("alpha")));
    QVERIFY(!report);
    QCOMPARE(report.error().status, 400);
    QCOMPARE(report.error().code, s("invalid_import"));
    QCOMPARE(report.error().details.value(s("line")).toInt(), 3);
    QCOMPARE(report.error().details.value(s("field")).toString(), s("memory_lane"));
    QCOMPARE(report.error().details.value(s("kind")).toString(), s("node"));
    QVERIFY2(report.error().message.startsWith(s("line 3, field memory_lane: must be one of")),
             qPrintable(report.error().message));

    lines[2] = linesOf(m_file)[2];
    report = importBytes(m_target->service(), joinLines(lines), into(s("alpha")));
    QVERIFY(!report);
    QCOMPARE(report.error().details.value(s("line")).toInt(), 6);
    QVERIFY(report.error().message.contains(s("not valid JSON")));

    QCOMPARE(totalCommits(m_target->service()), commits);
    QCOMPARE(m_target->service()->health().nodes, 0);
}

void tst_Portability::unsupportedVersionAndCutShortFilesAreRefused()
{
    QByteArrayList lines = linesOf(m_file);
    QJsonObject header = QJsonDocument::fromJson(lines[0]).object();
    header.insert(s("version"), 2);
    QByteArrayList newer = lines;
    newer[0] = QJsonDocument(header).toJson(QJsonDocument::Compact);
    auto report = importBytes(m_target->service(), joinLines(newer), into(s("alpha")));
    QVERIFY(!report);
    QCOMPARE(report.error().details.value(s("line")).toInt(), 1);
    QCOMPARE(report.error().details.value(s("field")).toString(), s("version"));

    QByteArrayList cut = lines.mid(0, lines.size() - 2);
    report = importBytes(m_target->service(), joinLines(cut), into(s("alpha")));
    QVERIFY(!report);
    QCOMPARE(report.error().details.value(s("line")).toInt(), 1);
    QCOMPARE(report.error().details.value(s("field")).toString(), s("counts.commit"));
    QVERIFY(report.error().message.contains(s("cut short")));

    QJsonObject other = header;
    other.insert(s("format"), s("something-else"));
    newer[0] = QJsonDocument(other).toJson(QJsonDocument::Compact);
    report = importBytes(m_target->service(), joinLines(newer), into(s("alpha")));
    QVERIFY(!report);
    QCOMPARE(report.error().details.value(s("field")).toString(), s("format"));
    QCOMPARE(m_target->service()->health().nodes, 0);
}

void tst_Portability::edgeToAnUnknownNodeIsRefused()
{
    QByteArrayList lines = linesOf(m_file);
    for (int i = 1; i < lines.size(); ++i) {
        QJsonObject record = QJsonDocument::fromJson(lines[i]).object();
        if (record.value(s("kind")).toString() != QLatin1String("edge"))
            continue;
        record.insert(s("dst_id"), randomUuid());
        lines[i] = QJsonDocument(record).toJson(QJsonDocument::Compact);
        auto report = importBytes(m_target->service(), joinLines(lines), into(s("alpha")));
        QVERIFY(!report);
        QCOMPARE(report.error().details.value(s("line")).toInt(), i + 1);
        QCOMPARE(report.error().details.value(s("field")).toString(), s("dst_id"));
        return;
    }
    QFAIL("the sample has no edge");
}

void tst_Portability::preserveRefusesAnIdTheStoreHolds()
{
    auto first = importBytes(m_target->service(), m_file, into(s("alpha")));
    QVERIFY2(first, why(first));
    const qint64 commits = totalCommits(m_target->service());
    const qint64 nodes = m_target->service()->health().nodes;

    // Into another scope of the same store: the node without a client id keeps its id,
    // which the store now holds.
    auto again = importBytes(m_target->service(), m_file, into(s("gamma")));
    QVERIFY(!again);
    QCOMPARE(again.error().status, 409);
    QCOMPARE(again.error().code, s("import_conflict"));
    QCOMPARE(again.error().details.value(s("reason")).toString(), s("id_exists"));
    const QString id = again.error().details.value(s("id")).toString();
    QVERIFY(again.error().message.contains(id));
    QVERIFY(again.error().message.contains(s("id_policy remap")));

    // Into the same scope: the client ids are taken.
    again = importBytes(m_target->service(), m_file, into(s("alpha"), IdPolicy::Remap));
    QVERIFY(!again);
    QCOMPARE(again.error().code, s("import_conflict"));
    QCOMPARE(again.error().details.value(s("reason")).toString(), s("client_id_exists"));
    QVERIFY((QStringList{s("alice"), s("outage"), s("prefer-pytest")})
                .contains(again.error().details.value(s("client_id")).toString()));

    QCOMPARE(totalCommits(m_target->service()), commits);
    QCOMPARE(m_target->service()->health().nodes, nodes);

    auto remapped = importBytes(m_target->service(), m_file, into(s("gamma"), IdPolicy::Remap));
    QVERIFY2(remapped, why(remapped));
}

void tst_Portability::remapOfClientIdsImportsTheSameFileTwice()
{
    QVERIFY(importBytes(m_target->service(), m_file, into(s("alpha"))));
    auto second = importBytes(m_target->service(), m_file,
                              into(s("alpha"), IdPolicy::Remap, IdPolicy::Remap));
    QVERIFY2(second, why(second));
    QCOMPARE(second.value().kinds.value(s("node")).remappedClientIds,
             second.value().kinds.value(s("node")).records - 1); // all but the one without

    const QVector<NodeRecord> nodes = nodesOf(m_target->service(), s("alpha"));
    QCOMPARE(nodes.size(), 2 * nodesOf(m_source->service(), s("alpha")).size());
    QStringList clientIds;
    for (const NodeRecord &n : nodes)
        clientIds << n.clientId;
    QVERIFY(clientIds.contains(s("alice")));
    QVERIFY(std::any_of(clientIds.cbegin(), clientIds.cend(),
                        [](const QString &c) { return c.startsWith(s("alice~")); }));
    // The copied replay run got a run id of its own, and its records followed.
    auto runs = m_target->service()->listReplayRuns(kTenant, s("alpha"));
    QVERIFY(runs);
    QCOMPARE(runs.value().size(), 2);
    for (const ReplayRunSummary &summary : runs.value()) {
        auto run = m_target->service()->replayRun(kTenant, s("alpha"), summary.runId);
        QVERIFY2(run, why(run));
        QCOMPARE(run.value().steps.size(), 1);
        QVERIFY(!run.value().decisions.isEmpty());
    }
    QVERIFY(m_target->service()->verifyChain(kTenant, s("alpha")).value().ok);
}

void tst_Portability::cancelledImportWritesNothing()
{
    const qint64 commits = totalCommits(m_target->service());
    QStringList stages;
    ImportRequest req = into(s("alpha"));
    req.batchSize = 2; // several batches are written before the cancel
    auto report = importBytes(m_target->service(), m_file, req, [&stages](const Progress &p) {
        if (stages.isEmpty() || stages.last() != p.stage)
            stages << p.stage;
        return !(p.stage == QLatin1String("importing") && p.done >= 6);
    });
    QVERIFY(!report);
    QCOMPARE(report.error().code, s("cancelled"));
    QVERIFY(stages.contains(s("checking")));
    QVERIFY(stages.contains(s("importing")));
    QCOMPARE(totalCommits(m_target->service()), commits);
    QCOMPARE(m_target->service()->health().nodes, 0);
    QCOMPARE(m_target->service()->listScopes().size(), 0);

    // Cancelled while checking: nothing either, and the same file imports afterwards.
    report = importBytes(m_target->service(), m_file, req, [](const Progress &) { return false; });
    QVERIFY(!report);
    QCOMPARE(report.error().code, s("cancelled"));
    QVERIFY(importBytes(m_target->service(), m_file, req));
}

void tst_Portability::cancelledExportLeavesNoFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(s("alpha.jsonl"));
    ExportRequest req;
    req.scope = s("alpha");
    auto outcome = m_source->service()->exportScopeToFile(
        req, path, [](const Progress &p) { return p.stage != QLatin1String("edges"); });
    QVERIFY(!outcome);
    QCOMPARE(outcome.error().code, s("cancelled"));
    QVERIFY(!QFile::exists(path));

    outcome = m_source->service()->exportScopeToFile(req, path);
    QVERIFY2(outcome, why(outcome));
    QVERIFY(QFile::exists(path));
    QCOMPARE(QFile::permissions(path) & (QFileDevice::ReadOther | QFileDevice::ReadGroup),
             QFileDevice::Permissions());
    QCOMPARE(outcome.value().bytes, QFileInfo(path).size());
    auto report = m_target->service()->importScopeFromFile(into(s("alpha")), path, {});
    QVERIFY2(report, why(report));
}

void tst_Portability::vectorsOfAnotherModelAreEmbeddedAgain()
{
    QProcessEnvironment env;
    env.insert(s("EMBEDDING_PROVIDER"), s("fake"));
    TempService fake(env);
    QVERIFY(fake.isValid());
    auto report = importBytes(fake.service(), m_file, into(s("alpha")));
    QVERIFY2(report, why(report));
    QCOMPARE(report.value().vectorsKept, 0);
    QVERIFY(report.value().vectorsPending > 0);
    QVERIFY(fake->waitForEmbeddings(120000));
    expectReadyAsInTheSource(fake.service(), s("fake"));
}

void tst_Portability::committedIsEmittedPerBatch()
{
    QSignalSpy spy(m_target->service(), &MemoryService::committed);
    ImportRequest req = into(s("alpha"));
    req.batchSize = 5;
    auto report = importBytes(m_target->service(), m_file, req);
    QVERIFY2(report, why(report));
    QCOMPARE(spy.size(), report.value().commitIds.size());
    QCOMPARE(spy.last().at(2).toString(), report.value().commitIds.last());
}

QTEST_GUILESS_MAIN(tst_Portability)
#include "tst_portability.moc"
