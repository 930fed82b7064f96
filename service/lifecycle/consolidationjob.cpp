#include "service/lifecycle/consolidationjob.h"

#include "service/access/callscope.h"
#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/core/jsonvalues.h"
#include "service/index/indexmanager.h"
#include "service/index/vectormath.h"
#include "service/storage/commitlog.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"

#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace MemoryGraph {

namespace {

const QString kJob = QStringLiteral("consolidation");
const QString kActor = QStringLiteral("system");
const QString kContradictory = QStringLiteral("contradictory_candidate");
constexpr int kNeighbours = 8;      ///< nearest vectors examined per node
constexpr int kSkippedInDiff = 100; ///< skipped pairs listed by id in the commit diff

const QString kAliasOf = QStringLiteral("alias_of");
const QString kSupersededBy = QStringLiteral("superseded_by");
const QString kMergedFrom = QStringLiteral("merged_from");
const QString kMergedCount = QStringLiteral("merged_count");

QString displayTitle(const NodeRecord &n)
{
    return n.title.isEmpty() ? n.textSummary : n.title;
}

bool isMerged(const NodeRecord &n)
{
    const QJsonValue alias = n.slotData.value(kAliasOf);
    return alias.isString() && !alias.toString().isEmpty();
}

bool canContradict(const QString &type)
{
    return type == QLatin1String("topic") || type == QLatin1String("concept");
}

QString slotText(const NodeRecord &n, const QString &key)
{
    const QJsonValue v = n.slotData.value(key);
    if (v.isString())
        return v.toString().trimmed().toLower();
    if (v.isUndefined() || v.isNull())
        return QString();
    return QString::fromUtf8(stableJson(v));
}

/// One negates what the other says, or they declare different polarity / stance.
bool contradicts(const NodeRecord &a, const NodeRecord &b)
{
    const auto negated = [](const NodeRecord &n) {
        return Consolidation::hasNegation(n.title + QLatin1Char(' ') + n.textSummary);
    };
    if (negated(a) != negated(b))
        return true;
    for (const QString &key : {QStringLiteral("polarity"), QStringLiteral("stance")}) {
        const QString x = slotText(a, key);
        const QString y = slotText(b, key);
        if (!x.isEmpty() && !y.isEmpty() && x != y)
            return true;
    }
    return false;
}

const QString kReading = QStringLiteral("reading nodes");
const QString kComparing = QStringLiteral("comparing embeddings");
const QString kApplying = QStringLiteral("applying");

/// Asks the callback (if any) whether to go on.
bool goOn(const ProgressCallback &progress, const QString &stage, qint64 done = 0, qint64 total = 0)
{
    return !progress || progress(Progress{stage, done, total});
}

Error cancelledAt(const QString &stage)
{
    return Error::cancelled(
        QStringLiteral("consolidation cancelled while %1; nothing was changed").arg(stage));
}

/// A candidate duplicate pair found by text or by embedding.
struct Link
{
    int other = -1;
    QString basis;
    double similarity = 1.0;
};

/// The merge plan for the nodes of one scope (read-only).
struct Plan
{
    QVector<ConsolidationMerge> merges;
    QVector<ConsolidationSkip> skipped;
    int scanned = 0;
};

/// Candidate partners per node (index into the scope's node list), recorded both ways.
using Links = QVector<QVector<Link>>;

/// Records a candidate pair once: a text match already recorded wins over the embedding.
void addLink(Links &links, int a, int b, const QString &basis, double similarity)
{
    for (const Link &l : std::as_const(links[a])) {
        if (l.other == b)
            return;
    }
    links[a].append({b, basis, similarity});
    links[b].append({a, basis, similarity});
}

/// The scope's nodes that may still merge (rules and aliases excepted), in canonical order:
/// oldest first, then higher salience, then id.
Result<QVector<NodeRecord>> mergeableNodes(QSqlDatabase &db, const QString &tenantId,
                                           const QString &scope)
{
    auto loaded = GraphStore::nonRuleNodesInScope(db, tenantId, scope);
    if (!loaded)
        return loaded.error();
    QVector<NodeRecord> nodes;
    for (const NodeRecord &n : loaded.value()) {
        if (!isMerged(n))
            nodes.append(n);
    }
    std::sort(nodes.begin(), nodes.end(), [](const NodeRecord &a, const NodeRecord &b) {
        if (a.createdAt != b.createdAt)
            return a.createdAt < b.createdAt;
        if (a.salience != b.salience)
            return a.salience > b.salience;
        return a.id < b.id;
    });
    return nodes;
}

/// Links nodes of one type whose normalised title and summary are equal.
void linkTextDuplicates(const QVector<NodeRecord> &nodes, Links &links)
{
    QHash<QString, int> firstWithText;
    for (int i = 0; i < nodes.size(); ++i) {
        const NodeRecord &n = nodes.at(i);
        const QString title = Consolidation::normalisedText(n.title);
        const QString summary = Consolidation::normalisedText(n.textSummary);
        if (title.isEmpty() && summary.isEmpty())
            continue;
        const QString key = n.type + QLatin1Char('\n') + title + QLatin1Char('\n') + summary;
        const auto found = firstWithText.constFind(key);
        if (found == firstWithText.constEnd()) {
            firstWithText.insert(key, i);
        } else {
            // Link every member to the group's first (and so, transitively, canonical) node.
            addLink(links, found.value(), i, QStringLiteral("text"), 1.0);
        }
    }
}

/// Links nodes of one type whose embeddings are at least kCosineThreshold alike, searching
/// the scope's index for each embedded node's nearest neighbours.
Result<void> linkEmbeddingNeighbours(QSqlDatabase &db, IndexManager &indexes,
                                     const QString &tenantId, const QString &scope,
                                     const QVector<NodeRecord> &nodes, Links &links,
                                     const ProgressCallback &progress)
{
    QHash<qint64, int> byLabel;
    for (int i = 0; i < nodes.size(); ++i) {
        if (nodes.at(i).embeddingStatus == QLatin1String("ready"))
            byLabel.insert(nodes.at(i).vectorLabel, i);
    }
    qint64 compared = 0;
    for (auto it = byLabel.constBegin(); it != byLabel.constEnd(); ++it, ++compared) {
        if (!goOn(progress, kComparing, compared, byLabel.size()))
            return cancelledAt(kComparing);
        const int i = it.value();
        auto bytes = GraphStore::nodeEmbedding(db, nodes.at(i).id);
        if (!bytes)
            return bytes.error();
        if (bytes.value().isEmpty())
            continue;
        const QString type = nodes.at(i).type;
        const qint64 self = it.key();
        auto matches = indexes.search(tenantId, scope, VectorMath::fromBytes(bytes.value()),
                                      kNeighbours, [&byLabel, &nodes, &type, self](qint64 label) {
                                          const auto other = byLabel.constFind(label);
                                          return label != self && other != byLabel.constEnd()
                                                 && nodes.at(other.value()).type == type;
                                      });
        if (!matches)
            continue; // e.g. a vector of another dimension: text matching still applies
        for (const VectorMatch &m : matches.value()) {
            if (double(m.similarity) >= ConsolidationJob::kCosineThreshold)
                addLink(links, i, byLabel.value(m.label), QStringLiteral("embedding"),
                        double(m.similarity));
        }
    }
    return {};
}

/// Greedy from the oldest: each unassigned node absorbs its unassigned later partners, except
/// those that contradict it.
void assignMerges(const QVector<NodeRecord> &nodes, const Links &links, Plan &out)
{
    QVector<bool> assigned(nodes.size(), false);
    for (int i = 0; i < nodes.size(); ++i) {
        if (assigned.at(i))
            continue;
        QVector<Link> partners = links.at(i);
        std::sort(partners.begin(), partners.end(),
                  [](const Link &a, const Link &b) { return a.other < b.other; });
        for (const Link &l : std::as_const(partners)) {
            if (l.other <= i || assigned.at(l.other))
                continue;
            const NodeRecord &canonical = nodes.at(i);
            const NodeRecord &duplicate = nodes.at(l.other);
            if (canContradict(canonical.type) && contradicts(canonical, duplicate)) {
                out.skipped.append({duplicate.id, canonical.id, duplicate.type, kContradictory,
                                    l.basis, l.similarity, displayTitle(duplicate),
                                    displayTitle(canonical)});
                continue;
            }
            assigned[l.other] = true;
            out.merges.append({canonical.id, duplicate.id, canonical.type, l.basis, l.similarity,
                               displayTitle(canonical), displayTitle(duplicate)});
        }
    }
}

/// Finds the duplicate pairs (by text, then by embedding) and decides which merges to make.
Result<Plan> plan(QSqlDatabase &db, IndexManager &indexes, const QString &tenantId,
                  const QString &scope, const ProgressCallback &progress)
{
    if (!goOn(progress, kReading))
        return cancelledAt(kReading);
    auto nodes = mergeableNodes(db, tenantId, scope);
    if (!nodes)
        return nodes.error();
    Plan out;
    out.scanned = int(nodes.value().size());
    Links links(nodes.value().size());
    linkTextDuplicates(nodes.value(), links);
    if (auto linked
        = linkEmbeddingNeighbours(db, indexes, tenantId, scope, nodes.value(), links, progress);
        !linked)
        return linked.error();
    assignMerges(nodes.value(), links, out);
    return out;
}

QJsonObject mergeJson(const ConsolidationMerge &m)
{
    return {{QStringLiteral("canonical_id"), m.canonicalId},
            {QStringLiteral("duplicate_id"), m.duplicateId},
            {QStringLiteral("type"), m.type},
            {QStringLiteral("basis"), m.basis},
            {QStringLiteral("similarity"), m.similarity}};
}

QJsonObject skipJson(const ConsolidationSkip &s)
{
    return {{QStringLiteral("node_id"), s.nodeId}, {QStringLiteral("other_id"), s.otherId},
            {QStringLiteral("type"), s.type},      {QStringLiteral("reason"), s.reason},
            {QStringLiteral("basis"), s.basis},    {QStringLiteral("similarity"), s.similarity}};
}

/// The planned merges' nodes as they are now, by id; a node no longer in the scope is absent.
Result<QHash<QString, NodeRecord>> currentNodes(QSqlDatabase &db, const QString &tenantId,
                                                const QString &scope,
                                                const QVector<ConsolidationMerge> &merges)
{
    QHash<QString, NodeRecord> current;
    for (const ConsolidationMerge &m : merges) {
        for (const QString &id : {m.canonicalId, m.duplicateId}) {
            if (current.contains(id))
                continue;
            auto found = GraphStore::findNode(db, id);
            if (!found)
                return found.error();
            if (found.value() && found.value()->tenantId == tenantId
                && found.value()->scope == scope)
                current.insert(id, *found.value());
        }
    }
    return current;
}

/// A node changed since planning (merged by a concurrent run, forgotten) drops its merge.
QVector<ConsolidationMerge> stillMergeable(const QHash<QString, NodeRecord> &current,
                                           const QVector<ConsolidationMerge> &merges)
{
    QVector<ConsolidationMerge> out;
    for (const ConsolidationMerge &m : merges) {
        if (current.contains(m.canonicalId) && current.contains(m.duplicateId)
            && !isMerged(current.value(m.canonicalId)) && !isMerged(current.value(m.duplicateId)))
            out.append(m);
    }
    return out;
}

/// The commit diff: the merges applied and a sample of the pairs skipped.
QJsonObject consolidationDiff(const ConsolidationReport &report, const QDateTime &now,
                              const QJsonArray &mergeList)
{
    QJsonArray skipSample;
    for (int i = 0; i < report.skipped.size() && i < kSkippedInDiff; ++i)
        skipSample.append(skipJson(report.skipped.at(i)));
    return QJsonObject{{QStringLiteral("job"), kJob},
                       {QStringLiteral("started_at"), now.toString(Qt::ISODateWithMs)},
                       {QStringLiteral("scope"), report.scope},
                       {QStringLiteral("cosine_threshold"), ConsolidationJob::kCosineThreshold},
                       {QStringLiteral("merges"), mergeList},
                       {QStringLiteral("skipped"),
                        QJsonObject{{QStringLiteral("count"), int(report.skipped.size())},
                                    {QStringLiteral("first"), skipSample}}}};
}

/// Marks each duplicate as an alias of its canonical node and lists it in the canonical's
/// merged_from; returns the ids touched, each once, in merge order.
QStringList markMerges(QHash<QString, NodeRecord> &current,
                       const QVector<ConsolidationMerge> &merges)
{
    QStringList touched;
    QSet<QString> seen;
    for (const ConsolidationMerge &m : merges) {
        NodeRecord &duplicate = current[m.duplicateId];
        duplicate.slotData.insert(kAliasOf, m.canonicalId);
        duplicate.slotData.insert(kSupersededBy, m.canonicalId);
        NodeRecord &canonical = current[m.canonicalId];
        QJsonArray mergedFrom = canonical.slotData.value(kMergedFrom).toArray();
        if (!mergedFrom.contains(QJsonValue(m.duplicateId)))
            mergedFrom.append(m.duplicateId);
        canonical.slotData.insert(kMergedFrom, mergedFrom);
        canonical.slotData.insert(kMergedCount, int(mergedFrom.size()));
        for (const QString &id : {m.canonicalId, m.duplicateId}) {
            if (!seen.contains(id)) {
                seen.insert(id);
                touched << id;
            }
        }
    }
    return touched;
}

/// Saves the touched nodes under the consolidation commit.
Result<void> saveTouched(QSqlDatabase &db, const QHash<QString, NodeRecord> &current,
                         const QStringList &touched, const QString &commitId, const QDateTime &now)
{
    for (const QString &id : touched) {
        NodeRecord n = current.value(id);
        n.commitId = commitId;
        n.updatedAt = now;
        if (auto saved = GraphStore::saveNode(db, n); !saved)
            return saved;
    }
    return {};
}

} // namespace

