#include "service/portability/scopeexporter.h"

#include "service/access/callscope.h"
#include "service/portability/exportformat.h"
#include "service/portability/progressreporter.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"
#include "service/storage/portabilitystore.h"
#include "service/storage/rulestore.h"

#include <QIODevice>
#include <QJsonDocument>

namespace MemoryGraph {

namespace {

using ExportFormat::Kind;
using ExportFormat::kindName;

/// Writes one JSON object per line and counts what it wrote; the first failure is kept.
class LineWriter
{
public:
    explicit LineWriter(QIODevice *out) : m_out(out) { }

    bool write(const QJsonObject &object)
    {
        if (m_error)
            return false;
        QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
        line.append('\n');
        if (m_out->write(line) != line.size()) {
            m_error
                = Error::make(500, QStringLiteral("export_write_failed"),
                              QStringLiteral("cannot write the export: ") + m_out->errorString());
            return false;
        }
        m_bytes += line.size();
        return true;
    }

    qint64 bytes() const { return m_bytes; }
    const std::optional<Error> &error() const { return m_error; }

private:
    QIODevice *m_out;
    qint64 m_bytes = 0;
    std::optional<Error> m_error;
};

/// What one walk over the scope needs: where lines go, progress, and how many of each kind.
struct ExportWalk
{
    LineWriter &writer;
    ProgressReporter &progress;
    QMap<QString, qint64> written;

    /// Writes one record of `kind`; false stops the walk (write failure or cancel).
    bool put(Kind kind, const QJsonObject &record)
    {
        if (!writer.write(record))
            return false;
        ++written[kindName(kind)];
        return progress.step();
    }
};

ExportFormat::Header headerFor(const CallScope &cs, const PortabilityStore::ScopeCounts &c,
                               const ExportRequest &request)
{
    ExportFormat::Header h;
    h.tenantId = cs.tenantId;
    h.scope = cs.scope;
    h.exportedAt = QDateTime::currentDateTimeUtc();
    h.appVersion = QStringLiteral(MEMORYGRAPH_VERSION);
    h.embeddings = request.includeEmbeddings;
    h.counts = {{kindName(Kind::Node), c.nodes},
                {kindName(Kind::Edge), c.edges},
                {kindName(Kind::Rule), c.rules},
                {kindName(Kind::Decision), c.decisions},
                {kindName(Kind::RuleFeedback), c.feedback},
                {kindName(Kind::Commit), c.commits}};
    h.replayRuns = c.replayRuns;
    return h;
}

/// Every record of the scope, kind after kind. Stops early when a write fails or the caller
/// cancels (the walk's writer and progress say which).
Result<void> walkScope(QSqlDatabase &db, const CallScope &cs, bool withEmbeddings, ExportWalk &w)
{
    const QString &t = cs.tenantId;
    const QString &s = cs.scope;
    if (!w.progress.stage(QStringLiteral("nodes")))
        return {};
    auto ids = GraphStore::nodeIdsInCreationOrder(db, t, s);
    if (!ids)
        return ids.error();
    bool going = true;
    auto walked = GraphStore::visitNodes(
        db, ids.value(), withEmbeddings, [&](const NodeRecord &n, const QByteArray &vector) {
            return going = w.put(Kind::Node, ExportFormat::nodeJson(n, vector));
        });
    if (!walked || !going)
        return walked;
    if (!w.progress.stage(QStringLiteral("edges")))
        return {};
    walked = GraphStore::visitEdgesInScope(db, t, s, [&](const EdgeRecord &e, const QDateTime &u) {
        return going = w.put(Kind::Edge, ExportFormat::edgeJson(e, u));
    });
    if (!walked || !going)
        return walked;
    if (!w.progress.stage(QStringLiteral("rules")))
        return {};
    walked = RuleStore::visitRuleStates(
        db, t, s, [&](const QString &id, const RuleStatus &status, const QDateTime &created) {
            return going = w.put(Kind::Rule, ExportFormat::ruleJson({id, status, created}));
        });
    if (!walked || !going)
        return walked;
    if (!w.progress.stage(QStringLiteral("decisions")))
        return {};
    walked = RuleStore::visitDecisions(db, t, s, [&](const DecisionRecord &d) {
        return going = w.put(Kind::Decision, ExportFormat::decisionJson(d));
    });
    if (!walked || !going)
        return walked;
    if (!w.progress.stage(QStringLiteral("rule feedback")))
        return {};
    walked = RuleStore::visitFeedback(db, t, s, [&](const FeedbackRecord &f) {
        return going = w.put(Kind::RuleFeedback, ExportFormat::feedbackJson(f));
    });
    if (!walked || !going)
        return walked;
    if (!w.progress.stage(QStringLiteral("commits")))
        return {};
    return GraphStore::visitCommitsInScope(db, t, s, [&](const CommitRecord &c) {
        return w.put(Kind::Commit, ExportFormat::commitJson(c));
    });
}

} // namespace

ScopeExporter::ScopeExporter(Database &db, const ServiceConfig &config) : m_db(db), m_config(config)
{
}

Result<ExportOutcome> ScopeExporter::run(const ExportRequest &request, QIODevice *out,
                                         const ProgressCallback &progress)
{
    auto scoped = resolveCallScope(request.tenantId, request.scope, RequestMeta{}, m_config);
    if (!scoped)
        return scoped.error();
    const CallScope &cs = scoped.value();
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    QSqlDatabase db = conn.value();
    PortabilityStore::ReadSnapshot snapshot(db);
    if (auto begun = snapshot.begin(); !begun)
        return begun.error();
    auto counts = PortabilityStore::countScope(db, cs.tenantId, cs.scope);
    if (!counts)
        return counts.error();
    const PortabilityStore::ScopeCounts &c = counts.value();
    if (c.nodes == 0 && c.commits == 0)
        return Error::notFound(
            QStringLiteral("the scope holds nothing to export"),
            {{QStringLiteral("tenant_id"), cs.tenantId}, {QStringLiteral("scope"), cs.scope}});

    const ExportFormat::Header header = headerFor(cs, c, request);
    LineWriter writer(out);
    ProgressReporter reporter(progress,
                              c.nodes + c.edges + c.rules + c.decisions + c.feedback + c.commits);
    ExportWalk walk{writer, reporter, {}};
    if (!writer.write(ExportFormat::headerJson(header)))
        return *writer.error();
    auto walked = walkScope(db, cs, request.includeEmbeddings, walk);
    if (!walked)
        return walked.error();
    if (writer.error())
        return *writer.error();
    if (reporter.stopped())
        return ProgressReporter::cancelled(QStringLiteral("the export"));

    ExportOutcome outcome;
    outcome.tenantId = cs.tenantId;
    outcome.scope = cs.scope;
    outcome.exportedAt = header.exportedAt;
    for (Kind kind : ExportFormat::kindOrder())
        outcome.counts.insert(kindName(kind), walk.written.value(kindName(kind)));
    outcome.replayRuns = c.replayRuns;
    outcome.bytes = writer.bytes();
    outcome.includeEmbeddings = request.includeEmbeddings;
    return outcome;
}

} // namespace MemoryGraph
