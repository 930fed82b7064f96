#include "service/lifecycle/decayjob.h"

#include "service/access/callscope.h"
#include "service/core/hashing.h"
#include "service/core/ids.h"
#include "service/core/jsonvalues.h"
#include "service/core/slotvalues.h"
#include "service/storage/commitlog.h"
#include "service/storage/database.h"
#include "service/storage/graphstore.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace MemoryGraph {

namespace {

const QString kJob = QStringLiteral("adaptive_decay");
const QString kActor = QStringLiteral("system");
constexpr qint64 kDayMs = 24LL * 60 * 60 * 1000;
constexpr int kSalienceSample = 20; ///< salience changes listed by id in the commit diff
constexpr double kSalienceEpsilon = 1e-12;

/// Demotion rule of one tier: below `maxSalience` and inactive for at least `minInactiveDays`.
struct Threshold
{
    const char *from;
    const char *to;
    double maxSalience;
    int minInactiveDays;
};

constexpr Threshold kThresholds[] = {
    {"hot", "warm", 0.35, 14},
    {"warm", "cold", 0.12, 45},
    {"cold", "archive", 0.03, 120},
};

const Threshold *thresholdFor(const QString &tier)
{
    for (const Threshold &t : kThresholds) {
        if (tier == QLatin1String(t.from))
            return &t;
    }
    return nullptr; // archive (immutable) or an unknown tier
}

bool truthy(const QJsonValue &v)
{
    if (v.isBool())
        return v.toBool();
    if (v.isDouble())
        return v.toDouble() == 1.0;
    if (v.isString()) {
        const QString s = v.toString().trimmed().toLower();
        return s == QLatin1String("true") || s == QLatin1String("1") || s == QLatin1String("yes")
               || s == QLatin1String("on");
    }
    return false;
}

/// A mutable node as read before the run, with what the run decided for it.
struct Candidate
{
    NodeRecord node;
    qint64 anchorMs = 0; ///< last_activated, else created_at
    double newSalience = 0;
    QString moveTo; ///< empty: tier unchanged
    QString moveReason;
};

/// Oldest activity first, then lowest salience, then id: the order demotions are granted in.
bool demoteFirst(const Candidate *a, const Candidate *b)
{
    if (a->anchorMs != b->anchorMs)
        return a->anchorMs < b->anchorMs;
    if (a->node.salience != b->node.salience)
        return a->node.salience < b->node.salience;
    return a->node.id < b->node.id;
}

/// Working-set budgets shed the least salient nodes after this run's decay.
bool shedFirst(const Candidate *a, const Candidate *b)
{
    if (a->newSalience != b->newSalience)
        return a->newSalience < b->newSalience;
    if (a->anchorMs != b->anchorMs)
        return a->anchorMs < b->anchorMs;
    return a->node.id < b->node.id;
}

/// Salience changes smaller than this are rounding noise, not a change worth a commit.
bool salienceChanged(const Candidate &c)
{
    return std::abs(c.newSalience - c.node.salience) > kSalienceEpsilon;
}

/// What the commit diff lists: every tier move and the first few salience changes.
struct DecayChanges
{
    QJsonArray transitions;
    QJsonArray salienceSample;
};

/// The shared state of one run over one scope: the clock, the report being filled, the
/// candidates with what was decided for them and the tier moves the daily budget still allows.
struct DecayPass
{
    const DecaySettings &settings;
    const qint64 nowMs;
    DecayReport &report;
    QVector<Candidate> candidates;
    int available = 0;