namespace Consolidation {

QString normalisedText(const QString &text)
{
    QString folded = text.toLower();
    folded.replace(QChar(0x2019), QLatin1Char('\''));
    QString kept;
    kept.reserve(folded.size());
    for (const QChar ch : std::as_const(folded))
        kept.append(ch.isLetterOrNumber() || ch == QLatin1Char('\'') ? ch : QLatin1Char(' '));
    return kept.simplified();
}

bool hasNegation(const QString &text)
{
    static const QSet<QString> words{QStringLiteral("not"),     QStringLiteral("no"),
                                     QStringLiteral("never"),   QStringLiteral("none"),
                                     QStringLiteral("nothing"), QStringLiteral("nobody"),
                                     QStringLiteral("neither"), QStringLiteral("nor"),
                                     QStringLiteral("cannot"),  QStringLiteral("without")};
    static const QRegularExpression contraction(QStringLiteral("n't$"));
    const QStringList tokens = normalisedText(text).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &t : tokens) {
        if (words.contains(t) || contraction.match(t).hasMatch())
            return true;
    }
    return false;
}

} // namespace Consolidation

QJsonObject ConsolidationReport::toJson() const
{
    QJsonArray mergeList;
    for (const ConsolidationMerge &m : merges)
        mergeList.append(mergeJson(m));
    QJsonArray skipList;
    for (const ConsolidationSkip &s : skipped)
        skipList.append(skipJson(s));
    return {{QStringLiteral("tenant_id"), tenantId},
            {QStringLiteral("scope"), scope},
            {QStringLiteral("dry_run"), !apply},
            {QStringLiteral("cosine_threshold"), cosineThreshold},
            {QStringLiteral("nodes_scanned"), nodesScanned},
            {QStringLiteral("merges"), mergeList},
            {QStringLiteral("skipped"), skipList},
            {QStringLiteral("commit_id"), nullable(commitId)},
            {QStringLiteral("commit_hash"), nullable(commitHash)}};
}