    void collectCandidates(const QVector<NodeRecord> &nodes);
    void openDailyBudget();
    void grantThresholdDemotions();
    void enforceWorkingSetBudgets(const QVector<NodeRecord> &nodes);
    void shed(const QString &fromTier, const QString &toTier, int excess, const QString &reason);
    int workingSetSize(const QVector<NodeRecord> &nodes, const QStringList &tiers) const;
    DecayChanges listChanges();
    QJsonObject commitDiff(const QString &scope, const DecayChanges &changes) const;
    QString inputDigest(const QString &scopeKeyText) const;
    Result<void> saveChangedNodes(QSqlDatabase &db) const;
};

/// Counts the daily budget already spent and the protected nodes, and computes every mutable
/// node's decayed salience from the pre-run state.
void DecayPass::collectCandidates(const QVector<NodeRecord> &nodes)
{
    for (const NodeRecord &n : nodes) {
        const auto lastMove
            = slotNumber(n.slotData.value(QStringLiteral("last_tier_transition_ms")));
        if (lastMove && *lastMove > double(nowMs - kDayMs) && *lastMove <= double(nowMs))
            ++report.usedLast24h;
        if (!thresholdFor(n.tier))
            continue;
        if (Decay::isProtected(n.slotData)) {
            ++report.protectedNodes;
            continue;
        }
        Candidate c;
        c.node = n;
        c.anchorMs
            = (n.lastActivated.isValid() ? n.lastActivated : n.createdAt).toMSecsSinceEpoch();
        const bool recent = nowMs - c.anchorMs <= qint64(settings.recentDays) * kDayMs;
        const double scale = settings.adaptive
                                 ? Decay::decayScale(recent, Decay::feedbackSignal(n.slotData))
                                 : 1.0;
        c.newSalience = Decay::decayedSalience(n.salience, settings.decayFactor, scale);
        candidates.append(std::move(c));
    }
}

/// One move per 20 mutable nodes a day (at least one), less what the last 24 hours used.
void DecayPass::openDailyBudget()
{
    report.mutableNodes = int(candidates.size());
    report.dailyBudget = report.mutableNodes > 0 ? std::max(1, report.mutableNodes / 20) : 0;
    available = std::max(0, report.dailyBudget - report.usedLast24h);
}

/// Threshold demotions, decided from the pre-run salience and activity, oldest activity first.
void DecayPass::grantThresholdDemotions()
{
    QVector<Candidate *> eligible;
    for (Candidate &c : candidates) {
        const Threshold *t = thresholdFor(c.node.tier);
        const qint64 inactiveMs = nowMs - c.anchorMs;
        if (c.node.salience < t->maxSalience && inactiveMs >= qint64(t->minInactiveDays) * kDayMs)
            eligible.append(&c);
    }
    std::sort(eligible.begin(), eligible.end(), demoteFirst);
    for (Candidate *c : std::as_const(eligible)) {
        if (available == 0) {
            ++report.deferredMoves;
            continue;
        }
        c->moveTo = QLatin1String(thresholdFor(c->node.tier)->to);
        c->moveReason = QStringLiteral("threshold");
        --available;
    }
}

/// Keeps the hot set and the hot + warm set within their configured sizes.
void DecayPass::enforceWorkingSetBudgets(const QVector<NodeRecord> &nodes)
{
    const QString hot = QStringLiteral("hot"), warm = QStringLiteral("warm"),
                  cold = QStringLiteral("cold");
    if (settings.hotBudget > 0) {
        const int excess = workingSetSize(nodes, {hot}) - settings.hotBudget;
        if (excess > 0)
            shed(hot, warm, excess, QStringLiteral("hot_budget"));
    }
    if (settings.activeBudget > 0) {
        const int excess = workingSetSize(nodes, {hot, warm}) - settings.activeBudget;
        if (excess > 0)
            shed(warm, cold, excess, QStringLiteral("active_budget"));
    }
}

/// Moves the least salient unmoved nodes of `fromTier` down until `excess` is shed or the
/// daily budget runs out (the rest is deferred).
void DecayPass::shed(const QString &fromTier, const QString &toTier, int excess,
                     const QString &reason)
{
    QVector<Candidate *> pool;
    for (Candidate &c : candidates) {
        if (c.node.tier == fromTier && c.moveTo.isEmpty())
            pool.append(&c);
    }
    std::sort(pool.begin(), pool.end(), shedFirst);
    for (Candidate *c : std::as_const(pool)) {
        if (excess <= 0)
            break;
        if (available == 0) {
            report.deferredMoves += excess;
            break;
        }
        c->moveTo = toTier;
        c->moveReason = reason;
        --available;
        --excess;
    }
}

/// Nodes in `tiers` once the moves decided so far are applied. Protected nodes count towards
/// the working set although they never move.
int DecayPass::workingSetSize(const QVector<NodeRecord> &nodes, const QStringList &tiers) const
{
    int count = 0;
    for (const NodeRecord &n : nodes)
        count += tiers.contains(n.tier) ? 1 : 0;
    for (const Candidate &c : candidates) {
        if (!c.moveTo.isEmpty())
            count += (tiers.contains(c.moveTo) ? 1 : 0) - (tiers.contains(c.node.tier) ? 1 : 0);
    }
    return count;
}

/// Records the moves and salience changes in the report and in the form the diff lists them.
DecayChanges DecayPass::listChanges()
{
    DecayChanges changes;
    for (const Candidate &c : std::as_const(candidates)) {
        if (!c.moveTo.isEmpty()) {
            report.moves.append({c.node.id, c.node.tier, c.moveTo, c.moveReason});
            changes.transitions.append(QJsonObject{{QStringLiteral("node_id"), c.node.id},
                                                   {QStringLiteral("from"), c.node.tier},
                                                   {QStringLiteral("to"), c.moveTo},
                                                   {QStringLiteral("reason"), c.moveReason}});
        }
        if (salienceChanged(c)) {
            if (report.salienceChanged++ < kSalienceSample)
                changes.salienceSample.append(QJsonObject{{QStringLiteral("node_id"), c.node.id},
                                                          {QStringLiteral("from"), c.node.salience},
                                                          {QStringLiteral("to"), c.newSalience}});
        }
    }
    return changes;
}

/// The commit diff: the settings and budget the run used and what it changed.
QJsonObject DecayPass::commitDiff(const QString &scope, const DecayChanges &changes) const
{
    return QJsonObject{{QStringLiteral("job"), kJob},
                       {QStringLiteral("started_at"), report.ranAt.toString(Qt::ISODateWithMs)},
                       {QStringLiteral("scope"), scope},
                       {QStringLiteral("settings"),
                        QJsonObject{{QStringLiteral("adaptive"), settings.adaptive},
                                    {QStringLiteral("recent_days"), settings.recentDays},
                                    {QStringLiteral("decay_factor"), settings.decayFactor},
                                    {QStringLiteral("hot_node_budget"), settings.hotBudget},
                                    {QStringLiteral("active_node_budget"), settings.activeBudget}}},
                       {QStringLiteral("budget"),
                        QJsonObject{{QStringLiteral("mutable_nodes"), report.mutableNodes},
                                    {QStringLiteral("protected_nodes"), report.protectedNodes},
                                    {QStringLiteral("daily"), report.dailyBudget},
                                    {QStringLiteral("used_last_24h"), report.usedLast24h},
                                    {QStringLiteral("deferred"), report.deferredMoves}}},
                       {QStringLiteral("transitions"), changes.transitions},
                       {QStringLiteral("salience"),
                        QJsonObject{{QStringLiteral("changed"), report.salienceChanged},
                                    {QStringLiteral("first"), changes.salienceSample}}}};
}

/// The commit's input digest: the job, the scope and the simulated time it ran at.
QString DecayPass::inputDigest(const QString &scopeKeyText) const
{
    return sha256Hex(stableJson(QJsonObject{{QStringLiteral("job"), kJob},
                                            {QStringLiteral("scope"), scopeKeyText},
                                            {QStringLiteral("now_ms"), nowMs}}));
}

/// Writes the new salience of every changed node; a moved node also records its transition
/// (which the next runs count against the daily budget) and the commit that moved it.
Result<void> DecayPass::saveChangedNodes(QSqlDatabase &db) const
{
    for (const Candidate &c : candidates) {
        const bool moved = !c.moveTo.isEmpty();
        if (!moved && std::abs(c.newSalience - c.node.salience) <= kSalienceEpsilon)
            continue;
        NodeRecord n = c.node;
        n.salience = c.newSalience;
        if (moved) {
            n.tier = c.moveTo;
            n.slotData.insert(QStringLiteral("last_tier_transition_ms"), nowMs);
            n.slotData.insert(QStringLiteral("last_tier_transition_from"), c.node.tier);
            n.slotData.insert(QStringLiteral("last_tier_transition_to"), c.moveTo);
            n.slotData.insert(QStringLiteral("last_tier_transition_job"), kJob);
            n.commitId = report.commitId;
            n.updatedAt = report.ranAt;
        }
        if (auto saved = GraphStore::saveNode(db, n); !saved)
            return saved;
    }
    return {};
}

} // namespace

namespace Decay {

bool isProtected(const QJsonObject &slotData)
{
    return truthy(slotData.value(QStringLiteral("pin")))
           || truthy(slotData.value(QStringLiteral("legal_hold")));
}

double feedbackSignal(const QJsonObject &slotData)
{
    if (auto q = slotNumber(slotData.value(QStringLiteral("feedback_quality"))))
        return std::clamp(*q, -1.0, 1.0);
    const auto pos = slotNumber(slotData.value(QStringLiteral("feedback_positive")));
    const auto neg = slotNumber(slotData.value(QStringLiteral("feedback_negative")));
    if (pos && neg)
        return std::clamp((*pos - *neg) / std::max(1.0, *pos + *neg), -1.0, 1.0);
    return 0.0;
}

double decayScale(bool recent, double feedback)
{
    double f = 1.0;
    if (feedback > 0)
        f = std::max(0.25, 1.0 - feedback * 0.5);
    else if (feedback < 0)
        f = std::min(2.0, 1.0 + std::abs(feedback) * 1.0);
    return std::clamp((recent ? 0.6 : 1.0) * f, 0.25, 2.0);
}

double decayedSalience(double salience, double factor, double scale)
{
    return std::clamp(salience * (1.0 - (1.0 - factor) * scale), 0.0, 1.0);
}

} // namespace Decay