ConsolidationJob::ConsolidationJob(Database &db, IndexManager &indexes, const ServiceConfig &config)
    : m_db(db), m_indexes(indexes), m_config(config)
{
}

Result<ConsolidationReport> ConsolidationJob::run(const QString &tenantId, const QString &scope,
                                                  bool apply, const ProgressCallback &progress)
{
    ConsolidationReport report;
    report.tenantId = tenantId;
    report.scope = scope;
    report.apply = apply;
    report.cosineThreshold = kCosineThreshold;

    // Planned outside the writer lock (vector searches can be slow); re-checked inside it.
    auto conn = m_db.connection();
    if (!conn)
        return conn.error();
    auto planned = plan(conn.value(), m_indexes, tenantId, scope, progress);
    if (!planned)
        return planned.error();
    report.nodesScanned = planned.value().scanned;
    report.merges = planned.value().merges;
    report.skipped = planned.value().skipped;
    if (!apply || report.merges.isEmpty())
        return report;

    const CallScope cs{tenantId, scope, scopeKey(tenantId, scope, m_config.defaultTenant)};
    const QDateTime now = QDateTime::currentDateTimeUtc();
    auto written = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        // The last moment to stop: past it the commit goes through whole.
        if (!goOn(progress, kApplying))
            return cancelledAt(kApplying);
        auto current = currentNodes(db, tenantId, scope, report.merges);
        if (!current)
            return current.error();
        report.merges = stillMergeable(current.value(), report.merges);
        if (report.merges.isEmpty())
            return {};

        QJsonArray mergeList;
        for (const ConsolidationMerge &m : std::as_const(report.merges))
            mergeList.append(mergeJson(m));
        const QString inputSha
            = sha256Hex(stableJson(QJsonObject{{QStringLiteral("job"), kJob},
                                               {QStringLiteral("scope"), cs.key},
                                               {QStringLiteral("merges"), mergeList}}));
        auto commit = CommitLog::append(db, cs, kJob, kActor, inputSha,
                                        consolidationDiff(report, now, mergeList));
        if (!commit)
            return commit.error();
        report.commitId = commit.value().id;
        report.commitHash = commit.value().commitHash;

        const QStringList touched = markMerges(current.value(), report.merges);
        return saveTouched(db, current.value(), touched, report.commitId, now);
    });
    if (!written)
        return written.error();
    return report;
}

} // namespace MemoryGraph