DecaySettings DecaySettings::fromConfig(const ServiceConfig &config)
{
    DecaySettings s;
    s.adaptive = config.adaptiveDecayEnabled;
    s.recentDays = config.adaptiveRecentDays;
    s.decayFactor = config.salienceDecayFactor;
    s.hotBudget = config.scopeHotNodeBudget;
    s.activeBudget = config.scopeActiveNodeBudget;
    return s;
}

QJsonObject DecayReport::toJson() const
{
    QJsonArray moved;
    for (const TierMove &m : moves)
        moved.append(QJsonObject{{QStringLiteral("node_id"), m.nodeId},
                                 {QStringLiteral("from"), m.from},
                                 {QStringLiteral("to"), m.to},
                                 {QStringLiteral("reason"), m.reason}});
    return {{QStringLiteral("tenant_id"), tenantId},
            {QStringLiteral("scope"), scope},
            {QStringLiteral("ran_at"), ranAt.toString(Qt::ISODateWithMs)},
            {QStringLiteral("mutable_nodes"), mutableNodes},
            {QStringLiteral("protected_nodes"), protectedNodes},
            {QStringLiteral("salience_changed"), salienceChanged},
            {QStringLiteral("daily_budget"), dailyBudget},
            {QStringLiteral("used_last_24h"), usedLast24h},
            {QStringLiteral("deferred_moves"), deferredMoves},
            {QStringLiteral("moves"), moved},
            {QStringLiteral("commit_id"), nullable(commitId)},
            {QStringLiteral("commit_hash"), nullable(commitHash)}};
}

DecayJob::DecayJob(Database &db, const ServiceConfig &config)
    : m_db(db), m_config(config), m_settings(DecaySettings::fromConfig(config))
{
}

Result<DecayReport> DecayJob::run(const QString &tenantId, const QString &scope,
                                  const QDateTime &now)
{
    const CallScope cs{tenantId, scope, scopeKey(tenantId, scope, m_config.defaultTenant)};
    DecayReport report;
    report.tenantId = tenantId;
    report.scope = scope;
    report.ranAt = now.toUTC();
    DecayPass pass{m_settings, now.toMSecsSinceEpoch(), report, {}, 0};

    auto written = m_db.write([&](QSqlDatabase &db) -> Result<void> {
        // Everything is read before anything changes: this snapshot is the "pre-run state".
        auto nodes = GraphStore::nodesInScope(db, tenantId, scope);
        if (!nodes)
            return nodes.error();
        pass.collectCandidates(nodes.value());
        pass.openDailyBudget();
        pass.grantThresholdDemotions();
        pass.enforceWorkingSetBudgets(nodes.value());
        const DecayChanges changes = pass.listChanges();
        if (report.moves.isEmpty() && report.salienceChanged == 0)
            return {}; // nothing changed: no commit

        auto commit = CommitLog::append(db, cs, kJob, kActor, pass.inputDigest(cs.key),
                                        pass.commitDiff(scope, changes));
        if (!commit)
            return commit.error();
        report.commitId = commit.value().id;
        report.commitHash = commit.value().commitHash;
        return pass.saveChangedNodes(db);
    });
    if (!written)
        return written.error();
    return report;
}

} // namespace MemoryGraph
